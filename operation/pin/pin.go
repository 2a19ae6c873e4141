// Package pin has the tools that pin issues and pull requests to the top
// of a repository's lists: pin, unpin, move, and list what is pinned.
package pin

import (
	"context"
	"net/http"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Toolset is the pin toolset; every tool of this package is in it.
var Toolset = tool.Toolset{ID: "pin", Description: "Pinned issues and PRs: pin, unpin, reorder, list"}

// Tools returns the pin toolset. Issues and pull requests share one
// numbering and one pin route.
func Tools() []tool.Def {
	at := []tool.Param{tool.Owner(), tool.Repo(), tool.Index()}
	return []tool.Def{
		{
			Name: "list_pinned_issues", Toolset: Toolset,
			Title: "List pinned issues or PRs", Output: tool.ListPage[Pinned]{},
			Description: "List a repository's pinned issues, or its pinned PRs, in pin order",
			Params: []tool.Param{tool.Owner(), tool.Repo(),
				tool.Str("kind", "Which list", tool.Default("issues"), tool.OneOf("issues", "pulls"))},
			Annotations: tool.Read(), Handler: list,
		},
		{
			Name: "pin_issue", Toolset: Toolset,
			Title: "Pin an issue or PR", Output: Pin{},
			Description: "Pin an issue or PR to the top of its repository's list",
			Params:      at, Annotations: tool.Write(true), Handler: pin,
		},
		{
			Name: "unpin_issue", Toolset: Toolset,
			Title: "Unpin an issue or PR", Output: Pin{},
			Description: "Unpin an issue or PR",
			Params:      at, Annotations: tool.Destroy(true), Handler: unpin,
		},
		{
			Name: "move_issue_pin", Toolset: Toolset,
			Title: "Move a pinned issue or PR", Output: Pin{},
			Description: "Move a pinned issue or PR to a position among the pinned, from 1",
			Params:      append(at[:3:3], tool.Int("position", "New position, from 1", tool.Required(), tool.AtLeast(1))),
			Annotations: tool.Destroy(true), Handler: move,
		},
	}
}

// Pinned is a pinned issue or pull request as listed.
type Pinned struct {
	Number   int64  `json:"number"`
	Title    string `json:"title" trust:"text"`
	State    string `json:"state"`
	IsPull   bool   `json:"is_pull,omitempty"`
	Author   string `json:"author" trust:"author"`
	Position int64  `json:"position"`
	HTMLURL  string `json:"html_url"`
}

// Pin is what a pin tool did.
type Pin struct {
	Number   int64 `json:"number"`
	Pinned   bool  `json:"pinned"`
	Position int64 `json:"position,omitempty"`
}

// rawPinned reads both an issue and a pull request: they share these
// members, and only an issue says it is a pull request.
type rawPinned struct {
	Number int64  `json:"number"`
	Title  string `json:"title"`
	State  string `json:"state"`
	User   *struct {
		Login string `json:"login"`
	} `json:"user"`
	PinOrder    int64           `json:"pin_order"`
	HTMLURL     string          `json:"html_url"`
	PullRequest *map[string]any `json:"pull_request"`
}

func list(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	kind := a.String("kind")
	p, err := tool.RepoRoute(a, kind, "pinned")
	if err != nil {
		return nil, err
	}
	var got []rawPinned
	if err := c.DoJSON(ctx, http.MethodGet, p, nil, nil, &got); err != nil {
		what := map[string]string{"issues": "list the pinned issues of", "pulls": "list the pinned PRs of"}[kind]
		return nil, forgejo.Relabel(err, what, tool.RepoRef(a))
	}
	out := make([]Pinned, 0, len(got))
	for _, r := range got {
		p := Pinned{Number: r.Number, Title: r.Title, State: r.State, IsPull: kind == "pulls" || r.PullRequest != nil,
			Position: r.PinOrder, HTMLURL: r.HTMLURL}
		if r.User != nil {
			p.Author = r.User.Login
		}
		out = append(out, p)
	}
	return tool.Items(out, 1, false)
}

func send(ctx context.Context, c *forgejo.Client, a tool.Args, method, verb string, tail ...string) error {
	p, err := tool.RepoRoute(a, append([]string{"issues", tool.Seg(a, "index"), "pin"}, tail...)...)
	if err != nil {
		return err
	}
	if err := c.DoJSON(ctx, method, p, nil, nil, nil); err != nil {
		return forgejo.Relabel(err, verb, tool.IssueRef(a))
	}
	return nil
}

func pin(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	if err := send(ctx, c, a, http.MethodPost, "pin"); err != nil {
		return nil, err
	}
	return tool.JSON(Pin{Number: a.Int("index"), Pinned: true})
}

func unpin(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	if err := send(ctx, c, a, http.MethodDelete, "unpin"); err != nil {
		return nil, err
	}
	return tool.JSON(Pin{Number: a.Int("index"), Pinned: false})
}

func move(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	if err := send(ctx, c, a, http.MethodPatch, "move the pin of", tool.Seg(a, "position")); err != nil {
		return nil, err
	}
	return tool.JSON(Pin{Number: a.Int("index"), Pinned: true, Position: a.Int("position")})
}
