package actions_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/actions"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// The runs tools against the real answers of Forgejo 13.0.5 and Gitea
// 1.26.0 (recorded/): the same two runs, a push and a dispatch, read the
// same on both, although Forgejo lists them oldest first, says "waiting"
// where Gitea says "queued" and leaves a dispatched run's event empty.

func recording(t *testing.T, name string) *fakeforge.Recording {
	t.Helper()
	rec, err := fakeforge.LoadRecording(name)
	require.NoError(t, err)
	return rec
}

func runsPage(t *testing.T, res string) tool.ListPage[actions.Run] {
	t.Helper()
	var page tool.ListPage[actions.Run]
	require.NoError(t, json.Unmarshal([]byte(res), &page))
	return page
}

func TestRecordedRunsReadTheSameOnBoth(t *testing.T) {
	for _, c := range []struct {
		rec         string
		forgeStatus string // what the forge said for "queued"
	}{
		{"forgejo-13.0.5", "waiting"},
		{"gitea-1.26.0", ""},
	} {
		t.Run(c.rec, func(t *testing.T) {
			f := fakeforge.New(t)
			f.Replay(recording(t, c.rec), "list_workflow_runs")
			res := f.Call(t, actions.Tools(), "list_workflow_runs", map[string]any{"owner": "forgeadmin", "repo": "sweep-rec"})
			require.False(t, res.IsError, fakeforge.Text(t, res))
			page := runsPage(t, fakeforge.Text(t, res))
			require.Len(t, page.Items, 2)
			assert.False(t, page.HasMore)
			assert.Greater(t, page.Items[0].ID, page.Items[1].ID, "newest first")
			assert.Equal(t, "workflow_dispatch", page.Items[0].Event, "the dispatched run says so")
			assert.Equal(t, "push", page.Items[1].Event)
			for _, r := range page.Items {
				assert.Equal(t, "queued", r.Status)
				assert.Equal(t, c.forgeStatus, r.ForgeStatus)
				assert.Equal(t, "ci.yml", r.Workflow)
				assert.Equal(t, "main", r.Branch)
			}

			res = f.Call(t, actions.Tools(), "list_workflow_runs", map[string]any{"owner": "forgeadmin", "repo": "sweep-rec", "event": "workflow_dispatch"})
			require.False(t, res.IsError, fakeforge.Text(t, res))
			page = runsPage(t, fakeforge.Text(t, res))
			require.Len(t, page.Items, 1)
			assert.Equal(t, "workflow_dispatch", page.Items[0].Event)

			res = f.Call(t, actions.Tools(), "list_workflow_runs", map[string]any{"owner": "forgeadmin", "repo": "sweep-rec", "status": "cancelled"})
			require.False(t, res.IsError, fakeforge.Text(t, res))
			assert.Empty(t, runsPage(t, fakeforge.Text(t, res)).Items)
			assert.Empty(t, f.Unanswered())
		})
	}
}

// get_workflow_run shows the event of a dispatched run on Gitea, and of a
// pushed one on Forgejo (the recorded sweep read run 1 there).
func TestRecordedRunEvent(t *testing.T) {
	for rec, want := range map[string]string{
		"forgejo-13.0.5": `"event":"push","status":"queued","forge_status":"waiting"`,
		"gitea-1.26.0":   `"event":"workflow_dispatch","status":"queued"`,
	} {
		f := fakeforge.New(t)
		f.Replay(recording(t, rec), "get_workflow_run")
		res := f.Call(t, actions.Tools(), "get_workflow_run", map[string]any{"owner": "forgeadmin", "repo": "sweep-rec", "run_id": 1.0})
		require.False(t, res.IsError, fakeforge.Text(t, res))
		for _, part := range strings.Split(want, ",") {
			assert.Contains(t, fakeforge.Text(t, res), part, rec)
		}
	}
}

// recordedForgejoRuns are n runs shaped as Forgejo 13.0.5 sent its
// dispatched run (seq 217), ids 1..n, oldest first as it lists them.
func recordedForgejoRuns(t *testing.T, n int) []map[string]any {
	t.Helper()
	v, ok := recording(t, "forgejo-13.0.5").Seq(217).JSON()
	require.True(t, ok)
	runs := v.(map[string]any)["workflow_runs"].([]any)
	template := runs[len(runs)-1].(map[string]any)
	out := make([]map[string]any, n)
	for i := range out {
		r := map[string]any{}
		for k, v := range template {
			r[k] = v
		}
		r["id"], r["index_in_repo"] = i+1, i+1
		out[i] = r
	}
	return out
}

// pagingForgejo answers the runs list as Forgejo 13 does: oldest first,
// paged by page and limit, the total in the body, no paging headers.
func pagingForgejo(t *testing.T, runs []map[string]any) *fakeforge.Server {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/version", 200, map[string]any{"version": "13.0.5+gitea-1.22.0"})
	f.Handle("GET /api/v1/repos/o/r/actions/runs", func(w http.ResponseWriter, r *http.Request) {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
		from := min((page-1)*limit, len(runs))
		to := min(from+limit, len(runs))
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"workflow_runs": runs[from:to], "total_count": len(runs)})
	})
	return f
}

func TestForgejoRunsPagedNewestFirst(t *testing.T) {
	f := pagingForgejo(t, recordedForgejoRuns(t, 5))
	for _, c := range []struct {
		page, limit int
		ids         []int64
		more        bool
	}{
		{1, 2, []int64{5, 4}, true},
		{2, 2, []int64{3, 2}, true}, // across two of the forge's pages
		{3, 2, []int64{1}, false},
		{4, 2, nil, false},
		{1, 20, []int64{5, 4, 3, 2, 1}, false},
		{2, 3, []int64{2, 1}, false},
	} {
		res := f.Call(t, actions.Tools(), "list_workflow_runs", map[string]any{"owner": "o", "repo": "r",
			"page": float64(c.page), "limit": float64(c.limit)})
		require.False(t, res.IsError, fakeforge.Text(t, res))
		page := runsPage(t, fakeforge.Text(t, res))
		var ids []int64
		for _, r := range page.Items {
			ids = append(ids, r.ID)
			assert.Equal(t, "workflow_dispatch", r.Event)
		}
		assert.Equal(t, c.ids, ids, "page %d limit %d", c.page, c.limit)
		assert.Equal(t, c.more, page.HasMore, "page %d limit %d", c.page, c.limit)
	}
}

// Forgejo refuses Gitea's status words with 400 "unknown status": each is
// sent in Forgejo's words there, as is on Gitea, and checked on the result.
func TestStatusFilterInEachForgesWords(t *testing.T) {
	for _, c := range []struct {
		version, status string
		sent            []string
	}{
		{"13.0.5+gitea-1.22.0", "queued", []string{"waiting"}},
		{"13.0.5+gitea-1.22.0", "in_progress", []string{"running"}},
		{"13.0.5+gitea-1.22.0", "waiting", []string{"blocked"}},
		{"13.0.5+gitea-1.22.0", "completed", []string{"success", "failure", "cancelled", "skipped"}},
		{"13.0.5+gitea-1.22.0", "failure", []string{"failure"}},
		{"1.26.0", "queued", []string{"queued"}},
		{"1.26.0", "completed", []string{"completed"}},
	} {
		f := fakeforge.New(t)
		f.JSON("GET /api/v1/version", 200, map[string]any{"version": c.version})
		var sent []string
		f.Handle("GET /api/v1/repos/o/r/actions/runs", func(w http.ResponseWriter, r *http.Request) {
			sent = r.URL.Query()["status"]
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"workflow_runs":[],"total_count":0}`))
		})
		res := f.Call(t, actions.Tools(), "list_workflow_runs", map[string]any{"owner": "o", "repo": "r", "status": c.status})
		require.False(t, res.IsError, fakeforge.Text(t, res))
		assert.Equal(t, c.sent, sent, "%s on %s", c.status, c.version)
	}
}

// A forge that ignored the status filter still gives only the runs asked
// for: Forgejo's recorded waiting run is queued, not waiting.
func TestStatusFilterCheckedOnTheResult(t *testing.T) {
	runs := recordedForgejoRuns(t, 2)
	runs[0]["status"] = "success"
	f := pagingForgejo(t, runs)
	for status, want := range map[string][]int64{"queued": {2}, "waiting": nil, "completed": {1}, "success": {1}} {
		res := f.Call(t, actions.Tools(), "list_workflow_runs", map[string]any{"owner": "o", "repo": "r", "status": status})
		require.False(t, res.IsError, fakeforge.Text(t, res))
		var ids []int64
		for _, r := range runsPage(t, fakeforge.Text(t, res)).Items {
			ids = append(ids, r.ID)
		}
		assert.Equal(t, want, ids, status)
	}
}

// A Forgejo that lists runs newest first already (as Gitea does) is read
// page by page as it answers: the probe shows the order, nothing is
// reversed.
func TestForgejoNewestFirstOrderKept(t *testing.T) {
	runs := recordedForgejoRuns(t, 5)
	slices.Reverse(runs)
	f := pagingForgejo(t, runs)
	for _, c := range []struct {
		page, limit int
		ids         []int64
		more        bool
	}{
		{1, 2, []int64{5, 4}, true},
		{2, 2, []int64{3, 2}, true},
		{3, 2, []int64{1}, false},
		{1, 1, []int64{5}, true},
	} {
		res := f.Call(t, actions.Tools(), "list_workflow_runs", map[string]any{"owner": "o", "repo": "r",
			"page": float64(c.page), "limit": float64(c.limit)})
		require.False(t, res.IsError, fakeforge.Text(t, res))
		page := runsPage(t, fakeforge.Text(t, res))
		var ids []int64
		for _, r := range page.Items {
			ids = append(ids, r.ID)
		}
		assert.Equal(t, c.ids, ids, "page %d limit %d", c.page, c.limit)
		assert.Equal(t, c.more, page.HasMore, "page %d limit %d", c.page, c.limit)
	}
}
