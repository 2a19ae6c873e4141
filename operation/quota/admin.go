package quota

import (
	"context"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/admin"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// adminTools are the site administrator's quota tools: groups of rules,
// the rules, who is in a group, and one user's quota. They are in the
// admin toolset, which only a selection naming it offers.
func adminTools() []tool.Def {
	group := tool.Named("group", "Quota group name (list_quota_groups)")
	rule := tool.Named("rule", "Quota rule name (list_quota_rules)")
	user := tool.Named("username", "User login")
	limit := tool.Int("limit_bytes", "Most bytes the subjects may use together; -1 no limit, 0 none at all", tool.AtLeast(-1))
	subjects := tool.Strs("subjects", "What the rule limits, together", tool.OneOf(Subjects...))
	def := func(name, title, desc string, out any, ann tool.Annotations, h tool.Handler, params ...tool.Param) tool.Def {
		return tool.Def{Name: name, Toolset: admin.Toolset, Title: title, Output: out, Description: desc + " (site administrator)",
			Params: params, Annotations: ann, Handler: h}
	}
	return []tool.Def{
		def("list_quota_groups", "List quota groups", "List the quota groups with their rules",
			tool.ListPage[Group]{}, tool.Read(), listGroups),
		def("get_quota_group", "Get a quota group", "Get a quota group with its rules",
			Group{}, tool.Read(), getGroup, group),
		def("create_quota_group", "Create a quota group", "Create a quota group, with rules by name; a rule that does not exist yet is created from its limit and subjects",
			Group{}, tool.Write(false), createGroup, tool.Named("name", "Group name"),
			tool.Objects("rules", "Rules of the group", []tool.Param{tool.Named("name", "Rule name"), limit, subjects}, tool.MaxItems(50))),
		def("delete_quota_group", "Delete a quota group", "Delete a quota group; its rules stay",
			tool.DeletedOutput("group", ""), tool.Destroy(true), deleteGroup, group),
		def("add_quota_group_rule", "Add a rule to a quota group", "Add a quota rule to a group",
			RuleIn{}, tool.Write(true), addGroupRule, group, rule),
		def("remove_quota_group_rule", "Remove a rule from a quota group", "Remove a quota rule from a group; the rule stays",
			RuleIn{}, tool.Destroy(true), removeGroupRule, group, rule),
		def("list_quota_group_users", "List a quota group's users", "List the users a quota group applies to",
			tool.ListPage[Member]{}, tool.Read(), listGroupUsers, group),
		def("add_quota_group_user", "Add a user to a quota group", "Put a user in a quota group",
			UserIn{}, tool.Write(true), addGroupUser, group, user),
		def("remove_quota_group_user", "Remove a user from a quota group", "Take a user out of a quota group",
			UserIn{}, tool.Destroy(true), removeGroupUser, group, user),
		def("list_quota_rules", "List quota rules", "List the quota rules",
			tool.ListPage[Rule]{}, tool.Read(), listRules),
		def("get_quota_rule", "Get a quota rule", "Get a quota rule",
			Rule{}, tool.Read(), getRule, rule),
		def("create_quota_rule", "Create a quota rule", "Create a quota rule: its subjects together may use at most limit_bytes",
			Rule{}, tool.Write(false), createRule, tool.Named("name", "Rule name"), limit.With(tool.Required()), subjects.With(tool.Required())),
		def("edit_quota_rule", "Edit a quota rule", "Change a quota rule's limit or subjects (a list given replaces the old)",
			Rule{}, tool.Destroy(true), editRule, rule, limit, subjects),
		def("delete_quota_rule", "Delete a quota rule", "Delete a quota rule, from every group too",
			tool.DeletedOutput("rule", ""), tool.Destroy(true), deleteRule, rule),
		def("get_user_quota", "Get a user's quota", "Get any user's quota: groups, rules and bytes used per kind",
			Quota{}, tool.Read(), getUserQuota, user),
		def("set_user_quota_groups", "Set a user's quota groups", "Set the quota groups a user is in, replacing the old ones ([] for none)",
			UserGroups{}, tool.Destroy(true), setUserGroups, user, tool.Strs("groups", "Quota group names", tool.Required())),
	}
}

// RuleIn says whether a rule is in a group after a change.
type RuleIn struct {
	Group   string `json:"group"`
	Rule    string `json:"rule"`
	InGroup bool   `json:"in_group"`
}

// UserIn says whether a user is in a group after a change.
type UserIn struct {
	Group    string `json:"group"`
	Username string `json:"username"`
	InGroup  bool   `json:"in_group"`
}

// Member is a user a quota group applies to.
type Member struct {
	ID    int64  `json:"id"`
	Login string `json:"login"`
}

// UserGroups are the quota groups a user is in after set_user_quota_groups.
type UserGroups struct {
	Username string   `json:"username"`
	Groups   []string `json:"groups"`
}

// send sends a site administration request to the route of segs and
// names the failure by verb and subject, a 403 as the site
// administrator's right.
func send(ctx context.Context, c *forgejo.Client, method, verb, subject string, body, out any, segs ...string) error {
	p, err := forgejo.Path(segs...)
	if err != nil {
		return err
	}
	if err := c.DoJSON(ctx, method, p, nil, body, out); err != nil {
		return forgejo.AdminOnly(forgejo.Relabel(err, verb, subject))
	}
	return nil
}

// The routes' heads.
var (
	groupsRoute = []string{"admin", "quota", "groups"}
	rulesRoute  = []string{"admin", "quota", "rules"}
)

func at(head []string, tail ...string) []string {
	return append(append([]string{}, head...), tail...)
}
