package issue_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/issue"
)

// timelineEntry is one forge TimelineComment with the fields every entry
// carries, plus kv.
func timelineEntry(id int, typ string, kv ...any) map[string]any {
	e := map[string]any{"id": id, "type": typ, "body": "", "created_at": "2026-01-02T03:04:05Z",
		"updated_at": "2026-01-02T03:04:05Z", "html_url": "http://x/o/r/issues/3#issuecomment-1",
		"user": map[string]any{"login": "alice", "avatar_url": "http://x/a"}, "ref_action": "none",
		"label": nil, "milestone": nil, "old_milestone": nil, "ref_issue": nil, "assignee": nil}
	for i := 0; i < len(kv); i += 2 {
		e[kv[i].(string)] = kv[i+1]
	}
	return e
}

func TestGetIssueTimeline(t *testing.T) {
	refIssue := map[string]any{"number": 4, "title": "Other", "body": "see #3",
		"repository": map[string]any{"full_name": "o/r", "name": "r", "owner": "o"}}
	tests := []struct {
		name  string
		entry map[string]any
		want  string // the compact event, without id, actor and created_at
	}{
		{"comment", timelineEntry(1, "comment", "body", "Looks good"), `"type":"comment","body":"Looks good"`},
		{"label added", timelineEntry(1, "label", "body", "1", "label", map[string]any{"name": "bug", "color": "ff0000"}),
			`"type":"label","label":"bug"`},
		{"label removed", timelineEntry(1, "label", "label", map[string]any{"name": "bug"}),
			`"type":"label","label":"bug","removed":true`},
		{"assigned", timelineEntry(1, "assignees", "assignee", map[string]any{"login": "bob"}),
			`"type":"assignees","assignee":"bob"`},
		{"unassigned", timelineEntry(1, "assignees", "assignee", map[string]any{"login": "bob"}, "removed_assignee", true),
			`"type":"assignees","assignee":"bob","removed":true`},
		{"milestone set", timelineEntry(1, "milestone", "milestone", map[string]any{"id": 2, "title": "v1"}),
			`"type":"milestone","to":"v1"`},
		{"milestone changed", timelineEntry(1, "milestone", "old_milestone", map[string]any{"title": "v0"}, "milestone", map[string]any{"title": "v1"}),
			`"type":"milestone","from":"v0","to":"v1"`},
		{"closed", timelineEntry(1, "close"), `"type":"close"`},
		{"reopened", timelineEntry(1, "reopen"), `"type":"reopen"`},
		{"title", timelineEntry(1, "change_title", "old_title", "Old", "new_title", "New"), `"type":"change_title","from":"Old","to":"New"`},
		{"cross-reference", timelineEntry(1, "issue_ref", "ref_issue", refIssue), `"type":"issue_ref","ref":"o/r#4","ref_title":"Other"`},
		{"comment reference", timelineEntry(1, "comment_ref", "ref_issue", refIssue, "ref_comment", map[string]any{"id": 8, "body": "x"}),
			`"type":"comment_ref","ref":"o/r#4","ref_title":"Other"`},
		{"commit", timelineEntry(1, "commit_ref", "body", `<a href="/o/r/commit/abc">fixes #3</a>`, "ref_commit_sha", "abc123"),
			`"type":"commit_ref","commit":"abc123"`},
		{"dependency", timelineEntry(1, "add_dependency", "dependent_issue", map[string]any{"number": 5, "title": "Blocker"}),
			`"type":"add_dependency","ref":"#5","ref_title":"Blocker"`},
		{"review", timelineEntry(1, "review", "body", "LGTM", "review_id", 12), `"type":"review","body":"LGTM","review_id":12`},
		{"unknown type keeps its body", timelineEntry(1, "added_deadline", "body", "2030-01-01"), `"type":"added_deadline","body":"2030-01-01"`},
		{"push", timelineEntry(1, "pull_push", "body", `{"is_force_push":false,"commit_ids":["abc","def"]}`),
			`"type":"pull_push","commits":["abc","def"]`},
		{"force push", timelineEntry(1, "pull_push", "body", `{"is_force_push":true,"commit_ids":["abc","def"]}`),
			`"type":"pull_push","from":"abc","to":"def"`},
		{"push the shape does not know", timelineEntry(1, "pull_push", "body", `{"x":1}`), `"type":"pull_push","body":"{\"x\":1}"`},
		{"unknown type, long body clipped", timelineEntry(1, "new_kind", "body", strings.Repeat("a", 400)),
			`"type":"new_kind","body":"` + strings.Repeat("a", 300) + `…"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON("GET /api/v1/repos/o/r/issues/3/timeline", 200, []any{tt.entry})
			res := f.Call(t, issue.Tools(), "get_issue_timeline", map[string]any{"owner": "o", "repo": "r", "index": 3})
			require.False(t, res.IsError, fakeforge.Text(t, res))
			var page struct {
				Items   []map[string]json.RawMessage `json:"items"`
				HasMore bool                         `json:"has_more"`
			}
			require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &page))
			require.Len(t, page.Items, 1)
			assert.JSONEq(t, `{"id":1,"actor":"alice","created_at":"2026-01-02T03:04:05Z",`+tt.want+`}`, string(mustJSON(t, page.Items[0])))
			assert.False(t, page.HasMore)
		})
	}
}

func TestGetIssueTimelinePagingAndErrors(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/issues/3/timeline", 200, []any{timelineEntry(1, "close"), timelineEntry(2, "reopen")})
	res := f.Call(t, issue.Tools(), "get_issue_timeline", map[string]any{"owner": "o", "repo": "r", "index": 3,
		"page": 2, "limit": 2, "since": "2026-01-02T00:00:00+01:00"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"page":2,"has_more":true`, "a full page: more may follow")
	assert.Equal(t, "limit=2&page=2&since=2026-01-02T00%3A00%3A00%2B01%3A00", f.Requests()[0].RawQuery)

	for _, tt := range []struct {
		name string
		args map[string]any
		want string
	}{
		{"missing issue", map[string]any{"index": 9}, "issue o/r#9 not found (404): it does not exist or this token cannot see it"},
		{"impossible time", map[string]any{"index": 3, "since": "2026-02-30"}, `"2026-02-30" is not an RFC 3339 date-time`},
		{"bad time", map[string]any{"index": 3, "since": "yesterday"}, `argument "since" must contain an RFC 3339 date-time`},
		{"no index", map[string]any{}, `"index"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args := map[string]any{"owner": "o", "repo": "r"}
			for k, v := range tt.args {
				args[k] = v
			}
			res := f.Call(t, issue.Tools(), "get_issue_timeline", args)
			require.True(t, res.IsError)
			assert.Contains(t, fakeforge.Text(t, res), tt.want)
		})
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}
