package operation_test

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"sort"
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

// call is one request a tool made: its route in each flavour's
// description ("" where the flavour has none) and, for a raw request, the
// type its answer is decoded into (nil for an SDK call or an undecoded
// answer; raw is false for an SDK call).
type call struct {
	Tool, Method, Path string
	Forgejo, Gitea     string
	Raw                bool
	Decoded            reflect.Type
}

// run is one tool call under one flavour: its requests and its result.
type run struct {
	Calls  []call
	Result *mcp.CallToolResult
}

type specs struct{ forgejo, gitea *fakeforge.Spec }

func loadSpecs(t testing.TB) specs {
	f, err := fakeforge.LoadSpec("forgejo")
	require.NoError(t, err)
	g, err := fakeforge.LoadSpec("gitea")
	require.NoError(t, err)
	return specs{f, g}
}

// drive calls d with args against a fake answering in spec's shapes.
func drive(t testing.TB, sp specs, spec *fakeforge.Spec, d tool.Def, args map[string]any) run {
	f := fakeforge.New(t)
	f.Mimic(spec)
	var mu sync.Mutex
	decoded := map[string]reflect.Type{}
	raw := map[string]bool{}
	c := f.Client().WithDecodeObserver(func(method, p string, out any) {
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
		if !ok {
			continue // a web route (attachment download): not the API's
		}
		k := req.Method + " " + p
		cl := call{Tool: d.Name, Method: req.Method, Path: p, Raw: raw[k], Decoded: decoded[k]}
		cl.Forgejo, _ = sp.forgejo.Match(req.Method, p)
		cl.Gitea, _ = sp.gitea.Match(req.Method, p)
		out.Calls = append(out.Calls, cl)
	}
	return out
}

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

type driven struct {
	specs specs
	// runs[flavour][tool] are the tool's runs under that flavour's shapes.
	runs map[string]map[string][]run
}

func driveInventory(t *testing.T) driven {
	t.Helper()
	sp := loadSpecs(t)
	out := driven{specs: sp, runs: map[string]map[string][]run{"forgejo": {}, "gitea": {}}}
	for _, d := range operation.All() {
		if d.Offline {
			continue
		}
		for flavour, spec := range map[string]*fakeforge.Spec{"forgejo": sp.forgejo, "gitea": sp.gitea} {
			// A forge that knows the flavour's routes, and one that answers
			// 404 to all but /version, which drives the tools' fallbacks.
			missing := &fakeforge.Spec{Flavour: spec.Flavour, Version: spec.Version}
			for _, sc := range []*fakeforge.Spec{spec, missing} {
				for _, args := range []map[string]any{sampleArgs(d), fullArgs(d)} {
					out.runs[flavour][d.Name] = append(out.runs[flavour][d.Name], drive(t, sp, sc, d, args))
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

// TestRoutesExistOnBothFlavours checks every route a tool calls against
// Forgejo's and Gitea's API descriptions: a route on one flavour only is
// declared in forgejo.Routes() with the tools that call it, and under the
// other flavour's shapes those tools never send it (they answer with the
// flavour and version instead of a bare 404).
func TestRoutesExistOnBothFlavours(t *testing.T) {
	dv := driveInventory(t)
	type diff struct{ method, route, only string }
	found := map[diff][]string{}
	for _, c := range dv.calls() {
		switch {
		case c.Forgejo == "" && c.Gitea == "":
			t.Errorf("%s: %s %s is in neither flavour's API description", c.Tool, c.Method, c.Path)
		case c.Forgejo == "" || c.Gitea == "":
			only, tpl := forgejo.Gitea, c.Gitea
			if c.Gitea == "" {
				only, tpl = forgejo.Forgejo, c.Forgejo
			}
			d, ok := forgejo.RouteOnly(c.Method, tpl)
			if assert.True(t, ok, "%s calls %s %s, which only %s has: declare it in forgejo.Routes()", c.Tool, c.Method, tpl, only) {
				assert.Equal(t, only, d.Only, "%s %s", c.Method, tpl)
				assert.Contains(t, d.Tools, c.Tool, "%s %s: list %s among its tools", c.Method, tpl, c.Tool)
			}
			k := diff{c.Method, tpl, string(only)}
			if !slices.Contains(found[k], c.Tool) {
				found[k] = append(found[k], c.Tool)
			}
		}
	}
	for _, d := range forgejo.Routes() {
		_, inF := dv.specs.forgejo.Has(d.Method, d.Route)
		_, inG := dv.specs.gitea.Has(d.Method, d.Route)
		assert.Equal(t, d.Only == forgejo.Forgejo, inF, "%s %s: declared %s-only", d.Method, d.Route, d.Only)
		assert.Equal(t, d.Only == forgejo.Gitea, inG, "%s %s: declared %s-only", d.Method, d.Route, d.Only)
		assert.ElementsMatch(t, d.Tools, found[diff{d.Method, d.Route, string(d.Only)}],
			"%s %s: the declared tools are the ones that call it", d.Method, d.Route)
		other := "forgejo"
		if d.Only == forgejo.Forgejo {
			other = "gitea"
		}
		for _, name := range d.Tools {
			for _, r := range dv.runs[other][name] {
				for _, c := range r.Calls {
					own := map[string]string{"forgejo": c.Forgejo, "gitea": c.Gitea}[string(strings.ToLower(string(d.Only)))]
					assert.False(t, c.Method == d.Method && fakeforge.Normalize(own) == fakeforge.Normalize(d.Route),
						"%s sent %s %s to %s, which lacks it", name, c.Method, c.Path, other)
				}
			}
		}
	}
	var rows []string
	for k, tools := range found {
		sort.Strings(tools)
		rows = append(rows, fmt.Sprintf("| %s `%s` | %s only | %s |", k.method, k.route, k.only, strings.Join(tools, ", ")))
	}
	sort.Strings(rows)
	t.Logf("routes on one flavour only:\n%s", strings.Join(rows, "\n"))
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
}
