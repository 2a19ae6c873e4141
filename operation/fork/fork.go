// Package fork has the tools of a contributor working from a fork: list
// a repository's forks, see how far a fork's branch is behind its
// upstream, and bring it up to date. fork_repo (in the repo toolset)
// makes one.
package fork

import (
	"context"
	"net/http"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Toolset is the fork toolset; every tool of this package is in it.
var Toolset = tool.Toolset{ID: "fork", Description: "Forks: list them, sync a fork with its upstream"}

// The routes that bring a fork up to date: Forgejo's sync_fork (the
// default branch, or a named one) and Gitea's merge-upstream. Each forge
// has one of them (pkg/forgejo compat.go).
const (
	syncDefault = "/repos/{owner}/{repo}/sync_fork"
	syncBranch  = "/repos/{owner}/{repo}/sync_fork/{branch}"
	mergeUp     = "/repos/{owner}/{repo}/merge-upstream"
)

// Tools returns the fork toolset.
func Tools() []tool.Def {
	branch := tool.Str("branch", "Fork's branch (default: its default branch)", tool.MaxLen(255))
	return []tool.Def{
		{
			Name: "list_repo_forks", Toolset: Toolset,
			Title: "List forks", Output: tool.ListPage[repo.Repo]{},
			Description: "List a repository's forks",
			Params:      []tool.Param{tool.Owner(), tool.Repo(), tool.Page(), tool.Limit()}, Annotations: tool.Read(), Handler: list,
		},
		{
			Name: "get_fork_sync_status", Toolset: Toolset,
			Title: "How far a fork is behind", Output: Status{},
			Description: "How many commits a fork's branch is behind its upstream's, and whether sync_fork can bring it up (Forgejo)",
			Params:      []tool.Param{tool.Owner(), tool.Repo(), branch}, Annotations: tool.Read(), Handler: status,
		},
		{
			Name: "sync_fork", Toolset: Toolset,
			Title: "Sync a fork", Output: Synced{},
			Description: "Bring a fork's branch up to date with its upstream's (fast-forward or merge)",
			Params: []tool.Param{tool.Owner(), tool.Repo(), branch,
				tool.Bool("ff_only", "Only fast-forward, fail if diverged (Gitea; Forgejo's sync takes no option)")},
			Annotations: tool.Write(true), Handler: syncFork,
		},
	}
}

// Status is how a fork's branch stands against its upstream's.
type Status struct {
	Branch        string `json:"branch,omitempty"`
	Allowed       bool   `json:"can_sync"`
	CommitsBehind int64  `json:"commits_behind"`
	ForkCommit    string `json:"fork_commit"`
	BaseCommit    string `json:"upstream_commit"`
}

// Synced is what sync_fork did.
type Synced struct {
	Synced bool   `json:"synced"`
	Branch string `json:"branch"`
	// How is Gitea's answer: "fast-forward", "merge" or "" when already
	// up to date; Forgejo's route says nothing.
	How string `json:"how,omitempty"`
}

func list(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	forks, resp, err := c.SDK(ctx).ListForks(a.String("owner"), a.String("repo"), sdk.ListForksOptions{ListOptions: tool.ListOptions(a)})
	if err := forgejo.Fail(resp, err, "list forks of", tool.RepoRef(a)); err != nil {
		return nil, err
	}
	return tool.ListResult(a, resp, forks, repo.CompactRepo)
}

// syncRoute is Forgejo's sync_fork route for the branch argument; an
// empty branch given is refused by forgejo.Path, never read as none.
func syncRoute(a tool.Args) (string, error) {
	if a.Has("branch") {
		return tool.RepoRoute(a, "sync_fork", a.String("branch"))
	}
	return tool.RepoRoute(a, "sync_fork")
}

func forkRef(a tool.Args) string { return "fork " + tool.FullName(a) }

func status(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := syncRoute(a)
	if err != nil {
		return nil, err
	}
	var info struct {
		Allowed       bool   `json:"allowed"`
		BaseCommit    string `json:"base_commit"`
		CommitsBehind int64  `json:"commits_behind"`
		ForkCommit    string `json:"fork_commit"`
	}
	if err := c.DoJSON(ctx, http.MethodGet, p, nil, nil, &info); err != nil {
		return nil, forgejo.Relabel(err, "read the sync status of", forkRef(a))
	}
	return tool.JSON(Status{Branch: a.String("branch"), Allowed: info.Allowed, CommitsBehind: info.CommitsBehind,
		ForkCommit: info.ForkCommit, BaseCommit: info.BaseCommit})
}

// syncFork takes Forgejo's sync_fork route, or Gitea's merge-upstream
// where the forge lacks it (refused by the gate, or a router 404 from a
// forge whose version is not known). merge-upstream needs the branch,
// so the fork's default branch is read when none is given. Forgejo's
// route takes no options: ff_only goes to merge-upstream only.
func syncFork(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	branch := a.String("branch")
	tpl := syncDefault
	if a.Has("branch") {
		tpl = syncBranch
	}
	if c.Require(ctx, http.MethodPost, tpl) == nil {
		p, err := syncRoute(a)
		if err != nil {
			return nil, err
		}
		err = c.DoJSON(ctx, http.MethodPost, p, nil, nil, nil)
		if err == nil {
			return tool.JSON(Synced{Synced: true, Branch: branch})
		}
		if !forgejo.IsNoRoute(err) {
			return nil, forgejo.Relabel(err, "sync", forkRef(a))
		}
	}
	if branch == "" {
		r, resp, err := c.SDK(ctx).GetRepo(a.String("owner"), a.String("repo"))
		if err := forgejo.Fail(resp, err, "read", forkRef(a)); err != nil {
			return nil, err
		}
		branch = r.DefaultBranch
	}
	p, err := tool.RepoRoute(a, "merge-upstream")
	if err != nil {
		return nil, err
	}
	body := map[string]any{"branch": branch}
	if a.Has("ff_only") {
		body["ff_only"] = a.Bool("ff_only")
	}
	var out struct {
		MergeType string `json:"merge_type"`
	}
	if err := c.DoJSON(ctx, http.MethodPost, p, nil, body, &out); err != nil {
		return nil, forgejo.Relabel(err, "sync", forkRef(a))
	}
	return tool.JSON(Synced{Synced: true, Branch: branch, How: out.MergeType})
}
