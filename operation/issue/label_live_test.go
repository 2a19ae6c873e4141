package issue_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/issue"
)

func TestLiveRepoLabelLifecycle(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	defs := issue.Tools()
	args := func(extra map[string]any) map[string]any {
		m := map[string]any{"owner": owner, "repo": repo}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}

	res := f.Call(t, defs, "create_repo_label", args(map[string]any{"name": "bug", "color": "EE0701", "description": "Broken"}))
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var l struct {
		ID    int64  `json:"id"`
		Color string `json:"color"`
	}
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &l))
	assert.Equal(t, "ee0701", l.Color)

	res = f.Call(t, defs, "edit_repo_label", args(map[string]any{"id": float64(l.ID), "color": "#00aa00"}))
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"name":"bug","color":"00aa00","description":"Broken"`, "fields not given are kept")

	res = f.Call(t, defs, "get_repo_label", args(map[string]any{"id": float64(l.ID)}))
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"color":"00aa00"`)

	res = f.Call(t, defs, "list_repo_labels", args(nil))
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf(`{"id":%d,"name":"bug"`, l.ID))

	res = f.Call(t, defs, "delete_repo_label", args(map[string]any{"id": float64(l.ID)}))
	require.False(t, res.IsError, fakeforge.Text(t, res))
	res = f.Call(t, defs, "get_repo_label", args(map[string]any{"id": float64(l.ID)}))
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf("label %d in %s/%s not found (404)", l.ID, owner, repo))

	res = f.WithToken(f.Token2).Call(t, defs, "create_repo_label", args(map[string]any{"name": "x"}))
	assert.True(t, res.IsError, "another user cannot label a private repository")
}

func TestLiveIssueLabelsByNameAndID(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	defs := issue.Tools()
	ids := map[string]int64{}
	for _, name := range []string{"bug", "UI", "docs"} {
		var l struct{ ID int64 }
		f.Do(t, "POST", fmt.Sprintf("/repos/%s/%s/labels", owner, repo), map[string]any{"name": name, "color": "#112233"}, &l)
		ids[name] = l.ID
	}
	n := f.NewIssue(t, owner, repo, "Labelled", "")
	args := func(labels ...any) map[string]any {
		return map[string]any{"owner": owner, "repo": repo, "index": float64(n), "labels": labels}
	}

	res := f.Call(t, defs, "add_issue_labels", args("bug", "ui", fmt.Sprint(ids["docs"])))
	require.False(t, res.IsError, fakeforge.Text(t, res))
	for _, name := range []string{"bug", "UI", "docs"} {
		assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf(`"name":"%s"`, name))
	}

	res = f.Call(t, defs, "add_issue_labels", args("bug", "nope"))
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf(`no label "nope" in repository %s/%s; its labels are: `, owner, repo))

	res = f.Call(t, defs, "remove_issue_labels", args("BUG", fmt.Sprint(ids["UI"])))
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"removed":["bug","UI"]}`, fakeforge.Text(t, res))

	res = f.Call(t, defs, "get_issue_by_index", map[string]any{"owner": owner, "repo": repo, "index": float64(n)})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"labels":["docs"]`)

	res = f.Call(t, defs, "remove_issue_labels", args("docs", "gone"))
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), `no label "gone"`)
	res = f.Call(t, defs, "get_issue_by_index", map[string]any{"owner": owner, "repo": repo, "index": float64(n)})
	assert.Contains(t, fakeforge.Text(t, res), `"labels":["docs"]`, "an unknown name changes nothing")

	readOnly := f.WithToken(f.TokenWithScopes(t, "read:issue", "read:repository"))
	res = readOnly.Call(t, defs, "add_issue_labels", args("bug"))
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "(403)")
}

func TestLiveOrgLabels(t *testing.T) {
	f := testforge.Get(t)
	org := f.NewOrg(t)
	f.NewOrgRepo(t, org, "work")
	f.Do(t, "POST", "/orgs/"+org+"/labels", map[string]any{"name": "team/core", "color": "#123456"}, nil)
	n := f.NewIssue(t, org, "work", "Org labelled", "")
	defs := issue.Tools()

	res := f.Call(t, defs, "list_org_labels", map[string]any{"org": org})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"name":"team/core","color":"123456"`)

	res = f.Call(t, defs, "add_issue_labels", map[string]any{"owner": org, "repo": "work", "index": float64(n), "labels": []any{"team/core"}})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"name":"team/core"`, "an organisation label resolves by name")

	res = f.Call(t, defs, "create_org_label", map[string]any{"org": org, "name": "triage", "color": "#ABCDEF", "description": "New"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var l struct{ ID int64 }
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &l))
	res = f.Call(t, defs, "edit_org_label", map[string]any{"org": org, "id": float64(l.ID), "name": "triaged"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"name":"triaged","color":"abcdef","description":"New"`)
	res = f.Call(t, defs, "get_org_label", map[string]any{"org": org, "id": float64(l.ID)})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"name":"triaged"`)
	res = f.Call(t, defs, "delete_org_label", map[string]any{"org": org, "id": float64(l.ID)})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	res = f.Call(t, defs, "get_org_label", map[string]any{"org": org, "id": float64(l.ID)})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf("label %d in organisation %s not found (404)", l.ID, org))

	res = f.WithToken(f.Token2).Call(t, defs, "create_org_label", map[string]any{"org": org, "name": "sneaky"})
	assert.True(t, res.IsError, "a non-member cannot add organisation labels")

	res = f.Call(t, defs, "list_org_labels", map[string]any{"org": "no-such-org-here"})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "organisation no-such-org-here not found (404)")
}
