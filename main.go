// Command forgejo-mcp is an MCP server (and one-shot CLI) for Forgejo.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"codeberg.org/forgejo-mcp/forgejo-mcp/cmd"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cmd.Main(ctx, os.Args[1:], cmd.IO{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}, os.Getenv)
	stop()
	os.Exit(code)
}
