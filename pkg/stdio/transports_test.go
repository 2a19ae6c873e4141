package stdio_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/httpserver"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/stdio"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// transports serves the same tools over stdio and streamable HTTP, so a
// test can send one raw message to both and compare the replies.
type transports struct {
	w    *wire
	http *httptest.Server
}

func newTransports(t *testing.T, defs []tool.Def, r tool.Runner, lim stdio.Limits) *transports {
	t.Helper()
	stdioRunner := r
	w := serve(t, defs, &stdioRunner, lim)
	forge := fakeforge.New(t)
	srv, err := httpserver.New(httpserver.Options{
		Forge:      forge.BaseURL(),
		HTTPClient: forgejo.NewHTTPClient(forgejo.HTTPOptions{BaseURL: forge.BaseURL()}),
		Defs:       defs,
		Runner:     &r,
		Verify:     func(context.Context, *forgejo.Client) (string, error) { return "alice", nil },
	})
	require.NoError(t, err)
	h := httptest.NewServer(srv)
	t.Cleanup(h.Close)
	return &transports{w: w, http: h}
}

// reply is a JSON-RPC reply, its members raw.
type reply map[string]json.RawMessage

// stdio sends msg as one line and returns the reply.
func (tr *transports) stdio(t *testing.T, msg string) reply {
	t.Helper()
	tr.w.t = t
	tr.w.send(msg)
	tr.w.recv()
	line := tr.w.last
	var r reply
	require.NoError(t, json.Unmarshal([]byte(line), &r), line)
	return r
}

// post sends msg as one POST and returns the JSON-RPC reply (from JSON or
// from the last event of a stream).
func (tr *transports) post(t *testing.T, msg string) reply {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, tr.http.URL+httpserver.EndpointPath, strings.NewReader(msg))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	req.Header.Set("Authorization", "Bearer tok-transports-test")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		for _, line := range strings.Split(string(body), "\n") {
			if data, ok := strings.CutPrefix(line, "data:"); ok {
				body = []byte(data)
			}
		}
	}
	var r reply
	require.NoError(t, json.Unmarshal(bytes.TrimSpace(body), &r), "HTTP %d: %s", resp.StatusCode, body)
	return r
}

// outcome is what a reply says, for comparing transports: its error code
// (0 for a result) and, for a tool result, isError and the first text.
func (r reply) outcome(t *testing.T) string {
	t.Helper()
	if e, ok := r["error"]; ok {
		var d struct {
			Code int `json:"code"`
		}
		require.NoError(t, json.Unmarshal(e, &d))
		return fmt.Sprintf("error %d", d.Code)
	}
	var res struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	}
	require.NoError(t, json.Unmarshal(r["result"], &res))
	if len(res.Content) == 0 {
		return "result"
	}
	return fmt.Sprintf("result isError=%v %s", res.IsError, res.Content[0].Text)
}

// sameID reports whether the reply's id is the id sent: the same string,
// or the same integer written the same way.
func sameID(sent string, got json.RawMessage) bool {
	if strings.HasPrefix(sent, `"`) {
		var a, b string
		return json.Unmarshal([]byte(sent), &a) == nil && json.Unmarshal(got, &b) == nil && a == b
	}
	return string(got) == sent
}

// TestIDsOnBothTransports (security issue 8, class 10): an id that is not
// a string or an integer within ±2^53 is refused with -32600 and a null
// id, never answered under another id (2^64 came back as
// 18446744073709552000, 1e3 as 1000); an accepted id comes back exactly;
// stdio and HTTP agree on every form.
func TestIDsOnBothTransports(t *testing.T) {
	tr := newTransports(t, []tool.Def{echo()}, tool.Runner{}, stdio.Limits{})
	ids := []struct {
		raw string
		ok  bool
	}{
		{`1`, true}, {`0`, true}, {`-7`, true},
		{`9007199254740992`, true}, {`-9007199254740992`, true}, // ±2^53
		{`9007199254740993`, false}, {`-9007199254740993`, false}, // 2^53+1
		{`18446744073709551616`, false}, // 2^64
		{`1.5`, false}, {`-0`, false}, {`1e3`, false}, {`2.0`, false},
		{`true`, false}, {`{}`, false}, {`[]`, false}, {`null`, false},
		{`"a"`, true}, {`""`, true}, {`"\u0061b"`, true}, {`"18446744073709551616"`, true},
		// Issue 18, item 13: a lone UTF-16 surrogate decodes to U+FFFD and
		// would come back as another id; a pair is one character.
		{`"\ud800"`, false}, {`"\uDFFF"`, false}, {`"a\ud83d"`, false}, {`"\ude00x"`, false},
		{`"\ud83d\ud83d"`, false}, {`"\ude00\ud83d"`, false},
		{`"\ud83d\ude00"`, true}, {`"\\ud800"`, true}, {`"😀"`, true},
	}
	for _, id := range ids {
		for _, body := range []string{
			`"method":"ping"`,
			`"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}`,
		} {
			msg := `{"jsonrpc":"2.0","id":` + id.raw + `,` + body + `}`
			t.Run(msg, func(t *testing.T) {
				overStdio, overHTTP := tr.stdio(t, msg), tr.post(t, msg)
				for name, r := range map[string]reply{"stdio": overStdio, "http": overHTTP} {
					if id.ok {
						assert.True(t, sameID(id.raw, r["id"]), "%s answered id %s to id %s", name, r["id"], id.raw)
						assert.NotContains(t, r, "error", name)
						continue
					}
					assert.Equal(t, "null", string(r["id"]), "%s answered id %s to the refused id %s", name, r["id"], id.raw)
					assert.Equal(t, "error -32600", r.outcome(t), name)
				}
				assert.Equal(t, overStdio.outcome(t), overHTTP.outcome(t), "stdio and HTTP disagree")
				assert.Equal(t, string(overStdio["id"]), string(overHTTP["id"]), "stdio and HTTP disagree")
			})
		}
	}
}
