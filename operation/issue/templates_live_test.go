package issue_test

import (
	"encoding/base64"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/issue"
)

const bugTemplate = `---
name: Bug report
about: Something is broken
title: "[bug] "
labels: ["bug"]
---

## Steps
`

const featureTemplate = `name: Feature
description: Ask for a feature
title: "[feat] "
labels:
  - enhancement
body:
  - type: markdown
    attributes:
      value: Thanks!
  - type: textarea
    id: what
    attributes:
      label: What do you want?
      description: Be specific
    validations:
      required: true
  - type: dropdown
    id: area
    attributes:
      label: Area
      options: [api, ui]
  - type: checkboxes
    id: terms
    attributes:
      label: Terms
      options:
        - label: I searched first
          required: true
`

func TestLiveIssueTemplates(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	defs := issue.Tools()
	call := f.RepoCaller(t, defs, owner, repo)

	assert.JSONEq(t, `{"items":[],"page":1,"has_more":false}`, call("get_issue_templates", map[string]any{}))

	file := func(path, content string) map[string]any {
		return map[string]any{"operation": "create", "path": path, "content": base64.StdEncoding.EncodeToString([]byte(content))}
	}
	var raw []byte
	status := f.Do(t, "POST", fmt.Sprintf("/repos/%s/%s/contents", owner, repo), map[string]any{"message": "Issue templates",
		"files": []any{file(".gitea/ISSUE_TEMPLATE/bug.md", bugTemplate), file(".gitea/ISSUE_TEMPLATE/feature.yaml", featureTemplate)}}, &raw)
	require.Equal(t, 201, status, string(raw))

	assert.JSONEq(t, `{"items":[
		{"name":"Bug report","file":".gitea/ISSUE_TEMPLATE/bug.md","about":"Something is broken","title":"[bug] ",
		 "labels":["bug"],"body":"\n## Steps\n"},
		{"name":"Feature","file":".gitea/ISSUE_TEMPLATE/feature.yaml","about":"Ask for a feature","title":"[feat] ",
		 "labels":["enhancement"],"fields":[
			{"type":"markdown","value":"Thanks!"},
			{"id":"what","type":"textarea","label":"What do you want?","description":"Be specific","required":true},
			{"id":"area","type":"dropdown","label":"Area","options":["api","ui"]},
			{"id":"terms","type":"checkboxes","label":"Terms","options":["I searched first"]}]}],
		"page":1,"has_more":false}`, call("get_issue_templates", map[string]any{}))

	res := f.WithToken(f.Token2).Call(t, defs, "get_issue_templates", map[string]any{"owner": owner, "repo": repo})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf("repository %s/%s not found (404)", owner, repo))
}
