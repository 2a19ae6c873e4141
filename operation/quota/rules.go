package quota

import (
	"context"
	"net/http"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// The site administrator's quota rules, and one user's quota and groups.

func ruleRef(a tool.Args) string { return "quota rule " + a.String("rule") }

// ruleBody is a rule's given fields in the forge's names
// (CreateQuotaRuleOptions, EditQuotaRuleOptions).
func ruleBody(a tool.Args) map[string]any {
	body := a.Given("name", "subjects")
	if a.Has("limit_bytes") {
		body["limit"] = a.Int("limit_bytes")
	}
	return body
}

func listRules(ctx context.Context, c *forgejo.Client, _ tool.Args) (*mcp.CallToolResult, error) {
	var list []*wireRule
	if err := send(ctx, c, http.MethodGet, "list", "the quota rules", nil, &list, rulesRoute...); err != nil {
		return nil, err
	}
	return tool.Items(tool.Map(list, compactRule), 1, false)
}

// oneRule sends method to the rule's route (the list's, for a create)
// and shapes the rule the forge answers with.
func oneRule(ctx context.Context, c *forgejo.Client, method, verb, subject string, body any, segs []string) (*mcp.CallToolResult, error) {
	var r wireRule
	if err := send(ctx, c, method, verb, subject, body, &r, segs...); err != nil {
		return nil, err
	}
	return tool.JSON(compactRule(&r))
}

func getRule(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	return oneRule(ctx, c, http.MethodGet, "get", ruleRef(a), nil, at(rulesRoute, a.String("rule")))
}

func createRule(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	return oneRule(ctx, c, http.MethodPost, "create", "quota rule "+a.String("name"), ruleBody(a), rulesRoute)
}

func editRule(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	body := ruleBody(a)
	if len(body) == 0 {
		return tool.Error("give limit_bytes or subjects to change (get_quota_rule shows the rule)"), nil
	}
	return oneRule(ctx, c, http.MethodPatch, "edit", ruleRef(a), body, at(rulesRoute, a.String("rule")))
}

func deleteRule(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	if err := send(ctx, c, http.MethodDelete, "delete", ruleRef(a), nil, nil, at(rulesRoute, a.String("rule"))...); err != nil {
		return nil, err
	}
	return tool.Deleted("rule", a.String("rule"))
}

func getUserQuota(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	u := a.String("username")
	var q wireInfo
	if err := send(ctx, c, http.MethodGet, "get the quota of", "user "+u, nil, &q, "admin", "users", u, "quota"); err != nil {
		return nil, err
	}
	return tool.JSON(compactQuota(&q))
}

func setUserGroups(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	u, groups := a.String("username"), a.Strings("groups")
	if groups == nil {
		groups = []string{}
	}
	if err := send(ctx, c, http.MethodPost, "set the quota groups of", "user "+u, map[string]any{"groups": groups}, nil, "admin", "users", u, "quota", "groups"); err != nil {
		return nil, err
	}
	return tool.JSON(UserGroups{Username: u, Groups: groups})
}
