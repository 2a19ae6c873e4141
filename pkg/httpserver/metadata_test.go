package httpserver

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestProtectedResourceMetadata(t *testing.T) {
	tests := []struct {
		name          string
		publicURL     string
		issuer        string
		path          string
		wantStatus    int
		wantResource  string // "" means the test server's own URL + /mcp
		wantIssuer    string // "" means the fake forge's URL
		wantChallenge string // resource_metadata of a 401; "" means the test server's
	}{
		{name: "endpoint document", path: MetadataPath + EndpointPath, wantStatus: http.StatusOK},
		{name: "origin document", path: MetadataPath, wantStatus: http.StatusOK, wantResource: "origin"},
		{name: "other resource", path: MetadataPath + "/elsewhere", wantStatus: http.StatusNotFound},
		{
			name: "behind a proxy with a prefix", publicURL: "https://mcp.example/forge", path: MetadataPath + "/forge/mcp",
			wantStatus: http.StatusOK, wantResource: "https://mcp.example/forge/mcp",
			wantChallenge: "https://mcp.example/.well-known/oauth-protected-resource/forge/mcp",
		},
		{
			name: "prefix stripped by the proxy", publicURL: "https://mcp.example/forge", path: MetadataPath + "/mcp",
			wantStatus: http.StatusOK, wantResource: "https://mcp.example/forge/mcp",
		},
		{
			name: "origin document behind a proxy", publicURL: "https://mcp.example/forge", path: MetadataPath,
			wantStatus: http.StatusOK, wantResource: "https://mcp.example",
		},
		{
			name: "issuer override", issuer: "https://forge.example", path: MetadataPath + EndpointPath,
			wantStatus: http.StatusOK, wantIssuer: "https://forge.example",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := newFixture(t, func(o *Options) {
				if tt.publicURL != "" {
					o.PublicURL = mustURL(t, tt.publicURL)
				}
				o.Issuer = tt.issuer
			})
			req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, fx.http.URL+tt.path, nil)
			require.NoError(t, err)
			resp, body := do(t, req)
			require.Equal(t, tt.wantStatus, resp.StatusCode, body)
			if tt.wantStatus == http.StatusOK {
				var doc struct {
					Resource             string   `json:"resource"`
					AuthorizationServers []string `json:"authorization_servers"`
					BearerMethods        []string `json:"bearer_methods_supported"`
				}
				require.NoError(t, json.Unmarshal([]byte(body), &doc), body)
				want := tt.wantResource
				switch want {
				case "":
					want = fx.http.URL + EndpointPath
				case "origin":
					want = fx.http.URL
				}
				assert.Equal(t, want, doc.Resource)
				issuer := tt.wantIssuer
				if issuer == "" {
					issuer = strings.TrimSuffix(fx.forge.URL, "/")
				}
				assert.Equal(t, []string{issuer}, doc.AuthorizationServers)
				assert.Equal(t, []string{"header"}, doc.BearerMethods)
				assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
			}
			if tt.wantChallenge != "" {
				resp, _ := fx.post(t, rpc{Method: "ping"})
				assert.Equal(t, `Bearer resource_metadata="`+tt.wantChallenge+`"`, resp.Header.Get("WWW-Authenticate"))
			}
		})
	}
}
