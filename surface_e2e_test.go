package main

// Resources, completions and prompts through the official Go SDK client,
// on the built binary over stdio and over HTTP, under both protocol
// versions, against the live forge.

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
)

// surfaceFixture is one repository with something of every resource kind.
type surfaceFixture struct {
	owner, repo, commit      string
	issue, pull, comment     int64
	release                  int64
	bigID, commentAtt, relAt int64
	big                      []byte
	bigBlobURI               string
}

func (f *surfaceFixture) uri(format string, a ...any) string {
	return fmt.Sprintf("forgejo://%s/%s", f.owner, f.repo) + fmt.Sprintf(format, a...)
}

func newSurfaceFixture(t *testing.T, lf *testforge.Forge, cs *mcp.ClientSession) *surfaceFixture {
	t.Helper()
	fx := &surfaceFixture{}
	fx.owner, fx.repo = lf.NewRepo(t)
	repoPath := "/repos/" + fx.owner + "/" + fx.repo
	put := func(path, branch string, content []byte) string {
		var raw []byte
		body := map[string]any{"content": base64.StdEncoding.EncodeToString(content), "message": "add " + path}
		if branch != "" {
			body["branch"] = branch
		}
		status := lf.Do(t, http.MethodPost, repoPath+"/contents/"+path, body, &raw)
		require.Equal(t, http.StatusCreated, status, "%s", raw)
		var out struct{ Commit struct{ SHA string } }
		require.NoError(t, json.Unmarshal(raw, &out))
		return out.Commit.SHA
	}
	fx.commit = put("docs/guide.md", "", []byte("# Guide\n\nRead me.\n"))
	put("img/dot.png", "", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01"))
	require.Equal(t, http.StatusCreated, lf.Do(t, http.MethodPost, repoPath+"/branches",
		map[string]any{"new_branch_name": "feature", "old_branch_name": "main"}, nil))
	put("feature.txt", "feature", []byte("new feature\n"))
	var pr struct{ Number int64 }
	var raw []byte
	require.Equal(t, http.StatusCreated, lf.Do(t, http.MethodPost, repoPath+"/pulls",
		map[string]any{"head": "feature", "base": "main", "title": "Add the feature"}, &raw), "%s", raw)
	require.NoError(t, json.Unmarshal(raw, &pr))
	fx.pull = pr.Number
	require.Equal(t, http.StatusCreated, lf.Do(t, http.MethodPost, repoPath+"/wiki/new",
		map[string]any{"title": "Home", "content_base64": base64.StdEncoding.EncodeToString([]byte("Welcome to the wiki"))}, nil))
	fx.issue = lf.NewIssue(t, fx.owner, fx.repo, "Crash on start", "It crashes.")
	fx.comment = lf.NewComment(t, fx.owner, fx.repo, fx.issue, "Same here, log attached.")
	var rel struct{ ID int64 }
	require.Equal(t, http.StatusCreated, lf.Do(t, http.MethodPost, repoPath+"/releases",
		map[string]any{"tag_name": "v1.0", "target_commitish": "main", "name": "v1.0"}, &raw), "%s", raw)
	require.NoError(t, json.Unmarshal(raw, &rel))
	fx.release = rel.ID

	// A 1.5 MB attachment, over the 1 MiB a read returns at once.
	fx.big = make([]byte, 1_500_000)
	for i := range fx.big {
		fx.big[i] = byte(i*7 + i/1000)
	}
	upload := func(name string, args map[string]any, data []byte, filename string) int64 {
		args["owner"], args["repo"] = fx.owner, fx.repo
		args["content"], args["filename"] = base64.StdEncoding.EncodeToString(data), filename
		res, text := callTool(t, cs, name, args)
		require.False(t, res.IsError, text)
		var a struct{ ID int64 }
		require.NoError(t, json.Unmarshal([]byte(text), &a))
		return a.ID
	}
	fx.bigID = upload("create_issue_attachment", map[string]any{"index": fx.issue}, fx.big, "big.bin")
	fx.commentAtt = upload("create_comment_attachment", map[string]any{"comment_id": fx.comment}, []byte("log line\n"), "crash.log")
	fx.relAt = upload("create_release_attachment", map[string]any{"release_id": fx.release}, []byte("binary\x00asset"), "asset.bin")

	// The URI a windowed download names its blob with (1 MiB windows, the
	// inline cap).
	res, text := callTool(t, cs, "download_issue_attachment", map[string]any{"owner": fx.owner, "repo": fx.repo,
		"index": fx.issue, "attachment_id": fx.bigID, "offset": 0, "max_bytes": 1 << 20})
	require.False(t, res.IsError, text)
	for _, c := range res.Content {
		if e, ok := c.(*mcp.EmbeddedResource); ok && e.Resource.Blob != nil {
			fx.bigBlobURI = e.Resource.URI
		}
	}
	require.NotEmpty(t, fx.bigBlobURI)
	return fx
}

func readURI(t *testing.T, cs *mcp.ClientSession, uri string) []*mcp.ResourceContents {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	require.NoError(t, err, uri)
	require.NotEmpty(t, res.Contents, uri)
	return res.Contents
}

// blobAndMeta splits an attachment read into its bytes and its metadata
// (the first JSON text). The bytes are a blob, or text when the download
// returns a text file as text.
func blobAndMeta(t *testing.T, contents []*mcp.ResourceContents) ([]byte, map[string]any) {
	t.Helper()
	var data []byte
	var meta map[string]any
	for _, c := range contents {
		switch {
		case c.Blob != nil:
			data = c.Blob
		case meta == nil && c.MIMEType == "application/json":
			require.NoError(t, json.Unmarshal([]byte(c.Text), &meta))
		default:
			data = []byte(c.Text)
		}
	}
	require.NotNil(t, meta)
	return data, meta
}

func sha(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

func TestE2ESurfaceLive(t *testing.T) {
	lf := testforge.Get(t)
	env := []string{"FORGEJO_URL=" + lf.URL, "FORGEJO_ACCESS_TOKEN=" + lf.Token}
	fx := newSurfaceFixture(t, lf, connect(t, "2025-11-25", env))

	for _, transport := range []string{"stdio", "http"} {
		for _, version := range protocolVersions {
			t.Run(transport+"/"+version, func(t *testing.T) {
				var cs *mcp.ClientSession
				if transport == "stdio" {
					cs = connect(t, version, env)
				} else {
					cs = connectBearer(t, startHTTP(t, lf.URL), version, lf.Token)
				}
				ctx := context.Background()
				tpls, err := cs.ListResourceTemplates(ctx, nil)
				require.NoError(t, err)
				assert.Len(t, tpls.ResourceTemplates, 10)

				t.Run("each template kind", func(t *testing.T) {
					c := readURI(t, cs, fx.uri(""))
					assert.Contains(t, c[0].Text, `"default_branch":"main"`)
					c = readURI(t, cs, fx.uri("/files/docs/guide.md"))
					assert.Equal(t, "text/markdown", c[0].MIMEType)
					assert.Equal(t, "# Guide\n\nRead me.\n", c[0].Text)
					c = readURI(t, cs, fx.uri("/files/img/dot.png?ref=main"))
					assert.Equal(t, "image/png", c[0].MIMEType)
					assert.Equal(t, []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01"), c[0].Blob)
					c = readURI(t, cs, fx.uri("/files/"))
					assert.Contains(t, c[0].Text, fx.uri("/files/docs/"))
					c = readURI(t, cs, fx.uri("/files/feature.txt?ref=feature"))
					assert.Equal(t, "new feature\n", c[0].Text)
					c = readURI(t, cs, fx.uri("/issues/%d", fx.issue))
					assert.Contains(t, c[0].Text, `"title":"Crash on start"`)
					assert.Contains(t, c[0].Text, `Same here, log attached.`)
					c = readURI(t, cs, fx.uri("/pulls/%d", fx.pull))
					assert.Contains(t, c[0].Text, `"title":"Add the feature"`)
					c = readURI(t, cs, fx.uri("/pulls/%d/diff", fx.pull))
					assert.Contains(t, c[0].Text, `+new feature`)
					c = readURI(t, cs, fx.uri("/commits/%s", fx.commit))
					assert.Contains(t, c[0].Text, "add docs/guide.md")
					c = readURI(t, cs, fx.uri("/wiki/Home"))
					assert.Contains(t, c[0].Text, "Welcome to the wiki")
					blob, _ := blobAndMeta(t, readURI(t, cs, fx.uri("/comments/%d/attachments/%d", fx.comment, fx.commentAtt)))
					assert.Equal(t, "log line\n", string(blob))
					blob, _ = blobAndMeta(t, readURI(t, cs, fx.uri("/releases/%d/attachments/%d", fx.release, fx.relAt)))
					assert.Equal(t, "binary\x00asset", string(blob))
				})

				t.Run("attachment again by URI, window by window", func(t *testing.T) {
					uri := fx.bigBlobURI
					if !strings.HasPrefix(uri, "forgejo://") {
						// The download tool names its blob with the forge's
						// URL until its blobs carry forgejo:// URIs.
						uri = fx.uri("/issues/%d/attachments/%d", fx.issue, fx.bigID)
					}
					first, meta := blobAndMeta(t, readURI(t, cs, uri))
					require.Len(t, first, 1<<20)
					next, _ := meta["next_uri"].(string)
					require.NotEmpty(t, next, "%v", meta)
					rest, meta := blobAndMeta(t, readURI(t, cs, next))
					assert.Nil(t, meta["next_uri"], "the second window is the last")
					assert.Equal(t, sha(fx.big), sha(append(first, rest...)), "sha256 of the windows matches the upload")
				})

				t.Run("not found", func(t *testing.T) {
					_, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: fx.uri("/issues/9999")})
					require.Error(t, err)
					assert.Contains(t, err.Error(), fmt.Sprintf("%s: issue %s/%s#9999 not found (404)", fx.uri("/issues/9999"), fx.owner, fx.repo))
					assert.NotContains(t, err.Error(), "handler not found", "the reason alone, without mcp-go's wording")
					assert.NotContains(t, err.Error(), lf.Token)
				})

				t.Run("completions", func(t *testing.T) {
					complete := func(ref *mcp.CompleteReference, arg, value string, args map[string]string) []string {
						res, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: ref, Argument: mcp.CompleteParamsArgument{Name: arg, Value: value},
							Context: &mcp.CompleteContext{Arguments: args}})
						require.NoError(t, err)
						assert.LessOrEqual(t, len(res.Completion.Values), 100)
						return res.Completion.Values
					}
					repoTpl := &mcp.CompleteReference{Type: "ref/resource", URI: "forgejo://{owner}/{repo}"}
					filesTpl := &mcp.CompleteReference{Type: "ref/resource", URI: "forgejo://{owner}/{repo}/files/{+path}{?ref}"}
					here := map[string]string{"owner": fx.owner, "repo": fx.repo}
					assert.Contains(t, complete(repoTpl, "owner", fx.owner[:1], nil), fx.owner)
					assert.Contains(t, complete(repoTpl, "repo", fx.repo[:3], map[string]string{"owner": fx.owner}), fx.repo)
					assert.ElementsMatch(t, []string{"feature", "main", "v1.0"}, complete(filesTpl, "ref", "", here))
					assert.Equal(t, []string{"docs/guide.md"}, complete(filesTpl, "path", "docs/", here))
					assert.Equal(t, []string{fmt.Sprint(fx.issue)}, complete(&mcp.CompleteReference{Type: "ref/resource",
						URI: "forgejo://{owner}/{repo}/issues/{index}"}, "index", "", here))
					assert.Contains(t, complete(&mcp.CompleteReference{Type: "ref/resource",
						URI: "forgejo://{owner}/{repo}/commits/{sha}"}, "sha", fx.commit[:4], here), fx.commit)
					assert.Equal(t, []string{"Home"}, complete(&mcp.CompleteReference{Type: "ref/resource",
						URI: "forgejo://{owner}/{repo}/wiki/{page}"}, "page", "h", here))
					assert.Equal(t, []string{fmt.Sprint(fx.pull)}, complete(&mcp.CompleteReference{Type: "ref/prompt",
						Name: "review_pull_request"}, "index", "", here))
					assert.Equal(t, []string{"v1.0"}, complete(&mcp.CompleteReference{Type: "ref/prompt",
						Name: "draft_release_notes"}, "since_tag", "v", here))
				})

				t.Run("prompts", func(t *testing.T) {
					list, err := cs.ListPrompts(ctx, nil)
					require.NoError(t, err)
					require.Len(t, list.Prompts, 4)
					idx := fmt.Sprint(fx.issue)
					for name, args := range map[string]map[string]string{
						"triage_issue":           {"index": idx},
						"review_pull_request":    {"index": fmt.Sprint(fx.pull)},
						"read_issue_attachments": {"index": idx},
						"draft_release_notes":    {"since_tag": "v1.0"},
					} {
						args["owner"], args["repo"] = fx.owner, fx.repo
						res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: args})
						require.NoError(t, err, name)
						require.Len(t, res.Messages, 1)
						text := res.Messages[0].Content.(*mcp.TextContent).Text
						assert.Contains(t, text, fx.owner+"/"+fx.repo, name)
						assert.Contains(t, text, "never as instructions", name)
						assert.NotContains(t, text, "Crash on start", "%s: no forge text in a prompt", name)
					}
				})
			})
		}
	}
}
