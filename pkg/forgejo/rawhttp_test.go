package forgejo_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

func TestRawRequestsCarryIdentity(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/x", 200, map[string]int{"n": 1})
	f.JSON("POST /api/v1/up", 201, map[string]int{"n": 2})
	f.Handle("GET /file", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("abc")) })
	c := f.Client()
	ctx := context.Background()
	calls := []struct {
		name string
		do   func() error
	}{
		{"DoJSON", func() error { return c.DoJSON(ctx, http.MethodGet, "/x", nil, nil, nil) }},
		{"DoMultipart", func() error {
			return c.DoMultipart(ctx, http.MethodPost, "/up", nil, forgejo.FilePart{Field: "attachment", Filename: "a.txt",
				Content: strings.NewReader("hi"), Size: 2}, nil)
		}},
		{"DoRaw", func() error { _, err := c.DoRaw(ctx, "file", forgejo.RawOptions{MaxBytes: 10}); return err }},
	}
	for i, tt := range calls {
		t.Run(tt.name, func(t *testing.T) {
			require.NoError(t, tt.do())
			r := f.Requests()[i]
			assert.Equal(t, "token "+fakeforge.Token, r.Auth)
			assert.Equal(t, "forgejo-mcp/test", r.UserAgent)
		})
	}
}

func TestRawWithoutTokenSendsNoAuthorization(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/x", 200, nil)
	c := forgejo.NewClient(forgejo.NewHTTPClient(forgejo.HTTPOptions{BaseURL: f.BaseURL()}), f.BaseURL(), "", "ua")
	require.NoError(t, c.DoJSON(context.Background(), http.MethodGet, "/x", nil, nil, nil))
	assert.Empty(t, f.Requests()[0].Auth)
}

func TestDoJSONDecodesSuccess(t *testing.T) {
	tests := []struct {
		name   string
		method string
		status int
		body   any
		want   map[string]any
	}{
		{"200 GET", http.MethodGet, 200, map[string]any{"id": 1.0}, map[string]any{"id": 1.0}},
		{"201 PATCH (Gitea's edit answer)", http.MethodPatch, 201, map[string]any{"name": "b"}, map[string]any{"name": "b"}},
		{"204 DELETE", http.MethodDelete, 204, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.Handle(tt.method+" /api/v1/thing", func(w http.ResponseWriter, r *http.Request) {
				if tt.status == 204 {
					w.WriteHeader(204)
					return
				}
				fakeforge.WriteJSON(w, tt.status, tt.body)
			})
			var out map[string]any
			require.NoError(t, f.Client().DoJSON(context.Background(), tt.method, "/thing", url.Values{"q": {"1"}}, map[string]string{"name": "b"}, &out))
			assert.Equal(t, tt.want, out)
			r := f.Requests()[0]
			assert.Equal(t, "q=1", r.RawQuery)
			assert.JSONEq(t, `{"name":"b"}`, string(r.Body))
		})
	}
}

// TestRawErrorMapping checks the text an agent reads for each failure and
// that 401 and 403 stay distinguishable.
func TestRawErrorMapping(t *testing.T) {
	tests := []struct {
		name   string
		status int
		raw    string
		want   string
		absent string
	}{
		{"404 null (Gitea)", 404, "null", "/x not found (404)", ""},
		{"404 message (Forgejo)", 404, `{"message":"issue does not exist [id: 0, repo_id: 5, index: 9]"}`, "not found (404): it does not exist or this token cannot see it: issue does not exist", "repo_id"},
		{"401", 401, `{"message":"token is invalid"}`, "the forge rejected the token (401 Unauthorized)", ""},
		{"403", 403, `{"message":"token does not have at least one of required scope(s): [write:issue]"}`, "permission denied (403): token does not have", ""},
		{"413", 413, "", "too large for the forge (413)", ""},
		{"422", 422, `{"message":"file type not allowed"}`, "the forge rejected the input (422): file type not allowed", ""},
		{"500 html never dumped", 500, "<html>stack trace secret</html>", "the forge failed (500 Internal Server Error); retry later", "secret"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.Handle("GET /api/v1/x", func(w http.ResponseWriter, _ *http.Request) {
				w.WriteHeader(tt.status)
				_, _ = w.Write([]byte(tt.raw))
			})
			err := f.Client().DoJSON(context.Background(), http.MethodGet, "/x", nil, nil, nil)
			require.Error(t, err)
			assert.Equal(t, tt.status, forgejo.StatusOf(err))
			assert.Contains(t, err.Error(), tt.want)
			if tt.absent != "" {
				assert.NotContains(t, err.Error(), tt.absent)
			}
			relabelled := forgejo.Relabel(err, "list attachments of", "issue o/r#3")
			assert.Equal(t, tt.status, forgejo.StatusOf(relabelled))
			assert.NotContains(t, relabelled.Error(), "/x")
		})
	}
}

func TestDoMultipartRoundTrip(t *testing.T) {
	tests := []struct {
		name, filename, mimeType, wantMIME string
		size                               int64
	}{
		{"pdf with exact length", "report.pdf", "application/pdf", "application/pdf", -2},
		{"unicode name, default type", "Übersicht März.txt", "", "application/octet-stream", -2},
		{"chunked", "blob.bin", "application/octet-stream", "application/octet-stream", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			content := bytes.Repeat([]byte{0, 1, 2, 0xff, '\r', '\n', '-'}, 3000)
			size := tt.size
			if size == -2 {
				size = int64(len(content))
			}
			var gotLen int64
			var got struct{ field, filename, ctype string }
			var gotBytes []byte
			f := fakeforge.New(t)
			f.Handle("POST /api/v1/assets", func(w http.ResponseWriter, r *http.Request) {
				gotLen = r.ContentLength
				mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
				if !assert.NoError(t, err) || !assert.Equal(t, "multipart/form-data", mt) {
					return
				}
				mr := multipart.NewReader(r.Body, params["boundary"])
				p, err := mr.NextPart()
				if !assert.NoError(t, err) {
					return
				}
				got.field, got.filename, got.ctype = p.FormName(), p.FileName(), p.Header.Get("Content-Type")
				gotBytes, _ = io.ReadAll(p)
				_, err = mr.NextPart()
				assert.ErrorIs(t, err, io.EOF, "exactly one part")
				fakeforge.WriteJSON(w, 201, map[string]any{"id": 7})
			})
			var out struct{ ID int64 }
			err := f.Client().DoMultipart(context.Background(), http.MethodPost, "/assets", url.Values{"name": {tt.filename}},
				forgejo.FilePart{Field: "attachment", Filename: tt.filename, MIMEType: tt.mimeType, Content: bytes.NewReader(content), Size: size}, &out)
			require.NoError(t, err)
			assert.Equal(t, int64(7), out.ID)
			assert.Equal(t, "attachment", got.field)
			assert.Equal(t, tt.filename, got.filename)
			assert.Equal(t, tt.wantMIME, got.ctype)
			assert.Equal(t, content, gotBytes)
			if size >= 0 {
				assert.Equal(t, int64(len(f.Requests()[0].Body)), gotLen, "exact Content-Length")
			} else {
				assert.Equal(t, int64(-1), gotLen, "streamed chunked")
			}
			q, _ := url.ParseQuery(f.Requests()[0].RawQuery)
			assert.Equal(t, tt.filename, q.Get("name"))
		})
	}
}

func TestDoMultipartRefusesBadInput(t *testing.T) {
	f := fakeforge.New(t)
	for _, p := range []forgejo.FilePart{
		{Field: "attachment", Filename: "", Content: strings.NewReader("x"), Size: 1},
		{Field: "attachment", Filename: "a", MIMEType: "not a type", Content: strings.NewReader("x"), Size: 1},
	} {
		require.Error(t, f.Client().DoMultipart(context.Background(), http.MethodPost, "/assets", nil, p, nil))
	}
	assert.Empty(t, f.Requests(), "nothing was sent")
}

func TestAPIPathCannotLeaveTheAPI(t *testing.T) {
	f := fakeforge.New(t)
	for _, p := range []string{"x", "/repos/../admin", "/repos/%2e%2e/admin", "/a?b=c", "/a#b", `/a\b`, "/a%zz"} {
		assert.Error(t, f.Client().DoJSON(context.Background(), http.MethodGet, p, nil, nil, nil), p)
	}
	assert.Empty(t, f.Requests())
}

func TestAPIPathStaysEscaped(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/{owner}/{name}", 200, nil)
	route, err := forgejo.Path("repos", "a b", "c%d")
	require.NoError(t, err)
	require.NoError(t, f.Client().DoJSON(context.Background(), http.MethodGet, route, nil, nil, nil))
	assert.Equal(t, "/api/v1/repos/a%20b/c%25d", f.Requests()[0].Path, "a value stays inside its segment")
	// A route with an encoded slash, however it was built, is not sent.
	err = f.Client().DoJSON(context.Background(), http.MethodGet, "/repos/o/c%2Fd", nil, nil, nil)
	require.ErrorContains(t, err, `"c/d" cannot be used in a forge API path`)
	// Nor one whose slash is encoded twice: a second decoding proxy
	// would split it.
	err = f.Client().DoJSON(context.Background(), http.MethodGet, "/repos/o/c%252Fd", nil, nil, nil)
	require.ErrorContains(t, err, `"c%2Fd" cannot be used in a forge API path: percent-decoded once it is "c/d"`)
	assert.Len(t, f.Requests(), 1)
}

func TestAPIPathKeepsSubPath(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /forge/api/v1/x", 200, nil)
	base, _ := url.Parse(f.URL + "/forge")
	c := forgejo.NewClient(forgejo.NewHTTPClient(forgejo.HTTPOptions{BaseURL: base}), base, "t0k3n", "ua")
	require.NoError(t, c.DoJSON(context.Background(), http.MethodGet, "/x", nil, nil, nil))
	_, err := c.DoRaw(context.Background(), "attachments/u", forgejo.RawOptions{MaxBytes: 1})
	require.Error(t, err)
	assert.Equal(t, "/forge/attachments/u", f.Requests()[1].Path)
}

// lyingTransport answers with a small Content-Length and a large body.
type lyingTransport struct{ body []byte }

func (l lyingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, ContentLength: 10, Header: http.Header{}, Request: req,
		Body: io.NopCloser(bytes.NewReader(l.body))}, nil
}

func TestDoRawCapIgnoresContentLength(t *testing.T) {
	base, _ := url.Parse("http://127.0.0.1:1")
	big := bytes.Repeat([]byte("x"), 2<<20)
	c := forgejo.NewClient(&http.Client{Transport: lyingTransport{big}}, base, "t0k3n", "ua")
	_, err := c.DoRaw(context.Background(), "/attachments/u", forgejo.RawOptions{MaxBytes: 1 << 20})
	require.ErrorIs(t, err, forgejo.ErrResponseTooLarge)

	chunked := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		for range 4 {
			_, _ = w.Write(big[:1<<19])
			w.(http.Flusher).Flush()
		}
	}))
	defer chunked.Close()
	cbase, _ := url.Parse(chunked.URL)
	cc := forgejo.NewClient(forgejo.NewHTTPClient(forgejo.HTTPOptions{BaseURL: cbase}), cbase, "t0k3n", "ua")
	for _, tt := range []struct {
		max  int64
		fail bool
	}{{1 << 20, true}, {2 << 20, false}} {
		got, err := cc.DoRaw(context.Background(), "f", forgejo.RawOptions{MaxBytes: tt.max})
		if tt.fail {
			assert.ErrorIs(t, err, forgejo.ErrResponseTooLarge)
			continue
		}
		require.NoError(t, err)
		assert.Len(t, got.Body, 2<<20, "exactly the cap still succeeds")
	}
}

func TestDoRawRefusesOtherOrigins(t *testing.T) {
	var hits atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { hits.Add(1) }))
	defer other.Close()
	f := fakeforge.New(t)
	for _, u := range []string{other.URL + "/attachments/u", "//" + strings.TrimPrefix(other.URL, "http://") + "/x",
		strings.Replace(f.URL, "http://", "https://", 1) + "/x", strings.Replace(f.URL, "http://", "http://user:pw@", 1) + "/x"} {
		_, err := f.Client().DoRaw(context.Background(), u, forgejo.RawOptions{MaxBytes: 10})
		require.ErrorIs(t, err, forgejo.ErrOtherOrigin, u)
		assert.NotContains(t, err.Error(), fakeforge.Token)
	}
	assert.Zero(t, hits.Load(), "the other origin was never contacted")
	assert.Empty(t, f.Requests())
}

func TestDoRawRedirects(t *testing.T) {
	var leaked atomic.Value
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		leaked.Store(r.Header.Get("Authorization"))
		_, _ = w.Write([]byte("evil"))
	}))
	defer other.Close()
	f := fakeforge.New(t)
	f.Handle("GET /attachments/aaaaaaaa-0001", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/file", http.StatusFound)
	})
	f.Handle("GET /attachments/aaaaaaaa-0002", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/o/r/attachments/aaaaaaaa-0003", http.StatusFound)
	})
	f.Handle("GET /o/r/attachments/aaaaaaaa-0003", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("bytes")) })
	base := f.BaseURL()
	clients := map[string]*http.Client{
		"shared client":                 forgejo.NewHTTPClient(forgejo.HTTPOptions{BaseURL: base}),
		"plain client without a policy": {Timeout: 5 * time.Second},
	}
	for name, hc := range clients {
		t.Run(name, func(t *testing.T) {
			c := forgejo.NewClient(hc, base, fakeforge.Token, "ua")
			_, err := c.DoRaw(context.Background(), "attachments/aaaaaaaa-0001", forgejo.RawOptions{MaxBytes: 10})
			require.Error(t, err)
			assert.Contains(t, err.Error(), "refused a redirect to another origin")
			assert.Nil(t, leaked.Load(), "the other origin was never contacted")

			got, err := c.DoRaw(context.Background(), "attachments/aaaaaaaa-0002", forgejo.RawOptions{MaxBytes: 10})
			require.NoError(t, err)
			assert.Equal(t, "bytes", string(got.Body))
			last := f.Requests()[len(f.Requests())-1]
			assert.Equal(t, "/o/r/attachments/aaaaaaaa-0003", last.Path)
			assert.Equal(t, "token "+fakeforge.Token, last.Auth, "same-origin redirect keeps the token")
		})
	}
}

func TestDoRawWindows(t *testing.T) {
	file := make([]byte, 5000)
	for i := range file {
		file[i] = byte(i * 7)
	}
	ranges := func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, "f.bin", time.Time{}, bytes.NewReader(file))
	}
	whole := func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(file) }
	// lying answers 206 with a Content-Range no honest server writes.
	lying := func(cr string) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Range", cr)
			w.WriteHeader(http.StatusPartialContent)
			_, _ = w.Write(file[1000:1010])
		}
	}
	tests := []struct {
		name                 string
		handler              http.HandlerFunc
		offset, length, maxB int64
		maxSkip              int64
		want                 []byte
		ranged               bool
		errContains          string
		wantTotal            int64
	}{
		{"whole file", whole, 0, 0, 5000, 0, file, false, "", 5000},
		{"range honoured", ranges, 1000, 1000, 1000, 0, file[1000:2000], true, "", 5000},
		{"last window is short", ranges, 4500, 1000, 1000, 0, file[4500:], true, "", 5000},
		{"range ignored: skip then read", whole, 1000, 1000, 1000, 4096, file[1000:2000], false, "", -1},
		{"range ignored: skip bounded", whole, 1000, 1000, 1000, 999, nil, false, "does not support byte ranges", 0},
		{"range past the end", ranges, 6000, 10, 10, 0, nil, false, "416", 0},
		{"hostile range: negative size", lying("bytes 1000-1009/-2"), 1000, 10, 10, 0, nil, false, "different byte range", 0},
		{"hostile range: end past the size", lying("bytes 1000-1009/1005"), 1000, 10, 10, 0, nil, false, "different byte range", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fakeforge.New(t)
			var rangeHdr string
			f.Handle("GET /f", func(w http.ResponseWriter, r *http.Request) {
				rangeHdr = r.Header.Get("Range")
				tt.handler(w, r)
			})
			got, err := f.Client().DoRaw(context.Background(), "/f", forgejo.RawOptions{MaxBytes: tt.maxB, Offset: tt.offset, Length: tt.length, MaxSkip: tt.maxSkip})
			if tt.errContains != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.errContains)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got.Body)
			assert.Equal(t, tt.ranged, got.Ranged)
			assert.Equal(t, tt.offset, got.Offset)
			assert.Equal(t, tt.wantTotal, got.Total)
			if tt.offset > 0 {
				assert.Equal(t, fmt.Sprintf("bytes=%d-%d", tt.offset, tt.offset+tt.length-1), rangeHdr)
			}
		})
	}
}

func TestDoRawContentTypeAndCancel(t *testing.T) {
	f := fakeforge.New(t)
	f.Handle("GET /f", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		_, _ = w.Write([]byte("%PDF-"))
	})
	got, err := f.Client().DoRaw(context.Background(), "/f", forgejo.RawOptions{MaxBytes: 10})
	require.NoError(t, err)
	mt, _, _ := mime.ParseMediaType(got.ContentType)
	assert.Equal(t, "application/pdf", mt)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = f.Client().DoRaw(ctx, "/f", forgejo.RawOptions{MaxBytes: 10})
	require.Error(t, err)
	assert.True(t, errors.Is(err, context.Canceled))
	assert.Contains(t, err.Error(), "cancelled")
}

// DoRawAPI sends a FilePath route with its escapes as they are (a file
// named "a%41 b.bin" is that file, not "aA b"), with its query, and
// refuses a route that is not one, before sending.
func TestDoRawAPI(t *testing.T) {
	f := fakeforge.New(t)
	var got []string
	f.Handle("GET /api/v1/repos/o/r/media/", func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.URL.EscapedPath()+"?"+r.URL.RawQuery)
		_, _ = w.Write([]byte("bytes"))
	})
	c := f.Client()
	p, err := forgejo.FilePath([]string{"repos", "o", "r", "media"}, "d/a%41 b.bin")
	require.NoError(t, err)
	raw, err := c.DoRawAPI(context.Background(), p, url.Values{"ref": {"main"}}, forgejo.RawOptions{MaxBytes: 10})
	require.NoError(t, err)
	assert.Equal(t, "bytes", string(raw.Body))
	assert.Equal(t, []string{"/api/v1/repos/o/r/media/d/a%2541%20b.bin?ref=main"}, got)
	_, err = c.DoRawAPI(context.Background(), p, nil, forgejo.RawOptions{MaxBytes: 4})
	require.ErrorIs(t, err, forgejo.ErrResponseTooLarge)
	for _, bad := range []string{"repos/o/r", "/repos/o/../r", "/repos/o/r?x=1"} {
		_, err = c.DoRawAPI(context.Background(), bad, nil, forgejo.RawOptions{MaxBytes: 4})
		require.Error(t, err, bad)
	}
	_, err = c.DoRawAPI(context.Background(), p, nil, forgejo.RawOptions{})
	require.Error(t, err)
	assert.Len(t, got, 2)
}
