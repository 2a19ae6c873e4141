// Package metrics holds the server's Prometheus metrics and serves them in
// the text exposition format.
//
// Label values are chosen from fixed sets the server owns: tool names
// (from its own definitions), outcomes, limits, HTTP methods and status
// classes. Nothing a caller sends, no token, login or repository name, ever
// becomes a label value, so a scrape leaks no one's activity by name.
package metrics

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Namespace prefixes every metric name.
const Namespace = "forgejo_mcp"

// Metrics is one server's metrics, on a registry of its own (no global
// state: tests and several servers in one process do not collide).
type Metrics struct {
	reg *prometheus.Registry

	calls        *prometheus.CounterVec
	callDuration *prometheus.HistogramVec
	inFlight     prometheus.Gauge
	busy         *prometheus.CounterVec
	forge        *prometheus.CounterVec
	forgeLatency *prometheus.HistogramVec
	identity     *prometheus.CounterVec
}

// Latency buckets, in seconds: forge calls take milliseconds to a few
// seconds; the top bucket reaches the default call deadline (30 s).
var buckets = []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}

// New returns a Metrics with every series registered, the Go runtime's and
// the process's (RSS, CPU, file descriptors) included.
func New() *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.calls = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: Namespace, Name: "tool_calls_total",
		Help: "Tool calls by tool and outcome (ok, error, busy).",
	}, []string{"tool", "outcome"})
	m.callDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Namespace: Namespace, Name: "tool_call_duration_seconds",
		Help: "Duration of tool calls admitted past the concurrency limits, by tool.", Buckets: buckets,
	}, []string{"tool"})
	m.inFlight = prometheus.NewGauge(prometheus.GaugeOpts{
		Namespace: Namespace, Name: "tool_calls_in_flight",
		Help: "Tool calls running now.",
	})
	m.busy = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: Namespace, Name: "busy_refusals_total",
		Help: "Tool calls refused by a concurrency limit: server (--max-concurrent) or identity (--max-concurrent-per-user).",
	}, []string{"limit"})
	m.forge = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: Namespace, Name: "forge_requests_total",
		Help: "HTTP requests to the forge by method and status class (2xx, 3xx, 4xx, 5xx, or error when no response came).",
	}, []string{"method", "class"})
	m.forgeLatency = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Namespace: Namespace, Name: "forge_request_duration_seconds",
		Help: "Duration of HTTP requests to the forge, to the response headers, by status class.", Buckets: buckets,
	}, []string{"class"})
	m.identity = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: Namespace, Name: "identity_cache_lookups_total",
		Help: "Token lookups in the identity cache: hit (answered from the cache) or miss (checked with the forge).",
	}, []string{"result"})
	m.reg.MustRegister(m.calls, m.callDuration, m.inFlight, m.busy, m.forge, m.forgeLatency, m.identity,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	// Series that exist from the start, so a dashboard sees zeros rather
	// than gaps.
	for _, l := range []string{"server", "identity"} {
		m.busy.WithLabelValues(l)
	}
	for _, r := range []string{"hit", "miss"} {
		m.identity.WithLabelValues(r)
	}
	return m
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// CallStarted implements tool.Observer.
func (m *Metrics) CallStarted(string) { m.inFlight.Inc() }

// CallDone implements tool.Observer. A refused call has no duration worth
// a histogram sample: it is counted, not timed.
func (m *Metrics) CallDone(tool, outcome string, took time.Duration) {
	m.calls.WithLabelValues(tool, outcome).Inc()
	if outcome == "busy" {
		return
	}
	m.inFlight.Dec()
	m.callDuration.WithLabelValues(tool).Observe(took.Seconds())
}

// Busy implements tool.Observer.
func (m *Metrics) Busy(_, limit string) { m.busy.WithLabelValues(limit).Inc() }

// ForgeRequest records one forge HTTP request (forgejo.RequestObserver).
func (m *Metrics) ForgeRequest(method string, status int, took time.Duration) {
	class := "error"
	if status >= 100 && status < 600 {
		class = strconv.Itoa(status/100) + "xx"
	}
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
	default:
		method = "other"
	}
	m.forge.WithLabelValues(method, class).Inc()
	m.forgeLatency.WithLabelValues(class).Observe(took.Seconds())
}

// IdentityLookup records an identity cache lookup.
func (m *Metrics) IdentityLookup(hit bool) {
	if hit {
		m.identity.WithLabelValues("hit").Inc()
		return
	}
	m.identity.WithLabelValues("miss").Inc()
}
