package tool_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// encoded is s as JSON encodes it in results (no HTML escaping), quotes
// dropped.
func encoded(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(strings.TrimSpace(b.String()), `"`)[1:]
}

func TestJSONLenIsTheEncodedLength(t *testing.T) {
	var all strings.Builder
	for c := 0; c < 256; c++ {
		all.WriteByte(byte(c))
	}
	for _, s := range []string{"", "plain", all.String(), "\x1b[31mred\x1b[0m", "<a href=\"x\">&</a>", "é€😀\u2028\u2029",
		"bad \xff\xfe utf-8", strings.Repeat("\t\"\\\n", 100)} {
		assert.Equal(t, len(encoded(s)), tool.JSONLen(s), "%q", s)
	}
}

func TestFitPrefix(t *testing.T) {
	s := "line one\nline two\nline three\n"
	assert.Equal(t, len(s), tool.FitPrefix(s, 1000))
	assert.Equal(t, len("line one\nline two\n"), tool.FitPrefix(s, 22), "cut at the last line end that fits")
	assert.Equal(t, 3, tool.FitPrefix("abcdef", 3), "no line end: whole runes")
	assert.Equal(t, 1, tool.FitPrefix("a\x1b[0m", 6), "an escape that does not fit is left out")
	assert.Equal(t, 0, tool.FitPrefix("😀", 3))
	for _, budget := range []int{0, 1, 7, 100, 1000} {
		s := strings.Repeat("\x1b[31mé\"x\n", 50)
		n := tool.FitPrefix(s, budget)
		assert.LessOrEqual(t, tool.JSONLen(s[:n]), budget)
	}
}

func TestJSONFitsLongStrings(t *testing.T) {
	type item struct {
		ID   int    `json:"id"`
		Body string `json:"body"`
	}
	items := []item{{1, strings.Repeat("a", 40000)}, {2, strings.Repeat("<\x1b", 20000)}, {3, "short"}}
	res, err := tool.JSON(tool.ListPage[item]{Items: items, Page: 1})
	require.NoError(t, err)
	text := res.Content[0].(mcp.TextContent).Text
	assert.LessOrEqual(t, len(text), tool.MaxResultBytes)
	assert.Greater(t, len(text), tool.MaxResultBytes-2000, "cut no more than needed")
	var got tool.ListPage[item]
	require.NoError(t, json.Unmarshal([]byte(text), &got))
	require.Len(t, got.Items, 3)
	assert.Equal(t, "short", got.Items[2].Body)
	assert.Regexp(t, `^a+…\[\d+ more bytes cut to fit the result\]$`, got.Items[0].Body)
	assert.Contains(t, got.Items[1].Body, "more bytes cut to fit the result")
	assert.Equal(t, json.RawMessage(text), res.StructuredContent)

	res, err = tool.JSON(map[string]string{"html": "<a>&</a>"})
	require.NoError(t, err)
	assert.Equal(t, `{"html":"<a>&</a>"}`, res.Content[0].(mcp.TextContent).Text, "no HTML escaping: six bytes for one")
}

func TestJSONFitsLongLists(t *testing.T) {
	type item struct {
		Name string   `json:"name"`
		Tags []string `json:"tags"`
	}
	items := make([]item, 1000)
	for i := range items {
		items[i] = item{Name: strings.Repeat("n", 90), Tags: []string{"a", "b"}}
	}
	res, err := tool.JSON(tool.ListPage[item]{Items: items, Page: 1})
	require.NoError(t, err)
	text := res.Content[0].(mcp.TextContent).Text
	assert.LessOrEqual(t, len(text), tool.MaxResultBytes)
	var got struct {
		Items []item `json:"items"`
		Note  string `json:"note"`
	}
	require.NoError(t, json.Unmarshal([]byte(text), &got))
	assert.Greater(t, len(got.Items), 400, "as many as fit")
	assert.Equal(t, items[0], got.Items[0])
	assert.Regexp(t, `^items: the first \d+ of 1000 items, as many as fit one result: ask for less`, got.Note)

	// A list inside an object, the note added to the object's own.
	res, err = tool.JSON(map[string]any{"note": "mine", "users": make([]string, 20000)})
	require.NoError(t, err)
	text = res.Content[0].(mcp.TextContent).Text
	assert.LessOrEqual(t, len(text), tool.MaxResultBytes)
	assert.Contains(t, text, `"note":"mine; users: the first `)
}
