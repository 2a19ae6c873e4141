package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
)

// runnerSwept are the runner tools that need a runner: one is registered
// on the sweep's repository, read, disabled and enabled again (Gitea's
// edit_*_runner) and deleted; the organisation's and the user's are asked
// about a runner they do not have, for the forge's 404.
var runnerSwept = []string{
	"get_repo_runner", "edit_repo_runner", "delete_repo_runner",
	"get_org_runner", "edit_org_runner", "delete_org_runner",
	"get_my_runner", "edit_my_runner", "delete_my_runner",
}

// runnerCalls are the calls of runnerSwept. The runner is registered
// straight with the forge, not through the proxy: neither the
// registration token nor the runner's own secret reaches the recording.
// A forge that will not register one (another flavour's routes) leaves
// id 0, and the calls record its refusal.
func (f *forge) runnerCalls(ctx context.Context) []sweepCall {
	id, err := f.registerRunner(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, "sweep: no runner registered, the runner calls record refusals:", err)
	}
	onRepo := func(extra map[string]any) func() map[string]any {
		return func() map[string]any {
			extra["owner"], extra["repo"], extra["runner_id"] = f.admin, f.repo, id
			return extra
		}
	}
	const missing = 999999
	calls := []sweepCall{
		{"get_repo_runner", onRepo(map[string]any{})},
		{"edit_repo_runner", onRepo(map[string]any{"disabled": true})},
		{"edit_repo_runner", onRepo(map[string]any{"disabled": false})},
		{"delete_repo_runner", onRepo(map[string]any{})},
		{"get_repo_runner", onRepo(map[string]any{})}, // deleted: the forge's 404
	}
	for _, level := range []struct {
		noun string
		args map[string]any
	}{{"org", map[string]any{"org": f.org}}, {"my", map[string]any{}}} {
		args := func(extra map[string]any) func() map[string]any {
			return func() map[string]any {
				extra["runner_id"] = missing
				for k, v := range level.args {
					extra[k] = v
				}
				return extra
			}
		}
		calls = append(calls,
			sweepCall{"get_" + level.noun + "_runner", args(map[string]any{})},
			sweepCall{"edit_" + level.noun + "_runner", args(map[string]any{"disabled": true})},
			sweepCall{"delete_" + level.noun + "_runner", args(map[string]any{})})
	}
	return calls
}

// registerRunner registers a runner on the sweep's repository as a runner
// does (Gitea's POST for the token, then the runner service's Register,
// in its Connect JSON encoding) and returns its id, as the forge lists it.
func (f *forge) registerRunner(ctx context.Context) (int64, error) {
	repo := "/api/v1/repos/" + f.admin + "/" + f.repo + "/actions/runners"
	auth := map[string]string{"Authorization": "token " + f.adminTok}
	var tok struct {
		Token string `json:"token"`
	}
	if err := f.direct(ctx, http.MethodPost, repo+"/registration-token", auth, nil, &tok); err != nil {
		return 0, err
	}
	reg := map[string]any{"name": "sweep-runner", "token": tok.Token, "labels": []string{"sweep-runner"}}
	if err := f.direct(ctx, http.MethodPost, "/api/actions/runner.v1.RunnerService/Register",
		map[string]string{"Connect-Protocol-Version": "1"}, reg, nil); err != nil {
		return 0, err
	}
	var list struct {
		Runners []idOf `json:"runners"`
	}
	if err := f.direct(ctx, http.MethodGet, repo, auth, nil, &list); err != nil || len(list.Runners) == 0 {
		return 0, fmt.Errorf("the registered runner is not listed (%v)", err)
	}
	return list.Runners[0].ID, nil
}

// direct sends a request straight to the forge, past the proxy: nothing
// of it is recorded.
func (f *forge) direct(ctx context.Context, method, path string, headers map[string]string, body, out any) error {
	var rd io.Reader = http.NoBody
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	u := *f.url
	u.Path = path
	req, err := http.NewRequestWithContext(ctx, method, u.String(), rd)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := f.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, raw)
	}
	if out != nil {
		return json.Unmarshal(raw, out)
	}
	return nil
}
