package tool

import (
	"context"
	"fmt"
	"strings"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/trust"
)

// Repository scoping (--repos, X-MCP-Repos) is checked here, once, before
// any tool's handler runs: the repositories a call names are read from its
// parameters (owner and repo; org and repo; org alone is the
// organisation's level, which needs OWNER/* in the scope), or from
// Reach.Repos for the tools that touch another repository than the one
// their parameters name (a fork's destination, a comparison with a fork).
// A call outside the scope is refused before anything is sent. Results
// that span repositories are filtered afterwards (trust.Pass).

// ReachKind classifies how a tool's repositories are known.
type ReachKind int

const (
	// ReachParams: the call's parameters name its repositories (the
	// default). A tool whose parameters name none is refused under a
	// scope, so a tool nobody classified fails closed.
	ReachParams ReachKind = iota
	// ReachAccount: the call reads or changes a user account, not a
	// repository's content (the token's user, user search): allowed
	// under any scope.
	ReachAccount
	// ReachResults: the call spans repositories (a search, the user's
	// repositories, their notifications) and its results name theirs:
	// allowed, and the parts outside the scope are dropped and counted.
	ReachResults
	// ReachUnknown: which repositories the call touches cannot be known
	// before it is sent (a team or a notification by id): refused under
	// a scope, with Why.
	ReachUnknown
)

// Reach says which repositories a tool's calls touch.
type Reach struct {
	Kind ReachKind
	// Repos, when set, replaces what the parameters say: every
	// repository the call touches. An Owner "" is the token's user; a
	// Repo "*" is the owner's level (an organisation).
	Repos func(a Args) []RepoAt
	// Why explains a ReachUnknown refusal and a ReachAccount exemption.
	Why string
}

// RepoAt is a repository a call touches.
type RepoAt struct{ Owner, Repo string }

// RefOf reads a branch reference that may name a fork ("owner:branch",
// "owner/repo:branch"): the repository it is in when it names another
// owner than owner, and false for a plain branch of the call's own
// repository. "owner:branch" names the owner's fork, whose name the
// forge finds, so it is taken as every repository of that owner.
func RefOf(ref, owner, repo string) (RepoAt, bool) {
	who, _, ok := strings.Cut(ref, ":")
	if !ok || who == "" {
		return RepoAt{}, false
	}
	if o, r, ok := strings.Cut(who, "/"); ok {
		return RepoAt{o, r}, true
	}
	if strings.EqualFold(who, owner) {
		return RepoAt{owner, repo}, true
	}
	return RepoAt{who, "*"}, true
}

// repos returns the repositories d's call with a touches, from Reach.Repos
// or its owner/repo (org/repo, org) parameters.
func (d Def) repos(a Args) []RepoAt {
	if d.Reach.Repos != nil {
		return d.Reach.Repos(a)
	}
	switch {
	case d.param("owner") != nil && d.param("repo") != nil:
		return []RepoAt{{a.String("owner"), a.String("repo")}}
	case d.param("org") != nil && d.param("repo") != nil:
		return []RepoAt{{a.String("org"), a.String("repo")}}
	case d.param("org") != nil:
		return []RepoAt{{a.String("org"), "*"}}
	}
	return nil
}

// ScopeRefusal says why d's call with a is outside the fence f, or "".
// login returns the token's user, asked only for a repository of theirs
// named without an owner.
func (d Def) ScopeRefusal(f trust.Fence, a Args, login func() (string, error)) string {
	if !f.IsSet() {
		return ""
	}
	if d.Offline {
		// It reads no repository (the toolsets of --dynamic-toolsets,
		// the server's version).
		return ""
	}
	switch d.Reach.Kind {
	case ReachAccount, ReachResults:
		return ""
	case ReachUnknown:
		return fmt.Sprintf("%s cannot be used while the server is limited to some repositories (%s): %s", d.Name, f.Describe(), d.Reach.Why)
	}
	refs := d.repos(a)
	if len(refs) == 0 {
		return fmt.Sprintf("%s names no repository, so it cannot be held to the repositories this server is limited to (%s); it is refused", d.Name, f.Describe())
	}
	for _, ref := range refs {
		if ref.Owner == "" {
			me, err := login()
			if err != nil {
				return fmt.Sprintf("%s: the token's user could not be read to check the repository scope (%s): %v", d.Name, f.Describe(), err)
			}
			ref.Owner = me
		}
		if msg := f.Refusal(ref.Owner, ref.Repo); msg != "" {
			return d.Name + ": " + msg
		}
	}
	return ""
}

// TextBy is the author of the texts a tool's result holds without naming
// who wrote them: its Key names the login in the result ("issue_author"),
// and Login asks the forge.
type TextBy struct {
	Key   string
	Login func(ctx context.Context, c *forgejo.Client, a Args) (string, error)
}
