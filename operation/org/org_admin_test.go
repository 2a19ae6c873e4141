package org_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/org"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/search"
)

func noContent(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }

// orgForge keeps one organisation and edits it as a forge's PATCH
// /orgs/{org} does: Forgejo 13.0.5 writes each text field the body leaves
// out as empty (recorded: forgejo-13.0.5.jsonl seq 38, 41), Gitea 1.26
// keeps it.
func orgForge(t *testing.T, clearsOmitted bool) *fakeforge.Server {
	f := fakeforge.New(t)
	state := map[string]any{}
	for k, v := range rawOrg {
		state[k] = v
	}
	state["website"], state["location"] = "https://acme.example", "Lyon"
	f.Handle("GET /api/v1/orgs/acme", func(w http.ResponseWriter, _ *http.Request) { fakeforge.WriteJSON(w, 200, state) })
	f.Handle("PATCH /api/v1/orgs/acme", func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		require.NoError(t, json.NewDecoder(r.Body).Decode(&body))
		for _, k := range []string{"full_name", "description", "website", "location", "visibility"} {
			v, ok := body[k]
			switch {
			case ok:
				state[k] = v
			case clearsOmitted && k != "visibility":
				state[k] = ""
			}
		}
		fakeforge.WriteJSON(w, 200, state)
	})
	return f
}

func TestEditOrgKeepsFieldsNotNamed(t *testing.T) {
	for _, tc := range []struct {
		name          string
		clearsOmitted bool
	}{{"Forgejo", true}, {"Gitea", false}} {
		for _, args := range []map[string]any{
			{"description": "edited"},
			{"visibility": "limited"},
			{"description": "", "website": "https://new.example"},
		} {
			f := orgForge(t, tc.clearsOmitted)
			args["org"] = "acme"
			res := f.Call(t, org.Tools(), "edit_org", args)
			require.False(t, res.IsError, fakeforge.Text(t, res))
			var got map[string]any
			require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &got))
			want := map[string]any{"full_name": "Acme Inc", "description": "Tools", "website": "https://acme.example",
				"location": "Lyon", "visibility": "public"}
			for k, v := range args {
				if k != "org" {
					want[k] = v
				}
			}
			for k, v := range want {
				if v == "" {
					assert.Empty(t, got[k], "%s %v: %s", tc.name, args, k) // an empty field is left out
					continue
				}
				assert.Equal(t, v, got[k], "%s %v: %s", tc.name, args, k)
			}
		}
	}
}

func TestEditOrgMissing(t *testing.T) {
	f := fakeforge.New(t)
	res := f.Call(t, org.Tools(), "edit_org", map[string]any{"org": "gone", "description": "x"})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "organisation gone not found (404)")
	for _, r := range f.Requests() {
		assert.NotEqual(t, http.MethodPatch, r.Method, "nothing is written to a missing organisation")
	}
}

func TestDeleteOrg(t *testing.T) {
	f := fakeforge.New(t)
	f.Handle("DELETE /api/v1/orgs/acme", noContent)
	res := f.Call(t, org.Tools(), "delete_org", map[string]any{"org": "acme"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"deleted":true,"org":"acme"}`, fakeforge.Text(t, res))
	res = f.Call(t, org.Tools(), "delete_org", map[string]any{"org": "gone"})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "organisation gone not found (404)")
}

func TestCreateOrgTeam(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("POST /api/v1/orgs/acme/teams", 201, map[string]any{"id": 5, "name": "devs", "permission": "none",
		"includes_all_repositories": false, "can_create_org_repo": false, "units_map": map[string]string{"repo.code": "write", "repo.wiki": "read"}})
	res := f.Call(t, org.Tools(), "create_org_team", map[string]any{"org": "acme", "name": "devs", "permission": "write"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"id":5,"name":"devs","permission":"none","includes_all_repositories":false,"can_create_org_repo":false,
		"units":{"repo.code":"write","repo.wiki":"read"}}`, fakeforge.Text(t, res), "units that differ are shown")
	var sent struct {
		Name       string            `json:"name"`
		Permission string            `json:"permission"`
		UnitsMap   map[string]string `json:"units_map"`
	}
	require.NoError(t, json.Unmarshal(f.Requests()[0].Body, &sent))
	assert.Equal(t, "write", sent.Permission)
	assert.Equal(t, "write", sent.UnitsMap["repo.code"], "the forge needs units for a non-admin team")
}

// The same request answered by Forgejo 13.0.5 and 15.0.3 (permission
// "write") and Gitea 1.26 (permission "none" with every unit "write"), as
// recorded, reads the same.
func TestTeamPermissionReadsTheSameOnBoth(t *testing.T) {
	recs, err := fakeforge.Recordings()
	require.NoError(t, err)
	for tool, args := range map[string]map[string]any{
		"create_org_team":  {"org": "sorgrec", "name": "devs", "permission": "write"},
		"search_org_teams": {"org": "sorgrec", "query": "dev"},
	} {
		var got []string
		for _, rec := range recs {
			f := fakeforge.New(t)
			f.Replay(rec, tool)
			res := f.Call(t, append(org.Tools(), search.Tools()...), tool, args)
			require.False(t, res.IsError, fakeforge.Text(t, res))
			got = append(got, fakeforge.Text(t, res))
		}
		require.Len(t, got, len(recs))
		for i := range got[1:] {
			assert.JSONEq(t, got[0], got[i+1], "%s on %s", tool, recs[i+1].Name)
		}
		assert.Contains(t, got[0], `"permission":"write"`, tool)
		assert.NotContains(t, got[0], `"units"`, tool)
	}
}

func TestTeamMembersAndRepos(t *testing.T) {
	f := fakeforge.New(t)
	for _, route := range []string{"PUT /api/v1/teams/5/members/bob", "DELETE /api/v1/teams/5/members/bob",
		"PUT /api/v1/teams/5/repos/acme/app", "DELETE /api/v1/teams/5/repos/acme/app", "DELETE /api/v1/orgs/acme/members/bob"} {
		f.Handle(route, noContent)
	}
	for _, c := range []struct {
		name string
		args map[string]any
		want string
	}{
		{"add_team_member", map[string]any{"team_id": 5.0, "user": "bob"}, `{"team_id":5,"user":"bob","member":true}`},
		{"remove_team_member", map[string]any{"team_id": 5.0, "user": "bob"}, `{"team_id":5,"user":"bob","member":false}`},
		{"add_team_repo", map[string]any{"team_id": 5.0, "org": "acme", "repo": "app"}, `{"team_id":5,"repo":"acme/app","access":true}`},
		{"remove_team_repo", map[string]any{"team_id": 5.0, "org": "acme", "repo": "app"}, `{"team_id":5,"repo":"acme/app","access":false}`},
		{"remove_org_member", map[string]any{"org": "acme", "user": "bob"}, `{"org":"acme","user":"bob","member":false}`},
	} {
		res := f.Call(t, org.Tools(), c.name, c.args)
		require.False(t, res.IsError, "%s: %s", c.name, fakeforge.Text(t, res))
		assert.JSONEq(t, c.want, fakeforge.Text(t, res), c.name)
	}
	f.JSON("GET /api/v1/users/bob", 200, map[string]any{"login": "bob"})
	res := f.Call(t, org.Tools(), "add_team_member", map[string]any{"team_id": 6.0, "user": "bob"})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "team 6 not found (404)")
}

// TestTeamToolsNameAMissingUser: a 404 about the user names the user, not
// the team or the organisation, and no forge function name shows.
func TestTeamToolsNameAMissingUser(t *testing.T) {
	f := fakeforge.New(t)
	for _, route := range []string{"PUT /api/v1/teams/5/members/nobody", "DELETE /api/v1/teams/5/members/nobody", "DELETE /api/v1/orgs/acme/members/nobody"} {
		f.JSON(route, 404, map[string]any{"message": "GetUserByName", "errors": []string{"user does not exist [uid: 0, name: nobody]"}})
	}
	for _, c := range []struct {
		name string
		args map[string]any
	}{
		{"add_team_member", map[string]any{"team_id": 5.0, "user": "nobody"}},
		{"remove_team_member", map[string]any{"team_id": 5.0, "user": "nobody"}},
		{"remove_org_member", map[string]any{"org": "acme", "user": "nobody"}},
	} {
		res := f.Call(t, org.Tools(), c.name, c.args)
		require.True(t, res.IsError, c.name)
		assert.Equal(t, "user nobody not found (404): it does not exist or this token cannot see it", fakeforge.Text(t, res), c.name)
	}
}
