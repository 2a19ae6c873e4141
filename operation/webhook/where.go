package webhook

import (
	"slices"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// where is what a set of webhooks belongs to: a repository, an
// organisation or the token's user. The handlers are the same for the
// three; only the route's head, the parameters naming it and the words
// differ.
type where struct {
	name  string // in tool names: "repo", "org", "my"
	noun  string // in titles: "repository"
	a     string // "a repository"
	whose string // "a repository's"
	// params name it: owner and repo, org, or none.
	params []tool.Param
	// path is the route below it: /repos/o/r/{tail…}.
	path func(a tool.Args, tail ...string) (string, error)
	// ref names a hook's owner after "webhook N": "in o/r".
	ref func(a tool.Args) string
	// subject names it after a verb: "repository o/r".
	subject func(a tool.Args) string
	// toolset is the toolset of their tools; zero is Toolset.
	toolset tool.Toolset
	// site hooks are of two kinds: system (fired by every repository)
	// or default (copied into each new repository).
	site bool
}

// set is the toolset of the hooks' tools.
func (w where) set() tool.Toolset {
	if w.toolset.ID == "" {
		return Toolset
	}
	return w.toolset
}

// with is the parameters naming it, then more.
func (w where) with(more ...tool.Param) []tool.Param { return slices.Concat(w.params, more) }

func repoHooks() where {
	return where{
		name: "repo", noun: "repository", a: "a repository", whose: "a repository's",
		params:  []tool.Param{tool.Owner(), tool.Repo()},
		path:    tool.RepoRoute,
		ref:     func(a tool.Args) string { return "in " + tool.FullName(a) },
		subject: tool.RepoRef,
	}
}

func orgHooks() where {
	return where{
		name: "org", noun: "organisation", a: "an organisation", whose: "an organisation's",
		params: []tool.Param{tool.Org()},
		path: func(a tool.Args, tail ...string) (string, error) {
			return forgejo.Path(slices.Concat([]string{"orgs", a.String("org")}, tail)...)
		},
		ref:     func(a tool.Args) string { return "of organisation " + a.String("org") },
		subject: func(a tool.Args) string { return "organisation " + a.String("org") },
	}
}

// myHooks are the token's user's own webhooks, fired by every repository
// the user owns.
func myHooks() where {
	return where{
		name: "my", noun: "your", a: "your account's", whose: "your account's",
		path: func(_ tool.Args, tail ...string) (string, error) {
			return forgejo.Path(slices.Concat([]string{"user"}, tail)...)
		},
		ref:     func(tool.Args) string { return "of your account" },
		subject: func(tool.Args) string { return "your account" },
	}
}

// siteHooks are the site's webhooks (/admin/hooks): system webhooks,
// fired by every repository of the site, and default webhooks, copied
// into each new repository.
func siteHooks() where {
	return where{
		name: "site", noun: "site", a: "a site", whose: "the site's system and default", site: true,
		path: func(_ tool.Args, tail ...string) (string, error) {
			return forgejo.Path(slices.Concat([]string{"admin"}, tail)...)
		},
		ref:     func(tool.Args) string { return "of the site" },
		subject: func(tool.Args) string { return "the site" },
	}
}
