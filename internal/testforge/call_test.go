package testforge

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// giteaRouter answers as Gitea 1.26.0 does where a route is missing: its
// version, no Forgejo API, and the router's plain-text 404 for the rest.
func giteaRouter(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/v1/version":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"version":"1.26.0"}`)
		case "/api/v1/repos/o/r/issues/1":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"message":"issue does not exist"}`)
		default:
			http.NotFound(w, r) // text/plain "404 page not found", as the router's
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestNotMissingRouteOnRealTexts feeds RequireMissingRoute's check the
// texts pkg/forgejo itself makes, so that a change of wording there fails
// here rather than in a live run on a forge that lacks a route: the gate's
// refusal (Gitea 1.26 has no run cancel route), the router's 404 and, as
// the counter-case, a missing object's 404.
func TestNotMissingRouteOnRealTexts(t *testing.T) {
	srv := giteaRouter(t)
	f := &Forge{URL: srv.URL, Token: "t"}
	c := f.Client(t)
	ctx := context.Background()
	fail := func(path, subject string) string {
		err := c.DoJSON(ctx, http.MethodPost, path, nil, nil, nil)
		require.Error(t, err)
		return forgejo.Relabel(err, "act on", subject).Error()
	}
	gated := fail("/repos/o/r/actions/runs/1/cancel", "run 1")
	routed := fail("/repos/o/r/no-such-route", "o/r")
	object := fail("/repos/o/r/issues/1", "issue o/r#1")
	assert.Contains(t, gated, "so nothing was sent", "the gate refused it")
	assert.Contains(t, routed, "404 page not found", "the router answered")

	assert.Empty(t, notMissingRoute(gated, "Gitea 1.26.0"), gated)
	assert.Empty(t, notMissingRoute(routed, "Gitea 1.26.0"), routed)
	assert.NotEmpty(t, notMissingRoute(object, "Gitea 1.26.0"), object)
	assert.NotEmpty(t, notMissingRoute(gated, "Gitea 1.25.0"), "another forge named")

	// And the whole helper, identifying the forge as a live test does.
	res := mcp.NewToolResultError(routed)
	assert.Equal(t, routed, f.RequireMissingRoute(t, res))
	assert.Equal(t, gated, f.RequireMissingRoute(t, mcp.NewToolResultError(gated)))
}
