package repo

import (
	"context"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// repoTools returns the tools that read or fork a whole repository.
func repoTools() []tool.Def {
	return []tool.Def{
		{
			Name: "get_repo", Title: "Get a repository", Toolset: Toolset,
			Description: "Get a repository: default branch, your permissions, fork parent, topics",
			Params:      []tool.Param{tool.Owner(), tool.Repo()},
			Annotations: tool.Read(), Handler: getRepo, Output: RepoDetail{},
		},
		{
			Name: "fork_repo", Title: "Fork a repository", Toolset: Toolset,
			Description: "Fork a repository into the token's user or an organisation",
			Params: []tool.Param{tool.Owner(), tool.Repo(),
				tool.Named("organization", "Owning organisation (default: you)").Optional(),
				tool.Named("name", "Fork name (default: the same)").Optional()},
			Annotations: tool.Write(false), Handler: forkRepo, Output: RepoDetail{},
		},
	}
}

// Permissions are what the token's user may do in a repository.
type Permissions struct {
	Admin bool `json:"admin"`
	Push  bool `json:"push"`
	Pull  bool `json:"pull"`
}

// RepoDetail is the shape of one repository read on its own: Repo's
// fields and what an agent checks before working in it.
type RepoDetail struct {
	FullName      string       `json:"full_name" trust:"repo"`
	Description   string       `json:"description,omitempty"`
	DefaultBranch string       `json:"default_branch"`
	Private       bool         `json:"private"`
	Fork          bool         `json:"fork"`
	Parent        string       `json:"parent,omitempty"`
	Archived      bool         `json:"archived"`
	Empty         bool         `json:"empty"`
	Mirror        bool         `json:"mirror,omitempty"`
	Template      bool         `json:"template,omitempty"`
	Permissions   *Permissions `json:"permissions,omitempty"`
	SizeKiB       int64        `json:"size_kib"`
	Topics        []string     `json:"topics"`
	OpenIssues    int          `json:"open_issues"`
	OpenPulls     int          `json:"open_pulls"`
	Stars         int          `json:"stars"`
	Forks         int          `json:"forks"`
	Updated       time.Time    `json:"updated_at"`
	HTMLURL       string       `json:"html_url"`
}

// rawRepository is the part of the forge's repository object RepoDetail
// reads. Raw rather than the SDK's Repository, which has no topics: the
// forge sends them in the same object, so no second call is needed.
type rawRepository struct {
	FullName      string       `json:"full_name"`
	Description   string       `json:"description"`
	DefaultBranch string       `json:"default_branch"`
	Private       bool         `json:"private"`
	Fork          bool         `json:"fork"`
	Archived      bool         `json:"archived"`
	Empty         bool         `json:"empty"`
	Mirror        bool         `json:"mirror"`
	Template      bool         `json:"template"`
	Permissions   *Permissions `json:"permissions"`
	Parent        *struct {
		FullName string `json:"full_name"`
	} `json:"parent"`
	Size       int64     `json:"size"`
	Topics     []string  `json:"topics"`
	OpenIssues int       `json:"open_issues_count"`
	OpenPulls  int       `json:"open_pr_counter"`
	Stars      int       `json:"stars_count"`
	Forks      int       `json:"forks_count"`
	Updated    time.Time `json:"updated_at"`
	HTMLURL    string    `json:"html_url"`
}

func (r *rawRepository) detail() RepoDetail {
	out := RepoDetail{FullName: r.FullName, Description: r.Description, DefaultBranch: r.DefaultBranch,
		Private: r.Private, Fork: r.Fork, Archived: r.Archived, Empty: r.Empty, Mirror: r.Mirror, Template: r.Template,
		Permissions: r.Permissions, SizeKiB: r.Size, Topics: r.Topics, OpenIssues: r.OpenIssues, OpenPulls: r.OpenPulls,
		Stars: r.Stars, Forks: r.Forks, Updated: r.Updated, HTMLURL: r.HTMLURL}
	if r.Parent != nil {
		out.Parent = r.Parent.FullName
	}
	if out.Topics == nil {
		out.Topics = []string{}
	}
	return out
}

func getRepo(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := tool.RepoRoute(a)
	if err != nil {
		return nil, err
	}
	var r rawRepository
	if err := c.DoJSON(ctx, "GET", p, nil, nil, &r); err != nil {
		return nil, forgejo.Relabel(err, "get", tool.RepoRef(a))
	}
	return tool.JSON(r.detail())
}

func forkRepo(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := tool.RepoRoute(a, "forks")
	if err != nil {
		return nil, err
	}
	body := map[string]string{}
	into := "the token's user"
	if org := a.String("organization"); org != "" {
		body["organization"], into = org, "organisation "+org
	}
	if name := a.String("name"); name != "" {
		body["name"] = name
	}
	var r rawRepository
	if err := c.DoJSON(ctx, "POST", p, nil, body, &r); err != nil {
		err = forgejo.Relabel(err, "fork", fmt.Sprintf("%s into %s", tool.RepoRef(a), into))
		if forgejo.IsNotFound(err) && a.String("organization") != "" {
			return nil, fmt.Errorf("fork %s into %s: the repository or the organisation does not exist (404), or this token cannot see it", tool.RepoRef(a), into)
		}
		return nil, forgejo.NotFoundAs(err, tool.RepoRef(a))
	}
	return tool.JSON(r.detail())
}
