// Package metrics holds the server's Prometheus metrics and serves them in
// the text exposition format.
//
// Label values are chosen from fixed sets the server owns: tool names
// (from its own definitions), outcomes, limits, HTTP methods and status
// classes. Nothing a caller sends, no token, login or repository name, ever
// becomes a label value, so a scrape leaks no one's activity by name.
package metrics

import (
	"bytes"
	"net/http"
	"strconv"
	"time"
)

// Namespace prefixes every metric name.
const Namespace = "forgejo_mcp"

// Metrics is one server's metrics (no global state: tests and several
// servers in one process do not collide).
type Metrics struct {
	calls        *family
	callDuration *family
	inFlight     *family
	busy         *family
	forge        *family
	forgeLatency *family
	identity     *family
}

// Latency buckets, in seconds: forge calls take milliseconds to a few
// seconds; the top bucket reaches the default call deadline (30 s).
func buckets() []float64 { return []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30} }

// New returns a Metrics with every series registered; the Go runtime's
// and the process's (RSS, CPU, file descriptors) are read at each scrape.
func New() *Metrics {
	ns := Namespace + "_"
	m := &Metrics{
		calls: newFamily(ns+"tool_calls_total", "Tool calls by tool and outcome (ok, error, busy).", counter, nil, "tool", "outcome"),
		callDuration: newFamily(ns+"tool_call_duration_seconds",
			"Duration of tool calls admitted past the concurrency limits, by tool.", histogram, buckets(), "tool"),
		inFlight: newFamily(ns+"tool_calls_in_flight", "Tool calls running now.", gauge, nil),
		busy: newFamily(ns+"busy_refusals_total",
			"Tool calls refused by a concurrency limit: server (--max-concurrent) or identity (--max-concurrent-per-user).", counter, nil, "limit"),
		forge: newFamily(ns+"forge_requests_total",
			"HTTP requests to the forge by method and status class (2xx, 3xx, 4xx, 5xx, or error when no response came).", counter, nil, "method", "class"),
		forgeLatency: newFamily(ns+"forge_request_duration_seconds",
			"Duration of HTTP requests to the forge, to the response headers, by status class.", histogram, buckets(), "class"),
		identity: newFamily(ns+"identity_cache_lookups_total",
			"Token lookups in the identity cache: hit (answered from the cache) or miss (checked with the forge).", counter, nil, "result"),
	}
	// Series that exist from the start, so a dashboard sees zeros rather
	// than gaps.
	m.inFlight.touch()
	for _, l := range []string{"server", "identity"} {
		m.busy.touch(l)
	}
	for _, r := range []string{"hit", "miss"} {
		m.identity.touch(r)
	}
	return m
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		var b bytes.Buffer
		for _, f := range []*family{m.calls, m.callDuration, m.inFlight, m.busy, m.forge, m.forgeLatency, m.identity} {
			f.write(&b)
		}
		writeRuntime(&b)
		writeProcess(&b)
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		_, _ = w.Write(b.Bytes())
	})
}

// CallStarted implements tool.Observer.
func (m *Metrics) CallStarted(string) { m.inFlight.add(1) }

// CallDone implements tool.Observer. A refused call has no duration worth
// a histogram sample: it is counted, not timed.
func (m *Metrics) CallDone(tool, outcome string, took time.Duration) {
	m.calls.add(1, tool, outcome)
	if outcome == "busy" {
		return
	}
	m.inFlight.add(-1)
	m.callDuration.observe(took.Seconds(), tool)
}

// Busy implements tool.Observer.
func (m *Metrics) Busy(_, limit string) { m.busy.add(1, limit) }

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
	m.forge.add(1, method, class)
	m.forgeLatency.observe(took.Seconds(), class)
}

// IdentityLookup records an identity cache lookup.
func (m *Metrics) IdentityLookup(hit bool) {
	if hit {
		m.identity.add(1, "hit")
		return
	}
	m.identity.add(1, "miss")
}
