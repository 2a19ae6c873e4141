package user

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"time"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// notificationTools are the token user's notification tools, part of the
// user toolset.
func notificationTools() []tool.Def {
	id := tool.ID("id", "Notification thread ID")
	return []tool.Def{
		{
			Name: "check_notifications", Toolset: NotificationToolset,
			Title: "List my notifications", Output: tool.ListPage[Notification]{},
			Description: "List the token user's unread notifications, newest first",
			Params: []tool.Param{tool.Bool("include_read", "Include read ones", tool.Default(false)),
				tool.Since("updated"), tool.Before("updated"), tool.Page(), tool.Limit()},
			Annotations: tool.Read(), Handler: listNotifications,
		},
		{
			Name: "list_repo_notifications", Toolset: NotificationToolset,
			Title: "List a repository's notifications", Output: tool.ListPage[Notification]{},
			Description: "List the token user's unread notifications about one repository",
			Params: []tool.Param{tool.Owner(), tool.Repo(),
				tool.Bool("include_read", "Include read ones", tool.Default(false)),
				tool.Since("updated"), tool.Before("updated"), tool.Page(), tool.Limit()},
			Annotations: tool.Read(), Handler: listRepoNotifications,
		},
		{
			Name: "get_notification_thread", Toolset: NotificationToolset,
			Title: "Get a notification", Output: Notification{},
			Description: "Get one notification thread",
			Params:      []tool.Param{id}, Annotations: tool.Read(), Handler: getNotification,
		},
		{
			Name: "mark_notification_read", Toolset: NotificationToolset,
			Title: "Mark a notification read", Output: tool.AnyOf(Notification{}, tool.Shape{"id": int64(0), "unread": false}),
			Description: "Mark one notification thread as read",
			Params:      []tool.Param{id}, Annotations: tool.Write(true), Handler: markNotification,
		},
		{
			Name: "mark_all_notifications_read", Toolset: NotificationToolset,
			Title: "Mark all notifications read", Output: tool.Shape{"marked": 0},
			Description: "Mark all the token user's unread notifications as read",
			Annotations: tool.Write(true), Handler: markAllNotifications,
		},
		{
			Name: "mark_repo_notifications_read", Toolset: NotificationToolset,
			Title: "Mark a repository's notifications read", Output: tool.Shape{"marked": 0},
			Description: "Mark the token user's unread notifications about one repository as read",
			Params:      []tool.Param{tool.Owner(), tool.Repo()},
			Annotations: tool.Write(true), Handler: markRepoNotifications,
		},
	}
}

// Notification is the compact shape of a notification thread.
type Notification struct {
	ID      int64     `json:"id"`
	Title   string    `json:"title"`
	Type    string    `json:"type"`            // Issue, Pull, Commit, Repository
	State   string    `json:"state,omitempty"` // open, closed, merged
	Repo    string    `json:"repo,omitempty"`  // owner/name
	Index   int64     `json:"index,omitempty"` // the issue or pull request number
	Unread  bool      `json:"unread"`
	Pinned  bool      `json:"pinned,omitempty"`
	Updated time.Time `json:"updated_at"`
	HTMLURL string    `json:"html_url,omitempty"`
	// LatestComment is the web URL of the newest comment, from get only.
	LatestComment string `json:"latest_comment_url,omitempty"`
}

func compactNotification(n *sdk.NotificationThread, detail bool) Notification {
	out := Notification{ID: n.ID, Unread: n.Unread, Pinned: n.Pinned, Updated: n.UpdatedAt}
	if n.Repository != nil {
		out.Repo = n.Repository.FullName
	}
	if s := n.Subject; s != nil {
		out.Title, out.Type, out.State, out.HTMLURL = s.Title, string(s.Type), string(s.State), s.HTMLURL
		if s.Type == sdk.NotifySubjectIssue || s.Type == sdk.NotifySubjectPull {
			// The subject's API URL ends with the number: .../issues/3.
			if i, err := strconv.ParseInt(path.Base(s.URL), 10, 64); err == nil {
				out.Index = i
			}
		}
		if detail {
			out.LatestComment = s.LatestCommentHTMLURL
		}
	}
	return out
}

func threadRef(a tool.Args) string { return fmt.Sprintf("notification thread %d", a.Int("id")) }

// listOptions asks for unread and pinned threads, and read ones with
// include_read (once "all", which --cli's --all now means for every list).
func listOptions(a tool.Args) (sdk.ListNotificationOptions, error) {
	status := []sdk.NotifyStatus{sdk.NotifyStatusUnread, sdk.NotifyStatusPinned}
	if a.Bool("include_read") {
		status = append(status, sdk.NotifyStatusRead)
	}
	since, before, err := a.Window()
	return sdk.ListNotificationOptions{ListOptions: tool.ListOptions(a), Status: status, Since: since, Before: before}, err
}

func listNotifications(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	opts, err := listOptions(a)
	if err != nil {
		return nil, err
	}
	list, resp, err := c.SDK(ctx).ListNotifications(opts)
	if err := forgejo.Fail(resp, err, "list notifications of", "the token's user"); err != nil {
		return nil, err
	}
	return tool.ListResult(a, resp, list, listed)
}

func listRepoNotifications(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	opts, err := listOptions(a)
	if err != nil {
		return nil, err
	}
	list, resp, err := c.SDK(ctx).ListRepoNotifications(a.String("owner"), a.String("repo"), opts)
	if err := forgejo.Fail(resp, err, "list notifications about", tool.RepoRef(a)); err != nil {
		return nil, err
	}
	return tool.ListResult(a, resp, list, listed)
}

// listed is a thread as lists show it.
func listed(n *sdk.NotificationThread) Notification { return compactNotification(n, false) }

func getNotification(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	n, resp, err := c.SDK(ctx).GetNotification(a.Int("id"))
	if err := forgejo.Fail(resp, err, "get", threadRef(a)); err != nil {
		return nil, err
	}
	return tool.JSON(compactNotification(n, true))
}

func markNotification(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	n, resp, err := c.SDK(ctx).ReadNotification(a.Int("id"), sdk.NotifyStatusRead)
	if err := forgejo.Fail(resp, err, "mark as read", threadRef(a)); err != nil {
		return nil, err
	}
	if n == nil || n.ID == 0 {
		return tool.JSON(map[string]any{"id": a.Int("id"), "unread": false})
	}
	return tool.JSON(compactNotification(n, false))
}

// markQuery turns every unread thread read; pinned ones stay pinned.
func markQuery() url.Values {
	return url.Values{"status-types": {string(sdk.NotifyStatusUnread)}, "to-status": {string(sdk.NotifyStatusRead)}}
}

func markAllNotifications(ctx context.Context, c *forgejo.Client, _ tool.Args) (*mcp.CallToolResult, error) {
	return markAll(ctx, c, "/notifications", "mark as read", "the token user's notifications")
}

func markRepoNotifications(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := forgejo.Path("repos", a.String("owner"), a.String("repo"), "notifications")
	if err != nil {
		return nil, err
	}
	return markAll(ctx, c, p, "mark as read the notifications about", tool.RepoRef(a))
}

// markAll marks the unread threads at apiPath read and counts the ones the
// forge says it marked, as they arrive: an inbox of ten thousand threads
// answers with ten thousand, each with its repository, which need not be
// decoded to be counted.
func markAll(ctx context.Context, c *forgejo.Client, apiPath, verb, subject string) (*mcp.CallToolResult, error) {
	var n int
	err := c.DoStreamMethod(ctx, http.MethodPut, apiPath, markQuery(), func(body io.Reader) (err error) {
		n, err = forgejo.CountList(body)
		return err
	})
	if err != nil {
		return nil, forgejo.Relabel(err, verb, subject)
	}
	return tool.JSON(map[string]int{"marked": n})
}
