package cmd_test

import (
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

var metricsRe = regexp.MustCompile(`msg="serving Prometheus metrics" endpoint=(http://[0-9.:]+/metrics)`)

// TestHTTPMetricsAddr: the built binary serves /metrics on --http-addr by
// default, and only on --metrics-addr when that is given; a call shows up
// in what it serves, parsed by the Prometheus text parser.
func TestHTTPMetricsAddr(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/user", http.StatusOK, map[string]any{"id": 1, "login": "alice"})
	get := func(url string) (int, string) {
		resp, err := http.Get(url)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	parse := func(body string) map[string]bool {
		p := expfmt.NewTextParser(model.UTF8Validation)
		fams, err := p.TextToMetricFamilies(strings.NewReader(body))
		require.NoError(t, err)
		names := map[string]bool{}
		for n := range fams {
			names[n] = true
		}
		return names
	}

	p := startHTTP(t, f.URL, nil)
	status, body := get(p.base + "/metrics")
	require.Equal(t, http.StatusOK, status)
	assert.True(t, parse(body)["forgejo_mcp_busy_refusals_total"])

	p = startHTTP(t, f.URL, nil, "--metrics-addr", "127.0.0.1:0")
	var metricsURL string
	require.Eventually(t, func() bool {
		m := metricsRe.FindStringSubmatch(p.stderr.String())
		if m != nil {
			metricsURL = m[1]
		}
		return m != nil
	}, 5*time.Second, 10*time.Millisecond, "metrics listener logged")
	status, _ = get(p.base + "/metrics")
	assert.Equal(t, http.StatusNotFound, status, "not on --http-addr when --metrics-addr is set")
	code, _, err := p.call("Bearer tok-0123456789", map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": map[string]any{"name": "get_my_user_info", "arguments": map[string]any{}}})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, code)
	status, body = get(metricsURL)
	require.Equal(t, http.StatusOK, status)
	names := parse(body)
	assert.True(t, names["forgejo_mcp_tool_calls_total"], "a call was counted")
	assert.Contains(t, body, `forgejo_mcp_tool_calls_total{outcome="ok",tool="get_my_user_info"} 1`)
	assert.Contains(t, body, `forgejo_mcp_identity_cache_lookups_total{result="miss"} 1`)
}
