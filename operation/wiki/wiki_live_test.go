package wiki_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/wiki"
)

func TestLiveWikiLifecycle(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	defs := wiki.Tools()
	call := f.RepoCaller(t, defs, owner, repo)

	text := call("create_wiki_page", map[string]any{"title": "Live Page", "content": "# Live\n\nFirst **version**", "message": "create it"})
	var created struct {
		Title    string `json:"title"`
		PageName string `json:"page_name"`
	}
	require.NoError(t, json.Unmarshal([]byte(text), &created))
	assert.Equal(t, "Live Page", created.Title)
	require.NotEmpty(t, created.PageName)

	text = call("list_wiki_pages", map[string]any{})
	assert.Contains(t, text, `"title":"Live Page"`)
	assert.Contains(t, text, `"has_more":false`)

	text = call("get_wiki_page", map[string]any{"page_name": created.PageName})
	assert.Contains(t, text, `"content":"# Live\n\nFirst **version**"`)

	call("update_wiki_page", map[string]any{"page_name": created.PageName, "content": "Second version", "message": "edit it"})
	text = call("get_wiki_page", map[string]any{"page_name": created.PageName})
	assert.Contains(t, text, `"content":"Second version"`)

	text = call("get_wiki_revisions", map[string]any{"page_name": created.PageName})
	var revs struct {
		Items []struct {
			SHA     string `json:"sha"`
			Message string `json:"message"`
		} `json:"items"`
		HasMore bool `json:"has_more"`
	}
	require.NoError(t, json.Unmarshal([]byte(text), &revs))
	require.Len(t, revs.Items, 2, text)
	assert.Contains(t, revs.Items[0].Message, "edit it")
	assert.False(t, revs.HasMore)

	call("delete_wiki_page", map[string]any{"page_name": created.PageName})
	res := f.Call(t, defs, "get_wiki_page", map[string]any{"owner": owner, "repo": repo, "page_name": created.PageName})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "not found (404)")
}

// The page_name a tool returns names the page in the next call, whatever
// the title: spaces, reserved and non-ASCII characters, and the dash the
// forge marks with a suffix. A title with '/', '?' or '#' makes a page only
// reachable as %2F, %3F or %23, which a chain of proxies in front of the
// forge decodes (issue 18): it is created, and then refused by name with
// a reason.
func TestLiveWikiPageNames(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	defs := wiki.Tools()
	for _, title := range []string{"Page With Spaces", "a/b", "Ünïcode ?#%", "Ünïcode %&=", "Home-Page"} {
		res := f.Call(t, defs, "create_wiki_page", map[string]any{"owner": owner, "repo": repo, "title": title, "content": "x " + title})
		require.False(t, res.IsError, fakeforge.Text(t, res))
		var created struct {
			PageName string `json:"page_name"`
		}
		require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &created))
		if strings.ContainsAny(title, "/?#") {
			require.Equal(t, strings.ReplaceAll(title, " ", "-"), created.PageName)
			res = f.Call(t, defs, "get_wiki_page", map[string]any{"owner": owner, "repo": repo, "page_name": created.PageName})
			require.True(t, res.IsError)
			assert.Contains(t, fakeforge.Text(t, res), "html_url")
			continue
		}
		res = f.Call(t, defs, "get_wiki_page", map[string]any{"owner": owner, "repo": repo, "page_name": created.PageName})
		require.False(t, res.IsError, "%q as %q: %s", title, created.PageName, fakeforge.Text(t, res))
		assert.Contains(t, fakeforge.Text(t, res), `"content":"x `)
		res = f.Call(t, defs, "delete_wiki_page", map[string]any{"owner": owner, "repo": repo, "page_name": created.PageName})
		require.False(t, res.IsError, fakeforge.Text(t, res))
	}
}

// TestLiveEmptyWiki: a repository whose wiki has no page lists none; one
// with the wiki turned off, or none at all, says so.
func TestLiveEmptyWiki(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	defs := wiki.Tools()
	assert.JSONEq(t, `{"items":[],"page":1,"has_more":false}`, f.RepoCaller(t, defs, owner, repo)("list_wiki_pages", map[string]any{}))

	require.Equal(t, 200, f.Do(t, "PATCH", "/repos/"+owner+"/"+repo, map[string]any{"has_wiki": false}, nil))
	res := f.Call(t, defs, "list_wiki_pages", map[string]any{"owner": owner, "repo": repo})
	require.True(t, res.IsError)
	assert.Equal(t, owner+"/"+repo+" has its wiki turned off (the repository's has_wiki setting)", fakeforge.Text(t, res))

	res = f.Call(t, defs, "list_wiki_pages", map[string]any{"owner": owner, "repo": "nosuchrepo"})
	require.True(t, res.IsError)
	assert.Equal(t, "repository "+owner+"/nosuchrepo not found (404): it does not exist or this token cannot see it", fakeforge.Text(t, res))
}
