// Package cmd turns flags and environment into one configuration and runs
// the server (stdio) or one tool call (--cli).
package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"

	"github.com/mark3labs/mcp-go/server"
	"github.com/spf13/pflag"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/mcpserver"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/redact"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/rpcguard"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/stdio"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/version"
)

// Exit codes.
const (
	ExitOK        = 0
	ExitToolError = 1
	ExitUsage     = 2
)

// IO is the process's standard streams.
type IO struct {
	In       io.Reader
	Out, Err io.Writer
}

// Main runs forgejo-mcp with args (without the program name) and returns
// the exit code. ctx ends on SIGINT or SIGTERM.
func Main(ctx context.Context, args []string, std IO, env Env) int {
	if len(args) > 0 {
		if sub := subcommand(args[0]); sub != nil {
			return sub(ctx, args[1:], std, env)
		}
	}
	if i := indexOf(args, "--cli"); i >= 0 {
		return interruptible(ctx, func() int { return runCLI(ctx, args[:i], args[i+1:], std, env) })
	}
	var cfg Config
	fs := serverFlags(&cfg, env)
	// --output here only shapes --version (--cli has its own).
	versionOutput := fs.String("output", "text", "with --version: text or json (version, commit, go_version)")
	onceOnly(fs)
	fs.Usage = func() { printServerHelp(std.Out, fs, env) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return ExitOK
		}
		fmt.Fprintln(std.Err, "forgejo-mcp:", flagError(fs, err, "forgejo-mcp --help"))
		return ExitUsage
	}
	if cfg.ShowVersion {
		return printVersion(std, *versionOutput)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(std.Err, "forgejo-mcp: unexpected argument %q%s; see forgejo-mcp --help\n", fs.Arg(0), argHint(fs.Arg(0)))
		return ExitUsage
	}
	err := cfg.applyProfile(ctx, env)
	if err == nil {
		err = cfg.resolve(env, true)
	}
	if err != nil {
		fmt.Fprintln(std.Err, "forgejo-mcp:", err)
		return ExitUsage
	}
	logger := newLogger(std.Err, &cfg)
	// The calls reading PDFs share one memory pool (security issue 26).
	ctx = pdftext.WithMemoryPool(ctx, pdftext.NewMemoryPool(pdftext.DefaultPoolBytes))
	all := operation.All()
	sel := cfg.serverSelection()
	switch {
	case cfg.Transport == "http":
		// Over HTTP the flags bound what a request can select and the
		// default applies per request (X-MCP-Toolsets).
		sel = cfg.selection()
	case cfg.DynamicToolsets:
		// enable_toolset reaches every toolset; --exclude-tools and
		// --read-only still bound it, and the rest picks the start.
		sel = tool.Selection{Exclude: sel.Exclude, ReadOnly: sel.ReadOnly}
	}
	defs, err := tool.Select(all, sel)
	if err != nil {
		fmt.Fprintln(std.Err, "forgejo-mcp:", err)
		return ExitUsage
	}
	if cfg.DynamicToolsets {
		warnEmpty(logger, all, cfg.serverSelection())
	} else {
		warnEmpty(logger, all, sel)
	}
	if cfg.Transport == "http" {
		if cfg.DynamicToolsets {
			fmt.Fprintln(std.Err, "forgejo-mcp: --dynamic-toolsets is for stdio; over HTTP each request selects toolsets with the X-MCP-Toolsets header")
			return ExitUsage
		}
		return serveHTTP(ctx, &cfg, defs, logger)
	}
	runner := cfg.runner(logger)
	// The meta-tools reach the selection before its default narrows the
	// list: every tool, unless --toolsets or --tools name some.
	callable := defs
	if !cfg.DynamicToolsets {
		if callable, err = tool.Select(all, cfg.selection()); err != nil {
			fmt.Fprintln(std.Err, "forgejo-mcp:", err)
			return ExitUsage
		}
	}
	runner.Callable = func() []tool.Def { return callable }
	var s *server.MCPServer
	if cfg.DynamicToolsets {
		start, err := tool.Select(all, cfg.serverSelection())
		if err != nil {
			fmt.Fprintln(std.Err, "forgejo-mcp:", err)
			return ExitUsage
		}
		s = mcpserver.NewDynamic(defs, tool.Toolsets(start), runner)
	} else {
		s = mcpserver.New(defs, runner)
	}
	logger.Info("serving MCP on stdio", "forge", cfg.URL.String(), "tools", len(defs), "version", version.Version)
	if err := serveStdio(ctx, s, std, &cfg, rpcguard.ToolLimits(defs, runner), logger); err != nil {
		logger.Error("stdio server stopped", "err", err)
		return ExitToolError
	}
	return ExitOK
}

// warnEmpty says so when sel offers no tool of all: every knob only
// narrows, so that is almost always a mistake (--read-only with only
// writing tools named), and a server without tools looks merely broken
// to whoever set up the client.
func warnEmpty(logger *slog.Logger, all []tool.Def, sel tool.Selection) {
	why := tool.EmptyReason(all, sel, tool.SelectionWords{Toolsets: "--toolsets", Tools: "--tools", Exclude: "--exclude-tools", ReadOnly: "--read-only"})
	if why != "" {
		logger.Warn("the selection offers no tools: " + why + "; the server starts without any")
	}
}

// subcommand is the command a first argument names, or nil: the server
// and --cli are flags, the few commands around them words.
func subcommand(name string) func(context.Context, []string, IO, Env) int {
	switch name {
	case "login":
		return runLogin
	case "logout":
		return runLogout
	case "api":
		return runAPI
	case "completion":
		return runCompletion
	case completeCommand:
		return runComplete
	}
	return nil
}

// argHint is a "did you mean" for a word given to the server: a tool name
// meant for --cli, or a subcommand misspelt.
func argHint(arg string) string {
	all := operation.All()
	if _, ok := tool.Find(all, arg); ok {
		return fmt.Sprintf(" (did you mean --cli %s?)", arg)
	}
	if hint := tool.Suggest(arg, []string{"login", "logout", "api", "completion"}); hint != "" {
		return fmt.Sprintf(" (did you mean forgejo-mcp %s?)", hint)
	}
	if hint := tool.Suggest(arg, toolNames(all)); hint != "" {
		return fmt.Sprintf(" (did you mean --cli %s?)", hint)
	}
	return ""
}

// serveStdio serves s on the process's standard streams through the
// project's own bounded stdio front (pkg/stdio) rather than mcp-go's, which
// reads unbounded lines and replies to cancelled requests. Everything it
// writes is masked of the token: the client can make mcp-go echo any
// string it sends (a method, a prompt name, a log level) in an error.
func serveStdio(ctx context.Context, s *server.MCPServer, std IO, cfg *Config, args rpcguard.ArgLimitFunc, logger *slog.Logger) error {
	return stdio.Serve(ctx, s, std.In, redact.NewWriter(std.Out, cfg.Token), stdio.Limits{
		MaxFrameBytes:    cfg.MaxFrameBytes,
		MaxOutstanding:   cfg.MaxOutstanding,
		MaxInflightBytes: cfg.MaxInflightBytes,
		Guard:            rpcguard.Limits{ArgLimit: args},
	}, logger)
}

// newLogger is the process's one logger. Every record passes through a
// redact.Handler that knows the configured token; over HTTP each request's
// own token reaches it through the request's context (httpserver).
func newLogger(w io.Writer, cfg *Config) *slog.Logger {
	level, _ := cfg.logLevel()
	logger := slog.New(redact.NewHandler(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}), cfg.Token))
	for _, n := range cfg.notes {
		logger.Warn(n)
	}
	return logger
}

// printVersion prints the build's version as text or JSON.
func printVersion(std IO, output string) int {
	info := version.Get()
	switch output {
	case "text":
		fmt.Fprintln(std.Out, "forgejo-mcp", info.Version)
	case "json":
		b, _ := json.Marshal(info)
		fmt.Fprintf(std.Out, "%s\n", b)
	default:
		fmt.Fprintf(std.Err, "forgejo-mcp: unknown --output %q: use text or json\n", output)
		return ExitUsage
	}
	return ExitOK
}

func indexOf(args []string, s string) int {
	for i, a := range args {
		if a == "--" {
			return -1
		}
		if a == s {
			return i
		}
	}
	return -1
}
