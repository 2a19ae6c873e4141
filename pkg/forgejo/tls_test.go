package forgejo_test

import (
	"context"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

func TestTLSConfig(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"login":"me"}`))
	}))
	t.Cleanup(srv.Close)
	base, err := url.Parse(srv.URL)
	require.NoError(t, err)
	dir := t.TempDir()
	caFile := filepath.Join(dir, "ca.pem")
	require.NoError(t, os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600))
	garbage := filepath.Join(dir, "garbage.pem")
	require.NoError(t, os.WriteFile(garbage, []byte("not a certificate"), 0o600))
	defaultTLS := http.DefaultTransport.(*http.Transport).TLSClientConfig

	tests := []struct {
		name     string
		caFile   string
		insecure bool
		cfgErr   string
		callErr  string
	}{
		{name: "system roots refuse a private CA", callErr: "certificate"},
		{name: "ca-file trusts it", caFile: caFile},
		{name: "insecure skips verification", insecure: true},
		{name: "both are refused", caFile: caFile, insecure: true, cfgErr: "exclude each other"},
		{name: "missing file", caFile: filepath.Join(dir, "missing.pem"), cfgErr: "cannot read --ca-file"},
		{name: "no certificate in file", caFile: garbage, cfgErr: "holds no PEM certificate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := forgejo.TLSConfig(tt.caFile, tt.insecure)
			if tt.cfgErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.cfgErr)
				return
			}
			require.NoError(t, err)
			hc := forgejo.NewHTTPClient(forgejo.HTTPOptions{BaseURL: base, TLS: cfg})
			c := forgejo.NewClient(hc, base, "tok-123456", "ua")
			_, _, err = c.SDK(context.Background()).GetMyUserInfo()
			if tt.callErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.callErr)
			} else {
				require.NoError(t, err)
			}
			assert.Same(t, defaultTLS, http.DefaultTransport.(*http.Transport).TLSClientConfig, "http.DefaultTransport untouched")
		})
	}
}
