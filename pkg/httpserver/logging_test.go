package httpserver

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSetLevelChangesNoOtherClient is issue 18's item 7: over stateless
// HTTP every 2025-11-25 request has a session of its own and mcp-go keeps
// one log level for all of them, so one client's logging/setLevel changed
// what every other client received. It is refused with a reason, and
// another client's calls bring no records below the default level.
func TestSetLevelChangesNoOtherClient(t *testing.T) {
	fx := newFixture(t, nil)
	var records atomic.Int64
	open := func(token string, handler func(context.Context, *mcp.LoggingMessageRequest)) *mcp.ClientSession {
		client := mcp.NewClient(&mcp.Implementation{Name: "forgejo-mcp-test", Version: "1"}, &mcp.ClientOptions{LoggingMessageHandler: handler})
		cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: fx.http.URL + EndpointPath,
			HTTPClient: &http.Client{Transport: headerTransport{headers: map[string]string{"Authorization": "Bearer " + token}, next: http.DefaultTransport}},
			MaxRetries: -1}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		require.NoError(t, err)
		t.Cleanup(func() { _ = cs.Close() })
		return cs
	}
	loud := open(tokAlice, nil)
	quiet := open(tokBob, func(context.Context, *mcp.LoggingMessageRequest) { records.Add(1) })

	err := loud.SetLoggingLevel(t.Context(), &mcp.SetLoggingLevelParams{Level: "debug"})
	if assert.Error(t, err) {
		assert.Contains(t, err.Error(), "logging/setLevel is not supported over this stateless HTTP endpoint")
		assert.Contains(t, err.Error(), "io.modelcontextprotocol/logLevel", "it says what works instead")
	}

	for range 3 {
		res, err := quiet.CallTool(t.Context(), &mcp.CallToolParams{Name: "peek_thing", Arguments: map[string]any{}})
		require.NoError(t, err)
		require.False(t, res.IsError)
	}
	assert.Zero(t, records.Load(), "another client's setLevel does not make this one receive info records")
}
