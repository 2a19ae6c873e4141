package httpserver

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSelectionHeaders(t *testing.T) {
	all := []string{"drop_thing", "make_thing", "peek_thing", "wait", "whoami"}
	tests := []struct {
		name      string
		headers   map[string]string
		serverRO  bool
		want      []string
		wantError string // a 400 naming the problem
	}{
		{name: "no headers", want: all},
		{name: "readonly", headers: map[string]string{HeaderReadonly: "true"}, want: []string{"peek_thing", "wait", "whoami"}},
		{name: "readonly false changes nothing", headers: map[string]string{HeaderReadonly: "false"}, want: all},
		{name: "toolset", headers: map[string]string{HeaderToolsets: "user"}, want: []string{"whoami"}},
		{name: "tools", headers: map[string]string{HeaderTools: "peek_thing, make_thing"}, want: []string{"make_thing", "peek_thing"}},
		{name: "exclude", headers: map[string]string{HeaderExcludeTools: "wait,drop_thing"}, want: []string{"make_thing", "peek_thing", "whoami"}},
		{name: "combined", headers: map[string]string{HeaderToolsets: "things", HeaderReadonly: "1"}, want: []string{"peek_thing", "wait"}},
		{name: "header cannot widen a read-only server", serverRO: true, headers: map[string]string{HeaderReadonly: "false"}, want: []string{"peek_thing", "wait", "whoami"}},
		{name: "header cannot name a tool the server hides", serverRO: true, headers: map[string]string{HeaderTools: "make_thing"}, wantError: `offers no tool "make_thing"`},
		{name: "unknown toolset", headers: map[string]string{HeaderToolsets: "nope"}, wantError: `offers no toolset "nope"`},
		{name: "bad readonly value", headers: map[string]string{HeaderReadonly: "maybe"}, wantError: "must be true or false"},
		// Issue 18, item 14: blank was "no narrowing", and a selection
		// left with nothing served an empty list without a word.
		{name: "blank tools", headers: map[string]string{HeaderTools: ""}, wantError: "X-MCP-Tools is blank: name at least one, or leave the header out"},
		{name: "blank tools list", headers: map[string]string{HeaderTools: " , "}, wantError: "X-MCP-Tools is blank"},
		{name: "blank toolsets", headers: map[string]string{HeaderToolsets: " "}, wantError: "X-MCP-Toolsets is blank"},
		{name: "blank exclude", headers: map[string]string{HeaderExcludeTools: ""}, wantError: "X-MCP-Exclude-Tools is blank"},
		{name: "blank readonly", headers: map[string]string{HeaderReadonly: ""}, wantError: "must be true or false"},
		{name: "nothing left", headers: map[string]string{HeaderTools: "make_thing", HeaderReadonly: "true"},
			wantError: "the selection headers leave no tool: X-MCP-Readonly: true leaves out every tool X-MCP-Tools selects: they all write to the forge (make_thing)"},
		{name: "nothing left by exclude", headers: map[string]string{HeaderTools: "wait", HeaderExcludeTools: "wait"},
			wantError: "X-MCP-Exclude-Tools leaves out every tool X-MCP-Tools selects"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := newFixture(t, func(o *Options) {
				if tt.serverRO {
					var ro = o.Defs[:0:0]
					for _, d := range o.Defs {
						if d.Annotations.ReadOnly {
							ro = append(ro, d)
						}
					}
					o.Defs = ro
				}
			})
			if tt.wantError != "" {
				resp, body := fx.post(t, rpc{Method: "tools/list", Auth: "Bearer " + tokAlice, Headers: tt.headers})
				assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
				assert.Contains(t, body, tt.wantError)
				return
			}
			assert.ElementsMatch(t, tt.want, fx.toolNames(t, "Bearer "+tokAlice, tt.headers))
		})
	}
}

func TestHiddenToolCannotBeCalled(t *testing.T) {
	fx := newFixture(t, nil)
	ro := map[string]string{HeaderReadonly: "true"}
	assert.Contains(t, fx.callText(t, "Bearer "+tokAlice, "make_thing", ro), "error: tool 'make_thing' not found")
	assert.Equal(t, `"done"`, fx.callText(t, "Bearer "+tokAlice, "peek_thing", ro))
	assert.Equal(t, `"done"`, fx.callText(t, "Bearer "+tokAlice, "make_thing", nil))
}

// TestRepeatedSelectionHeaders: a selection header given more than once,
// under any spelling of its name or joined by a comma (X-MCP-Readonly), is
// refused with a 400 naming it, never merged: "false" then "true" used to
// read as not read-only. So is an X-MCP-* header this server does not know.
func TestRepeatedSelectionHeaders(t *testing.T) {
	type kv struct{ k, v string }
	tests := []struct {
		name    string
		headers []kv // sent as written: raw names, in order
		want    string
	}{
		{name: "readonly false then true", headers: []kv{{"X-MCP-Readonly", "false"}, {"X-MCP-Readonly", "true"}}, want: "X-MCP-Readonly is given 2 times"},
		{name: "readonly true then false", headers: []kv{{"X-MCP-Readonly", "true"}, {"X-MCP-Readonly", "false"}}, want: "X-MCP-Readonly is given 2 times"},
		{name: "readonly case variants", headers: []kv{{"x-mcp-readonly", "false"}, {"X-MCP-READONLY", "true"}}, want: "X-MCP-Readonly is given 2 times"},
		{name: "readonly comma-joined", headers: []kv{{"X-MCP-Readonly", "false, true"}}, want: "X-MCP-Readonly is given more than once"},
		{name: "toolsets twice", headers: []kv{{"X-MCP-Toolsets", "user"}, {"x-mcp-toolsets", "things"}}, want: "X-MCP-Toolsets is given 2 times"},
		{name: "tools twice", headers: []kv{{"X-MCP-Tools", "whoami"}, {"X-MCP-Tools", "make_thing"}}, want: "X-MCP-Tools is given 2 times"},
		{name: "exclude twice", headers: []kv{{"X-MCP-Exclude-Tools", "wait"}, {"X-Mcp-Exclude-Tools", "drop_thing"}}, want: "X-MCP-Exclude-Tools is given 2 times"},
		{name: "unknown X-MCP header", headers: []kv{{"X-MCP-Read-Only", "true"}}, want: "unknown header X-Mcp-Read-Only"},
	}
	fx := newFixture(t, nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, method := range []string{"tools/list", "tools/call"} {
				body := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{"name":"make_thing","arguments":{}}}`
				req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, fx.http.URL+EndpointPath, strings.NewReader(body))
				require.NoError(t, err)
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
				req.Header.Set("Authorization", "Bearer "+tokAlice)
				for _, h := range tt.headers {
					req.Header[h.k] = append(req.Header[h.k], h.v) // raw names, as a client may send them
				}
				resp, got := do(t, req)
				assert.Equal(t, http.StatusBadRequest, resp.StatusCode, "%s: %s", method, got)
				assert.Contains(t, got, tt.want, method)
				assert.NotContains(t, got, `"done"`, "%s: make_thing must not run", method)
			}
		})
	}
	// One header of each, each once, still works.
	assert.ElementsMatch(t, []string{"peek_thing"}, fx.toolNames(t, "Bearer "+tokAlice, map[string]string{
		HeaderToolsets: "things", HeaderTools: "peek_thing,wait", HeaderExcludeTools: "wait", HeaderReadonly: "true"}))
}
