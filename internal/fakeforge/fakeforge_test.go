package fakeforge

import (
	"context"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestResetServesAnotherCall: after Reset a fake has no route and no
// request of the call before, and the clients Fresh returns each probe the
// forge anew but share their connections, so a loop of calls opens one.
func TestResetServesAnotherCall(t *testing.T) {
	s := New(t)
	var mu sync.Mutex
	conns := map[string]bool{} // the clients' addresses: one per connection
	ctx := context.Background()
	for i, version := range []string{"13.0.5", "1.26.0"} {
		if i > 0 {
			s.Reset()
			assert.Empty(t, s.Requests(), "Reset forgets the requests")
		}
		s.Handle("GET /api/v1/version", func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			conns[r.RemoteAddr] = true
			mu.Unlock()
			WriteJSON(w, http.StatusOK, map[string]string{"version": version})
		})
		c := s.Fresh()
		f, err := c.Forge(ctx)
		require.NoError(t, err)
		assert.Equal(t, version, f.Version, "a Fresh client probes the forge again")
		reqs := s.Requests()
		require.Len(t, reqs, 1)
		assert.Equal(t, "/api/v1/version", reqs[0].Path)
	}

	s.Reset()
	_, err := s.Fresh().Forge(ctx)
	require.Error(t, err, "Reset forgets the routes: /version answers 404")
	mu.Lock()
	defer mu.Unlock()
	assert.Len(t, conns, 1, "Fresh clients share one connection")
}
