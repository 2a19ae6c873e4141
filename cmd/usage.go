package cmd

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/pflag"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
)

// printServerHelp is `forgejo-mcp --help`: the ways to run it, where the
// forge and token come from, the flags, and the environment variables.
// The toolsets' list and the environment are worked out here, when help
// is asked for, so no other start pays for them.
func printServerHelp(w io.Writer, fs *pflag.FlagSet, env Env) {
	if f := fs.Lookup("toolsets"); f != nil && !strings.Contains(f.Usage, "\n") {
		f.Usage += ":" + operation.ToolsetHelp(operation.All())
	}
	fmt.Fprintf(w, `forgejo-mcp: an MCP server for Forgejo (and Gitea), and the same tools from a shell

Usage:
  forgejo-mcp [flags]                      serve MCP on stdio (--transport http: streamable HTTP)
  forgejo-mcp --cli list                   the tools, by toolset
  forgejo-mcp --cli TOOL [flags]           call one tool; forgejo-mcp --cli help for its flags
  forgejo-mcp api [METHOD] ROUTE [flags]   call an API route no tool covers (api --help)
  forgejo-mcp login --url URL              store a forge and its token as a profile
  forgejo-mcp logout --profile NAME        forget a stored profile
  forgejo-mcp completion bash|zsh|fish     a shell completion script

%s
Flags:
%s
Environment (a flag given wins over its variable):
%s`, forgeSourcesHelp, fs.FlagUsages(), envHelp(fs, env))
}

// forgeSourcesHelp says where the forge and the token come from, first
// match wins; README's Configuration says the same.
const forgeSourcesHelp = `The forge and its token, the first that applies:
  1. --url, with the token from --token-file or FORGEJO_ACCESS_TOKEN
  2. FORGEJO_URL, with the token from FORGEJO_TOKEN_FILE or FORGEJO_ACCESS_TOKEN
  3. --profile NAME (or FORGEJO_MCP_PROFILE), else the default profile
     (forgejo-mcp login): its URL and its token together
The token is never a flag value; a token set without a URL is never sent
to a profile's forge.
`

// envHelp lists the environment variables the flags read, each with its
// flag, and the token's. It learns them by registering the flags again
// with an Env that records what is asked, so the list cannot fall behind.
func envHelp(fs *pflag.FlagSet, env Env) string {
	var keys []string
	var cfg Config
	scratch := pflag.NewFlagSet("env", pflag.ContinueOnError)
	cfg.registerFlags(scratch, func(k string) string { keys = append(keys, k); return env(k) })
	keys = append(keys, "FORGEJO_ACCESS_TOKEN")
	sort.Strings(keys)
	var b strings.Builder
	seen := map[string]bool{}
	for _, k := range keys {
		if seen[k] {
			continue
		}
		seen[k] = true
		what := "the access token (read from the environment only)"
		if f := fs.Lookup(envFlag(k)); f != nil {
			what = "--" + f.Name
		}
		fmt.Fprintf(&b, "  %-38s %s\n", k, what)
	}
	return b.String()
}

// envFlag is the flag an environment variable stands for: FORGEJO_URL is
// --url, FORGEJO_MCP_READ_ONLY --read-only.
func envFlag(key string) string {
	name, ok := strings.CutPrefix(key, "FORGEJO_MCP_")
	if !ok {
		name = strings.TrimPrefix(key, "FORGEJO_")
	}
	return strings.ReplaceAll(strings.ToLower(name), "_", "-")
}
