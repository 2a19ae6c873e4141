package httpserver

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/mark3labs/mcp-go/server"
)

// Paths served besides the MCP endpoint.
const (
	EndpointPath = "/mcp"
	HealthPath   = "/healthz"
	MetricsPath  = "/metrics" // Prometheus text format, when Options.Metrics is set
	// MetadataPath is the RFC 9728 well-known prefix. The document for the
	// MCP endpoint lives at MetadataPath + [public path prefix] + "/mcp";
	// the bare prefix describes the whole origin.
	MetadataPath = server.WellKnownProtectedResourcePath
)

// base returns the public root of this server as seen by r's client:
// --public-url when set (behind a reverse proxy the request's own Host and
// scheme are the proxy's business), otherwise the request's scheme and
// Host, which the host check has already vetted.
func (s *Server) base(r *http.Request) *url.URL {
	if s.opts.PublicURL != nil {
		u := *s.opts.PublicURL
		return &u
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return &url.URL{Scheme: scheme, Host: r.Host}
}

// resourceURL is the MCP endpoint's public URL, the RFC 9728 resource
// identifier a client asks the forge for a token for.
func (s *Server) resourceURL(r *http.Request) string {
	b := s.base(r)
	return b.Scheme + "://" + b.Host + b.Path + EndpointPath
}

// metadataURL is where the protected resource metadata of the MCP endpoint
// lives: the well-known segment goes between the origin and the path
// (RFC 9728 section 3.1), so a server under a path prefix still answers at
// the origin's /.well-known.
func (s *Server) metadataURL(r *http.Request) string {
	b := s.base(r)
	return b.Scheme + "://" + b.Host + MetadataPath + b.Path + EndpointPath
}

// serveMetadata answers the protected resource metadata: which
// authorization server (the forge) issues tokens for this endpoint. Paths
// under the well-known prefix other than the endpoint's (or the origin's)
// are not ours: 404.
func (s *Server) serveMetadata(w http.ResponseWriter, r *http.Request) {
	b := s.base(r)
	origin := b.Scheme + "://" + b.Host
	var resource string
	switch strings.TrimPrefix(r.URL.Path, MetadataPath) {
	case "", "/":
		resource = origin
	case EndpointPath, b.Path + EndpointPath:
		resource = origin + b.Path + EndpointPath
	default:
		http.NotFound(w, r)
		return
	}
	server.NewProtectedResourceMetadataHandler(server.ProtectedResourceMetadataConfig{
		Resource:               resource,
		AuthorizationServers:   []string{s.authorizationServer(r)},
		BearerMethodsSupported: []string{"header"},
		ResourceName:           "forgejo-mcp for " + s.opts.Forge.Host,
	}).ServeHTTP(w, r)
}

// unauthorized answers 401 with the RFC 9728 pointer an MCP client follows
// to sign the user in at the forge. reason, when set, becomes an RFC 6750
// invalid_token error.
func (s *Server) unauthorized(w http.ResponseWriter, r *http.Request, reason string) {
	challenge := fmt.Sprintf("Bearer resource_metadata=%q", s.metadataURL(r))
	if reason != "" {
		challenge += fmt.Sprintf(", error=\"invalid_token\", error_description=%q", reason)
	}
	w.Header().Set("WWW-Authenticate", challenge)
	msg := "401 Unauthorized: send the forge token of the user to act as in Authorization: Bearer <token>, or sign in through OAuth (see " + s.metadataURL(r) + ")"
	if reason != "" {
		msg = "401 Unauthorized: " + reason
	}
	http.Error(w, msg, http.StatusUnauthorized)
}
