package main

// End-to-end tests of issue 11's client-facing features through the
// official Go SDK client, over stdio and HTTP, under both protocol
// versions: structuredContent against the advertised outputSchema, the
// default / all / dynamic tool selections, log notifications and progress.

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/schemacheck"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// notes records what a client was sent besides replies.
type notes struct {
	mu       sync.Mutex
	logs     []*mcp.LoggingMessageParams
	progress []*mcp.ProgressNotificationParams
	changed  int
}

func (n *notes) options() *mcp.ClientOptions {
	return &mcp.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			n.mu.Lock()
			defer n.mu.Unlock()
			n.logs = append(n.logs, r.Params)
		},
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			n.mu.Lock()
			defer n.mu.Unlock()
			n.progress = append(n.progress, r.Params)
		},
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			n.mu.Lock()
			defer n.mu.Unlock()
			n.changed++
		},
	}
}

func (n *notes) snapshot() (logs []*mcp.LoggingMessageParams, progress []*mcp.ProgressNotificationParams, changed int) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append(logs, n.logs...), append(progress, n.progress...), n.changed
}

// session is one way of reaching the binary.
type session struct {
	name    string
	version string
	open    func(t *testing.T, n *notes, headers map[string]string, args ...string) *mcp.ClientSession
}

// sessions are stdio and HTTP, each under both protocol versions, all
// acting as the forge user of token.
func sessions(forgeURL, token string) []session {
	var out []session
	for _, v := range protocolVersions {
		out = append(out, session{name: "stdio/" + v, version: v,
			open: func(t *testing.T, n *notes, _ map[string]string, args ...string) *mcp.ClientSession {
				return connectStdio(t, v, n, []string{"FORGEJO_URL=" + forgeURL, "FORGEJO_ACCESS_TOKEN=" + token}, args...)
			}})
		out = append(out, session{name: "http/" + v, version: v,
			open: func(t *testing.T, n *notes, headers map[string]string, args ...string) *mcp.ClientSession {
				h := map[string]string{"Authorization": "token " + token}
				for k, val := range headers {
					h[k] = val
				}
				return connectHTTP(t, v, n, startHTTPServer(t, forgeURL, args...), h)
			}})
	}
	return out
}

func connectStdio(t *testing.T, version string, n *notes, env []string, args ...string) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}, env...)
	cmd.Stderr = &testWriter{t: t}
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, n.options())
	cs, err := client.Connect(t.Context(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

var httpEndpointRe = regexp.MustCompile(`endpoint=(http://[0-9.:]+/mcp)`)

// startHTTPServer runs the binary over HTTP and returns its endpoint.
func startHTTPServer(t *testing.T, forgeURL string, args ...string) string {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"--url", forgeURL, "--transport", "http", "--http-addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}
	stderr := &fakeforge.SyncBuffer{}
	cmd.Stderr = stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("http server stderr:\n%s", stderr.String())
		}
	})
	var endpoint string
	require.Eventually(t, func() bool {
		if m := httpEndpointRe.FindStringSubmatch(stderr.String()); m != nil {
			endpoint = m[1]
		}
		return endpoint != ""
	}, 10*time.Second, 10*time.Millisecond, "HTTP server start")
	return endpoint
}

type headerRoundTripper map[string]string

func (h headerRoundTripper) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h {
		r.Header.Set(k, v)
	}
	return http.DefaultTransport.RoundTrip(r)
}

func connectHTTP(t *testing.T, version string, n *notes, endpoint string, headers map[string]string) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, n.options())
	cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: endpoint,
		HTTPClient: &http.Client{Transport: headerRoundTripper(headers)}, MaxRetries: -1},
		&mcp.ClientSessionOptions{ProtocolVersion: version})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// listed returns the session's tools by name.
func listed(t *testing.T, cs *mcp.ClientSession) map[string]*mcp.Tool {
	t.Helper()
	res, err := cs.ListTools(t.Context(), nil)
	require.NoError(t, err)
	out := map[string]*mcp.Tool{}
	for _, tl := range res.Tools {
		out[tl.Name] = tl
	}
	return out
}

// checked calls a tool and checks its result as a client that reads
// outputSchema would: structuredContent valid against the schema tools/list
// advertised, and the text the same JSON.
func checked(t *testing.T, cs *mcp.ClientSession, tools map[string]*mcp.Tool, name string, args map[string]any) map[string]any {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err, name)
	text := resultText(t, res)
	require.False(t, res.IsError, "%s: %s", name, text)
	tl, ok := tools[name]
	require.True(t, ok, "%s is listed", name)
	require.NotNil(t, tl.OutputSchema, "%s advertises an outputSchema", name)
	assert.NotEmpty(t, tl.Title, "%s has a title", name)
	schema, err := json.Marshal(tl.OutputSchema)
	require.NoError(t, err)
	structured, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	require.NoError(t, schemacheck.Validate(schema, structured), "%s: %s against %s", name, structured, schema)
	assert.JSONEq(t, text, string(structured), "%s: text and structuredContent are the same JSON", name)
	var out map[string]any
	require.NoError(t, json.Unmarshal(structured, &out))
	return out
}

func resultText(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	require.NotEmpty(t, res.Content)
	tc, ok := res.Content[0].(*mcp.TextContent)
	require.True(t, ok, "first content is text, got %T", res.Content[0])
	return tc.Text
}

// TestE2EStructuredOutputLive: every tool this test calls on the live
// forge returns structuredContent that validates against the outputSchema
// its tools/list entry advertises, on both transports and versions.
func TestE2EStructuredOutputLive(t *testing.T) {
	f := testforge.Get(t)
	for _, s := range sessions(f.URL, f.Token) {
		t.Run(s.name, func(t *testing.T) {
			owner, repo := f.NewRepo(t)
			cs := s.open(t, &notes{}, nil, "--toolsets", "all")
			tools := listed(t, cs)
			r := map[string]any{"owner": owner, "repo": repo}
			with := func(kv ...any) map[string]any {
				m := map[string]any{"owner": owner, "repo": repo}
				for i := 0; i < len(kv); i += 2 {
					m[kv[i].(string)] = kv[i+1]
				}
				return m
			}
			checked(t, cs, tools, "get_my_user_info", map[string]any{})
			checked(t, cs, tools, "get_forgejo_mcp_server_version", map[string]any{})
			issue := checked(t, cs, tools, "create_issue", with("title", "structured", "body", "b"))
			index := issue["number"]
			checked(t, cs, tools, "get_issue_by_index", with("index", index))
			checked(t, cs, tools, "list_repo_issues", r)
			checked(t, cs, tools, "update_issue", with("index", index, "title", "structured 2"))
			comment := checked(t, cs, tools, "create_issue_comment", with("index", index, "body", "c"))
			checked(t, cs, tools, "list_issue_comments", with("index", index))
			checked(t, cs, tools, "edit_issue_comment", with("comment_id", comment["id"], "body", "c2"))
			checked(t, cs, tools, "delete_issue_comment", with("comment_id", comment["id"]))
			checked(t, cs, tools, "create_repo_label", with("name", "bug", "color", "#ff0000"))
			checked(t, cs, tools, "add_issue_labels", with("index", index, "labels", []string{"bug"}))
			checked(t, cs, tools, "remove_issue_labels", with("index", index, "labels", []string{"bug"}))
			checked(t, cs, tools, "issue_state_change", with("index", index, "state", "closed"))
			checked(t, cs, tools, "list_repo_contents", r)
			checked(t, cs, tools, "create_file", with("path", "doc.txt", "content", "hello\n", "message", "add"))
			checked(t, cs, tools, "get_file_content", with("path", "doc.txt"))
			checked(t, cs, tools, "list_branches", r)
			checked(t, cs, tools, "list_repo_commits", r)
			checked(t, cs, tools, "list_repo_pull_requests", r)
			att := checked(t, cs, tools, "create_issue_attachment", with("index", index, "filename", "a.txt",
				"content", base64.StdEncoding.EncodeToString([]byte("attached"))))
			checked(t, cs, tools, "get_issue_attachment", with("index", index, "attachment_id", att["id"]))
			checked(t, cs, tools, "list_issue_attachments", with("index", index))

			// A tool without a schema (a download: JSON, then the bytes)
			// sends no structuredContent.
			res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "download_issue_attachment",
				Arguments: with("index", index, "attachment_id", att["id"])})
			require.NoError(t, err)
			require.False(t, res.IsError, resultText(t, res))
			assert.Nil(t, tools["download_issue_attachment"].OutputSchema)
			assert.Nil(t, res.StructuredContent)

			checked(t, cs, tools, "delete_issue_attachment", with("index", index, "attachment_id", att["id"]))
			checked(t, cs, tools, "list_releases", r)
			checked(t, cs, tools, "search_repos", map[string]any{"query": repo})
		})
	}
}

// withoutAddedHints removes from a tools/list the Go SDK re-encoded the
// hints it writes where the server sent none: since v1.7 it writes
// readOnlyHint and idempotentHint false on every tool (MCPGODEBUG
// hintomitempty), which the server leaves out as the specification's
// defaults, so the size is what the client received.
func withoutAddedHints(b []byte) []byte {
	b = bytes.ReplaceAll(b, []byte(`"idempotentHint":false,`), nil)
	return bytes.ReplaceAll(b, []byte(`,"readOnlyHint":false`), nil)
}

func names(tools map[string]*mcp.Tool) []string {
	var out []string
	for n := range tools {
		out = append(out, n)
	}
	return out
}

func defNames(defs []tool.Def, extra ...string) []string {
	out := append([]string{}, extra...)
	for _, d := range defs {
		out = append(out, d.Name)
	}
	return out
}

// TestE2EToolSelections: with no selection a client gets the default
// toolsets (within the 40 KB budget), "--toolsets all" every tool,
// "default,+wiki" one more toolset; over HTTP X-MCP-Toolsets does the same
// per request.
func TestE2EToolSelections(t *testing.T) {
	f := fakeforge.New(t)
	f.Handle("GET /api/v1/user", func(w http.ResponseWriter, _ *http.Request) {
		fakeforge.WriteJSON(w, http.StatusOK, map[string]any{"id": 1, "login": "alice"})
	})
	// "all" is every toolset but those offered only by name (admin).
	all, err := tool.Select(operation.All(), tool.Selection{Toolsets: []string{"all"}})
	require.NoError(t, err)
	require.Less(t, len(all), len(operation.All()))
	def, err := tool.Select(all, tool.Selection{Toolsets: []string{"default"}})
	require.NoError(t, err)
	plusWiki, err := tool.Select(all, tool.Selection{Toolsets: []string{"default", "+wiki"}})
	require.NoError(t, err)
	for _, s := range sessions(f.URL, "tok-0123456789") {
		t.Run(s.name, func(t *testing.T) {
			cs := s.open(t, &notes{}, nil)
			got := listed(t, cs)
			assert.ElementsMatch(t, defNames(def), names(got), "no selection: the default toolsets")
			res, err := cs.ListTools(t.Context(), nil)
			require.NoError(t, err)
			b, err := json.Marshal(res)
			require.NoError(t, err)
			b = withoutAddedHints(b)
			assert.LessOrEqual(t, len(b), 40<<10, "the default tools/list as the client received it")
			t.Logf("default tools/list: %d tools, %d bytes", len(got), len(b))

			if strings.HasPrefix(s.name, "stdio") {
				assert.Len(t, listed(t, s.open(t, &notes{}, nil, "--toolsets", "all")), len(all))
				assert.ElementsMatch(t, defNames(plusWiki), names(listed(t, s.open(t, &notes{}, nil, "--toolsets", "default,+wiki"))))
				return
			}
			assert.Len(t, listed(t, s.open(t, &notes{}, map[string]string{"X-MCP-Toolsets": "all"})), len(all))
			assert.ElementsMatch(t, defNames(plusWiki), names(listed(t, s.open(t, &notes{}, map[string]string{"X-MCP-Toolsets": "+wiki"}))))
		})
	}
}

// TestE2EDynamicToolsets: over stdio, --dynamic-toolsets starts with the
// default toolsets and two tools; enabling one adds its tools and sends
// notifications/tools/list_changed.
func TestE2EDynamicToolsets(t *testing.T) {
	f := fakeforge.New(t)
	all := operation.All()
	def, err := tool.Select(all, tool.Selection{Toolsets: []string{"default"}})
	require.NoError(t, err)
	wiki, err := tool.Select(all, tool.Selection{Toolsets: []string{"wiki"}})
	require.NoError(t, err)
	for _, v := range protocolVersions {
		t.Run(v, func(t *testing.T) {
			n := &notes{}
			cs := connectStdio(t, v, n, []string{"FORGEJO_URL=" + f.URL, "FORGEJO_ACCESS_TOKEN=tok-0123456789"}, "--dynamic-toolsets")
			tools := listed(t, cs)
			assert.ElementsMatch(t, defNames(def, "list_toolsets", "enable_toolset"), names(tools))

			sets := checked(t, cs, tools, "list_toolsets", map[string]any{})
			enabled := map[string]bool{}
			for _, ts := range sets["toolsets"].([]any) {
				m := ts.(map[string]any)
				enabled[m["id"].(string)] = m["enabled"].(bool)
			}
			assert.True(t, enabled["issue"])
			assert.False(t, enabled["wiki"])

			out := checked(t, cs, tools, "enable_toolset", map[string]any{"toolset": "wiki"})
			assert.ElementsMatch(t, defNames(wiki), out["added"])
			require.Eventually(t, func() bool { _, _, c := n.snapshot(); return c > 0 }, 5*time.Second, 10*time.Millisecond,
				"notifications/tools/list_changed")
			assert.ElementsMatch(t, defNames(def, append(defNames(wiki), "list_toolsets", "enable_toolset")...), names(listed(t, cs)))

			res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "enable_toolset", Arguments: map[string]any{"toolset": "wikis"}})
			require.NoError(t, err)
			assert.True(t, res.IsError)
			assert.Contains(t, resultText(t, res), `no toolset "wikis"`)
		})
	}
}

// TestE2ELogNotifications: a client that asks for logs at a level gets the
// server's records about its own calls at or above that level, and none
// below it; no record carries the token.
func TestE2ELogNotifications(t *testing.T) {
	const token = "logtok-0123456789abcdef"
	f := fakeforge.New(t)
	f.Handle("GET /api/v1/user", func(w http.ResponseWriter, _ *http.Request) {
		fakeforge.WriteJSON(w, http.StatusOK, map[string]any{"id": 1, "login": "alice"})
	})
	for _, s := range sessions(f.URL, token) {
		t.Run(s.name, func(t *testing.T) {
			if s.name == "http/2025-11-25" {
				// Stateless HTTP has no session to keep a level in: the
				// method is refused rather than changing every client's.
				n := &notes{}
				cs := s.open(t, n, nil)
				err := cs.SetLoggingLevel(t.Context(), &mcp.SetLoggingLevelParams{Level: "info"})
				require.Error(t, err)
				assert.Contains(t, err.Error(), "logging/setLevel is not supported over this stateless HTTP endpoint")
				res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "get_my_user_info", Arguments: map[string]any{}})
				require.NoError(t, err)
				require.False(t, res.IsError, resultText(t, res))
				time.Sleep(100 * time.Millisecond) // a stray notification would have arrived by now
				l, _, _ := n.snapshot()
				assert.Empty(t, l, "nothing below the default level (error)")
				return
			}
			call := func(cs *mcp.ClientSession, level mcp.LoggingLevel) {
				p := &mcp.CallToolParams{Name: "get_my_user_info", Arguments: map[string]any{}}
				if s.version == "2026-07-28" {
					// 2026-07-28 has no logging/setLevel: each request says
					// which records it wants.
					p.Meta = mcp.Meta{"io.modelcontextprotocol/logLevel": string(level)}
				} else {
					require.NoError(t, cs.SetLoggingLevel(t.Context(), &mcp.SetLoggingLevelParams{Level: level}))
				}
				res, err := cs.CallTool(t.Context(), p)
				require.NoError(t, err)
				require.False(t, res.IsError, resultText(t, res))
			}

			quiet := &notes{}
			call(s.open(t, quiet, nil), "warning")
			loud := &notes{}
			call(s.open(t, loud, nil), "info")

			require.Eventually(t, func() bool { l, _, _ := loud.snapshot(); return len(l) > 0 }, 5*time.Second, 10*time.Millisecond,
				"a log notification at info")
			logs, _, _ := loud.snapshot()
			var saw bool
			for _, l := range logs {
				b, err := json.Marshal(l)
				require.NoError(t, err)
				assert.NotContains(t, string(b), token)
				assert.Contains(t, []mcp.LoggingLevel{"info", "notice", "warning", "error"}, l.Level)
				if m, ok := l.Data.(map[string]any); ok && m["msg"] == "tool call" && m["tool"] == "get_my_user_info" {
					saw = true
				}
			}
			assert.True(t, saw, "the call's own record: %v", logs)
			time.Sleep(100 * time.Millisecond) // a stray notification would have arrived by now
			q, _, _ := quiet.snapshot()
			assert.Empty(t, q, "nothing below the level asked for")
		})
	}
}

// TestE2EUploadProgressLive: a 2 MB upload with a progress token reports
// increasing progress up to the file's size; without a token, none.
func TestE2EUploadProgressLive(t *testing.T) {
	f := testforge.Get(t)
	data := make([]byte, 2_000_000)
	_, err := rand.Read(data)
	require.NoError(t, err)
	content := base64.StdEncoding.EncodeToString(data)
	for _, s := range sessions(f.URL, f.Token) {
		t.Run(s.name, func(t *testing.T) {
			owner, repo := f.NewRepo(t)
			index := f.NewIssue(t, owner, repo, "progress", "")
			n := &notes{}
			cs := s.open(t, n, nil)
			args := map[string]any{"owner": owner, "repo": repo, "index": index, "filename": "big.bin", "content": content}
			p := &mcp.CallToolParams{Name: "create_issue_attachment", Arguments: args}
			p.SetProgressToken("upload-1")
			res, err := cs.CallTool(t.Context(), p)
			require.NoError(t, err)
			require.False(t, res.IsError, resultText(t, res))
			require.Eventually(t, func() bool {
				_, pr, _ := n.snapshot()
				return len(pr) > 0 && pr[len(pr)-1].Progress == float64(len(data))
			}, 5*time.Second, 10*time.Millisecond, "progress up to the whole file")
			_, pr, _ := n.snapshot()
			var att struct {
				ID int64 `json:"id"`
			}
			require.NoError(t, json.Unmarshal([]byte(resultText(t, res)), &att))
			assert.GreaterOrEqual(t, len(pr), 2, "progress along the way, not only at the end")
			for i, e := range pr {
				assert.Equal(t, "upload-1", e.ProgressToken)
				assert.Equal(t, float64(len(data)), e.Total)
				if i > 0 {
					assert.Greater(t, e.Progress, pr[i-1].Progress, "progress increases")
				}
			}

			// A windowed download reports where its window ends.
			dl := &mcp.CallToolParams{Name: "download_issue_attachment", Arguments: map[string]any{"owner": owner, "repo": repo,
				"index": index, "attachment_id": att.ID, "offset": 1_000_000, "max_bytes": 500_000}}
			dl.SetProgressToken("download-1")
			res, err = cs.CallTool(t.Context(), dl)
			require.NoError(t, err)
			require.False(t, res.IsError, resultText(t, res))
			require.Eventually(t, func() bool {
				_, all, _ := n.snapshot()
				last := all[len(all)-1]
				return last.ProgressToken == "download-1" && last.Progress == 1_500_000 && last.Total == float64(len(data))
			}, 5*time.Second, 10*time.Millisecond, "the window's progress")

			// Without a progress token, no progress.
			quiet := &notes{}
			cs2 := s.open(t, quiet, nil)
			args["filename"] = "big2.bin"
			res, err = cs2.CallTool(t.Context(), &mcp.CallToolParams{Name: "create_issue_attachment", Arguments: args})
			require.NoError(t, err)
			require.False(t, res.IsError, resultText(t, res))
			_, qp, _ := quiet.snapshot()
			assert.Empty(t, qp)
		})
	}
}

// TestE2ELogNotificationsStayWithTheirRequest: over HTTP, two users call
// at once with logs on; each receives the records of its own calls only.
func TestE2ELogNotificationsStayWithTheirRequest(t *testing.T) {
	f := fakeforge.New(t)
	f.Handle("GET /api/v1/user", func(w http.ResponseWriter, r *http.Request) {
		login := strings.TrimPrefix(r.Header.Get("Authorization"), "token ")
		fakeforge.WriteJSON(w, http.StatusOK, map[string]any{"id": len(login), "login": login[:5]})
	})
	// Under 2025-11-25 logging/setLevel is refused over HTTP
	// (TestE2ELogNotifications), so only records at error could come.
	for _, v := range []string{"2026-07-28"} {
		t.Run(v, func(t *testing.T) {
			endpoint := startHTTPServer(t, f.URL)
			type user struct {
				token string
				calls int
				n     *notes
				cs    *mcp.ClientSession
			}
			// Four calls at once: the server runs four (--max-concurrent).
			users := []*user{{token: "alice-0123456789", calls: 1}, {token: "bobby-0123456789", calls: 3}}
			for _, u := range users {
				u.n = &notes{}
				u.cs = connectHTTP(t, v, u.n, endpoint, map[string]string{"Authorization": "token " + u.token})
			}
			var wg sync.WaitGroup
			for _, u := range users {
				for range u.calls {
					wg.Go(func() {
						p := &mcp.CallToolParams{Name: "get_my_user_info", Arguments: map[string]any{},
							Meta: mcp.Meta{"io.modelcontextprotocol/logLevel": "info"}}
						res, err := u.cs.CallTool(t.Context(), p)
						assert.NoError(t, err)
						if err == nil {
							assert.False(t, res.IsError)
						}
					})
				}
			}
			wg.Wait()
			for _, u := range users {
				require.Eventually(t, func() bool { l, _, _ := u.n.snapshot(); return len(l) >= u.calls }, 5*time.Second, 10*time.Millisecond)
				time.Sleep(50 * time.Millisecond)
				logs, _, _ := u.n.snapshot()
				calls := 0
				for _, l := range logs {
					b, err := json.Marshal(l)
					require.NoError(t, err)
					for _, other := range users {
						if other != u {
							assert.NotContains(t, string(b), other.token[:5], "another user's record")
						}
					}
					if m, ok := l.Data.(map[string]any); ok && m["msg"] == "tool call" {
						calls++
					}
				}
				assert.Equal(t, u.calls, calls, "%s gets one record per own call, none of the other's", u.token[:5])
			}
		})
	}
}
