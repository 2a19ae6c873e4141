package issue_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/issue"
)

// TestLiveActivityFeeds reads the feeds that span repositories (an
// organisation's, its Owners team's, the acting user's) after a user
// creates an organisation, a repository and an issue in it: each names
// the repository of its entries.
func TestLiveActivityFeeds(t *testing.T) {
	// A user of the test's own: the suite's user's feed holds every other
	// test's work, and Gitea 1.26 answers 500 for a feed holding an action
	// of a repository deleted since (ToActivity dereferences its nil repo).
	f := testforge.Get(t).NewUser(t)
	org := fmt.Sprintf("live-feed-%d", time.Now().UnixNano()%1e9)
	require.Equal(t, http.StatusCreated, f.Do(t, http.MethodPost, "/orgs", map[string]any{"username": org}, nil))
	t.Cleanup(func() { f.Do(t, http.MethodDelete, "/orgs/"+org, nil, nil) })
	require.Equal(t, http.StatusCreated, f.Do(t, http.MethodPost, "/orgs/"+org+"/repos",
		map[string]any{"name": "site", "auto_init": true, "default_branch": "main"}, nil))
	t.Cleanup(func() { f.Do(t, http.MethodDelete, "/repos/"+org+"/site", nil, nil) })
	f.NewIssue(t, org, "site", "Feed the org", "")
	var teams []struct {
		ID int64 `json:"id"`
	}
	require.Equal(t, http.StatusOK, f.Do(t, http.MethodGet, "/orgs/"+org+"/teams", nil, &teams))
	require.NotEmpty(t, teams)

	type page struct {
		Items []struct {
			Repo  string `json:"repo"`
			Op    string `json:"op"`
			Actor string `json:"actor"`
		} `json:"items"`
	}
	ops := func(name string, args map[string]any) map[string]string {
		t.Helper()
		res := f.Call(t, issue.Tools(), name, args)
		require.False(t, res.IsError, "%s: %s", name, fakeforge.Text(t, res))
		var p page
		require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &p))
		got := map[string]string{}
		for _, e := range p.Items {
			if e.Repo == org+"/site" {
				got[e.Op] = e.Actor
			}
		}
		return got
	}
	want := map[string]string{"create_repo": f.User, "create_issue": f.User}
	assert.Equal(t, want, ops("list_org_activity", map[string]any{"org": org}))
	assert.Equal(t, want, ops("list_team_activity", map[string]any{"team_id": float64(teams[0].ID)}))
	assert.Equal(t, want, ops("list_user_activity", map[string]any{"user": f.User, "only_performed_by": true, "limit": 50.0}))
	// A day long past holds nothing.
	assert.Empty(t, ops("list_org_activity", map[string]any{"org": org, "date": "2001-01-01"}))
}
