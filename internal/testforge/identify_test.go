package testforge

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRouterNotFoundOnRecordedAnswers classifies every 404 the real Forgejo 13.0.5 and Gitea 1.26.0
// sent during the recorded sweep. Which routes those forges lack is known independently of the
// answers: Forgejo 13.0.5 has none of the six run-level Actions routes the sweep called (issue 19),
// and both sweeps probed one made-up route; every other 404 came from a route that exists.
func TestRouterNotFoundOnRecordedAnswers(t *testing.T) {
	madeUp := regexp.MustCompile(`/no-such-route$`)
	lacking := map[string]*regexp.Regexp{
		"forgejo-13.0.5.jsonl": regexp.MustCompile(`/actions/(runs/\d+/(jobs|artifacts|cancel)|jobs/\d+/logs|artifacts(/\d+)?)(\?|$)`),
		"gitea-1.26.0.jsonl":   madeUp,
	}
	for file, routes := range lacking {
		t.Run(file, func(t *testing.T) {
			fh, err := os.Open(filepath.Join("..", "fakeforge", "recorded", file))
			require.NoError(t, err)
			defer fh.Close()
			sc := bufio.NewScanner(fh)
			sc.Buffer(make([]byte, 1<<20), 16<<20)
			var router, object int
			for sc.Scan() {
				var ex struct {
					Seq          int    `json:"seq"`
					Tool         string `json:"tool"`
					Path         string `json:"path"`
					Status       int    `json:"status"`
					ResponseBody *struct {
						Text *string         `json:"text"`
						JSON json.RawMessage `json:"json"`
					} `json:"response_body"`
				}
				require.NoError(t, json.Unmarshal(sc.Bytes(), &ex))
				if ex.Status != http.StatusNotFound {
					continue
				}
				var body []byte
				switch {
				case ex.ResponseBody == nil:
				case ex.ResponseBody.Text != nil:
					body = []byte(*ex.ResponseBody.Text)
				default:
					body = ex.ResponseBody.JSON
				}
				want := routes.MatchString(ex.Path) || madeUp.MatchString(ex.Path)
				assert.Equal(t, want, routerNotFound(ex.Status, body), "seq %d %s %s: %s", ex.Seq, ex.Tool, ex.Path, body)
				if want {
					router++
				} else {
					object++
				}
			}
			require.NoError(t, sc.Err())
			assert.Positive(t, router, "the recording has router 404s")
			assert.Positive(t, object, "the recording has 404s of existing routes")
		})
	}
}

// TestIdentifyAndLacks runs Identify and Lacks against stand-ins for each flavour's answers.
func TestIdentifyAndLacks(t *testing.T) {
	for _, tc := range []struct {
		name, version string
		forgejoRoute  bool
		want          Identity
		wantMajor     int
	}{
		{"gitea", "1.26.0", false, Identity{Version: "1.26.0"}, 1},
		{"forgejo release", "13.0.5+gitea-1.22.0", true, Identity{Forgejo: true, Version: "13.0.5+gitea-1.22.0"}, 13},
		{"forgejo dev", "10.0.0-dev-456d05998231+gitea-1.22.0", true, Identity{Forgejo: true, Version: "10.0.0-dev-456d05998231+gitea-1.22.0"}, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch {
				case r.URL.Path == "/api/v1/version":
					assert.Equal(t, "token tok", r.Header.Get("Authorization"))
					_, _ = w.Write([]byte(`{"version":"` + tc.version + `"}`))
				case r.URL.Path == "/api/forgejo/v1/version" && tc.forgejoRoute:
					_, _ = w.Write([]byte(`{"version":"` + tc.version + `"}`))
				case r.URL.Path == "/api/v1/repos/o/r/issues/9":
					w.Header().Set("Content-Type", "application/json;charset=utf-8")
					w.WriteHeader(http.StatusNotFound)
					_, _ = w.Write([]byte(`{"message":"issue does not exist"}`))
				default:
					http.NotFound(w, r)
				}
			}))
			defer srv.Close()
			f := &Forge{URL: srv.URL, Token: "tok"}
			id := f.Identify(t)
			assert.Equal(t, tc.want, id)
			assert.Equal(t, tc.wantMajor, id.Major())
			assert.Equal(t, tc.forgejoRoute && tc.wantMajor <= 10, id.ForgejoUpTo(10))
			assert.Equal(t, map[bool]string{true: "Forgejo", false: "Gitea"}[tc.forgejoRoute]+" "+tc.version, id.String())
			assert.False(t, f.Lacks(t, http.MethodGet, "/repos/o/r/issues/9"), "a missing object on a route that exists")
			assert.True(t, f.Lacks(t, http.MethodGet, "/repos/o/r/actions/runs/1/jobs"), "a route the router does not know")
		})
	}
}

// TestLiveIdentify checks Identify against what scripts/test-forge says it started.
func TestLiveIdentify(t *testing.T) {
	f := Get(t)
	id := f.Identify(t)
	require.NotEmpty(t, id.Version)
	if flavour := os.Getenv("FORGEJO_TEST_FLAVOUR"); flavour != "" {
		assert.Equal(t, flavour, id.Flavour(), "the flavour scripts/test-forge reported")
		assert.Equal(t, os.Getenv("FORGEJO_TEST_FORGE_VERSION"), id.Version, "the version scripts/test-forge reported")
	}
	assert.Positive(t, id.Major(), id.String())
	assert.True(t, f.Lacks(t, http.MethodGet, "/repos/"+f.User+"/no-such-repo/no-such-route"))
	assert.False(t, f.Lacks(t, http.MethodGet, "/repos/"+f.User+"/no-such-repo"), "a missing repository is not a missing route")
}
