package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/nginx"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// TestE2EThroughTwoDecodingProxies is issue 18's climb: the built server
// talks to the live forge through nginx B (`proxy_pass
// http://C$uri$is_args$args`, which passes its decoded path on raw) and
// nginx C (`proxy_pass http://forge/`, which decodes again and folds dot
// segments), with a recorder in front of the forge that keeps every
// request line as the forge receives it. It first shows the chain climbs:
// ..%252F..%252F{victim} reaches the victim repository. Then every string
// parameter of every tool that lands in a route (found by calling each
// tool of the inventory against a fake forge, so a new tool is covered
// without a change here) and every variable of every resource template is
// driven with values that climb to the victim behind one, two or three
// such hops: each call is refused, no request reaching the forge names the
// victim, and the victim repository and its file are still there.
func TestE2EThroughTwoDecodingProxies(t *testing.T) {
	f := testforge.Get(t)
	rec := newRecorder(t, f.URL)
	chain := nginx.StartChain(t, rec.URL, 2)
	owner, repo := f.NewRepo(t)
	_, victim := f.NewRepo(t)
	victimAPI := fmt.Sprintf("/repos/%s/%s", owner, victim)

	// The premise: through this chain a doubly encoded slash climbs.
	seen := rec.count()
	requireClimb(t, f, chain.URL, owner, repo, victim, "%252F")
	require.Equal(t, []string{"/api/v1" + victimAPI}, rec.since(seen), "what the forge received")

	bound := routeBound(t, owner, repo)
	require.NotEmpty(t, bound)
	cs := connect(t, protocolVersions[0], []string{"FORGEJO_URL=" + chain.URL, "FORGEJO_ACCESS_TOKEN=" + f.Token})
	calls, refused := 0, 0
	for _, b := range bound {
		for _, v := range climbs(victim, b.depth) {
			args := copyMap(b.args)
			args[b.param] = v
			seen := rec.count()
			res, text := callTool(t, cs, b.tool, args)
			calls++
			assert.True(t, res.IsError, "%s %s=%q was not refused: %.300s", b.tool, b.param, v, text)
			got := rec.since(seen)
			if len(got) == 0 {
				refused++
			}
			assertNoEscape(t, got, victim, "%s %s=%q", b.tool, b.param, v)
		}
	}

	// Every variable of every resource template.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tl, err := cs.ListResourceTemplates(ctx, nil)
	require.NoError(t, err)
	require.NotEmpty(t, tl.ResourceTemplates)
	reads := 0
	for _, tpl := range tl.ResourceTemplates {
		vars := templateVars(tpl.URITemplate)
		require.NotEmpty(t, vars, tpl.URITemplate)
		for _, hostile := range vars {
			for _, v := range climbs(victim, 4) {
				uri := expandTemplate(tpl.URITemplate, owner, repo, hostile, url.PathEscape(v))
				seen := rec.count()
				rctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				_, err := cs.ReadResource(rctx, &mcp.ReadResourceParams{URI: uri})
				cancel()
				reads++
				if !strings.HasPrefix(hostile, "?") {
					assert.Error(t, err, "%s was read", uri)
				}
				assertNoEscape(t, rec.since(seen), victim, "%s", uri)
			}
		}
	}
	t.Logf("%d route-bound parameters of %d tools, %d hostile calls (%d sent nothing), %d hostile resource reads of %d templates; the forge received %d requests",
		len(bound), countTools(bound), calls, refused, reads, len(tl.ResourceTemplates), rec.count())

	// The victim is intact.
	assert.Equal(t, http.StatusOK, f.Do(t, "GET", victimAPI, nil, nil), "the victim repository survives")
	assert.Equal(t, http.StatusOK, f.Do(t, "GET", victimAPI+"/contents/README.md", nil, nil), "and its file")
}

// bound is one tool parameter whose value lands in a route segment.
type bound struct {
	tool, param string
	args        map[string]any // valid arguments of the tool, for the live repository
	depth       int            // climbs from the value's segment to the repository's
}

// routeBound calls every tool of the inventory against an accept-all fake
// forge, once per string parameter with a marker value, and returns the
// parameters whose marker appears as a route segment.
func routeBound(t *testing.T, owner, repo string) []bound {
	const marker = "zzroutemarker"
	var out []bound
	for _, d := range operation.All() {
		if d.Offline {
			continue
		}
		args := fakeforge.ValidArgs(t, d)
		if _, ok := args["owner"]; ok {
			args["owner"] = owner
		}
		if _, ok := args["repo"]; ok {
			args["repo"] = repo
		}
		for _, p := range d.Params {
			if p.Type != tool.TypeString || len(p.Enum) > 0 {
				continue
			}
			marked := copyMap(args)
			marked[p.Name] = marker
			ff := fakeforge.New(t)
			ff.Handle("/", func(w http.ResponseWriter, _ *http.Request) { fakeforge.WriteJSON(w, http.StatusOK, map[string]any{}) })
			ff.Call(t, operation.All(), d.Name, marked)
			for _, r := range ff.Requests() {
				segs := strings.Split(r.Path, "/")
				if i := indexOf(segs, marker); i >= 0 {
					// /api/v1/repos/{owner}/{repo}/…: climbing from
					// segment i to segment 5 lands on a sibling of repo.
					out = append(out, bound{tool: d.Name, param: p.Name, args: args, depth: max(i-5, 1)})
					break
				}
			}
		}
	}
	return out
}

// climbs are values aimed at the victim repository from depth segments
// below the repository: once, twice and three times encoded slashes and
// backslashes, doubly encoded dots, and a doubly encoded query and
// fragment, each of which a chain of decoding proxies turns into another
// route.
func climbs(victim string, depth int) []string {
	rep := func(s string) string { return strings.Repeat(s, depth) + victim }
	return []string{
		rep("../"),
		rep("..%2F"),
		rep("..%252F"),
		rep("..%25252F"),
		rep("..%255C"),
		rep("%252e%252e%252F"),
		victim + "%253Fx=1",
		victim + "%2523x",
	}
}

// assertNoEscape checks the request lines the forge received during one
// hostile call: none names the victim in its path, however often decoded.
func assertNoEscape(t *testing.T, lines []string, victim string, msg string, args ...any) {
	t.Helper()
	for _, l := range lines {
		p, _, _ := strings.Cut(l, "?")
		for {
			d, err := url.PathUnescape(p)
			if err != nil || d == p {
				break
			}
			p = d
		}
		assert.NotContains(t, p, victim, "%s: the forge received %s", fmt.Sprintf(msg, args...), l)
	}
}

var templateVar = regexp.MustCompile(`\{([+?]?)([a-z_,]+)\}`)

// templateVars are the variables of an RFC 6570 template as they are
// written ("owner", "+path", "?ref"): a query expression with several
// names counts as one, driven by its first name.
func templateVars(tpl string) []string {
	var out []string
	for _, m := range templateVar.FindAllStringSubmatch(tpl, -1) {
		out = append(out, m[1]+m[2])
	}
	return out
}

// expandTemplate fills tpl with valid values for the live repository and
// value (already URI-escaped) for the variable hostile.
func expandTemplate(tpl, owner, repo, hostile, value string) string {
	return templateVar.ReplaceAllStringFunc(tpl, func(expr string) string {
		m := templateVar.FindStringSubmatch(expr)
		op, names := m[1], m[2]
		first, _, _ := strings.Cut(names, ",")
		v := map[string]string{"owner": owner, "repo": repo, "path": "README.md", "sha": "main", "page": "Home", "ref": "main"}[first]
		if v == "" {
			v = "1"
		}
		if op+names == hostile {
			v = value
		}
		if op == "?" {
			if op+names != hostile {
				return ""
			}
			return "?" + first + "=" + v
		}
		return v
	})
}

func countTools(b []bound) int {
	seen := map[string]bool{}
	for _, x := range b {
		seen[x.tool] = true
	}
	return len(seen)
}

func indexOf(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

func copyMap(m map[string]any) map[string]any {
	c := make(map[string]any, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// recorder is a reverse proxy in front of the forge that keeps the
// request line of every request as the forge receives it.
type recorder struct {
	URL   string
	mu    sync.Mutex
	lines []string
}

func newRecorder(t *testing.T, forge string) *recorder {
	t.Helper()
	target, err := url.Parse(forge)
	require.NoError(t, err)
	r := &recorder{}
	rp := &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) { pr.SetURL(target) }}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.lines = append(r.lines, req.RequestURI)
		r.mu.Unlock()
		rp.ServeHTTP(w, req)
	}))
	t.Cleanup(srv.Close)
	r.URL = srv.URL
	return r
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.lines)
}

// since returns the request lines received after the first n.
func (r *recorder) since(n int) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.lines[n:]...)
}
