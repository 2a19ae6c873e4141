package repoadmin

import (
	"context"
	"net/http"
	"time"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// TagProtection is a rule on which tags only some may push: matching
// name_pattern, only the users and teams listed may create or delete them.
type TagProtection struct {
	ID          int64      `json:"id"`
	NamePattern string     `json:"name_pattern"`
	Users       []string   `json:"users"`
	Teams       []string   `json:"teams"`
	Updated     *time.Time `json:"updated_at,omitempty"`
}

func compactTagProtection(p *sdk.TagProtection) TagProtection {
	out := TagProtection{ID: p.ID, NamePattern: p.NamePattern, Users: p.WhitelistUsernames, Teams: p.WhitelistTeams,
		Updated: forgejo.TimePtr(&p.Updated)}
	if out.Users == nil {
		out.Users = []string{}
	}
	if out.Teams == nil {
		out.Teams = []string{}
	}
	return out
}

func tagProtectionTools() []tool.Def {
	id := tool.ID("id", "Tag protection ID (list_tag_protections)")
	pattern := tool.Str("name_pattern", "Tag name or glob, e.g. v* (or a regular expression between slashes)", tool.MaxLen(255))
	users := tool.Strs("users", "Only these users may push matching tags")
	teams := tool.Strs("teams", "Only these teams may push matching tags (organisation repositories)")
	return []tool.Def{
		{
			Name: "list_tag_protections", Toolset: TagProtectionToolset,
			Title: "List tag protections", Output: tool.ListPage[TagProtection]{},
			Description: "List a repository's tag protection rules",
			Params:      base(), Annotations: tool.Read(), Handler: listTagProtections,
		},
		{
			Name: "get_tag_protection", Toolset: TagProtectionToolset,
			Title: "Get a tag protection", Output: TagProtection{},
			Description: "Get a tag protection rule by ID",
			Params:      with(id), Annotations: tool.Read(), Handler: getTagProtection,
		},
		{
			Name: "create_tag_protection", Toolset: TagProtectionToolset,
			Title: "Protect tags", Output: TagProtection{},
			Description: "Protect tags matching a pattern: only the users and teams given may push them (none given: nobody)",
			Params:      with(pattern.With(tool.Required()), users, teams), Annotations: tool.Write(false), Handler: createTagProtection,
		},
		{
			Name: "edit_tag_protection", Toolset: TagProtectionToolset,
			Title: "Edit a tag protection", Output: TagProtection{},
			Description: "Change a tag protection rule; a list given replaces the old one",
			Params:      with(id, pattern, users, teams), Annotations: tool.Destroy(true), Handler: editTagProtection,
		},
		{
			Name: "delete_tag_protection", Toolset: TagProtectionToolset,
			Title: "Delete a tag protection", Output: tool.DeletedOutput("id", int64(0)),
			Description: "Delete a tag protection rule",
			Params:      with(id), Annotations: tool.Destroy(true), Handler: deleteTagProtection,
		},
	}
}

func tagProtectionRef(a tool.Args) string {
	return "tag protection " + tool.Seg(a, "id") + " of " + tool.RepoRef(a)
}

func listTagProtections(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := tool.RepoRoute(a, "tag_protections")
	if err != nil {
		return nil, err
	}
	var list []*sdk.TagProtection
	if err := c.DoJSON(ctx, http.MethodGet, p, nil, nil, &list); err != nil {
		return nil, forgejo.Relabel(err, "list tag protections of", tool.RepoRef(a))
	}
	return tool.Items(tool.Map(list, compactTagProtection), 1, false)
}

// oneTagProtection sends method to the rule's route (or the list's, for
// a create) and shapes the rule the forge answers with.
func oneTagProtection(ctx context.Context, c *forgejo.Client, a tool.Args, method, verb string, body any) (*mcp.CallToolResult, error) {
	more := []string{"tag_protections"}
	subject := "a tag protection of " + tool.RepoRef(a)
	if a.Has("id") {
		more = append(more, tool.Seg(a, "id"))
		subject = tagProtectionRef(a)
	}
	p, err := tool.RepoRoute(a, more...)
	if err != nil {
		return nil, err
	}
	var out sdk.TagProtection
	if err := c.DoJSON(ctx, method, p, nil, body, &out); err != nil {
		return nil, forgejo.Relabel(err, verb, subject)
	}
	return tool.JSON(compactTagProtection(&out))
}

func getTagProtection(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	return oneTagProtection(ctx, c, a, http.MethodGet, "get", nil)
}

// tagProtectionBody is the given fields in the forge's names; the lists
// are sent as given, an empty one clearing the old.
func tagProtectionBody(a tool.Args) map[string]any {
	body := a.Given("name_pattern")
	if a.Has("users") {
		body["whitelist_usernames"] = a.Strings("users")
	}
	if a.Has("teams") {
		body["whitelist_teams"] = a.Strings("teams")
	}
	return body
}

func createTagProtection(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	body := tagProtectionBody(a)
	for _, k := range []string{"whitelist_usernames", "whitelist_teams"} {
		if _, ok := body[k]; !ok {
			body[k] = []string{}
		}
	}
	return oneTagProtection(ctx, c, a, http.MethodPost, "create", body)
}

func editTagProtection(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	body := tagProtectionBody(a)
	if len(body) == 0 {
		return tool.Error("give name_pattern, users or teams to change (get_tag_protection shows the rule)"), nil
	}
	return oneTagProtection(ctx, c, a, http.MethodPatch, "edit", body)
}

func deleteTagProtection(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := tool.RepoRoute(a, "tag_protections", tool.Seg(a, "id"))
	if err != nil {
		return nil, err
	}
	if err := c.DoJSON(ctx, http.MethodDelete, p, nil, nil, nil); err != nil {
		return nil, forgejo.Relabel(err, "delete", tagProtectionRef(a))
	}
	return tool.Deleted("id", a.Int("id"))
}
