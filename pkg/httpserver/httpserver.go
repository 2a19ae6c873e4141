// Package httpserver serves the tools over MCP streamable HTTP as a
// stateless, multi-tenant endpoint in front of one forge.
//
// Stateless: every request carries everything needed to serve it (the
// caller's token, its tool selection headers), and no session lives in the
// process, so replicas behind any load balancer need no stickiness.
// Multi-tenant: each request acts as the user whose forge token it carries;
// a client without one is pointed (RFC 9728) at the forge as the OAuth
// authorization server, where the user signs in.
package httpserver

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/mcpserver"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/metrics"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/oauthproxy"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/redact"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/rpcguard"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Options configure a Server. Forge, HTTPClient and Defs are required; every
// zero bound takes the default named next to it.
type Options struct {
	Forge      *url.URL     // the forge's base URL, as the server reaches it
	HTTPClient *http.Client // shared by all identities (forgejo.NewHTTPClient)
	UserAgent  string
	Defs       []tool.Def // the tools the server offers; headers only narrow them
	// DefaultToolsets is what a request without X-MCP-Toolsets sees
	// (e.g. ["default"]); nil shows all of Defs.
	DefaultToolsets []string
	// Runner is the call pipeline's template (timeout, concurrency bound,
	// argument and result bounds). Its Client and Logger are replaced: the
	// identity comes from each request and logs carry the request id. Its
	// limits (tool.Limits) apply per server and per user: each request
	// names its user to them (tool.WithCaller).
	Runner *tool.Runner
	// MaxUploadBytes bounds uploads per identity (forgejo.Client).
	MaxUploadBytes int64
	// SharedToken, when set, serves requests without credentials as the
	// owner of this token: everyone who can reach the port acts as them.
	SharedToken string
	// PublicURL is the server's root as clients reach it (scheme, host,
	// optional path prefix), needed behind a reverse proxy; nil derives it
	// from each request.
	PublicURL *url.URL
	// Issuer is the OAuth authorization server named in the protected
	// resource metadata, exactly as given; it must equal the forge's OIDC
	// issuer. "" asks the forge's discovery document for its spelling
	// (issuer.go).
	Issuer string
	// AllowedHosts are host names (no port) accepted in Host and Origin
	// besides loopback names and PublicURL's host; "*" turns the
	// DNS-rebinding guard off.
	AllowedHosts []string
	// AllowedOrigins are extra origins (scheme://host[:port]) accepted in
	// Origin, for browser-based clients served from elsewhere.
	AllowedOrigins []string
	MaxBodyBytes   int64 // default 16 MiB
	MaxInFlight    int   // default 64
	// MaxInFlightPerUser bounds one user's requests being served at once
	// (Identity.Caller), counted before their bodies are read; a user
	// past it gets 429 while others are served. Default 8.
	MaxInFlightPerUser int
	// A body must start within BodyGrace and then arrive at MinBodyRate
	// bytes a second on average, or the request is cut off (408).
	// Defaults DefaultBodyGrace and DefaultMinBodyRate.
	BodyGrace   time.Duration
	MinBodyRate int64
	// MaxInflightBytes bounds what the messages being decoded and handled
	// at once cost (rpcguard.Cost: their bytes, and more per JSON value),
	// across all users; a request past it waits up to InflightWait, then
	// gets 503. Default rpcguard.DefaultBudgetBytes and DefaultBudgetWait.
	MaxInflightBytes int64
	InflightWait     time.Duration
	// Token cache: verified tokens are remembered for TokenTTL, rejected
	// ones for InvalidTokenTTL, at most TokenCacheSize of them.
	TokenCacheSize  int           // default 10000
	TokenTTL        time.Duration // default 5 min
	InvalidTokenTTL time.Duration // default 30 s
	// TrustedProxies are the reverse proxies whose X-Forwarded-For names
	// the client's address (clientAddr); without them the address is the
	// connection's peer.
	TrustedProxies []netip.Prefix
	// Token checks the forge answers with a rejection, per client address:
	// RejectBurst at once, then one per RejectInterval; past that 429.
	RejectBurst    int           // default 10
	RejectInterval time.Duration // default 6 s
	// Verify checks a token with the forge; default VerifyWithForge.
	Verify Verifier
	// OAuthProxy, when set, serves an authorization server for MCP
	// clients in front of the forge's OAuth (pkg/oauthproxy): its Forge,
	// HTTPClient, ForgeAuthorize, Base and Logger are the server's.
	OAuthProxy *oauthproxy.Config
	// Metrics, when set, counts identity cache lookups and is served at
	// MetricsPath, unless MetricsElsewhere says another listener serves
	// it. The Runner's observer and the forge transport are the caller's
	// to hook up (tool.Limits.Observer, forgejo.Observed).
	Metrics          *metrics.Metrics
	MetricsElsewhere bool
	Logger           *slog.Logger // default discards
}

// Server is the HTTP handler tree: /mcp, /healthz and the OAuth metadata.
type Server struct {
	opts       Options
	log        *slog.Logger
	identities *identityCache
	selector   *selector
	mcp        *server.StreamableHTTPServer
	hosts      map[string]bool
	origins    map[string]bool
	anyHost    bool
	inflight   chan struct{}
	users      *userLimits
	budget     *rpcguard.Budget
	guard      rpcguard.Limits
	handler    http.Handler
	issuer     *issuer
	oauth      *oauthproxy.Proxy // nil unless Options.OAuthProxy
}

// New builds a Server; it does no I/O.
func New(o Options) (*Server, error) {
	if o.Forge == nil || o.HTTPClient == nil || o.Runner == nil {
		return nil, errors.New("httpserver: Forge, HTTPClient and Runner are required")
	}
	setDefaults(&o)
	s := &Server{opts: o, selector: newSelector(o.Defs, o.DefaultToolsets), hosts: map[string]bool{}, origins: map[string]bool{}}
	h := redactingHandler(o.Logger.Handler(), o.SharedToken)
	if o.OAuthProxy != nil {
		h = redact.NewHandler(h, o.OAuthProxy.ClientSecret) // every line, a request's or not
	}
	s.log = slog.New(contextHandler{h})
	for _, h := range o.AllowedHosts {
		if h == "*" {
			s.anyHost = true
		}
		if host, _, err := net.SplitHostPort(h); err == nil {
			h = host // a port given by mistake: the check is by name
		}
		s.hosts[strings.ToLower(strings.Trim(h, "[]"))] = true
	}
	if o.PublicURL != nil {
		s.hosts[strings.ToLower(o.PublicURL.Hostname())] = true
	}
	for _, origin := range o.AllowedOrigins {
		s.origins[strings.ToLower(strings.TrimRight(origin, "/"))] = true
	}
	s.issuer = newIssuer(o.Issuer, o.Forge, o.HTTPClient)
	s.inflight = make(chan struct{}, o.MaxInFlight)
	s.budget = rpcguard.NewBudget(o.MaxInflightBytes)
	// A user may hold half the budget, or at least what one body of the
	// largest size reserves, so others always have the rest.
	s.users = newUserLimits(o.MaxInFlightPerUser, min(s.budget.Size(), max(s.budget.Size()/2, bodyReservation(o.MaxBodyBytes))))
	s.guard = rpcguard.Limits{ArgLimit: rpcguard.ToolLimits(o.Defs, o.Runner)}
	s.identities = newIdentityCache(func(token string, onUnauthorized func()) *forgejo.Client {
		hc := watchUnauthorized(o.HTTPClient, onUnauthorized)
		return forgejo.NewClient(hc, o.Forge, token, o.UserAgent).WithMaxUpload(o.MaxUploadBytes)
	}, o.Verify, o.TokenCacheSize, o.TokenTTL, o.InvalidTokenTTL)
	s.identities.limiter = newRejectLimiter(o.RejectBurst, o.RejectInterval, o.TokenCacheSize)
	if o.Metrics != nil {
		s.identities.lookup = o.Metrics.IdentityLookup
	}

	runner := *o.Runner
	runner.Logger = s.log
	runner.Client = func(ctx context.Context) (*forgejo.Client, error) {
		if id, ok := ctx.Value(identityKey{}).(*Identity); ok {
			return id.Client, nil
		}
		return nil, errors.New("no forge identity for this request; this is a bug in forgejo-mcp, please report it")
	}
	bound := boundHandlers(o.Defs)
	// The meta-tools reach what the server offers, narrowed per request
	// by its own selection headers (serveMCP).
	runner.Callable = func() []tool.Def { return bound }
	ms := mcpserver.New(bound, &runner)
	s.mcp = server.NewStreamableHTTPServer(ms,
		// No session ID is minted or checked: any replica serves any
		// request, and nothing accumulates per client.
		server.WithStateLess(true),
		// No server-initiated messages exist here (the tool list never
		// changes), so the long-lived GET stream has nothing to carry:
		// answering 405 is what the transport allows, and no connection
		// stays open per idle client.
		server.WithDisableStreaming(true),
		// The host check below replaces mcp-go's, which only knows
		// loopback names and so refuses every request a reverse proxy on
		// the same machine forwards with the public Host.
		server.WithDisableLocalhostProtection(true),
		server.WithStreamableHTTPLogger(s.log),
	)

	guarded := http.NewServeMux()
	guarded.Handle(EndpointPath, s.limitInFlight(s.withDeadline(http.HandlerFunc(s.serveMCP))))
	guarded.HandleFunc(MetadataPath, s.serveMetadata)
	guarded.HandleFunc(MetadataPath+"/", s.serveMetadata)
	if err := s.mountOAuth(guarded); err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	// Probes address the server by whatever name or address the
	// orchestrator uses, and "ok" reveals nothing: no host check.
	mux.HandleFunc(HealthPath, serveHealth)
	if o.Metrics != nil && !o.MetricsElsewhere {
		// Counts by tool name and outcome only, like /healthz reachable
		// by whatever name the scraper uses. A proxy in front should not
		// pass it on (docs/deploy/nginx.conf denies it).
		mux.Handle(MetricsPath, o.Metrics.Handler())
	}
	mux.Handle("/", s.checkHost(guarded))
	s.handler = s.observe(mux)
	return s, nil
}

func setDefaults(o *Options) {
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = 16 << 20
	}
	if o.MaxInFlight <= 0 {
		o.MaxInFlight = 64
	}
	if o.MaxInFlightPerUser <= 0 {
		o.MaxInFlightPerUser = 8
	}
	if o.BodyGrace <= 0 {
		o.BodyGrace = DefaultBodyGrace
	}
	if o.MinBodyRate <= 0 {
		o.MinBodyRate = DefaultMinBodyRate
	}
	if o.MaxInflightBytes <= 0 {
		o.MaxInflightBytes = rpcguard.DefaultBudgetBytes
	}
	if o.InflightWait <= 0 {
		o.InflightWait = rpcguard.DefaultBudgetWait
	}
	if o.TokenCacheSize <= 0 {
		o.TokenCacheSize = 10000
	}
	if o.TokenTTL <= 0 {
		o.TokenTTL = 5 * time.Minute
	}
	if o.InvalidTokenTTL <= 0 {
		o.InvalidTokenTTL = 30 * time.Second
	}
	if o.RejectBurst <= 0 {
		o.RejectBurst = 10
	}
	if o.RejectInterval <= 0 {
		o.RejectInterval = 6 * time.Second
	}
	if o.MaxUploadBytes <= 0 {
		o.MaxUploadBytes = forgejo.DefaultMaxUploadBytes
	}
	if o.Verify == nil {
		o.Verify = VerifyWithForge
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

type identityKey struct{}

// addrKey carries the client's address (clientAddr) to the token's
// second check (tokenRejected).
type addrKey struct{}

// serveMCP authenticates the request, applies its tool selection and hands
// it to mcp-go.
func (s *Server) serveMCP(w http.ResponseWriter, r *http.Request) {
	if r.ContentLength > s.opts.MaxBodyBytes {
		s.tooLarge(w) // before any token check costs a round trip
		return
	}
	addr := clientAddr(r, s.opts.TrustedProxies)
	id, ok := s.authenticate(w, r, addr)
	if !ok {
		return
	}
	allow, callable, err := s.selector.allowed(r.Header)
	if err != nil {
		http.Error(w, "400 Bad Request: "+err.Error(), http.StatusBadRequest)
		return
	}
	narrowed, err := withTrustHeaders(r.Context(), r.Header)
	if err != nil {
		http.Error(w, "400 Bad Request: "+err.Error(), http.StatusBadRequest)
		return
	}
	inline, err := inlineCap(r.Header)
	if err != nil {
		http.Error(w, "400 Bad Request: "+err.Error(), http.StatusBadRequest)
		return
	}
	r = r.WithContext(narrowed)
	caller := id.Caller(addr)
	if !s.users.enter(caller) {
		s.log.WarnContext(r.Context(), "refused a request past the user's requests in flight", "limit", s.opts.MaxInFlightPerUser)
		tooManyRequests(w, s.users.requestsRefusal())
		return
	}
	defer s.users.leave(caller)
	// From here the forge's answers to the token are noted (rejection.go).
	ctx, _ := withVerdict(r.Context())
	ctx = context.WithValue(ctx, addrKey{}, addr)
	ctx = tool.WithCaller(context.WithValue(ctx, identityKey{}, id), caller)
	ctx = tool.WithReadOnly(tool.WithAllowed(ctx, allow), s.selector.readOnly(r.Header))
	r = r.WithContext(tool.WithCallable(tool.WithInlineCap(ctx, inline), callable))
	if r.Method != http.MethodPost {
		s.mcp.ServeHTTP(w, r)
		return
	}
	s.serveMessage(w, r, caller)
}

func serveHealth(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "405 Method Not Allowed", http.StatusMethodNotAllowed)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write([]byte("ok\n"))
}

// ServeConfig is how Serve listens.
type ServeConfig struct {
	// TLSCertFile and TLSKeyFile, both set, serve HTTPS.
	TLSCertFile, TLSKeyFile string
	// ShutdownTimeout bounds the wait for in-flight requests once ctx ends.
	ShutdownTimeout time.Duration
	// CallTimeout is the tool call deadline, used to size the write timeout.
	CallTimeout time.Duration
}

// Serve serves s on ln until ctx ends, then shuts down gracefully: no new
// connections, in-flight requests get up to ShutdownTimeout to finish.
func (s *Server) Serve(ctx context.Context, ln net.Listener, c ServeConfig) error {
	const readTimeout = 2 * time.Minute // a 16 MiB body over a slow link
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       readTimeout,
		// Responses end with the tool call: nothing streams for long.
		WriteTimeout:   readTimeout + c.CallTimeout + 30*time.Second,
		IdleTimeout:    2 * time.Minute,
		MaxHeaderBytes: 64 << 10,
		ErrorLog:       slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
		BaseContext:    func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	if c.TLSCertFile != "" {
		cert, err := tls.LoadX509KeyPair(c.TLSCertFile, c.TLSKeyFile)
		if err != nil {
			return fmt.Errorf("loading TLS certificate: %w", err)
		}
		srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	errc := make(chan error, 1)
	go func() {
		if srv.TLSConfig != nil {
			errc <- srv.ServeTLS(ln, "", "")
			return
		}
		errc <- srv.Serve(ln)
	}()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	timeout := c.ShutdownTimeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	sctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close()
		return fmt.Errorf("graceful shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
