package httpserver

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIssuerSpelling checks that the metadata names the issuer as the
// forge's discovery document spells it (a strict client compares them byte
// for byte), and only when that document names this forge.
func TestIssuerSpelling(t *testing.T) {
	tests := []struct {
		name   string
		fixed  string
		prefix string // the forge's path prefix
		doc    func(forge string) (int, string)
		want   func(forge string) string
		asks   int32 // discovery requests the forge sees for two metadata reads
	}{
		{
			name: "Forgejo keeps ROOT_URL's slash",
			doc:  func(f string) (int, string) { return 200, `{"issuer":"` + f + `/"}` },
			want: func(f string) string { return f + "/" }, asks: 1,
		},
		{
			name: "Gitea trims it",
			doc:  func(f string) (int, string) { return 200, `{"issuer":"` + f + `"}` },
			want: func(f string) string { return f }, asks: 1,
		},
		{
			name: "a forge under a path prefix", prefix: "/forge",
			doc:  func(f string) (int, string) { return 200, `{"issuer":"` + f + `/"}` },
			want: func(f string) string { return f + "/" }, asks: 1,
		},
		{
			name: "another issuer is not taken",
			doc:  func(string) (int, string) { return 200, `{"issuer":"https://elsewhere.example/"}` },
			want: func(f string) string { return f }, asks: 1,
		},
		{
			name: "no discovery document: the fallback, not asked again at once",
			doc:  func(string) (int, string) { return 404, `404 page not found` },
			want: func(f string) string { return f }, asks: 1,
		},
		{
			name: "not JSON",
			doc:  func(string) (int, string) { return 200, strings.Repeat("x", 100<<10) },
			want: func(f string) string { return f }, asks: 1,
		},
		{
			name: "the operator's spelling, verbatim, without asking", fixed: "https://forge.example/",
			doc:  func(f string) (int, string) { return 200, `{"issuer":"` + f + `"}` },
			want: func(string) string { return "https://forge.example/" }, asks: 0,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var asks atomic.Int32
			var forge string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != tt.prefix+"/.well-known/openid-configuration" {
					http.NotFound(w, r)
					return
				}
				asks.Add(1)
				status, body := tt.doc(forge)
				w.WriteHeader(status)
				_, _ = w.Write([]byte(body))
			}))
			t.Cleanup(srv.Close)
			forge = srv.URL + tt.prefix
			i := newIssuer(tt.fixed, mustURL(t, forge+"/"), srv.Client())
			assert.Equal(t, tt.want(forge), i.get(t.Context()))
			assert.Equal(t, tt.want(forge), i.get(t.Context()), "the second read")
			assert.Equal(t, tt.asks, asks.Load())
		})
	}
}

// TestIssuerRetriedAfterAFailure checks that a forge that was down is asked
// again once issuerRetry has passed, and its spelling then taken.
func TestIssuerRetriedAfterAFailure(t *testing.T) {
	var up atomic.Bool
	var forge string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !up.Load() {
			http.Error(w, "bad gateway", http.StatusBadGateway)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]string{"issuer": forge + "/"})
	}))
	t.Cleanup(srv.Close)
	forge = srv.URL
	i := newIssuer("", mustURL(t, forge), srv.Client())
	require.Equal(t, forge, i.get(t.Context()))
	up.Store(true)
	assert.Equal(t, forge, i.get(t.Context()), "within issuerRetry the fallback stays")
	i.mu.Lock()
	i.retry = time.Now().Add(-time.Second)
	i.mu.Unlock()
	assert.Equal(t, forge+"/", i.get(t.Context()))
}

// TestMetadataNamesTheForgesIssuer checks the same through the served
// metadata document.
func TestMetadataNamesTheForgesIssuer(t *testing.T) {
	fx := newFixture(t, nil)
	forge := strings.TrimSuffix(fx.forge.URL, "/")
	fx.forge.Handle("GET /.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]string{"issuer": forge + "/"})
	})
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, fx.http.URL+MetadataPath+EndpointPath, nil)
	require.NoError(t, err)
	resp, body := do(t, req)
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	var doc struct {
		AuthorizationServers []string `json:"authorization_servers"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &doc), body)
	assert.Equal(t, []string{forge + "/"}, doc.AuthorizationServers)
}
