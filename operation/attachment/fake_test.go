package attachment_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/attachment"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// forge is a fake forge holding attachments on issue o/r#3 and comment 7,
// with issue o/r#4 and comment 8 existing but bare. It behaves like Gitea
// 1.26 as measured (notes/test-forge.md): 404 bodies are null, a rename
// answers 201, the download route honours Range.
type forge struct {
	*fakeforge.Server
	mu      sync.Mutex
	atts    map[int64]*sdk.Attachment
	parent  map[int64]string // attachment id → "issue/3" or "comment/7"
	files   map[string][]byte
	uploads []upload
	nextID  int64
}

// upload is one multipart request as the fake parsed it.
type upload struct {
	Field, Filename, ContentType, Name string
	Data                               []byte
}

func newForge(t *testing.T) *forge {
	f := &forge{Server: fakeforge.New(t), atts: map[int64]*sdk.Attachment{}, parent: map[int64]string{},
		files: map[string][]byte{}, nextID: 1}
	f.JSON("GET /api/v1/repos/o/r", 200, map[string]any{"name": "r"})
	for _, p := range []string{"issues/3", "issues/4", "issues/comments/7", "issues/comments/8"} {
		f.JSON("GET /api/v1/repos/o/r/"+p, 200, map[string]any{"id": 1})
	}
	// Concrete parents only: anything else is unrouted, the fake's null 404.
	for _, p := range []struct{ route, key string }{
		{"issues/3", "issue/3"}, {"issues/4", "issue/4"}, {"issues/comments/7", "comment/7"}, {"issues/comments/8", "comment/8"},
	} {
		prefix, key := "/api/v1/repos/o/r/"+p.route+"/assets", p.key
		f.Handle("GET "+prefix, func(w http.ResponseWriter, _ *http.Request) { fakeforge.WriteJSON(w, 200, f.list(key)) })
		f.Handle("GET "+prefix+"/{aid}", func(w http.ResponseWriter, r *http.Request) {
			a := f.find(key, path.Base(r.URL.Path))
			if a == nil {
				fakeforge.WriteJSON(w, 404, nil)
				return
			}
			fakeforge.WriteJSON(w, 200, a)
		})
		f.Handle("POST "+prefix, func(w http.ResponseWriter, r *http.Request) { f.create(w, r, key) })
		f.Handle("PATCH "+prefix+"/{aid}", func(w http.ResponseWriter, r *http.Request) {
			a := f.find(key, path.Base(r.URL.Path))
			var body struct{ Name string }
			if a == nil || json.NewDecoder(r.Body).Decode(&body) != nil {
				fakeforge.WriteJSON(w, 404, nil)
				return
			}
			f.mu.Lock()
			a.Name = body.Name
			f.mu.Unlock()
			fakeforge.WriteJSON(w, 201, a)
		})
		f.Handle("DELETE "+prefix+"/{aid}", func(w http.ResponseWriter, r *http.Request) {
			a := f.find(key, path.Base(r.URL.Path))
			if a == nil {
				fakeforge.WriteJSON(w, 404, nil)
				return
			}
			f.mu.Lock()
			delete(f.atts, a.ID)
			f.mu.Unlock()
			w.WriteHeader(204)
		})
	}
	f.Handle("GET /attachments/{uuid}", func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		data, ok := f.files[path.Base(r.URL.Path)]
		f.mu.Unlock()
		if !ok {
			w.WriteHeader(404)
			return
		}
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(data))
	})
	return f
}

// add attaches data to parent ("issue/3", "comment/7") and returns it.
func (f *forge) add(parent, name string, data []byte) *sdk.Attachment {
	f.mu.Lock()
	defer f.mu.Unlock()
	id := f.nextID
	f.nextID++
	uuid := fmt.Sprintf("0000000%d-0000-4000-8000-000000000000", id)
	a := &sdk.Attachment{ID: id, Name: name, Size: int64(len(data)), UUID: uuid, DownloadURL: f.URL + "/attachments/" + uuid}
	f.atts[id], f.parent[id], f.files[uuid] = a, parent, data
	return a
}

func (f *forge) list(parent string) []*sdk.Attachment {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := []*sdk.Attachment{}
	for id := int64(1); id < f.nextID; id++ {
		if a, ok := f.atts[id]; ok && f.parent[id] == parent {
			out = append(out, a)
		}
	}
	return out
}

func (f *forge) find(parent, aid string) *sdk.Attachment {
	id, _ := strconv.ParseInt(aid, 10, 64)
	f.mu.Lock()
	defer f.mu.Unlock()
	if a, ok := f.atts[id]; ok && f.parent[id] == parent {
		return a
	}
	return nil
}

func (f *forge) create(w http.ResponseWriter, r *http.Request, parent string) {
	mr, err := r.MultipartReader()
	if err != nil {
		fakeforge.WriteJSON(w, 500, nil) // what Gitea does with a non-multipart body
		return
	}
	p, err := mr.NextPart()
	if err != nil {
		fakeforge.WriteJSON(w, 500, nil)
		return
	}
	data, _ := io.ReadAll(p)
	u := upload{Field: p.FormName(), Filename: p.FileName(), ContentType: p.Header.Get("Content-Type"),
		Name: r.URL.Query().Get("name"), Data: data}
	f.mu.Lock()
	f.uploads = append(f.uploads, u)
	f.mu.Unlock()
	name := u.Name
	if name == "" {
		name = u.Filename
	}
	fakeforge.WriteJSON(w, 201, f.add(parent, name, data))
}

func (f *forge) lastUpload() (upload, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.uploads) == 0 {
		return upload{}, false
	}
	return f.uploads[len(f.uploads)-1], true
}

// call runs the named tool through the real pipeline against the fake.
func (f *forge) call(t *testing.T, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	return f.callWith(t, f.Client(), name, args)
}

func (f *forge) callWith(t *testing.T, c *forgejo.Client, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	return f.callCapped(t, context.Background(), c, 0, name, args)
}

// callCapped runs the named tool with an inline cap: the server's
// (serverCap, 0 for the default) and any ctx carries (a request's).
func (f *forge) callCapped(t *testing.T, ctx context.Context, c *forgejo.Client, serverCap int64, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	d, ok := tool.Find(attachment.Tools(), name)
	require.True(t, ok, name)
	r := &tool.Runner{Client: func(context.Context) (*forgejo.Client, error) { return c, nil }, Timeout: 10 * time.Second, MaxInlineBytes: serverCap}
	return r.Call(ctx, d, args)
}

// textOf returns the first text content of res.
func textOf(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	require.NotEmpty(t, res.Content)
	tc, ok := res.Content[0].(mcp.TextContent)
	require.True(t, ok, "first content is text")
	return tc.Text
}

// blobOf returns the decoded blob of res and its resource, if any.
func blobOf(t *testing.T, res *mcp.CallToolResult) ([]byte, *mcp.BlobResourceContents) {
	t.Helper()
	for _, c := range res.Content {
		if e, ok := c.(mcp.EmbeddedResource); ok {
			b, ok := e.Resource.(mcp.BlobResourceContents)
			require.True(t, ok, "embedded resource is a blob")
			data, err := base64.StdEncoding.DecodeString(b.Blob)
			require.NoError(t, err)
			return data, &b
		}
	}
	return nil, nil
}

// payload is the file a download result carries after its metadata.
type payload struct {
	data  []byte
	kind  string // "blob", "image", "text", or "" for none
	uri   string // a blob's
	count int    // how many contents carry it
}

// payloadOf finds the file's bytes in res: a blob, an image, or (when the
// metadata says content is text) the last text content.
func payloadOf(t *testing.T, res *mcp.CallToolResult) payload {
	t.Helper()
	var p payload
	if blob, meta := blobOf(t, res); meta != nil {
		p = payload{data: blob, kind: "blob", uri: meta.URI, count: 1}
	}
	if img, _ := imageOf(t, res); img != nil {
		p.data, p.kind = img, "image"
		p.count++
	}
	if strings.Contains(textOf(t, res), `"content":"text"`) {
		tc, ok := res.Content[len(res.Content)-1].(mcp.TextContent)
		require.True(t, ok)
		p.data, p.kind = []byte(tc.Text), "text"
		p.count++
	}
	return p
}

// imageOf returns the decoded image content of res and its MIME type.
func imageOf(t *testing.T, res *mcp.CallToolResult) ([]byte, string) {
	t.Helper()
	for _, c := range res.Content {
		if im, ok := c.(mcp.ImageContent); ok {
			data, err := base64.StdEncoding.DecodeString(im.Data)
			require.NoError(t, err)
			return data, im.MIMEType
		}
	}
	return nil, ""
}

func args(kv ...any) map[string]any {
	m := map[string]any{"owner": "o", "repo": "r"}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

func clientOf(f *fakeforge.Server) tool.ClientFunc {
	c := f.Client()
	return func(context.Context) (*forgejo.Client, error) { return c, nil }
}

func itoa(i int64) string { return strconv.FormatInt(i, 10) }
