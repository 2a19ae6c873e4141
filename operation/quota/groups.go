package quota

import (
	"context"
	"net/http"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// The site administrator's quota groups and who and what is in them.

func groupRef(a tool.Args) string { return "quota group " + a.String("group") }

func listGroups(ctx context.Context, c *forgejo.Client, _ tool.Args) (*mcp.CallToolResult, error) {
	var list []*wireGroup
	if err := send(ctx, c, http.MethodGet, "list", "the quota groups", nil, &list, groupsRoute...); err != nil {
		return nil, err
	}
	return tool.Items(tool.Map(list, compactGroup), 1, false)
}

func getGroup(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	var g wireGroup
	if err := send(ctx, c, http.MethodGet, "get", groupRef(a), nil, &g, at(groupsRoute, a.String("group"))...); err != nil {
		return nil, err
	}
	return tool.JSON(compactGroup(&g))
}

func createGroup(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	name := a.String("name")
	body := map[string]any{"name": name}
	if a.Has("rules") {
		rules := []map[string]any{}
		for _, r := range a.Objects("rules") {
			rules = append(rules, ruleBody(r))
		}
		body["rules"] = rules
	}
	var g wireGroup
	if err := send(ctx, c, http.MethodPost, "create", "quota group "+name, body, &g, groupsRoute...); err != nil {
		return nil, err
	}
	return tool.JSON(compactGroup(&g))
}

func deleteGroup(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	if err := send(ctx, c, http.MethodDelete, "delete", groupRef(a), nil, nil, at(groupsRoute, a.String("group"))...); err != nil {
		return nil, err
	}
	return tool.Deleted("group", a.String("group"))
}

// groupRule puts a rule in a group or takes it out.
func groupRule(ctx context.Context, c *forgejo.Client, a tool.Args, in bool) (*mcp.CallToolResult, error) {
	g, r := a.String("group"), a.String("rule")
	method, verb := http.MethodPut, "add rule "+r+" to"
	if !in {
		method, verb = http.MethodDelete, "remove rule "+r+" from"
	}
	if err := send(ctx, c, method, verb, groupRef(a), nil, nil, at(groupsRoute, g, "rules", r)...); err != nil {
		return nil, err
	}
	return tool.JSON(RuleIn{Group: g, Rule: r, InGroup: in})
}

func addGroupRule(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	return groupRule(ctx, c, a, true)
}

func removeGroupRule(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	return groupRule(ctx, c, a, false)
}

func listGroupUsers(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	var list []*Member // the forge's User, of which only these fields are read
	if err := send(ctx, c, http.MethodGet, "list the users of", groupRef(a), nil, &list, at(groupsRoute, a.String("group"), "users")...); err != nil {
		return nil, err
	}
	return tool.Items(tool.Map(list, func(m *Member) Member { return *m }), 1, false)
}

// groupUser puts a user in a group or takes them out.
func groupUser(ctx context.Context, c *forgejo.Client, a tool.Args, in bool) (*mcp.CallToolResult, error) {
	g, u := a.String("group"), a.String("username")
	method, verb := http.MethodPut, "add user "+u+" to"
	if !in {
		method, verb = http.MethodDelete, "remove user "+u+" from"
	}
	if err := send(ctx, c, method, verb, groupRef(a), nil, nil, at(groupsRoute, g, "users", u)...); err != nil {
		return nil, err
	}
	return tool.JSON(UserIn{Group: g, Username: u, InGroup: in})
}

func addGroupUser(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	return groupUser(ctx, c, a, true)
}

func removeGroupUser(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	return groupUser(ctx, c, a, false)
}
