package metrics_test

import (
	"net/http"
	"net/http/httptest"
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
