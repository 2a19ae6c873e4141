package forgejo_test

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

func TestObservedReportsStatusAndFailure(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/missing" {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write([]byte("ok"))
	}))
	var mu sync.Mutex
	var seen []string
	var statuses []int
	hc := forgejo.Observed(srv.Client(), func(method string, status int, took time.Duration) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, method)
		statuses = append(statuses, status)
		assert.GreaterOrEqual(t, took, time.Duration(0))
	})
	for _, p := range []string{"/", "/missing"} {
		resp, err := hc.Get(srv.URL + p)
		require.NoError(t, err)
		resp.Body.Close()
	}
	srv.Close()
	_, err := hc.Get(srv.URL + "/")
	require.Error(t, err)
	assert.Equal(t, []string{"GET", "GET", "GET"}, seen)
	assert.Equal(t, []int{200, 404, 0}, statuses)
	assert.Same(t, srv.Client(), forgejo.Observed(srv.Client(), nil) /* nil observer: unchanged */)
}
