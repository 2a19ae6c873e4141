package metrics_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/metrics"
)

// TestForgeRequestClasses: statuses fold into classes, a failed exchange
// is "error", and an unusual method does not become a label of its own.
func TestForgeRequestClasses(t *testing.T) {
	m := metrics.New()
	m.ForgeRequest("GET", 200, time.Millisecond)
	m.ForgeRequest("GET", 204, time.Millisecond)
	m.ForgeRequest("POST", 404, time.Millisecond)
	m.ForgeRequest("DELETE", 503, time.Millisecond)
	m.ForgeRequest("GET", 0, time.Second)
	m.ForgeRequest("PROPFIND", 207, time.Millisecond)

	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(rec.Body)
	require.NoError(t, err)
	got := map[string]float64{}
	for _, s := range fams[metrics.Namespace+"_forge_requests_total"].GetMetric() {
		key := ""
		for _, l := range s.GetLabel() {
			key += l.GetName() + "=" + l.GetValue() + " "
		}
		got[key] = s.GetCounter().GetValue()
	}
	assert.Equal(t, map[string]float64{
		"class=2xx method=GET ":    2,
		"class=4xx method=POST ":   1,
		"class=5xx method=DELETE ": 1,
		"class=error method=GET ":  1,
		"class=2xx method=other ":  1,
	}, got)
}

// TestExposition: the whole scrape parses with Prometheus's own text
// parser: histograms with cumulative buckets, sum and count, counters and
// gauges, the runtime's and the process's series, a label value with
// quotes and a line break escaped.
func TestExposition(t *testing.T) {
	m := metrics.New()
	m.CallStarted("get_issue")
	m.CallDone("get_issue", "ok", 20*time.Millisecond)
	m.CallStarted("get_issue")
	m.CallDone("get_issue", "error", 3*time.Second)
	m.CallDone("odd \"name\"\nx", "busy", 0)
	m.CallStarted("still_running")
	m.IdentityLookup(true)

	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	assert.Equal(t, "text/plain; version=0.0.4; charset=utf-8", rec.Header().Get("Content-Type"))
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(rec.Body)
	require.NoError(t, err)

	h := fams[metrics.Namespace+"_tool_call_duration_seconds"].GetMetric()
	require.Len(t, h, 1)
	hist := h[0].GetHistogram()
	assert.EqualValues(t, 2, hist.GetSampleCount())
	assert.InDelta(t, 3.02, hist.GetSampleSum(), 1e-9)
	cum := map[float64]uint64{}
	for _, b := range hist.GetBucket() {
		cum[b.GetUpperBound()] = b.GetCumulativeCount()
	}
	assert.EqualValues(t, 0, cum[0.01])
	assert.EqualValues(t, 1, cum[0.025])
	assert.EqualValues(t, 1, cum[2.5])
	assert.EqualValues(t, 2, cum[5])
	assert.EqualValues(t, 2, cum[30])

	calls := map[string]float64{}
	for _, s := range fams[metrics.Namespace+"_tool_calls_total"].GetMetric() {
		calls[s.GetLabel()[1].GetValue()+"/"+s.GetLabel()[0].GetValue()] = s.GetCounter().GetValue()
	}
	assert.Equal(t, map[string]float64{"get_issue/ok": 1, "get_issue/error": 1, "odd \"name\"\nx/busy": 1}, calls)
	assert.EqualValues(t, 1, fams[metrics.Namespace+"_tool_calls_in_flight"].GetMetric()[0].GetGauge().GetValue())
	assert.Len(t, fams[metrics.Namespace+"_busy_refusals_total"].GetMetric(), 2, "zeros from the start")
	assert.Greater(t, fams["go_goroutines"].GetMetric()[0].GetGauge().GetValue(), 0.0)
	if _, err := os.Stat("/proc/self/stat"); err == nil {
		assert.Greater(t, fams["process_resident_memory_bytes"].GetMetric()[0].GetGauge().GetValue(), 1e6)
		assert.Greater(t, fams["process_start_time_seconds"].GetMetric()[0].GetGauge().GetValue(), 1e9)
		assert.Greater(t, fams["process_open_fds"].GetMetric()[0].GetGauge().GetValue(), 2.0)
	}
}
