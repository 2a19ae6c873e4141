package admin

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// What a site administrator makes in a user's name: an organisation it
// owns, a repository and an SSH key.

// Org is an organisation, compact.
type Org struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	FullName    string `json:"full_name,omitempty"`
	Description string `json:"description,omitempty" md:"rendered"`
	Visibility  string `json:"visibility,omitempty"`
}

type rawOrg struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	FullName    string `json:"full_name"`
	Description string `json:"description"`
	Visibility  string `json:"visibility"`
}

func compactOrg(o *rawOrg) Org {
	return Org{ID: o.ID, Name: o.Name, FullName: o.FullName, Description: o.Description, Visibility: o.Visibility}
}

// Repo is a repository made for a user, compact.
type Repo struct {
	ID            int64  `json:"id"`
	FullName      string `json:"full_name" trust:"repo"`
	Private       bool   `json:"private"`
	DefaultBranch string `json:"default_branch,omitempty"`
	Empty         bool   `json:"empty"`
	CloneURL      string `json:"clone_url,omitempty"`
}

// Key is a user's public SSH key.
type Key struct {
	ID          int64      `json:"id"`
	Title       string     `json:"title"`
	Fingerprint string     `json:"fingerprint"`
	ReadOnly    bool       `json:"read_only,omitempty"`
	Created     *time.Time `json:"created_at,omitempty"`
}

func ownedTools() []tool.Def {
	user := tool.User().Describe("Login of the user who will own it")
	return []tool.Def{
		{
			Name: "create_site_user_org", Toolset: Toolset,
			Title: "Create an organisation for a user", Output: Org{},
			Description: "Create an organisation owned by a user (admin)",
			Params: []tool.Param{user, tool.Named("org", "Name of the new organisation"),
				tool.Str("full_name", "Full name", tool.MaxLen(255)),
				tool.Str("description", "Description", tool.MaxLen(255)),
				tool.Str("visibility", "Visibility", tool.OneOf(visibilities...))},
			Annotations: tool.Write(false), Handler: createUserOrg,
		},
		{
			Name: "create_site_user_repo", Toolset: Toolset,
			Title: "Create a repository for a user", Output: Repo{},
			Description: "Create a repository owned by a user or organisation (admin)",
			Params: []tool.Param{user.Describe("Login of the user or organisation who will own it"), tool.Named("repo", "Name of the new repository"),
				tool.Str("description", "Description", tool.MaxLen(2048)),
				tool.Bool("private", "Private", tool.Default(false)),
				tool.Bool("auto_init", "Start with a README commit", tool.Default(false)),
				tool.Str("default_branch", "Default branch name", tool.MaxLen(255))},
			Annotations: tool.Write(false), Handler: createUserRepo,
		},
		{
			Name: "add_site_user_key", Toolset: Toolset,
			Title: "Add a user's public key", Output: Key{},
			Description: "Add a public key to a user's account, for git over ssh (admin)",
			Params: []tool.Param{tool.User(), tool.Str("title", "Key title", tool.Required(), tool.MaxLen(255)),
				tool.Str("key", "Public key line, as in a .pub file", tool.Required(), tool.MaxLen(16384), tool.Secret())},
			Annotations: tool.Write(false), Handler: addUserKey,
		},
		{
			Name: "delete_site_user_key", Toolset: Toolset,
			Title: "Delete a user's public key", Output: tool.DeletedOutput("key_id", int64(0)),
			Description: "Delete a public key of a user's account (admin)",
			Params:      []tool.Param{tool.User(), tool.ID("key_id", "Key ID")},
			Annotations: tool.Destroy(true), Handler: deleteUserKey,
		},
	}
}

func createUserOrg(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := userPath(a, "orgs")
	if err != nil {
		return nil, err
	}
	body := map[string]any{"username": a.String("org")}
	for _, n := range []string{"full_name", "description", "visibility"} {
		if a.Has(n) {
			body[n] = a.String(n)
		}
	}
	var o rawOrg
	if err := c.DoJSON(ctx, http.MethodPost, p, nil, body, &o); err != nil {
		return nil, forgejo.Relabel(err, "create organisation "+a.String("org")+" for", userRef(a))
	}
	return tool.JSON(compactOrg(&o))
}

func createUserRepo(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := userPath(a, "repos")
	if err != nil {
		return nil, err
	}
	body := map[string]any{"name": a.String("repo"), "private": a.Bool("private"), "auto_init": a.Bool("auto_init")}
	for _, n := range []string{"description", "default_branch"} {
		if a.Has(n) {
			body[n] = a.String(n)
		}
	}
	var r struct {
		ID            int64  `json:"id"`
		FullName      string `json:"full_name"`
		Private       bool   `json:"private"`
		DefaultBranch string `json:"default_branch"`
		Empty         bool   `json:"empty"`
		CloneURL      string `json:"clone_url"`
	}
	if err := c.DoJSON(ctx, http.MethodPost, p, nil, body, &r); err != nil {
		return nil, forgejo.Relabel(err, "create repository "+a.String("repo")+" for", userRef(a))
	}
	return tool.JSON(Repo(r))
}

// addUserKey refuses what is not a public key line before sending: a
// private key pasted by mistake is never sent, and never quoted (the
// parameter is never logged either).
func addUserKey(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	key := strings.TrimSpace(a.String("key"))
	if res := tool.CheckPublicKey(key); res != nil {
		return res, nil
	}
	p, err := userPath(a, "keys")
	if err != nil {
		return nil, err
	}
	body := map[string]any{"title": a.String("title"), "key": key}
	var k struct {
		ID          int64     `json:"id"`
		Title       string    `json:"title"`
		Fingerprint string    `json:"fingerprint"`
		ReadOnly    bool      `json:"read_only"`
		Created     time.Time `json:"created_at"`
	}
	if err := c.DoJSON(ctx, http.MethodPost, p, nil, body, &k); err != nil {
		return nil, forgejo.Relabel(err, "add a public key to", userRef(a))
	}
	return tool.JSON(Key{ID: k.ID, Title: k.Title, Fingerprint: k.Fingerprint, ReadOnly: k.ReadOnly, Created: forgejo.TimePtr(&k.Created)})
}

func deleteUserKey(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := userPath(a, "keys", tool.Seg(a, "key_id"))
	if err != nil {
		return nil, err
	}
	if err := c.DoJSON(ctx, http.MethodDelete, p, nil, nil, nil); err != nil {
		return nil, forgejo.Relabel(err, "delete public key "+strconv.FormatInt(a.Int("key_id"), 10)+" of", userRef(a))
	}
	return tool.Deleted("key_id", a.Int("key_id"))
}
