package repoadmin_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

func TestTopics(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/topics", 200, map[string]any{"topics": []any{"go", "mcp"}})
	f.JSON("PUT /api/v1/repos/o/r/topics", 204, nil)
	f.JSON("PUT /api/v1/repos/o/r/topics/forge", 204, nil)
	f.JSON("DELETE /api/v1/repos/o/r/topics/forge", 204, nil)

	isErr, text := call(t, f, "list_repo_topics", map[string]any{})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"topics":["go","mcp"]}`, text)

	isErr, text = call(t, f, "set_repo_topics", map[string]any{"topics": []any{"Go", "mcp"}})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"topics":["go","mcp"]}`, text, "the list the forge kept, read back")
	put := f.RequestsTo("PUT", "/api/v1/repos/o/r/topics")
	require.Len(t, put, 1)
	assert.JSONEq(t, `{"topics":["go","mcp"]}`, string(put[0].Body), "lowercased as the forge stores them")

	isErr, text = call(t, f, "add_repo_topic", map[string]any{"topic": "Forge"})
	require.False(t, isErr, text)
	assert.Len(t, f.RequestsTo("PUT", "/api/v1/repos/o/r/topics/forge"), 1)

	isErr, text = call(t, f, "remove_repo_topic", map[string]any{"topic": "forge"})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"deleted":true,"topic":"forge"}`, text)

	sent := len(f.Requests())
	for _, tc := range []struct {
		name string
		args map[string]any
		want string
	}{
		{"add_repo_topic", map[string]any{"topic": "-lead"}, "must contain letters, digits, dashes and dots"},
		{"add_repo_topic", map[string]any{"topic": strings.Repeat("a", 36)}, "must contain letters"},
		{"set_repo_topics", map[string]any{"topics": []any{"a b"}}, "item 0 must contain"},
		{"set_repo_topics", map[string]any{"topics": manyTopics(26)}, "topics has 26 items; a repository has at most 25 topics"},
	} {
		isErr, text := call(t, f, tc.name, tc.args)
		assert.True(t, isErr, text)
		assert.Contains(t, text, tc.want)
	}
	assert.Len(t, f.Requests(), sent, "refused before sending")
}

func manyTopics(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = "t" + strings.Repeat("x", i%5) + string(rune('a'+i))
	}
	return out
}
