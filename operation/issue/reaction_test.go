package issue_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/issue"
)

var rawReaction = map[string]any{"user": map[string]any{"login": "bob", "avatar_url": "http://x/b"}, "content": "heart",
	"created_at": "2026-01-02T03:04:05Z"}

const compactReaction = `{"user":"bob","reaction":"heart","created_at":"2026-01-02T03:04:05Z"}`

func reactionArgs(kv ...any) map[string]any {
	m := map[string]any{"owner": "o", "repo": "r", "index": 3.0}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

func TestReactions(t *testing.T) {
	tests := []struct {
		name, tool string
		args       map[string]any
		method     string
		path       string
		status     int
		want       string
	}{
		{"list an issue's", "list_issue_reactions", reactionArgs(), "GET", "/api/v1/repos/o/r/issues/3/reactions", 200,
			`{"items":[` + compactReaction + `],"page":1,"has_more":false}`},
		{"list a comment's", "list_issue_reactions", reactionArgs("comment_id", 8.0), "GET", "/api/v1/repos/o/r/issues/comments/8/reactions", 200,
			`{"items":[` + compactReaction + `],"page":1,"has_more":false}`},
		{"add to an issue", "add_issue_reaction", reactionArgs("reaction", "heart"), "POST", "/api/v1/repos/o/r/issues/3/reactions", 201, compactReaction},
		{"add again", "add_issue_reaction", reactionArgs("reaction", "heart"), "POST", "/api/v1/repos/o/r/issues/3/reactions", 200,
			`{"user":"bob","reaction":"heart","created_at":"2026-01-02T03:04:05Z","already":true}`},
		{"add to a comment", "add_issue_reaction", reactionArgs("reaction", "heart", "comment_id", 8.0), "POST", "/api/v1/repos/o/r/issues/comments/8/reactions", 201, compactReaction},
		{"remove from an issue", "remove_issue_reaction", reactionArgs("reaction", "heart"), "DELETE", "/api/v1/repos/o/r/issues/3/reactions", 200,
			`{"deleted":true,"reaction":"heart"}`},
		{"remove from a comment", "remove_issue_reaction", reactionArgs("reaction", "heart", "comment_id", 8.0), "DELETE", "/api/v1/repos/o/r/issues/comments/8/reactions", 200,
			`{"deleted":true,"reaction":"heart"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.Handle(tc.method+" "+tc.path, func(w http.ResponseWriter, r *http.Request) {
				if tc.method == "GET" {
					fakeforge.WriteJSON(w, tc.status, []any{rawReaction})
					return
				}
				fakeforge.WriteJSON(w, tc.status, rawReaction)
			})
			res := f.Call(t, issue.Tools(), tc.tool, tc.args)
			require.False(t, res.IsError, fakeforge.Text(t, res))
			assert.JSONEq(t, tc.want, fakeforge.Text(t, res))
			req := f.Requests()[0]
			if tc.method == "GET" {
				if tc.args["comment_id"] == nil {
					assert.Equal(t, "limit=20&page=1", req.RawQuery)
				} else {
					assert.Empty(t, req.RawQuery, "the forge does not page a comment's reactions")
				}
				return
			}
			var body map[string]any
			require.NoError(t, json.Unmarshal(req.Body, &body))
			assert.Equal(t, map[string]any{"content": "heart"}, body)
		})
	}
}

func TestReactionRefusals(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("POST /api/v1/repos/o/r/issues/3/reactions", 403, map[string]any{"message": "'party' is not an allowed reaction"})
	f.JSON("POST /api/v1/repos/o/r/issues/comments/9/reactions", 403, map[string]any{"message": "user is blocked"})
	f.JSON("DELETE /api/v1/repos/o/r/issues/4/reactions", 404, map[string]any{"message": "not found"})

	res := f.Call(t, issue.Tools(), "add_issue_reaction", reactionArgs("reaction", "party"))
	require.True(t, res.IsError)
	assert.Equal(t, `react "party" to issue o/r#3: 'party' is not an allowed reaction (403); the forge takes only the reactions its site allows, `+
		"by default +1, -1, laugh, hooray, confused, heart, rocket, eyes", fakeforge.Text(t, res))

	res = f.Call(t, issue.Tools(), "add_issue_reaction", reactionArgs("reaction", "heart", "comment_id", 9.0))
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "user is blocked")
	assert.NotContains(t, fakeforge.Text(t, res), "reactions its site allows", "only a refused reaction gets the list")

	res = f.Call(t, issue.Tools(), "remove_issue_reaction", reactionArgs("reaction", "heart", "index", 4.0))
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "issue o/r#4 not found (404)")

	n := len(f.Requests())
	res = f.Call(t, issue.Tools(), "add_issue_reaction", reactionArgs())
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), `missing required argument "reaction"`)
	assert.Len(t, f.Requests(), n)
}
