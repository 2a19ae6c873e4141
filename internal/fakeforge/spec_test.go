package fakeforge_test

import (
	"encoding/json"
	"net/http"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

func TestMatchPrefersLiteralsAndKeepsSegments(t *testing.T) {
	s, err := fakeforge.LoadSpec("forgejo")
	require.NoError(t, err)
	for _, tc := range []struct{ method, path, want string }{
		{"GET", "/repos/o/r", "/repos/{owner}/{repo}"},
		{"GET", "/repos/o/r/issues/3", "/repos/{owner}/{repo}/issues/{index}"},
		{"GET", "/repos/o/r/issues/comments/5", "/repos/{owner}/{repo}/issues/comments/{id}"},
		{"GET", "/repos/o/r/contents/a/b/c.txt", "/repos/{owner}/{repo}/contents/{filepath}"},
		{"GET", "/repos/o/r/pulls/3.diff", "/repos/{owner}/{repo}/pulls/{index}.{diffType}"},
		{"GET", "/repos/o/r/pulls/3", "/repos/{owner}/{repo}/pulls/{index}"},
		{"GET", "/repos/o/r/actions/runs/7/jobs", "/repos/{owner}/{repo}/actions/runs/{run_id}/jobs"},
	} {
		got, ok := s.Match(tc.method, tc.path)
		assert.True(t, ok, tc.path)
		assert.Equal(t, tc.want, got, tc.path)
	}
	_, ok := s.Match("GET", "/repos/o/r/actions/jobs/1")
	assert.False(t, ok, "no trailing parameter swallows a longer path unless it is a file path or ref")
	_, ok = s.Has("POST", "/repos/{a}/{b}/actions/runs/{c}/cancel")
	assert.True(t, ok, "templates compare without parameter names")
}

// The descriptions in specs/ are what `make fixtures` makes of the
// sources kept in sources/ (Gitea's comes from the live forge:
// spec_live_test.go).
func TestSpecsMatchTheirSources(t *testing.T) {
	for _, tc := range []struct{ src, name, version string }{
		{"sources/forgejo-17.0.0-dev.swagger.json", "forgejo", "17.0.0-dev+gitea-1.22.0"},
		{"sources/forgejo-15.0.3.swagger.json", "forgejo-15.0.3", ""},
		{"sources/forgejo-13.0.5.swagger.json", "forgejo-13.0.5", ""},
		{"sources/forgejo-10.0.0-dev-456d05998231.swagger.json", "forgejo-10.0.0-dev-456d05998231", ""},
	} {
		raw, err := os.ReadFile(tc.src)
		require.NoError(t, err)
		spec, err := fakeforge.TrimSwagger(raw, tc.version)
		require.NoError(t, err)
		stored, err := fakeforge.LoadSpec(tc.name)
		require.NoError(t, err)
		a, _ := json.Marshal(spec)
		b, _ := json.Marshal(stored)
		assert.JSONEq(t, string(a), string(b), "specs/%s.json is stale: run make fixtures", tc.name)
	}
}

// Every description in specs/ is a described forge, in forgejo.Described's
// order.
func TestLoadDescribed(t *testing.T) {
	all, err := fakeforge.LoadDescribed()
	require.NoError(t, err)
	var got []string
	for _, s := range all {
		got = append(got, s.Forge().String())
	}
	assert.Equal(t, []string{"Forgejo 10.0.0-dev-456d05998231+gitea-1.22.0", "Forgejo 13.0.5+gitea-1.22.0",
		"Forgejo 15.0.3+gitea-1.22.0", "Forgejo 17.0.0-dev+gitea-1.22.0", "Gitea 1.26.0"}, got)
}

// The route table's presence column (pkg/forgejo/compat_gen.go) is what
// the descriptions in specs/ say of the declared routes: a new or changed
// description, or a new route, fails here until `make routes` rewrites it
// (and the diff shows what changed, route by route).
func TestRouteTableIsGenerated(t *testing.T) {
	specs, err := fakeforge.LoadSpecs()
	require.NoError(t, err)
	want, err := fakeforge.RouteTable(specs, forgejo.Routes())
	require.NoError(t, err)
	got, err := os.ReadFile("../../" + fakeforge.RouteTableFile)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "%s is stale: run make routes", fakeforge.RouteTableFile)
}

// A route that a newer version of a flavour lacks although an older one
// has it breaks the table's rule (routes are added, never removed), and
// the generator says so rather than write a table that would refuse it.
func TestRouteTableRefusesARemovedRoute(t *testing.T) {
	old := &fakeforge.Spec{Flavour: "Forgejo", Version: "13.0.5+gitea-1.22.0",
		Routes: map[string]*fakeforge.Route{"GET /repos/{owner}/{repo}/actions/runs": {Status: 200}}}
	newer := &fakeforge.Spec{Flavour: "Forgejo", Version: "15.0.3+gitea-1.22.0", Routes: map[string]*fakeforge.Route{}}
	specs := []*fakeforge.Spec{newer, old}
	fakeforge.SortSpecs(specs)
	assert.Equal(t, old, specs[0], "oldest first")
	_, err := fakeforge.RouteTable(specs, []forgejo.RouteDiff{{Method: "GET", Route: "/repos/{owner}/{repo}/actions/runs"}})
	assert.EqualError(t, err, "GET /repos/{owner}/{repo}/actions/runs is in Forgejo 13.0.5+gitea-1.22.0 but not in the newer 15.0.3+gitea-1.22.0")
}

// Mimic answers in the flavour's shapes with every field set.
func TestMimicAnswersEveryField(t *testing.T) {
	s, err := fakeforge.LoadSpec("forgejo")
	require.NoError(t, err)
	f := fakeforge.New(t)
	f.Mimic(s)
	c := f.Client()
	var run map[string]any
	require.NoError(t, c.DoJSON(t.Context(), http.MethodGet, "/repos/o/r/actions/runs/7", nil, nil, &run))
	for _, k := range []string{"title", "commit_sha", "prettyref", "index_in_repo", "trigger_user", "started", "stopped", "duration"} {
		assert.NotEmpty(t, run[k], k)
	}
	assert.Equal(t, "success", run["status"])
	var jobs []map[string]any
	require.NoError(t, c.DoJSON(t.Context(), http.MethodGet, "/repos/o/r/actions/runs/7/jobs", nil, nil, &jobs), "a bare array")
	require.Len(t, jobs, 1)
	var v map[string]string
	require.NoError(t, c.DoJSON(t.Context(), http.MethodGet, "/version", nil, nil, &v))
	assert.Equal(t, "17.0.0-dev+gitea-1.22.0", v["version"])
	err = c.DoJSON(t.Context(), http.MethodGet, "/repos/o/r/no/such/route", nil, nil, nil)
	assert.Error(t, err)
}

// MimicNulls sends null where the forge may (an issue's closed_at, its
// milestone, its labels) and a value everywhere else.
func TestMimicNullsSendsTheForgesNulls(t *testing.T) {
	s, err := fakeforge.LoadSpec("forgejo-13.0.5")
	require.NoError(t, err)
	f := fakeforge.New(t)
	f.MimicNulls(s)
	var issue map[string]any
	require.NoError(t, f.Client().DoJSON(t.Context(), http.MethodGet, "/repos/o/r/issues/1", nil, nil, &issue))
	for _, k := range []string{"closed_at", "due_date", "milestone", "labels", "user", "pull_request"} {
		v, ok := issue[k]
		assert.True(t, ok, "%s is sent", k)
		assert.Nil(t, v, k)
	}
	for _, k := range []string{"title", "created_at", "number", "state"} {
		assert.NotEmpty(t, issue[k], k)
	}
}

// The descriptions are amended where the real forges answer otherwise.
func TestSpecsAreAmended(t *testing.T) {
	all, err := fakeforge.LoadDescribed()
	require.NoError(t, err)
	for _, s := range all {
		user := s.Example(&fakeforge.Schema{Ref: "User"}).(map[string]any)
		assert.Equal(t, "username-v", user["username"], s.Forge().String())
		assert.Equal(t, 201, s.Routes["DELETE /repos/{owner}/{repo}/issues/{index}/dependencies"].Status, s.Forge().String())
		repo := s.Example(&fakeforge.Schema{Ref: "Repository"}).(map[string]any)
		parent, ok := repo["parent"].(map[string]any)
		if assert.True(t, ok, "%s: a fork's parent is a repository", s.Forge()) {
			v, ok := parent["parent"]
			assert.True(t, ok && v == nil, "%s: whose own parent is null, the definition cut", s.Forge())
		}
	}
}
