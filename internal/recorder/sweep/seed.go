package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// api sends one request of the sweep's own through the proxy, labelled
// "(seed) what", and decodes a 2xx answer into out.
func (f *forge) api(ctx context.Context, what, method, path, token string, body, out any) error {
	f.rec.SetTool(what, nil)
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, f.proxy+"/api/v1"+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "token "+token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := f.http.Do(req)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s: %s %s: %d %s", what, method, path, resp.StatusCode, raw)
	}
	if out != nil && len(raw) > 0 {
		return json.Unmarshal(raw, out)
	}
	return nil
}

type idOf struct {
	ID     int64 `json:"id"`
	Number int64 `json:"number"`
	Head   struct {
		SHA string `json:"sha"`
	} `json:"head"`
}

// step is one seeding request; path is read when the step runs, after the
// steps before it filled in the ids it names.
type step struct {
	what, method string
	path         func() string
	token        string
	body, out    any
}

func (f *forge) steps(ctx context.Context, steps []step) error {
	for _, s := range steps {
		// A merge is refused with 405 "Please try again later" until the
		// forge has checked the pull request's mergeability, in the
		// background: try again a few times.
		err := f.api(ctx, s.what, s.method, s.path(), s.token, s.body, s.out)
		for try := 0; err != nil && strings.Contains(err.Error(), "try again later") && try < 40; try++ {
			time.Sleep(250 * time.Millisecond)
			err = f.api(ctx, s.what, s.method, s.path(), s.token, s.body, s.out)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func at(format string, args ...any) func() string {
	return func() string { return fmt.Sprintf(format, args...) }
}

// seed makes what the swept tools need: a repository user2 may write to,
// with an issue and a comment, a pull request behind its base with a
// pending review holding a line comment, user2's dismissed approval with
// a line comment and a status on its head, a second pull request waiting
// for a required check to auto-merge, and an organisation with a team
// that has user2 and a repository.
func (f *forge) seed(ctx context.Context) error {
	f.repo, f.org, f.orgRepo = "sweep2-rec", "sorgrec2", "team-repo"
	r := "/repos/" + f.admin + "/" + f.repo
	content := func(text string) string { return base64.StdEncoding.EncodeToString([]byte(text)) }
	file := func(name, text, branch, newBranch string) map[string]any {
		return map[string]any{"content": content(text), "message": "add " + name, "branch": branch, "new_branch": newBranch}
	}
	var issue, comment, pull, auto, review, approval, team idOf
	err := f.steps(ctx, []step{
		{"(seed) repository", "POST", at("/user/repos"), f.adminTok,
			map[string]any{"name": f.repo, "auto_init": true, "readme": "Default", "default_branch": "main"}, nil},
		{"(seed) user2 collaborator", "PUT", at("%s/collaborators/%s", r, f.user2), f.adminTok, map[string]any{"permission": "write"}, nil},
		{"(seed) issue", "POST", at("%s/issues", r), f.adminTok, map[string]any{"title": "reactions here", "body": "react"}, &issue},
		{"(seed) branch feature", "POST", at("%s/contents/feature.txt", r), f.adminTok, file("feature.txt", "one\ntwo\nthree\n", "main", "feature"), nil},
		{"(seed) branch auto", "POST", at("%s/contents/auto.txt", r), f.adminTok, file("auto.txt", "auto\n", "main", "auto"), nil},
		{"(seed) pull request", "POST", at("%s/pulls", r), f.adminTok, map[string]any{"title": "feature", "head": "feature", "base": "main"}, &pull},
		{"(seed) auto-merge pull request", "POST", at("%s/pulls", r), f.adminTok, map[string]any{"title": "auto", "head": "auto", "base": "main"}, &auto},
		{"(seed) main moves ahead", "POST", at("%s/contents/later.txt", r), f.adminTok, file("later.txt", "later\n", "main", ""), nil},
		{"(seed) organisation", "POST", at("/orgs"), f.adminTok, map[string]any{"username": f.org, "visibility": "public"}, nil},
		{"(seed) team", "POST", at("/orgs/%s/teams", f.org), f.adminTok, map[string]any{"name": "devs", "permission": "write",
			"units": []string{"repo.code", "repo.issues", "repo.pulls"}, "includes_all_repositories": false}, &team},
		{"(seed) organisation repository", "POST", at("/orgs/%s/repos", f.org), f.adminTok, map[string]any{"name": f.orgRepo, "auto_init": true}, nil},
		{"(seed) issue comment", "POST", func() string { return fmt.Sprintf("%s/issues/%d/comments", r, issue.Number) }, f.adminTok,
			map[string]any{"body": "a comment to react to"}, &comment},
		{"(seed) team member user2", "PUT", func() string { return fmt.Sprintf("/teams/%d/members/%s", team.ID, f.user2) }, f.adminTok, nil, nil},
		{"(seed) team repository", "PUT", func() string { return fmt.Sprintf("/teams/%d/repos/%s/%s", team.ID, f.org, f.orgRepo) }, f.adminTok, nil, nil},
		{"(seed) user2 approves with a line comment", "POST", func() string { return fmt.Sprintf("%s/pulls/%d/reviews", r, pull.Number) }, f.user2Tok,
			map[string]any{"event": "APPROVED", "body": "fine", "comments": []map[string]any{{"path": "feature.txt", "new_position": 2, "body": "this line"}}}, &approval},
		{"(seed) pending review with a line comment", "POST", func() string { return fmt.Sprintf("%s/pulls/%d/reviews", r, pull.Number) }, f.adminTok,
			map[string]any{"event": "PENDING", "body": "pending", "comments": []map[string]any{{"path": "feature.txt", "new_position": 1, "body": "first line"}}}, &review},
		{"(seed) dismiss user2's approval", "POST", func() string { return fmt.Sprintf("%s/pulls/%d/reviews/%d/dismissals", r, pull.Number, approval.ID) },
			f.adminTok, map[string]any{"message": "dismissed to undismiss"}, nil},
		{"(seed) a status on the pull request's head", "POST", func() string { return fmt.Sprintf("%s/statuses/%s", r, pull.Head.SHA) }, f.adminTok,
			map[string]any{"state": "success", "context": "sweep/check", "description": "recorded"}, nil},
		{"(seed) a dispatchable workflow", "POST", at("%s/contents/.gitea/workflows/sweep.yml", r), f.adminTok,
			file("sweep.yml", "name: Sweep\non:\n  workflow_dispatch:\n    inputs:\n      level:\n        type: choice\n        options: [debug, info]\n"+
				"jobs:\n  sweep:\n    runs-on: no-such-runner\n    steps:\n      - run: echo ${{ inputs.level }}\n", "main", ""), nil},
		{"(seed) protect main, a check required", "POST", at("%s/branch_protections", r), f.adminTok,
			map[string]any{"rule_name": "main", "enable_status_check": true, "status_check_contexts": []string{"sweep/check"}}, nil},
		{"(seed) schedule auto-merge", "POST", func() string { return fmt.Sprintf("%s/pulls/%d/merge", r, auto.Number) }, f.adminTok,
			map[string]any{"Do": "merge", "merge_when_checks_succeed": true}, nil},
	})
	f.issue, f.comment, f.pull, f.auto, f.teamID = issue.Number, comment.ID, pull.Number, auto.Number, team.ID
	f.pullHead = pull.Head.SHA
	f.pending, f.approval = review.ID, approval.ID
	if err != nil {
		return err
	}
	return f.seedPackage(ctx)
}

// seedPackage uploads a generic package for the package tools, through
// the registry's own route (below /api/packages, not the API).
func (f *forge) seedPackage(ctx context.Context) error {
	const what = "(seed) generic package"
	f.rec.SetTool(what, nil)
	req, err := http.NewRequestWithContext(ctx, http.MethodPut,
		f.proxy+"/api/packages/"+f.admin+"/generic/sweep-pkg/1.0.0/sweep.txt", strings.NewReader("sweep package\n"))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "token "+f.adminTok)
	resp, err := f.http.Do(req)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return fmt.Errorf("%s: %d %s", what, resp.StatusCode, raw)
	}
	return nil
}
