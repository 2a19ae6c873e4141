package main

import (
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/nginx"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
)

// TestE2EBehindDecodingProxy runs the route-hardening cases through a real
// nginx in front of the live forge (`proxy_pass http://forge/;`, which
// decodes %2F and folds ".." before passing a request on), with the built
// server pointed at nginx. It first shows the proxy really does reach
// another repository through an escaped "../../victim", then calls every
// tool whose argument lands in a route with climbing values: each is
// refused, and every resource the values aim at still exists. Values that
// may hold '/' still work through the proxy.
func TestE2EBehindDecodingProxy(t *testing.T) {
	f := testforge.Get(t)
	proxy := nginx.Start(t, f.URL)
	owner, repo := f.NewRepo(t)
	_, victim := f.NewRepo(t)

	// The premise: through this proxy, an escaped slash climbs.
	requireClimb(t, f, proxy.URL, owner, repo, victim, "%2F")

	// What the hostile values aim at, and the values that must keep working.
	repoAPI := fmt.Sprintf("/repos/%s/%s", owner, repo)
	for _, rule := range []string{"main", "release/*"} {
		require.Equal(t, http.StatusCreated, f.Do(t, "POST", repoAPI+"/branch_protections", map[string]any{"rule_name": rule}, nil))
	}
	for _, title := range []string{"Home", "a/b"} {
		require.Equal(t, http.StatusCreated, f.Do(t, "POST", repoAPI+"/wiki/new",
			map[string]any{"title": title, "content_base64": base64.StdEncoding.EncodeToString([]byte("page " + title))}, nil))
	}
	require.Equal(t, http.StatusCreated, f.Do(t, "POST", repoAPI+"/releases", map[string]any{"tag_name": "v1.0", "title": "v1.0"}, nil))
	// Gitea routes a rule name's '/' as a separator; Forgejo 10 routes one
	// segment, which only the direct %2F form (no proxy here) reaches.
	slashRule := repoAPI + "/branch_protections/release/*"
	slashRouted := !f.Lacks(t, "GET", slashRule)
	if !slashRouted {
		slashRule = repoAPI + "/branch_protections/release%2F%2A"
	}
	intact := func(t *testing.T) {
		t.Helper()
		for _, p := range []string{
			fmt.Sprintf("/repos/%s/%s", owner, victim), repoAPI,
			repoAPI + "/branch_protections/main", slashRule,
			repoAPI + "/wiki/page/Home", repoAPI + "/wiki/page/a%2Fb",
			repoAPI + "/releases/tags/v1.0", repoAPI + "/contents/README.md",
		} {
			assert.Equal(t, http.StatusOK, f.Do(t, "GET", p, nil, nil), "%s still exists", p)
		}
	}
	intact(t)

	cs := connect(t, protocolVersions[0], []string{"FORGEJO_URL=" + proxy.URL, "FORGEJO_ACCESS_TOKEN=" + f.Token})
	call := func(name string, args map[string]any) (bool, string) {
		t.Helper()
		full := map[string]any{"owner": owner, "repo": repo}
		for k, v := range args {
			full[k] = v
		}
		res, text := callTool(t, cs, name, full)
		return res.IsError, text
	}

	// Values that may hold '/' work through the proxy.
	isErr, text := call("get_branch_protection", map[string]any{"rule_name": "release/*"})
	if slashRouted {
		require.False(t, isErr, text)
		assert.Contains(t, text, `"rule_name":"release/*"`)
	} else {
		require.True(t, isErr, text)
		assert.Contains(t, text, "a name with '/' cannot be sent as one safely")
	}
	isErr, text = call("get_wiki_page", map[string]any{"page_name": "Home"})
	require.False(t, isErr, text)
	assert.Contains(t, text, `"content":"page Home"`)
	// A wiki page whose name has '/' answers only to %2F, which this proxy
	// decodes: it is refused with a reason, not sent.
	isErr, text = call("get_wiki_page", map[string]any{"page_name": "a/b"})
	require.True(t, isErr, text)
	assert.Contains(t, text, "html_url")
	logged := strings.Count(proxy.AccessLog(), "\n")
	isErr, text = call("get_file_content", map[string]any{"path": "README.md"})
	require.False(t, isErr, text)
	// nginx writes the line once the response is out, so the client can be
	// a moment ahead of the log.
	require.Eventually(t, func() bool { return strings.Count(proxy.AccessLog(), "\n") > logged },
		5*time.Second, 20*time.Millisecond, "nginx logs each request as it passes")

	// Every tool whose argument lands in a route, with values that climb
	// to the victim repository through this proxy.
	cases := []struct {
		tool, param string
		args        map[string]any
	}{
		{"get_branch_protection", "rule_name", nil},
		{"edit_branch_protection", "rule_name", map[string]any{"required_approvals": 1}},
		{"delete_branch_protection", "rule_name", nil},
		{"create_branch_protection", "rule_name", nil},
		{"get_release_by_tag", "tag", nil},
		{"delete_release_by_tag", "tag", nil},
		{"get_wiki_page", "page_name", nil},
		{"update_wiki_page", "page_name", map[string]any{"content": "x"}},
		{"delete_wiki_page", "page_name", nil},
		{"get_wiki_revisions", "page_name", nil},
		{"get_file_content", "path", nil},
		{"list_repo_contents", "path", nil},
		{"create_file", "path", map[string]any{"content": "eA==", "message": "m"}},
		{"update_file", "path", map[string]any{"content": "eA==", "sha": "0000000000000000000000000000000000000000", "message": "m"}},
		{"delete_file", "path", map[string]any{"sha": "0000000000000000000000000000000000000000", "message": "m"}},
		{"dispatch_workflow", "workflow", map[string]any{"ref": "main"}},
	}
	var values []string
	for depth := 1; depth <= 5; depth++ {
		climb := strings.Repeat("../", depth) + victim
		values = append(values, climb, "a/"+climb, strings.ReplaceAll(climb, "/", `\`))
	}
	// A value with a literal "%2F" travels as %252F: one segment after
	// this proxy, a separator after a second one
	// (TestE2EThroughTwoDecodingProxies), so it is refused too.
	values = append(values, "..%2F..%2F"+victim)
	refused := 0
	for _, c := range cases {
		// nginx's access log is read settled once per tool, before and
		// after all its hostile values (settling per call was 45 s of
		// waiting); a line between names what went through.
		sent := settledLines(proxy)
		for _, v := range values {
			args := map[string]any{c.param: v}
			for k, x := range c.args {
				args[k] = x
			}
			isErr, text := call(c.tool, args)
			assert.True(t, isErr, "%s %s=%q was not refused: %s", c.tool, c.param, v, text)
			assert.NotContains(t, text, "cannot reach the forge", "%s %s=%q", c.tool, c.param, v)
		}
		if after := settledLines(proxy); after != sent {
			lines := strings.Split(strings.TrimSuffix(proxy.AccessLog(), "\n"), "\n")
			t.Errorf("%s: requests went through the proxy with hostile values:\n%s", c.tool, strings.Join(lines[min(sent, len(lines)):], "\n"))
			continue
		}
		refused += len(values)
	}
	t.Logf("%d hostile calls through nginx, %d refused before any request (nginx's access log unchanged)", len(cases)*len(values), refused)
	intact(t)
}

// requireClimb is the premise of a proxy test: through proxyURL, a GET of
// the branch protection "..{slash}..{slash}{victim}" of owner/repo, sent
// with the escaped slash as given, answers the repository victim.
func requireClimb(t *testing.T, f *testforge.Forge, proxyURL, owner, repo, victim, slash string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/api/v1/repos/%s/%s/branch_protections/..%s..%s%s",
		proxyURL, owner, repo, slash, slash, victim), nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "token "+f.Token)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, "the proxy decodes %s and folds '..': %s", slash, body)
	require.Contains(t, string(body), `"name":"`+victim+`"`, "a branch protection route reached the repository %s", victim)
}

// settledLines counts the lines of nginx's access log once no new line has
// come for 80 ms (at most 3 s): nginx writes a line after the response is
// out, so a request that just finished may not be logged yet.
func settledLines(p *nginx.Proxy) int {
	n := strings.Count(p.AccessLog(), "\n")
	for start, still := time.Now(), time.Now(); time.Since(start) < 3*time.Second; {
		time.Sleep(30 * time.Millisecond)
		m := strings.Count(p.AccessLog(), "\n")
		if m != n {
			n, still = m, time.Now()
		} else if time.Since(still) >= 80*time.Millisecond {
			break
		}
	}
	return n
}
