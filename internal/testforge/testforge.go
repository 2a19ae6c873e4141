// Package testforge connects live tests to the throw-away forge that scripts/test-forge starts on
// 127.0.0.1, and offers a few raw-HTTP helpers for test set-up (repos, issues, comments, tokens).
//
// The helpers speak to /api/v1 with net/http only, on purpose: set-up code must not depend on the
// SDK or on the project code under test.
//
// The forge is described by environment variables that `scripts/test-forge start` prints and
// `scripts/test-forge run -- CMD` exports:
//
//	FORGEJO_TEST_URL       http://127.0.0.1:PORT (must be a loopback address)
//	FORGEJO_TEST_TOKEN     all-scopes token of FORGEJO_TEST_USER (a site admin)
//	FORGEJO_TEST_USER      forgeadmin
//	FORGEJO_TEST_PASSWORD  its password (basic auth, e.g. to create tokens)
//	FORGEJO_TEST_TOKEN2    all-scopes token of FORGEJO_TEST_USER2 (an ordinary user)
//	FORGEJO_TEST_USER2     forgeuser2
//	FORGEJO_TEST_FLAVOUR   Gitea, or Forgejo when FORGEJO_TEST_FORGEJO_BIN brought one
//	FORGEJO_TEST_FORGE_VERSION  the version its /api/v1/version answers
//
// The last two are for people and scripts; tests ask the forge itself (Identify).
//
// Without FORGEJO_TEST_URL and FORGEJO_TEST_TOKEN, live tests skip, except under CI (env CI set) or
// with FORGEJO_TEST_REQUIRE set, where they fail so that a misconfigured run cannot pass silently.
package testforge

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"
)

// Environment variable names; see the package doc.
const (
	EnvURL      = "FORGEJO_TEST_URL"
	EnvToken    = "FORGEJO_TEST_TOKEN"
	EnvUser     = "FORGEJO_TEST_USER"
	EnvPassword = "FORGEJO_TEST_PASSWORD"
	EnvToken2   = "FORGEJO_TEST_TOKEN2"
	EnvUser2    = "FORGEJO_TEST_USER2"
	EnvRequire  = "FORGEJO_TEST_REQUIRE"
)

const hint = "run the live tests via `make test` or `scripts/test-forge run -- go test ./...`"

// Forge is a live test forge. Copy it and change Token to act with another token, e.g. Token2.
type Forge struct {
	URL      string // base URL without trailing slash, e.g. http://127.0.0.1:3000
	Token    string // token used by Do
	User     string // owner of Token; site admin
	Password string // password of User
	Token2   string // token of User2
	User2    string // an ordinary, non-admin user
}

// client never follows redirects: Do reports the status the forge sent, and a token is never
// forwarded anywhere else.
var client = &http.Client{
	Timeout:       60 * time.Second,
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// Get returns the live forge from the environment. It skips the test when none is configured, or
// fails it when a forge is required (CI or FORGEJO_TEST_REQUIRE set). It fails on a URL that is not
// on a loopback address: tests only ever talk to the local throw-away forge.
func Get(t testing.TB) *Forge {
	t.Helper()
	f := &Forge{
		URL:      strings.TrimRight(os.Getenv(EnvURL), "/"),
		Token:    os.Getenv(EnvToken),
		User:     os.Getenv(EnvUser),
		Password: os.Getenv(EnvPassword),
		Token2:   os.Getenv(EnvToken2),
		User2:    os.Getenv(EnvUser2),
	}
	if f.URL == "" || f.Token == "" {
		if os.Getenv("CI") != "" || os.Getenv(EnvRequire) != "" {
			t.Fatalf("live forge required but %s/%s are not set: %s", EnvURL, EnvToken, hint)
		}
		t.Skipf("no live forge (%s/%s not set): %s", EnvURL, EnvToken, hint)
	}
	if err := checkLoopback(f.URL); err != nil {
		t.Fatalf("refusing %s=%q: %v", EnvURL, f.URL, err)
	}
	if f.User == "" {
		f.User = "forgeadmin"
	}
	if f.User2 == "" {
		f.User2 = "forgeuser2"
	}
	return f
}

// checkLoopback accepts only http(s) URLs whose host is localhost or a loopback IP. It does not
// resolve names: a name that might point elsewhere is refused.
func checkLoopback(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return err
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("scheme %q is not http or https", u.Scheme)
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("host %q is not a loopback address", host)
}

// Do sends a JSON request to the API with Authorization: token f.Token and returns the status.
// path is relative to /api/v1 (e.g. "/repos/o/r/issues?state=all"). body, when not nil, is sent as
// JSON. out, when not nil, receives the response: a *[]byte gets the raw body whatever the status;
// anything else is decoded from JSON on a 2xx status with a non-empty body. Transport and decoding
// errors fail the test.
func (f *Forge) Do(t testing.TB, method, path string, body, out any) int {
	t.Helper()
	return f.do(t, method, path, body, out, func(r *http.Request) {
		r.Header.Set("Authorization", "token "+f.Token)
	})
}

func (f *Forge) do(t testing.TB, method, path string, body, out any, auth func(*http.Request)) int {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatalf("testforge: encoding %s %s body: %v", method, path, err)
		}
		rd = bytes.NewReader(b)
	}
	// Not t.Context(): it is cancelled before Cleanup functions run, and cleanups call Do.
	req, err := http.NewRequest(method, f.URL+"/api/v1/"+strings.TrimPrefix(path, "/"), rd)
	if err != nil {
		t.Fatalf("testforge: %s %s: %v", method, path, err)
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	auth(req)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("testforge: %s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("testforge: %s %s: reading body: %v", method, path, err)
	}
	switch o := out.(type) {
	case nil:
	case *[]byte:
		*o = data
	default:
		if resp.StatusCode/100 == 2 && len(bytes.TrimSpace(data)) > 0 {
			if err := json.Unmarshal(data, out); err != nil {
				t.Fatalf("testforge: %s %s: decoding %d response: %v\n%s", method, path, resp.StatusCode, err, data)
			}
		}
	}
	return resp.StatusCode
}

// expect fails the test unless got == want, showing the response body.
func expect(t testing.TB, what string, got, want int, raw []byte) {
	t.Helper()
	if got != want {
		t.Fatalf("testforge: %s: status %d, want %d: %s", what, got, want, raw)
	}
}

// NewRepo creates a fresh private repository owned by f.User, initialised with a README on branch
// main, and deletes it when the test ends. Its name is unique: "t-", the sanitised test name and a
// random suffix.
func (f *Forge) NewRepo(t testing.TB) (owner, name string) {
	t.Helper()
	return f.newRepo(t, "t-", true)
}

// NewPublicRepo is NewRepo for a public repository ("pub-…"): where strangers may write issues and
// comments, the ground of the trust tests.
func (f *Forge) NewPublicRepo(t testing.TB) (owner, name string) {
	t.Helper()
	return f.newRepo(t, "pub-", false)
}

func (f *Forge) newRepo(t testing.TB, prefix string, private bool) (owner, name string) {
	t.Helper()
	req := map[string]any{
		"name":           prefix + sanitize(t.Name(), 40) + "-" + randomHex(t, 4),
		"description":    "test repo of " + t.Name(),
		"private":        private,
		"auto_init":      true,
		"default_branch": "main",
	}
	var raw []byte
	status := f.Do(t, http.MethodPost, "/user/repos", req, &raw)
	expect(t, "creating repo", status, http.StatusCreated, raw)
	var repo struct {
		Name  string `json:"name"`
		Owner struct {
			Login string `json:"login"`
		} `json:"owner"`
	}
	if err := json.Unmarshal(raw, &repo); err != nil {
		t.Fatalf("testforge: decoding created repo: %v", err)
	}
	owner, name = repo.Owner.Login, repo.Name
	t.Cleanup(func() { f.remove(t, "repo "+owner+"/"+name, repoPath(owner, name)) })
	return owner, name
}

// remove deletes what path names, at the end of a test: gone already is
// fine, any other failure is the test's error (a leak the next run trips on).
func (f *Forge) remove(t testing.TB, what, path string) {
	t.Helper()
	var raw []byte
	status := f.Do(t, http.MethodDelete, path, nil, &raw)
	if status != http.StatusNoContent && status != http.StatusNotFound {
		t.Errorf("testforge: deleting %s: status %d: %s", what, status, raw)
	}
}

// NewIssue opens an issue and returns its index (number).
func (f *Forge) NewIssue(t testing.TB, owner, repo, title, body string) int64 {
	t.Helper()
	var raw []byte
	status := f.Do(t, http.MethodPost, repoPath(owner, repo)+"/issues",
		map[string]any{"title": title, "body": body}, &raw)
	expect(t, "creating issue", status, http.StatusCreated, raw)
	var issue struct {
		Number int64 `json:"number"`
	}
	if err := json.Unmarshal(raw, &issue); err != nil || issue.Number <= 0 {
		t.Fatalf("testforge: created issue has no number (%v): %s", err, raw)
	}
	return issue.Number
}

// NewComment adds a comment to issue index and returns the comment id.
func (f *Forge) NewComment(t testing.TB, owner, repo string, index int64, body string) int64 {
	t.Helper()
	var raw []byte
	status := f.Do(t, http.MethodPost, fmt.Sprintf("%s/issues/%d/comments", repoPath(owner, repo), index),
		map[string]any{"body": body}, &raw)
	expect(t, "creating comment", status, http.StatusCreated, raw)
	var c struct {
		ID int64 `json:"id"`
	}
	if err := json.Unmarshal(raw, &c); err != nil || c.ID <= 0 {
		t.Fatalf("testforge: created comment has no id (%v): %s", err, raw)
	}
	return c.ID
}

// TokenWithScopes creates a token of f.User with only the given scopes (e.g. "read:issue",
// "write:repository") and returns it; the token is deleted when the test ends. Creating tokens
// needs basic auth, so f.Password must be set.
func (f *Forge) TokenWithScopes(t testing.TB, scopes ...string) string {
	t.Helper()
	if f.Password == "" {
		t.Fatalf("testforge: TokenWithScopes needs %s", EnvPassword)
	}
	if scopes == nil {
		scopes = []string{} // JSON [] rather than null
	}
	basic := func(r *http.Request) { r.SetBasicAuth(f.User, f.Password) }
	tokensPath := "/users/" + url.PathEscape(f.User) + "/tokens"
	var raw []byte
	status := f.do(t, http.MethodPost, tokensPath,
		map[string]any{"name": "t-" + sanitize(t.Name(), 40) + "-" + randomHex(t, 4), "scopes": scopes},
		&raw, basic)
	expect(t, "creating token", status, http.StatusCreated, raw)
	var tok struct {
		ID   int64  `json:"id"`
		SHA1 string `json:"sha1"`
	}
	if err := json.Unmarshal(raw, &tok); err != nil || tok.SHA1 == "" {
		t.Fatalf("testforge: created token has no sha1 (%v): %s", err, raw)
	}
	t.Cleanup(func() {
		var raw []byte
		status := f.do(t, http.MethodDelete, fmt.Sprintf("%s/%d", tokensPath, tok.ID), nil, &raw, basic)
		if status != http.StatusNoContent && status != http.StatusNotFound {
			t.Errorf("testforge: deleting token %d: status %d: %s", tok.ID, status, raw)
		}
	})
	return tok.SHA1
}

func repoPath(owner, repo string) string {
	return "/repos/" + url.PathEscape(owner) + "/" + url.PathEscape(repo)
}

// sanitize keeps a test name usable in repository and token names: ASCII letters, digits and '_'
// stay, every other run of characters becomes one '-', and the result is at most maxLen bytes.
func sanitize(s string, maxLen int) string {
	var b strings.Builder
	dash := false
	for _, r := range s {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_'
		switch {
		case ok:
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	out := b.String()
	if len(out) > maxLen {
		out = out[:maxLen]
	}
	out = strings.Trim(out, "-")
	if out == "" {
		out = "test"
	}
	return out
}

func randomHex(t testing.TB, n int) string {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatalf("testforge: random: %v", err)
	}
	return hex.EncodeToString(b)
}
