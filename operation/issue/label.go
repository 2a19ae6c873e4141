package issue

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

var colorPattern = regexp.MustCompile(`^#?[0-9A-Fa-f]{6}$`)

// maxLabelPages bounds how many pages of labels resolving names reads: 1000
// labels, far more than any repository has.
const maxLabelPages = 20

// labelTools returns the repository and organisation label tools and the
// tools that put labels on issues; Tools includes them.
func labelTools() []tool.Def {
	labelID := tool.ID("id", "Label ID")
	// The colour is checked by the handler (hexColor), not by a pattern, so
	// the parameter stays a plain string like every optional one.
	color := func(opts ...tool.Opt) tool.Param {
		return tool.Str("color", "Colour as 6 hex digits, '#' optional", append(opts, tool.MaxLen(7))...)
	}
	labels := tool.Strs("labels", "Label names or IDs", tool.Required())
	org := tool.Org()
	name := func(opts ...tool.Opt) tool.Param {
		return tool.Str("name", "Label name", append(opts, tool.MaxLen(50))...)
	}
	desc := tool.Str("description", "Label description", tool.MaxLen(200))
	return []tool.Def{
		{
			Name: "list_repo_labels", Toolset: LabelToolset,
			Title: "List repository labels", Output: tool.ListPage[Label]{},
			Description: "List a repository's labels",
			Params:      []tool.Param{tool.Owner(), tool.Repo(), tool.Page(), tool.Limit()},
			Annotations: tool.Read(), Handler: listRepoLabels,
		},
		{
			Name: "get_repo_label", Toolset: LabelToolset,
			Title: "Get a repository label", Output: Label{},
			Description: "Get one repository label by ID",
			Params:      []tool.Param{tool.Owner(), tool.Repo(), labelID},
			Annotations: tool.Read(), Handler: getRepoLabel,
		},
		{
			Name: "create_repo_label", Toolset: LabelToolset,
			Title: "Create a repository label", Output: Label{},
			Description: "Create a label in a repository",
			Params: []tool.Param{tool.Owner(), tool.Repo(),
				name(tool.Required()), color(tool.Default("#e4e4e4")), desc},
			Annotations: tool.Write(false), Handler: createRepoLabel,
		},
		{
			Name: "edit_repo_label", Toolset: LabelToolset,
			Title: "Edit a repository label", Output: Label{},
			Description: "Edit a repository label; only the fields given change",
			Params:      []tool.Param{tool.Owner(), tool.Repo(), labelID, name(), color(), desc},
			Annotations: tool.Destroy(true), Handler: editRepoLabel,
		},
		{
			Name: "delete_repo_label", Toolset: LabelToolset,
			Title: "Delete a repository label", Output: tool.DeletedOutput("id", int64(0)),
			Description: "Delete a repository label, removing it from every issue",
			Params:      []tool.Param{tool.Owner(), tool.Repo(), labelID},
			Annotations: tool.Destroy(true), Handler: deleteRepoLabel,
		},
		{
			Name: "add_issue_labels", Toolset: Toolset,
			Title: "Add labels to an issue", Output: tool.Shape{"labels": []Label{}},
			Description: "Add labels to an issue or PR; returns all its labels",
			Params:      []tool.Param{tool.Owner(), tool.Repo(), tool.Index(), labels},
			Annotations: tool.Write(true), Handler: addIssueLabels,
		},
		{
			Name: "remove_issue_labels", Toolset: Toolset,
			Title: "Remove labels from an issue", Output: tool.Shape{"removed": []string{}},
			Description: "Remove labels from an issue or PR",
			Params:      []tool.Param{tool.Owner(), tool.Repo(), tool.Index(), labels},
			Annotations: tool.Destroy(true), Handler: removeIssueLabels,
		},
		{
			Name: "list_org_labels", Toolset: LabelToolset,
			Title: "List organisation labels", Output: tool.ListPage[Label]{},
			Description: "List an organisation's labels, usable in all its repositories",
			Params:      []tool.Param{org, tool.Page(), tool.Limit()},
			Annotations: tool.Read(), Handler: listOrgLabels,
		},
		{
			Name: "get_org_label", Toolset: LabelToolset,
			Title: "Get an organisation label", Output: Label{},
			Description: "Get one organisation label by ID",
			Params:      []tool.Param{org, labelID},
			Annotations: tool.Read(), Handler: orgLabelHandler("GET", "get"),
		},
		{
			Name: "create_org_label", Toolset: LabelToolset,
			Title: "Create an organisation label", Output: Label{},
			Description: "Create a label in an organisation, usable in all its repositories",
			Params:      []tool.Param{org, name(tool.Required()), color(tool.Default("#e4e4e4")), desc},
			Annotations: tool.Write(false), Handler: orgLabelHandler("POST", "create"),
		},
		{
			Name: "edit_org_label", Toolset: LabelToolset,
			Title: "Edit an organisation label", Output: Label{},
			Description: "Edit an organisation label; only the fields given change",
			Params:      []tool.Param{org, labelID, name(), color(), desc},
			Annotations: tool.Destroy(true), Handler: orgLabelHandler("PATCH", "edit"),
		},
		{
			Name: "delete_org_label", Toolset: LabelToolset,
			Title: "Delete an organisation label", Output: tool.DeletedOutput("id", int64(0)),
			Description: "Delete an organisation label, removing it from every issue",
			Params:      []tool.Param{org, labelID},
			Annotations: tool.Destroy(true), Handler: orgLabelHandler("DELETE", "delete"),
		},
	}
}

// Label is the compact shape of a label.
type Label struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Color       string `json:"color"`
	Description string `json:"description,omitempty"`
}

func compactLabel(l *sdk.Label) Label {
	return Label{ID: l.ID, Name: l.Name, Color: l.Color, Description: l.Description}
}

func labelRef(a tool.Args) string {
	return fmt.Sprintf("label %d in %s", a.Int("id"), tool.FullName(a))
}

// hexColor normalises a colour to the "#rrggbb" form every forge accepts.
func hexColor(s string) (string, error) {
	if !colorPattern.MatchString(s) {
		return "", fmt.Errorf("invalid color %q: give 6 hex digits like ee0701, '#' optional", forgejo.Clip(s))
	}
	return "#" + strings.ToLower(strings.TrimPrefix(s, "#")), nil
}

func listRepoLabels(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	list, resp, err := c.SDK(ctx).ListRepoLabels(a.String("owner"), a.String("repo"),
		sdk.ListLabelsOptions{ListOptions: tool.ListOptions(a)})
	if err := forgejo.Fail(resp, err, "list labels of", tool.RepoRef(a)); err != nil {
		return nil, err
	}
	return tool.ListResult(a, resp, list, compactLabel)
}

func getRepoLabel(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	l, resp, err := c.SDK(ctx).GetRepoLabel(a.String("owner"), a.String("repo"), a.Int("id"))
	if err := forgejo.Fail(resp, err, "get", labelRef(a)); err != nil {
		return nil, err
	}
	return tool.JSON(compactLabel(l))
}

func createRepoLabel(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	color, err := hexColor(a.String("color"))
	if err != nil {
		return nil, err
	}
	l, resp, err := c.SDK(ctx).CreateLabel(a.String("owner"), a.String("repo"), sdk.CreateLabelOption{
		Name: a.String("name"), Color: color, Description: a.String("description"),
	})
	if err := forgejo.Fail(resp, err, "create a label in", tool.RepoRef(a)); err != nil {
		return nil, err
	}
	return tool.JSON(compactLabel(l))
}

// labelBody is the JSON body of a label create or edit: only the fields the
// agent gave (or that have a default), not sdk.EditLabelOption, which sends
// null for every field not set.
func labelBody(a tool.Args) (map[string]any, error) {
	body := map[string]any{}
	for _, name := range []string{"name", "description"} {
		if a.Has(name) {
			body[name] = a.String(name)
		}
	}
	if a.Has("color") {
		color, err := hexColor(a.String("color"))
		if err != nil {
			return nil, err
		}
		body["color"] = color
	}
	return body, nil
}

func editRepoLabel(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	body, err := labelBody(a)
	if err != nil {
		return nil, err
	}
	var l sdk.Label
	req := repoRequest{Method: "PATCH", Route: []string{"labels", tool.Seg(a, "id")}, Body: body, Verb: "edit", Subject: labelRef(a)}
	if err := req.send(ctx, c, a, &l); err != nil {
		return nil, err
	}
	return tool.JSON(compactLabel(&l))
}

func deleteRepoLabel(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	resp, err := c.SDK(ctx).DeleteLabel(a.String("owner"), a.String("repo"), a.Int("id"))
	if err := forgejo.Fail(resp, err, "delete", labelRef(a)); err != nil {
		return nil, err
	}
	return tool.Deleted("id", a.Int("id"))
}

func listOrgLabels(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	list, err := orgLabels(ctx, c, a.String("org"), a.Int("page"), a.Int("limit"))
	if err != nil {
		return nil, forgejo.Relabel(err, "list labels of", "organisation "+a.String("org"))
	}
	return tool.ListResult(a, nil, list, compactLabel)
}

// orgLabelHandler is get/create/edit/delete_org_label: the SDK has no
// organisation label routes, so they go through DoJSON.
func orgLabelHandler(method, verb string) tool.Handler {
	return func(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
		segs := []string{"orgs", a.String("org"), "labels"}
		subject := "a label in organisation " + a.String("org")
		if method != "POST" {
			segs = append(segs, strconv.FormatInt(a.Int("id"), 10))
			subject = fmt.Sprintf("label %d in organisation %s", a.Int("id"), a.String("org"))
		}
		p, err := forgejo.Path(segs...)
		if err != nil {
			return nil, err
		}
		var body any // nil: GET and DELETE send no body
		if method == "POST" || method == "PATCH" {
			b, err := labelBody(a)
			if err != nil {
				return nil, err
			}
			body = b
		}
		if method == "DELETE" {
			if err := c.DoJSON(ctx, method, p, nil, nil, nil); err != nil {
				return nil, forgejo.Relabel(err, verb, subject)
			}
			return tool.Deleted("id", a.Int("id"))
		}
		var l sdk.Label
		if err := c.DoJSON(ctx, method, p, nil, body, &l); err != nil {
			return nil, forgejo.Relabel(err, verb, subject)
		}
		return tool.JSON(compactLabel(&l))
	}
}

func orgLabels(ctx context.Context, c *forgejo.Client, org string, page, limit int64) ([]*sdk.Label, error) {
	p, err := forgejo.Path("orgs", org, "labels")
	if err != nil {
		return nil, err
	}
	q := url.Values{"page": {strconv.FormatInt(page, 10)}, "limit": {strconv.FormatInt(limit, 10)}}
	var list []*sdk.Label
	return list, c.DoJSON(ctx, "GET", p, q, nil, &list)
}

// usableLabels returns every label an issue of owner/repo can carry: the
// repository's and, when owner is an organisation, the organisation's.
func usableLabels(ctx context.Context, c *forgejo.Client, owner, repo string) ([]*sdk.Label, error) {
	var all []*sdk.Label
	for page := 1; page <= maxLabelPages; page++ {
		list, resp, err := c.SDK(ctx).ListRepoLabels(owner, repo,
			sdk.ListLabelsOptions{ListOptions: sdk.ListOptions{Page: page, PageSize: 50}})
		if err := forgejo.Fail(resp, err, "list labels of", "repository "+owner+"/"+repo); err != nil {
			return nil, err
		}
		all = append(all, list...)
		if !forgejo.HasMore(resp, page, len(list), 50) {
			break
		}
	}
	for page := int64(1); page <= maxLabelPages; page++ {
		list, err := orgLabels(ctx, c, owner, page, 50)
		if forgejo.StatusOf(err) == 404 {
			break // owner is a user: there are no organisation labels
		}
		if err != nil {
			return nil, forgejo.Relabel(err, "list labels of", "organisation "+owner)
		}
		all = append(all, list...)
		if len(list) < 50 {
			break
		}
	}
	return all, nil
}

// resolveLabels maps each of wanted, a label name or ID, to a label of
// known. Names match exactly first, then ignoring case; a string of digits
// that names no label is taken as an ID. It also returns the entries that
// match nothing.
func resolveLabels(wanted []string, known []*sdk.Label) (found []*sdk.Label, unknown []string) {
	seen := map[int64]bool{}
	for _, w := range wanted {
		l := findLabel(w, known)
		if l == nil {
			unknown = append(unknown, strconv.Quote(w))
			continue
		}
		if !seen[l.ID] {
			seen[l.ID] = true
			found = append(found, l)
		}
	}
	return found, unknown
}

// unknownLabels is the error for labels that match none of known, naming
// them and the labels there are, so nothing is changed on a typo.
func unknownLabels(unknown []string, known []*sdk.Label, subject string) error {
	names := make([]string, 0, len(known))
	for _, l := range known {
		names = append(names, l.Name)
	}
	hint := "it has no labels"
	if len(names) > 0 {
		hint = "its labels are: " + forgejo.Clip(strings.Join(names, ", "))
	}
	return fmt.Errorf("no label %s in %s; %s", strings.Join(unknown, ", "), subject, hint)
}

func findLabel(w string, known []*sdk.Label) *sdk.Label {
	for _, l := range known {
		if l != nil && l.Name == w {
			return l
		}
	}
	for _, l := range known {
		if l != nil && strings.EqualFold(l.Name, w) {
			return l
		}
	}
	if id, err := strconv.ParseInt(w, 10, 64); err == nil {
		for _, l := range known {
			if l != nil && l.ID == id {
				return l
			}
		}
	}
	return nil
}

// issueLabelTargets resolves the labels argument against the labels the
// issue's repository can use. When that list cannot be read, the entries
// are passed on as they are (IDs as numbers, names as strings), which the
// forge resolves itself, and the result is checked afterwards instead.
func issueLabelTargets(ctx context.Context, c *forgejo.Client, a tool.Args) (resolved []*sdk.Label, raw []any, err error) {
	known, lerr := usableLabels(ctx, c, a.String("owner"), a.String("repo"))
	if lerr == nil {
		resolved, unknown := resolveLabels(a.Strings("labels"), known)
		if len(unknown) > 0 {
			return nil, nil, unknownLabels(unknown, known, tool.RepoRef(a))
		}
		return resolved, nil, nil
	}
	for _, w := range a.Strings("labels") {
		if id, err := strconv.ParseInt(w, 10, 64); err == nil {
			raw = append(raw, id)
		} else {
			raw = append(raw, w)
		}
	}
	return nil, raw, nil
}

func addIssueLabels(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	return sendIssueLabels(ctx, c, a, "POST", "add labels to", func(unknown []string) error {
		return fmt.Errorf("the forge did not add label %s to %s: no such label in %s",
			strings.Join(unknown, ", "), tool.IssueRef(a), tool.RepoRef(a))
	})
}

// sendIssueLabels resolves the labels named (IDs, or names looked up),
// sends them with method to the issue's labels route, and checks the forge
// kept every one: it silently skips names and IDs it does not know, which
// missed turns into the error.
func sendIssueLabels(ctx context.Context, c *forgejo.Client, a tool.Args, method, verb string, missed func(unknown []string) error) (*mcp.CallToolResult, error) {
	resolved, raw, err := issueLabelTargets(ctx, c, a)
	if err != nil {
		return nil, err
	}
	if raw == nil {
		for _, l := range resolved {
			raw = append(raw, l.ID)
		}
	}
	var now []*sdk.Label
	req := repoRequest{Method: method, Route: issueRoute(a, "labels"), Body: map[string]any{"labels": raw},
		Verb: verb, Subject: tool.IssueRef(a)}
	if err := req.send(ctx, c, a, &now); err != nil {
		return nil, err
	}
	if _, unknown := resolveLabels(a.Strings("labels"), now); len(unknown) > 0 {
		return nil, missed(unknown)
	}
	return tool.JSON(map[string]any{"labels": tool.Map(now, compactLabel)})
}

func removeIssueLabels(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	resolved, raw, err := issueLabelTargets(ctx, c, a)
	if err != nil {
		return nil, err
	}
	type target struct{ seg, name string }
	var targets []target
	for _, l := range resolved {
		targets = append(targets, target{strconv.FormatInt(l.ID, 10), l.Name})
	}
	for _, r := range raw {
		targets = append(targets, target{fmt.Sprint(r), fmt.Sprint(r)})
	}
	removed := []string{}
	for _, t := range targets {
		req := repoRequest{Method: "DELETE", Route: issueRoute(a, "labels", t.seg),
			Verb: fmt.Sprintf("remove label %q (after removing %d) from", t.name, len(removed)), Subject: tool.IssueRef(a)}
		if err := req.send(ctx, c, a, nil); err != nil {
			return nil, err
		}
		removed = append(removed, t.name)
	}
	return tool.JSON(map[string]any{"removed": removed})
}
