package complete

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

func fake(t *testing.T) *fakeforge.Server {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/user/repos", 200, []map[string]any{
		{"name": "r", "owner": map[string]any{"login": "alice"}},
		{"name": "s", "owner": map[string]any{"login": "team"}},
		{"name": "t", "owner": map[string]any{"login": "alice"}}})
	f.JSON("GET /api/v1/users/alice/repos", 200, []map[string]any{{"name": "rocket"}, {"name": "Radar"}, {"name": "web"}})
	f.JSON("GET /api/v1/repos/alice/rocket/git/refs", 200, []map[string]any{
		{"ref": "refs/heads/main"}, {"ref": "refs/heads/feature/x"}, {"ref": "refs/tags/v1.0"}, {"ref": "refs/pull/1/head"}})
	f.JSON("GET /api/v1/repos/alice/rocket/git/refs/tags", 200, []map[string]any{{"ref": "refs/tags/v1.0"}, {"ref": "refs/tags/v2.0"}})
	f.JSON("GET /api/v1/repos/alice/rocket/contents/", 200, []map[string]any{
		{"path": "README.md", "type": "file"}, {"path": "src", "type": "dir"}})
	f.JSON("GET /api/v1/repos/alice/rocket/contents/src", 200, []map[string]any{
		{"path": "src/main.go", "type": "file"}, {"path": "src/main_test.go", "type": "file"}, {"path": "src/util.go", "type": "file"}})
	f.JSON("GET /api/v1/repos/alice/rocket/wiki/pages", 200, []map[string]any{{"title": "Home", "sub_url": "Home"}, {"title": "How to", "sub_url": "How-to"}})
	f.JSON("GET /api/v1/repos/alice/rocket/commits", 200, []map[string]any{{"sha": "abc123"}, {"sha": "abd456"}, {"sha": "fff000"}})
	f.JSON("GET /api/v1/repos/alice/rocket/issues", 200, []map[string]any{{"number": 12}, {"number": 11}, {"number": 3}})
	return f
}

func completer(c *forgejo.Client) *Completer {
	return New(Options{Client: func(context.Context) (*forgejo.Client, error) { return c, nil }})
}

func TestComplete(t *testing.T) {
	f := fake(t)
	c := completer(f.Client())
	repo := map[string]string{"owner": "alice", "repo": "rocket"}
	tests := []struct {
		ref, arg, value string
		ctx             map[string]string
		want            []string
	}{
		{"forgejo://{owner}/{repo}", "owner", "", nil, []string{"alice", "team"}},
		{"forgejo://{owner}/{repo}", "owner", "T", nil, []string{"team"}},
		{"forgejo://{owner}/{repo}", "repo", "r", map[string]string{"owner": "alice"}, []string{"Radar", "rocket"}},
		{"forgejo://{owner}/{repo}", "repo", "r", nil, []string{}},
		{"forgejo://{owner}/{repo}/files/{+path}{?ref}", "ref", "", repo, []string{"main", "feature/x", "v1.0"}},
		{"forgejo://{owner}/{repo}/files/{+path}{?ref}", "path", "", repo, []string{"README.md", "src/"}},
		{"forgejo://{owner}/{repo}/files/{+path}{?ref}", "path", "src/main", repo, []string{"src/main.go", "src/main_test.go"}},
		{"forgejo://{owner}/{repo}/issues/{index}", "index", "1", repo, []string{"12", "11"}},
		{"forgejo://{owner}/{repo}/commits/{sha}", "sha", "ab", repo, []string{"abc123", "abd456"}},
		{"forgejo://{owner}/{repo}/wiki/{page}", "page", "ho", repo, []string{"Home", "How-to"}},
		{"forgejo://{owner}/{repo}/issues/{index}", "attachment_id", "1", repo, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.arg+"="+tt.value, func(t *testing.T) {
			got, err := c.CompleteResourceArgument(context.Background(), tt.ref,
				mcp.CompleteArgument{Name: tt.arg, Value: tt.value}, mcp.CompleteContext{Arguments: tt.ctx})
			require.NoError(t, err)
			assert.Equal(t, tt.want, got.Values)
			assert.Equal(t, len(tt.want), got.Total)
			assert.False(t, got.HasMore)
		})
	}
	got, err := c.CompletePromptArgument(context.Background(), "draft_release_notes",
		mcp.CompleteArgument{Name: "since_tag", Value: "v2"}, mcp.CompleteContext{Arguments: repo})
	require.NoError(t, err)
	assert.Equal(t, []string{"v2.0"}, got.Values)

	got, err = c.CompletePromptArgument(context.Background(), "test_prompt_with_arguments",
		mcp.CompleteArgument{Name: "arg1", Value: "x"}, mcp.CompleteContext{})
	require.NoError(t, err)
	assert.Equal(t, []string{}, got.Values, "an unknown prompt or argument has no values, never an error")
}

func TestCompleteIndexKind(t *testing.T) {
	f := fake(t)
	c := completer(f.Client())
	repo := mcp.CompleteContext{Arguments: map[string]string{"owner": "alice", "repo": "rocket"}}
	_, _ = c.CompleteResourceArgument(context.Background(), "forgejo://{owner}/{repo}/pulls/{index}", mcp.CompleteArgument{Name: "index"}, repo)
	_, _ = c.CompletePromptArgument(context.Background(), "triage_issue", mcp.CompleteArgument{Name: "index"}, repo)
	var types []string
	for _, r := range f.Requests() {
		types = append(types, r.RawQuery)
	}
	require.Len(t, types, 2)
	assert.Contains(t, types[0], "type=pulls")
	assert.Contains(t, types[1], "type=issues")
	assert.Contains(t, types[1], "state=open")
}

// TestCompleteCachedPerIdentity: one forge call per lookup and identity
// within the TTL; another identity never sees the first one's values.
func TestCompleteCachedPerIdentity(t *testing.T) {
	f := fake(t)
	alice, bob := f.Client(), f.Client()
	who := alice
	c := New(Options{Client: func(context.Context) (*forgejo.Client, error) { return who, nil }})
	ask := func() []string {
		got, err := c.CompleteResourceArgument(context.Background(), "forgejo://{owner}/{repo}", mcp.CompleteArgument{Name: "owner"}, mcp.CompleteContext{})
		require.NoError(t, err)
		return got.Values
	}
	ask()
	ask()
	assert.Len(t, f.Requests(), 1, "the second answer comes from the cache")
	who = bob
	ask()
	assert.Len(t, f.Requests(), 2, "another identity has its own entry")

	now := time.Now()
	c.cache.now = func() time.Time { return now.Add(TTL + time.Second) }
	who = alice
	ask()
	assert.Len(t, f.Requests(), 3, "an expired entry is fetched again")
}

func TestCacheBounded(t *testing.T) {
	cl := &forgejo.Client{}
	e := entry{values: []string{strings.Repeat("v", 100)}}
	one := cacheKey{cl, "0", ""}.cost(e)
	c := newCache(3*one, time.Minute)
	for i := range 5 {
		c.put(cacheKey{cl, fmt.Sprint(i), ""}, e)
	}
	assert.Equal(t, 3, c.len())
	assert.LessOrEqual(t, c.bytes, 3*one, "bounded in bytes")
	_, ok := c.get(cacheKey{cl, "0", ""})
	assert.False(t, ok, "the oldest entries were evicted")
	v, ok := c.get(cacheKey{cl, "4", ""})
	assert.True(t, ok)
	assert.Equal(t, e.values, v.values)
	c.put(cacheKey{cl, "big", ""}, entry{values: []string{strings.Repeat("x", int(4*one))}})
	_, ok = c.get(cacheKey{cl, "big", ""})
	assert.False(t, ok, "an entry larger than the whole cache is not kept")
}

// TestCacheExpiresEagerly is issue 18's item 4: entries stayed (179 MB of
// heap) long past their TTL until the cache was next used. They go when
// they expire, used or not.
func TestCacheExpiresEagerly(t *testing.T) {
	c := newCache(1<<20, 50*time.Millisecond)
	cl := &forgejo.Client{}
	c.put(cacheKey{cl, "a", ""}, entry{values: []string{"x"}})
	time.Sleep(20 * time.Millisecond)
	c.put(cacheKey{cl, "b", ""}, entry{values: []string{"y"}})
	require.Eventually(t, func() bool { return c.len() == 1 }, time.Second, 5*time.Millisecond, "the first goes at its time")
	require.Eventually(t, func() bool { return c.len() == 0 }, time.Second, 5*time.Millisecond, "then the second, with nobody asking")
	c.mu.Lock()
	assert.Nil(t, c.timer, "no timer while empty")
	assert.Zero(t, c.bytes)
	c.mu.Unlock()
}

func TestCompleteBoundedAndFailures(t *testing.T) {
	values := make([]string, 150)
	for i := range values {
		values[i] = fmt.Sprintf("repo%03d", i)
	}
	got := match(values, "repo") // prefixes are lowered before
	assert.Len(t, got.Values, MaxValues)
	assert.Equal(t, 150, got.Total)
	assert.True(t, got.HasMore)

	f := fakeforge.New(t) // every route 404s
	got, err := completer(f.Client()).CompleteResourceArgument(context.Background(), "forgejo://{owner}/{repo}",
		mcp.CompleteArgument{Name: "owner"}, mcp.CompleteContext{})
	require.NoError(t, err)
	assert.Equal(t, []string{}, got.Values)

	noID := New(Options{Client: func(context.Context) (*forgejo.Client, error) { return nil, errors.New("no identity") }})
	got, err = noID.CompleteResourceArgument(context.Background(), "x", mcp.CompleteArgument{Name: "owner"}, mcp.CompleteContext{})
	require.NoError(t, err)
	assert.Equal(t, []string{}, got.Values)
	got, err = New(Options{}).complete(context.Background(), mcp.CompleteArgument{Name: "owner"}, mcp.CompleteContext{}, "issues")
	require.NoError(t, err)
	assert.Equal(t, []string{}, got.Values)
}

// TestValues: the shell's entry point gives the same values as MCP's, an
// index of a pull request tool asks for pull requests, and an argument it
// does not know gives nothing.
func TestValues(t *testing.T) {
	f := fake(t)
	c := completer(f.Client())
	repo := map[string]string{"owner": "alice", "repo": "rocket"}
	ctx := context.Background()
	assert.Equal(t, []string{"Radar", "rocket"}, c.Values(ctx, "repo", "r", map[string]string{"owner": "alice"}, false))
	assert.Equal(t, []string{"v1.0", "v2.0"}, c.Values(ctx, "tag", "v", repo, false))
	assert.Equal(t, []string{"12", "11"}, c.Values(ctx, "index", "1", repo, true))
	assert.Contains(t, f.Requests()[len(f.Requests())-1].RawQuery, "type=pulls")
	assert.Empty(t, c.Values(ctx, "title", "", repo, false))
}
