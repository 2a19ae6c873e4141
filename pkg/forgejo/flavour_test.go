package forgejo_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

func TestParseForge(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want forgejo.Forge
	}{
		{"11.0.0+gitea-1.22.0", forgejo.Forge{Flavour: forgejo.Forgejo, Version: "11.0.0+gitea-1.22.0"}},
		{"7.0.5+gitea-1.22.0", forgejo.Forge{Flavour: forgejo.Forgejo, Version: "7.0.5+gitea-1.22.0"}},
		{"1.21.11-forgejo", forgejo.Forge{Flavour: forgejo.Forgejo, Version: "1.21.11-forgejo"}},
		{"1.26.0", forgejo.Forge{Flavour: forgejo.Gitea, Version: "1.26.0"}},
		{" 1.22.1 ", forgejo.Forge{Flavour: forgejo.Gitea, Version: "1.22.1"}},
	} {
		assert.Equal(t, tc.want, forgejo.ParseForge(tc.in), tc.in)
	}
	assert.Equal(t, "Forgejo 11.0.0+gitea-1.22.0", forgejo.ParseForge("11.0.0+gitea-1.22.0").String())
}

// forgeServer answers /api/v1/version with version and counts the calls.
func forgeServer(t *testing.T, version string, calls *atomic.Int32) *forgejo.Client {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v1/version" {
			http.NotFound(w, r)
			return
		}
		calls.Add(1)
		if version == "" {
			http.Error(w, `{"message":"down"}`, http.StatusBadGateway)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"version":"` + version + `"}`))
	}))
	t.Cleanup(srv.Close)
	u, err := url.Parse(srv.URL)
	require.NoError(t, err)
	return forgejo.NewClient(forgejo.NewHTTPClient(forgejo.HTTPOptions{BaseURL: u}), u, "tok-123456", "t")
}

func TestForgeIsDetectedOnceAndShared(t *testing.T) {
	var calls atomic.Int32
	c := forgeServer(t, "11.0.0+gitea-1.22.0", &calls)
	for _, cl := range []*forgejo.Client{c, c, c.WithMaxUpload(5)} {
		f, err := cl.Forge(context.Background())
		require.NoError(t, err)
		assert.Equal(t, forgejo.Forgejo, f.Flavour)
	}
	assert.Equal(t, int32(1), calls.Load(), "one probe per client, copies share it")
}

func TestForgeFailureIsKeptBriefly(t *testing.T) {
	var calls atomic.Int32
	c := forgeServer(t, "", &calls)
	_, err := c.Forge(context.Background())
	require.Error(t, err)
	_, err = c.Forge(context.Background())
	require.Error(t, err)
	assert.Equal(t, int32(1), calls.Load(), "the failure is the answer for a few seconds (probe_test.go: then asked again)")
	assert.NoError(t, c.Require(context.Background(), http.MethodGet, "/repos/{owner}/{repo}/actions/jobs/{job_id}"),
		"an unknown forge does not block a call")
}

func TestFieldsTableIsWellFormed(t *testing.T) {
	for _, f := range forgejo.Fields() {
		assert.NotEmpty(t, f.Feature, f.Definition)
		assert.NotEmpty(t, f.Handling, f.Definition)
		assert.True(t, f.Forgejo != "" || f.Gitea != "", f.Definition)
		if f.Handling == forgejo.OneSided {
			assert.NotEmpty(t, f.Result, "%s %s%s: a one-sided field names its result field", f.Definition, f.Forgejo, f.Gitea)
		}
	}
}
