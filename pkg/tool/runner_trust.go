package tool

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/trust"
)

// The Runner's trust steps: the repository scope before the handler runs,
// and after it one pass over the result that drops what is outside the
// scope, marks every author with their relation to the repository and, in
// lockdown, withholds the texts of those who may not write to a public
// one. Every tool, and every resource (a read runs tools), goes through
// both; see pkg/trust.

// Fence is the repository scopes in force for ctx's request: the
// server's and the request's own.
func (r *Runner) Fence(ctx context.Context) trust.Fence {
	return append(trust.Fence{r.Repos}, trust.FenceOf(ctx)...)
}

// InLockdown reports whether lockdown is on for ctx's request.
func (r *Runner) InLockdown(ctx context.Context) bool {
	return r.Lockdown || trust.LockdownOf(ctx)
}

// scopeRefusal says why the call is outside the scope, before anything
// is sent; "" when it is inside.
func (r *Runner) scopeRefusal(ctx context.Context, d Def, a Args, c *forgejo.Client) string {
	return d.ScopeRefusal(r.Fence(ctx), a, func() (string, error) {
		if c == nil {
			return "", errNoForge
		}
		u, resp, err := c.SDK(ctx).GetMyUserInfo()
		if err := forgejo.Fail(resp, err, "get", "the token's user"); err != nil {
			return "", err
		}
		return u.UserName, nil
	})
}

type noForge struct{}

func (noForge) Error() string { return "no forge is configured" }

var errNoForge error = noForge{}

// trustCall is one call's trust pass. The facts of the call's repository
// (public or not, its owner) are read while the handler works, not after
// it, but only from the moment the handler sends its first request: a call
// the tool refuses on its own (a climbing name, a bad window) sends nothing
// at all.
type trustCall struct {
	p    *trust.Pass
	plan *trust.Plan

	mu     sync.Mutex
	ended  bool               // the handler has returned: start nothing more
	done   chan struct{}      // closed when the prefetch has ended; nil: none
	cancel context.CancelFunc // stops the prefetch
}

// startTrust sets up the trust pass of d's call with a. It returns the
// context the handler runs with, which starts the prefetch.
func (r *Runner) startTrust(ctx context.Context, d Def, a Args, c *forgejo.Client) (*trustCall, context.Context) {
	p := &trust.Pass{Fence: r.Fence(ctx), Lockdown: r.InLockdown(ctx), Marks: r.Marks, Access: trust.NewAccess(c)}
	tc := &trustCall{p: p, plan: d.TrustPlan()}
	if !p.Lockdown && !p.Marks && !p.Fence.IsSet() {
		return tc, ctx
	}
	if d.param("owner") != nil && d.param("repo") != nil {
		p.Repo = FullName(a)
	}
	if by := d.TextBy; by != nil && c != nil {
		p.Context = &trust.ContextAuthor{Key: by.Key, Login: func(ctx context.Context) (string, error) { return by.Login(ctx, c, a) }}
	}
	if c != nil && p.Repo != "" && (tc.plan.HasText() || p.Context != nil) && (p.Marks || p.Lockdown) {
		return tc, forgejo.OnFirstSend(ctx, func() { tc.prefetch(ctx) })
	}
	return tc, ctx
}

// prefetch starts reading the facts of the call's repository, unless the
// handler has returned.
func (tc *trustCall) prefetch(ctx context.Context) {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	if tc.ended {
		return
	}
	pctx, cancel := context.WithCancel(forgejo.WithoutFirstSend(ctx))
	tc.done, tc.cancel = make(chan struct{}), cancel
	go func() {
		defer close(tc.done)
		tc.p.Access.Repo(pctx, tc.p.Repo)
	}()
}

// wait stops the prefetch, if the call ends before it (a failed
// handler), and returns once it has ended: nothing a call started
// outlives it.
func (tc *trustCall) wait() {
	tc.mu.Lock()
	tc.ended = true
	done, cancel := tc.done, tc.cancel
	tc.mu.Unlock()
	if done != nil {
		cancel()
		<-done
	}
}

// settle runs the trust pass over a successful result of d.
func (tc *trustCall) settle(ctx context.Context, d Def, res *mcp.CallToolResult) *mcp.CallToolResult {
	p := tc.p
	if !p.Lockdown && !p.Marks && !p.Fence.IsSet() {
		return res
	}
	text, at := jsonText(res)
	if at < 0 || d.Output == nil {
		// Not one JSON value: a file's bytes, or a text window. What a
		// call reads on behalf of an author (an attachment) is withheld
		// whole when lockdown would withhold their text.
		if p.Context != nil && p.Lockdown {
			login, _ := p.Context.Login(ctx)
			if why := p.Withholding(ctx, p.Repo, login); why != "" {
				return Error(d.Name + ": " + why)
			}
		}
		return res
	}
	out := p.Apply(ctx, tc.plan, []byte(text))
	switch {
	case out.Refusal != "":
		return Error(d.Name + ": " + out.Refusal)
	case out.JSON == nil:
		return res
	}
	if limit := max(len(text), MaxResultBytes); len(out.JSON) > limit {
		// Marks and reasons lengthen a result: it still fits what the
		// tool promised (MaxResultBytes, or the larger window asked for).
		out.JSON, _ = fit(out.JSON, limit)
	}
	res.Content[at] = mcp.NewTextContent(string(out.JSON))
	if res.StructuredContent != nil {
		res.StructuredContent = json.RawMessage(out.JSON)
	}
	return res
}

// TrustPlan is where the person-written texts, authors and repositories
// are in d's results, from its output type(s).
func (d Def) TrustPlan() *trust.Plan {
	if alts, ok := d.Output.(anyOf); ok {
		return trust.PlanOf(alts...)
	}
	return trust.PlanOf(d.Output)
}

// jsonText returns the result's JSON object text and its index among the
// contents, -1 when it has none.
func jsonText(res *mcp.CallToolResult) (string, int) {
	for i, c := range res.Content {
		if t, ok := c.(mcp.TextContent); ok && len(t.Text) > 0 && t.Text[0] == '{' {
			return t.Text, i
		}
	}
	return "", -1
}
