package httpserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// postRaw sends body as one POST with alice's token.
func (fx *fixture) postRaw(t *testing.T, body string) (*http.Response, string) {
	t.Helper()
	return fx.postRawAs(t, tokAlice, body)
}

func (fx *fixture) postRawAs(t *testing.T, token, body string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, fx.http.URL+EndpointPath, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	req.Header.Set("Authorization", "Bearer "+token)
	return do(t, req)
}

// TestRefusalsBeforeDecoding: a message rpcguard refuses gets 400 with
// the JSON-RPC error, and mcp-go never sees it; over-long arguments get
// the argument limit's isError result; the access log names the method of
// any body, however large.
func TestRefusalsBeforeDecoding(t *testing.T) {
	fx := newFixture(t, func(o *Options) { o.Runner = &tool.Runner{MaxArgBytes: 1000} })
	resp, body := fx.postRaw(t, `{"jsonrpc":"2.0","id":18446744073709551616,"method":"ping"}`)
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.JSONEq(t, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: id must be a string or an integer from -2^53 to 2^53 (9007199254740992)"}}`, body)

	resp, body = fx.postRaw(t, `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":[`+strings.Repeat("[],", 20000)+`[]]}}`)
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Contains(t, body, `"id":2`)
	assert.Contains(t, body, "more than 16384 JSON values")

	resp, body = fx.postRaw(t, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"peek_thing","arguments":{"x":"`+strings.Repeat("y", 2000)+`"}}}`)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	var out struct {
		ID     int `json:"id"`
		Result struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
			IsError bool `json:"isError"`
		} `json:"result"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &out), body)
	assert.Equal(t, 3, out.ID)
	assert.True(t, out.Result.IsError)
	require.NotEmpty(t, out.Result.Content)
	assert.Equal(t, "invalid arguments for peek_thing: they are over this tool's limit of 1000 bytes (as JSON); shorten the longest value", out.Result.Content[0].Text)
	assert.Regexp(t, `msg="tool call" tool=peek_thing is_error=true`, fx.logs.String(), "refused by the tool pipeline, which logs it")
	assert.Regexp(t, `msg="http request" method=POST path=/mcp status=200 .* rpc=tools/call`, fx.logs.String())

	// A chunked body (no Content-Length) is read and checked the same way.
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, fx.http.URL+EndpointPath,
		struct{ *bytes.Reader }{bytes.NewReader([]byte(`{"jsonrpc":"2.0","id":4,"method":"ping","params":{"pad":"` + strings.Repeat("z", 200<<10) + `"}}`))})
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+tokAlice)
	resp, body = do(t, req)
	assert.Equal(t, http.StatusOK, resp.StatusCode, body)
	assert.Contains(t, body, `"id":4`)
}

// TestInflightBudgetHTTP: a request past the in-flight byte budget waits
// for it and gets 503 with a JSON-RPC busy error carrying its id when none
// is given back in time; it is served when one is.
func TestInflightBudgetHTTP(t *testing.T) {
	fx := newFixture(t, func(o *Options) { o.MaxInflightBytes = 3000; o.InflightWait = 300 * time.Millisecond })
	fx.toolNames(t, "Bearer "+tokAlice, nil) // warm the token cache
	done := make(chan string)
	go func() { done <- fx.callText(t, "Bearer "+tokAlice, "wait", nil) }()
	require.Eventually(t, func() bool { return fx.srv.budget.InUse() > 0 }, 5*time.Second, 5*time.Millisecond)

	// Bob's, so that alice's share of the budget is not what refuses it.
	big := `{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"name":"peek_thing","arguments":{"x":"` + strings.Repeat("y", 2500) + `"}}}`
	start := time.Now()
	resp, body := fx.postRawAs(t, tokBob, big)
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode, body)
	assert.Equal(t, "1", resp.Header.Get("Retry-After"))
	assert.Contains(t, body, "the requests being handled hold the 2.9 KiB budget (--max-inflight-bytes;", "refused before its body was read")
	assert.GreaterOrEqual(t, time.Since(start), 300*time.Millisecond, "it waited first")

	resp, body = fx.postRaw(t, `{"jsonrpc":"2.0","id":"small","method":"ping"}`)
	assert.Equal(t, http.StatusOK, resp.StatusCode, "a small request fits beside: %s", body)

	waited := make(chan int)
	go func() {
		resp, _ := fx.postRawAs(t, tokBob, big)
		waited <- resp.StatusCode
	}()
	time.Sleep(100 * time.Millisecond)
	fx.release()
	assert.Equal(t, `"released"`, <-done)
	assert.Equal(t, http.StatusOK, <-waited)
	assert.Eventually(t, func() bool { return fx.srv.budget.InUse() == 0 }, 5*time.Second, 5*time.Millisecond, "all given back")
}
