package forgejo_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

func TestCheckRoute(t *testing.T) {
	tests := []struct {
		escaped string
		value   string // named in the refusal; "" when the route is let through
	}{
		{escaped: "/api/v1/repos/o/r/branch_protections/main"},
		{escaped: "/api/v1/repos/o/r/contents/docs/a%20b.md"},
		{escaped: "/api/v1/repos/o/r/wiki/page/100%25"},         // the literal name "100%": decodes no further
		{escaped: "/api/v1/repos/o/r/wiki/page/a%2541"},         // "a%41", then "aA": one segment however decoded
		{escaped: "/api/v1/repos/o/r/contents/a%20b?ref=x%2Fy"}, // the query is no segment
		// Issue 18: behind two decoding proxies a doubly encoded value
		// climbs; every decoding is checked.
		{escaped: "/api/v1/repos/o/r/wiki/page/%252e%252e", value: "%2e%2e"},
		{escaped: "/api/v1/repos/o/r/releases/tags/a%252Fb", value: "a%2Fb"},
		{escaped: "/api/v1/repos/o/r/branch_protections/..%252F..%252Fvictim2", value: "..%2F..%2Fvictim2"},
		{escaped: "/api/v1/repos/o/r/branch_protections/..%25252F..%25252Fv", value: "..%252F..%252Fv"},
		{escaped: "/api/v1/repos/o/r/branch_protections/..%255C..%255Cv", value: `..%5C..%5Cv`},
		{escaped: "/api/v1/repos/o/r/branches/a%253Fx=1", value: "a%3Fx=1"},
		{escaped: "/api/v1/repos/o/r/branches/a%3Fx=1", value: "a?x=1"},
		{escaped: "/api/v1/repos/o/r/branches/a%23x", value: "a#x"},
		{escaped: "/api/v1/repos/o/r/branches/a%250D%250Ax", value: "a%0D%0Ax"},
		{escaped: "/api/v1/repos/o/r/branches/a%0Ax", value: "a\nx"},
		{escaped: "/attachments/0b1c-uuid"},
		{escaped: "/api/v1/repos/o/r/branch_protections/..%2F..%2Fvictim", value: "../../victim"},
		{escaped: "/api/v1/repos/o/r/branch_protections/..%2f..%2fvictim", value: "../../victim"},
		{escaped: "/api/v1/repos/o/r/releases/tags/..%5C..%5Cx", value: `..\..\x`},
		{escaped: "/api/v1/repos/o/r/releases/tags/a%5cb", value: `a\b`},
		{escaped: "/api/v1/repos/o/r/wiki/page/%2e%2e", value: ".."},
		{escaped: "/api/v1/repos/o/r/wiki/page/.%2E", value: ".."},
		{escaped: "/api/v1/repos/o/r/wiki/page/%2e", value: "."},
		{escaped: "/api/v1/repos/o/../../admin/users", value: ".."},
		{escaped: "/api/v1/repos/o/./r", value: "."},
	}
	for _, tt := range tests {
		t.Run(tt.escaped, func(t *testing.T) {
			u, err := url.Parse("http://forge.example" + tt.escaped)
			require.NoError(t, err)
			err = forgejo.CheckRoute(u)
			if tt.value == "" {
				assert.NoError(t, err)
				return
			}
			var pe *forgejo.PathError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, tt.value, pe.Value)
		})
	}
}

// TestRouteGuardStopsSDKRoutes: forgejo-sdk escapes '/' as %2F itself; the
// client's transport refuses such a request before it leaves, and the agent
// reads which value and why, not "cannot reach the forge".
func TestRouteGuardStopsSDKRoutes(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("DELETE /api/v1/repos/o/r/branch_protections/{name}", http.StatusNoContent, nil)
	c := f.Client()

	resp, err := c.SDK(context.Background()).DeleteBranchProtection("o", "r", "../../victim")
	msg := forgejo.Fail(resp, err, "delete", "branch protection ../../victim in o/r").Error()
	assert.Contains(t, msg, `"../../victim" cannot be used in a forge API path`)
	assert.Contains(t, msg, "a proxy in front of the forge may decode %2F")
	assert.Contains(t, msg, "nothing was sent")
	assert.NotContains(t, msg, "cannot reach")
	assert.NotContains(t, msg, f.URL, "the URL is not dumped")

	_, err = c.SDK(context.Background()).DeleteBranchProtection("o", "r", "main")
	require.NoError(t, err)
	reqs := f.Requests()
	require.Len(t, reqs, 1, "only the benign call reached the forge")
	assert.Equal(t, "/api/v1/repos/o/r/branch_protections/main", reqs[0].Path)
}

// TestRouteGuardStopsRedirects: a same-origin redirect to a route a proxy
// would fold is refused too; the guard sits under the redirect logic.
func TestRouteGuardStopsRedirects(t *testing.T) {
	f := fakeforge.New(t)
	f.Handle("GET /api/v1/repos/o/r/media/x", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/api/v1/repos/o/r/wiki/page/..%2F..%2F..%2Fadmin", http.StatusFound)
	})
	_, err := f.Client().DoRaw(context.Background(), "/api/v1/repos/o/r/media/x", forgejo.RawOptions{MaxBytes: 10})
	require.ErrorContains(t, err, `"../../../admin" cannot be used in a forge API path`)
	require.Len(t, f.Requests(), 1)
}
