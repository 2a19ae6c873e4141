package cmd

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/version"
)

// Config is everything flags and environment decide, in one value.
type Config struct {
	RawURL         string
	URL            *url.URL // nil when no forge is configured
	TokenFile      string
	Token          string // never printed or logged
	UserAgent      string
	LogLevel       string
	Transport      string
	Toolsets       string
	Tools          string
	ExcludeTools   string
	ReadOnly       bool
	CallTimeout    time.Duration
	RequestTimeout time.Duration
	MaxConcurrent  int
	MaxUploadBytes int64
	ShowVersion    bool
	HTTP           HTTPConfig

	argvToken string // set only if someone passes --token, to refuse it
}

// Env is how the process reads its environment; tests pass their own.
type Env func(string) string

// registerFlags adds the server flags to fs, with defaults from env.
func (c *Config) registerFlags(fs *pflag.FlagSet, env Env) {
	fs.StringVar(&c.RawURL, "url", env("FORGEJO_URL"), "forge base URL, e.g. https://codeberg.org (env FORGEJO_URL)")
	fs.StringVar(&c.TokenFile, "token-file", env("FORGEJO_TOKEN_FILE"), "read the access token from this file (env FORGEJO_TOKEN_FILE; default: env FORGEJO_ACCESS_TOKEN)")
	fs.StringVar(&c.argvToken, "token", "", "refused: a token on the command line leaks into process lists and shell history")
	_ = fs.MarkHidden("token")
	fs.StringVar(&c.UserAgent, "user-agent", envOr(env, "FORGEJO_USER_AGENT", version.UserAgent()), "User-Agent sent to the forge (env FORGEJO_USER_AGENT)")
	fs.StringVar(&c.LogLevel, "log-level", envOr(env, "FORGEJO_MCP_LOG_LEVEL", "info"), "log level on stderr: debug, info, warn or error")
	fs.StringVar(&c.Transport, "transport", envOr(env, "FORGEJO_MCP_TRANSPORT", "stdio"), "MCP transport: stdio or http")
	fs.StringVar(&c.Toolsets, "toolsets", env("FORGEJO_MCP_TOOLSETS"), "comma-separated toolsets to offer (default all)")
	fs.StringVar(&c.Tools, "tools", env("FORGEJO_MCP_TOOLS"), "comma-separated allow-list of tool names")
	fs.StringVar(&c.ExcludeTools, "exclude-tools", env("FORGEJO_MCP_EXCLUDE_TOOLS"), "comma-separated tool names to leave out")
	fs.BoolVar(&c.ReadOnly, "read-only", env("FORGEJO_MCP_READ_ONLY") == "true", "offer only read-only tools")
	fs.DurationVar(&c.CallTimeout, "call-timeout", 30*time.Second, "deadline of one tool call")
	fs.DurationVar(&c.RequestTimeout, "request-timeout", forgejo.DefaultRequestTimeout, "timeout of one forge HTTP request")
	fs.IntVar(&c.MaxConcurrent, "max-concurrent", 4, "tool calls running at once; more get a busy error")
	fs.Int64Var(&c.MaxUploadBytes, "max-upload-bytes", forgejo.DefaultMaxUploadBytes, "largest file an upload tool accepts, checked before sending")
	fs.BoolVar(&c.ShowVersion, "version", false, "print the version and exit")
	c.HTTP.registerFlags(fs, env)
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
	if strings.TrimSpace(c.RawURL) == "" {
		if needForge {
			return usagef("no forge configured: set --url or FORGEJO_URL (e.g. https://codeberg.org)")
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
	} else {
		c.Token = strings.TrimSpace(env("FORGEJO_ACCESS_TOKEN"))
	}
	if strings.ContainsAny(c.Token, " \t\r\n") {
		return usagef("the access token contains white space; check FORGEJO_ACCESS_TOKEN or --token-file")
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
	r := &tool.Runner{Timeout: c.CallTimeout, Logger: logger}
	r.SetMaxConcurrent(c.MaxConcurrent)
	if c.URL != nil {
		hc := forgejo.NewHTTPClient(forgejo.HTTPOptions{BaseURL: c.URL, RequestTimeout: c.RequestTimeout})
		client := forgejo.NewClient(hc, c.URL, c.Token, c.UserAgent).WithMaxUpload(c.MaxUploadBytes)
		r.Client = func(context.Context) (*forgejo.Client, error) { return client, nil }
	}
	return r
}
