package operation_test

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// The drift tests drive every tool of operation.All() against a fake forge
// that answers in Forgejo's shapes and one that answers in Gitea's (both
// generated from the flavours' API descriptions, internal/fakeforge/specs),
// record every request and what each raw request is decoded into, and
// check the routes and the fields read against both descriptions. Every
// difference must be declared in pkg/forgejo/compat.go.

// call is one request a tool made: its route in Forgejo's development
// description and in Gitea's ("" where the flavour has none), its route in
// every described forge's (In, keyed by the forge's name) and, for a raw
// request, the type its answer is decoded into (nil for an SDK call or an
// undecoded answer; raw is false for an SDK call).
type call struct {
	Tool, Method, Path string
	// Probe marks the look at the repository after a 404 (tool's
	// missingRepo): it needs no scope of its own, since without one the
	// error stays as the forge gave it.
	Probe          bool
	Forgejo, Gitea string
	In             map[string]string
	Raw            bool
	Decoded        reflect.Type
}

// run is one tool call under one flavour: its requests and its result.
type run struct {
	Calls  []call
	Result *mcp.CallToolResult
}

// specs are the API descriptions the tools are checked against: Forgejo's
// development one and Gitea's, whose shapes the fakes answer in, and every
// described forge's (forgejo.Described), whose routes the table declares.
type specs struct {
	forgejo, gitea *fakeforge.Spec
	described      []*fakeforge.Spec
}

func loadSpecs(t testing.TB) specs {
	f, err := fakeforge.LoadSpec("forgejo")
	require.NoError(t, err)
	g, err := fakeforge.LoadSpec("gitea")
	require.NoError(t, err)
	all, err := fakeforge.LoadDescribed()
	require.NoError(t, err)
	return specs{f, g, all}
}

// drive calls d with args against f, reset to answer in spec's shapes
// (one fake serves a test's calls in turn: fakeforge.Reset says why).
func drive(t testing.TB, sp specs, f *fakeforge.Server, spec *fakeforge.Spec, d tool.Def, args map[string]any) run {
	f.Reset()
	f.Mimic(spec)
	var mu sync.Mutex
	decoded := map[string]reflect.Type{}
	raw := map[string]bool{}
	c := f.Fresh().WithDecodeObserver(func(method, p string, out any) {
		mu.Lock()
		defer mu.Unlock()
		p = strings.TrimPrefix(strings.TrimPrefix(p, "/"), "api/v1")
		if !strings.HasPrefix(p, "/") {
			p = "/" + p
		}
		raw[method+" "+p] = true
		if out != nil {
			decoded[method+" "+p] = reflect.TypeOf(out)
		}
	})
	r := &tool.Runner{Client: func(context.Context) (*forgejo.Client, error) { return c, nil }, Timeout: 10 * time.Second}
	var a any
	if args != nil {
		a = args
	}
	res := r.Call(context.Background(), d, a)
	out := run{Result: res}
	for _, req := range f.Requests() {
		p, ok := strings.CutPrefix(req.Path, "/api/v1")
		if !ok || p == "/version" {
			continue // a web route (attachment download), or the client's flavour probe: not the tool's
		}
		k := req.Method + " " + p
		cl := call{Tool: d.Name, Method: req.Method, Path: p, Raw: raw[k], Decoded: decoded[k], In: map[string]string{}}
		cl.Forgejo, _ = sp.forgejo.Match(req.Method, p)
		cl.Gitea, _ = sp.gitea.Match(req.Method, p)
		for _, s := range sp.described {
			cl.In[s.Forge().String()], _ = s.Match(req.Method, p)
		}
		out.Calls = append(out.Calls, cl)
	}
	if n := len(out.Calls); n > 0 && res.IsError {
		last := &out.Calls[n-1]
		last.Probe = last.Method == http.MethodGet && repoRoute.MatchString(last.Path)
	}
	return out
}

// repoRoute is a repository's own route.
var repoRoute = regexp.MustCompile(`^/repos/[^/]+/[^/]+$`)

// fullArgs is sampleArgs with every optional parameter set too, so
// routes taken only with an optional argument (run_id) are driven as well.
func fullArgs(d tool.Def) map[string]any {
	args := sampleArgs(d)
	for _, p := range d.Params {
		if _, ok := args[p.Name]; ok {
			continue
		}
		switch {
		case len(p.Enum) > 0:
			args[p.Name] = p.Enum[0]
		case p.Type == tool.TypeInteger:
			v := int64(1)
			if p.Min != nil && *p.Min > v {
				v = *p.Min
			}
			args[p.Name] = float64(v)
		case p.Type == tool.TypeBoolean:
			args[p.Name] = true
		case p.Type == tool.TypeList:
			args[p.Name] = []any{"x"}
		case p.Type == tool.TypeString:
			args[p.Name] = "x"
		}
	}
	return args
}

// routeVariants are more arguments for the tools whose argument picks
// the route (list_quota_usage's kind), so every route they call is driven.
func routeVariants(d tool.Def) []map[string]any {
	var out []map[string]any
	if d.Name != "list_quota_usage" {
		return nil
	}
	for _, kind := range []string{"attachments", "packages"} {
		for _, args := range []map[string]any{sampleArgs(d), fullArgs(d)} {
			args["kind"] = kind
			out = append(out, args)
		}
	}
	return out
}

type driven struct {
	specs specs
	// runs[forge][tool] are the tool's runs under that described forge's
	// shapes ("Forgejo 13.0.5+gitea-1.22.0").
	runs map[string]map[string][]run
}

func driveInventory(t *testing.T) driven {
	t.Helper()
	sp := loadSpecs(t)
	out := driven{specs: sp, runs: map[string]map[string][]run{}}
	for _, spec := range sp.described {
		out.runs[spec.Forge().String()] = map[string][]run{}
	}
	f := fakeforge.New(t)
	for _, d := range operation.All() {
		if d.Offline {
			continue
		}
		for _, spec := range sp.described {
			// A forge that knows the version's routes, and one that answers
			// 404 to all but /version, which drives the tools' fallbacks.
			missing := &fakeforge.Spec{Flavour: spec.Flavour, Version: spec.Version}
			for _, sc := range []*fakeforge.Spec{spec, missing} {
				for _, args := range append([]map[string]any{sampleArgs(d), fullArgs(d)}, routeVariants(d)...) {
					name := spec.Forge().String()
					out.runs[name][d.Name] = append(out.runs[name][d.Name], drive(t, sp, f, sc, d, args))
				}
			}
		}
	}
	return out
}

func (dv driven) calls() []call {
	var all []call
	for _, byTool := range dv.runs {
		for _, runs := range byTool {
			for _, r := range runs {
				all = append(all, r.Calls...)
			}
		}
	}
	return all
}

// TestDrift drives every tool of the inventory against every described
// forge once (driveInventory: about 9,000 calls) and checks what the calls
// sent and read three ways, as subtests sharing that one drive:
// TestDrift/RoutesExistOrAreDeclared, TestDrift/ResponseShapesMatchOrAreDeclared
// and TestDrift/TokenScopes.
func TestDrift(t *testing.T) {
	dv := driveInventory(t)
	t.Run("RoutesExistOrAreDeclared", func(t *testing.T) { routesExistOrAreDeclared(t, dv) })
	t.Run("ResponseShapesMatchOrAreDeclared", func(t *testing.T) { responseShapesMatchOrAreDeclared(t, dv) })
	t.Run("TokenScopes", func(t *testing.T) { tokenScopes(t, dv) })
}

// routesExistOrAreDeclared checks every route a tool calls against
// the API description of every described forge: a route some of them lack
// is declared in forgejo.Routes() with the tools that call it (its
// presence per described forge is generated from the same descriptions,
// fakeforge.TestRouteTableIsGenerated), and under a forge that lacks it
// those tools never send it (they answer with the versions that have it
// instead of a bare 404, or take another way).
func routesExistOrAreDeclared(t *testing.T, dv driven) {
	found := map[string][]string{} // declared route → the tools seen calling it
	for _, c := range dv.calls() {
		tpl, missing := "", 0
		for _, s := range dv.specs.described {
			if own := c.In[s.Forge().String()]; own == "" {
				missing++
			} else if tpl == "" {
				tpl = own
			}
		}
		switch {
		case tpl == "":
			t.Errorf("%s: %s %s is in no described forge's API", c.Tool, c.Method, c.Path)
		case missing > 0:
			d, ok := forgejo.RouteFor(c.Method, tpl)
			if assert.True(t, ok, "%s calls %s %s, which some described forges lack: declare it in forgejo.Routes()", c.Tool, c.Method, tpl) {
				assert.Contains(t, d.Tools, c.Tool, "%s %s: list %s among its tools", c.Method, tpl, c.Tool)
				k := d.Method + " " + d.Route
				if !slices.Contains(found[k], c.Tool) {
					found[k] = append(found[k], c.Tool)
				}
			}
		}
	}
	var rows []string
	for _, d := range forgejo.Routes() {
		assert.ElementsMatch(t, d.Tools, found[d.Method+" "+d.Route], "%s %s: the declared tools are the ones that call it", d.Method, d.Route)
		for _, s := range dv.specs.described {
			if !d.LackedBy(s.Forge()) {
				continue
			}
			for _, name := range d.Tools {
				for _, r := range dv.runs[s.Forge().String()][name] {
					for _, c := range r.Calls {
						assert.False(t, c.Method == d.Method && c.Forgejo+c.Gitea != "" &&
							(fakeforge.Normalize(c.Forgejo) == fakeforge.Normalize(d.Route) || fakeforge.Normalize(c.Gitea) == fakeforge.Normalize(d.Route)),
							"%s sent %s %s to %s, which lacks it", name, c.Method, c.Path, s.Forge())
					}
				}
			}
		}
		rows = append(rows, fmt.Sprintf("| %s `%s` | Forgejo %s | Gitea %s | %s |", d.Method, d.Route, d.Forgejo, d.Gitea, strings.Join(d.Tools, ", ")))
	}
	t.Logf("routes some described forges lack:\n%s", strings.Join(rows, "\n"))
	logCoverage(t, dv)
}

// logCoverage reports, per tag, how many of each flavour's operations the
// tools call.
func logCoverage(t *testing.T, dv driven) {
	used := map[string]map[string]bool{"forgejo": {}, "gitea": {}}
	for _, c := range dv.calls() {
		if c.Forgejo != "" {
			used["forgejo"][fakeforge.Key(c.Method, c.Forgejo)] = true
		}
		if c.Gitea != "" {
			used["gitea"][fakeforge.Key(c.Method, c.Gitea)] = true
		}
	}
	tags := []string{"repository", "issue", "organization", "user", "notification"}
	for flavour, spec := range map[string]*fakeforge.Spec{"forgejo": dv.specs.forgejo, "gitea": dv.specs.gitea} {
		var line []string
		sumU, sumT := 0, 0
		for _, tag := range tags {
			u, n := 0, 0
			for k, r := range spec.Routes {
				if slices.Contains(r.Tags, tag) {
					n++
					if used[flavour][k] {
						u++
					}
				}
			}
			sumU, sumT = sumU+u, sumT+n
			line = append(line, fmt.Sprintf("%s %d/%d", tag, u, n))
		}
		t.Logf("%s swagger coverage: %s; together %d/%d", flavour, strings.Join(line, ", "), sumU, sumT)
	}
	// Every operation of each described forge's API that some tool's
	// request matches: the figure issue 29 counts (177 of 13.0.5's 469
	// before its tools).
	for _, s := range dv.specs.described {
		name := s.Forge().String()
		reached := map[string]bool{}
		for _, c := range dv.calls() {
			if own := c.In[name]; own != "" {
				reached[fakeforge.Key(c.Method, own)] = true
			}
		}
		n := 0
		for k := range s.Routes {
			if reached[k] {
				n++
			}
		}
		t.Logf("%s: the tools reach %d of its %d API operations (%.1f %%)", name, n, len(s.Routes), 100*float64(n)/float64(len(s.Routes)))
	}
}
