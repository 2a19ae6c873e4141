// Package user has the tools about the authenticated user.
package user

import (
	"context"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Toolset is the user toolset; every tool of this package is in it.
var Toolset = tool.Toolset{ID: "user", Description: "The token's user", Default: true}

// NotificationToolset has the notification tools.
var NotificationToolset = tool.Toolset{ID: "notification", Description: "Notifications: list, read, mark read"}

// Tools returns the user toolset.
func Tools() []tool.Def {
	return append([]tool.Def{{
		Name: "get_my_user_info", Toolset: Toolset,
		Title: "Get my user", Output: User{},
		Description: "Get the token's user: login, name, email, admin flag",
		Annotations: tool.Read(), Handler: getMyUserInfo,
	}}, notificationTools()...)
}

// User is the compact shape of a forge user.
type User struct {
	ID       int64     `json:"id"`
	Login    string    `json:"login"`
	FullName string    `json:"full_name,omitempty"`
	Email    string    `json:"email,omitempty"`
	IsAdmin  bool      `json:"is_admin"`
	Created  time.Time `json:"created"`
	HTMLURL  string    `json:"html_url"`
}

func getMyUserInfo(ctx context.Context, c *forgejo.Client, _ tool.Args) (*mcp.CallToolResult, error) {
	u, resp, err := c.SDK(ctx).GetMyUserInfo()
	if err := forgejo.Fail(resp, err, "get", "the token's user"); err != nil {
		return nil, err
	}
	return tool.JSON(User{ID: u.ID, Login: u.UserName, FullName: u.FullName, Email: u.Email,
		IsAdmin: u.IsAdmin, Created: u.Created, HTMLURL: u.HTMLURL})
}
