package testforge

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"
)

// NewUser creates an ordinary user of the test's own (the suite's users
// carry every other test's work, so a test that lists "mine" needs a
// fresh one) and returns the forge acting as it: Token is an all-scopes
// token of the new user, User its login. The user and all it owns are
// deleted when the test ends. Creating users needs a site admin's token,
// which f.Token is.
func (f *Forge) NewUser(t testing.TB) *Forge {
	t.Helper()
	login := "u" + randomHex(t, 6) // letters and digits: valid on every forge
	password := randomHex(t, 16)
	var raw []byte
	status := f.Do(t, http.MethodPost, "/admin/users", map[string]any{
		"username": login, "email": login + "@example.invalid", "password": password,
		"must_change_password": false}, &raw)
	expect(t, "creating user", status, http.StatusCreated, raw)
	t.Cleanup(func() { f.remove(t, "user "+login, "/admin/users/"+url.PathEscape(login)+"?purge=true") })
	basic := func(r *http.Request) { r.SetBasicAuth(login, password) }
	status = f.do(t, http.MethodPost, "/users/"+url.PathEscape(login)+"/tokens",
		map[string]any{"name": "all", "scopes": []string{"all"}}, &raw, basic)
	expect(t, "creating the new user's token", status, http.StatusCreated, raw)
	var tok struct {
		SHA1 string `json:"sha1"`
	}
	if err := json.Unmarshal(raw, &tok); err != nil || tok.SHA1 == "" {
		t.Fatalf("testforge: created token has no sha1 (%v): %s", err, raw)
	}
	u := f.WithToken(tok.SHA1)
	u.User, u.Password = login, password
	return u
}
