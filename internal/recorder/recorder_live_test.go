package recorder_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/recorder"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
)

// Tools called through the recorder in front of the live forge: every
// request reaches the forge and is recorded as the replay reads it, under
// the tool's name and whose token it carried, and neither token appears.
func TestLiveRecorderRecordsToolCalls(t *testing.T) {
	f := testforge.Get(t)
	target, err := url.Parse(f.URL)
	require.NoError(t, err)
	var out bytes.Buffer
	rec := recorder.New(target, &out, 1, map[string]string{f.Token: "admin", f.Token2: "user2"})
	proxy := httptest.NewServer(rec)
	t.Cleanup(proxy.Close)
	via := *f
	via.URL = proxy.URL

	calls := []struct {
		tool    string
		forge   *testforge.Forge
		args    map[string]any
		isError bool
		auth    string
	}{
		{"get_my_user_info", &via, map[string]any{}, false, "admin"},
		{"list_user_repos", via.WithToken(f.Token2), map[string]any{"user": f.User, "limit": 1.0}, false, "user2"},
		{"get_repo", &via, map[string]any{"owner": f.User, "repo": "no-such-repo-recorded"}, true, "admin"},
	}
	for i, c := range calls {
		n := i + 1
		rec.SetTool(c.tool, &n)
		res := c.forge.Call(t, operation.All(), c.tool, c.args)
		assert.Equal(t, c.isError, res.IsError, c.tool)
	}
	require.NotContains(t, out.String(), f.Token)
	require.NotContains(t, out.String(), f.Token2)

	var lines []fakeforge.Exchange
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var e fakeforge.Exchange
		require.NoError(t, json.Unmarshal(sc.Bytes(), &e), sc.Text())
		lines = append(lines, e)
	}
	byTool := map[string][]fakeforge.Exchange{}
	for i, e := range lines {
		assert.Equal(t, i+1, e.Seq)
		require.NotNil(t, e.Call, "seq %d", e.Seq)
		byTool[e.Tool] = append(byTool[e.Tool], e)
	}
	for _, c := range calls {
		got := byTool[c.tool]
		require.NotEmpty(t, got, "%s sent nothing through the recorder", c.tool)
		last := got[len(got)-1]
		assert.Equal(t, c.auth, last.Auth, c.tool)
		assert.Equal(t, c.isError, last.Status/100 != 2, "%s: %d", c.tool, last.Status)
	}
	// Gitea 1.26 builds absolute URLs from the request's Host, which the
	// recorder passes through; Forgejo from its ROOT_URL, which is why
	// scripts/record-sweep points that at the proxy.
	origin := map[bool]string{false: proxy.URL, true: f.URL}[f.Identify(t).Forgejo]
	me, ok := byTool["get_my_user_info"][len(byTool["get_my_user_info"])-1].JSON()
	require.True(t, ok)
	assert.Contains(t, me.(map[string]any)["html_url"], origin)
	paged := byTool["list_user_repos"][len(byTool["list_user_repos"])-1]
	assert.True(t, strings.HasPrefix(paged.Path, "/api/v1/users/"+f.User+"/repos?"), paged.Path)
	assert.NotEmpty(t, paged.Headers["x-total-count"], "paging headers are kept")
}
