package operation_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// flatten lists a JSON result's leaves by path ("items[0].title"), arrays
// by their first element.
func flatten(prefix string, v any, out map[string]any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			p := k
			if prefix != "" {
				p = prefix + "." + k
			}
			flatten(p, e, out)
		}
	case []any:
		if len(x) == 0 {
			out[prefix] = x
			return
		}
		flatten(prefix+"[0]", x[0], out)
	default:
		out[prefix] = x
	}
}

func empty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case float64:
		return x == 0
	case []any:
		return len(x) == 0
	}
	return false
}

func resultLeaves(res *mcp.CallToolResult) (map[string]any, bool) {
	if res == nil || res.IsError || len(res.Content) == 0 {
		return nil, false
	}
	tc, ok := res.Content[0].(mcp.TextContent)
	if !ok {
		return nil, false
	}
	var v any
	if json.Unmarshal([]byte(tc.Text), &v) != nil {
		return nil, false
	}
	out := map[string]any{}
	flatten("", v, out)
	return out, true
}

// under reports whether path is a field named one of keys or lies below one.
func under(path string, keys map[string]bool) bool {
	for _, seg := range strings.Split(path, ".") {
		if k, _, _ := strings.Cut(seg, "["); keys[k] {
			return true
		}
	}
	return false
}

// TestResultsUnderForgejoShapes calls every tool against a fake forge
// answering in the shapes of each described Forgejo (the 10 development
// build, the 13.0.5 and 15.0.3 releases, the 17 development snapshot) and
// one answering in Gitea's, every field of every answer set
// (fakeforge.Example), and compares the results field by field: a field
// the tool fills from Gitea's answer must be filled from Forgejo's too,
// unless forgejo.Fields() declares it Gitea-only and shown only when sent.
// A field empty under Forgejo although every answer field was set means
// the tool read a name that Forgejo version does not send.
func TestResultsUnderForgejoShapes(t *testing.T) {
	sp := loadSpecs(t)
	giteaOnly := map[string]bool{}
	for _, f := range forgejo.Fields() {
		if f.Forgejo == "" && f.Result != "" {
			giteaOnly[f.Result] = true
		}
	}
	f := fakeforge.New(t)
	for _, fj := range sp.described {
		if fj.Forge().Flavour != forgejo.Forgejo {
			continue
		}
		compared, fields := 0, 0
		var bothEmpty []string
		for _, d := range operation.All() {
			if d.Offline {
				continue
			}
			if refusedOn(d.Name, fj.Forge()) || refusedOn(d.Name, sp.gitea.Forge()) {
				continue // TestRefusalsNameTheVersion
			}
			if otherWayOn(d.Name, fj.Forge()) {
				continue // another route, another result (its own tests: list_action_run_jobs from the task list)
			}
			args := sampleArgs(d)
			fr := drive(t, sp, f, fj, d, args).Result
			gr := drive(t, sp, f, sp.gitea, d, args).Result
			if !gr.IsError {
				assert.False(t, fr.IsError, "%s fails under %s's shapes but not Gitea's: %v", d.Name, fj.Forge(), fr.Content)
			}
			fl, okF := resultLeaves(fr)
			gl, okG := resultLeaves(gr)
			if !okF || !okG {
				continue
			}
			compared++
			for path, gv := range gl {
				fields++
				fv, ok := fl[path]
				switch {
				case under(path, giteaOnly):
				case empty(gv) && empty(fv):
					bothEmpty = append(bothEmpty, d.Name+" "+path)
				case !empty(gv):
					assert.True(t, ok && !empty(fv), "%s: %s is %v from Gitea's answer but empty from %s's", d.Name, path, gv, fj.Forge())
				}
			}
			for path, fv := range fl {
				if _, ok := gl[path]; !ok && empty(fv) {
					t.Errorf("%s: %s is empty from %s's answer", d.Name, path, fj.Forge())
				}
			}
		}
		sort.Strings(bothEmpty)
		t.Logf("%s: %d tools' JSON results compared with Gitea's, %d fields; empty under both (computed or not sent by either): %s",
			fj.Forge(), compared, fields, fmt.Sprint(bothEmpty))
	}
}

// refusedOn reports whether tool name refuses on forge f (operation.RefusedOn).
func refusedOn(name string, f forgejo.Forge) bool { return operation.RefusedOn(name, f) }

// TestRefusalsNameTheVersion calls every tool that some described forge's
// version cannot serve against a fake of that forge: it answers isError
// naming the forge, its version and the described versions that lack and
// have the route, and
// sends nothing but the client's version probe.
func TestRefusalsNameTheVersion(t *testing.T) {
	sp := loadSpecs(t)
	refusals := 0
	f := fakeforge.New(t)
	for _, spec := range sp.described {
		for _, d := range operation.All() {
			if d.Offline || !refusedOn(d.Name, spec.Forge()) {
				continue
			}
			refusals++
			r := drive(t, sp, f, spec, d, sampleArgs(d))
			if assert.True(t, r.Result.IsError, "%s answers on %s", d.Name, spec.Forge()) {
				text := textOf(r.Result)
				assert.Contains(t, text, "this forge ("+spec.Forge().String()+") has no such API route, so nothing was sent; ", d.Name)
				assert.Regexp(t, ` (lacks|lack) it`, text, "%s names the described versions that lack the route", d.Name)
			}
			assert.Empty(t, r.Calls, "%s sent a request to %s", d.Name, spec.Forge())
		}
	}
	t.Logf("%d refusals checked across %d described forges", refusals, len(sp.described))
}

// otherWayOn reports whether tool name takes another way on forge f: a
// route of its that f lacks is declared with another way for all its tools
// (an Otherwise that is not forgejo.Refused).
func otherWayOn(name string, f forgejo.Forge) bool {
	for _, r := range forgejo.Routes() {
		if !strings.HasPrefix(r.Otherwise, forgejo.Refused) && slices.Contains(r.Tools, name) && r.LackedBy(f) {
			return true
		}
	}
	return false
}

func textOf(res *mcp.CallToolResult) string {
	if len(res.Content) == 0 {
		return ""
	}
	tc, _ := res.Content[0].(mcp.TextContent)
	return tc.Text
}
