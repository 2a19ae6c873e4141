package testforge

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// NewOrg creates an organisation of the test's own, owned by f.User, and
// returns its name: "o-", the test's name in lower-case letters and
// digits, and a random suffix (valid on every forge: no two non-letters in
// a row, none at either end). When the test ends its repositories are
// deleted (a forge refuses to delete an organisation that still owns some,
// and a test may fork or create into it) and then the organisation.
func (f *Forge) NewOrg(t testing.TB) string {
	t.Helper()
	name := "o-" + orgWord(t.Name(), 24) + "-" + randomHex(t, 4)
	var raw []byte
	status := f.Do(t, http.MethodPost, "/orgs", map[string]any{"username": name}, &raw)
	expect(t, "creating organisation "+name, status, http.StatusCreated, raw)
	t.Cleanup(func() {
		var repos []struct {
			Name string `json:"name"`
		}
		f.Do(t, http.MethodGet, "/orgs/"+url.PathEscape(name)+"/repos?limit=50", nil, &repos)
		for _, r := range repos {
			f.Do(t, http.MethodDelete, repoPath(name, r.Name), nil, nil)
		}
		f.remove(t, "organisation "+name, "/orgs/"+url.PathEscape(name))
	})
	return name
}

// NewOrgRepo creates a private repository called name in org, initialised
// with a README on branch main, and deletes it when the test ends.
func (f *Forge) NewOrgRepo(t testing.TB, org, name string) {
	t.Helper()
	var raw []byte
	status := f.Do(t, http.MethodPost, "/orgs/"+url.PathEscape(org)+"/repos", map[string]any{
		"name": name, "private": true, "auto_init": true, "default_branch": "main"}, &raw)
	expect(t, "creating repo "+org+"/"+name, status, http.StatusCreated, raw)
	t.Cleanup(func() { f.remove(t, "repo "+org+"/"+name, repoPath(org, name)) })
}

// orgWord keeps a test name usable inside a user or organisation name:
// lower-case ASCII letters and digits, every other run of characters one
// '-', no '-' at either end, at most maxLen bytes.
func orgWord(s string, maxLen int) string {
	return sanitize(strings.ToLower(strings.ReplaceAll(s, "_", "-")), maxLen)
}
