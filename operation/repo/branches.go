package repo

import (
	"context"
	"fmt"
	"strings"
	"time"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// historyTools returns the branch and commit tools.
func historyTools() []tool.Def {
	return []tool.Def{
		{
			Name: "list_branches", Toolset: Toolset,
			Title: "List branches", Output: tool.ListPage[Branch]{},
			Description: "List branches",
			Params:      []tool.Param{tool.Owner(), tool.Repo(), tool.Page(), tool.Limit()},
			Annotations: tool.Read(), Handler: listBranches,
		},
		{
			Name: "create_branch", Toolset: Toolset,
			Title: "Create a branch", Output: Branch{},
			Description: "Create a branch",
			Params: []tool.Param{tool.Owner(), tool.Repo(),
				tool.Str("branch", "New branch name", tool.Required()),
				tool.Str("from", "Base branch (default: default branch)")},
			Annotations: tool.Write(false), Handler: createBranch,
		},
		{
			Name: "list_repo_commits", Toolset: Toolset,
			Title: "List commits", Output: tool.ListPage[Commit]{},
			Description: "List commits, newest first",
			Params: []tool.Param{tool.Owner(), tool.Repo(),
				tool.Str("sha", "Branch, tag or commit"),
				tool.Str("path", "Path filter"),
				tool.Page(), tool.Limit()},
			Annotations: tool.Read(), Handler: listCommits,
		},
	}
}

// Branch is the compact shape of a branch.
type Branch struct {
	Name      string `json:"name"`
	Commit    string `json:"commit"`
	Message   string `json:"message,omitempty" trust:"text"`
	Protected bool   `json:"protected,omitempty"`
}

func compactBranch(b *sdk.Branch) Branch {
	out := Branch{Name: b.Name, Protected: b.Protected}
	if b.Commit != nil {
		out.Commit, out.Message = b.Commit.ID, firstLine(b.Commit.Message)
	}
	return out
}

// Commit is the compact shape of a commit.
type Commit struct {
	SHA     string `json:"sha"`
	Message string `json:"message" trust:"text"`
	// Author is the login of the forge account the commit's author email
	// belongs to; AuthorName is the name the commit gives when the forge
	// has no such account (a name anyone can write, so never a login).
	Author     string    `json:"author,omitempty" trust:"author"`
	AuthorName string    `json:"author_name,omitempty"`
	Date       time.Time `json:"date"`
}

func compactCommit(c *sdk.Commit) Commit {
	out := Commit{}
	if c.CommitMeta != nil {
		out.SHA, out.Date = c.SHA, c.Created
	}
	if rc := c.RepoCommit; rc != nil {
		out.Message = firstLine(rc.Message)
		if rc.Author != nil {
			out.AuthorName = rc.Author.Name
			if t, err := time.Parse(time.RFC3339, rc.Author.Date); err == nil {
				out.Date = t
			}
		}
	}
	if c.Author != nil && c.Author.UserName != "" {
		out.Author, out.AuthorName = c.Author.UserName, ""
	}
	return out
}

// firstLine is a commit message's subject, bounded.
func firstLine(msg string) string {
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return forgejo.Sanitize(msg, 200)
}

func listBranches(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	list, resp, err := c.SDK(ctx).ListRepoBranches(a.String("owner"), a.String("repo"), sdk.ListRepoBranchesOptions{
		ListOptions: tool.ListOptions(a)})
	if err := forgejo.Fail(resp, err, "list branches of", tool.RepoRef(a)); err != nil {
		return nil, err
	}
	return tool.ListResult(a, resp, list, compactBranch)
}

func createBranch(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	b, resp, err := c.SDK(ctx).CreateBranch(a.String("owner"), a.String("repo"), sdk.CreateBranchOption{
		BranchName: a.String("branch"), OldBranchName: a.String("from")})
	subject := fmt.Sprintf("branch %s in %s", a.String("branch"), tool.FullName(a))
	if err := forgejo.Fail(resp, err, "create", subject); err != nil {
		// The new branch is never what is missing: the repository or the
		// base is ("The old branch does not exist").
		err = forgejo.NotFoundAs(err, tool.RepoRef(a))
		if from := a.String("from"); from != "" {
			err = whichMissing(ctx, c, a, err, fmt.Sprintf("base branch %q", from), from, "")
		}
		return nil, err
	}
	return tool.JSON(compactBranch(b))
}

func listCommits(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	list, resp, err := c.SDK(ctx).ListRepoCommits(a.String("owner"), a.String("repo"), sdk.ListCommitOptions{
		ListOptions: tool.ListOptions(a), SHA: a.String("sha"), Path: a.String("path")})
	if err := forgejo.Fail(resp, err, "list commits of", tool.RepoRef(a)); err != nil {
		return nil, whichMissing(ctx, c, a, err, fmt.Sprintf("branch, tag or commit %q", a.String("sha")), a.String("sha"), a.String("path"))
	}
	return tool.ListResult(a, resp, list, compactCommit)
}

// whichMissing names what a 404 of a route that takes a ref (and a path)
// is about: the forge says only "not found", whether the repository, the
// ref or the path is missing. It asks the forge which one, on this error
// path only; when it cannot tell, err is returned as it is. refWhat names
// ref in the message ("branch, tag or commit \"x\"").
func whichMissing(ctx context.Context, c *forgejo.Client, a tool.Args, err error, refWhat, ref, path string) error {
	if !forgejo.IsNotFound(err) {
		return err
	}
	owner, repo := a.String("owner"), a.String("repo")
	if _, resp, rerr := c.SDK(ctx).GetRepo(owner, repo); rerr != nil {
		if forgejo.IsNotFound(forgejo.Fail(resp, rerr, "get", "")) {
			return forgejo.NotFoundAs(err, tool.RepoRef(a))
		}
		return err
	}
	if ref != "" {
		_, resp, cerr := c.SDK(ctx).GetSingleCommit(owner, repo, ref)
		if forgejo.IsNotFound(forgejo.Fail(resp, cerr, "get", "")) {
			return forgejo.NotFoundAs(err, fmt.Sprintf("%s in %s/%s", refWhat, owner, repo))
		}
	}
	if path != "" {
		at := ""
		if ref != "" {
			at = "@" + ref
		}
		return fmt.Errorf("no commit touches path %q in %s/%s%s (404): check the path with list_repo_contents", path, owner, repo, at)
	}
	return err
}
