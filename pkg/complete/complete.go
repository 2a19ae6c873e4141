// Package complete answers completion/complete for the arguments of the
// resource templates and prompts: owners, repositories, refs, paths and
// issue or pull request numbers, from the forge as the caller sees it.
// Each answer costs at most one forge call, counted against the caller's
// and the server's concurrency limits, read as it arrives through a size
// cap, keeping no more than it can return; answers are cached briefly per
// identity, in a cache bounded in bytes that forgets expired entries at
// once.
package complete

import (
	"context"
	"errors"
	"sort"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Bounds of an answer, of a lookup and of the cache.
const (
	// MaxValues is the most values one answer carries (the protocol's
	// own bound).
	MaxValues = 100
	// MaxKept is the most values a lookup keeps to answer later prefixes
	// from; a longer list is kept only as the values matching the prefix
	// asked for (at most MaxValues).
	MaxKept = 500
	// MaxAnswerBytes bounds what a lookup reads of the forge's answer
	// (git refs and directories are not paginated): past it the lookup
	// stops reading and answers with what it has, saying there is more.
	MaxAnswerBytes = 4 << 20
	// pageSize is what one forge list call asks for (the forge's usual
	// maximum).
	pageSize = 50
	// TTL is how long a lookup's values are reused for the same identity.
	TTL = 30 * time.Second
	// CacheBytes bounds the cache over all identities.
	CacheBytes = 4 << 20
	// lookupTimeout bounds the one forge call of an answer.
	lookupTimeout = 10 * time.Second
	// admitName is how a lookup is named to the concurrency limits and
	// their metrics.
	admitName = "completion/complete"
)

// Options configure a Completer.
type Options struct {
	// Client is the identity of each request; nil completes nothing.
	Client tool.ClientFunc
	// Visible admits the prompts and templates a request can reach (nil:
	// all).
	Visible Visible
	// Admit counts a forge lookup against the concurrency limits
	// (tool.Runner.Admit); nil admits everything.
	Admit func(ctx context.Context, name string) (done func(), refusal string)
	// Plain leaves out a value holding an invisible or control character
	// (a newline, an escape, a bidirectional override) instead of showing
	// it escaped: a shell inserts a candidate into a command line as
	// typed text, where an escaped form would name something else.
	Plain bool
}

// Completer answers completions for the identity of each request.
type Completer struct {
	opts  Options
	cache *cache
}

// Visible reports whether ctx's request can reach a prompt (by name) or a
// resource template (by its URI template): a completion reaches the forge
// only for one it can, so a request narrowed away from a template or
// prompt learns nothing through its arguments' completions either.
type Visible func(ctx context.Context, prompt bool, ref string) bool

// New returns a Completer.
func New(o Options) *Completer {
	return &Completer{opts: o, cache: newCache(CacheBytes, TTL)}
}

// CompletePromptArgument implements server.PromptCompletionProvider. An
// index argument completes pull requests for a prompt about one (its name
// says "pull"), issues otherwise.
func (c *Completer) CompletePromptArgument(ctx context.Context, prompt string, arg mcp.CompleteArgument, cc mcp.CompleteContext) (*mcp.Completion, error) {
	if c.opts.Visible != nil && !c.opts.Visible(ctx, true, prompt) {
		return empty(), nil
	}
	kind := "issues"
	if strings.Contains(prompt, "pull") {
		kind = "pulls"
	}
	return c.complete(ctx, arg, cc, kind)
}

// CompleteResourceArgument implements server.ResourceCompletionProvider.
// An index argument completes pull requests in a …/pulls/… template,
// issues otherwise.
func (c *Completer) CompleteResourceArgument(ctx context.Context, uri string, arg mcp.CompleteArgument, cc mcp.CompleteContext) (*mcp.Completion, error) {
	if c.opts.Visible != nil && !c.opts.Visible(ctx, false, uri) {
		return empty(), nil
	}
	kind := "issues"
	if strings.Contains(uri, "/pulls/") {
		kind = "pulls"
	}
	return c.complete(ctx, arg, cc, kind)
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
	got, err := c.complete(ctx, mcp.CompleteArgument{Name: name, Value: prefix}, mcp.CompleteContext{Arguments: args}, kind)
	if err != nil {
		return nil
	}
	return got.Values
}

func empty() *mcp.Completion { return &mcp.Completion{Values: []string{}} }

// complete answers one argument. A completion is a convenience, so an
// argument it does not know, a missing identity or a forge failure give no
// values; only a refusal by the concurrency limits is an error, so that
// the client knows to retry.
func (c *Completer) complete(ctx context.Context, arg mcp.CompleteArgument, cc mcp.CompleteContext, indexKind string) (*mcp.Completion, error) {
	if c.opts.Client == nil {
		return empty(), nil
	}
	client, err := c.opts.Client(ctx)
	if err != nil || client == nil {
		return empty(), nil
	}
	l, ok := lookupFor(arg, cc, indexKind)
	if !ok {
		return empty(), nil
	}
	prefix := strings.ToLower(arg.Value)
	if e, ok := c.cache.get(cacheKey{client, l.key, ""}); ok {
		return match(e.values, prefix), nil // the whole list: any prefix
	}
	if e, ok := c.cache.get(cacheKey{client, l.key, prefix}); ok {
		return e.completion(), nil
	}
	if c.opts.Admit != nil {
		done, refusal := c.opts.Admit(ctx, admitName)
		if refusal != "" {
			return nil, errors.New(refusal)
		}
		defer done()
	}
	col, whole, err := c.fetch(ctx, client, l, prefix)
	if err != nil {
		return empty(), nil
	}
	if whole && col.whole {
		c.cache.put(cacheKey{client, l.key, ""}, entry{values: col.all})
		return match(col.all, prefix), nil
	}
	e := entry{values: col.matched, total: col.total, more: !whole || col.total > len(col.matched)}
	c.cache.put(cacheKey{client, l.key, prefix}, e)
	return e.completion(), nil
}

// fetch runs lookup l for prefix: whole says the forge answered with its
// whole list (col.whole, that col.all kept all of it).
func (c *Completer) fetch(ctx context.Context, client *forgejo.Client, l lookup, prefix string) (col *collector, whole bool, err error) {
	lctx, cancel := context.WithTimeout(ctx, lookupTimeout)
	defer cancel()
	col = &collector{prefix: prefix, whole: true}
	whole, err = l.fetch(lctx, client, func(v string) {
		shown := tool.EscapeInvisible(v)
		if c.opts.Plain && shown != v {
			return
		}
		col.add(client.Redact(shown))
	})
	if err != nil {
		return nil, false, err
	}
	if l.sorted {
		sort.Strings(col.all)
		sort.Strings(col.matched)
	}
	return col, whole, nil
}

// Lookup answers the argument name for a shell that keeps answers itself
// between its processes: every value when the forge's whole list was
// short enough to keep (whole: any later prefix can be answered from it),
// else the values matching prefix. nil when the argument is not one it
// knows or the forge fails.
func (c *Completer) Lookup(ctx context.Context, name, prefix string, args map[string]string, pulls bool) (values []string, whole bool) {
	kind := "issues"
	if pulls {
		kind = "pulls"
	}
	if c.opts.Client == nil {
		return nil, false
	}
	client, err := c.opts.Client(ctx)
	if err != nil || client == nil {
		return nil, false
	}
	l, ok := lookupFor(mcp.CompleteArgument{Name: name, Value: prefix}, mcp.CompleteContext{Arguments: args}, kind)
	if !ok {
		return nil, false
	}
	col, whole, err := c.fetch(ctx, client, l, strings.ToLower(prefix))
	switch {
	case err != nil:
		return nil, false
	case whole && col.whole:
		return col.all, true
	}
	return col.matched, false
}

// Match keeps the values that start with prefix, as an answer does
// (case-insensitively), at most MaxValues.
func Match(values []string, prefix string) []string {
	return match(values, strings.ToLower(prefix)).Values
}

// collector keeps what a lookup can answer with: every value while there
// are at most MaxKept (for later prefixes too), and the first MaxValues
// matching the prefix asked for, counted.
type collector struct {
	prefix  string
	whole   bool // all holds every value so far
	all     []string
	matched []string
	total   int
}

func (col *collector) add(v string) {
	if col.whole {
		if len(col.all) < MaxKept {
			col.all = append(col.all, v)
		} else {
			col.whole, col.all = false, nil
		}
	}
	if strings.HasPrefix(strings.ToLower(v), col.prefix) {
		col.total++
		if len(col.matched) < MaxValues {
			col.matched = append(col.matched, v)
		}
	}
}

// match returns the values starting with prefix (lower case), at most
// MaxValues of them, with the total and whether more matched.
func match(values []string, prefix string) *mcp.Completion {
	out := []string{}
	total := 0
	for _, v := range values {
		if strings.HasPrefix(strings.ToLower(v), prefix) {
			total++
			if len(out) < MaxValues {
				out = append(out, v)
			}
		}
	}
	return &mcp.Completion{Values: out, Total: total, HasMore: total > len(out)}
}
