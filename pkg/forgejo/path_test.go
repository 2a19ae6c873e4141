package forgejo_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

func TestPath(t *testing.T) {
	tests := []struct {
		name     string
		segments []string
		want     string
		err      string
	}{
		{name: "plain", segments: []string{"repos", "o", "r", "issues", "3"}, want: "/repos/o/r/issues/3"},
		{name: "slash", segments: []string{"repos", "o", "a/b"}, err: `"a/b" cannot be used in a forge API path: it contains '/' or '\'`},
		{name: "climbing slash", segments: []string{"repos", "../../victim"}, err: "a proxy in front of the forge may decode %2F"},
		{name: "encoded dots", segments: []string{"repos", "%2e%2e"}, err: `percent-decoded once it is "..": '.' and '..' are not names`},
		{name: "dots encoded twice", segments: []string{"repos", "%252e%252e"}, err: `percent-decoded twice it is ".."`},
		{name: "query", segments: []string{"repos", "a?b=c"}, err: "it contains '?' or '#'"},
		{name: "encoded query", segments: []string{"repos", "a%3Fb=c"}, err: `percent-decoded once it is "a?b=c": it contains '?' or '#'`},
		{name: "fragment", segments: []string{"repos", "a#b"}, err: "it contains '?' or '#'"},
		{name: "encoded fragment twice", segments: []string{"repos", "a%2523b"}, err: "percent-decoded twice"},
		{name: "encoded newline", segments: []string{"repos", "a%0Ab"}, err: "percent-decoded once it is \"a\\nb\": it contains a control character"},
		{name: "encoded C1", segments: []string{"repos", "a%C2%85b"}, err: "control character"},
		{name: "a percent sign that decodes to nothing", segments: []string{"repos", "100%"}, want: "/repos/100%25"},
		{name: "an escape of a letter", segments: []string{"repos", "a%41"}, want: "/repos/a%2541"},
		{name: "backslash", segments: []string{"repos", `..\x`}, err: "contains '/' or '\\'"},
		{name: "escaped slash", segments: []string{"repos", "a%2Fb"}, err: `percent-decoded once it is "a/b": it contains '/' or '\'`},
		{name: "the two-proxy climb of issue 18", segments: []string{"branch_protections", "..%2F..%2Fvictim2"}, err: `percent-decoded once it is "../../victim2"`},
		{name: "slash encoded three times", segments: []string{"repos", "..%25252F..%25252Fv"}, err: "percent-decoded 3 times"},
		{name: "space and unicode", segments: []string{"wiki", "page", "Hé llo"}, want: "/wiki/page/H%C3%A9%20llo"},
		{name: "dot dot", segments: []string{"repos", ".."}, err: `".." cannot be used in a forge API path: '.' and '..' are not names`},
		{name: "dot", segments: []string{"repos", "."}, err: "'.' and '..' are not names"},
		{name: "empty", segments: []string{"repos", ""}, err: "it is empty"},
		{name: "NUL", segments: []string{"repos", "a\x00b"}, err: "control character"},
		{name: "newline", segments: []string{"repos", "a\nb"}, err: "control character"},
		{name: "invalid UTF-8", segments: []string{"repos", "a\xffb"}, err: "not valid UTF-8"},
		{name: "over-long", segments: []string{"repos", strings.Repeat("a", forgejo.MaxSegmentBytes+1)}, err: "at most 1024"},
		{name: "at the limit", segments: []string{strings.Repeat("a", forgejo.MaxSegmentBytes)}, want: "/" + strings.Repeat("a", forgejo.MaxSegmentBytes)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := forgejo.Path(tt.segments...)
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				assert.Contains(t, err.Error(), "cannot be used in a forge API path")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			assertUnder(t, got, tt.segments)
		})
	}
}

func TestFilePath(t *testing.T) {
	prefix := []string{"repos", "o", "r", "contents"}
	tests := []struct {
		name, file, want, err string
	}{
		{name: "nested", file: "docs/README.md", want: "/repos/o/r/contents/docs/README.md"},
		{name: "branch with slash", file: "feature/x", want: "/repos/o/r/contents/feature/x"},
		{name: "escaped parts", file: "a b/c%e.md", want: "/repos/o/r/contents/a%20b/c%25e.md"},
		{name: "query in a part", file: "a/c?d", err: `its part "c?d": it contains '?' or '#'`},
		{name: "encoded climb in a part", file: "a/..%2F..%2Fb", err: `its part "..%2F..%2Fb": percent-decoded once it is "../../b"`},
		{name: "doubly encoded dots", file: "%252e%252e/x", err: "percent-decoded twice"},
		{name: "dots inside names", file: "a/..b/c..", want: "/repos/o/r/contents/a/..b/c.."},
		{name: "climb", file: "../secrets", err: `its part "..": '.' and '..' are not names`},
		{name: "climb in the middle", file: "a/../../b", err: "'.' and '..' are not names"},
		{name: "dot", file: "./a", err: "'.' and '..' are not names"},
		{name: "double slash", file: "a//b", err: "it is empty"},
		{name: "trailing slash", file: "a/", err: "it is empty"},
		{name: "leading slash", file: "/etc/passwd", err: "without a leading '/'"},
		{name: "empty", file: "", err: "the path is empty"},
		{name: "NUL", file: "a\x00.md", err: "control character"},
		{name: "over-long", file: strings.Repeat("a/", forgejo.MaxFilePathBytes/2) + "a", err: "at most 4096 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := forgejo.FilePath(prefix, tt.file)
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			assertUnder(t, got, append(append([]string{}, prefix...), strings.Split(tt.file, "/")...))
		})
	}
	_, err := forgejo.FilePath([]string{"repos", ".."}, "a")
	require.Error(t, err, "the prefix is checked too")
}

// assertUnder checks the route property: parsed as a URL under the forge's
// API root, the route has no query or fragment, survives dot-segment
// removal unchanged, and splits into exactly the given segments.
func assertUnder(t testing.TB, route string, segments []string) {
	t.Helper()
	u, err := url.Parse("https://forge.example/api/v1" + route)
	require.NoError(t, err)
	assert.Empty(t, u.RawQuery, "no query")
	assert.Empty(t, u.Fragment, "no fragment")
	require.Equal(t, "/api/v1"+route, u.EscapedPath(), "escaping survives parsing")
	assert.Equal(t, u.EscapedPath(), u.ResolveReference(&url.URL{}).EscapedPath(), "no dot segment to resolve")
	// What a chain of decoding proxies (nginx with `proxy_pass
	// http://next$uri`, then one with a URI in proxy_pass) sends on: the
	// path decoded once per hop and its dot segments folded. After any
	// number of hops it must split into as many segments as the route,
	// with no query or fragment cut out of it.
	dec := u.EscapedPath()
	for hop := 1; hop <= 4; hop++ {
		d, err := url.PathUnescape(dec)
		if err != nil {
			break // the next proxy refuses the request: nothing climbs
		}
		dec = d
		assert.NotContains(t, dec, "?", "hop %d: no query appears", hop)
		assert.NotContains(t, dec, "#", "hop %d: no fragment appears", hop)
		folded := (&url.URL{Path: dec}).ResolveReference(&url.URL{}).Path
		assert.Equal(t, dec, folded, "hop %d: a decoding proxy folds nothing", hop)
		assert.Len(t, strings.Split(dec, "/"), len(segments)+3, "hop %d: a decoding proxy sees the same number of segments", hop)
	}
	parts := strings.Split(strings.TrimPrefix(u.EscapedPath(), "/api/v1/"), "/")
	require.Len(t, parts, len(segments))
	for i, p := range parts {
		dec, err := url.PathUnescape(p)
		require.NoError(t, err)
		assert.Equal(t, segments[i], dec)
		assert.NotContains(t, []string{"", ".", ".."}, dec)
	}
}

// TestPathReachesTheIntendedRoute sends hostile segments to a real HTTP
// server: what the server sees is the intended route with the value as one
// literal segment.
func TestPathReachesTheIntendedRoute(t *testing.T) {
	f := fakeforge.New(t)
	var seen []string
	f.Handle("/", func(w http.ResponseWriter, r *http.Request) {
		seen = append(seen, r.URL.EscapedPath()+"|"+r.URL.RawQuery)
		fakeforge.WriteJSON(w, http.StatusOK, map[string]any{})
	})
	for _, v := range []string{"%2x", "100%", "a%41", "a b", "é", "~!$&'()*+,;=:@"} {
		route, err := forgejo.Path("repos", "o", v, "issues")
		require.NoError(t, err)
		resp, err := http.Get(f.URL + "/api/v1" + route)
		require.NoError(t, err)
		resp.Body.Close()
		got := seen[len(seen)-1]
		assert.Equal(t, "/api/v1/repos/o/"+url.PathEscape(v)+"/issues|", got, "value %q", v)
	}
}
