package httpserver

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
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
