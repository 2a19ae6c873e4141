package forgejo

import (
	"net/http"
	"time"
)

// RequestObserver is told about each forge HTTP request: its method, its
// status (0 when no response came) and how long it took. It is given
// nothing else: a route names repositories and users, which must not
// become metric labels.
type RequestObserver func(method string, status int, took time.Duration)

// Observed returns a copy of hc whose transport reports every request to
// observe. The underlying transport (and its connection pool) is shared.
// A nil observe returns hc.
func Observed(hc *http.Client, observe RequestObserver) *http.Client {
	if observe == nil {
		return hc
	}
	cp := *hc
	next := cp.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	cp.Transport = &observedTransport{next: next, observe: observe}
	return &cp
}

type observedTransport struct {
	next    http.RoundTripper
	observe RequestObserver
}

func (t *observedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	start := time.Now()
	resp, err := t.next.RoundTrip(req)
	status := 0
	if err == nil {
		status = resp.StatusCode
	}
	t.observe(req.Method, status, time.Since(start))
	return resp, err
}
