package operation_test

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/hidden"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// resultStrings returns every string a result carries: each JSON string of
// its JSON text and structured content, and every other text as it is.
func resultStrings(t *testing.T, res *mcp.CallToolResult) []string {
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			out = append(out, x)
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	fromJSON := func(b []byte) bool {
		var v any
		if json.Unmarshal(b, &v) != nil {
			return false
		}
		walk(v)
		return true
	}
	for _, c := range res.Content {
		switch x := c.(type) {
		case mcp.TextContent:
			if !fromJSON([]byte(x.Text)) {
				out = append(out, x.Text)
			}
		case mcp.EmbeddedResource:
			if r, ok := x.Resource.(mcp.TextResourceContents); ok {
				out = append(out, r.Text)
			}
		}
	}
	if res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		require.NoError(t, err)
		fromJSON(b)
	}
	return out
}

// TestEveryToolMarksHiddenText drives every tool against forges (both
// flavours' shapes) whose markdown fields (bodies, comments, reviews,
// release notes, wiki pages, descriptions, a README) hold text the web
// view does not show, and whose other free text (titles, commit messages,
// labels) holds a comment the web view shows as it is: wherever the
// markdown reaches a result, its hidden text is marked, and the plain text
// is not. This is the proof that the Runner's pass covers every surface;
// a new tool whose result type does not tag its markdown fails here.
func TestEveryToolMarksHiddenText(t *testing.T) {
	sp := loadSpecs(t)
	// The tools whose results carry text the forge renders as markdown;
	// the test fails if one of them stops carrying it (a fake that no
	// longer answers with it would prove nothing).
	mustCarry := []string{
		"get_issue_by_index", "list_issue_comments", "get_issue_comment", "create_issue", "create_issue_comment",
		"get_pull_request_by_index", "list_pull_reviews", "get_pull_review", "list_pull_review_comments",
		"get_release_by_id", "get_latest_release", "get_wiki_page", "get_file_content", "list_repo_milestones",
		"get_issue_timeline", "get_org", "get_issue_templates",
	}
	for _, spec := range []*fakeforge.Spec{sp.forgejo, sp.gitea} {
		t.Run(spec.Flavour, func(t *testing.T) {
			t.Parallel()
			f := fakeforge.New(t)
			f.MimicHidden(spec)
			c := f.Client()
			r := &tool.Runner{Client: func(context.Context) (*forgejo.Client, error) { return c, nil }, Timeout: 30 * time.Second}
			carried := map[string]bool{}
			for _, d := range operation.All() {
				if d.Offline {
					continue
				}
				res := r.Call(context.Background(), d, sampleArgs(d))
				for _, s := range resultStrings(t, res) {
					shown := hidden.Shown(s)
					for _, w := range fakeforge.HiddenWords {
						if strings.Contains(s, w) {
							carried[d.Name] = true
							assert.NotContains(t, shown, w, "%s passes text the web view hides on unmarked:\n%s", d.Name, s)
						}
					}
					if strings.Contains(s, "plaincomment") {
						assert.Contains(t, shown, "plaincomment", "%s marks text the web view shows:\n%s", d.Name, s)
					}
					if strings.Contains(s, fakeforge.ShownWord) {
						assert.Contains(t, shown, fakeforge.ShownWord, "%s marks the shown text of markdown:\n%s", d.Name, s)
					}
				}
			}
			var names []string
			for n := range carried {
				names = append(names, n)
			}
			sort.Strings(names)
			t.Logf("%d tools carry markdown with hidden text, all marked: %s", len(names), strings.Join(names, " "))
			for _, n := range mustCarry {
				assert.True(t, carried[n], "%s no longer carries markdown from the fake forge: the test would prove nothing for it", n)
			}
		})
	}
}
