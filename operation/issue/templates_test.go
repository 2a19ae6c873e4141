package issue_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/issue"
)

func TestGetIssueTemplates(t *testing.T) {
	markdown := map[string]any{"name": "Bug report", "title": "[bug] ", "about": "Something is broken",
		"labels": []any{"bug"}, "assignees": nil, "ref": "refs/heads/", "content": "## Steps\n", "body": nil,
		"file_name": ".gitea/ISSUE_TEMPLATE/bug.md"}
	form := map[string]any{"name": "Feature", "title": "", "about": "Ask", "labels": "enhancement, ui",
		"assignees": []any{"bob"}, "ref": "refs/heads/main", "content": "", "file_name": ".forgejo/ISSUE_TEMPLATE/feature.yaml",
		"body": []any{
			map[string]any{"type": "markdown", "id": "0", "attributes": map[string]any{"value": "Thanks!"}, "visible": []any{"form"}},
			map[string]any{"type": "textarea", "id": "what", "attributes": map[string]any{"label": "What?", "description": "Be specific",
				"placeholder": "I want", "render": "go"}, "validations": map[string]any{"required": true}},
			map[string]any{"type": "dropdown", "id": "area", "attributes": map[string]any{"label": "Area", "options": []any{"api", "ui"}, "multiple": true}},
			map[string]any{"type": "checkboxes", "id": "terms", "attributes": map[string]any{"label": "Terms",
				"options": []any{map[string]any{"label": "I searched", "required": true}}}, "validations": nil},
		}}
	tests := []struct {
		name      string
		templates []any
		want      string
	}{
		{"none", []any{}, `{"items":[],"page":1,"has_more":false}`},
		{"markdown", []any{markdown}, `{"items":[{"name":"Bug report","file":".gitea/ISSUE_TEMPLATE/bug.md","about":"Something is broken",
			"title":"[bug] ","labels":["bug"],"body":"## Steps\n"}],"page":1,"has_more":false}`},
		{"form", []any{form}, `{"items":[{"name":"Feature","file":".forgejo/ISSUE_TEMPLATE/feature.yaml","about":"Ask",
			"labels":["enhancement","ui"],"assignees":["bob"],"ref":"refs/heads/main","fields":[
			{"type":"markdown","value":"Thanks!"},
			{"id":"what","type":"textarea","label":"What?","description":"Be specific","required":true,"placeholder":"I want"},
			{"id":"area","type":"dropdown","label":"Area","options":["api","ui"],"multiple":true},
			{"id":"terms","type":"checkboxes","label":"Terms","options":["I searched"]}]}],"page":1,"has_more":false}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON("GET /api/v1/repos/o/r/issue_templates", 200, tt.templates)
			res := f.Call(t, issue.Tools(), "get_issue_templates", map[string]any{"owner": "o", "repo": "r"})
			require.False(t, res.IsError, fakeforge.Text(t, res))
			assert.JSONEq(t, tt.want, fakeforge.Text(t, res))
		})
	}

	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/issue_templates", 500, map[string]any{"message": "GetTemplatesFromDefaultBranch"})
	for _, tt := range []struct{ repo, want string }{
		{"gone", "repository o/gone not found (404): it does not exist or this token cannot see it"},
		{"r", "get the issue templates of repository o/r: the forge failed (500 Internal Server Error)"},
		{"a/b", `argument "repo" must contain letters, digits`},
	} {
		res := f.Call(t, issue.Tools(), "get_issue_templates", map[string]any{"owner": "o", "repo": tt.repo})
		require.True(t, res.IsError, tt.repo)
		assert.Contains(t, fakeforge.Text(t, res), tt.want)
	}
}
