package cmd

import (
	"context"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// lookupTimeout bounds the forge lookups of one completion: a TAB that
// waits longer helps nobody.
const lookupTimeout = 3 * time.Second

func allTools() []tool.Def { return operation.All() }

func findTool(name string) (tool.Def, bool) { return operation.Find(name) }

// flagNames are fs's visible flags as candidates, leaving out scalar
// flags the words already give.
func flagNames(fs *pflag.FlagSet, words []string) []string {
	given := map[string]bool{}
	for _, w := range words {
		if name, ok := strings.CutPrefix(w, "--"); ok {
			name, _, _ = strings.Cut(name, "=")
			given[string(normalizeFlag(fs, name))] = true
		}
	}
	var out []string
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		if _, list := f.Value.(pflag.SliceValue); given[f.Name] && !list {
			return
		}
		out = append(out, candidate("--"+f.Name, f.Usage))
	})
	return out
}

// pendingFlag is the flag the last word names when it still waits for
// its value, or nil.
func pendingFlag(fs *pflag.FlagSet, words []string) *pflag.Flag {
	if len(words) == 0 {
		return nil
	}
	last := words[len(words)-1]
	var f *pflag.Flag
	switch {
	case strings.Contains(last, "="):
		return nil
	case strings.HasPrefix(last, "--"):
		f = fs.Lookup(string(normalizeFlag(fs, last[2:])))
	case strings.HasPrefix(last, "-") && len(last) == 2:
		f = fs.ShorthandLookup(last[1:])
	}
	if f == nil || f.NoOptDefVal != "" {
		return nil
	}
	return f
}

// flagValues completes the value of the flag the words end with (or of
// --flag=value in cur); done is false when no flag waits for a value.
func flagValues(ctx context.Context, fs *pflag.FlagSet, words []string, cur string, env Env, def *tool.Def) ([]string, bool) {
	f := pendingFlag(fs, words)
	prefix := ""
	if f == nil && strings.HasPrefix(cur, "--") && strings.Contains(cur, "=") {
		name, value, _ := strings.Cut(cur[2:], "=")
		f, prefix, cur = fs.Lookup(string(normalizeFlag(fs, name))), "--"+name+"=", value
	}
	if f == nil {
		return nil, false
	}
	vals := valuesOf(ctx, fs, f, words, cur, env, def)
	if len(vals) == 1 && vals[0] == filesDirective {
		return vals, true
	}
	out := matching(cur, vals)
	for i := range out {
		out[i] = prefix + out[i]
	}
	return out, true
}

// valuesOf lists the values flag f takes.
func valuesOf(ctx context.Context, fs *pflag.FlagSet, f *pflag.Flag, words []string, cur string, env Env, def *tool.Def) []string {
	switch n := f.Name; {
	case n == "output":
		if fs.Lookup("args") != nil || fs.Lookup("all") != nil {
			return []string{"table", "text", "json", "mcp"}
		}
		return []string{"text", "json"}
	case n == "transport":
		return []string{"stdio", "http"}
	case n == "log-level":
		return []string{"debug", "info", "warn", "error"}
	case n == "toolsets":
		return commaList(cur, append([]string{"all", "default"}, tool.Toolsets(allTools())...))
	case n == "tools" || n == "exclude-tools":
		return commaList(cur, toolNames(allTools()))
	case n == "profile":
		return profileNames(env)
	case n == "token-file" || n == "ca-file" || n == "tls-cert" || n == "tls-key" || n == "file" || n == "out" || strings.HasSuffix(n, "-file"):
		return []string{filesDirective}
	}
	if def == nil {
		return nil
	}
	p, ok := paramOf(*def, strings.ReplaceAll(f.Name, "-", "_"))
	if !ok {
		p, ok = paramOf(*def, f.Name)
	}
	if !ok {
		return nil
	}
	if len(p.Enum) > 0 {
		return p.Enum
	}
	return forgeValues(ctx, fs, *def, p.Name, words, cur, env)
}

// lookupOf maps a parameter to the pkg/complete lookup that knows its
// values.
func lookupOf(param string) string {
	switch param {
	case "owner", "repo", "ref", "index", "path", "sha", "branch":
		return param
	case "base", "head", "from", "target", "new_branch", "default_branch":
		return "branch"
	case "tag", "tag_name", "since_tag":
		return "tag"
	}
	return ""
}

// forgeValues asks the configured forge (flags, environment or profile
// from the words) for param's values, given the owner and repository the
// words name or the git remote implies; nothing without a forge.
func forgeValues(ctx context.Context, fs *pflag.FlagSet, d tool.Def, param string, words []string, cur string, env Env) []string {
	lookup := lookupOf(param)
	if lookup == "" {
		return nil
	}
	var cfg Config
	sfs := serverFlags(&cfg, env)
	sfs.ParseErrorsAllowlist.UnknownFlags = true
	_ = sfs.Parse(words)
	fs.ParseErrorsAllowlist.UnknownFlags = true
	_ = fs.Parse(words)
	cfg.LogLevel = "error"
	// The forge and who asks it, without running a profile's token
	// command: it runs only when the cache cannot answer.
	forge, id, ok := completionForge(&cfg, env)
	if !ok {
		return nil
	}
	args := map[string]any{}
	for _, n := range []string{"owner", "repo", "ref"} {
		if f := fs.Lookup(n); f != nil && f.Changed {
			args[n] = f.Value.String()
		}
	}
	// The git remote fills a repository the words do not name; an error
	// (none found) leaves the arguments as they are.
	_, _ = repoContext(fs, d, args, forge, env)
	ctxArgs := map[string]string{}
	for k, v := range args {
		ctxArgs[k], _ = v.(string)
	}
	c := &forgeLookups{cfg: &cfg, env: env, forge: forge.String(), id: id, cache: newShellCache(env), now: time.Now()}
	// -R (and --repo without --owner) takes OWNER/REPO: a bare name from
	// the git remote's owner would then fail as "missing owner".
	if param == "repo" && (strings.Contains(cur, "/") || !fs.Changed("owner") || !hasParam(d, "owner")) {
		// -R OWNER/REPO: owners first, then the owner's repositories.
		owner, prefix, found := strings.Cut(cur, "/")
		if !found {
			var out []string
			for _, o := range c.values(ctx, "owner", owner, nil, false) {
				out = append(out, o+"/")
			}
			return out
		}
		var out []string
		for _, r := range c.values(ctx, "repo", prefix, map[string]string{"owner": owner}, false) {
			out = append(out, owner+"/"+r)
		}
		return out
	}
	return c.values(ctx, lookup, cur, ctxArgs, strings.Contains(d.Name, "pull"))
}

// commaList completes the last item of a comma-separated value.
func commaList(cur string, items []string) []string {
	head := ""
	if i := strings.LastIndexByte(cur, ','); i >= 0 {
		head = cur[:i+1]
	}
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = head + it
	}
	return out
}

// profileNames are the stored profiles' names.
func profileNames(env Env) []string {
	dir, err := configDir(env)
	if err != nil {
		return nil
	}
	store, err := loadProfiles(dir)
	if err != nil {
		return nil
	}
	return store.names()
}
