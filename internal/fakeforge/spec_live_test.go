package fakeforge_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// The checked-in description of the live forge's flavour and version is
// what it serves: the drift tests that read it check the tools against the
// live /swagger.v1.json. On a Forgejo brought with FORGEJO_TEST_FORGEJO_BIN
// whose version has no stored description (10.0.0-dev), what is checked is
// the version gate: it must never refuse a route this forge serves.
func TestLiveSpecIsCurrent(t *testing.T) {
	f := testforge.Get(t)
	hc := &http.Client{Timeout: 30 * time.Second}
	resp, err := hc.Get(f.URL + "/swagger.v1.json")
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	live, err := fakeforge.TrimSwagger(raw, "")
	require.NoError(t, err)
	id := f.Identify(t)
	require.Equal(t, id.Flavour(), live.Flavour, "the description names the flavour %s is", id)

	var v struct {
		Version string `json:"version"`
	}
	require.Equal(t, http.StatusOK, f.Do(t, http.MethodGet, "/version", nil, &v))
	names := map[bool][]string{false: {"gitea"}, true: {"forgejo-13.0.5", "forgejo"}}[id.Forgejo]
	var stored *fakeforge.Spec
	for _, name := range names {
		s, err := fakeforge.LoadSpec(name)
		require.NoError(t, err)
		if s.Version == v.Version {
			stored = s
		}
	}
	if !id.Forgejo {
		require.NotNil(t, stored, "internal/fakeforge/specs/gitea.json describes Gitea %s, the live forge is %s: run make fixtures", v.Version, id)
	}
	if stored != nil {
		a, err := json.Marshal(live)
		require.NoError(t, err)
		b, err := json.Marshal(stored)
		require.NoError(t, err)
		assert.JSONEq(t, string(a), string(b), "the stored description of %s is stale: run make fixtures", id)
	}

	// The gate refuses only what this forge's description lacks.
	served := map[string]bool{}
	for key := range live.Routes {
		method, route, _ := strings.Cut(key, " ")
		served[method+" "+forgejo.NormalizeRoute(route)] = true
	}
	flavour := map[bool]forgejo.Flavour{false: forgejo.Gitea, true: forgejo.Forgejo}[id.Forgejo]
	forge := forgejo.Forge{Flavour: flavour, Version: v.Version}
	refused := 0
	for _, d := range forgejo.Routes() {
		if d.LackedBy(forge) {
			refused++
			assert.False(t, served[d.Method+" "+forgejo.NormalizeRoute(d.Route)],
				"%s %s is refused on %s, which serves it", d.Method, d.Route, id)
		}
	}
	t.Logf("%s: %d routes in its description, %d of the %d declared differences refused before sending", id, len(live.Routes), refused, len(forgejo.Routes()))
}
