package operation_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/trust"
)

// untrusted are the members of the forges' API definitions that hold
// text a person wrote and that lockdown withholds when they may not write
// to a public repository: issue 27's list (issues, pull requests,
// comments, reviews, review comments, commit messages, release notes,
// wiki pages, attachment names) as the forges' own descriptions spell
// them, and the places the same words reach elsewhere (a notification's
// subject, a stopwatch's issue title, a timeline's renamed titles, a
// workflow run's title, which is a commit message or a pull request's).
var untrusted = map[string][]string{
	"Issue":               {"title", "body"},
	"Comment":             {"body"},
	"PullRequest":         {"title", "body"},
	"PullReview":          {"body"},
	"PullReviewComment":   {"body", "diff_hunk"},
	"RepoCommit":          {"message"},
	"PayloadCommit":       {"message"},
	"Tag":                 {"message"},
	"AnnotatedTag":        {"message"},
	"Release":             {"name", "body"},
	"Attachment":          {"name"},
	"WikiPage":            {"title", "content_base64"},
	"WikiPageMetaData":    {"title"},
	"WikiCommit":          {"message"},
	"NotificationSubject": {"title"},
	"TimelineComment":     {"body", "old_title", "new_title"},
	"ActionWorkflowRun":   {"display_title"},
	"ActionRun":           {"title"},
	"StopWatch":           {"issue_title"},
}

// markUntrusted makes every answer of the fake forge carry, in each
// untrusted member, the marker UNTRUSTED:<definition>.<member> (base64 where
// the member is), and describe a public repository owned by someone
// else than the authors, on which the authors may only read.
func markUntrusted(def string, obj map[string]any) {
	for _, m := range untrusted[def] {
		if _, ok := obj[m]; !ok {
			continue
		}
		mark := "UNTRUSTED:" + def + "." + m
		if strings.HasSuffix(m, "base64") {
			mark = base64.StdEncoding.EncodeToString([]byte(mark))
		}
		obj[m] = mark
	}
	switch def {
	case "Repository":
		obj["private"], obj["internal"] = false, false
		if owner, ok := obj["owner"].(map[string]any); ok {
			owner["login"], owner["username"] = "repo-owner", "repo-owner"
		}
	case "RepoCollaboratorPermission":
		obj["permission"], obj["role_name"] = "read", "read"
	}
}

// everything is every string a result carries to the client.
func everything(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		switch x := c.(type) {
		case mcp.TextContent:
			b.WriteString(x.Text)
		case mcp.EmbeddedResource:
			if r, ok := x.Resource.(mcp.TextResourceContents); ok {
				b.WriteString(r.Text)
			}
			if r, ok := x.Resource.(mcp.BlobResourceContents); ok {
				raw, _ := base64.StdEncoding.DecodeString(r.Blob)
				b.Write(raw)
			}
		}
	}
	if res.StructuredContent != nil {
		s, _ := json.Marshal(res.StructuredContent)
		b.Write(s)
	}
	return b.String()
}

// TestNoUntrustedTextEscapesLockdown drives every tool against forges (in
// both flavours' shapes) where every member that holds a person's text
// carries a marker, the repository is public and its authors may only
// read: with lockdown, no marker reaches any result, and each tool that
// showed one without it now says what it withheld. A new tool, or a new
// field of a result, that carries such text without its trust tag fails
// here.
func TestNoUntrustedTextEscapesLockdown(t *testing.T) {
	sp := loadSpecs(t)
	for _, spec := range []*fakeforge.Spec{sp.forgejo, sp.gitea} {
		t.Run(spec.Flavour, func(t *testing.T) {
			t.Parallel()
			f := fakeforge.New(t)
			f.MimicEdited(spec, markUntrusted)
			c := f.Client()
			run := func(lockdown bool) map[string]string {
				r := &tool.Runner{Client: func(context.Context) (*forgejo.Client, error) { return c, nil }, Timeout: 30 * time.Second,
					Lockdown: lockdown, Marks: true}
				out := map[string]string{}
				for _, d := range operation.All() {
					if d.Offline {
						continue
					}
					res := r.Call(context.Background(), d, sampleArgs(d))
					out[d.Name] = everything(res)
				}
				return out
			}
			open, locked := run(false), run(true)
			var shown []string
			for name, text := range open {
				if strings.Contains(text, "UNTRUSTED:") {
					shown = append(shown, name)
				}
			}
			sort.Strings(shown)
			// Without lockdown the text is there: the markers reach the
			// tools, so the test below proves something.
			assert.GreaterOrEqual(t, len(shown), 50, "tools showing a person's text without lockdown: %v", shown)
			for name, text := range locked {
				assert.NotContains(t, text, "UNTRUSTED:", "%s lets a person's text through lockdown", name)
			}
			for _, name := range shown {
				assert.Contains(t, locked[name], "withheld by lockdown", "%s says what it withheld and why", name)
				// Marks: a person's text comes with who wrote it and
				// how they relate to the repository.
				assert.Regexp(t, `_role":"(owner|member|collaborator|none|unknown)"`, open[name], "%s marks its authors", name)
			}
			t.Logf("%d tools show a person's text; with lockdown none does: %v", len(shown), shown)
		})
	}
}

// TestEveryToolHasAReach: under a repository scope every tool either names
// the repositories it touches, filters its results by theirs, touches no
// repository's content, or is refused with a reason; none is left
// unclassified (which would refuse it without saying why).
func TestEveryToolHasAReach(t *testing.T) {
	fence := trust.Fence{mustScope(t, "x/x")}
	kinds := map[tool.ReachKind][]string{}
	for _, d := range operation.All() {
		args, err := d.Parse(sampleArgs(d))
		require.NoError(t, err, d.Name)
		msg := d.ScopeRefusal(fence, args, func() (string, error) { return "x", nil })
		assert.NotContains(t, msg, "names no repository", "%s: classify it in operation/reach.go", d.Name)
		if d.Reach.Kind == tool.ReachUnknown {
			assert.Contains(t, msg, d.Reach.Why, d.Name)
		}
		kinds[d.Reach.Kind] = append(kinds[d.Reach.Kind], d.Name)
	}
	t.Logf("account-level: %v", kinds[tool.ReachAccount])
	t.Logf("filtered by their results: %v", kinds[tool.ReachResults])
	t.Logf("refused under a scope: %v", kinds[tool.ReachUnknown])
	// A tool that spans repositories must name them in its results, or
	// the filter would have nothing to go by.
	for _, name := range kinds[tool.ReachResults] {
		d, _ := operation.Find(name)
		assert.True(t, hasRepoTag(d), "%s is filtered by its results' repositories, but its result type names none (trust:\"repo\")", name)
	}
}

// TestScopeRefusesBeforeAnythingIsSent calls every tool on a repository
// outside the scope, in both transports' ways (the server's --repos and a
// request's X-MCP-Repos): each call that names a repository is refused
// naming the scope, and the forge receives nothing.
func TestScopeRefusesBeforeAnythingIsSent(t *testing.T) {
	sp := loadSpecs(t)
	for _, how := range []string{"server", "request"} {
		t.Run(how, func(t *testing.T) {
			f := fakeforge.New(t)
			f.Mimic(sp.gitea)
			c := f.Client()
			r := &tool.Runner{Client: func(context.Context) (*forgejo.Client, error) { return c, nil }, Timeout: 10 * time.Second}
			ctx := context.Background()
			source := "--repos"
			if how == "server" {
				r.Repos = mustScope(t, "elsewhere/only")
			} else {
				s, err := trust.ParseScope("elsewhere/only", "X-MCP-Repos")
				require.NoError(t, err)
				ctx, source = trust.WithScope(ctx, s), "X-MCP-Repos"
			}
			refused := 0
			for _, d := range operation.All() {
				if d.Reach.Kind == tool.ReachAccount || d.Reach.Kind == tool.ReachResults || d.Offline {
					// Offline tools read no repository (the meta-tools:
					// call_tool's own call is held below).
					continue
				}
				before := len(f.Requests())
				res := r.Call(ctx, d, sampleArgs(d))
				require.True(t, res.IsError, "%s ran outside the scope: %s", d.Name, everything(res))
				text := everything(res)
				if d.Reach.Kind == tool.ReachUnknown {
					assert.Contains(t, text, "cannot be used while the server is limited to some repositories ("+source+" elsewhere/only)", d.Name)
				} else {
					assert.Contains(t, text, "is outside the repositories this server may reach ("+source+" elsewhere/only); nothing was sent to the forge", d.Name)
				}
				for _, req := range f.Requests()[before:] {
					// create_repo and fork_repo into the token's own
					// account ask who that is; nothing else is sent.
					assert.Equal(t, "/api/v1/user", req.Path, "%s sent %s %s outside the scope", d.Name, req.Method, req.Path)
				}
				refused++
			}
			assert.Greater(t, refused, 150)

			// call_tool runs the tool it names through the same pipeline:
			// the scope holds it too.
			r.Callable = operation.All
			call, ok := tool.Find(operation.All(), "call_tool")
			require.True(t, ok)
			before := len(f.Requests())
			res := r.Call(ctx, call, map[string]any{"name": "get_issue_by_index",
				"arguments": map[string]any{"owner": "forgeadmin", "repo": "private", "index": 1}})
			require.True(t, res.IsError, "call_tool ran outside the scope: %s", everything(res))
			assert.Contains(t, everything(res), "is outside the repositories this server may reach ("+source+" elsewhere/only); nothing was sent to the forge")
			assert.Empty(t, f.Requests()[before:], "call_tool sent something outside the scope")
		})
	}
}

// TestScopeFiltersResults: the tools that span repositories keep only the
// parts inside the scope, and say how many they hid.
func TestScopeFiltersResults(t *testing.T) {
	sp := loadSpecs(t)
	f := fakeforge.New(t)
	f.Mimic(sp.gitea)
	c := f.Client()
	r := &tool.Runner{Client: func(context.Context) (*forgejo.Client, error) { return c, nil }, Timeout: 10 * time.Second,
		Repos: mustScope(t, "elsewhere/only")}
	for _, name := range []string{"list_my_repos", "search_repos", "search_issues", "check_notifications", "list_my_stopwatches", "list_my_tracked_times", "list_team_repos", "list_user_repos"} {
		d, ok := operation.Find(name)
		require.True(t, ok)
		res := r.Call(context.Background(), d, sampleArgs(d))
		require.False(t, res.IsError, "%s: %s", name, everything(res))
		var out struct {
			Items []any  `json:"items"`
			Note  string `json:"note"`
		}
		require.NoError(t, json.Unmarshal([]byte(everything(res)[:len(fakeforge.Text(t, res))]), &out), name)
		assert.Empty(t, out.Items, name)
		assert.Contains(t, out.Note, "results outside the allowed repositories (--repos elsewhere/only) were hidden", name)
	}
	// One notification thread outside the scope is refused whole.
	d, _ := operation.Find("get_notification_thread")
	res := r.Call(context.Background(), d, sampleArgs(d))
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "is outside the repositories this server may reach")
}

func hasRepoTag(d tool.Def) bool { return trust.PlanOf(d.Output).HasRepo() }

func mustScope(t *testing.T, spec string) trust.Scope {
	t.Helper()
	s, err := trust.ParseScope(spec, "--repos")
	require.NoError(t, err)
	return s
}

// TestMarkedResultsStillFit: marks and lockdown's reasons lengthen a
// result (a 50-item list of short titles gains a role and a reason
// each); against forges whose answers are as large as real ones get, on
// a public repository whose authors may only read, every result still
// fits tool.MaxResultBytes, as without them (TestEveryResultFitsTheClient).
func TestMarkedResultsStillFit(t *testing.T) {
	sp := loadSpecs(t)
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/x/x", 200, map[string]any{"full_name": "x/x", "private": false, "owner": map[string]any{"login": "repo-owner"}})
	f.MimicLarge(sp.gitea, fakeforge.LargeDefaults())
	c := f.Client()
	r := &tool.Runner{Client: func(context.Context) (*forgejo.Client, error) { return c, nil }, Timeout: 30 * time.Second,
		Marks: true, Lockdown: true}
	withheld := 0
	for _, d := range operation.All() {
		if plan := d.TrustPlan(); d.Offline || !plan.HasText() && !plan.HasAuthor() && d.TextBy == nil {
			// Nothing a mark or a reason lengthens: TestEveryResultFitsTheClient
			// holds it to the bound. Leaving them out takes this test from
			// 9-11 s to 4 s here, which counts under -race.
			continue
		}
		res := r.Call(context.Background(), d, sampleArgs(d))
		assert.LessOrEqual(t, resultBytes(res), tool.MaxResultBytes, "%s returns %d bytes at its defaults", d.Name, resultBytes(res))
		if strings.Contains(everything(res), "withheld by lockdown") {
			withheld++
		}
	}
	assert.Greater(t, withheld, 30, "lockdown was at work")
}
