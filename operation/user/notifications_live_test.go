package user_test

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
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/user"
)

type liveNotification struct {
	ID     int64  `json:"id"`
	Title  string `json:"title"`
	Type   string `json:"type"`
	Repo   string `json:"repo"`
	Index  int64  `json:"index"`
	Unread bool   `json:"unread"`
}

// unreadIn lists u's unread notifications about repo owner/name.
func unreadIn(t *testing.T, u *testforge.Forge, repo string) []liveNotification {
	t.Helper()
	res := u.Call(t, user.Tools(), "check_notifications", map[string]any{"limit": 50.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var page struct {
		Items []liveNotification `json:"items"`
	}
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &page))
	var out []liveNotification
	for _, n := range page.Items {
		if n.Repo == repo {
			out = append(out, n)
		}
	}
	return out
}

// awaitUnread waits for the forge's notification queue to deliver want
// unread threads about repo to u.
func awaitUnread(t *testing.T, u *testforge.Forge, repo string, want int) []liveNotification {
	t.Helper()
	var got []liveNotification
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if got = unreadIn(t, u, repo); len(got) >= want {
			return got
		}
	}
	t.Fatalf("%d unread notifications about %s after 20 s, want %d: %+v", len(got), repo, want, got)
	return nil
}

func TestLiveNotifications(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	full := owner + "/" + repo
	// The second user can see the private repository, so mentions reach them.
	status := f.Do(t, http.MethodPut, fmt.Sprintf("/repos/%s/%s/collaborators/%s", owner, repo, f.User2),
		map[string]any{"permission": "write"}, nil)
	require.Equal(t, http.StatusNoContent, status)
	u2 := f.WithToken(f.Token2)
	defs := user.Tools()
	call := func(name string, args map[string]any) string {
		t.Helper()
		res := u2.Call(t, defs, name, args)
		require.False(t, res.IsError, "%s: %s", name, fakeforge.Text(t, res))
		return fakeforge.Text(t, res)
	}

	index := f.NewIssue(t, owner, repo, "Needs you", "ping @"+f.User2)
	got := awaitUnread(t, u2, full, 1)
	n := got[0]
	assert.Equal(t, "Needs you", n.Title)
	assert.Equal(t, "Issue", n.Type)
	assert.Equal(t, index, n.Index)
	assert.True(t, n.Unread)

	text := call("get_notification_thread", map[string]any{"id": float64(n.ID)})
	assert.Contains(t, text, `"title":"Needs you"`)
	assert.Contains(t, text, `"unread":true`)

	text = call("mark_notification_read", map[string]any{"id": float64(n.ID)})
	assert.Contains(t, text, `"unread":false`)
	assert.Empty(t, unreadIn(t, u2, full), "the thread is read")
	call("mark_notification_read", map[string]any{"id": float64(n.ID)}) // idempotent
	text = call("check_notifications", map[string]any{"include_read": true, "limit": 50.0})
	assert.Contains(t, text, fmt.Sprintf(`"id":%d,`, n.ID), "all=true lists read threads too")

	// A thread about this repository, marked read through the repository.
	f.NewIssue(t, owner, repo, "Needs you here", "ping @"+f.User2)
	awaitUnread(t, u2, full, 1)
	text = call("list_repo_notifications", map[string]any{"owner": owner, "repo": repo})
	assert.Contains(t, text, `"title":"Needs you here"`)
	// The since/before window is honoured.
	assert.Contains(t, call("list_repo_notifications", map[string]any{"owner": owner, "repo": repo, "since": "2000-01-01", "before": "2999-01-01"}), `"title":"Needs you here"`)
	assert.Contains(t, call("list_repo_notifications", map[string]any{"owner": owner, "repo": repo, "since": "2999-01-01"}), `"items":[]`)
	assert.NotContains(t, call("check_notifications", map[string]any{"before": "2000-01-01", "limit": 50.0}), "Needs you here")
	assert.JSONEq(t, `{"marked":1}`, call("mark_repo_notifications_read", map[string]any{"owner": owner, "repo": repo}))
	assert.Contains(t, call("list_repo_notifications", map[string]any{"owner": owner, "repo": repo}), `"items":[]`)

	// Another thread, then mark everything read.
	f.NewIssue(t, owner, repo, "Needs you again", "ping @"+f.User2)
	awaitUnread(t, u2, full, 1)
	text = call("mark_all_notifications_read", nil)
	var marked struct {
		Marked int `json:"marked"`
	}
	require.NoError(t, json.Unmarshal([]byte(text), &marked))
	assert.GreaterOrEqual(t, marked.Marked, 1)
	assert.Empty(t, unreadIn(t, u2, full))
	assert.JSONEq(t, `{"marked":0}`, call("mark_all_notifications_read", nil), "idempotent")

	res := u2.Call(t, defs, "get_notification_thread", map[string]any{"id": 999999.0})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "notification thread 999999 not found (404)")
}
