package httpserver

import (
	"net/http"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/oauthproxy"
)

// mountOAuth serves the OAuth proxy (Options.OAuthProxy) on mux: an
// authorization server for MCP clients in front of the forge's OAuth,
// which the protected resource metadata then names instead of the forge.
// The proxy talks to the forge through the server's HTTP client and finds
// the forge's authorization endpoint through the issuer discovery.
func (s *Server) mountOAuth(mux *http.ServeMux) error {
	if s.opts.OAuthProxy == nil {
		return nil
	}
	cfg := *s.opts.OAuthProxy
	cfg.Forge = s.opts.Forge
	cfg.HTTPClient = s.opts.HTTPClient
	cfg.ForgeAuthorize = s.issuer.authorizeEndpoint
	cfg.Base = s.base
	cfg.Logger = s.log
	p, err := oauthproxy.New(cfg)
	if err != nil {
		return err
	}
	p.Mount(mux)
	s.oauth = p
	return nil
}

// authorizationServer is the issuer the protected resource metadata
// names: the proxy when it is on, else the forge.
func (s *Server) authorizationServer(r *http.Request) string {
	if s.oauth != nil {
		return s.oauth.Issuer(r)
	}
	return s.issuer.get(r.Context())
}
