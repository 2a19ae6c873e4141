package cmd

import (
	"context"
	"crypto/tls"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/httpserver"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/metrics"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/version"
)

// HTTPConfig is the configuration of the streamable HTTP transport.
type HTTPConfig struct {
	Addr           string
	PublicURL      string
	TLSCert        string
	TLSKey         string
	SharedToken    bool
	AllowedHosts   string
	AllowedOrigins string
	OAuthIssuer    string
	MaxBodyBytes   int64
	MaxInFlight    int
	// MaxInFlightPerUser bounds one user's requests at once, before their
	// bodies are read (#18, item 3).
	MaxInFlightPerUser int
	MinBodyRate        int64  // bytes a second a body must keep after its first 5 s
	MetricsAddr        string // a separate listener for /metrics; "" serves it on Addr
	TrustedProxies     string // reverse proxies whose X-Forwarded-For names the client
	OAuth              OAuthProxyConfig

	publicURL      *url.URL // parsed PublicURL, nil when unset
	trustedProxies []netip.Prefix
}

func (h *HTTPConfig) registerFlags(fs *pflag.FlagSet, env Env) {
	fs.StringVar(&h.Addr, "http-addr", envOr(env, "FORGEJO_MCP_HTTP_ADDR", "127.0.0.1:8080"), "listen address of --transport http (loopback by default; another address must be given explicitly)")
	fs.StringVar(&h.PublicURL, "public-url", env("FORGEJO_MCP_PUBLIC_URL"), "URL clients reach this server at (scheme, host, optional path prefix; the endpoint is this plus /mcp), needed behind a reverse proxy")
	fs.StringVar(&h.TLSCert, "tls-cert", env("FORGEJO_MCP_TLS_CERT"), "serve HTTPS with this PEM certificate (chain) file; needs --tls-key")
	fs.StringVar(&h.TLSKey, "tls-key", env("FORGEJO_MCP_TLS_KEY"), "PEM private key file of --tls-cert")
	fs.BoolVar(&h.SharedToken, "http-shared-token", env("FORGEJO_MCP_HTTP_SHARED_TOKEN") == "true", "serve HTTP requests without credentials with the server's own token (FORGEJO_ACCESS_TOKEN or --token-file): everyone who can reach the port acts as this user")
	fs.StringVar(&h.AllowedHosts, "http-allowed-hosts", env("FORGEJO_MCP_HTTP_ALLOWED_HOSTS"), "comma-separated host names accepted in Host and Origin besides loopback names and --public-url's host (DNS-rebinding guard); * accepts any")
	fs.StringVar(&h.AllowedOrigins, "http-allowed-origins", env("FORGEJO_MCP_HTTP_ALLOWED_ORIGINS"), "comma-separated extra origins (https://app.example) accepted in Origin, for browser-based clients")
	fs.StringVar(&h.OAuthIssuer, "oauth-issuer", env("FORGEJO_MCP_OAUTH_ISSUER"), "OAuth authorization server advertised to clients, exactly as the forge's OpenID issuer is spelled (default: the forge's own spelling from its /.well-known/openid-configuration; set it when users reach the forge at another URL than this server does)")
	fs.Int64Var(&h.MaxBodyBytes, "http-max-body-bytes", 0, "largest HTTP request body; a larger one gets 413 (default: --max-frame-bytes, which fits the largest upload in base64)")
	fs.StringVar(&h.MetricsAddr, "metrics-addr", env("FORGEJO_MCP_METRICS_ADDR"), "serve Prometheus /metrics on this host:port instead of on --http-addr (env FORGEJO_MCP_METRICS_ADDR)")
	fs.IntVar(&h.MaxInFlight, "http-max-in-flight", 64, "HTTP requests served at once; more get 503")
	fs.IntVar(&h.MaxInFlightPerUser, "http-max-in-flight-per-user", 8, "HTTP requests one user (token identity) has served at once, counted before their bodies are read; more get 429 while others are served")
	fs.Int64Var(&h.MinBodyRate, "http-min-body-rate", httpserver.DefaultMinBodyRate, "bytes a second a request body must arrive at, on average after its first 5 s; a slower one is cut off (408)")
	h.OAuth.registerFlags(fs, env)
	fs.StringVar(&h.TrustedProxies, "http-trusted-proxies", env("FORGEJO_MCP_HTTP_TRUSTED_PROXIES"), "comma-separated addresses or CIDR prefixes of reverse proxies whose X-Forwarded-For names the client's address (for the per-address limits); by default the connection's peer is the client")
}

// resolve validates the HTTP flags; it runs only with --transport http.
func (h *HTTPConfig) resolve() error {
	if _, _, err := net.SplitHostPort(h.Addr); err != nil {
		return usagef("--http-addr %q is not host:port (e.g. 127.0.0.1:8080): %v", h.Addr, err)
	}
	if h.MetricsAddr != "" {
		if _, _, err := net.SplitHostPort(h.MetricsAddr); err != nil {
			return usagef("--metrics-addr %q is not host:port (e.g. 127.0.0.1:9090): %v", h.MetricsAddr, err)
		}
	}
	if (h.TLSCert == "") != (h.TLSKey == "") {
		return usagef("--tls-cert and --tls-key go together: give both or neither")
	}
	if h.TLSCert != "" {
		// Loaded here as well as at start, so a bad pair is a usage error
		// before anything listens.
		if _, err := tls.LoadX509KeyPair(h.TLSCert, h.TLSKey); err != nil {
			return usagef("cannot use --tls-cert/--tls-key: %v", err)
		}
	}
	if h.PublicURL != "" {
		u, err := url.Parse(strings.TrimSpace(h.PublicURL))
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
			return usagef("--public-url %q must be an absolute http(s) URL without user info, query or fragment, e.g. https://mcp.example.org", h.PublicURL)
		}
		u.Path = strings.TrimRight(u.Path, "/")
		u.RawPath = ""
		if strings.HasSuffix(u.Path, httpserver.EndpointPath) {
			return usagef("--public-url %q should be the server's root: the MCP endpoint is this URL plus %s", h.PublicURL, httpserver.EndpointPath)
		}
		h.publicURL = u
	}
	if h.OAuthIssuer != "" {
		u, err := url.Parse(h.OAuthIssuer)
		if err != nil || u.Scheme == "" || u.Host == "" {
			return usagef("--oauth-issuer %q must be an absolute URL, e.g. https://codeberg.org", h.OAuthIssuer)
		}
	}
	trusted, err := httpserver.ParseTrustedProxies(tool.SplitList(h.TrustedProxies))
	if err != nil {
		return usagef("--http-trusted-proxies %q: %v (give addresses or CIDR prefixes, e.g. 127.0.0.1,10.0.0.0/8)", h.TrustedProxies, err)
	}
	h.trustedProxies = trusted
	if err := h.OAuth.resolve(); err != nil {
		return err
	}
	if h.MaxBodyBytes < 0 || h.MaxInFlight <= 0 || h.MaxInFlightPerUser <= 0 || h.MinBodyRate <= 0 {
		return usagef("--http-max-body-bytes must not be negative, and --http-max-in-flight, --http-max-in-flight-per-user and --http-min-body-rate must be positive")
	}
	return nil
}

// maxBody is the body limit: explicit, or the bound of one inbound
// message that stdio uses too (--max-frame-bytes, sized to carry the
// largest upload in base64).
func (c *Config) maxBody() int64 {
	if c.HTTP.MaxBodyBytes > 0 {
		return c.HTTP.MaxBodyBytes
	}
	return int64(c.MaxFrameBytes)
}

// serveHTTP serves defs over streamable HTTP until ctx ends; it returns the
// process exit code.
func serveHTTP(ctx context.Context, cfg *Config, defs []tool.Def, logger *slog.Logger) int {
	h := &cfg.HTTP
	if h.SharedToken && cfg.Token == "" {
		logger.Error("--http-shared-token needs the server's own token: set FORGEJO_ACCESS_TOKEN or --token-file")
		return ExitUsage
	}
	opts := httpOptions(cfg, defs, logger)
	srv, err := httpserver.New(opts)
	if err != nil {
		logger.Error("building the HTTP server", "err", err)
		return ExitUsage
	}
	ln, err := net.Listen("tcp", h.Addr)
	if err != nil {
		logger.Error("cannot listen", "addr", h.Addr, "err", err)
		return ExitToolError
	}
	warnExposure(logger, cfg, ln.Addr())
	if h.MetricsAddr != "" {
		mln, err := net.Listen("tcp", h.MetricsAddr)
		if err != nil {
			ln.Close()
			logger.Error("cannot listen for metrics", "addr", h.MetricsAddr, "err", err)
			return ExitToolError
		}
		logger.Info("serving Prometheus metrics", "endpoint", "http://"+mln.Addr().String()+httpserver.MetricsPath)
		go serveMetrics(ctx, mln, opts.Metrics, logger)
	}
	scheme := "http"
	if h.TLSCert != "" {
		scheme = "https"
	}
	logger.Info("serving MCP over streamable HTTP", "addr", ln.Addr().String(),
		"endpoint", scheme+"://"+ln.Addr().String()+httpserver.EndpointPath,
		"forge", cfg.URL.String(), "tools", len(defs), "version", version.Version)
	err = srv.Serve(ctx, ln, httpserver.ServeConfig{
		TLSCertFile: h.TLSCert, TLSKeyFile: h.TLSKey,
		CallTimeout: cfg.CallTimeout, ShutdownTimeout: cfg.CallTimeout + 5*time.Second,
	})
	if err != nil {
		logger.Error("HTTP server stopped", "err", err)
		return ExitToolError
	}
	logger.Info("HTTP server stopped")
	return ExitOK
}

func httpOptions(cfg *Config, defs []tool.Def, logger *slog.Logger) httpserver.Options {
	h := &cfg.HTTP
	m := metrics.New()
	cfg.observer = m
	runner := cfg.runner(logger)
	runner.Client = nil // each request brings its own identity
	hc := forgejo.NewHTTPClient(forgejo.HTTPOptions{BaseURL: cfg.URL, RequestTimeout: cfg.RequestTimeout, TLS: cfg.TLS})
	o := httpserver.Options{
		Forge:              cfg.URL,
		HTTPClient:         forgejo.Observed(hc, m.ForgeRequest),
		Metrics:            m,
		MetricsElsewhere:   h.MetricsAddr != "",
		UserAgent:          cfg.UserAgent,
		Defs:               defs,
		Runner:             runner,
		MaxUploadBytes:     cfg.MaxUploadBytes,
		PublicURL:          h.publicURL,
		Issuer:             h.OAuthIssuer,
		AllowedHosts:       tool.SplitList(h.AllowedHosts),
		AllowedOrigins:     tool.SplitList(h.AllowedOrigins),
		TrustedProxies:     h.trustedProxies,
		MaxBodyBytes:       cfg.maxBody(),
		MaxInFlight:        h.MaxInFlight,
		MaxInFlightPerUser: h.MaxInFlightPerUser,
		MinBodyRate:        h.MinBodyRate,
		Logger:             logger,
		// --max-inflight-bytes bounds both transports.
		MaxInflightBytes: cfg.MaxInflightBytes,
	}
	if h.SharedToken {
		o.SharedToken = cfg.Token
	}
	o.OAuthProxy = h.OAuth.config
	if len(tool.SplitList(cfg.Toolsets)) == 0 && len(tool.SplitList(cfg.Tools)) == 0 {
		// A request without X-MCP-Toolsets gets the default selection;
		// the header reaches the rest ("all", "+wiki").
		o.DefaultToolsets = []string{"default"}
	}
	if host, _, err := net.SplitHostPort(h.Addr); err == nil && host != "" {
		if ip := net.ParseIP(host); ip == nil || !ip.IsUnspecified() {
			o.AllowedHosts = append(o.AllowedHosts, host) // the address it was asked to listen on
		}
	}
	return o
}

// serveMetrics serves m at /metrics on ln until ctx ends.
func serveMetrics(ctx context.Context, ln net.Listener, m *metrics.Metrics, logger *slog.Logger) {
	mux := http.NewServeMux()
	mux.Handle(httpserver.MetricsPath, m.Handler())
	mux.HandleFunc(httpserver.HealthPath, func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok\n")) })
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, WriteTimeout: 30 * time.Second}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		logger.Error("metrics listener stopped", "err", err)
	}
}

// warnExposure says what a non-default exposure means, once, at start.
func warnExposure(logger *slog.Logger, cfg *Config, addr net.Addr) {
	h := &cfg.HTTP
	loopback := false
	if ta, ok := addr.(*net.TCPAddr); ok {
		loopback = ta.IP.IsLoopback()
	}
	if !loopback && h.TLSCert == "" {
		logger.Warn("listening beyond loopback without TLS: tokens cross the network in clear text unless a TLS-terminating proxy is in front", "addr", addr.String())
	}
	if h.SharedToken {
		logger.Warn("--http-shared-token is on: every request without credentials acts as the server token's user; everyone who can reach the port acts as this user", "addr", addr.String())
	} else if cfg.Token != "" {
		logger.Info("FORGEJO_ACCESS_TOKEN/--token-file is not used over HTTP (each request brings its own token) unless --http-shared-token is set")
	}
	if h.OAuth.On && h.publicURL != nil && h.publicURL.Scheme == "http" && !forgejo.IsLoopbackHost(h.publicURL.Hostname()) {
		logger.Warn("--oauth-proxy over plain http: authorization codes and tokens cross the network in clear text, and browsers refuse the __Host- binding cookie; serve it over https (--tls-cert, or a TLS proxy and an https --public-url)")
	}
	if h.OAuth.On && h.publicURL == nil {
		logger.Warn("--oauth-proxy without --public-url: its endpoints and the callback registered at the forge are named after each request's Host; set --public-url to the URL users reach this server at")
	}
	if !loopback && h.AllowedHosts == "" && h.publicURL == nil {
		logger.Warn("no --public-url or --http-allowed-hosts: requests naming this machine by anything but a loopback name or the listen address get 403 (DNS-rebinding guard)")
	}
}
