package taskbench_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
)

// TestMaintainerBench runs the maintainer's tasks (issue 29) on the server
// binary TASKBENCH_MAINTAINER names, with the default selection only: every
// tool beyond it is found with search_tools and called through call_tool,
// as an agent with a small context would. The cost of each task counts the
// searches too. It prints a table (into TASKBENCH_OUT too when set).
func TestMaintainerBench(t *testing.T) {
	bin := os.Getenv("TASKBENCH_MAINTAINER")
	if bin == "" {
		t.Skip("a measurement: scripts/taskbench --maintainer runs it")
	}
	f := testforge.Get(t)
	s := open(t, bin, f.URL, f.Token)
	require.True(t, s.has("search_tools") && s.has("call_tool"), "the default selection offers the meta-tools")
	var rows []string
	total := cost{}
	for _, tk := range maintainerTasks {
		fx := newMaintainerFixture(t, f)
		s.known = map[string]bool{} // each task starts knowing only the default selection
		c := s.measure(func() { tk.run(s, fx) })
		t.Logf("%s: %d calls (%s), %d argument bytes, %d result bytes", tk.name, c.Calls, strings.Join(c.Tools, ", "), c.ArgBytes, c.ResultBytes)
		rows = append(rows, fmt.Sprintf("| %s | %d | %d | %d | %s |", tk.name, c.Calls, c.ResultBytes, c.ArgBytes, strings.Join(c.Tools, " → ")))
		total.Calls, total.ResultBytes, total.ArgBytes = total.Calls+c.Calls, total.ResultBytes+c.ResultBytes, total.ArgBytes+c.ArgBytes
	}
	table := "| Task | calls | result bytes | argument bytes | tools |\n|---|---:|---:|---:|---|\n" + strings.Join(rows, "\n") +
		fmt.Sprintf("\n| all | %d | %d | %d | |\n\ndefault tools/list: %d bytes\n", total.Calls, total.ResultBytes, total.ArgBytes, s.listBytes())
	t.Log("\n" + table)
	if out := os.Getenv("TASKBENCH_OUT"); out != "" {
		require.NoError(t, os.WriteFile(out, []byte(table), 0o644))
	}
}

// found is what search_tools answers, as far as a task reads it.
type found struct {
	Tools []struct {
		Name string `json:"name"`
	} `json:"tools"`
}

// find asks search_tools with words, as an agent looking for a tool would,
// and requires name among the tools found; a tool an earlier search of the
// task found is known already, its schema read, and needs no search.
func (s *session) find(words, name string) {
	s.t.Helper()
	if s.known[name] {
		return
	}
	var f found
	decode(s.t, s.call("search_tools", map[string]any{"query": words}), &f)
	names := make([]string, 0, len(f.Tools))
	for _, tl := range f.Tools {
		names = append(names, tl.Name)
		if s.known != nil {
			s.known[tl.Name] = true
		}
	}
	require.True(s.t, slices.Contains(names, name), "search_tools %q found %v, not %s", words, names, name)
}

// via calls name through call_tool and returns its text.
func (s *session) via(name string, args map[string]any) string {
	s.t.Helper()
	text := s.call("call_tool", map[string]any{"name": name, "arguments": args})
	s.cost.Tools[len(s.cost.Tools)-1] = "call_tool(" + name + ")"
	return text
}

// use calls name directly when the default selection lists it, else
// finds it with words and calls it through call_tool: what an agent with
// the default selection does.
func (s *session) use(words, name string, args map[string]any) string {
	s.t.Helper()
	if s.has(name) {
		return s.call(name, args)
	}
	s.find(words, name)
	return s.via(name, args)
}

// field reads one top-level field of a JSON result.
func field(t *testing.T, text, name string) any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(text), &m), text)
	return m[name]
}

// maintainerFixture is a repository a maintainer looks after, made through
// the forge's API (not counted): a workflow with workflow_dispatch inputs,
// a merged pull request, source files with a marker to grep for, a second
// user who may read it (to request reviews of, and to make a writer), and an
// empty repository to mirror to.
type maintainerFixture struct {
	f                    *testforge.Forge
	owner, repo          string
	other                string // the user to add as a collaborator
	mirrorRepo           string // an empty repository of the same owner
	mergedSHA            string // the head commit of a merged pull request
	mergedPull           int64
	workflow, grepMarker string
	label                string
}

const (
	releaseWorkflow = "release.yml"
	grepMarker      = "FIXME(maintainer): drop the v1 fallback"
)

func newMaintainerFixture(t *testing.T, f *testforge.Forge) *maintainerFixture {
	t.Helper()
	owner, repo := f.NewRepo(t)
	_, mirror := f.NewRepo(t)
	fx := &maintainerFixture{f: f, owner: owner, repo: repo, other: f.User2, mirrorRepo: mirror,
		workflow: releaseWorkflow, grepMarker: grepMarker, label: "release"}
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
	workflow := "on:\n  workflow_dispatch:\n    inputs:\n      version:\n        description: the version to release\n        required: true\n        type: string\n" +
		"      dry_run:\n        type: boolean\n        default: true\njobs:\n  release:\n    runs-on: nowhere\n    steps:\n      - run: echo ${{ inputs.version }}\n"
	files := []map[string]any{{"operation": "create", "path": ".gitea/workflows/" + releaseWorkflow, "content": b64(workflow)}}
	for i := 1; i <= 30; i++ {
		src := fmt.Sprintf("package store\n\n// Get%d reads record %d.\nfunc Get%d() int { return %d }\n", i, i, i, i)
		if i == 17 {
			src += "\n// " + grepMarker + "\n"
		}
		files = append(files, map[string]any{"operation": "create", "path": fmt.Sprintf("store/get%02d.go", i), "content": b64(src)})
	}
	do(http.MethodPost, "/contents", map[string]any{"message": "Store and release workflow", "files": files}, nil, http.StatusCreated)
	do(http.MethodPost, "/labels", map[string]any{"name": fx.label, "color": "#00aa00"}, nil, http.StatusCreated)
	if fx.other != "" {
		// A reader, as a reviewer must be: the task of adding a writer
		// raises it.
		f.AddCollaborator(t, owner, repo, fx.other, "read")
	}

	// A pull request, merged: the commit whose pull request a task finds.
	var pushed struct {
		Commit struct {
			SHA string `json:"sha"`
		} `json:"commit"`
	}
	do(http.MethodPost, "/contents/CHANGES.md", map[string]any{"new_branch": "changes", "message": "Start a change log",
		"content": b64("# Changes\n")}, &pushed, http.StatusCreated)
	fx.mergedSHA = pushed.Commit.SHA
	var pr struct {
		Number int64 `json:"number"`
	}
	do(http.MethodPost, "/pulls", map[string]any{"head": "changes", "base": "main", "title": "Start a change log"}, &pr, http.StatusCreated)
	fx.mergedPull = pr.Number
	do(http.MethodPost, fmt.Sprintf("/pulls/%d/merge", pr.Number), map[string]any{"Do": "merge"}, nil, http.StatusOK)
	return fx
}
