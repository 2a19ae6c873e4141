package taskbench_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
)

// fixture is the repository the tasks work in, made through the forge's
// API (not counted): an agent's branch fix-parser with an open pull
// request among others, its CI failed (a commit status and an Actions job
// whose long log ends with the error), issues of which a few are assigned
// to the agent, and a long config file with one line to change.
type fixture struct {
	owner, repo, me string
	branch          string // the agent's branch
	pull            int64  // its pull request
	headSHA         string
	runID, jobID    int64  // its failed CI job
	config          string // the file with the line to change
	assigned        map[int64][]string
}

const (
	fixBranch   = "fix-parser"
	configPath  = "deploy/config.ini"
	otherPulls  = 8
	issueCount  = 40
	assignedTo  = 6
	logLines    = 4000 // about 300 KB of log
	failureLine = "FAIL: TestParseNested (0.00s): parse.go:41: unexpected token '}' at 3:14"
)

// parserSource is a Go file of n numbered functions.
func parserSource(n int, tweak string) string {
	var b strings.Builder
	b.WriteString("package parser\n\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "// Step%d is step %d of the parser.\nfunc Step%d(s string) string { return s%s }\n\n", i, i, i, map[bool]string{true: tweak, false: ""}[i == 7 || i == 31])
	}
	return b.String()
}

// configText is a long INI file with one timeout line.
func configText() string {
	var b strings.Builder
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&b, "[service%d]\nhost = svc%d.internal\nport = %d\nretries = 3\n\n", i, i, 8000+i)
	}
	b.WriteString("[http]\ntimeout = 30\nkeepalive = true\n")
	return b.String()
}

func newFixture(t *testing.T, f *testforge.Forge) *fixture {
	t.Helper()
	owner, repo := f.NewRepo(t)
	fx := &fixture{owner: owner, repo: repo, me: f.User, branch: fixBranch, config: configPath, assigned: map[int64][]string{}}
	base := "/repos/" + owner + "/" + repo
	do := func(method, path string, body any, out any, want int) {
		t.Helper()
		var raw []byte
		status := f.Do(t, method, base+path, body, &raw)
		require.Equal(t, want, status, "%s %s: %s", method, path, raw)
		if out != nil {
			require.NoError(t, json.Unmarshal(raw, out), "%s", raw)
		}
	}
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

	if f.User2 != "" {
		do(http.MethodPut, "/collaborators/"+f.User2, map[string]any{"permission": "write"}, nil, http.StatusNoContent)
	}
	runner := f.NewRunner(t, owner, repo)
	workflow := "on:\n  push:\n    branches: ['fix-*']\njobs:\n  test:\n    runs-on: " + runner.Label + "\n    steps:\n      - run: go test ./...\n"
	do(http.MethodPost, "/contents", map[string]any{"message": "Parser, config and CI", "files": []map[string]any{
		{"operation": "create", "path": "parser/parse.go", "content": b64(parserSource(60, ""))},
		{"operation": "create", "path": configPath, "content": b64(configText())},
		{"operation": "create", "path": ".gitea/workflows/ci.yml", "content": b64(workflow)},
	}}, nil, http.StatusCreated)

	// The agent's branch: its push starts a CI run, whose job fails.
	var pushed struct {
		Commit struct {
			SHA string `json:"sha"`
		} `json:"commit"`
	}
	var file struct {
		SHA string `json:"sha"`
	}
	do(http.MethodGet, "/contents/parser/parse.go", nil, &file, http.StatusOK)
	do(http.MethodPut, "/contents/parser/parse.go", map[string]any{"new_branch": fixBranch, "message": "Trim input in steps 7 and 31",
		"sha": file.SHA, "content": b64(parserSource(60, "[1:]"))}, &pushed, http.StatusOK)
	fx.headSHA = pushed.Commit.SHA
	started := time.Now()
	task := runner.Take(t)
	fx.runID, fx.jobID = task.RunID, task.JobID
	lines := make([]string, 0, logLines)
	for i := 1; i < logLines; i++ {
		lines = append(lines, fmt.Sprintf("=== RUN   TestStep%d/case-%03d: parsing input %q ... ok", i%60+1, i, strings.Repeat("x", 20)))
	}
	runner.End(t, task, "RESULT_FAILURE", started, append(lines, failureLine)...)
	for _, st := range []map[string]any{
		{"context": "ci/lint", "state": "success", "description": "gofmt, vet: clean"},
		{"context": "ci/test", "state": "failure", "description": "1 test failed: TestParseNested"},
	} {
		do(http.MethodPost, "/statuses/"+fx.headSHA, st, nil, http.StatusCreated)
	}

	// Pull requests: the agent's, among others.
	var pr struct {
		Number int64 `json:"number"`
	}
	for i := 1; i <= otherPulls; i++ {
		br := fmt.Sprintf("feature-%d", i)
		do(http.MethodPost, "/contents/notes/"+br+".md", map[string]any{"new_branch": br, "message": "Note " + br,
			"content": b64("# " + br + "\n")}, nil, http.StatusCreated)
		do(http.MethodPost, "/pulls", map[string]any{"head": br, "base": "main", "title": "Feature " + br,
			"body": strings.Repeat("A longer description of the change. ", 10)}, nil, http.StatusCreated)
		if i == otherPulls/2 {
			do(http.MethodPost, "/pulls", map[string]any{"head": fixBranch, "base": "main", "title": "Fix nested parsing",
				"body": "Trims the input before steps 7 and 31."}, &pr, http.StatusCreated)
			fx.pull = pr.Number
		}
	}

	// Issues: a few assigned to the agent, with labels.
	labels := map[string]int64{}
	for _, name := range []string{"bug", "parser", "docs", "ci"} {
		var l struct {
			ID int64 `json:"id"`
		}
		do(http.MethodPost, "/labels", map[string]any{"name": name, "color": "#aa0000"}, &l, http.StatusCreated)
		labels[name] = l.ID
	}
	for i := 1; i <= issueCount; i++ {
		body := map[string]any{"title": fmt.Sprintf("Issue %d", i), "body": strings.Repeat("Steps to reproduce. ", 8)}
		var names []string
		switch {
		case i%7 == 0 && len(fx.assigned) < assignedTo:
			body["assignees"] = []string{f.User}
			names = []string{"bug", "parser"}
		case i%3 == 0 && f.User2 != "":
			body["assignees"] = []string{f.User2}
			names = []string{"docs"}
		}
		if i == 5 {
			body["assignees"] = []string{f.User}
			names = []string{"ci"}
		}
		ids := []int64{}
		for _, n := range names {
			ids = append(ids, labels[n])
		}
		body["labels"] = ids
		var issue struct {
			Number int64 `json:"number"`
		}
		do(http.MethodPost, "/issues", body, &issue, http.StatusCreated)
		if as, _ := body["assignees"].([]string); len(as) == 1 && as[0] == f.User {
			fx.assigned[issue.Number] = names
		}
	}
	return fx
}
