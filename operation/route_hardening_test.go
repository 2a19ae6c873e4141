package operation_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// hostileValues try to change the route a tool's request goes to.
var hostileValues = []string{
	"..", ".", "../../admin", "a/../../admin", "../../victim", "../../../../../admin/users", `..%5C..%5Cx`, "%2e%2e", "%2e%2e%2fadmin", ".%2e", "a?x=1", "a#frag",
	"a\x00b", "a/b", `..\..\x`, "a\r\nX-Injected: 1", "a%00b", "/etc/passwd", strings.Repeat("a", 5000), "", " ",
	// Issue 18: values that climb behind two or more decoding proxies.
	"..%2F..%2Fvictim", "..%252F..%252Fvictim", "..%25252F..%25252Fvictim", "%252e%252e", "a%253Fx=1", "a%2523frag",
	"a%250D%250AX-Injected:%25201", "..%255C..%255Cx",
}

// TestNoArgumentChangesTheRoute puts each hostile value in each string
// parameter of each tool and checks what reaches a fake forge: the call is
// refused before any request, or every request stays under /api/v1 with no
// dot segment, with the same number of path segments as with a benign value
// (more only when the value has slashes and the parameter is a file path)
// and no query member the benign call did not have. It also reads each
// path as a chain of decoding proxies in front of the forge passes it on
// (nginx with `proxy_pass http://next$uri;` then `proxy_pass
// http://forge/;`: decoded once per hop, dot segments folded) and requires
// that to stay on the benign route's shape: the segments before and after
// the value unchanged.
func TestNoArgumentChangesTheRoute(t *testing.T) {
	reached, refused := 0, 0
	defer func() { t.Logf("hostile calls: %d reached the forge, %d refused before it", reached, refused) }()
	defs := operation.All()
	f := fakeforge.New(t)
	for _, d := range defs {
		if d.Offline {
			continue
		}
		routes := newRouteProbe(t, f, defs, d)
		benign := sampleArgs(d)
		for _, p := range d.Params {
			if _, ok := benign[p.Name]; !ok && p.Type == tool.TypeString && len(p.Enum) == 0 {
				benign[p.Name] = "x"
			}
		}
		base := routes(benign)
		if len(base) == 0 {
			continue
		}
		for _, p := range d.Params {
			if p.Type != tool.TypeString || len(p.Enum) > 0 {
				continue
			}
			marked := copyArgs(benign)
			marked[p.Name] = benignMarker
			shape := routes(marked)
			for _, v := range hostileValues {
				args := copyArgs(benign)
				args[p.Name] = v
				got := routes(args)
				if len(got) == 0 {
					refused++
				} else {
					reached++
				}
				for _, r := range got {
					if b, ok := shape[r.Method]; ok {
						assertSameShapeBehindProxy(t, b.Path, r.Path, v, "%s %s=%q", d.Name, p.Name, v)
					}
					u, err := url.Parse("http://forge" + r.Path + "?" + r.RawQuery)
					require.NoError(t, err)
					assert.True(t, strings.HasPrefix(r.Path, "/api/v1/"), "%s %s=%q: %s", d.Name, p.Name, v, r.Path)
					segs := strings.Split(strings.TrimPrefix(r.Path, "/"), "/")
					for _, s := range segs {
						dec, _ := url.PathUnescape(s)
						assert.NotContains(t, []string{".", ".."}, dec, "%s %s=%q: dot segment in %s", d.Name, p.Name, v, r.Path)
					}
					if b, ok := base[r.Method]; ok {
						bsegs := strings.Split(strings.TrimPrefix(b.Path, "/"), "/")
						if strings.Contains(v, "/") {
							assert.GreaterOrEqual(t, len(segs), len(bsegs), "%s %s=%q: %s", d.Name, p.Name, v, r.Path)
						} else {
							assert.Len(t, segs, len(bsegs), "%s %s=%q: %s vs %s", d.Name, p.Name, v, r.Path, b.Path)
						}
						bq, _ := url.ParseQuery(b.RawQuery)
						for k := range u.Query() {
							assert.Contains(t, bq, k, "%s %s=%q: query member %q injected", d.Name, p.Name, v, k)
						}
					}
				}
			}
		}
	}
}

// benignMarker is a parameter's benign value in the call that locates where
// the value lands in the route.
const benignMarker = "zzbenign"

// behindProxy is the path a chain of proxies that decode and normalise
// paths passes on for escaped, as segments: decoded once per hop until
// decoding changes nothing (the longest chain is the worst case; nginx
// with `proxy_pass http://next$uri` passes its decoded path on raw), cut
// at the first '?' or '#' (the next hop reads them as the path's end),
// empty and "." segments dropped, ".." removing the one before (nginx's
// merge_slashes and its dot-segment folding).
func behindProxy(escaped string) []string {
	dec := escaped
	for {
		d, err := url.PathUnescape(dec)
		if err != nil || d == dec {
			break
		}
		dec = d
	}
	if i := strings.IndexAny(dec, "?#"); i >= 0 {
		dec = dec[:i]
	}
	var out []string
	for _, s := range strings.Split(dec, "/") {
		switch s {
		case "", ".":
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		default:
			out = append(out, s)
		}
	}
	return out
}

// assertSameShapeBehindProxy checks that got, read through a decoding
// proxy, is benign's route with the value in place of benignMarker: the
// segments before and after it unchanged, and one segment for the value
// unless it has slashes (a file path or rule name, sent part by part).
// When the marker is not in benign's path the value went to the query or
// body, and the routes must be equal. An empty value may drop out of the
// route, and so may "." where it names the root (list_repo_contents).
func assertSameShapeBehindProxy(t *testing.T, benign, got, value string, msg string, args ...any) {
	t.Helper()
	label := fmt.Sprintf(msg, args...)
	b, h := behindProxy(benign), behindProxy(got)
	i := slices.Index(b, benignMarker)
	if i < 0 {
		assert.Equal(t, b, h, "behind a decoding proxy: %s", label)
		return
	}
	tail := len(b) - i - 1
	ok := len(h) >= len(b) && slices.Equal(h[:i], b[:i]) && slices.Equal(h[len(h)-tail:], b[i+1:])
	if !strings.Contains(value, "/") {
		ok = ok && len(h) == len(b)
	}
	if (value == "" || value == ".") && slices.Equal(h, slices.Delete(slices.Clone(b), i, i+1)) {
		ok = true
	}
	assert.True(t, ok, "%s: %s behind a decoding proxy reaches /%s, not the route of /%s",
		label, got, strings.Join(h, "/"), strings.Join(b, "/"))
}

// newRouteProbe returns a function that calls d with args against f,
// reset to accept everything (one fake for the whole test: starting a
// server per call made this test the slowest of the package), and returns
// the first request of each method the call made.
func newRouteProbe(t *testing.T, f *fakeforge.Server, defs []tool.Def, d tool.Def) func(args map[string]any) map[string]fakeforge.Request {
	f.Reset()
	f.Handle("/", func(w http.ResponseWriter, _ *http.Request) { fakeforge.WriteJSON(w, http.StatusOK, map[string]any{}) })
	return func(args map[string]any) map[string]fakeforge.Request {
		seen := len(f.Requests())
		f.Call(t, defs, d.Name, args)
		out := map[string]fakeforge.Request{}
		for _, r := range f.Requests()[seen:] {
			if _, ok := out[r.Method]; !ok {
				out[r.Method] = r
			}
		}
		return out
	}
}

func copyArgs(m map[string]any) map[string]any {
	c := make(map[string]any, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}
