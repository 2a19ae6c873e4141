// Package block has the tools that keep a user away from the token's user
// or an organisation: list blocked users, block, unblock. Forgejo and
// Gitea name these routes differently; each tool takes the one the forge
// has.
package block

import (
	"context"
	"net/http"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Toolset is the block toolset; every tool of this package is in it.
var Toolset = tool.Toolset{ID: "block", Description: "Blocked users of your account or an organisation: list, block, unblock"}

// Tools returns the block toolset.
func Tools() []tool.Def {
	org := tool.Str("org", "Organisation (default: your account)", tool.MaxLen(100))
	user := tool.Named("username", "User login to block or unblock")
	return []tool.Def{
		{
			Name: "list_blocked_users", Toolset: Toolset, Title: "List blocked users", Output: tool.ListPage[Blocked]{},
			Description: "List the users your account, or an organisation, blocks",
			Params:      []tool.Param{org, tool.Page(), tool.Limit()}, Annotations: tool.Read(), Handler: list,
		},
		{
			Name: "block_user", Toolset: Toolset, Title: "Block a user", Output: Done{},
			Description: "Block a user from your account, or an organisation: they can no longer interact with it",
			Params:      []tool.Param{user, org}, Annotations: tool.Destroy(true), Handler: blockUser,
		},
		{
			Name: "unblock_user", Toolset: Toolset, Title: "Unblock a user", Output: Done{},
			Description: "Unblock a user from your account, or an organisation",
			Params:      []tool.Param{user, org}, Annotations: tool.Destroy(true), Handler: unblockUser,
		},
	}
}

// Blocked is a blocked user. Forgejo's list gives only the user's ID and
// when; Gitea's gives the user.
type Blocked struct {
	UserID  int64      `json:"user_id"`
	Login   string     `json:"login,omitempty"`
	Blocked *time.Time `json:"blocked_at,omitempty"`
}

// Done is what block_user and unblock_user did.
type Done struct {
	Username string `json:"username"`
	Blocked  bool   `json:"blocked"`
	By       string `json:"by"`
}

// route is one flavour's route: a method, the template the route table
// knows it by, and its segments for this call.
type route struct {
	method, tpl string
	segs        []string
}

// base is the route's head and template head for the org argument: the
// token's user or an organisation.
func base(a tool.Args) (segs []string, tpl, who string) {
	if a.Has("org") {
		return []string{"orgs", a.String("org")}, "/orgs/{org}", "organisation " + a.String("org")
	}
	return []string{"user"}, "/user", "your account"
}

// at is a route below base.
func at(a tool.Args, method string, tail ...string) route {
	segs, tpl, _ := base(a)
	r := route{method: method, tpl: tpl, segs: append(segs, tail...)}
	for i, s := range tail {
		if i == len(tail)-1 && len(tail) > 1 {
			s = "{username}"
		}
		r.tpl += "/" + s
	}
	return r
}

// send sends Forgejo's route, or Gitea's where the forge lacks it: refused
// by the gate, or a router 404 from a forge whose version is not known.
func send(ctx context.Context, c *forgejo.Client, forgejoWay, giteaWay route, query map[string][]string, out any) error {
	r := forgejoWay
	if c.Require(ctx, r.method, r.tpl) != nil {
		r = giteaWay
	}
	err := do(ctx, c, r, query, out)
	if r.tpl == forgejoWay.tpl && forgejo.IsNoRoute(err) {
		err = do(ctx, c, giteaWay, query, out)
	}
	return err
}

func do(ctx context.Context, c *forgejo.Client, r route, query map[string][]string, out any) error {
	p, err := forgejo.Path(r.segs...)
	if err != nil {
		return err
	}
	return c.DoJSON(ctx, r.method, p, query, nil, out)
}

// listed reads both flavours' items: Forgejo's BlockedUser, Gitea's User.
type listed struct {
	BlockID int64     `json:"block_id"`
	Created time.Time `json:"created_at"`
	ID      int64     `json:"id"`
	Login   string    `json:"login"`
}

func list(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	_, _, who := base(a)
	var got []*listed
	if err := send(ctx, c, at(a, http.MethodGet, "list_blocked"), at(a, http.MethodGet, "blocks"), tool.PageQuery(a), &got); err != nil {
		return nil, forgejo.Relabel(err, "list the users blocked by", who)
	}
	return tool.ListResult(a, nil, got, func(l *listed) Blocked {
		if l.Login != "" {
			return Blocked{UserID: l.ID, Login: l.Login}
		}
		return Blocked{UserID: l.BlockID, Blocked: forgejo.TimePtr(&l.Created)}
	})
}

func blockUser(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	u := a.String("username")
	_, _, who := base(a)
	if err := send(ctx, c, at(a, http.MethodPut, "block", u), at(a, http.MethodPut, "blocks", u), nil, nil); err != nil {
		return nil, forgejo.Relabel(err, "block user "+u+" from", who)
	}
	return tool.JSON(Done{Username: u, Blocked: true, By: who})
}

func unblockUser(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	u := a.String("username")
	_, _, who := base(a)
	if err := send(ctx, c, at(a, http.MethodPut, "unblock", u), at(a, http.MethodDelete, "blocks", u), nil, nil); err != nil {
		return nil, forgejo.Relabel(err, "unblock user "+u+" from", who)
	}
	return tool.JSON(Done{Username: u, Blocked: false, By: who})
}
