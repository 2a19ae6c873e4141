// Command forgejo-mcp is an MCP server (and one-shot CLI) for Forgejo.
package main

import (
	"context"
	"os"
	"runtime/debug"

	"codeberg.org/forgejo-mcp/forgejo-mcp/cmd"
)

// memoryLimit is the default soft memory limit (GOMEMLIMIT): the bounds on
// requests keep what the server holds well below it, and the limit keeps
// the collector's headroom (by default as much again as was live after the
// last collection) from doubling that. See docs/hardening.md.
const memoryLimit = 192 << 20

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	ctx, stop := cmd.SignalContext(context.Background())
	code := cmd.Main(ctx, os.Args[1:], cmd.IO{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}, os.Getenv)
	stop()
	os.Exit(code)
}
