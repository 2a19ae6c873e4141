// Package webhook has the webhook tools: list, read, create, edit and
// delete the webhooks of a repository, an organisation or the token's
// user, and test a repository's. No result ever carries a hook's secret
// or authorization header: a secret is write-only.
package webhook

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Toolset is the webhook toolset; every tool of this package is in it but
// the site's webhooks (SiteTools), which the caller places.
var Toolset = tool.Toolset{ID: "webhook", Description: "Webhooks of repositories, organisations and your account"}

// hookTypes are the types Forgejo and Gitea know; "forgejo" is Forgejo only.
var hookTypes = []string{"gitea", "forgejo", "gogs", "slack", "discord", "dingtalk", "telegram",
	"msteams", "feishu", "matrix", "wechatwork", "packagist"}

// fields are the settable options shared by create and edit.
func fields() []tool.Param {
	return []tool.Param{
		tool.Str("content_type", "Payload encoding", tool.OneOf("json", "form")),
		tool.Strs("events", "Events that trigger it, e.g. push, issues, pull_request, release; default push"),
		tool.Str("branch_filter", "Glob of branches whose pushes trigger it", tool.MaxLen(255)),
		tool.Bool("active", "Deliver events (default true on create)"),
	}
}

// Tools returns the webhook toolset: a repository's, an organisation's
// and the token's user's webhooks, one set of handlers for the three.
func Tools() []tool.Def {
	repo := defs(repoHooks())
	repo = append(repo, tool.Def{
		Name: "test_repo_hook", Toolset: Toolset,
		Title: "Test a webhook", Output: queued{},
		Description: "Queue a test push delivery of a repository webhook",
		Params:      repoHooks().with(tool.ID("hook_id", "Webhook ID")), Annotations: tool.Write(false), Handler: test,
	})
	return append(append(repo, defs(orgHooks())...), defs(myHooks())...)
}

// SiteTools are the site's system and default webhooks (a site
// administrator's: the forge answers 403 to anyone else), in toolset ts.
func SiteTools(ts tool.Toolset) []tool.Def {
	w := siteHooks()
	w.toolset = ts
	return defs(w)
}

// defs are the list, get, create, edit and delete tools of the webhooks
// at w.
func defs(w where) []tool.Def {
	ts := w.set()
	id := tool.ID("hook_id", "Webhook ID")
	target := tool.Str("target_url", "URL the forge posts events to", tool.MaxLen(2048))
	var kind []tool.Param
	if w.site {
		kind = []tool.Param{tool.Str("kind", "system: fired by every repository; default: copied into each new repository",
			tool.Default("system"), tool.OneOf("system", "default"))}
	}
	return []tool.Def{
		{
			Name: "list_" + w.name + "_hooks", Toolset: ts,
			Title: "List " + w.noun + " webhooks", Output: tool.ListPage[Hook]{},
			Description: "List " + w.whose + " webhooks",
			Params:      w.with(tool.Page(), tool.Limit()), Annotations: tool.Read(), Handler: w.list,
		},
		{
			Name: "get_" + w.name + "_hook", Toolset: ts,
			Title: "Get " + w.a + " webhook", Output: Hook{},
			Description: "Get " + w.a + " webhook by ID",
			Params:      w.with(id), Annotations: tool.Read(), Handler: w.get,
		},
		{
			Name: "create_" + w.name + "_hook", Toolset: ts,
			Title: "Create " + w.a + " webhook", Output: Hook{},
			Description: "Create " + w.a + " webhook; its secret is write-only",
			Params: w.with(append([]tool.Param{
				tool.Str("type", "Webhook type", tool.Default("gitea"), tool.OneOf(hookTypes...)),
				target.With(tool.Required()),
				tool.Str("secret", "Secret used to sign payloads", tool.Secret(), tool.MaxLen(1024)),
				tool.Str("channel", "Channel, for slack", tool.MaxLen(255)),
			}, append(kind, fields()...)...)...),
			Annotations: tool.Write(false), Handler: w.create,
		},
		{
			Name: "edit_" + w.name + "_hook", Toolset: ts,
			Title: "Edit " + w.a + " webhook", Output: Hook{},
			Description: "Edit " + w.a + " webhook; only the given fields change",
			Params:      w.with(append([]tool.Param{id, target}, fields()...)...),
			Annotations: tool.Destroy(true), Handler: w.edit,
		},
		{
			Name: "delete_" + w.name + "_hook", Toolset: ts,
			Title: "Delete " + w.a + " webhook", Output: tool.DeletedOutput("id", int64(0)),
			Description: "Delete " + w.a + " webhook",
			Params:      w.with(id), Annotations: tool.Destroy(true), Handler: w.remove,
		},
	}
}

// Hook is the compact shape of a webhook: never its secret or
// authorization header.
type Hook struct {
	ID           int64      `json:"id"`
	Type         string     `json:"type"`
	URL          string     `json:"url"`
	ContentType  string     `json:"content_type,omitempty"`
	Events       []string   `json:"events"`
	BranchFilter string     `json:"branch_filter,omitempty"`
	Active       bool       `json:"active"`
	Updated      *time.Time `json:"updated_at,omitempty"`
}

// rawHook is the forge's hook as read by raw calls, which (unlike the SDK's
// Hook) keep branch_filter: every read is raw, lists too.
type rawHook struct {
	ID           int64             `json:"id"`
	Type         string            `json:"type"`
	Config       map[string]string `json:"config"`
	Events       []string          `json:"events"`
	Active       bool              `json:"active"`
	BranchFilter string            `json:"branch_filter"`
	AuthHeader   string            `json:"authorization_header"`
	Updated      time.Time         `json:"updated_at"`
}

func compactRaw(h *rawHook) Hook {
	return Hook{ID: h.ID, Type: h.Type, URL: h.Config["url"], ContentType: h.Config["content_type"],
		Events: h.Events, BranchFilter: h.BranchFilter, Active: h.Active, Updated: forgejo.TimePtr(&h.Updated)}
}

func (w where) hookRef(a tool.Args) string {
	return fmt.Sprintf("webhook %d %s", a.Int("hook_id"), w.ref(a))
}

func (w where) hookPath(a tool.Args, tail ...string) (string, error) {
	return w.path(a, append([]string{"hooks", tool.Seg(a, "hook_id")}, tail...)...)
}

// list reads the hooks raw: the SDK's hook type drops branch_filter.
func (w where) list(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := w.path(a, "hooks")
	if err != nil {
		return nil, err
	}
	q := tool.PageQuery(a)
	if w.site {
		// Gitea lists only system webhooks unless asked for all;
		// Forgejo lists all.
		q.Set("type", "all")
	}
	var hooks []*rawHook
	if err := c.DoJSON(ctx, http.MethodGet, p, q, nil, &hooks); err != nil {
		return nil, forgejo.Relabel(err, "list webhooks of", w.subject(a))
	}
	return tool.Items(tool.Map(hooks, compactRaw), a.Int("page"), int64(len(hooks)) >= a.Int("limit"))
}

func (w where) fetch(ctx context.Context, c *forgejo.Client, a tool.Args) (*rawHook, error) {
	p, err := w.hookPath(a)
	if err != nil {
		return nil, err
	}
	var h rawHook
	if err := c.DoJSON(ctx, http.MethodGet, p, nil, nil, &h); err != nil {
		return nil, forgejo.Relabel(err, "get", w.hookRef(a))
	}
	return &h, nil
}

func (w where) get(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	h, err := w.fetch(ctx, c, a)
	if err != nil {
		return nil, err
	}
	return tool.JSON(compactRaw(h))
}

// create sends the secret in the request body only; the forge's answer
// carries it in config, which compactRaw never reads.
func (w where) create(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	ct := a.String("content_type")
	if ct == "" {
		ct = "json"
	}
	cfg := map[string]string{"url": a.String("target_url"), "content_type": ct}
	if a.Has("secret") {
		cfg["secret"] = a.String("secret")
	}
	if a.Has("channel") {
		cfg["channel"] = a.String("channel")
	}
	if w.site {
		cfg["is_system_webhook"] = strconv.FormatBool(a.String("kind") != "default")
	}
	events := a.Strings("events")
	if len(events) == 0 {
		events = []string{"push"}
	}
	active := true
	if a.Has("active") {
		active = a.Bool("active")
	}
	p, err := w.path(a, "hooks")
	if err != nil {
		return nil, err
	}
	var h rawHook
	body := sdk.CreateHookOption{Type: sdk.HookType(a.String("type")), Config: cfg, Events: events,
		BranchFilter: a.String("branch_filter"), Active: active}
	if err := c.DoJSON(ctx, http.MethodPost, p, nil, body, &h); err != nil {
		return nil, forgejo.Relabel(err, "create a webhook in", w.subject(a))
	}
	out := compactRaw(&h)
	if out.BranchFilter == "" {
		out.BranchFilter = a.String("branch_filter")
	}
	return tool.JSON(out)
}

// editBody is the forge's EditHookOption. The forge resets absent events to
// "push" and overwrites the branch filter and authorization header, so edit
// re-sends their current values unless new ones are given.
type editBody struct {
	Config       map[string]string `json:"config,omitempty"`
	Events       []string          `json:"events"`
	BranchFilter string            `json:"branch_filter"`
	Active       *bool             `json:"active,omitempty"`
	AuthHeader   string            `json:"authorization_header"`
}

func (w where) edit(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	cur, err := w.fetch(ctx, c, a)
	if err != nil {
		return nil, err
	}
	body := editBody{Events: cur.Events, BranchFilter: cur.BranchFilter, AuthHeader: cur.AuthHeader}
	for param, key := range map[string]string{"target_url": "url", "content_type": "content_type"} {
		if a.Has(param) {
			if body.Config == nil {
				body.Config = map[string]string{}
			}
			body.Config[key] = a.String(param)
		}
	}
	if ev := a.Strings("events"); len(ev) > 0 {
		body.Events = ev
	}
	if a.Has("branch_filter") {
		body.BranchFilter = a.String("branch_filter")
	}
	if a.Has("active") {
		v := a.Bool("active")
		body.Active = &v
	}
	p, err := w.hookPath(a)
	if err != nil {
		return nil, err
	}
	var h rawHook
	if err := c.DoJSON(ctx, http.MethodPatch, p, nil, body, &h); err != nil {
		return nil, forgejo.Relabel(err, "edit", w.hookRef(a))
	}
	return tool.JSON(compactRaw(&h))
}

type queued struct {
	Queued bool  `json:"queued"`
	ID     int64 `json:"id"`
}

func (w where) remove(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := w.hookPath(a)
	if err != nil {
		return nil, err
	}
	if err := c.DoJSON(ctx, http.MethodDelete, p, nil, nil, nil); err != nil {
		return nil, forgejo.Relabel(err, "delete", w.hookRef(a))
	}
	return tool.Deleted("id", a.Int("hook_id"))
}

func test(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	w := repoHooks()
	p, err := w.hookPath(a, "tests")
	if err != nil {
		return nil, err
	}
	if err := c.DoJSON(ctx, http.MethodPost, p, nil, nil, nil); err != nil {
		return nil, forgejo.Relabel(err, "test", w.hookRef(a))
	}
	return tool.JSON(queued{Queued: true, ID: a.Int("hook_id")})
}
