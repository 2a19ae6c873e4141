package pull_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/pull"
)

// editedPull is rawPull as the forge returns it after an edit.
func editedPull(title string, draft bool) map[string]any {
	p := map[string]any{}
	for k, v := range rawPull {
		p[k] = v
	}
	p["title"], p["draft"] = title, draft
	p["assignees"] = []any{map[string]any{"login": "alice"}}
	p["milestone"] = map[string]any{"id": 2, "title": "v1"}
	return p
}

func TestUpdatePull(t *testing.T) {
	tests := []struct {
		name    string
		args    map[string]any
		current string // the title the forge has
		want    map[string]any
		wantErr string
	}{
		{"only what is given", args("body", "new"), "Fix crash", map[string]any{"body": "new"}, ""},
		{"every field", args("title", "T", "base", "next", "state", "closed", "assignees", []any{"alice"}, "milestone", 2.0,
			"labels", []any{"Bug", "7"}), "Fix crash",
			map[string]any{"title": "T", "base": "next", "state": "closed", "assignees": []any{"alice"}, "milestone": 2.0, "labels": []any{1.0, 7.0}}, ""},
		{"empty lists clear", args("labels", []any{}, "assignees", []any{}), "Fix crash", map[string]any{"labels": []any{}, "assignees": []any{}}, ""},
		{"draft from the current title", args("draft", true), "Fix crash", map[string]any{"title": "WIP: Fix crash"}, ""},
		{"draft already", args("draft", true), "[wip] Fix crash", map[string]any{"title": "WIP: Fix crash"}, ""},
		{"ready strips every prefix", args("draft", false), "WIP: [WIP] Fix crash", map[string]any{"title": "Fix crash"}, ""},
		{"draft with a new title", args("draft", true, "title", "New"), "Fix crash", map[string]any{"title": "WIP: New"}, ""},
		{"unknown label", args("labels", []any{"nope"}), "Fix crash", nil, `no label "nope" in repository o/r; its labels are: bug, infra`},
		{"bad state", args("state", "merged"), "Fix crash", nil, `argument "state" must be one of open, closed`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON("GET /api/v1/repos/o/r/pulls/4", 200, editedPull(tc.current, false))
			f.JSON("PATCH /api/v1/repos/o/r/pulls/4", 201, editedPull("Edited", true))
			f.JSON("GET /api/v1/repos/o/r/labels", 200, []any{map[string]any{"id": 1, "name": "bug"}, map[string]any{"id": 7, "name": "infra"}})
			f.JSON("GET /api/v1/orgs/o/labels", 404, map[string]any{"message": "not found"})
			res := f.Call(t, pull.Tools(), "update_pull_request", tc.args)
			if tc.wantErr != "" {
				require.True(t, res.IsError)
				assert.Contains(t, fakeforge.Text(t, res), tc.wantErr)
				for _, r := range f.Requests() {
					assert.NotEqual(t, "PATCH", r.Method, "nothing changes")
				}
				return
			}
			require.False(t, res.IsError, fakeforge.Text(t, res))
			reqs := f.Requests()
			patch := reqs[len(reqs)-1]
			require.Equal(t, "PATCH", patch.Method)
			var body map[string]any
			require.NoError(t, json.Unmarshal(patch.Body, &body))
			assert.Equal(t, tc.want, body)
			var out pull.Edited
			require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &out))
			assert.Equal(t, "Edited", out.Title)
			assert.True(t, out.Draft)
			assert.Equal(t, []string{"alice"}, out.Assignees)
			assert.Equal(t, "v1", out.Milestone)
		})
	}
}

func TestListPullCommits(t *testing.T) {
	f := fakeforge.New(t)
	f.Handle("GET /api/v1/repos/o/r/pulls/4/commits", func(w http.ResponseWriter, r *http.Request) {
		fakeforge.WriteJSON(w, 200, []any{
			map[string]any{"sha": "c0ffee", "author": map[string]any{"login": "alice"}, "files": []any{map[string]any{"filename": "a"}},
				"commit": map[string]any{"message": "Fix the crash\n\nLong story.", "author": map[string]any{"name": "Alice A", "email": "a@x", "date": "2026-01-02T03:04:05Z"}}},
			map[string]any{"sha": "beef", "author": nil,
				"commit": map[string]any{"message": "Untracked author", "author": map[string]any{"name": "Ghost", "date": "2026-01-03T03:04:05+01:00"}}},
		})
	})
	res := f.Call(t, pull.Tools(), "list_pull_request_commits", args("limit", 2.0, "page", 3.0))
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[{"sha":"c0ffee","message":"Fix the crash","author":"alice","date":"2026-01-02T03:04:05Z"},
		{"sha":"beef","message":"Untracked author","author_name":"Ghost","date":"2026-01-03T03:04:05+01:00"}],"page":3,"has_more":true}`, fakeforge.Text(t, res))
	q := f.Requests()[0].RawQuery
	for _, want := range []string{"files=false", "verification=false", "page=3", "limit=2"} {
		assert.Contains(t, q, want)
	}
}
