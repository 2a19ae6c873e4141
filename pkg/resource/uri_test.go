package resource

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	tests := []struct {
		uri  string
		kind Kind
		args map[string]any
		err  string
	}{
		{uri: "forgejo://o/r", kind: KindRepo, args: map[string]any{"owner": "o", "repo": "r"}},
		{uri: "forgejo://o/r/files/src/a%20b.go?ref=feature%2Fx", kind: KindFile,
			args: map[string]any{"owner": "o", "repo": "r", "path": "src/a b.go", "ref": "feature/x"}},
		{uri: "forgejo://o/r/files/", kind: KindFile, args: map[string]any{"owner": "o", "repo": "r", "path": ""}},
		{uri: "forgejo://o/r/files/docs/", kind: KindFile, args: map[string]any{"owner": "o", "repo": "r", "path": "docs/"}},
		{uri: "forgejo://o/r/issues/3", kind: KindIssue, args: map[string]any{"owner": "o", "repo": "r", "index": int64(3)}},
		{uri: "forgejo://o/r/pulls/4", kind: KindPull, args: map[string]any{"owner": "o", "repo": "r", "index": int64(4)}},
		{uri: "forgejo://o/r/pulls/4/diff?offset=100", kind: KindPullDiff, args: map[string]any{"owner": "o", "repo": "r", "index": int64(4), "offset": int64(100)}},
		{uri: "forgejo://o/r/commits/abc", kind: KindCommit, args: map[string]any{"owner": "o", "repo": "r", "sha": "abc"}},
		{uri: "forgejo://o/r/wiki/C%2B%2B%20%26%20more", kind: KindWiki, args: map[string]any{"owner": "o", "repo": "r", "page_name": "C++ & more"}},
		{uri: "forgejo://o/r/files/a+b/c@d.txt", kind: KindFile, args: map[string]any{"owner": "o", "repo": "r", "path": "a+b/c@d.txt"}},
		{uri: "forgejo://o/r/wiki/Home%20Page", kind: KindWiki, args: map[string]any{"owner": "o", "repo": "r", "page_name": "Home Page"}},
		{uri: "forgejo://o/r/issues/3/attachments/7?max_bytes=10&offset=5", kind: KindIssueAttachment,
			args: map[string]any{"owner": "o", "repo": "r", "index": int64(3), "attachment_id": int64(7), "offset": int64(5), "max_bytes": int64(10)}},
		{uri: "forgejo://o/r/comments/9/attachments/7", kind: KindCommentAttachment,
			args: map[string]any{"owner": "o", "repo": "r", "comment_id": int64(9), "attachment_id": int64(7)}},
		{uri: "forgejo://o/r/releases/2/attachments/7", kind: KindReleaseAttachment,
			args: map[string]any{"owner": "o", "repo": "r", "release_id": int64(2), "attachment_id": int64(7)}},
		{uri: "http://o/r", err: "scheme"},
		{uri: "forgejo:o/r", err: "without user info"},
		{uri: "forgejo://tok@o/r", err: "without user info"},
		{uri: "forgejo://o:80/r", err: "without user info"},
		{uri: "forgejo://o/r#x", err: "fragment"},
		{uri: "forgejo://o", err: "repository is missing"},
		{uri: "forgejo:///r", err: "owner is missing"},
		{uri: "forgejo://o/r/issues/0", err: "from 1"},
		{uri: "forgejo://o/r/issues/3?ref=x", err: "takes no query parameters"},
		{uri: "forgejo://o/r/issues/3/attachments/7?offset=1&offset=2", err: "given 2 times"},
		{uri: "forgejo://o/r/issues/3/attachments/7?offset=x", err: "whole number"},
		{uri: "forgejo://o/r/files/a/%2e%2e/b", err: "'..'"},
		{uri: "forgejo://o/r/files/a%5Cb", err: "escaped slashes"},
		{uri: "forgejo://o/r/tags/3/attachments/1", err: "no resource has this shape"},
		{uri: "forgejo://o/r/wiki/", err: "no resource has this shape"},
	}
	for _, tt := range tests {
		t.Run(tt.uri, func(t *testing.T) {
			got, err := Parse(tt.uri)
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.kind, got.Kind)
			assert.Equal(t, tt.args, got.Args)
			again, err := Parse(URI(got.Kind, got.Args))
			require.NoError(t, err, "URI builds what Parse reads")
			assert.Equal(t, got, again)
		})
	}
}

// TestCanonicalURIMatchesItsTemplate: the URI a successful read is
// answered under (the hook rewrites the request to it) must match its
// kind's template as mcp-go matches it, whatever the names hold.
func TestCanonicalURIMatchesItsTemplate(t *testing.T) {
	odd := "a+b &c@d=e;f,g:h!i*j'k(l)m$n%o"
	for _, tpl := range Templates() {
		args := map[string]any{"owner": "o-1.x_y", "repo": "r.2", "index": int64(3), "attachment_id": int64(4),
			"comment_id": int64(5), "release_id": int64(6), "sha": odd, "page_name": odd, "path": "dir+1/" + odd}
		uri := URI(tpl.Kind, args)
		assert.True(t, tpl.MCP().URITemplate.Regexp().MatchString(uri), "%s does not match %s", uri, tpl.URI)
		got, err := Parse(uri)
		require.NoError(t, err, uri)
		assert.Equal(t, tpl.Kind, got.Kind)
		for k, v := range got.Args {
			assert.Equal(t, args[k], v, "%s: %s", uri, k)
		}
	}
}
