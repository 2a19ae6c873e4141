package httpserver

import (
	"net/http"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Protocol versions the endpoint is tested under: the last session-based
// revision and the stateless one.
var protocolVersions = []string{"2025-11-25", "2026-07-28"}

// headerTransport adds fixed headers (a token, selection headers) to every
// request of the official SDK's client.
type headerTransport struct {
	headers map[string]string
	next    http.RoundTripper
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.headers {
		r.Header.Set(k, v)
	}
	return h.next.RoundTrip(r)
}

// connect opens a session of the official Go SDK client on endpoint,
// pinned to version, sending headers with every request.
func connect(t *testing.T, endpoint, version string, headers map[string]string) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "forgejo-mcp-test", Version: "1"}, nil)
	transport := &mcp.StreamableClientTransport{
		Endpoint:   endpoint,
		HTTPClient: &http.Client{Transport: headerTransport{headers: headers, next: http.DefaultTransport}},
		MaxRetries: -1,
	}
	cs, err := client.Connect(t.Context(), transport, &mcp.ClientSessionOptions{ProtocolVersion: version})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	require.Equal(t, version, cs.InitializeResult().ProtocolVersion, "negotiated version")
	return cs
}

func resultText(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	require.NotEmpty(t, res.Content)
	tc, ok := res.Content[0].(*mcp.TextContent)
	require.True(t, ok, "first content is text")
	return tc.Text
}

func TestOfficialClientBothVersions(t *testing.T) {
	for _, version := range protocolVersions {
		t.Run(version, func(t *testing.T) {
			fx := newFixture(t, nil)
			cs := connect(t, fx.http.URL+EndpointPath, version, map[string]string{
				"Authorization": "Bearer " + tokAlice,
				HeaderReadonly:  "true",
			})
			tools, err := cs.ListTools(t.Context(), nil)
			require.NoError(t, err)
			var names []string
			for _, tl := range tools.Tools {
				names = append(names, tl.Name)
			}
			assert.ElementsMatch(t, []string{"peek_thing", "wait", "whoami"}, names)

			res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "whoami", Arguments: map[string]any{}})
			require.NoError(t, err)
			assert.False(t, res.IsError)
			assert.Equal(t, `{"login":"alice"}`, resultText(t, res))

			_, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "make_thing", Arguments: map[string]any{}})
			assert.ErrorContains(t, err, "not found", "a tool hidden by a header cannot be called")
			if version < "2026-07-28" { // ping was removed in 2026-07-28
				assert.NoError(t, cs.Ping(t.Context(), nil))
			}
		})
	}
}

func TestOfficialClientWithoutTokenGets401(t *testing.T) {
	for _, version := range protocolVersions {
		t.Run(version, func(t *testing.T) {
			fx := newFixture(t, nil)
			client := mcp.NewClient(&mcp.Implementation{Name: "forgejo-mcp-test", Version: "1"}, nil)
			_, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: fx.http.URL + EndpointPath, MaxRetries: -1},
				&mcp.ClientSessionOptions{ProtocolVersion: version})
			require.Error(t, err)
			assert.Contains(t, err.Error(), "Unauthorized")
		})
	}
}
