// Package complete answers completion/complete for the arguments of the
// resource templates and prompts: owners, repositories, refs, paths and
// issue or pull request numbers, from the forge as the caller sees it.
// Each answer costs at most one forge call, is bounded, and is cached
// briefly per identity.
package complete

import (
	"context"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/resource"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Bounds of an answer and of the cache.
const (
	// MaxValues is the most values one answer carries (the protocol's
	// own bound).
	MaxValues = 100
	// pageSize is what one forge list call asks for (the forge's usual
	// maximum).
	pageSize = 50
	// TTL is how long a lookup's values are reused for the same identity.
	TTL = 30 * time.Second
	// CacheEntries bounds the cache over all identities.
	CacheEntries = 1024
	// lookupTimeout bounds the one forge call of an answer.
	lookupTimeout = 10 * time.Second
)

// Completer answers completions for the identity of each request.
type Completer struct {
	client tool.ClientFunc
	cache  *cache
}

// New returns a Completer acting as the identity client returns.
func New(client tool.ClientFunc) *Completer {
	return &Completer{client: client, cache: newCache(CacheEntries, TTL)}
}

// CompletePromptArgument implements server.PromptCompletionProvider. An
// index argument completes pull requests for a prompt about one (its name
// says "pull"), issues otherwise.
func (c *Completer) CompletePromptArgument(ctx context.Context, prompt string, arg mcp.CompleteArgument, cc mcp.CompleteContext) (*mcp.Completion, error) {
	kind := "issues"
	if strings.Contains(prompt, "pull") {
		kind = "pulls"
	}
	return c.complete(ctx, arg, cc, kind), nil
}

// CompleteResourceArgument implements server.ResourceCompletionProvider.
// An index argument completes pull requests in a …/pulls/… template,
// issues otherwise.
func (c *Completer) CompleteResourceArgument(ctx context.Context, uri string, arg mcp.CompleteArgument, cc mcp.CompleteContext) (*mcp.Completion, error) {
	kind := "issues"
	if strings.Contains(uri, "/pulls/") {
		kind = "pulls"
	}
	return c.complete(ctx, arg, cc, kind), nil
}

// Values completes the argument name from prefix for a shell: args are the
// other arguments already given (owner, repo, ref), pulls says an index is a
// pull request's. The same lookups, bounds and cache as over MCP; nothing
// when the argument is not one it knows or the forge fails.
func (c *Completer) Values(ctx context.Context, name, prefix string, args map[string]string, pulls bool) []string {
	kind := "issues"
	if pulls {
		kind = "pulls"
	}
	return c.complete(ctx, mcp.CompleteArgument{Name: name, Value: prefix}, mcp.CompleteContext{Arguments: args}, kind).Values
}

// complete never fails: a completion is a convenience, so an argument it
// does not know, a missing identity or a forge failure give no values.
func (c *Completer) complete(ctx context.Context, arg mcp.CompleteArgument, cc mcp.CompleteContext, indexKind string) *mcp.Completion {
	empty := &mcp.Completion{Values: []string{}}
	if c.client == nil {
		return empty
	}
	client, err := c.client(ctx)
	if err != nil || client == nil {
		return empty
	}
	ctxArg := func(name string) string { return cc.Arguments[name] }
	owner, repo := ctxArg("owner"), ctxArg("repo")
	prefix := arg.Value
	var l lookup
	switch arg.Name {
	case "owner":
		l = lookup{key: "owners", fetch: owners}
	case "repo":
		l = lookup{key: "repos\x00" + owner, fetch: func(ctx context.Context, cl *forgejo.Client) ([]string, error) { return repos(ctx, cl, owner) }}
	case "ref", "branch", "tag", "since_tag":
		which := map[string]string{"ref": "", "branch": "heads", "tag": "tags", "since_tag": "tags"}[arg.Name]
		l = lookup{key: "refs\x00" + owner + "\x00" + repo + "\x00" + which, fetch: func(ctx context.Context, cl *forgejo.Client) ([]string, error) {
			return refs(ctx, cl, owner, repo, which)
		}}
	case "path":
		dir, _ := splitPath(prefix)
		ref := ctxArg("ref")
		l = lookup{key: "dir\x00" + owner + "\x00" + repo + "\x00" + ref + "\x00" + dir, fetch: func(ctx context.Context, cl *forgejo.Client) ([]string, error) {
			return entries(ctx, cl, owner, repo, ref, dir)
		}}
	case "sha":
		l = lookup{key: "commits\x00" + owner + "\x00" + repo, fetch: func(ctx context.Context, cl *forgejo.Client) ([]string, error) {
			return recentCommits(ctx, cl, owner, repo)
		}}
	case "page":
		l = lookup{key: "wiki\x00" + owner + "\x00" + repo, fetch: func(ctx context.Context, cl *forgejo.Client) ([]string, error) {
			return wikiPages(ctx, cl, owner, repo)
		}}
	case "index":
		l = lookup{key: indexKind + "\x00" + owner + "\x00" + repo, fetch: func(ctx context.Context, cl *forgejo.Client) ([]string, error) {
			return openIndexes(ctx, cl, owner, repo, indexKind)
		}}
	default:
		return empty
	}
	if (arg.Name != "owner" && owner == "") || (arg.Name != "owner" && arg.Name != "repo" && repo == "") {
		return empty // nothing to look in yet
	}
	values, ok := c.cache.get(cacheKey{client, l.key})
	if !ok {
		lctx, cancel := context.WithTimeout(ctx, lookupTimeout)
		defer cancel()
		values, err = l.fetch(lctx, client)
		if err != nil {
			return empty
		}
		for i, v := range values {
			values[i] = client.Redact(tool.EscapeInvisible(v))
		}
		c.cache.put(cacheKey{client, l.key}, values)
	}
	return match(values, prefix)
}

// lookup is one forge call whose values are cached under key.
type lookup struct {
	key   string
	fetch func(ctx context.Context, c *forgejo.Client) ([]string, error)
}

// match returns the values starting with prefix (case-insensitively), at
// most MaxValues of them, with the total and whether more matched.
func match(values []string, prefix string) *mcp.Completion {
	p := strings.ToLower(prefix)
	out := []string{}
	total := 0
	for _, v := range values {
		if strings.HasPrefix(strings.ToLower(v), p) {
			total++
			if len(out) < MaxValues {
				out = append(out, v)
			}
		}
	}
	return &mcp.Completion{Values: out, Total: total, HasMore: total > len(out)}
}

// splitPath splits a partial path into the directory to list and the
// start of an entry's name: "src/ma" → "src", "ma"; "src/" → "src", "".
func splitPath(p string) (dir, name string) {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return "", p
	}
	return p[:i], p[i+1:]
}

type named struct {
	Name  string `json:"name"`
	Login string `json:"login"`
	Owner *struct {
		Login string `json:"login"`
	} `json:"owner"`
}

func pageQuery(extra url.Values) url.Values {
	q := url.Values{"limit": {strconv.Itoa(pageSize)}, "page": {"1"}}
	for k, v := range extra {
		q[k] = v
	}
	return q
}

// owners are the owners of the first repositories the token's user can
// reach: the user and their organisations, and the owners of repositories
// they collaborate on. One call, where the user's login and their
// organisations would take two.
func owners(ctx context.Context, c *forgejo.Client) ([]string, error) {
	var list []named
	if err := c.DoJSON(ctx, http.MethodGet, "/user/repos", pageQuery(nil), nil, &list); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []string
	for _, r := range list {
		if r.Owner != nil && r.Owner.Login != "" && !seen[r.Owner.Login] {
			seen[r.Owner.Login] = true
			out = append(out, r.Owner.Login)
		}
	}
	sort.Strings(out)
	return out, nil
}

// repos are the names of owner's repositories the token can see.
func repos(ctx context.Context, c *forgejo.Client, owner string) ([]string, error) {
	route, err := forgejo.Path("users", owner, "repos")
	if err != nil {
		return nil, err
	}
	var list []named
	if err := c.DoJSON(ctx, http.MethodGet, route, pageQuery(nil), nil, &list); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(list))
	for _, r := range list {
		out = append(out, r.Name)
	}
	sort.Strings(out)
	return out, nil
}

// refs are branch and tag names (which: "heads", "tags" or both for "").
func refs(ctx context.Context, c *forgejo.Client, owner, repo, which string) ([]string, error) {
	segs := []string{"repos", owner, repo, "git", "refs"}
	if which != "" {
		segs = append(segs, which)
	}
	route, err := forgejo.Path(segs...)
	if err != nil {
		return nil, err
	}
	var list []struct {
		Ref string `json:"ref"`
	}
	if err := c.DoJSON(ctx, http.MethodGet, route, nil, nil, &list); err != nil {
		return nil, err
	}
	var out []string
	for _, r := range list {
		for _, p := range []string{"refs/heads/", "refs/tags/"} {
			if name, ok := strings.CutPrefix(r.Ref, p); ok {
				out = append(out, name)
			}
		}
	}
	return out, nil
}

// entries are the paths in dir (directories with a trailing '/').
func entries(ctx context.Context, c *forgejo.Client, owner, repo, ref, dir string) ([]string, error) {
	route, err := resource.ContentsRoute(owner, repo, dir)
	if err != nil {
		return nil, err
	}
	var q url.Values
	if ref != "" {
		q = url.Values{"ref": {ref}}
	}
	var list []struct {
		Path string `json:"path"`
		Type string `json:"type"`
	}
	if err := c.DoJSON(ctx, http.MethodGet, route, q, nil, &list); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(list))
	for _, e := range list {
		if e.Type == "dir" {
			e.Path += "/"
		}
		out = append(out, e.Path)
	}
	return out, nil
}

// openIndexes are the numbers of the newest open issues or pull requests.
func openIndexes(ctx context.Context, c *forgejo.Client, owner, repo, kind string) ([]string, error) {
	route, err := forgejo.Path("repos", owner, repo, "issues")
	if err != nil {
		return nil, err
	}
	var list []struct {
		Number int64 `json:"number"`
	}
	if err := c.DoJSON(ctx, http.MethodGet, route, pageQuery(url.Values{"state": {"open"}, "type": {kind}}), nil, &list); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(list))
	for _, i := range list {
		out = append(out, strconv.FormatInt(i.Number, 10))
	}
	return out, nil
}

// wikiPages are the names of the wiki's pages (as the page_name a read
// takes: sub_url unescaped).
func wikiPages(ctx context.Context, c *forgejo.Client, owner, repo string) ([]string, error) {
	route, err := forgejo.Path("repos", owner, repo, "wiki", "pages")
	if err != nil {
		return nil, err
	}
	var list []struct {
		SubURL string `json:"sub_url"`
	}
	if err := c.DoJSON(ctx, http.MethodGet, route, pageQuery(nil), nil, &list); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(list))
	for _, p := range list {
		if name, err := url.PathUnescape(p.SubURL); err == nil {
			out = append(out, name)
		}
	}
	return out, nil
}

// recentCommits are the SHAs of the newest commits of the default branch.
func recentCommits(ctx context.Context, c *forgejo.Client, owner, repo string) ([]string, error) {
	route, err := forgejo.Path("repos", owner, repo, "commits")
	if err != nil {
		return nil, err
	}
	var list []struct {
		SHA string `json:"sha"`
	}
	q := pageQuery(url.Values{"stat": {"false"}, "verification": {"false"}, "files": {"false"}})
	if err := c.DoJSON(ctx, http.MethodGet, route, q, nil, &list); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(list))
	for _, cm := range list {
		out = append(out, cm.SHA)
	}
	return out, nil
}
