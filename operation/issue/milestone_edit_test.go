package issue_test

import (
	"maps"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/issue"
)

var rawMilestone = map[string]any{
	"id": 7, "title": "v1", "description": "First", "state": "open", "open_issues": 2, "closed_issues": 1,
	"created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-02T00:00:00Z",
	"closed_at": nil, "due_on": "2026-02-01T00:00:00Z",
}

const compactMilestone = `{"id":7,"title":"v1","description":"First","state":"open","open_issues":2,"closed_issues":1,"due_on":"2026-02-01T00:00:00Z"}`

func milestoneWith(kv ...any) map[string]any {
	m := maps.Clone(rawMilestone)
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

func TestMilestoneTools(t *testing.T) {
	const notFound = "milestone 9 in o/r not found (404): it does not exist or this token cannot see it"
	tests := []struct {
		name, tool string
		args       map[string]any
		wantReqs   []string // "METHOD path body"
		want       string   // JSON result, or the error text when wantErr
		wantErr    bool
	}{
		{name: "get", tool: "get_milestone", args: map[string]any{"milestone_id": 7},
			wantReqs: []string{"GET /api/v1/repos/o/r/milestones/7 "}, want: compactMilestone},
		{name: "get missing", tool: "get_milestone", args: map[string]any{"milestone_id": 9},
			wantReqs: []string{"GET /api/v1/repos/o/r/milestones/9 ", "GET /api/v1/repos/o/r "}, want: notFound, wantErr: true},
		{name: "get by title refused", tool: "get_milestone", args: map[string]any{"milestone_id": "v1/beta"},
			want: `argument "milestone_id"`, wantErr: true},
		{name: "create with a date", tool: "create_milestone",
			args:     map[string]any{"title": "v1", "description": "First", "due_date": "2026-02-01"},
			wantReqs: []string{`POST /api/v1/repos/o/r/milestones {"title":"v1","description":"First","state":"open","due_on":"2026-02-01T00:00:00Z"}`},
			want:     compactMilestone},
		{name: "create closed", tool: "create_milestone", args: map[string]any{"title": "v0", "state": "closed"},
			wantReqs: []string{`POST /api/v1/repos/o/r/milestones {"title":"v0","description":"","state":"closed"}`},
			want:     compactMilestone},
		{name: "create with a bad due date", tool: "create_milestone", args: map[string]any{"title": "v1", "due_date": "next friday"},
			want: `argument "due_date" must contain an RFC 3339 date-time`, wantErr: true},
		{name: "create with an impossible date", tool: "create_milestone", args: map[string]any{"title": "v1", "due_date": "2026-13-01"},
			want: `"2026-13-01" is not an RFC 3339 date-time`, wantErr: true},
		{name: "create without a title", tool: "create_milestone", args: map[string]any{"title": " "},
			want: `argument "title" must not be empty`, wantErr: true},
		{name: "create in a missing repo", tool: "create_milestone", args: map[string]any{"repo": "gone", "title": "v1"},
			wantReqs: []string{`POST /api/v1/repos/o/gone/milestones {"title":"v1","description":"","state":"open"}`},
			want:     "repository o/gone not found (404)", wantErr: true},
		{name: "edit keeps the due date", tool: "edit_milestone", args: map[string]any{"milestone_id": 7, "state": "closed"},
			wantReqs: []string{"GET /api/v1/repos/o/r/milestones/7 ",
				`PATCH /api/v1/repos/o/r/milestones/7 {"state":"closed","due_on":"2026-02-01T00:00:00Z"}`},
			want: compactMilestone},
		{name: "edit the due date", tool: "edit_milestone",
			args:     map[string]any{"milestone_id": 7, "title": "v2", "description": "", "due_date": "2026-03-04T05:06:07+01:00"},
			wantReqs: []string{`PATCH /api/v1/repos/o/r/milestones/7 {"title":"v2","description":"","due_on":"2026-03-04T05:06:07+01:00"}`},
			want:     compactMilestone},
		{name: "edit removes the due date", tool: "edit_milestone", args: map[string]any{"milestone_id": 8, "due_date": ""},
			wantReqs: []string{`PATCH /api/v1/repos/o/r/milestones/8 {"due_on":null}`},
			want:     `{"id":8,"title":"v1","description":"First","state":"open","open_issues":2,"closed_issues":1}`},
		{name: "edit: the forge keeps the due date", tool: "edit_milestone", args: map[string]any{"milestone_id": 7, "due_date": ""},
			wantReqs: []string{`PATCH /api/v1/repos/o/r/milestones/7 {"due_on":null}`},
			want:     "edit milestone 7 in o/r: the other changes were saved, but this forge kept the due date 2026-02-01", wantErr: true},
		{name: "edit missing", tool: "edit_milestone", args: map[string]any{"milestone_id": 9, "state": "open"},
			wantReqs: []string{"GET /api/v1/repos/o/r/milestones/9 ", "GET /api/v1/repos/o/r "}, want: notFound, wantErr: true},
		{name: "edit missing with a date", tool: "edit_milestone", args: map[string]any{"milestone_id": 9, "due_date": "2026-01-01"},
			wantReqs: []string{`PATCH /api/v1/repos/o/r/milestones/9 {"due_on":"2026-01-01T00:00:00Z"}`, "GET /api/v1/repos/o/r "}, want: notFound, wantErr: true},
		{name: "edit to a blank title", tool: "edit_milestone", args: map[string]any{"milestone_id": 7, "title": "  "},
			want: "title must not be empty; leave it out to keep the current title", wantErr: true},
		{name: "edit to a bad state", tool: "edit_milestone", args: map[string]any{"milestone_id": 7, "state": "done"},
			want: `argument "state" must be one of open, closed`, wantErr: true},
		{name: "edit with a bad due date", tool: "edit_milestone", args: map[string]any{"milestone_id": 7, "due_date": "soon"},
			want: `argument "due_date" must contain`, wantErr: true},
		{name: "delete", tool: "delete_milestone", args: map[string]any{"milestone_id": 7},
			wantReqs: []string{"DELETE /api/v1/repos/o/r/milestones/7 "}, want: `{"deleted":true,"milestone_id":7}`},
		{name: "delete missing", tool: "delete_milestone", args: map[string]any{"milestone_id": 9},
			wantReqs: []string{"DELETE /api/v1/repos/o/r/milestones/9 ", "GET /api/v1/repos/o/r "}, want: notFound, wantErr: true},
	}
	// A missing milestone's 404 is followed by a look at the repository
	// (tool.missingRepo), which exists: the milestone is what is missing.
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON("GET /api/v1/repos/o/r/milestones/7", 200, rawMilestone)
			f.JSON("PATCH /api/v1/repos/o/r/milestones/7", 200, rawMilestone)
			f.JSON("PATCH /api/v1/repos/o/r/milestones/8", 200, milestoneWith("id", 8, "due_on", nil))
			f.JSON("POST /api/v1/repos/o/r/milestones", 201, rawMilestone)
			f.Handle("DELETE /api/v1/repos/o/r/milestones/7", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(204) })
			args := map[string]any{"owner": "o", "repo": "r"}
			maps.Copy(args, tt.args)
			res := f.Call(t, issue.Tools(), tt.tool, args)
			var got []string
			for _, r := range f.Requests() {
				got = append(got, r.Method+" "+r.Path+" "+string(r.Body))
			}
			if tt.wantReqs == nil {
				assert.Empty(t, got, "refused before the forge")
			} else {
				require.Len(t, got, len(tt.wantReqs))
				for i, want := range tt.wantReqs {
					assert.JSONEq(t, jsonPart(want), jsonPart(got[i]))
					assert.Equal(t, routePart(want), routePart(got[i]))
				}
			}
			if tt.wantErr {
				require.True(t, res.IsError, fakeforge.Text(t, res))
				assert.Contains(t, fakeforge.Text(t, res), tt.want)
				return
			}
			require.False(t, res.IsError, fakeforge.Text(t, res))
			assert.JSONEq(t, tt.want, fakeforge.Text(t, res))
		})
	}
}

// routePart and jsonPart split "METHOD path body" (body "" reads as null).
func routePart(s string) string {
	i := indexNth(s, ' ', 2)
	return s[:i]
}

func jsonPart(s string) string {
	if b := s[indexNth(s, ' ', 2)+1:]; b != "" {
		return b
	}
	return "null"
}

func indexNth(s string, c byte, n int) int {
	for i := range len(s) {
		if s[i] == c {
			if n--; n == 0 {
				return i
			}
		}
	}
	return len(s)
}
