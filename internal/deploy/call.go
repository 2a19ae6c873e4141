package deploy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Result is one tools/call as the client saw it.
type Result struct {
	Status  int    // HTTP status
	IsError bool   // the tool result's isError
	Text    string // the result's first text, or the HTTP body when not 200
}

// Call posts one stateless tools/call (MCP 2025-11-25, no session) to
// base+"/mcp" as token. An error means no HTTP answer came at all.
func Call(ctx context.Context, hc *http.Client, base, token, tool string, args map[string]any) (Result, error) {
	return CallAs(ctx, hc, base, "token "+token, tool, args)
}

// CallAs is Call with the whole Authorization header ("Bearer …" or
// "token …").
func CallAs(ctx context.Context, hc *http.Client, base, authorization, tool string, args map[string]any) (Result, error) {
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": map[string]any{"name": tool, "arguments": args}})
	if err != nil {
		return Result{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/mcp", bytes.NewReader(body))
	if err != nil {
		return Result{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	req.Header.Set("Authorization", authorization)
	resp, err := hc.Do(req)
	if err != nil {
		return Result{}, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return Result{Status: resp.StatusCode}, err
	}
	if resp.StatusCode != http.StatusOK {
		return Result{Status: resp.StatusCode, Text: strings.TrimSpace(string(raw))}, nil
	}
	msg := raw
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		// The reply is the last data line of the stream.
		for _, line := range strings.Split(string(raw), "\n") {
			if d, ok := strings.CutPrefix(line, "data:"); ok {
				msg = []byte(strings.TrimSpace(d))
			}
		}
	}
	var out struct {
		Result *struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
			IsError bool `json:"isError"`
		} `json:"result"`
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(msg, &out); err != nil {
		return Result{Status: resp.StatusCode}, fmt.Errorf("undecodable reply: %w: %q", err, raw[:min(len(raw), 300)])
	}
	switch {
	case out.Error != nil:
		return Result{Status: resp.StatusCode, IsError: true, Text: "JSON-RPC error: " + out.Error.Message}, nil
	case out.Result == nil || len(out.Result.Content) == 0:
		return Result{Status: resp.StatusCode}, fmt.Errorf("reply without a result: %s", msg)
	}
	return Result{Status: resp.StatusCode, IsError: out.Result.IsError, Text: out.Result.Content[0].Text}, nil
}

// Retryable says whether a failed exchange may simply be sent again by a
// client: no answer at all, or the balancer's 502/503/504 (the replica
// died or was unreachable). Whether it should be is the caller's call: a
// read or idempotent tool yes; a non-idempotent write may already have
// reached the forge.
func Retryable(r Result, err error) bool {
	if err != nil {
		return true
	}
	return r.Status == http.StatusBadGateway || r.Status == http.StatusServiceUnavailable || r.Status == http.StatusGatewayTimeout
}
