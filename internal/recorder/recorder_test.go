package recorder

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

const (
	adminToken = "0123456789abcdef0123456789abcdef01234567"
	userToken  = "fedcba9876543210fedcba9876543210fedcba98"
)

// echoForge answers every request with what it got, the token included,
// in the body and in headers: the worst case for a recorder.
func echoForge(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Link", `<`+r.URL.String()+`>; rel="next"`)
		w.Header().Set("X-Total-Count", "3")
		w.Header().Set("X-Echo-Auth", r.Header.Get("Authorization"))
		switch {
		case strings.HasSuffix(r.URL.Path, "/raw"):
			w.Header().Set("Content-Type", "application/octet-stream")
			_, _ = w.Write([]byte{0xff, 0xfe, 0x00, 0x01})
		case strings.HasSuffix(r.URL.Path, "/diff"):
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			_, _ = w.Write(bytes.Repeat([]byte("é"), TextLimit)) // 2 bytes each: cut mid-way
		case r.Method == http.MethodDelete:
			w.WriteHeader(http.StatusNoContent)
		default:
			w.Header().Set("Content-Type", "application/json;charset=utf-8")
			enc := json.NewEncoder(w)
			enc.SetEscapeHTML(false) // as the forges send it
			_ = enc.Encode(map[string]any{
				"authorization": r.Header.Get("Authorization"), "query": r.URL.RawQuery, "body": string(body),
				"url": "http://" + r.Host + "/x"})
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func record(t *testing.T, do func(base string, rec *Recorder)) []map[string]any {
	t.Helper()
	forge := echoForge(t)
	target, err := url.Parse(forge.URL)
	require.NoError(t, err)
	var out bytes.Buffer
	rec := New(target, &out, 1001, map[string]string{adminToken: "admin", userToken: "user2"})
	proxy := httptest.NewServer(rec)
	t.Cleanup(proxy.Close)
	do(proxy.URL, rec)
	require.NotContains(t, out.String(), adminToken)
	require.NotContains(t, out.String(), userToken)
	require.NotContains(t, out.String(), `\u0026`, "no HTML escapes: a query's & is written as &")
	var lines []map[string]any
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m map[string]any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &m), sc.Text())
		lines = append(lines, m)
	}
	return lines
}

func send(t *testing.T, method, u, token, contentType string, body io.Reader) {
	t.Helper()
	req, err := http.NewRequest(method, u, body)
	require.NoError(t, err)
	if token != "" {
		req.Header.Set("Authorization", "token "+token)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Range", "bytes=0-99")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	require.NoError(t, resp.Body.Close())
}

// TestRecorderNeverWritesAToken sends each known token wherever a request
// can carry one (header, query, JSON body, form part) to a forge that
// echoes it back in its body and headers: no line may hold it.
func TestRecorderNeverWritesAToken(t *testing.T) {
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	fw, err := mw.CreateFormFile("attachment", "t.txt")
	require.NoError(t, err)
	_, _ = fw.Write([]byte("secret " + adminToken))
	require.NoError(t, mw.WriteField("token", userToken))
	require.NoError(t, mw.Close())

	lines := record(t, func(base string, rec *Recorder) {
		rec.SetTool("(seed) tokens", nil)
		send(t, "GET", base+"/api/v1/user?token="+adminToken, adminToken, "", nil)
		send(t, "POST", base+"/api/v1/users/x/tokens", userToken, "application/json",
			strings.NewReader(`{"name":"`+userToken+`","sha1":"`+adminToken+`"}`))
		send(t, "POST", base+"/api/v1/repos/o/r/issues/1/assets", adminToken, mw.FormDataContentType(), &form)
		send(t, "GET", base+"/api/v1/other", "ffffffffffffffffffffffffffffffffffffffff", "", nil)
		send(t, "GET", base+"/api/v1/version", "", "", nil)
	})
	require.Len(t, lines, 5)
	for i, auth := range []string{"admin", "user2", "admin", "unknown", "none"} {
		assert.Equal(t, auth, lines[i]["auth"], "line %d", i)
	}
	assert.Equal(t, "/api/v1/user?token=<token>", lines[0]["path"])
	assert.Contains(t, lines[1]["request_body"], "json")
	for _, l := range lines {
		assert.NotContains(t, l, "authorization")
		h, _ := l["headers"].(map[string]any)
		assert.NotContains(t, h, "x-echo-auth", "only the listed headers are kept")
	}
}

// TestRecorderFormat checks each kind of body against what the replay
// reads (fakeforge.Exchange): the line a recorder writes must load.
func TestRecorderFormat(t *testing.T) {
	call := 7
	lines := record(t, func(base string, rec *Recorder) {
		rec.SetTool("list_things", &call)
		send(t, "GET", base+"/api/v1/repos/o/r/issues?limit=1&page=2", adminToken, "", nil)
		send(t, "GET", base+"/api/v1/repos/o/r/raw", adminToken, "", nil)
		send(t, "GET", base+"/api/v1/repos/o/r/diff", adminToken, "", nil)
		send(t, "DELETE", base+"/api/v1/repos/o/r/issues/1", adminToken, "", nil)
	})
	require.Len(t, lines, 4)
	raw, err := json.Marshal(lines)
	require.NoError(t, err)
	var ex []fakeforge.Exchange
	require.NoError(t, json.Unmarshal(raw, &ex))

	tests := []struct {
		name   string
		line   int
		status int
		check  func(t *testing.T, l map[string]any, e fakeforge.Exchange)
	}{
		{"json with paging headers", 0, 200, func(t *testing.T, l map[string]any, e fakeforge.Exchange) {
			assert.Equal(t, map[string]any{"link": `</api/v1/repos/o/r/issues?limit=1&page=2>; rel="next"`, "x-total-count": "3"}, l["headers"])
			v, ok := e.JSON()
			require.True(t, ok)
			assert.Equal(t, "/api/v1/repos/o/r/issues", e.Route())
			assert.Contains(t, v.(map[string]any)["url"], "http://127.0.0.1:")
			assert.Equal(t, "bytes=0-99", l["request_range"])
		}},
		{"binary as length and hash", 1, 200, func(t *testing.T, l map[string]any, e fakeforge.Exchange) {
			sum := sha256.Sum256([]byte{0xff, 0xfe, 0x00, 0x01})
			assert.Equal(t, map[string]any{"binary_length": 4.0, "sha256": hex.EncodeToString(sum[:])}, l["response_body"])
			assert.Equal(t, int64(4), e.Response.BinaryLength)
		}},
		{"text cut at 8 KiB on a character", 2, 200, func(t *testing.T, _ map[string]any, e fakeforge.Exchange) {
			require.NotNil(t, e.Response.Text)
			assert.Len(t, *e.Response.Text, TextLimit)
			assert.Equal(t, int64(2*TextLimit), e.Length)
		}},
		{"empty answer: null body and content type", 3, 204, func(t *testing.T, l map[string]any, e fakeforge.Exchange) {
			assert.Contains(t, l, "response_body")
			assert.Nil(t, l["response_body"])
			assert.Contains(t, l, "content_type")
			assert.Nil(t, l["content_type"])
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, e := lines[tt.line], ex[tt.line]
			assert.Equal(t, float64(1001+tt.line), l["seq"])
			assert.Equal(t, "list_things", e.Tool)
			require.NotNil(t, e.Call)
			assert.Equal(t, 7, *e.Call)
			assert.Equal(t, tt.status, e.Status)
			tt.check(t, l, e)
		})
	}
}
