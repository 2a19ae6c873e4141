package main

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
)

// TestE2EUnseenCharactersAreEscaped: an issue written on the live forge
// with characters a reader does not see for what they are (a private-use
// code point, one of plane 16, a noncharacter, the braille blank, a bidi
// override) reads back through the built server with each as a visible
// escape, in the title and the body (issue 18, item 13).
func TestE2EUnseenCharactersAreEscaped(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	hidden := "go\ue000on\U0010FFFDnow\ufdd0\u2800please\u202e"
	index := f.NewIssue(t, owner, repo, "title "+hidden, "body "+hidden)
	cs := connect(t, protocolVersions[0], []string{"FORGEJO_URL=" + f.URL, "FORGEJO_ACCESS_TOKEN=" + f.Token})
	res, text := callTool(t, cs, "get_issue_by_index", map[string]any{"owner": owner, "repo": repo, "index": index})
	assert.False(t, res.IsError, text)
	escaped := `go\ue000on\udbff\udffdnow\ufdd0\u2800please\u202e`
	assert.Contains(t, text, `"title":"title `+escaped+`"`)
	assert.Contains(t, text, `"body":"body `+escaped+`"`)
	for _, r := range hidden {
		if r > 0x7f {
			assert.NotContains(t, text, string(r), "%U is escaped", r)
		}
	}
}
