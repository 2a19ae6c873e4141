package issue

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// templateTools returns get_issue_templates; Tools includes it. It goes
// through DoJSON: forgejo-sdk reads form options as strings, and the forge
// sends a checkboxes field's options as objects, so the SDK call fails on
// any form with checkboxes.
func templateTools() []tool.Def {
	return []tool.Def{{
		Name: "get_issue_templates", Title: "Get issue templates", Toolset: MilestoneToolset,
		Description: "List a repository's issue templates: title prefix, labels, Markdown body or form fields",
		Params:      []tool.Param{tool.Owner(), tool.Repo()},
		Annotations: tool.Read(), Handler: getTemplates, Output: tool.ListPage[Template]{},
	}}
}

// Template is the compact shape of an issue template: a Markdown template
// has Body, a form has Fields.
type Template struct {
	Name      string   `json:"name"`
	File      string   `json:"file"`
	About     string   `json:"about,omitempty"`
	Title     string   `json:"title,omitempty"`
	Labels    []string `json:"labels,omitempty"`
	Assignees []string `json:"assignees,omitempty"`
	Ref       string   `json:"ref,omitempty"`
	Body      string   `json:"body,omitempty" md:"rendered"`
	Fields    []Field  `json:"fields,omitempty"`
}

// Field is one element of a form template. A markdown element is text
// shown with the form (Value), not an input.
type Field struct {
	ID          string   `json:"id,omitempty"`
	Type        string   `json:"type"`
	Label       string   `json:"label,omitempty"`
	Description string   `json:"description,omitempty" md:"rendered"`
	Required    bool     `json:"required,omitempty"`
	Options     []string `json:"options,omitempty"`
	Multiple    bool     `json:"multiple,omitempty"`
	Value       string   `json:"value,omitempty" md:"when=type:markdown"`
	Placeholder string   `json:"placeholder,omitempty"`
}

// rawTemplate is the forge's IssueTemplate.
type rawTemplate struct {
	Name      string     `json:"name"`
	Title     string     `json:"title"`
	About     string     `json:"about"`
	Labels    stringList `json:"labels"`
	Assignees stringList `json:"assignees"` // Gitea only
	Ref       string     `json:"ref"`
	Content   string     `json:"content"`
	Fields    []struct {
		ID          string         `json:"id"`
		Type        string         `json:"type"`
		Attributes  map[string]any `json:"attributes"`
		Validations map[string]any `json:"validations"`
	} `json:"body"`
	File string `json:"file_name"`
}

// stringList reads a list of strings, or one comma-separated string (the
// form a template's front matter allows). The string is walked, not
// split (a string of commas would cost 16 bytes each), and at most
// maxTemplateList names are kept: a template file is anyone's who can push.
type stringList []string

// maxTemplateList bounds the labels or assignees kept of one template.
const maxTemplateList = 256

func (l *stringList) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*l = nil
		for part := range strings.SplitSeq(s, ",") {
			if part = strings.TrimSpace(part); part != "" {
				if len(*l) == maxTemplateList {
					break
				}
				*l = append(*l, part)
			}
		}
		return nil
	}
	if err := json.Unmarshal(b, (*[]string)(l)); err != nil {
		return err
	}
	*l = (*l)[:min(len(*l), maxTemplateList)]
	return nil
}

func compactTemplate(t *rawTemplate) Template {
	out := Template{Name: t.Name, File: t.File, About: t.About, Title: t.Title, Labels: t.Labels,
		Assignees: t.Assignees, Body: t.Content}
	// The forge sends "refs/heads/" for a template that names no branch.
	if r := strings.TrimPrefix(t.Ref, "refs/heads/"); r != "" {
		out.Ref = t.Ref
	}
	for _, f := range t.Fields {
		fd := Field{ID: f.ID, Type: f.Type, Label: str(f.Attributes["label"]),
			Description: str(f.Attributes["description"]), Value: str(f.Attributes["value"]),
			Placeholder: str(f.Attributes["placeholder"]), Required: f.Validations["required"] == true,
			Multiple: f.Attributes["multiple"] == true}
		if f.Type == "markdown" {
			fd.ID = "" // the forge numbers markdown elements; they are not inputs
		}
		opts, _ := f.Attributes["options"].([]any)
		for _, o := range opts {
			// Dropdown options are strings; checkboxes are {label, required}.
			if m, ok := o.(map[string]any); ok {
				o = m["label"]
			}
			fd.Options = append(fd.Options, str(o))
		}
		out.Fields = append(out.Fields, fd)
	}
	return out
}

// str is v when it is a string, "" otherwise.
func str(v any) string { s, _ := v.(string); return s }

func getTemplates(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	var list []*rawTemplate
	req := repoRequest{Method: "GET", Route: []string{"issue_templates"}, Verb: "get the issue templates of", Subject: tool.RepoRef(a)}
	if err := req.send(ctx, c, a, &list); err != nil {
		return nil, err
	}
	// The route is not paged: one page holds every template.
	return tool.Items(tool.Map(list, compactTemplate), 1, false)
}
