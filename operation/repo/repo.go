// Package repo has the repository tools.
package repo

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Toolset is the repo toolset; every tool of this package is in it.
var Toolset = tool.Toolset{ID: "repo", Description: "Repositories, branches and commits"}

// CodeToolset has the file tools an agent needs every day, so it is in the
// default selection: reading files and directories, and change_files, which
// creates, updates and deletes any number of files in one commit.
var CodeToolset = tool.Toolset{ID: "code", Description: "Files: read files and directories; change several files in one commit", Default: true}

// FileToolset has the one-file writes (the established server's names),
// which change_files covers: out of the default to keep it lean.
var FileToolset = tool.Toolset{ID: "file", Description: "One-file writes: create, update or delete a file in its own commit"}

// Tools returns the repo toolset.
func Tools() []tool.Def {
	return slices.Concat([]tool.Def{
		{
			Name: "list_my_repos", Toolset: Toolset,
			Title: "List my repositories", Output: tool.ListPage[Repo]{},
			Description: "List repositories the token's user owns or can access",
			Params:      []tool.Param{tool.Page(), tool.Limit()},
			Annotations: tool.Read(), Handler: listMyRepos,
		},
		{
			Name: "create_repo", Toolset: Toolset,
			Title: "Create a repository", Output: Repo{},
			Description: "Create a repository owned by the token's user or by an organisation",
			Params: []tool.Param{
				tool.Named("name", "Name of the new repository"),
				tool.Str("description", "Short description", tool.MaxLen(2048)),
				tool.Bool("private", "Make the repository private", tool.Default(false)),
				tool.Bool("auto_init", "Create an initial commit with a README", tool.Default(false)),
				tool.Str("default_branch", "Name of the default branch when auto_init is set", tool.MaxLen(255)),
				tool.Str("org", "Organisation to own the repository (default: the token's user)"),
				tool.Str("license", "License file of the initial commit, by key such as MIT or Apache-2.0 (implies auto_init)"),
				tool.Strs("gitignores", "Templates of the initial .gitignore, such as Go or Python (implies auto_init)"),
				tool.Bool("template", "Mark the repository as a template for new ones", tool.Default(false)),
			},
			Annotations: tool.Write(false), Handler: createRepo,
		},
	}, ownedTools(), historyTools(), fileTools(), []tool.Def{changeFilesTool()}, codeTools())
}

// Repo is the compact shape of a repository; CompactRepo makes it.
type Repo struct {
	FullName      string    `json:"full_name" trust:"repo"`
	Description   string    `json:"description,omitempty"`
	Private       bool      `json:"private"`
	Fork          bool      `json:"fork,omitempty"`
	Archived      bool      `json:"archived,omitempty"`
	Empty         bool      `json:"empty,omitempty"`
	DefaultBranch string    `json:"default_branch"`
	OpenIssues    int       `json:"open_issues"`
	OpenPulls     int       `json:"open_pulls"`
	Stars         int       `json:"stars"`
	Updated       time.Time `json:"updated_at"`
	HTMLURL       string    `json:"html_url"`
}

func CompactRepo(r *sdk.Repository) Repo {
	return Repo{FullName: r.FullName, Description: r.Description, Private: r.Private, Fork: r.Fork,
		Archived: r.Archived, Empty: r.Empty, DefaultBranch: r.DefaultBranch, OpenIssues: r.OpenIssues,
		OpenPulls: r.OpenPulls, Stars: r.Stars, Updated: r.Updated, HTMLURL: r.HTMLURL}
}

func listMyRepos(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	repos, resp, err := c.SDK(ctx).ListMyRepos(sdk.ListReposOptions{ListOptions: tool.ListOptions(a)})
	if err := forgejo.Fail(resp, err, "list", "the token user's repositories"); err != nil {
		return nil, err
	}
	return tool.ListResult(a, resp, repos, CompactRepo)
}

func createRepo(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	name, org := a.String("name"), a.String("org")
	license, gitignores := a.String("license"), a.Strings("gitignores")
	// The forge answers an unknown license or template with a 500 about a
	// missing file, after it has begun creating: check them first.
	if license != "" {
		if err := checkTemplates(ctx, c, "/licenses", "license", []string{license}); err != nil {
			return nil, err
		}
	}
	if len(gitignores) > 0 {
		if err := checkTemplates(ctx, c, "/gitignore/templates", "gitignore template", gitignores); err != nil {
			return nil, err
		}
	}
	opt := sdk.CreateRepoOption{
		Name: name, Description: a.String("description"), Private: a.Bool("private"),
		AutoInit: a.Bool("auto_init") || license != "" || len(gitignores) > 0, DefaultBranch: a.String("default_branch"),
		License: license, Gitignores: strings.Join(gitignores, ","), Template: a.Bool("template"),
	}
	if org != "" {
		r, resp, err := c.SDK(ctx).CreateOrgRepo(org, opt)
		if err := forgejo.Fail(resp, err, "create", fmt.Sprintf("repository %q in %s", name, org)); err != nil {
			return nil, forgejo.NotFoundAs(err, "organisation "+org) // the only thing that can be missing
		}
		return tool.JSON(CompactRepo(r))
	}
	r, resp, err := c.SDK(ctx).CreateRepo(opt)
	if err := forgejo.Fail(resp, err, "create", fmt.Sprintf("repository %q", name)); err != nil {
		return nil, err
	}
	return tool.JSON(CompactRepo(r))
}

// checkTemplates refuses names the forge does not offer at listPath
// (/licenses, /gitignore/templates), listing the ones it does.
func checkTemplates(ctx context.Context, c *forgejo.Client, listPath, what string, names []string) error {
	var known []string
	if listPath == "/licenses" {
		var list []struct {
			Key string `json:"key"`
		}
		if err := c.DoJSON(ctx, "GET", listPath, nil, nil, &list); err != nil {
			return forgejo.Relabel(err, "list", "the forge's licenses")
		}
		for _, l := range list {
			known = append(known, l.Key)
		}
	} else if err := c.DoJSON(ctx, "GET", listPath, nil, nil, &known); err != nil {
		return forgejo.Relabel(err, "list", "the forge's gitignore templates")
	}
	for _, n := range names {
		if !slices.Contains(known, n) {
			return fmt.Errorf("unknown %s %q; the forge offers: %s", what, n, strings.Join(known, ", "))
		}
	}
	return nil
}
