package actions_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/actions"
)

func flavourForge(t *testing.T, version string) *fakeforge.Server {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/version", 200, map[string]any{"version": version})
	f.Handle("POST /api/v1/repos/o/r/actions/runs/7/cancel", func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	})
	f.JSON("POST /api/v1/repos/o/r/actions/runs/7/rerun", 201, rawRun)
	return f
}

func TestRunControlsOnTheirFlavour(t *testing.T) {
	args := map[string]any{"owner": "o", "repo": "r", "run_id": 7.0}
	fj := flavourForge(t, "17.0.0-dev+gitea-1.22.0")
	res := fj.Call(t, actions.Tools(), "cancel_workflow_run", args)
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"cancelled":7`)

	gt := flavourForge(t, "1.26.0")
	res = gt.Call(t, actions.Tools(), "rerun_workflow_run", args)
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, compactRun, fakeforge.Text(t, res))
}

// Where the route is missing the tools name the forge, its version and
// the versions that have the route, and send nothing but the version probe.
func TestRunControlsRefuseWhereTheRouteIsMissing(t *testing.T) {
	args := map[string]any{"owner": "o", "repo": "r", "run_id": 7.0}
	for _, tc := range []struct{ tool, version, want string }{
		{"cancel_workflow_run", "1.26.0", "Cancelling a workflow run: this forge (Gitea 1.26.0) has no such API route, so nothing was sent; " +
			"Forgejo 13.0.5 and 15.0.3 lack it; of the Forgejo versions this server knows, only 17.0.0-dev (a development snapshot) has it; Gitea 1.26.0 lacks it"},
		{"cancel_workflow_run", "15.0.3+gitea-1.22.0", "Cancelling a workflow run: this forge (Forgejo 15.0.3+gitea-1.22.0) has no such API route, so nothing was sent; " +
			"Forgejo 13.0.5 and 15.0.3 lack it; of the Forgejo versions this server knows, only 17.0.0-dev (a development snapshot) has it"},
		{"cancel_workflow_run", "14.0.0+gitea-1.22.0", "Cancelling a workflow run: this forge (Forgejo 14.0.0+gitea-1.22.0) has no such API route, so nothing was sent; " +
			"Forgejo 13.0.5 and 15.0.3 lack it"},
		{"rerun_workflow_run", "11.0.0+gitea-1.22.0", "Re-running a workflow run: this forge (Forgejo 11.0.0+gitea-1.22.0) has no such API route, so nothing was sent; " +
			"Forgejo 13.0.5, 15.0.3 and 17.0.0-dev lack it; Gitea 1.26.0 has it"},
	} {
		f := flavourForge(t, tc.version)
		res := f.Call(t, actions.Tools(), tc.tool, args)
		assert.True(t, res.IsError)
		assert.Contains(t, fakeforge.Text(t, res), tc.want)
		require.Len(t, f.Requests(), 1)
		assert.Equal(t, "/api/v1/version", f.Requests()[0].Path)
	}
}
