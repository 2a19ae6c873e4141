package cmd

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCLIWrongForgeURL: a FORGEJO_URL that is not the forge's root says
// what is wrong with it and what to set (issue 28, B.3), where the first
// call used to read "the token's user not found (404)" or a raw Go error.
func TestCLIWrongForgeURL(t *testing.T) {
	forge := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/api/v1/version":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"version":"13.0.5+gitea-1.22.0"}`))
		default: // a repository's web pages, and the API under them
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	defer forge.Close()
	hostPort := strings.TrimPrefix(forge.URL, "http://")
	for _, tt := range []struct {
		name, url string
		code      int
		err       string
	}{
		{"a repository's page", forge.URL + "/alice/rocket", 1,
			"the forge URL " + forge.URL + "/alice/rocket is not a Forgejo or Gitea root: its /api/v1/version answered 404 Not Found (text/html), " +
				"where a forge answers its version; " + forge.URL + " answers as Forgejo 13.0.5+gitea-1.22.0: set it"},
		{"https on a plain HTTP port", "https://" + hostPort, 1,
			"the forge URL https://" + hostPort + " is wrong: the server there speaks plain HTTP, not HTTPS; use http://" + hostPort},
		{"no scheme", hostPort, 2, `forge URL "` + hostPort + `" has no scheme: use http://` + hostPort},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := runMain(t, map[string]string{"FORGEJO_URL": tt.url, "FORGEJO_ACCESS_TOKEN": "t0k3n"}, "", "--cli", "get_my_user_info")
			assert.Equal(t, tt.code, r.code, r.err)
			assert.Contains(t, r.out+r.err, tt.err)
			assert.NotContains(t, r.out+r.err, "not found (404)")
		})
	}
}
