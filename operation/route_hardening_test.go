package operation_test

import (
	"net/http"
	"net/url"
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
	"..", ".", "../../admin", "a/../../admin", "%2e%2e", "%2e%2e%2fadmin", ".%2e", "a?x=1", "a#frag",
	"a\x00b", "a/b", `..\..\x`, "a\r\nX-Injected: 1", "a%00b", "/etc/passwd", strings.Repeat("a", 5000), "", " ",
}

// TestNoArgumentChangesTheRoute puts each hostile value in each string
// parameter of each tool and checks what reaches a fake forge: the call is
// refused before any request, or every request stays under /api/v1 with no
// dot segment, with the same number of path segments as with a benign value
// (more only when the value has slashes and the parameter is a file path)
// and no query member the benign call did not have.
func TestNoArgumentChangesTheRoute(t *testing.T) {
	reached, refused := 0, 0
	defer func() { t.Logf("hostile calls: %d reached the forge, %d refused before it", reached, refused) }()
	for _, d := range operation.All() {
		if d.Offline {
			continue
		}
		benign := sampleArgs(d)
		for _, p := range d.Params {
			if _, ok := benign[p.Name]; !ok && p.Type == tool.TypeString && len(p.Enum) == 0 {
				benign[p.Name] = "x"
			}
		}
		base := routes(t, d, benign)
		if len(base) == 0 {
			continue
		}
		for _, p := range d.Params {
			if p.Type != tool.TypeString || len(p.Enum) > 0 {
				continue
			}
			for _, v := range hostileValues {
				args := copyArgs(benign)
				args[p.Name] = v
				got := routes(t, d, args)
				if len(got) == 0 {
					refused++
				} else {
					reached++
				}
				for _, r := range got {
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

// routes calls d with args against an accept-all fake and returns the
// first request of each method.
func routes(t *testing.T, d tool.Def, args map[string]any) map[string]fakeforge.Request {
	f := fakeforge.New(t)
	f.Handle("/", func(w http.ResponseWriter, _ *http.Request) { fakeforge.WriteJSON(w, http.StatusOK, map[string]any{}) })
	f.Call(t, operation.All(), d.Name, args)
	out := map[string]fakeforge.Request{}
	for _, r := range f.Requests() {
		if _, ok := out[r.Method]; !ok {
			out[r.Method] = r
		}
	}
	return out
}

func copyArgs(m map[string]any) map[string]any {
	c := make(map[string]any, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}
