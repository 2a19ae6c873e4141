package actions_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/actions"
)

// get_ci_status on the recorded answers of both forges: the commit's two
// runs (a push and a dispatch, no runner) read queued with their events,
// newest first, and the state is pending on both, though Forgejo says
// "waiting" and lists them oldest first. The runs are the first sweep's,
// so the replay prefers list_workflow_runs' exchanges: under its own name,
// get_ci_status would get the second sweep's (gitea-1.26.0-sweep2), about
// a head with no runs.
func TestRecordedCIStateReadsTheSameOnBoth(t *testing.T) {
	for rec, sha := range map[string]string{
		"forgejo-13.0.5": "262fadfd31541d10190c95ec915f39737999747d",
		"gitea-1.26.0":   "ae49587e4ec71cce0dfc876ab0959130322cc9f0",
	} {
		f := fakeforge.New(t)
		f.Replay(recording(t, rec), "list_workflow_runs")
		res := f.Call(t, actions.Tools(), "get_ci_status", map[string]any{"owner": "forgeadmin", "repo": "sweep-rec", "ref": sha})
		require.False(t, res.IsError, fakeforge.Text(t, res))
		var out actions.CIState
		require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &out))
		require.Len(t, out.Runs, 2, rec)
		assert.Equal(t, "workflow_dispatch", out.Runs[0].Event, rec)
		assert.Equal(t, "push", out.Runs[1].Event, rec)
		for _, r := range out.Runs {
			assert.Equal(t, "queued", r.Status, rec)
		}
		assert.Equal(t, "pending", out.State, rec)
	}
}
