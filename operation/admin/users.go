package admin

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// User is a user as a site administrator sees one: the account's state,
// never its avatar or counters.
type User struct {
	ID            int64      `json:"id"`
	Login         string     `json:"login"`
	FullName      string     `json:"full_name,omitempty"`
	Email         string     `json:"email,omitempty"`
	IsAdmin       bool       `json:"is_admin"`
	Active        bool       `json:"active"`
	ProhibitLogin bool       `json:"prohibit_login,omitempty"`
	Restricted    bool       `json:"restricted,omitempty"`
	Visibility    string     `json:"visibility,omitempty"`
	LoginName     string     `json:"login_name,omitempty"`
	SourceID      int64      `json:"source_id,omitempty"`
	Created       *time.Time `json:"created,omitempty"`
	LastLogin     *time.Time `json:"last_login,omitempty"`
}

// rawUser is the forge's user, as both flavours send it.
type rawUser struct {
	ID            int64     `json:"id"`
	Login         string    `json:"login"`
	FullName      string    `json:"full_name"`
	Email         string    `json:"email"`
	IsAdmin       bool      `json:"is_admin"`
	Active        bool      `json:"active"`
	ProhibitLogin bool      `json:"prohibit_login"`
	Restricted    bool      `json:"restricted"`
	Visibility    string    `json:"visibility"`
	LoginName     string    `json:"login_name"`
	SourceID      int64     `json:"source_id"`
	Created       time.Time `json:"created"`
	LastLogin     time.Time `json:"last_login"`
}

func compactUser(u *rawUser) User {
	return User{ID: u.ID, Login: u.Login, FullName: u.FullName, Email: u.Email, IsAdmin: u.IsAdmin, Active: u.Active,
		ProhibitLogin: u.ProhibitLogin, Restricted: u.Restricted, Visibility: u.Visibility, LoginName: u.LoginName,
		SourceID: u.SourceID, Created: forgejo.TimePtr(&u.Created), LastLogin: forgejo.TimePtr(&u.LastLogin)}
}

// visibilities are a user's or an organisation's.
var visibilities = []string{"public", "limited", "private"}

// account are the settable parts of an account shared by create and edit;
// only those given are sent.
func account() []tool.Param {
	return []tool.Param{
		tool.Str("email", "E-mail address", tool.MaxLen(255)),
		tool.Str("full_name", "Full name", tool.MaxLen(255)),
		tool.Str("password", "Password; write-only, never shown or logged", tool.MaxLen(255), tool.Secret()),
		tool.Bool("must_change_password", "Make the user change the password at the next sign-in"),
		tool.Bool("restricted", "Restricted: sees only what it is explicitly given"),
		tool.Str("visibility", "Profile visibility", tool.OneOf(visibilities...)),
		tool.Str("login_name", "Login name at the authentication source", tool.MaxLen(255)),
		tool.Int("source_id", "Authentication source ID (0: local)", tool.AtLeast(0)),
	}
}

func userTools() []tool.Def {
	user := tool.User()
	return []tool.Def{
		{
			Name: "list_site_users", Toolset: Toolset,
			Title: "List the site's users", Output: tool.ListPage[User]{},
			Description: "List every user account of the site (admin), optionally of one authentication source or login name",
			Params: []tool.Param{tool.Int("source_id", "Only users of this authentication source ID", tool.AtLeast(0)),
				tool.Str("login_name", "Only users with this login name at their source", tool.MaxLen(255)),
				tool.Page(), tool.Limit()},
			Annotations: tool.Read(), Handler: listUsers,
		},
		{
			Name: "create_site_user", Toolset: Toolset,
			Title: "Create a user", Output: User{},
			Description: "Create a user account (admin); the password is write-only",
			Params: append([]tool.Param{tool.Named("username", "Login of the new user"),
				tool.Str("email", "E-mail address", tool.Required(), tool.MaxLen(255)),
				tool.Bool("send_notify", "E-mail the user that the account exists")}, account()[1:]...),
			Annotations: tool.Write(false), Handler: createUser,
		},
		{
			Name: "edit_site_user", Toolset: Toolset,
			Title: "Edit a user", Output: User{},
			Description: "Change a user account (admin): site administrator, active, sign-in allowed, e-mail, password…; only the given fields change",
			Params: append([]tool.Param{user,
				tool.Bool("admin", "Site administrator"),
				tool.Bool("active", "Account activated"),
				tool.Bool("prohibit_login", "Forbid signing in"),
				tool.Bool("allow_create_organization", "May create organisations"),
				tool.Int("max_repo_creation", "Most repositories it may create (-1: the site's default)", tool.AtLeast(-1))},
				account()...),
			Annotations: tool.Destroy(true), Handler: editUser,
		},
		{
			Name: "delete_site_user", Toolset: Toolset,
			Title: "Delete a user", Output: tool.DeletedOutput("user", ""),
			Description: "Delete a user account (admin); purge also deletes its repositories, organisations it alone owns and its content",
			Params:      []tool.Param{user, tool.Bool("purge", "Also delete everything the user owns", tool.Default(false))},
			Annotations: tool.Destroy(true), Handler: deleteUser,
		},
		{
			Name: "rename_site_user", Toolset: Toolset,
			Title: "Rename a user", Output: tool.Shape{"renamed": true, "user": "", "new_username": ""},
			Description: "Change a user's login (admin); the old name's links redirect",
			Params:      []tool.Param{user, tool.Named("new_username", "New login")},
			Annotations: tool.Destroy(false), Handler: renameUser,
		},
	}
}

// userPath is /admin/users/{user}/{more…}.
func userPath(a tool.Args, more ...string) (string, error) {
	return forgejo.Path(append([]string{"admin", "users", a.String("user")}, more...)...)
}

func userRef(a tool.Args) string { return "user " + a.String("user") }

func listUsers(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	q := tool.PageQuery(a)
	if a.Has("source_id") {
		q.Set("source_id", strconv.FormatInt(a.Int("source_id"), 10))
	}
	if s := a.String("login_name"); s != "" {
		q.Set("login_name", s)
	}
	var users []*rawUser
	if err := c.DoJSON(ctx, http.MethodGet, "/admin/users", q, nil, &users); err != nil {
		return nil, forgejo.Relabel(err, "list the users of", "the site")
	}
	return tool.Items(tool.Map(users, compactUser), a.Int("page"), int64(len(users)) >= a.Int("limit"))
}

// accountBody is the given account fields, named as the forge names them.
func accountBody(a tool.Args, names ...string) map[string]any {
	body := map[string]any{}
	for _, n := range append([]string{"email", "full_name", "password", "must_change_password", "restricted",
		"visibility", "login_name", "source_id"}, names...) {
		if a.Has(n) {
			body[n] = a.Given(n)[n]
		}
	}
	return body
}

func createUser(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	body := accountBody(a, "send_notify")
	body["username"] = a.String("username")
	var u rawUser
	if err := c.DoJSON(ctx, http.MethodPost, "/admin/users", nil, body, &u); err != nil {
		return nil, withoutPassword(forgejo.Relabel(err, "create", "user "+a.String("username")), a)
	}
	return tool.JSON(compactUser(&u))
}

func editUser(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	body := accountBody(a, "admin", "active", "prohibit_login", "allow_create_organization", "max_repo_creation")
	if len(body) == 0 {
		return tool.Error("edit_site_user: nothing to change; give at least one field, such as active or admin"), nil
	}
	// Gitea requires the login name and source of every edit (Forgejo
	// does not): the user's own, read first, unless new ones are given.
	// Gitea refuses an empty login name, which a local user has: its
	// login is sent, which Gitea then keeps as the login name.
	if f, err := c.Forge(ctx); err == nil && f.Flavour == forgejo.Gitea && (!a.Has("login_name") || !a.Has("source_id")) {
		cur, err := getUser(ctx, c, a)
		if err != nil {
			return nil, err
		}
		if !a.Has("login_name") {
			body["login_name"] = cur.LoginName
			if cur.LoginName == "" {
				body["login_name"] = cur.Login
			}
		}
		if !a.Has("source_id") {
			body["source_id"] = cur.SourceID
		}
	}
	p, err := userPath(a)
	if err != nil {
		return nil, err
	}
	var u rawUser
	if err := c.DoJSON(ctx, http.MethodPatch, p, nil, body, &u); err != nil {
		return nil, withoutPassword(forgejo.Relabel(err, "edit", userRef(a)), a)
	}
	return tool.JSON(compactUser(&u))
}

// getUser reads a user through the public route, which every forge has
// (the admin API has no read of one user).
func getUser(ctx context.Context, c *forgejo.Client, a tool.Args) (*rawUser, error) {
	p, err := forgejo.Path("users", a.String("user"))
	if err != nil {
		return nil, err
	}
	var u rawUser
	if err := c.DoJSON(ctx, http.MethodGet, p, nil, nil, &u); err != nil {
		return nil, forgejo.Relabel(err, "get", userRef(a))
	}
	return &u, nil
}

func deleteUser(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := userPath(a)
	if err != nil {
		return nil, err
	}
	var q url.Values
	if a.Bool("purge") {
		q = url.Values{"purge": {"true"}}
	}
	if err := c.DoJSON(ctx, http.MethodDelete, p, q, nil, nil); err != nil {
		return nil, forgejo.Relabel(err, "delete", userRef(a))
	}
	return tool.Deleted("user", a.String("user"))
}

func renameUser(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := userPath(a, "rename")
	if err != nil {
		return nil, err
	}
	if err := c.DoJSON(ctx, http.MethodPost, p, nil, map[string]string{"new_username": a.String("new_username")}, nil); err != nil {
		return nil, forgejo.Relabel(err, "rename", userRef(a))
	}
	return tool.JSON(map[string]any{"renamed": true, "user": a.String("user"), "new_username": a.String("new_username")})
}

// withoutPassword takes the password out of a failure's text, should the
// forge ever quote it: it is write-only, in errors too.
func withoutPassword(err error, a tool.Args) error {
	pw := a.String("password")
	if err == nil || pw == "" || !strings.Contains(err.Error(), pw) {
		return err
	}
	var fe *forgejo.Error
	if errors.As(err, &fe) {
		cp := *fe
		cp.Message = strings.ReplaceAll(cp.Message, pw, "[password]")
		if !strings.Contains(cp.Error(), pw) {
			return &cp
		}
	}
	return errors.New(strings.ReplaceAll(err.Error(), pw, "[password]"))
}
