package operation_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// routeCategories are the token scope categories Forgejo and Gitea check
// on an API route (a swagger path), as their routers/api/v1/api.go groups
// them: the first rule whose prefix matches wins, "" is the repository's
// own name segment. Routes of no category (/version) need no scope.
var routeCategories = []struct {
	prefix     string
	categories []string
}{
	{"/version", nil},
	{"/licenses", nil},
	{"/gitignore/templates", nil},
	{"/label/templates", nil},
	{"/notifications", []string{"notification"}},
	{"/repos/issues/search", []string{"issue"}},
	{"/repos/search", []string{"repository"}},
	{"/repos/{owner}/{repo}/notifications", []string{"notification"}},
	{"/repos/{owner}/{repo}/issues", []string{"issue"}},
	{"/repos/{owner}/{repo}/labels", []string{"issue"}},
	{"/repos/{owner}/{repo}/milestones", []string{"issue"}},
	{"/repos/", []string{"repository"}},
	{"/user/repos", []string{"repository"}},
	{"/users/{username}/repos", []string{"repository"}},
	{"/user/orgs", []string{"user", "organization"}},
	{"/users/{username}/orgs", []string{"user", "organization"}},
	{"/user", []string{"user"}},
	{"/users/", []string{"user"}},
	{"/orgs", []string{"organization"}},
	{"/teams/", []string{"organization"}},
	{"/packages/", []string{"package"}},
	{"/admin/", []string{"admin"}},
}

// routeScopes returns the scopes a request needs: read: for GET and HEAD,
// write: otherwise, of each category of its route.
func routeScopes(method, route string) ([]string, bool) {
	level := "write:"
	if method == "GET" || method == "HEAD" {
		level = "read:"
	}
	// The drift specs name path parameters as each flavour does; only
	// their positions matter here.
	norm := normaliseRoute(route)
	for _, r := range routeCategories {
		if strings.HasPrefix(norm, r.prefix) {
			var out []string
			for _, c := range r.categories {
				out = append(out, level+c)
			}
			return out, true
		}
	}
	return nil, false
}

// normaliseRoute names the first two parameters of a /repos/ or the
// first of a /users/ route as routeCategories does.
func normaliseRoute(route string) string {
	seg := strings.Split(route, "/")
	if len(seg) > 3 && seg[1] == "repos" && strings.HasPrefix(seg[2], "{") {
		seg[2], seg[3] = "{owner}", "{repo}"
	}
	if len(seg) > 2 && seg[1] == "users" && strings.HasPrefix(seg[2], "{") {
		seg[2] = "{username}"
	}
	return strings.Join(seg, "/")
}

// tokenScopes: the scopes the README states for each toolset
// (operation.ToolsetScopes) are exactly those its tools' routes need, as
// every tool is driven against both flavours' fake forges: a new route
// cannot add a scope the README does not name.
func tokenScopes(t *testing.T, dv driven) {
	need := map[string]map[string]map[string]bool{} // toolset → "read"/"all" → scope
	add := func(ts, kind string, scopes []string) {
		if need[ts] == nil {
			need[ts] = map[string]map[string]bool{"read": {}, "all": {}}
		}
		for _, s := range scopes {
			need[ts][kind][s] = true
		}
	}
	byName := map[string]tool.Def{}
	for _, d := range operation.All() {
		byName[d.Name] = d
		add(d.Toolset.ID, "all", nil)
	}
	for _, c := range dv.calls() {
		if c.Probe {
			continue
		}
		route := c.Gitea
		if route == "" {
			route = c.Forgejo
		}
		if route == "" {
			continue // a route neither flavour has: TestDrift/RoutesExistOrAreDeclared reports it
		}
		scopes, ok := routeScopes(c.Method, route)
		if !assert.True(t, ok, "%s: %s %s has no scope rule", c.Tool, c.Method, route) {
			continue
		}
		d := byName[c.Tool]
		add(d.Toolset.ID, "all", scopes)
		if d.Annotations.ReadOnly {
			add(d.Toolset.ID, "read", scopes)
		}
	}
	var got []string
	for ts, kinds := range need {
		got = append(got, fmt.Sprintf("%s: read %v, all %v", ts, keys(kinds["read"]), operation.Strongest(keys(kinds["all"]))))
	}
	var want []string
	for _, s := range operation.ToolsetScopes() {
		want = append(want, fmt.Sprintf("%s: read %v, all %v", s.Toolset, s.Read, s.All))
	}
	sort.Strings(got)
	sort.Strings(want)
	assert.Equal(t, strings.Join(want, "\n"), strings.Join(got, "\n"), "operation.ToolsetScopes differs from what the routes need")
	assert.Len(t, want, len(tool.ToolsetsOf(operation.All())), "every toolset once")
}

func keys(m map[string]bool) []string {
	out := []string{}
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
