package cmd

import (
	"context"
	"log/slog"

	"github.com/spf13/pflag"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// HTTPConfig is the configuration of the streamable HTTP transport.
type HTTPConfig struct {
	Addr string
}

func (h *HTTPConfig) registerFlags(fs *pflag.FlagSet, env Env) {
	fs.StringVar(&h.Addr, "http-addr", envOr(env, "FORGEJO_MCP_HTTP_ADDR", "127.0.0.1:8080"), "listen address of --transport http")
}

func (h *HTTPConfig) resolve() error {
	return usagef("--transport http is not implemented yet")
}

// serveHTTP serves defs over streamable HTTP until ctx ends; it returns the
// process exit code.
func serveHTTP(ctx context.Context, cfg *Config, defs []tool.Def, logger *slog.Logger) int {
	logger.Error("--transport http is not implemented yet")
	return ExitUsage
}
