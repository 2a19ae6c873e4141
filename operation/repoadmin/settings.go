package repoadmin

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// units are the repository units edit_repo switches, by the name an agent
// gives and the forge's field.
var units = []struct{ name, field string }{
	{"issues", "has_issues"}, {"wiki", "has_wiki"}, {"pulls", "has_pull_requests"},
	{"projects", "has_projects"}, {"releases", "has_releases"}, {"packages", "has_packages"},
	{"actions", "has_actions"},
}

// mergeStyles are the ways a pull request may be merged, by the name
// merge_pull_request takes and the forge's field that allows it.
var mergeStyles = []struct{ name, field string }{
	{"merge", "allow_merge_commits"}, {"rebase", "allow_rebase"}, {"rebase-merge", "allow_rebase_explicit"},
	{"squash", "allow_squash_merge"}, {"fast-forward-only", "allow_fast_forward_only_merge"},
}

func names(list []struct{ name, field string }) []string {
	out := make([]string, len(list))
	for i, u := range list {
		out[i] = u.name
	}
	return out
}

// Settings is a repository's settings as edit_repo and get_repo_settings
// show them: what edit_repo can change, in its words.
type Settings struct {
	FullName          string    `json:"full_name" trust:"repo"`
	Description       string    `json:"description,omitempty"`
	Website           string    `json:"website,omitempty"`
	DefaultBranch     string    `json:"default_branch"`
	Private           bool      `json:"private"`
	Archived          bool      `json:"archived"`
	Template          bool      `json:"template"`
	Mirror            bool      `json:"mirror,omitempty"`
	Units             []string  `json:"units"`
	MergeStyles       []string  `json:"merge_styles"`
	DefaultMergeStyle string    `json:"default_merge_style,omitempty"`
	DeleteBranch      bool      `json:"delete_branch_after_merge"`
	Updated           time.Time `json:"updated_at"`
}

// wireRepo is the part of the forge's Repository that Settings shows; the
// unit and merge-style flags are read by field name.
type wireRepo struct {
	FullName          string         `json:"full_name"`
	Description       string         `json:"description"`
	Website           string         `json:"website"`
	DefaultBranch     string         `json:"default_branch"`
	Private           bool           `json:"private"`
	Archived          bool           `json:"archived"`
	Template          bool           `json:"template"`
	Mirror            bool           `json:"mirror"`
	DefaultMergeStyle string         `json:"default_merge_style"`
	DeleteBranch      bool           `json:"default_delete_branch_after_merge"`
	Updated           time.Time      `json:"updated_at"`
	Flags             map[string]any `json:"-"`
}

// UnmarshalJSON reads the named fields and keeps every boolean by name.
func (w *wireRepo) UnmarshalJSON(b []byte) error {
	type plain wireRepo
	if err := json.Unmarshal(b, (*plain)(w)); err != nil {
		return err
	}
	return json.Unmarshal(b, &w.Flags)
}

func (w wireRepo) settings() Settings {
	s := Settings{FullName: w.FullName, Description: w.Description, Website: w.Website, DefaultBranch: w.DefaultBranch,
		Private: w.Private, Archived: w.Archived, Template: w.Template, Mirror: w.Mirror,
		DefaultMergeStyle: w.DefaultMergeStyle, DeleteBranch: w.DeleteBranch, Updated: w.Updated,
		Units: []string{}, MergeStyles: []string{}}
	for _, u := range units {
		if w.Flags[u.field] == true {
			s.Units = append(s.Units, u.name)
		}
	}
	for _, m := range mergeStyles {
		if w.Flags[m.field] == true {
			s.MergeStyles = append(s.MergeStyles, m.name)
		}
	}
	return s
}

func settingsTools() []tool.Def {
	unit := tool.OneOf(names(units)...)
	return []tool.Def{
		{
			Name: "get_repo_settings", Toolset: SettingsToolset,
			Title: "Get repository settings", Output: Settings{},
			Description: "Get a repository's settings: visibility, archive, units on, merge styles allowed",
			Params:      base(), Annotations: tool.Read(), Handler: getSettings,
		},
		{
			Name: "edit_repo", Toolset: SettingsToolset,
			Title: "Edit repository settings", Output: Settings{},
			Description: "Change a repository's settings; only the given ones change. Returns the settings after",
			Params: with(
				tool.Str("description", "Short description", tool.MaxLen(2048)),
				tool.Str("website", "Website URL", tool.MaxLen(1024)),
				tool.Str("default_branch", "Default branch", tool.MaxLen(255)),
				tool.Bool("private", "Private (true) or public (false)"),
				tool.Bool("archived", "Archive (true, read-only) or unarchive"),
				tool.Bool("template", "Mark as a template for new repositories"),
				tool.Strs("enable_units", "Units to turn on", unit),
				tool.Strs("disable_units", "Units to turn off", unit),
				tool.Strs("merge_styles", "Allowed PR merge styles; the others are disallowed", tool.OneOf(names(mergeStyles)...)),
				tool.Str("default_merge_style", "Default PR merge style", tool.OneOf(names(mergeStyles)...)),
				tool.Bool("delete_branch_after_merge", "Delete a PR's branch after merge by default"),
			),
			Annotations: tool.Destroy(true), Handler: editRepo,
		},
	}
}

// readSettings decodes the forge's repository answer twice: the named
// fields, and the flags by name.
func readSettings(ctx context.Context, c *forgejo.Client, method string, a tool.Args, body any) (Settings, error) {
	p, err := tool.RepoRoute(a)
	if err != nil {
		return Settings{}, err
	}
	var raw wireRepo
	if err := c.DoJSON(ctx, method, p, nil, body, &raw); err != nil {
		verb := "get settings of"
		if method != http.MethodGet {
			verb = "edit"
		}
		return Settings{}, forgejo.Relabel(err, verb, tool.RepoRef(a))
	}
	return raw.settings(), nil
}

func getSettings(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	s, err := readSettings(ctx, c, http.MethodGet, a, nil)
	if err != nil {
		return nil, err
	}
	return tool.JSON(s)
}

// editBody is the PATCH body of the given arguments, in the forge's
// field names; an error names a contradiction before anything is sent.
func editBody(a tool.Args) (map[string]any, error) {
	body := a.Given("description", "website", "default_branch", "private", "archived", "template")
	if a.Has("delete_branch_after_merge") {
		body["default_delete_branch_after_merge"] = a.Bool("delete_branch_after_merge")
	}
	on := map[string]bool{}
	for _, n := range a.Strings("enable_units") {
		on[n] = true
	}
	for _, n := range a.Strings("disable_units") {
		if on[n] {
			return nil, fmt.Errorf("unit %q is in both enable_units and disable_units", n)
		}
	}
	for _, u := range units {
		if on[u.name] {
			body[u.field] = true
		}
		if slices.Contains(a.Strings("disable_units"), u.name) {
			body[u.field] = false
		}
	}
	if a.Has("merge_styles") {
		allowed := a.Strings("merge_styles")
		if len(allowed) == 0 {
			return nil, fmt.Errorf("merge_styles must allow at least one style (%s)", strings.Join(names(mergeStyles), ", "))
		}
		for _, m := range mergeStyles {
			body[m.field] = slices.Contains(allowed, m.name)
		}
	}
	if a.Has("default_merge_style") {
		body["default_merge_style"] = a.String("default_merge_style")
	}
	if len(body) == 0 {
		return nil, fmt.Errorf("give at least one setting to change (get_repo_settings shows them)")
	}
	return body, nil
}

func editRepo(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	body, err := editBody(a)
	if err != nil {
		return tool.Error(err.Error()), nil
	}
	s, err := readSettings(ctx, c, http.MethodPatch, a, body)
	if err != nil {
		return nil, err
	}
	// Forgejo and Gitea keep the default branch when the repository has
	// no branch of the given name, and still answer 200.
	if b := a.String("default_branch"); a.Has("default_branch") && s.DefaultBranch != b {
		return tool.Error(fmt.Sprintf("edit %s: the default branch is still %s: the forge has no branch %q (list_branches "+
			"shows them); the other settings given were applied", tool.RepoRef(a), s.DefaultBranch, b)), nil
	}
	return tool.JSON(s)
}
