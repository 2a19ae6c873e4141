package user_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/user"
)

var rawThread = map[string]any{
	"id": 12, "unread": true, "pinned": false, "updated_at": "2026-01-02T03:04:05Z",
	"url":        "http://x/api/v1/notifications/threads/12",
	"repository": map[string]any{"id": 9, "name": "r", "full_name": "o/r", "owner": map[string]any{"login": "o"}},
	"subject": map[string]any{"title": "Crash on start", "type": "Issue", "state": "open",
		"url": "http://x/api/v1/repos/o/r/issues/3", "html_url": "http://x/o/r/issues/3",
		"latest_comment_url": "http://x/api/v1/repos/o/r/issues/comments/7", "latest_comment_html_url": "http://x/o/r/issues/3#issuecomment-7"},
}

func TestCheckNotifications(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/notifications", 200, []any{rawThread, nil})
	res := f.Call(t, user.Tools(), "check_notifications", nil)
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[{"id":12,"title":"Crash on start","type":"Issue","state":"open","repo":"o/r","index":3,
		"unread":true,"updated_at":"2026-01-02T03:04:05Z","html_url":"http://x/o/r/issues/3"}],"page":1,"has_more":false}`,
		fakeforge.Text(t, res))
	q := f.Requests()[0].RawQuery
	assert.Contains(t, q, "status-types=unread")
	assert.Contains(t, q, "status-types=pinned")
	assert.NotContains(t, q, "status-types=read")

	f.Call(t, user.Tools(), "check_notifications", map[string]any{"include_read": true, "page": 2.0, "limit": 5.0})
	q = f.Requests()[1].RawQuery
	for _, want := range []string{"status-types=read", "page=2", "limit=5"} {
		assert.Contains(t, q, want)
	}
}

func TestGetNotificationThread(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/notifications/threads/12", 200, rawThread)
	res := f.Call(t, user.Tools(), "get_notification_thread", map[string]any{"id": 12.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"latest_comment_url":"http://x/o/r/issues/3#issuecomment-7"`)

	res = f.Call(t, user.Tools(), "get_notification_thread", map[string]any{"id": 99.0})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "notification thread 99 not found (404)")
}

func TestMarkNotificationRead(t *testing.T) {
	f := fakeforge.New(t)
	read := map[string]any{}
	for k, v := range rawThread {
		read[k] = v
	}
	read["unread"] = false
	f.JSON("PATCH /api/v1/notifications/threads/12", 205, read)
	res := f.Call(t, user.Tools(), "mark_notification_read", map[string]any{"id": 12.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"id":12`)
	assert.Contains(t, fakeforge.Text(t, res), `"unread":false`)
	assert.Equal(t, "to-status=read", f.Requests()[0].RawQuery)
}

func TestMarkAllNotificationsRead(t *testing.T) {
	f := fakeforge.New(t)
	f.Handle("PUT /api/v1/notifications", func(w http.ResponseWriter, r *http.Request) {
		fakeforge.WriteJSON(w, 205, []any{rawThread, rawThread})
	})
	res := f.Call(t, user.Tools(), "mark_all_notifications_read", nil)
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"marked":2}`, fakeforge.Text(t, res))
	q := f.Requests()[0].RawQuery
	assert.Contains(t, q, "status-types=unread")
	assert.Contains(t, q, "to-status=read")
}

func TestMarkAllNotificationsForbidden(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("PUT /api/v1/notifications", 403, map[string]string{"message": "token does not have at least one of required scope(s): [write:notification]"})
	res := f.Call(t, user.Tools(), "mark_all_notifications_read", nil)
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "mark as read the token user's notifications: permission denied (403)")
}

func TestRepoNotifications(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/notifications", 200, []any{rawThread})
	f.JSON("PUT /api/v1/repos/o/r/notifications", 205, []any{rawThread})
	res := f.Call(t, user.Tools(), "list_repo_notifications", map[string]any{"owner": "o", "repo": "r"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"items":[{"id":12,"title":"Crash on start"`)
	assert.Contains(t, f.Requests()[0].RawQuery, "status-types=unread")

	res = f.Call(t, user.Tools(), "mark_repo_notifications_read", map[string]any{"owner": "o", "repo": "r"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"marked":1}`, fakeforge.Text(t, res))
	assert.Contains(t, f.Requests()[1].RawQuery, "to-status=read")

	res = f.Call(t, user.Tools(), "list_repo_notifications", map[string]any{"owner": "o", "repo": "gone"})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "repository o/gone not found (404)")
}
