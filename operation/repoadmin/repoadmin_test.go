package repoadmin_test

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/schemacheck"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repoadmin"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// call runs name on o/r through a Runner against f and checks the result
// against the tool's outputSchema; it returns whether it failed and its text.
func call(t *testing.T, f *fakeforge.Server, name string, args map[string]any) (bool, string) {
	t.Helper()
	// owner nil: a tool that takes no repository.
	if v, ok := args["owner"]; !ok {
		args["owner"], args["repo"] = "o", "r"
	} else if v == nil {
		delete(args, "owner")
	}
	d, ok := tool.Find(repoadmin.Tools(), name)
	require.True(t, ok, name)
	c := f.Client()
	r := &tool.Runner{Client: func(context.Context) (*forgejo.Client, error) { return c, nil }, Timeout: 5 * time.Second}
	res := r.Call(context.Background(), d, args)
	schemacheck.Result(t, d, res)
	return res.IsError, fakeforge.Text(t, res)
}

// lastBody is the JSON body of the last request f received.
func lastBody(t *testing.T, f *fakeforge.Server) map[string]any {
	t.Helper()
	reqs := f.Requests()
	require.NotEmpty(t, reqs)
	var m map[string]any
	require.NoError(t, json.Unmarshal(reqs[len(reqs)-1].Body, &m))
	return m
}

// lastBodyOf is the JSON body of the last request to method path.
func lastBodyOf(t *testing.T, f *fakeforge.Server, method, path string) map[string]any {
	t.Helper()
	reqs := f.RequestsTo(method, path)
	require.NotEmpty(t, reqs, "%s %s", method, path)
	var m map[string]any
	require.NoError(t, json.Unmarshal(reqs[len(reqs)-1].Body, &m))
	return m
}

func itoa(i int64) string { return strconv.FormatInt(i, 10) }
