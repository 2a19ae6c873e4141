package forgejo_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

func TestCompareVersions(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
		ok   bool
	}{
		{"13.0.5+gitea-1.22.0", "13.0.5", 0, true},
		{"13.0.4", "13.0.5", -1, true},
		{"13.1", "13.0.5", 1, true},
		{"17.0.0-dev+gitea-1.22.0", "17.0.0-dev", 0, true},
		{"10.0.0-dev-456d059982+gitea-1.22.0", "13.0.5", -1, true},
		{"1.21.11-1+gitea-1.21.11", "13.0.5", -1, true},
		{"v1.26.0", "1.26.0", 0, true},
		{"1.27.0", "1.26.0", 1, true},
		{"development", "1.26.0", 0, false},
		{"", "1.26.0", 0, false},
		{"1.2.3.4", "1.26.0", 0, false},
	} {
		got, ok := forgejo.CompareVersions(tc.a, tc.b)
		assert.Equal(t, tc.ok, ok, "%s vs %s", tc.a, tc.b)
		assert.Equal(t, tc.want, got, "%s vs %s", tc.a, tc.b)
	}
}

func TestPresenceByVersion(t *testing.T) {
	jobs, ok := forgejo.RouteFor(http.MethodGet, "/repos/{a}/{b}/actions/runs/{c}/jobs")
	require.True(t, ok, "templates compare without parameter names")
	rerun, ok := forgejo.RouteFor(http.MethodPost, "/repos/{owner}/{repo}/actions/runs/{run}/rerun")
	require.True(t, ok)
	runs, ok := forgejo.RouteFor(http.MethodGet, "/repos/{owner}/{repo}/actions/runs")
	require.True(t, ok)
	for _, tc := range []struct {
		d      forgejo.RouteDiff
		forge  string
		lacked bool
	}{
		{jobs, "13.0.5+gitea-1.22.0", true},
		{jobs, "15.0.3+gitea-1.22.0", true},
		{jobs, "14.0.2+gitea-1.22.0", true}, // between two releases that lack it
		{jobs, "11.0.0+gitea-1.22.0", true},
		{jobs, "1.21.11-1+gitea-1.21.11", true},
		{jobs, "15.0.4+gitea-1.22.0", false}, // not described, newer than every one that lacks it: sent, a router 404 says the rest
		{jobs, "16.0.0+gitea-1.22.0", false},
		{jobs, "17.0.0-dev+gitea-1.22.0", false},
		{jobs, "1.26.0", false},
		{jobs, "development", false},
		{runs, "10.0.0+gitea-1.22.0", true},
		{runs, "12.0.0+gitea-1.22.0", false}, // between 10 (lacks) and 13.0.5 (has): sent
		{runs, "13.0.5+gitea-1.22.0", false},
		{rerun, "17.0.0+gitea-1.22.0", true},
		{rerun, "18.0.0+gitea-1.22.0", false},
		{rerun, "1.26.0", false},
	} {
		assert.Equal(t, tc.lacked, tc.d.LackedBy(forgejo.ParseForge(tc.forge)), "%s %s on %s", tc.d.Method, tc.d.Route, tc.forge)
	}
	assert.Equal(t, "Forgejo 13.0.5 and 15.0.3 lack it; of the Forgejo versions this server knows, only 17.0.0-dev (a development snapshot) has it; "+
		"Gitea 1.26.0 has it", jobs.Needs())
	assert.Equal(t, "Forgejo 13.0.5, 15.0.3 and 17.0.0-dev lack it; Gitea 1.26.0 has it", rerun.Needs())
	assert.Equal(t, "Forgejo 10.0.0-dev-456d05998231 lacks it, while 13.0.5, 15.0.3 and 17.0.0-dev have it; Gitea 1.26.0 has it", runs.Needs())
	assert.NotContains(t, jobs.Needs(), "newer than", "15.0.3 is newer than 13.0.5 and still lacks it")
	assert.Equal(t, "not in a release (15.0.3 lacks it, 17.0.0-dev has it)", jobs.Forgejo.String())
	assert.Equal(t, "from 13.0.5 (10.0.0-dev-456d05998231 lacks it)", runs.Forgejo.String())
	assert.Equal(t, "no (up to 17.0.0-dev)", rerun.Forgejo.String())
	assert.Equal(t, "yes (1.26.0)", rerun.Gitea.String())
}

func TestRoutesTableIsWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, d := range forgejo.Routes() {
		k := d.Method + " " + forgejo.NormalizeRoute(d.Route)
		assert.False(t, seen[k], "%s declared twice", k)
		seen[k] = true
		assert.NotEmpty(t, d.Feature, d.Route)
		assert.NotEmpty(t, d.Tools, d.Route)
		assert.NotEmpty(t, d.Otherwise, d.Route)
		assert.True(t, len(d.Forgejo.Lack) > 0 || len(d.Gitea.Lack) > 0, "%s: some described forge lacks it (run make routes)", d.Route)
		assert.True(t, len(d.Forgejo.Have) > 0 || len(d.Gitea.Have) > 0, "%s: some described forge has it (run make routes)", d.Route)
		assert.NotEmpty(t, d.Needs(), d.Route)
		got, ok := forgejo.RouteFor(d.Method, d.Route)
		assert.True(t, ok)
		assert.Equal(t, d.Route, got.Route)
	}
}

// forge is a fake forge of one version: /version answers it, every other
// request is recorded and answered by the router's bare 404 unless it is
// /repos/o/r/issues/1, a missing object's JSON 404.
type forge struct {
	mu   sync.Mutex
	seen []string
}

func (f *forge) requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.seen...)
}

func newForge(t *testing.T, version, basePath string) (*forgejo.Client, *forge) {
	f := &forge{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := strings.TrimPrefix(r.URL.Path, basePath)
		f.mu.Lock()
		f.seen = append(f.seen, r.Method+" "+p)
		f.mu.Unlock()
		switch p {
		case "/api/v1/version":
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"version":"`+version+`"}`)
		case "/api/v1/repos/o/r/issues/1":
			w.Header().Set("Content-Type", "application/json;charset=utf-8")
			w.WriteHeader(http.StatusNotFound)
			_, _ = io.WriteString(w, `{"message":"issue does not exist [id: 0, repo_id: 1, index: 1]"}`)
		default:
			http.NotFound(w, r) // text/plain "404 page not found", as the forges' routers answer
		}
	}))
	t.Cleanup(srv.Close)
	u, err := url.Parse(srv.URL + basePath)
	require.NoError(t, err)
	return forgejo.NewClient(forgejo.NewHTTPClient(forgejo.HTTPOptions{BaseURL: u}), u, "tok-123456", "t"), f
}

// A declared route the forge's version lacks is refused before it is
// sent, naming the version it needs. The gate is the client's transport,
// which the SDK's calls share; no SDK call has a declared route yet.
func TestGateRefusesRoutesTheVersionLacks(t *testing.T) {
	ctx := context.Background()
	for _, base := range []string{"", "/forge"} {
		c, f := newForge(t, "13.0.5+gitea-1.22.0", base)
		err := c.DoJSON(ctx, http.MethodGet, "/repos/o/r/actions/runs/3/jobs", nil, nil, nil)
		var re *forgejo.RouteError
		require.ErrorAs(t, err, &re)
		assert.Equal(t, "list jobs of run 3: Listing a workflow run's jobs: this forge (Forgejo 13.0.5+gitea-1.22.0) has no such API route, "+
			"so nothing was sent; Forgejo 13.0.5 and 15.0.3 lack it; of the Forgejo versions this server knows, only 17.0.0-dev (a development snapshot) has it; "+
			"Gitea 1.26.0 has it", forgejo.Relabel(err, "list jobs of", "run 3").Error())
		assert.True(t, forgejo.IsNoRoute(err))
		assert.False(t, forgejo.IsNotFound(err), "a missing route is not a missing run")
		_, err = c.DoRaw(ctx, "/api/v1/repos/o/r/actions/artifacts/4/zip", forgejo.RawOptions{MaxBytes: 10})
		require.ErrorAs(t, err, &re)
		assert.Equal(t, "Downloading an artifact's zip", re.Feature)
		assert.Equal(t, []string{"GET /api/v1/version"}, f.requests(), "nothing but the version probe left (%q)", base)
		require.NoError(t, c.Require(ctx, http.MethodGet, "/repos/{owner}/{repo}"), "a route every forge has")
	}
}

// A router 404 says the forge lacks the route, with its version, never
// that the object is missing; a handler's JSON 404 still does.
func TestRouterNotFoundIsAMissingRoute(t *testing.T) {
	ctx := context.Background()
	c, f := newForge(t, "16.0.0+gitea-1.22.0", "")
	err := c.DoJSON(ctx, http.MethodGet, "/repos/o/r/actions/runs/3/jobs", nil, nil, nil)
	require.Error(t, err)
	assert.True(t, forgejo.IsNoRoute(err))
	assert.False(t, forgejo.IsNotFound(err))
	msg := forgejo.Relabel(err, "list jobs of", "workflow run 3 in o/r").Error()
	assert.Equal(t, "list jobs of workflow run 3 in o/r: this forge (Forgejo 16.0.0+gitea-1.22.0) has no such API route "+
		"(its router answered 404 page not found, so nothing was looked up and this says nothing about whether it exists); "+
		"Forgejo 13.0.5 and 15.0.3 lack it; of the Forgejo versions this server knows, only 17.0.0-dev (a development snapshot) has it; Gitea 1.26.0 has it", msg)
	assert.NotContains(t, msg, "not found (404)")
	assert.Equal(t, []string{"GET /api/v1/version", "GET /api/v1/repos/o/r/actions/runs/3/jobs"}, f.requests(),
		"the version is asked once, and the route sent: 16.0.0, between 15.0.3 (lacks it) and the 17 snapshot (has it), is not known to lack it")

	err = c.DoJSON(ctx, http.MethodGet, "/repos/o/r/issues/1", nil, nil, nil)
	assert.True(t, forgejo.IsNotFound(err), "a JSON 404 is a missing object")
	assert.False(t, forgejo.IsNoRoute(err))

	// An SDK call: Fail cannot ask the forge, Explain adds what is cached.
	_, resp, err := c.SDK(ctx).GetRepoLabel("o", "r", 5)
	ferr := forgejo.Fail(resp, err, "get", "label 5 in o/r")
	assert.True(t, forgejo.IsNoRoute(ferr))
	assert.Contains(t, c.Explain(ferr).Error(), "get label 5 in o/r: this forge (Forgejo 16.0.0+gitea-1.22.0) has no such API route")
}
