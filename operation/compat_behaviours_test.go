package operation_test

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// Each declared behaviour (forgejo.Behaviours) is shown by the recorded
// exchanges it cites: they exist, came from the tools it names (or the
// sweep's probes), and show what it says. A behaviour without a check here
// fails, so the table cannot claim what the recordings do not show.
func TestBehavioursShownByTheRecordings(t *testing.T) {
	recs := map[string]*fakeforge.Recording{}
	all, err := fakeforge.Recordings()
	require.NoError(t, err)
	for _, r := range all {
		recs[r.Name] = r
	}
	checks := behaviourChecks()
	for _, b := range forgejo.Behaviours() {
		check, ok := checks[b.Feature]
		require.True(t, ok, "no check of the recorded evidence for %q", b.Feature)
		require.NotEmpty(t, b.Evidence, b.Feature)
		for _, ref := range b.Evidence {
			name, n, _ := strings.Cut(ref, "#")
			rec := recs[name]
			require.NotNil(t, rec, "%s: no recording %s", b.Feature, name)
			seq, err := strconv.Atoi(n)
			require.NoError(t, err, ref)
			e := rec.Seq(seq)
			require.NotNil(t, e, "%s: no exchange %s", b.Feature, ref)
			if e.IsTool() && !slices.Contains(b.Tools, "every tool") {
				assert.Contains(t, b.Tools, e.Tool, "%s: %s came from another tool", b.Feature, ref)
			}
			check(t, rec.Forge, e)
		}
	}
}

type exchangeCheck func(t *testing.T, fg forgejo.Forge, e *fakeforge.Exchange)

// runsOf decodes a recorded runs list: each run's id, event, trigger_event
// and status.
func runsOf(t *testing.T, e *fakeforge.Exchange) []map[string]any {
	t.Helper()
	v, ok := e.JSON()
	require.True(t, ok)
	var out []map[string]any
	for _, r := range v.(map[string]any)["workflow_runs"].([]any) {
		out = append(out, r.(map[string]any))
	}
	return out
}

func behaviourChecks() map[string]exchangeCheck {
	return map[string]exchangeCheck{
		"Workflow run event": func(t *testing.T, fg forgejo.Forge, e *fakeforge.Exchange) {
			f := fg.Flavour
			var dispatched bool
			for _, r := range runsOf(t, e) {
				if f == forgejo.Forgejo {
					dispatched = dispatched || r["event"] == "" && r["trigger_event"] == "workflow_dispatch"
				} else {
					dispatched = dispatched || r["event"] == "workflow_dispatch"
				}
			}
			assert.True(t, dispatched, "#%d shows the dispatched run's event as declared", e.Seq)
		},
		"Workflow run and job status words": func(t *testing.T, fg forgejo.Forge, e *fakeforge.Exchange) {
			f := fg.Flavour
			words := map[forgejo.Flavour][]string{
				forgejo.Forgejo: {"unknown", "waiting", "running", "blocked", "success", "failure", "cancelled", "skipped"},
				forgejo.Gitea:   {"queued", "in_progress", "waiting", "completed"},
			}[f]
			for _, r := range runsOf(t, e) {
				assert.Contains(t, words, r["status"], "#%d", e.Seq)
			}
		},
		"Workflow runs order": func(t *testing.T, fg forgejo.Forge, e *fakeforge.Exchange) {
			f := fg.Flavour
			runs := runsOf(t, e)
			require.GreaterOrEqual(t, len(runs), 2, "#%d", e.Seq)
			first, second := runs[0]["id"].(float64), runs[1]["id"].(float64)
			before15, _ := forgejo.CompareVersions(fg.Version, "15.0.3")
			assert.Equal(t, f == forgejo.Forgejo && before15 < 0, first < second, "#%d: oldest first on Forgejo 13 only", e.Seq)
		},
		"Workflow runs paging headers": func(t *testing.T, fg forgejo.Forge, e *fakeforge.Exchange) {
			f := fg.Flavour
			_, total := e.Headers["x-total-count"]
			_, link := e.Headers["link"]
			assert.Equal(t, f == forgejo.Gitea, total && link, "#%d", e.Seq)
			v, _ := e.JSON()
			assert.Contains(t, v, "total_count", "#%d: the body has the total", e.Seq)
		},
		"Issue comments paging": func(t *testing.T, _ forgejo.Forge, e *fakeforge.Exchange) {
			assert.Greater(t, answered(t, e), limitOf(t, e), "#%d: more comments than limit", e.Seq)
		},
		"Byte ranges on .diff and .patch routes": func(t *testing.T, _ forgejo.Forge, e *fakeforge.Exchange) {
			assert.Regexp(t, `\.(diff|patch)$`, e.Route(), "#%d", e.Seq)
			// The recorder saw Range sent (request_range, which Exchange does
			// not decode); the answer is 200, the whole diff, not 206.
			assert.Equal(t, 200, e.Status, "#%d: a Range request answered whole", e.Seq)
			assert.Positive(t, e.Length, "#%d", e.Seq)
		},
		"Notifications order and paging": func(t *testing.T, fg forgejo.Forge, e *fakeforge.Exchange) {
			f := fg.Flavour
			_, link := e.Headers["link"]
			_, total := e.Headers["x-total-count"]
			assert.True(t, total, "#%d", e.Seq)
			if limitOf(t, e) < 2 { // a short page: Gitea links the next one, Forgejo does not
				assert.Equal(t, f == forgejo.Gitea, link, "#%d", e.Seq)
				return
			}
			v, _ := e.JSON()
			list := v.([]any)
			require.Len(t, list, 2, "#%d", e.Seq)
			a, b := list[0].(map[string]any), list[1].(map[string]any)
			assert.Equal(t, a["updated_at"], b["updated_at"], "#%d: a tie", e.Seq)
			assert.Equal(t, f == forgejo.Forgejo, a["id"].(float64) < b["id"].(float64), "#%d: the tie in each forge's order", e.Seq)
		},
		"A route the forge lacks": func(t *testing.T, _ forgejo.Forge, e *fakeforge.Exchange) {
			require.Equal(t, 404, e.Status, "#%d", e.Seq)
			if strings.HasPrefix(e.ContentType, "text/plain") {
				require.NotNil(t, e.Response.Text, "#%d", e.Seq)
				assert.Equal(t, "404 page not found", strings.TrimSpace(*e.Response.Text), "#%d: the router's", e.Seq)
				return
			}
			_, ok := e.JSON()
			assert.True(t, ok, "#%d: a missing object is a JSON 404", e.Seq)
		},
	}
}

func limitOf(t *testing.T, e *fakeforge.Exchange) int {
	t.Helper()
	_, raw, _ := strings.Cut(e.Path, "?")
	q, err := url.ParseQuery(raw)
	require.NoError(t, err)
	n, err := strconv.Atoi(q.Get("limit"))
	require.NoError(t, err, "#%d has a limit", e.Seq)
	return n
}

func answered(t *testing.T, e *fakeforge.Exchange) int {
	t.Helper()
	v, ok := e.JSON()
	require.True(t, ok)
	return len(v.([]any))
}
