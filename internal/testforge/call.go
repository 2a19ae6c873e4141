package testforge

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/schemacheck"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// WithToken returns a copy of f that acts with token.
func (f *Forge) WithToken(token string) *Forge {
	cp := *f
	cp.Token = token
	return &cp
}

// Client returns a forge client for f.Token, configured as the server
// configures its own.
func (f *Forge) Client(t testing.TB) *forgejo.Client {
	t.Helper()
	u, err := url.Parse(f.URL)
	require.NoError(t, err)
	hc := forgejo.NewHTTPClient(forgejo.HTTPOptions{BaseURL: u})
	return forgejo.NewClient(hc, u, f.Token, "forgejo-mcp/live-test")
}

// Call runs the tool named name from defs against the live forge through
// the same pipeline an MCP call takes.
func (f *Forge) Call(t testing.TB, defs []tool.Def, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	d, ok := tool.Find(defs, name)
	require.True(t, ok, "tool %s exists", name)
	c := f.Client(t)
	r := &tool.Runner{Client: func(context.Context) (*forgejo.Client, error) { return c, nil }, Timeout: 60 * time.Second}
	var raw any
	if args != nil {
		raw = args
	}
	res := r.Call(context.Background(), d, raw)
	schemacheck.Result(t, d, res)
	return res
}

// CallOK is Call that fails the test on an isError result and returns
// the result's text.
func (f *Forge) CallOK(t testing.TB, defs []tool.Def, name string, args map[string]any) string {
	t.Helper()
	res := f.Call(t, defs, name, args)
	require.False(t, res.IsError, "%s: %s", name, text(t, res))
	return text(t, res)
}

// Caller returns CallOK bound to defs: the shape of most lifecycle tests.
func (f *Forge) Caller(t testing.TB, defs []tool.Def) func(name string, args map[string]any) string {
	return func(name string, args map[string]any) string {
		t.Helper()
		return f.CallOK(t, defs, name, args)
	}
}

// RepoCaller is Caller on owner/repo: it sets those two arguments.
func (f *Forge) RepoCaller(t testing.TB, defs []tool.Def, owner, repo string) func(name string, args map[string]any) string {
	return func(name string, args map[string]any) string {
		t.Helper()
		args["owner"], args["repo"] = owner, repo
		return f.CallOK(t, defs, name, args)
	}
}

func text(t testing.TB, res *mcp.CallToolResult) string {
	t.Helper()
	require.NotEmpty(t, res.Content)
	tc, ok := res.Content[0].(mcp.TextContent)
	require.True(t, ok, "first content is text, got %T", res.Content[0])
	return tc.Text
}

// RequireMissingRoute checks that res is the clear answer of a tool whose
// route this forge lacks, naming the forge: refused before sending by the
// version gate (a route pkg/forgejo knows this version lacks) or the
// router's 404 reported as a missing route (a version the table does not
// describe, such as Forgejo 10). Either way it must never read as a
// missing object. It returns the text for further checks.
func (f *Forge) RequireMissingRoute(t testing.TB, res *mcp.CallToolResult) string {
	t.Helper()
	msg := text(t, res)
	require.True(t, res.IsError, "a missing route is an error: %s", msg)
	if problem := notMissingRoute(msg, f.Identify(t).String()); problem != "" {
		t.Fatalf("%s, got: %s", problem, msg)
	}
	return msg
}

// notMissingRoute says what keeps msg from being pkg/forgejo's answer for
// a route the forge (named as "Gitea 1.26.0") lacks, or "" when it is one:
// RouteError's (refused before sending) or Error.noRouteText's (the
// router's 404). TestNotMissingRouteOnRealTexts holds it to both.
func notMissingRoute(msg, forge string) string {
	head := "this forge (" + forge + ") has no such API route"
	gated := head + ", so nothing was sent"
	routed := head + " (its router answered 404 page not found"
	switch {
	case strings.Contains(msg, "not found (404)"):
		return "a missing route reads as a missing object"
	case !strings.Contains(msg, gated) && !strings.Contains(msg, routed):
		return "want the missing-route answer naming " + forge
	}
	return ""
}
