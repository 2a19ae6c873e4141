package forgejo_test

import (
	"context"
	"net/http"
	"testing"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// TestLiveErrorTexts checks, against the live forge, the texts of the
// failures whose raw forms mislead an agent: Gitea's function names as
// messages, a 500 for a missing issue, and a missing token read as a
// rejected token or a missing repository.
func TestLiveErrorTexts(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	ctx := context.Background()
	c := f.Client(t)
	anon := f.WithToken("").Client(t)

	t.Run("function name dropped", func(t *testing.T) {
		_, resp, err := c.SDK(ctx).GetContents(owner, repo, "", "missing.txt")
		got := c.Explain(forgejo.Fail(resp, err, "get", "file missing.txt"))
		require.Error(t, got)
		assert.Equal(t, "file missing.txt not found (404): it does not exist or this token cannot see it", got.Error())
	})
	t.Run("comment on a missing issue is not found", func(t *testing.T) {
		_, resp, err := c.SDK(ctx).CreateIssueComment(owner, repo, 999, sdk.CreateIssueCommentOption{Body: "x"})
		require.Error(t, err)
		require.Equal(t, http.StatusInternalServerError, resp.StatusCode, "Gitea answers 500 here; the mapping exists for it")
		got := forgejo.Fail(resp, err, "comment on", "issue 999")
		assert.True(t, forgejo.IsNotFound(got))
		assert.Equal(t, "issue 999 not found (404): it does not exist or this token cannot see it: issue does not exist", got.Error())
	})
	t.Run("private read without token", func(t *testing.T) {
		_, resp, err := anon.SDK(ctx).GetRepo(owner, repo)
		got := anon.Explain(forgejo.Fail(resp, err, "get", "repository "+owner+"/"+repo))
		require.Error(t, got)
		assert.Contains(t, got.Error(), "not found (404): no access token is set, so only public data is visible; if it exists and is private, set FORGEJO_ACCESS_TOKEN")
	})
	t.Run("write without token", func(t *testing.T) {
		_, resp, err := anon.SDK(ctx).CreateRepo(sdk.CreateRepoOption{Name: "never"})
		got := anon.Explain(forgejo.Fail(resp, err, "create", "repository never"))
		require.Error(t, got)
		assert.Equal(t, http.StatusUnauthorized, forgejo.StatusOf(got))
		assert.Contains(t, got.Error(), "create repository never: no access token is set, and the forge needs one for this (401 Unauthorized)")
	})
}
