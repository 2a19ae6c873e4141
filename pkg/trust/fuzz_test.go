package trust_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/trust"
)

// FuzzApply feeds the pass arbitrary bytes as a result, in lockdown with
// a scope and no forge to ask (every author unknown): it never panics,
// what it returns is JSON, and no text the plan names survives.
func FuzzApply(f *testing.F) {
	for _, seed := range []string{
		`{"items":[{"repo":"a/b","number":1,"title":"t","body":"b","author":"eve","comments":[{"author":"x","body":"y"}]}],"has_more":false}`,
		`{"items":[{"repo":"c/d","title":"t"}],"note":"n"}`,
		`{"repo":"a/b","title":"\u003c!-- x --\u003e","author":{"login":"eve"}}`,
		`{"items":null}`, `{"items":[1,"x",null,[]]}`, `{"title":1}`, `{}`, `[]`, `"x"`, `{"a":`, `{"title":"x","title":"y"}`,
	} {
		f.Add([]byte(seed))
	}
	plan := trust.PlanOf(page[found]{}, found{})
	scope, err := trust.ParseScope("a/b", "--repos")
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, data []byte) {
		p := trust.Pass{Fence: trust.Fence{scope}, Lockdown: true, Marks: true, Access: trust.NewAccess(nil)}
		out := p.Apply(context.Background(), plan, data)
		if out.JSON == nil {
			return
		}
		var v any
		require.NoError(t, json.Unmarshal(out.JSON, &v), "the pass wrote %q from %q", out.JSON, data)
		// The texts the plan names: title and body of the root and of
		// each item, body of each comment of either.
		withheld := func(obj map[string]any, keys ...string) {
			for _, k := range keys {
				if s, ok := obj[k].(string); ok && s != "" {
					require.True(t, strings.HasPrefix(s, "[withheld by lockdown:"), "%s %q survived lockdown in %s", k, s, out.JSON)
				}
				_, isString := obj[k].(string)
				require.True(t, obj[k] == nil || isString, "%s is not text in %s", k, out.JSON)
			}
		}
		comments := func(obj map[string]any) {
			list, _ := obj["comments"].([]any)
			for _, c := range list {
				if m, ok := c.(map[string]any); ok {
					withheld(m, "body")
				}
			}
		}
		root, ok := v.(map[string]any)
		require.True(t, ok, "an object")
		withheld(root, "title", "body")
		comments(root)
		items, _ := root["items"].([]any)
		for _, it := range items {
			if m, ok := it.(map[string]any); ok {
				withheld(m, "title", "body")
				comments(m)
			}
		}
	})
}
