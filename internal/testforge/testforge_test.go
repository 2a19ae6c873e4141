package testforge

import (
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// fakeTB records Skipf/Fatalf instead of ending the real test, so Get's decisions can be checked
// without a forge. Like the real ones, both stop the calling goroutine.
type fakeTB struct {
	testing.TB
	skipped, fatal string
}

func (f *fakeTB) Helper() {}
func (f *fakeTB) Skipf(format string, args ...any) {
	f.skipped = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.fatal = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// callGet runs Get on a fakeTB in its own goroutine, as Skipf/Fatalf end it.
func callGet(t *testing.T) (*Forge, *fakeTB) {
	ft := &fakeTB{TB: t}
	var f *Forge
	done := make(chan struct{})
	go func() {
		defer close(done)
		f = Get(ft)
	}()
	<-done
	return f, ft
}

func TestGetWithoutForge(t *testing.T) {
	for _, tc := range []struct {
		name, ci, require string
		wantFatal         bool
	}{
		{name: "local", wantFatal: false},
		{name: "ci", ci: "true", wantFatal: true},
		{name: "required", require: "1", wantFatal: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(EnvURL, "")
			t.Setenv(EnvToken, "")
			t.Setenv("CI", tc.ci)
			t.Setenv(EnvRequire, tc.require)
			f, ft := callGet(t)
			require.Nil(t, f)
			msg := ft.skipped
			if tc.wantFatal {
				require.Empty(t, ft.skipped)
				msg = ft.fatal
			} else {
				require.Empty(t, ft.fatal)
			}
			require.Contains(t, msg, "scripts/test-forge run -- go test ./...")
			require.Contains(t, msg, "make test")
		})
	}
}

func TestGetRefusesNonLoopback(t *testing.T) {
	t.Setenv(EnvURL, "http://192.0.2.1:3000")
	t.Setenv(EnvToken, "x")
	f, ft := callGet(t)
	require.Nil(t, f)
	require.Contains(t, ft.fatal, "not a loopback address")
}

func TestGetReadsEnv(t *testing.T) {
	t.Setenv(EnvURL, "http://127.0.0.1:3000/")
	t.Setenv(EnvToken, "tok")
	t.Setenv(EnvUser, "forgeadmin")
	t.Setenv(EnvPassword, "pw")
	t.Setenv(EnvToken2, "tok2")
	t.Setenv(EnvUser2, "forgeuser2")
	f, ft := callGet(t)
	require.Empty(t, ft.fatal+ft.skipped)
	require.Equal(t, &Forge{
		URL: "http://127.0.0.1:3000", Token: "tok", User: "forgeadmin", Password: "pw",
		Token2: "tok2", User2: "forgeuser2",
	}, f)
}

func TestCheckLoopback(t *testing.T) {
	for raw, ok := range map[string]bool{
		"http://127.0.0.1:3000":     true,
		"http://127.3.4.5":          true,
		"https://localhost:8443/x":  true,
		"http://[::1]:3000":         true,
		"http://10.0.0.1:3000":      false,
		"http://192.168.1.2":        false,
		"http://example.com":        false,
		"http://localhost.evil.com": false,
		"ftp://127.0.0.1":           false,
		"127.0.0.1:3000":            false,
	} {
		err := checkLoopback(raw)
		if ok {
			require.NoError(t, err, raw)
		} else {
			require.Error(t, err, raw)
		}
	}
}

func TestSanitize(t *testing.T) {
	require.Equal(t, "TestFoo-sub_case-1", sanitize("TestFoo/sub_case#1", 40))
	require.Equal(t, "a-b", sanitize("a//..b", 40))
	require.Equal(t, "test", sanitize("///", 40))
	require.Equal(t, "abc", sanitize("abc-/d", 4)) // cut, then no trailing dash
	require.Len(t, sanitize(strings.Repeat("x", 100), 40), 40)
}

// TestLive checks the helpers against the live forge.
func TestLive(t *testing.T) {
	f := Get(t)

	var version struct {
		Version string `json:"version"`
	}
	require.Equal(t, http.StatusOK, f.Do(t, http.MethodGet, "/version", nil, &version))
	require.NotEmpty(t, version.Version)
	// "development" would make forgejo-sdk treat the server as ancient: the build must set it.
	require.NotEqual(t, "development", version.Version)

	owner, repo := f.NewRepo(t)
	require.Equal(t, f.User, owner)
	require.True(t, strings.HasPrefix(repo, "t-TestLive-"), repo)

	var info struct {
		Private       bool   `json:"private"`
		Empty         bool   `json:"empty"`
		DefaultBranch string `json:"default_branch"`
	}
	require.Equal(t, http.StatusOK, f.Do(t, http.MethodGet, repoPath(owner, repo), nil, &info))
	require.True(t, info.Private)
	require.False(t, info.Empty, "auto_init should have made a first commit")
	require.Equal(t, "main", info.DefaultBranch)

	index := f.NewIssue(t, owner, repo, "first issue", "issue body")
	require.Equal(t, int64(1), index)
	cid := f.NewComment(t, owner, repo, index, "a comment")
	require.Positive(t, cid)

	var comment struct {
		Body string `json:"body"`
	}
	require.Equal(t, http.StatusOK,
		f.Do(t, http.MethodGet, fmt.Sprintf("%s/issues/comments/%d", repoPath(owner, repo), cid), nil, &comment))
	require.Equal(t, "a comment", comment.Body)

	// The second user is an ordinary user: the private repo is hidden from them.
	require.NotEmpty(t, f.Token2)
	user2 := *f
	user2.Token = f.Token2
	var me struct {
		Login   string `json:"login"`
		IsAdmin bool   `json:"is_admin"`
	}
	require.Equal(t, http.StatusOK, user2.Do(t, http.MethodGet, "/user", nil, &me))
	require.Equal(t, f.User2, me.Login)
	require.False(t, me.IsAdmin)
	require.Equal(t, http.StatusNotFound, user2.Do(t, http.MethodGet, repoPath(owner, repo), nil, nil))

	// A read-only token can read the issue but not open one.
	limited := *f
	limited.Token = f.TokenWithScopes(t, "read:repository", "read:issue")
	require.NotEqual(t, f.Token, limited.Token)
	require.Equal(t, http.StatusOK,
		limited.Do(t, http.MethodGet, fmt.Sprintf("%s/issues/%d", repoPath(owner, repo), index), nil, nil))
	var raw []byte
	status := limited.Do(t, http.MethodPost, repoPath(owner, repo)+"/issues",
		map[string]any{"title": "should fail"}, &raw)
	require.Equal(t, http.StatusForbidden, status, string(raw))

	// A wrong token is rejected outright.
	bad := *f
	bad.Token = strings.Repeat("0", 40)
	require.Equal(t, http.StatusUnauthorized, bad.Do(t, http.MethodGet, "/user", nil, nil))
}

// TestLiveCleanup checks that repos and tokens made in a subtest are gone once it ends, and that
// two repos of one test get different names.
func TestLiveCleanup(t *testing.T) {
	f := Get(t)
	var owner, repo, repo2, token string
	t.Run("sub", func(t *testing.T) {
		owner, repo = f.NewRepo(t)
		_, repo2 = f.NewRepo(t)
		token = f.TokenWithScopes(t, "read:user")
		limited := *f
		limited.Token = token
		require.Equal(t, http.StatusOK, limited.Do(t, http.MethodGet, "/user", nil, nil))
	})
	require.NotEqual(t, repo, repo2)
	require.Equal(t, http.StatusNotFound, f.Do(t, http.MethodGet, repoPath(owner, repo), nil, nil))
	require.Equal(t, http.StatusNotFound, f.Do(t, http.MethodGet, repoPath(owner, repo2), nil, nil))
	deleted := *f
	deleted.Token = token
	require.Equal(t, http.StatusUnauthorized, deleted.Do(t, http.MethodGet, "/user", nil, nil))
}

func TestOrgWord(t *testing.T) {
	for in, want := range map[string]string{
		"TestLiveRepoTeams":               "testliverepoteams",
		"TestLive_Hooks/org__kind":        "testlive-hooks-org-kind",
		"/_Test":                          "test",
		"":                                "test",
		"TestAVeryLongNameIndeed/sub-one": "testaverylongnameindeed",
	} {
		require.Equal(t, want, orgWord(in, 24), in)
	}
}
