// Package trust is what the server does about the trust boundary between
// the user whose token it holds and the people whose text it reads:
// repository scoping (a server or a request restricted to some
// repositories), lockdown (text by people without write access to a public
// repository withheld) and author marks (every piece of user-written text
// says who wrote it and their relation to the repository). The tool
// pipeline (pkg/tool's Runner) applies all three to every call, so every
// tool, resource and prompt is covered by the same code.
package trust

import (
	"context"
	"fmt"
	"regexp"
	"strings"
)

// namePattern is what the forge accepts as a user, organisation or
// repository name (the same as pkg/tool's).
var namePattern = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

// Scope is a set of repositories: OWNER/REPO names, and OWNER/* for every
// repository of an owner. The zero Scope restricts nothing. Names are
// compared without regard to case, as the forge compares them.
type Scope struct {
	rules []rule
	// Source names where the scope comes from (--repos, X-MCP-Repos), for
	// messages.
	Source string
}

// rule is one entry: owner and repo lower-cased for matching (repo "*"
// is every repository), as the entry as given for messages.
type rule struct{ owner, repo, as string }

// ParseScope reads a comma-separated list of OWNER/REPO and OWNER/*; source
// names the flag or header it came from. Blank entries are skipped; a list
// with none is an error, since an empty scope would reach nothing and is
// almost always a variable that was not set.
func ParseScope(spec, source string) (Scope, error) {
	s := Scope{Source: source}
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		owner, repo, ok := strings.Cut(part, "/")
		switch {
		case !ok || strings.Contains(repo, "/"):
			return Scope{}, fmt.Errorf("%s: %q is not OWNER/REPO or OWNER/*", source, part)
		case !validName(owner):
			return Scope{}, fmt.Errorf("%s: %q: the owner must be a user or organisation name (letters, digits, '-', '_' and '.')", source, part)
		case repo != "*" && !validName(repo):
			return Scope{}, fmt.Errorf("%s: %q: the repository must be a name (letters, digits, '-', '_' and '.') or * for all of %s's", source, part, owner)
		}
		s.rules = append(s.rules, rule{strings.ToLower(owner), strings.ToLower(repo), part})
	}
	if len(s.rules) == 0 {
		return Scope{}, fmt.Errorf("%s is blank: name at least one OWNER/REPO or OWNER/*", source)
	}
	return s, nil
}

func validName(s string) bool {
	return len(s) <= 100 && namePattern.MatchString(s) && s != "." && s != ".."
}

// IsSet reports whether s restricts anything.
func (s Scope) IsSet() bool { return len(s.rules) > 0 }

// Allows reports whether s reaches the repository owner/repo.
func (s Scope) Allows(owner, repo string) bool {
	if !s.IsSet() {
		return true
	}
	owner, repo = strings.ToLower(owner), strings.ToLower(repo)
	for _, r := range s.rules {
		if r.owner == owner && (r.repo == "*" || r.repo == repo) {
			return true
		}
	}
	return false
}

// AllowsOwner reports whether s reaches every repository of owner (an
// OWNER/* entry): what an organisation-level call needs.
func (s Scope) AllowsOwner(owner string) bool {
	return s.Allows(owner, "*")
}

// AllowsSomeOf reports whether s reaches at least one repository of owner.
func (s Scope) AllowsSomeOf(owner string) bool {
	if !s.IsSet() {
		return true
	}
	owner = strings.ToLower(owner)
	for _, r := range s.rules {
		if r.owner == owner {
			return true
		}
	}
	return false
}

// String lists the entries as they were given.
func (s Scope) String() string {
	parts := make([]string, len(s.rules))
	for i, r := range s.rules {
		parts[i] = r.as
	}
	return strings.Join(parts, ",")
}

// Fence is the scopes in force for a call: the server's and the request's.
// A repository is reachable only when every one of them allows it, so a
// request's scope can narrow the server's but never widen it.
type Fence []Scope

// IsSet reports whether any scope of f restricts anything.
func (f Fence) IsSet() bool {
	for _, s := range f {
		if s.IsSet() {
			return true
		}
	}
	return false
}

// Allows reports whether every scope of f reaches owner/repo.
func (f Fence) Allows(owner, repo string) bool { return f.Refusing(owner, repo) == nil }

// AllowsOwner reports whether every scope of f reaches all of owner's
// repositories.
func (f Fence) AllowsOwner(owner string) bool { return f.Refusing(owner, "*") == nil }

// AllowsSomeOf reports whether every scope of f reaches at least one
// repository of owner.
func (f Fence) AllowsSomeOf(owner string) bool {
	for _, s := range f {
		if !s.AllowsSomeOf(owner) {
			return false
		}
	}
	return true
}

// Refusing returns the first scope of f that does not reach owner/repo
// (repo "*": all of owner's), nil when all do.
func (f Fence) Refusing(owner, repo string) *Scope {
	for i := range f {
		if !f[i].Allows(owner, repo) {
			return &f[i]
		}
	}
	return nil
}

// Describe names the fence for a message: each scope with its source.
func (f Fence) Describe() string {
	var parts []string
	for _, s := range f {
		if s.IsSet() {
			parts = append(parts, s.Source+" "+s.String())
		}
	}
	return strings.Join(parts, "; ")
}

// Refusal is the message for a call that would reach owner/repo (repo "*"
// or "": an organisation-level call on owner) outside f, or "".
func (f Fence) Refusal(owner, repo string) string {
	what := owner + "/" + repo
	if repo == "" || repo == "*" {
		repo, what = "*", "organisation-level data of "+owner+" (it needs "+owner+"/* in the scope)"
	}
	s := f.Refusing(owner, repo)
	if s == nil {
		return ""
	}
	return fmt.Sprintf("%s is outside the repositories this server may reach (%s %s); nothing was sent to the forge", what, s.Source, s.String())
}

type scopeKey struct{}

// WithScope returns ctx with s added to its fence: a request narrowed by
// the transport (X-MCP-Repos). An unset s adds nothing.
func WithScope(ctx context.Context, s Scope) context.Context {
	if !s.IsSet() {
		return ctx
	}
	f := append(Fence{}, FenceOf(ctx)...)
	return context.WithValue(ctx, scopeKey{}, append(f, s))
}

// FenceOf returns the scopes ctx's request was narrowed to.
func FenceOf(ctx context.Context) Fence {
	f, _ := ctx.Value(scopeKey{}).(Fence)
	return f
}

type lockdownKey struct{}

// WithLockdown returns ctx with lockdown switched on for its request (the
// transport's X-MCP-Lockdown). Nothing switches it off again.
func WithLockdown(ctx context.Context) context.Context {
	return context.WithValue(ctx, lockdownKey{}, true)
}

// LockdownOf reports whether ctx's request switched lockdown on.
func LockdownOf(ctx context.Context) bool {
	on, _ := ctx.Value(lockdownKey{}).(bool)
	return on
}
