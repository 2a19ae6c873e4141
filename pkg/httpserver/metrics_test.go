package httpserver

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/metrics"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// withMetrics wires metrics the way cmd does: the runner's observer and
// limits, the forge transport, the identity cache and /metrics.
func withMetrics(perServer, perUser int) func(*Options) {
	return func(o *Options) {
		m := metrics.New()
		o.Metrics = m
		o.HTTPClient = forgejo.Observed(o.HTTPClient, m.ForgeRequest)
		o.Runner.SetLimits(tool.Limits{PerServer: perServer, PerIdentity: perUser, Observer: m})
	}
}

// scrape fetches /metrics and parses it with the Prometheus text parser.
func (fx *fixture) scrape(t *testing.T) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(fx.http.URL + MetricsPath)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Contains(t, resp.Header.Get("Content-Type"), "text/plain")
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	require.NoError(t, err)
	return fams
}

// value is the value of the series of family name whose labels include
// want (counter, gauge, or a histogram's sample count); 0 when absent.
func value(fams map[string]*dto.MetricFamily, name string, want map[string]string) float64 {
	f, ok := fams[name]
	if !ok {
		return 0
	}
	var sum float64
	for _, m := range f.GetMetric() {
		labels := map[string]string{}
		for _, l := range m.GetLabel() {
			labels[l.GetName()] = l.GetValue()
		}
		match := true
		for k, v := range want {
			if labels[k] != v {
				match = false
			}
		}
		if !match {
			continue
		}
		switch {
		case m.Counter != nil:
			sum += m.GetCounter().GetValue()
		case m.Gauge != nil:
			sum += m.GetGauge().GetValue()
		case m.Histogram != nil:
			sum += float64(m.GetHistogram().GetSampleCount())
		}
	}
	return sum
}

func TestMetricsScrape(t *testing.T) {
	fx := newFixture(t, withMetrics(32, 4))
	for range 3 {
		assert.Equal(t, `{"login":"alice"}`, fx.callText(t, "Bearer "+tokAlice, "whoami", nil))
	}
	assert.Equal(t, `"done"`, fx.callText(t, "Bearer "+tokBob, "peek_thing", nil))

	fams := fx.scrape(t)
	const ns = metrics.Namespace + "_"
	assert.Equal(t, 3.0, value(fams, ns+"tool_calls_total", map[string]string{"tool": "whoami", "outcome": "ok"}))
	assert.Equal(t, 1.0, value(fams, ns+"tool_calls_total", map[string]string{"tool": "peek_thing", "outcome": "ok"}))
	assert.Equal(t, 3.0, value(fams, ns+"tool_call_duration_seconds", map[string]string{"tool": "whoami"}))
	assert.Equal(t, dto.MetricType_HISTOGRAM, fams[ns+"tool_call_duration_seconds"].GetType())
	assert.Equal(t, 0.0, value(fams, ns+"tool_calls_in_flight", nil))
	// Two token checks and three whoami calls reached the forge.
	assert.Equal(t, 5.0, value(fams, ns+"forge_requests_total", map[string]string{"method": "GET", "class": "2xx"}))
	assert.Equal(t, 5.0, value(fams, ns+"forge_request_duration_seconds", map[string]string{"class": "2xx"}))
	// Four requests: alice's first and bob's first missed, the rest hit.
	assert.Equal(t, 2.0, value(fams, ns+"identity_cache_lookups_total", map[string]string{"result": "miss"}))
	assert.Equal(t, 2.0, value(fams, ns+"identity_cache_lookups_total", map[string]string{"result": "hit"}))
	require.Contains(t, fams, ns+"busy_refusals_total")
	require.Contains(t, fams, "process_resident_memory_bytes")

	// No label value names a user or a token: only tools, outcomes,
	// limits, methods, classes and the runtime's own.
	for name, f := range fams {
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				for _, secret := range []string{"alice", "bob", tokAlice, tokBob} {
					assert.NotContains(t, l.GetValue(), secret, "%s{%s}", name, l.GetName())
				}
			}
		}
	}
}

// TestFairnessPerUser: a user at their limit gets a busy isError naming it
// while another user is still served, and the refusal is counted.
func TestFairnessPerUser(t *testing.T) {
	fx := newFixture(t, withMetrics(32, 2))
	const ns = metrics.Namespace + "_"
	var wg sync.WaitGroup
	results := make(chan string, 2)
	for range 2 {
		wg.Go(func() {
			_, body := fx.postAsync(tokAlice, "wait")
			results <- body
		})
	}
	require.Eventually(t, func() bool {
		return value(fx.scrape(t), ns+"tool_calls_in_flight", nil) == 2
	}, 5*time.Second, 10*time.Millisecond, "alice's two calls are running")

	busy := fx.callText(t, "Bearer "+tokAlice, "whoami", nil)
	assert.Equal(t, "busy: you already have 2 tool calls running, the limit per user; retry whoami when one of them has finished", busy)
	assert.Equal(t, `{"login":"bob"}`, fx.callText(t, "Bearer "+tokBob, "whoami", nil), "bob is served while alice is at her limit")

	fx.release()
	wg.Wait()
	close(results)
	for body := range results {
		assert.Contains(t, body, "released")
	}
	fams := fx.scrape(t)
	assert.Equal(t, 1.0, value(fams, ns+"busy_refusals_total", map[string]string{"limit": "identity"}))
	assert.Equal(t, 0.0, value(fams, ns+"busy_refusals_total", map[string]string{"limit": "server"}))
	assert.Equal(t, 1.0, value(fams, ns+"tool_calls_total", map[string]string{"tool": "whoami", "outcome": "busy"}))
	// Alice's one identity cache entry counts her calls, not her tokens.
	assert.Equal(t, `{"login":"alice"}`, fx.callText(t, "Bearer "+tokAlice, "whoami", nil), "alice is served again")
}

// TestFairnessUnnamedTokens is issue 18's item 9: a token without the
// read:user scope, whose user the forge does not name, counted as a user
// of its own, so one person with twelve such tokens took twelve shares of
// the server. They count by client address now: from one address they
// share one user's limit, and behind a trusted proxy each forwarded
// client has its own.
func TestFairnessUnnamedTokens(t *testing.T) {
	fx := newFixture(t, withMetrics(32, 2))
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() { fx.postAsync(fmt.Sprintf("tok-noscope-%02d-0123456789", i), "wait") })
	}
	require.Eventually(t, func() bool {
		return value(fx.scrape(t), metrics.Namespace+"_tool_calls_in_flight", nil) == 2
	}, 5*time.Second, 10*time.Millisecond, "two calls with two unnamed tokens are running")
	for i := 2; i < 12; i++ {
		assert.Contains(t, fx.callText(t, fmt.Sprintf("Bearer tok-noscope-%02d-0123456789", i), "peek_thing", nil),
			"busy: you already have 2 tool calls running, the limit per user", "token %d shares the limit", i)
	}
	assert.Equal(t, `{"login":"bob"}`, fx.callText(t, "Bearer "+tokBob, "whoami", nil), "other users are served")
	fx.release()
	wg.Wait()
}

// TestFairnessUnnamedTokensBehindProxy: behind a proxy named in
// TrustedProxies, unnamed tokens count by the address it forwards, so two
// clients behind it do not share one limit, and a client cannot pick its
// address by sending X-Forwarded-For itself.
func TestFairnessUnnamedTokensBehindProxy(t *testing.T) {
	fx := newFixture(t, func(o *Options) {
		withMetrics(32, 2)(o)
		o.TrustedProxies, _ = ParseTrustedProxies([]string{"127.0.0.1"})
	})
	from := func(addr string) map[string]string { return map[string]string{"X-Forwarded-For": "6.6.6.6, " + addr} }
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() { fx.postAsync(fmt.Sprintf("tok-noscope-%02d-0123456789", i), "wait", from("192.0.2.1")) })
	}
	require.Eventually(t, func() bool {
		return value(fx.scrape(t), metrics.Namespace+"_tool_calls_in_flight", nil) == 2
	}, 5*time.Second, 10*time.Millisecond)
	assert.Contains(t, fx.callText(t, "Bearer tok-noscope-02-0123456789", "peek_thing", from("192.0.2.1")), "busy: you already have 2")
	assert.Equal(t, `"done"`, fx.callText(t, "Bearer tok-noscope-03-0123456789", "peek_thing", from("192.0.2.2")), "another client behind the proxy")
	fx.release()
	wg.Wait()
}

// TestCompletionsCountAgainstLimits is issue 18's item 4: completions
// reached the forge outside every concurrency limit. A lookup now takes a
// slot like a tool call: a user at their limit is refused, others are not.
func TestCompletionsCountAgainstLimits(t *testing.T) {
	fx := newFixture(t, func(o *Options) {
		withMetrics(32, 1)(o)
		o.Defs = append(o.Defs, operation.All()...)
	})
	fx.forge.JSON("GET /api/v1/user/repos", http.StatusOK, []map[string]any{{"name": "r", "owner": map[string]any{"login": "alice"}}})
	complete := func(token string) map[string]any {
		resp, body := fx.post(t, rpc{Method: "completion/complete", Auth: "Bearer " + token, Params: map[string]any{
			"ref": map[string]any{"type": "ref/resource", "uri": "forgejo://{owner}/{repo}"}, "argument": map[string]any{"name": "owner", "value": ""}}})
		require.Equal(t, http.StatusOK, resp.StatusCode, body)
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(body), &m), body)
		return m
	}
	done := make(chan struct{})
	go func() { fx.postAsync(tokAlice, "wait"); close(done) }()
	require.Eventually(t, func() bool {
		return value(fx.scrape(t), metrics.Namespace+"_tool_calls_in_flight", nil) == 1
	}, 5*time.Second, 10*time.Millisecond)
	m := complete(tokAlice)
	require.Contains(t, m, "error", m)
	assert.Contains(t, m["error"].(map[string]any)["message"], "busy: you already have 1 tool calls running, the limit per user")
	assert.Contains(t, complete(tokBob), "result", "bob's completion is served")
	assert.Equal(t, 1.0, value(fx.scrape(t), metrics.Namespace+"_busy_refusals_total", map[string]string{"limit": "identity"}))
	fx.release()
	<-done
	assert.Contains(t, complete(tokAlice), "result")
}

// postAsync calls tool name as token without the test's require (it runs
// on another goroutine) and returns the status and body.
func (fx *fixture) postAsync(token, name string, headers ...map[string]string) (int, string) {
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + name + `","arguments":{}}}`
	req, err := http.NewRequest(http.MethodPost, fx.http.URL+EndpointPath, strings.NewReader(body))
	if err != nil {
		return 0, err.Error()
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	req.Header.Set("Authorization", "Bearer "+token)
	for _, h := range headers {
		for k, v := range h {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}
