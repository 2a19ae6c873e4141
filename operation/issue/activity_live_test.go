package issue_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/issue"
)

// TestLiveRepoComments lists the comments of every issue of a repository,
// with their issue numbers, and only those since a time.
func TestLiveRepoComments(t *testing.T) {
	f := testforge.Get(t)
	owner, name := f.NewRepo(t)
	call := f.RepoCaller(t, issue.Tools(), owner, name)
	one := f.NewIssue(t, owner, name, "One", "")
	two := f.NewIssue(t, owner, name, "Two", "")
	f.NewComment(t, owner, name, one, "first")
	time.Sleep(1100 * time.Millisecond) // the forges keep seconds
	cut := time.Now().UTC().Format(time.RFC3339)
	time.Sleep(1100 * time.Millisecond)
	f.NewComment(t, owner, name, two, "second")

	type page struct {
		Items []struct {
			Issue int64  `json:"issue"`
			Body  string `json:"body"`
		} `json:"items"`
	}
	var all page
	require.NoError(t, json.Unmarshal([]byte(call("list_repo_comments", map[string]any{})), &all))
	require.Len(t, all.Items, 2)
	assert.Equal(t, one, all.Items[0].Issue)
	assert.Equal(t, "first", all.Items[0].Body)
	assert.Equal(t, two, all.Items[1].Issue)

	var since page
	require.NoError(t, json.Unmarshal([]byte(call("list_repo_comments", map[string]any{"since": cut})), &since))
	require.Len(t, since.Items, 1)
	assert.Equal(t, "second", since.Items[0].Body)
}

// TestLiveRepoActivity reads a repository's feed after an issue is opened,
// and for a day that holds nothing.
func TestLiveRepoActivity(t *testing.T) {
	f := testforge.Get(t)
	owner, name := f.NewRepo(t)
	call := f.RepoCaller(t, issue.Tools(), owner, name)
	f.NewIssue(t, owner, name, "Feed me", "")
	var feed struct {
		Items []struct {
			Op    string `json:"op"`
			Actor string `json:"actor"`
		} `json:"items"`
	}
	require.NoError(t, json.Unmarshal([]byte(call("list_repo_activity", map[string]any{})), &feed))
	ops := map[string]string{}
	for _, e := range feed.Items {
		ops[e.Op] = e.Actor
	}
	assert.Equal(t, map[string]string{"create_repo": f.User, "create_issue": f.User}, ops)
	// A day long past holds nothing.
	require.NoError(t, json.Unmarshal([]byte(call("list_repo_activity", map[string]any{"date": "2001-01-01"})), &feed))
	assert.Empty(t, feed.Items)
}
