// Package branchprotection has the branch-protection tools: list, read,
// create, edit and delete a repository's branch protection rules.
package branchprotection

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Toolset is the branch-protection toolset; every tool of this package is in it.
var Toolset = tool.Toolset{ID: "branch-protection", Description: "Branch protection rules"}

func ruleName() tool.Param {
	return tool.Str("rule_name", "Protected branch name or glob pattern, e.g. main or release/*",
		tool.Required(), tool.MaxLen(255))
}

// fields are the settable options of create and edit: the most used ones.
func fields() []tool.Param {
	return []tool.Param{
		tool.Bool("enable_push", "Allow pushing to the branch"),
		tool.Strs("push_whitelist", "Only these users may push; implies enable_push"),
		tool.Int("required_approvals", "Approvals needed to merge", tool.Range(0, 100)),
		tool.Strs("status_checks", "Status check contexts that must pass before merging"),
		tool.Bool("dismiss_stale_approvals", "Dismiss approvals when new commits are pushed"),
		tool.Bool("block_on_rejected_reviews", "Block merging while a review requests changes"),
	}
}

// Tools returns the branch-protection toolset.
func Tools() []tool.Def {
	base := []tool.Param{tool.Owner(), tool.Repo()}
	withName := append(base[:2:2], ruleName())
	return []tool.Def{
		{
			Name: "list_branch_protections", Toolset: Toolset,
			Title: "List branch protection rules", Output: tool.ListPage[Rule]{},
			Description: "List a repository's branch protection rules",
			Params:      base, Annotations: tool.Read(), Handler: list,
		},
		{
			Name: "get_branch_protection", Toolset: Toolset,
			Title: "Get a branch protection rule", Output: Rule{},
			Description: "Get a branch protection rule by name",
			Params:      withName, Annotations: tool.Read(), Handler: get,
		},
		{
			Name: "create_branch_protection", Toolset: Toolset,
			Title: "Create a branch protection rule", Output: Rule{},
			Description: "Protect a branch or branch pattern",
			Params:      append(withName[:3:3], fields()...), Annotations: tool.Write(false), Handler: create,
		},
		{
			Name: "edit_branch_protection", Toolset: Toolset,
			Title: "Edit a branch protection rule", Output: Rule{},
			Description: "Edit a branch protection rule; only the given fields change",
			Params:      append(withName[:3:3], fields()...), Annotations: tool.Destroy(true), Handler: edit,
		},
		{
			Name: "delete_branch_protection", Toolset: Toolset,
			Title: "Delete a branch protection rule", Output: tool.DeletedOutput("rule_name", ""),
			Description: "Delete a branch protection rule; the branch stays",
			Params:      withName, Annotations: tool.Destroy(true), Handler: remove,
		},
	}
}

// Rule is the compact shape of a branch protection rule.
type Rule struct {
	RuleName                string   `json:"rule_name"`
	EnablePush              bool     `json:"enable_push"`
	PushWhitelist           []string `json:"push_whitelist,omitempty"`
	PushWhitelistTeams      []string `json:"push_whitelist_teams,omitempty"`
	RequiredApprovals       int64    `json:"required_approvals"`
	StatusChecks            []string `json:"status_checks,omitempty"`
	DismissStaleApprovals   bool     `json:"dismiss_stale_approvals,omitempty"`
	BlockOnRejectedReviews  bool     `json:"block_on_rejected_reviews,omitempty"`
	BlockOnOutdatedBranch   bool     `json:"block_on_outdated_branch,omitempty"`
	RequireSignedCommits    bool     `json:"require_signed_commits,omitempty"`
	MergeWhitelist          []string `json:"merge_whitelist,omitempty"`
	ProtectedFilePatterns   string   `json:"protected_file_patterns,omitempty"`
	UnprotectedFilePatterns string   `json:"unprotected_file_patterns,omitempty"`
}

func compact(b *sdk.BranchProtection) Rule {
	r := Rule{RuleName: b.RuleName, EnablePush: b.EnablePush, RequiredApprovals: b.RequiredApprovals,
		DismissStaleApprovals: b.DismissStaleApprovals, BlockOnRejectedReviews: b.BlockOnRejectedReviews,
		BlockOnOutdatedBranch: b.BlockOnOutdatedBranch, RequireSignedCommits: b.RequireSignedCommits,
		ProtectedFilePatterns: b.ProtectedFilePatterns, UnprotectedFilePatterns: b.UnprotectedFilePatterns}
	if r.RuleName == "" {
		r.RuleName = b.BranchName
	}
	if b.EnablePushWhitelist {
		r.PushWhitelist, r.PushWhitelistTeams = b.PushWhitelistUsernames, b.PushWhitelistTeams
	}
	if b.EnableStatusCheck {
		r.StatusChecks = b.StatusCheckContexts
	}
	if b.EnableMergeWhitelist {
		r.MergeWhitelist = b.MergeWhitelistUsernames
	}
	return r
}

func ruleRef(a tool.Args) string {
	return fmt.Sprintf("branch protection %s in %s", a.String("rule_name"), tool.FullName(a))
}

// checkName refuses a rule name that cannot be a route's tail. Rule names
// are branch names or globs and often hold '/' ("release/*"); the forge
// routes branch_protections/* as a wildcard (Gitea 1.26), so the name is
// sent part by part, each part escaped and checked as forgejo.FilePath
// does. Escaped as one segment (%2F, as forgejo-sdk would) it would be
// decoded by a proxy in front of the forge, and "../../victim" would reach
// another repository there.
func checkName(a tool.Args) error {
	name := a.String("rule_name")
	if _, err := forgejo.FilePath(nil, name); err != nil {
		return fmt.Errorf("rule_name: %w", err)
	}
	if strings.TrimSpace(name) != name {
		return fmt.Errorf("rule_name %q has leading or trailing spaces", name)
	}
	return nil
}

// ruleRoute is /repos/{owner}/{repo}/branch_protections/{rule_name...}.
func ruleRoute(a tool.Args) (string, error) {
	if err := checkName(a); err != nil {
		return "", err
	}
	return forgejo.FilePath([]string{"repos", a.String("owner"), a.String("repo"), "branch_protections"}, a.String("rule_name"))
}

// ruleDo sends method to the rule's route. A name with '/' goes part by
// part (Gitea routes the tail as a wildcard). A forge whose router has no
// such route (Forgejo 10 routes one {name} segment) would need it as one
// segment with %2F, which the client refuses on purpose (a decoding proxy
// would turn it into a separator): the error says so, and what to do.
// Errors are labelled "VERB branch protection NAME in OWNER/REPO".
func ruleDo(ctx context.Context, c *forgejo.Client, a tool.Args, verb, method string, body, out any) error {
	p, err := ruleRoute(a)
	if err != nil {
		return err
	}
	err = c.DoJSON(ctx, method, p, nil, body, out)
	if err == nil {
		return nil
	}
	err = forgejo.Relabel(err, verb, ruleRef(a))
	if forgejo.IsNoRoute(err) && strings.Contains(a.String("rule_name"), "/") {
		return fmt.Errorf("%w; this forge routes a rule name as one path segment, and a name with '/' cannot be sent as one safely "+
			"(a proxy may decode %%2F): manage this rule in the forge's web UI, or list_branch_protections to read it", err)
	}
	return err
}

func list(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	// The forge ignores paging here and returns every rule.
	rules, resp, err := c.SDK(ctx).ListBranchProtections(a.String("owner"), a.String("repo"),
		sdk.ListBranchProtectionsOptions{})
	if err := forgejo.Fail(resp, err, "list branch protections of", tool.RepoRef(a)); err != nil {
		return nil, err
	}
	// The list envelope of every list tool (and so an object, which an
	// outputSchema needs): one page holding every rule.
	return tool.Items(tool.Map(rules, compact), 1, false)
}

func get(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	var b sdk.BranchProtection
	if err := ruleDo(ctx, c, a, "get", http.MethodGet, nil, &b); err != nil {
		return nil, err
	}
	return tool.JSON(compact(&b))
}

func create(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	if err := checkName(a); err != nil {
		return nil, err
	}
	opt := sdk.CreateBranchProtectionOption{RuleName: a.String("rule_name"),
		EnablePush: a.Bool("enable_push"), RequiredApprovals: a.Int("required_approvals"),
		DismissStaleApprovals: a.Bool("dismiss_stale_approvals"), BlockOnRejectedReviews: a.Bool("block_on_rejected_reviews")}
	if users := a.Strings("push_whitelist"); len(users) > 0 {
		opt.EnablePush, opt.EnablePushWhitelist, opt.PushWhitelistUsernames = true, true, users
	}
	if checks := a.Strings("status_checks"); len(checks) > 0 {
		opt.EnableStatusCheck, opt.StatusCheckContexts = true, checks
	}
	b, resp, err := c.SDK(ctx).CreateBranchProtection(a.String("owner"), a.String("repo"), opt)
	if err := forgejo.Fail(resp, err, "create", ruleRef(a)); err != nil {
		return nil, err
	}
	return tool.JSON(compact(b))
}

func boolPtr(a tool.Args, name string) *bool {
	if !a.Has(name) {
		return nil
	}
	v := a.Bool(name)
	return &v
}

func edit(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	if err := checkName(a); err != nil {
		return nil, err
	}
	// Nil pointers and nil lists are left out of the change by the forge.
	opt := sdk.EditBranchProtectionOption{EnablePush: boolPtr(a, "enable_push"),
		DismissStaleApprovals:  boolPtr(a, "dismiss_stale_approvals"),
		BlockOnRejectedReviews: boolPtr(a, "block_on_rejected_reviews")}
	if a.Has("required_approvals") {
		v := a.Int("required_approvals")
		opt.RequiredApprovals = &v
	}
	if a.Has("push_whitelist") {
		users := a.Strings("push_whitelist")
		on := len(users) > 0
		opt.EnablePushWhitelist, opt.PushWhitelistUsernames = &on, append([]string{}, users...)
		if on {
			opt.EnablePush = &on
		}
	}
	if a.Has("status_checks") {
		checks := a.Strings("status_checks")
		on := len(checks) > 0
		opt.EnableStatusCheck, opt.StatusCheckContexts = &on, append([]string{}, checks...)
	}
	var b sdk.BranchProtection
	if err := ruleDo(ctx, c, a, "edit", http.MethodPatch, opt, &b); err != nil {
		return nil, err
	}
	return tool.JSON(compact(&b))
}

func remove(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	if err := ruleDo(ctx, c, a, "delete", http.MethodDelete, nil, nil); err != nil {
		return nil, err
	}
	return tool.Deleted("rule_name", a.String("rule_name"))
}
