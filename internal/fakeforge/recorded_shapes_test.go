package fakeforge_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

// kind is a JSON value's kind: object, array, string, number, bool or
// null.
func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case float64, int:
		return "number"
	case bool:
		return "bool"
	}
	return fmt.Sprintf("%T", v)
}

// shapeCheck compares a recorded answer with the shaped fake's answer for
// the same route, guided by the route's schema in the recorded version's
// description.
type shapeCheck struct {
	spec *fakeforge.Spec
	// diffs are the disagreements: "route.path: recorded X, fake Y".
	diffs map[string]bool
	// extra are members the fake sends and the recording lacks: allowed,
	// as a recording is one example and the forges leave some members out
	// when empty (Go's omitempty: a repository's external_tracker).
	extra map[string]bool
	// nulls are members recorded null where the fake sends a value, which
	// the description allows (fakeforge.Spec.MayBeNull).
	nulls map[string]bool
}

func (c *shapeCheck) compare(at string, rec, fake any, sc *fakeforge.Schema) {
	if rec == nil && fake != nil {
		if sc != nil && c.spec.MayBeNull(sc) {
			c.nulls[at] = true
		} else {
			c.diffs[fmt.Sprintf("%s: recorded null, fake %s (the description does not say it may be null)", at, kind(fake))] = true
		}
		return
	}
	if kind(rec) != kind(fake) {
		c.diffs[fmt.Sprintf("%s: recorded %s, fake %s", at, kind(rec), kind(fake))] = true
		return
	}
	res := c.spec.Resolve(sc)
	switch r := rec.(type) {
	case map[string]any:
		f := fake.(map[string]any)
		isMap := res != nil && len(res.Properties) == 0 && res.AdditionalProperties != nil
		for k, v := range r {
			fv, ok := f[k]
			var sub *fakeforge.Schema
			switch {
			case isMap && !ok:
				// A free map: the fake's one entry stands for every key.
				for _, fv = range f {
					ok = true
				}
				sub = res.AdditionalProperties
			case isMap:
				sub = res.AdditionalProperties
			case res != nil:
				sub = res.Properties[k]
			}
			if !ok {
				c.diffs[fmt.Sprintf("%s.%s: recorded %s, the fake has no such member", at, k, kind(v))] = true
				continue
			}
			c.compare(at+"."+k, v, fv, sub)
		}
		if !isMap {
			for k := range f {
				if _, ok := r[k]; !ok {
					c.extra[at+"."+k] = true
				}
			}
		}
	case []any:
		f := fake.([]any)
		if len(r) == 0 {
			return
		}
		if len(f) == 0 {
			c.diffs[at+"[]: recorded elements, the fake none"] = true
			return
		}
		var sub *fakeforge.Schema
		if res != nil {
			sub = res.Items
		}
		for _, v := range r {
			c.compare(at+"[]", v, f[0], sub)
		}
	}
}

// TestShapedAnswersAgreeWithRecorded compares every recorded 2xx JSON
// answer of Forgejo 13.0.5 and Gitea 1.26.0 with the answer the shaped
// fake (Mimic) generates for the same route from that version's
// description: the same success status, and at every level the recording
// has, the same members with the same JSON kinds. The fake may send
// members the recording lacks (a recording is one example; the forges
// omit some empty members), and a value where the recording has null when
// the description's type may be null (MayBeNull); both are counted.
func TestShapedAnswersAgreeWithRecorded(t *testing.T) {
	recs, err := fakeforge.Recordings()
	require.NoError(t, err)
	partial, err := fakeforge.PartialRecordings()
	require.NoError(t, err)
	for _, rec := range append(recs, partial...) {
		spec, err := rec.Spec()
		require.NoError(t, err)
		c := &shapeCheck{spec: spec, diffs: map[string]bool{}, extra: map[string]bool{}, nulls: map[string]bool{}}
		compared := 0
		for i := range rec.Exchanges {
			e := &rec.Exchanges[i]
			v, ok := e.JSON()
			p, api := strings.CutPrefix(e.Route(), "/api/v1")
			if !ok || !api || e.Status/100 != 2 {
				continue
			}
			tpl, ok := spec.Match(e.Method, p)
			if !assert.True(t, ok, "%s #%d: %s %s is in no route of %s's description", rec.Name, e.Seq, e.Method, p, spec.Forge()) {
				continue
			}
			compared++
			route := spec.Routes[fakeforge.Key(e.Method, tpl)]
			at := e.Method + " " + tpl
			if route.Status != e.Status {
				c.diffs[fmt.Sprintf("%s: recorded status %d, fake %d", at, e.Status, route.Status)] = true
			}
			if items, ok := v.([]any); ok && listedAsOne[at] {
				for _, item := range items {
					c.compare(at+"[]", item, spec.Example(route.Schema), route.Schema)
				}
				continue
			}
			c.compare(at, v, spec.Example(route.Schema), route.Schema)
		}
		for _, d := range sortedKeys(c.diffs) {
			t.Errorf("%s: %s", rec.Name, d)
		}
		names := map[string]bool{}
		for _, at := range sortedKeys(c.extra) {
			names[at[strings.LastIndex(at, ".")+1:]] = true
		}
		t.Logf("%s: %d recorded JSON answers compared with the shaped fake's: %d disagreements; "+
			"%d members recorded null where the fake sends a value; %d members the fake sends and the recording lacks, named %s",
			rec.Name, compared, len(c.diffs), len(c.nulls), len(c.extra), strings.Join(sortedKeys(names), ", "))
	}
}

// listedAsOne are routes described with one object that answer a list of
// such objects as well, which Swagger 2 cannot state: a path naming a
// directory lists its entries (gitea-1.26.0-sweep3 seq 2020, list_workflows
// reading .gitea/workflows at a ref). Each item is compared instead.
var listedAsOne = map[string]bool{
	"GET /repos/{owner}/{repo}/contents/{filepath}": true,
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
