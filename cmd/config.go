package cmd

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/rpcguard"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/stdio"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/trust"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/version"
)

// Config is everything flags and environment decide, in one value.
type Config struct {
	RawURL    string
	Profile   string   // a stored forge (profile.go), used when no URL is given
	URL       *url.URL // nil when no forge is configured
	TokenFile string
	Token     string // never printed or logged
	UserAgent string
	LogLevel  string
	Transport string
	Toolsets  string
	// DynamicToolsets (stdio) starts with the selected toolsets and adds
	// list_toolsets and enable_toolset.
	DynamicToolsets bool
	Tools           string
	ExcludeTools    string
	ReadOnly        bool
	// Repos limits every call to these repositories (--repos); Scope is
	// it parsed. Lockdown withholds text by people without write access
	// to a public repository (--lockdown). See pkg/trust.
	Repos          string
	Scope          trust.Scope
	Lockdown       bool
	CallTimeout    time.Duration
	RequestTimeout time.Duration
	MaxConcurrent  int
	// MaxConcurrentPerUser bounds one identity's calls (#13): over HTTP
	// the token's user; on stdio the one identity there is.
	MaxConcurrentPerUser int
	MaxUploadBytes       int64
	// Bounds of the hardening issue (#4); see docs/hardening.md.
	MaxFrameBytes  int   // one inbound stdio message; 0 until resolved
	MaxArgsBytes   int64 // arguments of a tool without LargeArgs
	MaxResultBytes int64 // content of one result
	// MaxInlineBytes is the inline cap (tool.InlineCap): the most bytes
	// of a file a download returns in one result; parsed from
	// rawMaxInline ("640KiB") by resolveBounds.
	MaxInlineBytes     int64
	rawMaxInline       string
	MaxOutstanding     int   // stdio requests handled at once
	MaxInflightBytes   int64 // cost of the requests decoded and handled at once (#8)
	CAFile             string
	InsecureSkipVerify bool
	TLS                *tls.Config // from CAFile/InsecureSkipVerify; nil for Go's defaults
	ShowVersion        bool
	HTTP               HTTPConfig

	argvToken    string        // set only if someone passes --token, to refuse it
	profileToken string        // the token of the profile applyProfile chose
	notes        []string      // warnings for the log once it exists (a profile not used)
	observer     tool.Observer // metrics of the HTTP transport; nil on stdio
}

// Env is how the process reads its environment; tests pass their own.
type Env func(string) string

// registerFlags adds the server flags to fs, with defaults from env.
func (c *Config) registerFlags(fs *pflag.FlagSet, env Env) {
	fs.StringVar(&c.RawURL, "url", env("FORGEJO_URL"), "forge base URL, e.g. https://codeberg.org (env FORGEJO_URL)")
	fs.StringVar(&c.Profile, "profile", env("FORGEJO_MCP_PROFILE"), "use this stored forge and token (forgejo-mcp login); default: the default profile, when neither --url nor FORGEJO_URL is set")
	fs.StringVar(&c.TokenFile, "token-file", env("FORGEJO_TOKEN_FILE"), "read the access token from this file (env FORGEJO_TOKEN_FILE; default: env FORGEJO_ACCESS_TOKEN)")
	fs.StringVar(&c.argvToken, "token", "", "refused: a token on the command line leaks into process lists and shell history")
	_ = fs.MarkHidden("token")
	fs.StringVar(&c.UserAgent, "user-agent", envOr(env, "FORGEJO_USER_AGENT", version.UserAgent()), "User-Agent sent to the forge (env FORGEJO_USER_AGENT)")
	fs.StringVar(&c.LogLevel, "log-level", envOr(env, "FORGEJO_MCP_LOG_LEVEL", "info"), "log level on stderr: debug, info, warn or error")
	fs.StringVar(&c.Transport, "transport", envOr(env, "FORGEJO_MCP_TRANSPORT", "stdio"), "MCP transport: stdio or http")
	fs.StringVar(&c.Toolsets, "toolsets", env("FORGEJO_MCP_TOOLSETS"), "comma-separated toolsets to offer: all, default (when not given; --cli reaches all), NAME, +NAME to add to the default, -NAME to leave out (listed below)")
	fs.BoolVar(&c.DynamicToolsets, "dynamic-toolsets", env("FORGEJO_MCP_DYNAMIC_TOOLSETS") == "true", "stdio: start with the selected toolsets and offer tools that list the others and enable one")
	fs.StringVar(&c.Tools, "tools", env("FORGEJO_MCP_TOOLS"), "comma-separated allow-list of tool names")
	fs.StringVar(&c.ExcludeTools, "exclude-tools", env("FORGEJO_MCP_EXCLUDE_TOOLS"), "comma-separated tool names to leave out")
	fs.BoolVar(&c.ReadOnly, "read-only", env("FORGEJO_MCP_READ_ONLY") == "true", "offer only read-only tools")
	fs.StringVar(&c.Repos, "repos", env("FORGEJO_MCP_REPOS"), "comma-separated OWNER/REPO and OWNER/* the tools may reach; nothing else is sent to the forge, and results from other repositories are dropped (env FORGEJO_MCP_REPOS; default: every repository the token reaches)")
	fs.BoolVar(&c.Lockdown, "lockdown", env("FORGEJO_MCP_LOCKDOWN") == "true", "withhold the text of people without write access to a public repository (issues, comments, reviews, commit messages…), keeping who wrote it and why it is withheld (env FORGEJO_MCP_LOCKDOWN)")
	fs.DurationVar(&c.CallTimeout, "call-timeout", 30*time.Second, "deadline of one tool call")
	fs.DurationVar(&c.RequestTimeout, "request-timeout", forgejo.DefaultRequestTimeout, "timeout of one forge HTTP request")
	fs.IntVar(&c.MaxConcurrent, "max-concurrent", envInt(env, "FORGEJO_MCP_MAX_CONCURRENT", tool.DefaultMaxConcurrent), "tool calls running at once across all users; more get a busy error (env FORGEJO_MCP_MAX_CONCURRENT)")
	fs.IntVar(&c.MaxConcurrentPerUser, "max-concurrent-per-user", envInt(env, "FORGEJO_MCP_MAX_CONCURRENT_PER_USER", tool.DefaultMaxConcurrentPerUser), "tool calls one user (token identity) runs at once; more get a busy error naming this limit while others are still served (env FORGEJO_MCP_MAX_CONCURRENT_PER_USER)")
	fs.Int64Var(&c.MaxUploadBytes, "max-upload-bytes", forgejo.DefaultMaxUploadBytes, "largest file an upload tool accepts, checked before sending")
	fs.IntVar(&c.MaxFrameBytes, "max-frame-bytes", 0, "largest inbound stdio message; a longer one is refused unread (default 16 MiB, raised to fit --max-upload-bytes in base64)")
	fs.Int64Var(&c.MaxArgsBytes, "max-args-bytes", tool.DefaultMaxArgBytes, "largest arguments of a tool call, as JSON, for tools other than uploads")
	fs.Int64Var(&c.MaxResultBytes, "max-result-bytes", tool.DefaultMaxResultBytes, "largest result of a tool call; a larger one fails with how to narrow the request")
	fs.StringVar(&c.rawMaxInline, "max-inline-bytes", envOr(env, "FORGEJO_MCP_MAX_INLINE_BYTES", "1MiB"), "most bytes of a file a download returns in one result (1KiB to 1MiB, e.g. 640KiB for a client that refuses results over 1 MB); larger files come in windows of this size (env FORGEJO_MCP_MAX_INLINE_BYTES)")
	fs.IntVar(&c.MaxOutstanding, "max-outstanding", stdio.DefaultMaxOutstanding, "stdio requests handled at once; more are refused with a JSON-RPC error")
	fs.Int64Var(&c.MaxInflightBytes, "max-inflight-bytes", rpcguard.DefaultBudgetBytes, "total size of the requests being decoded and handled at once (both transports; each JSON value counts 64 bytes more); past it a request waits up to 30s, then gets a busy error")
	fs.StringVar(&c.CAFile, "ca-file", env("FORGEJO_CA_FILE"), "PEM file of CA certificates to trust for the forge, besides the system's (env FORGEJO_CA_FILE)")
	fs.BoolVar(&c.InsecureSkipVerify, "insecure-skip-verify", false, "DANGEROUS: do not verify the forge's TLS certificate (prefer --ca-file)")
	fs.BoolVar(&c.ShowVersion, "version", false, "print the version and exit")
	c.HTTP.registerFlags(fs, env)
}

// envInt is env's integer value of key, def when it is unset, or -1 when
// it is not a number, which resolve refuses with the flag's name.
func envInt(env Env, key string, def int) int {
	v := strings.TrimSpace(env(key))
	if v == "" {
		return def
	}
	if n, err := strconv.Atoi(v); err == nil {
		return n
	}
	return -1
}

func envOr(env Env, key, def string) string {
	if v := env(key); v != "" {
		return v
	}
	return def
}

// usageError is a bad flag, argument or configuration: exit code 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// resolve validates the flags and loads the token. needForge says whether
// a missing URL is an error.
func (c *Config) resolve(env Env, needForge bool) error {
	if c.argvToken != "" {
		return usagef("--token is not accepted: a token on the command line leaks into process lists and shell history; set FORGEJO_ACCESS_TOKEN or use --token-file")
	}
	if _, err := c.logLevel(); err != nil {
		return err
	}
	switch c.Transport {
	case "stdio":
	case "http":
		if err := c.HTTP.resolve(); err != nil {
			return err
		}
	default:
		return usagef("unknown --transport %q: use stdio or http", c.Transport)
	}
	if c.MaxUploadBytes <= 0 {
		return usagef("--max-upload-bytes must be positive")
	}
	if c.CallTimeout <= 0 || c.RequestTimeout <= 0 {
		return usagef("--call-timeout and --request-timeout must be positive")
	}
	if err := c.resolveBounds(); err != nil {
		return err
	}
	if strings.TrimSpace(c.Repos) != "" {
		scope, err := trust.ParseScope(c.Repos, "--repos")
		if err != nil {
			return usagef("%v", err)
		}
		c.Scope = scope
	}
	tlsConfig, err := forgejo.TLSConfig(c.CAFile, c.InsecureSkipVerify)
	if err != nil {
		return usagef("%v", err)
	}
	c.TLS = tlsConfig
	if strings.TrimSpace(c.RawURL) == "" {
		if needForge {
			return usagef("no forge configured: set --url or FORGEJO_URL (e.g. https://codeberg.org), or store one with forgejo-mcp login")
		}
	} else {
		u, err := forgejo.ParseBaseURL(c.RawURL)
		if err != nil {
			return usagef("%v", err)
		}
		c.URL = u
	}
	if c.TokenFile != "" {
		b, err := os.ReadFile(c.TokenFile)
		if err != nil {
			return usagef("cannot read --token-file: %v", errors.Unwrap(err))
		}
		c.Token = strings.TrimSpace(string(b))
		if c.Token == "" {
			return usagef("--token-file %s is empty", c.TokenFile)
		}
	} else if c.profileToken != "" {
		c.Token = c.profileToken
	} else {
		c.Token = strings.TrimSpace(env("FORGEJO_ACCESS_TOKEN"))
	}
	if strings.ContainsAny(c.Token, " \t\r\n") {
		return usagef("the access token contains white space; check FORGEJO_ACCESS_TOKEN or --token-file")
	}
	return nil
}

// minFrameHeadroom is what a frame needs besides an upload's base64: the
// JSON-RPC envelope, the tool name and the other arguments.
const minFrameHeadroom = 1 << 20

// resolveBounds checks the size bounds and sizes the frame limit: unless
// set, it is stdio.DefaultMaxFrameBytes or, when --max-upload-bytes asks
// for more, what the largest upload needs in base64 plus headroom; a value
// set too small for the largest upload is refused, since uploads near the
// limit would then fail with a protocol error instead of a clear message.
func (c *Config) resolveBounds() error {
	if c.MaxConcurrent <= 0 || c.MaxConcurrentPerUser <= 0 {
		return usagef("--max-concurrent and --max-concurrent-per-user must be positive")
	}
	if c.MaxArgsBytes <= 0 || c.MaxResultBytes <= 0 || c.MaxOutstanding <= 0 || c.MaxFrameBytes < 0 || c.MaxInflightBytes <= 0 {
		return usagef("--max-args-bytes, --max-result-bytes, --max-outstanding and --max-inflight-bytes must be positive")
	}
	n, err := tool.ParseInlineCap("--max-inline-bytes", c.rawMaxInline)
	if err != nil {
		return usagef("%v", err)
	}
	c.MaxInlineBytes = n
	need := 4*((c.MaxUploadBytes+2)/3) + minFrameHeadroom
	switch {
	case c.MaxFrameBytes == 0:
		c.MaxFrameBytes = int(max(need, stdio.DefaultMaxFrameBytes))
	case int64(c.MaxFrameBytes) < need:
		return usagef("--max-frame-bytes %d cannot carry an upload of --max-upload-bytes %d in base64: it needs at least %d; raise it or lower --max-upload-bytes", c.MaxFrameBytes, c.MaxUploadBytes, need)
	}
	return nil
}

func (c *Config) logLevel() (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(c.LogLevel)); err != nil {
		return 0, usagef("unknown --log-level %q: use debug, info, warn or error", c.LogLevel)
	}
	return l, nil
}

// serverSelection is what the server offers: the selection, with the
// default toolsets when neither --toolsets nor --tools names any (--cli
// uses selection, which reaches every tool).
func (c *Config) serverSelection() tool.Selection {
	sel := c.selection()
	if len(sel.Toolsets) == 0 && len(sel.Tools) == 0 {
		sel.Toolsets = []string{"default"}
	}
	return sel
}

func (c *Config) selection() tool.Selection {
	return tool.Selection{
		Toolsets: tool.SplitList(c.Toolsets),
		Tools:    tool.SplitList(c.Tools),
		Exclude:  tool.SplitList(c.ExcludeTools),
		ReadOnly: c.ReadOnly,
	}
}

// runner builds the call pipeline for one fixed identity.
func (c *Config) runner(logger *slog.Logger) *tool.Runner {
	r := &tool.Runner{Timeout: c.CallTimeout, Logger: logger,
		MaxArgBytes: c.MaxArgsBytes, MaxLargeArgBytes: int64(c.MaxFrameBytes), MaxResultBytes: c.MaxResultBytes,
		Repos: c.Scope, Lockdown: c.Lockdown, Marks: true, MaxInlineBytes: c.MaxInlineBytes}
	r.SetLimits(tool.Limits{PerServer: c.MaxConcurrent, PerIdentity: c.MaxConcurrentPerUser, Observer: c.observer})
	if c.InsecureSkipVerify {
		logger.Warn("TLS CERTIFICATE VERIFICATION IS OFF (--insecure-skip-verify): anyone on the path to the forge can read the token and forge every answer; use --ca-file with the forge's CA instead")
	}
	if c.URL != nil && c.Token == "" && c.Transport != "http" {
		// Once per process: stdio and --cli build one runner; over HTTP
		// each request brings its own token.
		logger.Warn("no access token: set FORGEJO_ACCESS_TOKEN or --token-file; only public data will be readable, and writes will fail")
	}
	if c.URL != nil {
		hc := forgejo.NewHTTPClient(forgejo.HTTPOptions{BaseURL: c.URL, RequestTimeout: c.RequestTimeout, TLS: c.TLS})
		client := forgejo.NewClient(hc, c.URL, c.Token, c.UserAgent).WithMaxUpload(c.MaxUploadBytes)
		r.Client = func(context.Context) (*forgejo.Client, error) { return client, nil }
	}
	return r
}
