package attachment_test

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/attachment"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

func TestToolDefinitions(t *testing.T) {
	release := tool.Toolset{ID: "release"}
	defs := append(attachment.Tools(), attachment.ReleaseTools(release)...)
	require.Len(t, defs, 18)
	want := map[string]struct {
		kind   string
		params string
	}{
		"list_%s_attachments":    {"read-only", "owner repo ID"},
		"get_%s_attachment":      {"read-only", "owner repo ID attachment_id"},
		"download_%s_attachment": {"read-only", "owner repo ID attachment_id offset max_bytes pages text_only"},
		"create_%s_attachment":   {"write", "owner repo ID content filename mime_type"},
		"edit_%s_attachment":     {"destructive, idempotent", "owner repo ID attachment_id name"},
		"delete_%s_attachment":   {"destructive, idempotent", "owner repo ID attachment_id"},
	}
	for _, scope := range []struct{ noun, id, toolset string }{
		{"issue", "index", "attachment"}, {"comment", "comment_id", "comment-attachment"}, {"release", "release_id", "release"}} {
		for pattern, w := range want {
			name := strings.Replace(pattern, "%s", scope.noun, 1)
			t.Run(name, func(t *testing.T) {
				d, ok := tool.Find(defs, name)
				require.True(t, ok)
				assert.Equal(t, scope.toolset, d.Toolset.ID)
				assert.Equal(t, w.kind, tool.AnnotationSummary(d.Annotations))
				assert.Equal(t, strings.Replace(w.params, "ID", scope.id, 1), strings.Join(d.ParamNames(), " "))
				isCreate := strings.HasPrefix(name, "create_")
				assert.Equal(t, isCreate, d.CLIFile == "content", "--file fills content")
				assert.Equal(t, isCreate, d.LargeArgs)
			})
		}
	}
}

func TestListAndGet(t *testing.T) {
	f := newForge(t)
	f.JSON("GET /api/v1/repos/o/gone", 404, nil)
	pdf := f.add("issue/3", "spec.pdf", makePDF(t, "spec", 1000))
	f.add("comment/7", "log.txt", []byte("log line\n"))
	tests := []struct {
		name    string
		tool    string
		args    map[string]any
		isError bool
		want    string
	}{
		{"list issue", "list_issue_attachments", args("index", 3), false, `"name":"spec.pdf"`},
		{"list comment", "list_comment_attachments", args("comment_id", 7), false, `"name":"log.txt"`},
		{"zero attachments is an empty page", "list_issue_attachments", args("index", 4), false, `{"items":[],"page":1,"has_more":false}`},
		{"zero on a comment is an empty page", "list_comment_attachments", args("comment_id", 8), false, `{"items":[],"page":1,"has_more":false}`},
		{"get", "get_issue_attachment", args("index", 3, "attachment_id", pdf.ID), false, `"browser_download_url":"` + pdf.DownloadURL + `"`},
		{"missing issue", "list_issue_attachments", args("index", 99), true,
			"issue o/r#99 not found (404): it does not exist or this token cannot see it"},
		{"missing repository", "list_issue_attachments", map[string]any{"owner": "o", "repo": "gone", "index": 3}, true,
			"repository o/gone not found (404)"},
		{"missing comment", "list_comment_attachments", args("comment_id", 99), true, "comment 99 in o/r not found (404)"},
		{"missing attachment", "get_issue_attachment", args("index", 3, "attachment_id", 99), true,
			"attachment 99 not found on issue o/r#3 (404); list_issue_attachments lists the attachments it has"},
		{"attachment of another parent", "get_comment_attachment", args("comment_id", 7, "attachment_id", pdf.ID), true,
			"not found on comment 7 in o/r"},
		{"negative index never reaches the forge", "list_issue_attachments", args("index", -1), true, `argument "index" must be at least 1`},
		{"non-numeric id", "get_issue_attachment", args("index", 3, "attachment_id", "abc"), true, `argument "attachment_id" must be a whole number`},
		{"bad owner", "list_issue_attachments", map[string]any{"owner": "../x", "repo": "r", "index": 3}, true, `argument "owner"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := f.call(t, tt.tool, tt.args)
			assert.Equal(t, tt.isError, res.IsError, textOf(t, res))
			if tt.want == "[]" {
				assert.Equal(t, "[]", textOf(t, res))
				return
			}
			assert.Contains(t, textOf(t, res), tt.want)
		})
	}
}

// TestNotFoundWithForgejoBody: Forgejo sends {"message":…} where Gitea
// sends null; both must read the same way.
func TestNotFoundWithForgejoBody(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r", 200, map[string]any{})
	f.JSON("GET /api/v1/repos/o/r/issues/5/assets", 404, map[string]string{"message": "The target couldn't be found."})
	f.JSON("GET /api/v1/repos/o/r/issues/5", 404, map[string]string{"message": "issue does not exist [id: 0, repo_id: 5, index: 5]"})
	d, _ := tool.Find(attachment.Tools(), "list_issue_attachments")
	res := (&tool.Runner{Client: clientOf(f)}).Call(t.Context(), d, args("index", 5))
	require.True(t, res.IsError)
	assert.Contains(t, textOf(t, res), "issue o/r#5 not found (404): it does not exist or this token cannot see it: issue does not exist")
	assert.NotContains(t, textOf(t, res), "repo_id", "the forge's internal field dump is dropped")
}

func TestAuthFailuresAreDistinct(t *testing.T) {
	for _, tt := range []struct {
		status int
		want   string
	}{
		{401, "the forge rejected the token (401 Unauthorized)"},
		{403, "permission denied (403): token does not have at least one of required scope(s): [write:issue]"},
	} {
		f := fakeforge.New(t)
		f.JSON("POST /api/v1/repos/o/r/issues/3/assets", tt.status, map[string]string{"message": "token does not have at least one of required scope(s): [write:issue]"})
		d, _ := tool.Find(attachment.Tools(), "create_issue_attachment")
		res := (&tool.Runner{Client: clientOf(f)}).Call(t.Context(), d,
			args("index", 3, "filename", "a.txt", "content", base64.StdEncoding.EncodeToString([]byte("hi"))))
		require.True(t, res.IsError)
		assert.Contains(t, textOf(t, res), "attach a.txt to issue o/r#3: "+tt.want)
		assert.NotContains(t, textOf(t, res), fakeforge.Token)
	}
}
