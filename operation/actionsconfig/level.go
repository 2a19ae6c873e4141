package actionsconfig

import (
	"context"
	"slices"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// level is where secrets and variables live: a repository, an
// organisation (shared by its repositories) or the token's user (shared
// by the user's repositories). One set of tools is built per level, so
// their names, words and checks are the same on each.
type level struct {
	// noun is the middle of a tool's name: list_<noun>_action_secrets.
	noun string
	// title and whose are the level in a title and a description.
	title, whose string
	params       []tool.Param
	// prefix is the route's segments before "actions".
	prefix func(a tool.Args) []string
	// ref names the level's owner in messages: "repository o/r".
	ref func(a tool.Args) string
	// listSecrets is nil where the forges have no route to list them
	// (the user's: Forgejo and Gitea can only set and delete those).
	listSecrets   func(ctx context.Context, c *forgejo.Client, a tool.Args) ([]*sdk.Secret, *sdk.Response, error)
	listVariables func(ctx context.Context, c *forgejo.Client, a tool.Args) ([]*sdk.ActionVariable, *sdk.Response, error)
	// toolset is the toolset of the level's tools; zero is Toolset.
	toolset tool.Toolset
	// oldRunners, when set, is the route head under which Forgejo hands
	// out the registration token and searches waiting jobs at this level
	// (the site's /admin/runners, which every described Forgejo has for
	// the token, where /admin/actions/runners came in 15).
	oldRunners []string
}

// set is the level's toolset.
func (l level) set() tool.Toolset {
	if l.toolset.ID == "" {
		return Toolset
	}
	return l.toolset
}

// siteLevel is the whole site's runners, for a site administrator: its
// tools belong to ts (the admin toolset, which this package does not
// import: it imports this one).
func siteLevel(ts tool.Toolset) level {
	return level{
		noun: "site", title: "site", whose: "the site's",
		prefix:     func(tool.Args) []string { return []string{"admin"} },
		ref:        func(tool.Args) string { return "the site" },
		toolset:    ts,
		oldRunners: []string{"admin", "runners"},
	}
}

// SiteRunnerTools are the runner tools of the whole site (the site
// administrator's: the forge answers 403 to anyone else), in toolset ts.
func SiteRunnerTools(ts tool.Toolset) []tool.Def { return siteLevel(ts).runnerTools() }

func levels() []level {
	return []level{
		{
			noun: "repo", title: "repository", whose: "a repository's",
			params: []tool.Param{tool.Owner(), tool.Repo()},
			prefix: func(a tool.Args) []string { return []string{"repos", a.String("owner"), a.String("repo")} },
			ref:    tool.RepoRef,
			listSecrets: func(ctx context.Context, c *forgejo.Client, a tool.Args) ([]*sdk.Secret, *sdk.Response, error) {
				return c.SDK(ctx).ListRepoActionSecret(a.String("owner"), a.String("repo"),
					sdk.ListRepoActionSecretOption{ListOptions: tool.ListOptions(a)})
			},
			listVariables: func(ctx context.Context, c *forgejo.Client, a tool.Args) ([]*sdk.ActionVariable, *sdk.Response, error) {
				return c.SDK(ctx).ListRepoActionVariables(a.String("owner"), a.String("repo"), tool.ListOptions(a))
			},
		},
		{
			noun: "org", title: "organisation", whose: "an organisation's",
			params: []tool.Param{tool.Org()},
			prefix: func(a tool.Args) []string { return []string{"orgs", a.String("org")} },
			ref:    func(a tool.Args) string { return "organisation " + a.String("org") },
			listSecrets: func(ctx context.Context, c *forgejo.Client, a tool.Args) ([]*sdk.Secret, *sdk.Response, error) {
				return c.SDK(ctx).ListOrgActionSecret(a.String("org"), sdk.ListOrgActionSecretOption{ListOptions: tool.ListOptions(a)})
			},
			listVariables: func(ctx context.Context, c *forgejo.Client, a tool.Args) ([]*sdk.ActionVariable, *sdk.Response, error) {
				return c.SDK(ctx).ListOrgActionVariables(a.String("org"), tool.ListOptions(a))
			},
		},
		{
			noun: "my", title: "user", whose: "the token user's",
			prefix: func(tool.Args) []string { return []string{"user"} },
			ref:    func(tool.Args) string { return "the token's user" },
			listVariables: func(ctx context.Context, c *forgejo.Client, a tool.Args) ([]*sdk.ActionVariable, *sdk.Response, error) {
				return c.SDK(ctx).ListUserActionVariables(tool.ListOptions(a))
			},
		},
	}
}

// route is the level's …/actions/{kind}/{name} route, every segment
// escaped.
func (l level) route(a tool.Args, kind string) (string, error) {
	return forgejo.Path(slices.Concat(l.prefix(a), []string{"actions", kind, a.String("name")})...)
}

// with is the level's parameters followed by more.
func (l level) with(more ...tool.Param) []tool.Param { return slices.Concat(l.params, more) }
