package repoadmin

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// PushMirror is a remote the forge pushes the repository to.
type PushMirror struct {
	RemoteName    string `json:"remote_name"`
	RemoteAddress string `json:"remote_address"`
	Interval      string `json:"interval"`
	SyncOnCommit  bool   `json:"sync_on_commit"`
	LastUpdate    string `json:"last_update,omitempty"`
	LastError     string `json:"last_error,omitempty"`
}

// wirePushMirror is the forge's PushMirror; its times are strings on
// some versions and absent on others, kept as sent.
type wirePushMirror struct {
	RemoteName    string `json:"remote_name"`
	RemoteAddress string `json:"remote_address"`
	Interval      string `json:"interval"`
	SyncOnCommit  bool   `json:"sync_on_commit"`
	LastUpdate    string `json:"last_update"`
	LastError     string `json:"last_error"`
}

// compactPushMirror shapes a push mirror; Gitea's never-pushed mirror
// has the Unix epoch as its last update, left out like an empty one.
func compactPushMirror(m *wirePushMirror) PushMirror {
	last := m.LastUpdate
	if strings.HasPrefix(last, "1970-01-01T") {
		last = ""
	}
	return PushMirror{RemoteName: m.RemoteName, RemoteAddress: withoutUserinfo(m.RemoteAddress), Interval: m.Interval,
		SyncOnCommit: m.SyncOnCommit, LastUpdate: last, LastError: m.LastError}
}

// withoutUserinfo drops a user and password from a URL: a mirror's
// credentials are write-only, whatever the forge sends back.
func withoutUserinfo(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	u.User = nil
	return u.String()
}

// migrateParts are what migrate_repo can bring besides the code.
var migrateParts = []string{"wiki", "milestones", "labels", "issues", "pull_requests", "releases", "lfs"}

func mirrorTools() []tool.Def {
	remote := tool.Named("remote_name", "Push mirror's remote name (list_push_mirrors)")
	return []tool.Def{
		{
			Name: "list_push_mirrors", Toolset: MirrorToolset,
			Title: "List push mirrors", Output: tool.ListPage[PushMirror]{},
			Description: "List the remotes a repository is pushed to, with each one's last error",
			Params:      with(tool.Page(), tool.Limit()), Annotations: tool.Read(), Handler: listPushMirrors,
		},
		{
			Name: "add_push_mirror", Toolset: MirrorToolset,
			Title: "Add a push mirror", Output: PushMirror{},
			Description: "Push a repository to a remote on a schedule and/or on each commit; the password is write-only",
			Params: with(tool.Str("remote_address", "Remote's clone URL", tool.Required(), tool.MaxLen(2048)),
				tool.Str("remote_username", "Remote user", tool.MaxLen(255)),
				tool.Str("remote_password", "Remote password or token, never shown again", tool.MaxLen(4096), tool.Secret()),
				tool.Str("interval", "How often, e.g. 8h0m0s (0 for on commit only)", tool.Default("8h0m0s"), tool.MaxLen(32)),
				tool.Bool("sync_on_commit", "Also push on each commit", tool.Default(false))),
			Annotations: tool.Write(false), Handler: addPushMirror,
		},
		{
			Name: "delete_push_mirror", Toolset: MirrorToolset,
			Title: "Delete a push mirror", Output: tool.DeletedOutput("remote_name", ""),
			Description: "Stop pushing a repository to a remote",
			Params:      with(remote), Annotations: tool.Destroy(true), Handler: deletePushMirror,
		},
		{
			Name: "sync_push_mirrors", Toolset: MirrorToolset,
			Title: "Push to push mirrors now", Output: tool.Shape{"queued": true, "full_name": ""},
			Description: "Queue a push of a repository to all its push mirrors now (list_push_mirrors shows the outcome)",
			Params:      base(), Annotations: tool.Destroy(true), Handler: syncPushMirrors,
		},
		{
			Name: "sync_mirror", Toolset: MirrorToolset,
			Title: "Sync a pull mirror", Output: tool.Shape{"queued": true, "full_name": ""},
			Description: "Queue a fetch of a pull mirror from its origin now",
			Params:      base(), Annotations: tool.Destroy(true), Handler: syncMirror,
		},
		{
			Name: "migrate_repo", Toolset: MirrorToolset,
			Title: "Migrate a repository in", Output: repo.Repo{},
			Description: "Copy (or mirror) a repository from a clone URL into this forge; credentials are write-only",
			Params: []tool.Param{
				tool.Str("clone_addr", "Clone URL to copy from", tool.Required(), tool.MaxLen(2048)),
				tool.Named("repo_name", "Name of the new repository"),
				tool.Str("repo_owner", "Its owner, user or organisation (default: the token's user)"),
				tool.Bool("mirror", "Keep it a pull mirror of the source", tool.Default(false)),
				tool.Bool("private", "Make it private", tool.Default(false)),
				tool.Str("service", "Source forge kind, for issues and PRs", tool.Default("git"),
					tool.OneOf("git", "github", "gitea", "forgejo", "gitlab", "gogs", "onedev", "gitbucket", "codebase")),
				tool.Str("auth_token", "Source token, never shown again", tool.MaxLen(4096), tool.Secret()),
				tool.Str("description", "Its description", tool.MaxLen(2048)),
				tool.Strs("include", "What to bring besides code", tool.OneOf(migrateParts...)),
			},
			Annotations: tool.Write(false), Handler: migrateRepo,
		},
	}
}

func listPushMirrors(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := tool.RepoRoute(a, "push_mirrors")
	if err != nil {
		return nil, err
	}
	var list []*wirePushMirror
	if err := c.DoJSON(ctx, http.MethodGet, p, tool.PageQuery(a), nil, &list); err != nil {
		return nil, forgejo.Relabel(err, "list push mirrors of", tool.RepoRef(a))
	}
	return tool.Items(tool.Map(list, compactPushMirror), a.Int("page"), len(list) >= int(a.Int("limit")))
}

// addPushMirror sends the credentials in the body only; errors name the
// repository, never the address or the password.
func addPushMirror(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	if _, err := time.ParseDuration(a.String("interval")); err != nil {
		return tool.Error("interval must be a duration such as 8h0m0s, 30m or 0, got " + a.String("interval")), nil
	}
	p, err := tool.RepoRoute(a, "push_mirrors")
	if err != nil {
		return nil, err
	}
	body := map[string]any{"remote_address": a.String("remote_address"), "remote_username": a.String("remote_username"),
		"remote_password": a.String("remote_password"), "interval": a.String("interval"), "sync_on_commit": a.Bool("sync_on_commit")}
	var m wirePushMirror
	if err := c.DoJSON(ctx, http.MethodPost, p, nil, body, &m); err != nil {
		return nil, scrub(forgejo.Relabel(err, "add a push mirror to", tool.RepoRef(a)), a.String("remote_password"), urlPassword(a.String("remote_address")))
	}
	return tool.JSON(compactPushMirror(&m))
}

func deletePushMirror(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := tool.RepoRoute(a, "push_mirrors", a.String("remote_name"))
	if err != nil {
		return nil, err
	}
	if err := c.DoJSON(ctx, http.MethodDelete, p, nil, nil, nil); err != nil {
		return nil, forgejo.Relabel(err, "delete push mirror "+a.String("remote_name")+" of", tool.RepoRef(a))
	}
	return tool.Deleted("remote_name", a.String("remote_name"))
}

func queue(ctx context.Context, c *forgejo.Client, a tool.Args, route, verb string) (*mcp.CallToolResult, error) {
	p, err := tool.RepoRoute(a, route)
	if err != nil {
		return nil, err
	}
	if err := c.DoJSON(ctx, http.MethodPost, p, nil, nil, nil); err != nil {
		return nil, forgejo.Relabel(err, verb, tool.RepoRef(a))
	}
	return tool.JSON(map[string]any{"queued": true, "full_name": tool.FullName(a)})
}

func syncPushMirrors(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	return queue(ctx, c, a, "push_mirrors-sync", "sync the push mirrors of")
}

func syncMirror(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	return queue(ctx, c, a, "mirror-sync", "sync the mirror")
}

// migrateRepo: the source's token goes in the body only; the clone URL's
// user and password, if any, are left out of every message.
func migrateRepo(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	body := map[string]any{"clone_addr": a.String("clone_addr"), "repo_name": a.String("repo_name"),
		"mirror": a.Bool("mirror"), "private": a.Bool("private"), "service": a.String("service"),
		"description": a.String("description")}
	if a.String("repo_owner") != "" {
		body["repo_owner"] = a.String("repo_owner")
	}
	if a.String("auth_token") != "" {
		body["auth_token"] = a.String("auth_token")
	}
	for _, part := range a.Strings("include") {
		body[part] = true
	}
	var r sdk.Repository
	if err := c.DoJSON(ctx, http.MethodPost, "/repos/migrate", nil, body, &r); err != nil {
		target := "repository " + a.String("repo_name")
		if o := a.String("repo_owner"); o != "" {
			target = "repository " + o + "/" + a.String("repo_name")
		}
		err = forgejo.Relabel(err, "migrate "+withoutUserinfo(a.String("clone_addr"))+" into", target)
		return nil, scrub(err, a.String("auth_token"), urlPassword(a.String("clone_addr")))
	}
	return tool.JSON(repo.CompactRepo(&r))
}

// scrub keeps secrets a forge's message might quote out of an error: the
// error is kept as it is unless its text holds one.
func scrub(err error, secrets ...string) error {
	msg := err.Error()
	for _, s := range secrets {
		if len(s) >= 4 {
			msg = strings.ReplaceAll(msg, s, "[redacted]")
		}
	}
	if msg == err.Error() {
		return err
	}
	return errors.New(msg)
}

// urlPassword is the password a URL carries, or "".
func urlPassword(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.User != nil {
		pw, _ := u.User.Password()
		return pw
	}
	return ""
}
