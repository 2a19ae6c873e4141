package repoadmin

import (
	"context"
	"fmt"
	"net/http"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Transfer is a repository after a transfer was asked for: where it is
// now and whether the new owner still has to accept it.
type Transfer struct {
	repo.Repo
	Pending bool `json:"pending"`
}

// templateParts are what create_repo_from_template can copy besides the
// description, by the forge's field names.
var templateParts = []string{"git_content", "topics", "labels", "webhooks", "avatar", "git_hooks"}

func lifecycleTools() []tool.Def {
	return []tool.Def{
		{
			Name: "delete_repo", Toolset: LifecycleToolset,
			Title: "Delete a repository", Output: tool.DeletedOutput("full_name", ""),
			Description: "Delete a repository for good: code, issues, PRs, wiki, releases. Cannot be undone",
			Params:      with(tool.Str("confirm", "The repository's owner/repo again, to confirm", tool.Required())),
			Annotations: tool.Destroy(false), Handler: deleteRepo,
		},
		{
			Name: "transfer_repo", Toolset: LifecycleToolset,
			Title: "Transfer a repository", Output: Transfer{},
			Description: "Give a repository to another user or organisation; a user must accept it (pending true)",
			Params: with(tool.Named("new_owner", "User or organisation to receive it"),
				tool.Strs("team_ids", "IDs of the receiving organisation's teams to give access")),
			Annotations: tool.Destroy(false), Handler: transferRepo,
		},
		{
			Name: "accept_repo_transfer", Toolset: LifecycleToolset,
			Title: "Accept a repository transfer", Output: repo.Repo{},
			Description: "Accept a repository offered to the token's user (or an organisation they own)",
			Params:      base(), Annotations: tool.Write(false), Handler: acceptTransfer,
		},
		{
			Name: "reject_repo_transfer", Toolset: LifecycleToolset,
			Title: "Reject a repository transfer", Output: repo.Repo{},
			Description: "Refuse a repository offered to the token's user; it stays with its owner",
			Params:      base(), Annotations: tool.Destroy(false), Handler: rejectTransfer,
		},
		{
			Name: "create_repo_from_template", Toolset: LifecycleToolset,
			Title: "Create a repository from a template", Output: repo.Repo{},
			Description: "Create a repository from a template repository (owner/repo), copying what include names",
			Params: with(tool.Named("name", "Name of the new repository"),
				tool.Str("new_owner", "Its owner, user or organisation (default: the token's user)"),
				tool.Str("description", "Its description", tool.MaxLen(2048)),
				tool.Bool("private", "Make it private", tool.Default(false)),
				tool.Strs("include", "What to copy (default: the git content only)", tool.OneOf(templateParts...))),
			Annotations: tool.Write(false), Handler: generateRepo,
		},
		{
			Name: "convert_mirror_repo", Toolset: LifecycleToolset,
			Title: "Convert a mirror to a repository", Output: repo.Repo{},
			Description: "Stop mirroring: make a pull mirror an ordinary repository. Cannot be undone",
			Params:      base(), Annotations: tool.Destroy(false), Handler: convertMirror,
		},
	}
}

// deleteRepo asks for the repository's name twice, as the forges' web
// pages do: an agent that mixed up two repositories is stopped here.
func deleteRepo(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	if a.String("confirm") != tool.FullName(a) {
		return tool.Error(fmt.Sprintf("confirm must be %q, the repository to delete; nothing was deleted", tool.FullName(a))), nil
	}
	resp, err := c.SDK(ctx).DeleteRepo(a.String("owner"), a.String("repo"))
	if err := forgejo.Fail(resp, err, "delete", tool.RepoRef(a)); err != nil {
		return nil, err
	}
	return tool.Deleted("full_name", tool.FullName(a))
}

// postRepo posts body to the repository's route more and shapes the
// repository the forge answers with; status is the answer's.
func postRepo(ctx context.Context, c *forgejo.Client, a tool.Args, verb string, body any, more ...string) (repo.Repo, error) {
	p, err := tool.RepoRoute(a, more...)
	if err != nil {
		return repo.Repo{}, err
	}
	var r sdk.Repository
	if err := c.DoJSON(ctx, http.MethodPost, p, nil, body, &r); err != nil {
		return repo.Repo{}, forgejo.Relabel(err, verb, tool.RepoRef(a))
	}
	return repo.CompactRepo(&r), nil
}

// transferRepo: the forges move a repository at once to an organisation
// the caller may create repositories in, and otherwise keep it where it is
// until the receiver accepts (202, the repository still under its owner).
func transferRepo(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	body := map[string]any{"new_owner": a.String("new_owner")}
	if a.Has("team_ids") {
		ids := make([]int64, 0, len(a.Strings("team_ids")))
		for _, s := range a.Strings("team_ids") {
			var id int64
			if _, err := fmt.Sscan(s, &id); err != nil || id < 1 {
				return tool.Error(fmt.Sprintf("team_ids: %q is not a team ID (list_org_teams)", s)), nil
			}
			ids = append(ids, id)
		}
		body["team_ids"] = ids
	}
	r, err := postRepo(ctx, c, a, "transfer "+tool.RepoRef(a)+" to", body, "transfer")
	if err != nil {
		return nil, forgejo.Relabel(err, "transfer", tool.RepoRef(a)+" to "+a.String("new_owner"))
	}
	return tool.JSON(Transfer{Repo: r, Pending: r.FullName == tool.FullName(a)})
}

func acceptTransfer(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	r, err := postRepo(ctx, c, a, "accept the transfer of", nil, "transfer", "accept")
	if err != nil {
		return nil, err
	}
	return tool.JSON(r)
}

func rejectTransfer(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	r, err := postRepo(ctx, c, a, "reject the transfer of", nil, "transfer", "reject")
	if err != nil {
		return nil, err
	}
	return tool.JSON(r)
}

func generateRepo(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	owner := a.String("new_owner")
	if owner == "" {
		me, resp, err := c.SDK(ctx).GetMyUserInfo()
		if err := forgejo.Fail(resp, err, "get", "the token's user"); err != nil {
			return nil, err
		}
		owner = me.UserName
	}
	body := map[string]any{"owner": owner, "name": a.String("name"), "description": a.String("description"),
		"private": a.Bool("private")}
	include := a.Strings("include")
	if !a.Has("include") {
		include = []string{"git_content"}
	}
	for _, part := range templateParts {
		body[part] = false
	}
	for _, part := range include {
		body[part] = true
	}
	r, err := postRepo(ctx, c, a, "create "+owner+"/"+a.String("name")+" from template", body, "generate")
	if err != nil {
		return nil, forgejo.Relabel(err, "create "+owner+"/"+a.String("name")+" from template", tool.RepoRef(a))
	}
	return tool.JSON(r)
}

func convertMirror(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	r, err := postRepo(ctx, c, a, "convert the mirror", nil, "convert")
	if err != nil {
		return nil, err
	}
	return tool.JSON(r)
}
