package forgejo

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestRouteOf: a request path finds the declared route its template
// matches, the one with more literal segments where two do, and nothing
// for an undeclared route, another method or an empty parameter.
func TestRouteOf(t *testing.T) {
	for _, tc := range []struct {
		method, path string
		want         string // the declared template, "" for none
	}{
		{http.MethodGet, "/repos/o/r/actions/runs/3/jobs", "/repos/{owner}/{repo}/actions/runs/{run_id}/jobs"},
		{http.MethodGet, "/repos/o/r/actions/runners/jobs", "/repos/{owner}/{repo}/actions/runners/jobs"},
		{http.MethodGet, "/repos/o/r/actions/runners/7", "/repos/{owner}/{repo}/actions/runners/{runner_id}"},
		{http.MethodPatch, "/repos/o/r/actions/runners/7", "/repos/{owner}/{repo}/actions/runners/{runner_id}"},
		{http.MethodPut, "/repos/o/r/actions/runners/7", ""},
		{http.MethodGet, "/repos/o/r/actions/runs//jobs", ""},
		{http.MethodGet, "/repos/o/r/issues/1", ""},
		{http.MethodGet, "/repos/o/r/actions/runs/3/jobs/extra", ""},
	} {
		d, ok := RouteOf(tc.method, tc.path)
		assert.Equal(t, tc.want != "", ok, "%s %s", tc.method, tc.path)
		assert.Equal(t, tc.want, d.Route, "%s %s", tc.method, tc.path)
	}
}

// BenchmarkRouteOf is the route gate's lookup, made for every request.
func BenchmarkRouteOf(b *testing.B) {
	for b.Loop() {
		RouteOf(http.MethodGet, "/repos/owner/repo/issues/12/comments")
	}
}

// BenchmarkRouteFor is a tool's Require lookup by template.
func BenchmarkRouteFor(b *testing.B) {
	for b.Loop() {
		RouteFor(http.MethodGet, "/repos/{owner}/{repo}/actions/jobs/{job_id}/logs")
	}
}
