package issue_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/issue"
)

var (
	rawBug  = map[string]any{"id": 5, "name": "bug", "color": "ee0701", "description": "Broken", "url": "http://x/labels/5", "exclusive": false}
	rawUI   = map[string]any{"id": 6, "name": "UI", "color": "00aabb", "description": "", "url": "http://x/labels/6"}
	rawTeam = map[string]any{"id": 9, "name": "team/core", "color": "111111", "description": "", "url": "http://x/labels/9"}
)

func TestListRepoLabels(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/labels", 200, []any{rawBug, rawUI})
	res := f.Call(t, issue.Tools(), "list_repo_labels", map[string]any{"owner": "o", "repo": "r", "limit": 2.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[{"id":5,"name":"bug","color":"ee0701","description":"Broken"},
		{"id":6,"name":"UI","color":"00aabb"}],"page":1,"has_more":true}`, fakeforge.Text(t, res))
	assert.Equal(t, "limit=2&page=1", f.Requests()[0].RawQuery)

	res = f.Call(t, issue.Tools(), "get_repo_label", map[string]any{"owner": "o", "repo": "r", "id": 8.0})
	assert.True(t, res.IsError)
	assert.Equal(t, "label 8 in o/r not found (404): it does not exist or this token cannot see it", fakeforge.Text(t, res))
}

func TestCreateEditDeleteRepoLabel(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("POST /api/v1/repos/o/r/labels", 201, rawBug)
	f.JSON("PATCH /api/v1/repos/o/r/labels/5", 200, rawBug)
	f.Handle("DELETE /api/v1/repos/o/r/labels/5", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(204) })

	res := f.Call(t, issue.Tools(), "create_repo_label", map[string]any{"owner": "o", "repo": "r", "name": "bug", "color": "EE0701", "description": "Broken"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"name":"bug","color":"#ee0701","description":"Broken"}`, string(f.Requests()[0].Body))
	assert.JSONEq(t, `{"id":5,"name":"bug","color":"ee0701","description":"Broken"}`, fakeforge.Text(t, res))

	res = f.Call(t, issue.Tools(), "create_repo_label", map[string]any{"owner": "o", "repo": "r", "name": "bug"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"name":"bug","color":"#e4e4e4","description":""}`, string(f.Requests()[1].Body), "a default colour")

	res = f.Call(t, issue.Tools(), "create_repo_label", map[string]any{"owner": "o", "repo": "r", "name": "bug", "color": "red"})
	assert.True(t, res.IsError)
	assert.Equal(t, `invalid color "red": give 6 hex digits like ee0701, '#' optional`, fakeforge.Text(t, res))
	assert.Len(t, f.Requests(), 2, "refused before the forge")

	res = f.Call(t, issue.Tools(), "edit_repo_label", map[string]any{"owner": "o", "repo": "r", "id": 5.0, "color": "#00FF00"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"color":"#00ff00"}`, string(f.Requests()[2].Body), "only the fields given are sent")

	res = f.Call(t, issue.Tools(), "delete_repo_label", map[string]any{"owner": "o", "repo": "r", "id": 5.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"deleted":true,"id":5}`, fakeforge.Text(t, res))

	res = f.Call(t, issue.Tools(), "delete_repo_label", map[string]any{"owner": "o", "repo": "r", "id": 7.0})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "label 7 in o/r not found (404)")
}

func TestAddIssueLabelsResolvesNames(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/labels", 200, []any{rawBug, rawUI})
	f.JSON("GET /api/v1/orgs/o/labels", 200, []any{rawTeam})
	f.JSON("POST /api/v1/repos/o/r/issues/3/labels", 200, []any{rawBug, rawUI, rawTeam})
	res := f.Call(t, issue.Tools(), "add_issue_labels", map[string]any{"owner": "o", "repo": "r", "index": 3.0,
		"labels": []any{"bug", "ui", "9", "Bug"}})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	reqs := f.Requests()
	require.Len(t, reqs, 3)
	assert.JSONEq(t, `{"labels":[5,6,9]}`, string(reqs[2].Body), "names (case-insensitive) and IDs become IDs, once each")
	assert.JSONEq(t, `{"labels":[{"id":5,"name":"bug","color":"ee0701","description":"Broken"},
		{"id":6,"name":"UI","color":"00aabb"},{"id":9,"name":"team/core","color":"111111"}]}`, fakeforge.Text(t, res))
}

func TestAddIssueLabelsUnknownNameChangesNothing(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/labels", 200, []any{rawBug, rawUI})
	res := f.Call(t, issue.Tools(), "add_issue_labels", map[string]any{"owner": "o", "repo": "r", "index": 3.0,
		"labels": []any{"bug", "feature", "42"}})
	assert.True(t, res.IsError)
	assert.Equal(t, `no label "feature", "42" in repository o/r; its labels are: bug, UI`, fakeforge.Text(t, res))
	for _, r := range f.Requests() {
		assert.Equal(t, "GET", r.Method, "nothing is written")
	}
}

func TestAddIssueLabelsChecksWhatTheForgeApplied(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/labels", 500, map[string]any{"message": "boom"})
	f.JSON("POST /api/v1/repos/o/r/issues/3/labels", 200, []any{rawBug})
	res := f.Call(t, issue.Tools(), "add_issue_labels", map[string]any{"owner": "o", "repo": "r", "index": 3.0,
		"labels": []any{"bug", "7"}})
	assert.True(t, res.IsError)
	assert.JSONEq(t, `{"labels":["bug",7]}`, string(f.Requests()[1].Body), "unresolved, the forge resolves names itself")
	assert.Equal(t, `the forge did not add label "7" to issue o/r#3: no such label in repository o/r`, fakeforge.Text(t, res))
}

func TestRemoveIssueLabels(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/labels", 200, []any{rawBug, rawUI})
	var deleted []string
	f.Handle("DELETE /api/v1/repos/o/r/issues/3/labels/{id}", func(w http.ResponseWriter, r *http.Request) {
		deleted = append(deleted, r.URL.Path[len("/api/v1/repos/o/r/issues/3/labels/"):])
		w.WriteHeader(204)
	})
	res := f.Call(t, issue.Tools(), "remove_issue_labels", map[string]any{"owner": "o", "repo": "r", "index": 3.0,
		"labels": []any{"UI", "5"}})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Equal(t, []string{"6", "5"}, deleted)
	assert.JSONEq(t, `{"removed":["UI","bug"]}`, fakeforge.Text(t, res))

	res = f.Call(t, issue.Tools(), "remove_issue_labels", map[string]any{"owner": "o", "repo": "r", "index": 3.0,
		"labels": []any{"nope"}})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), `no label "nope" in repository o/r`)
	assert.Len(t, deleted, 2, "nothing more is deleted")
}

func TestListOrgLabels(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/orgs/acme/labels", 200, []any{rawTeam})
	res := f.Call(t, issue.Tools(), "list_org_labels", map[string]any{"org": "acme"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[{"id":9,"name":"team/core","color":"111111"}],"page":1,"has_more":false}`, fakeforge.Text(t, res))

	res = f.Call(t, issue.Tools(), "list_org_labels", map[string]any{"org": "nobody"})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "organisation nobody not found (404)")
}

func TestOrgLabelCRUD(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/orgs/acme/labels/9", 200, rawTeam)
	f.JSON("POST /api/v1/orgs/acme/labels", 201, rawTeam)
	f.JSON("PATCH /api/v1/orgs/acme/labels/9", 200, rawTeam)
	f.Handle("DELETE /api/v1/orgs/acme/labels/9", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(204) })
	want := `{"id":9,"name":"team/core","color":"111111"}`

	res := f.Call(t, issue.Tools(), "get_org_label", map[string]any{"org": "acme", "id": 9.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, want, fakeforge.Text(t, res))
	assert.Empty(t, f.Requests()[0].Body)

	res = f.Call(t, issue.Tools(), "create_org_label", map[string]any{"org": "acme", "name": "team/core", "color": "111111"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"name":"team/core","color":"#111111"}`, string(f.Requests()[1].Body))
	assert.JSONEq(t, want, fakeforge.Text(t, res))

	res = f.Call(t, issue.Tools(), "edit_org_label", map[string]any{"org": "acme", "id": 9.0, "description": ""})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"description":""}`, string(f.Requests()[2].Body))

	res = f.Call(t, issue.Tools(), "delete_org_label", map[string]any{"org": "acme", "id": 9.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"deleted":true,"id":9}`, fakeforge.Text(t, res))

	res = f.Call(t, issue.Tools(), "delete_org_label", map[string]any{"org": "acme", "id": 8.0})
	assert.True(t, res.IsError)
	assert.Equal(t, "label 8 in organisation acme not found (404): it does not exist or this token cannot see it", fakeforge.Text(t, res))
}
