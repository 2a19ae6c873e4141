package cmd

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

// TestCLIObjectList: an object list (create_pull_review's comments)
// arrives through --args, standard input, or its flag holding JSON; --help
// says so; a bad item is a usage error naming it.
func TestCLIObjectList(t *testing.T) {
	comment := `[{"path":"a.go","new_line":3,"body":"nit"}]`
	tests := []struct {
		name  string
		stdin string
		args  []string
		code  int
		err   string
	}{
		{name: "args", args: []string{"--args", `{"owner":"o","repo":"r","index":4,"comments":` + comment + `}`}},
		{name: "stdin", stdin: `{"owner":"o","repo":"r","index":4,"comments":` + comment + `}`, args: []string{"--args", "-"}},
		{name: "flag", args: []string{"--owner", "o", "--repo", "r", "--index", "4", "--comments", comment}},
		{name: "bad item", args: []string{"--owner", "o", "--repo", "r", "--index", "4", "--comments", `[{"path":"a.go","body":"x"}]`},
			code: ExitUsage, err: "comments[0]: give exactly one of new_line"},
		{name: "not JSON", args: []string{"--owner", "o", "--repo", "r", "--index", "4", "--comments", "a.go:3 nit"},
			code: ExitUsage, err: `argument "comments" must be a list of objects (a JSON array)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON("POST /api/v1/repos/o/r/pulls/4/reviews", 200, map[string]any{"id": 7, "state": "COMMENT"})
			r := runMain(t, fakeEnv(f), tc.stdin, append([]string{"--cli", "create_pull_review"}, tc.args...)...)
			assert.Equal(t, tc.code, r.code, "stdout %s\nstderr %s", r.out, r.err)
			if tc.err != "" {
				assert.Contains(t, r.err, tc.err)
				assert.Empty(t, f.Requests())
				return
			}
			posted := f.RequestsTo("POST", "/api/v1/repos/o/r/pulls/4/reviews")
			require.Len(t, posted, 1)
			var sent struct {
				Comments []map[string]any `json:"comments"`
			}
			require.NoError(t, json.Unmarshal(posted[0].Body, &sent))
			assert.Equal(t, []map[string]any{{"path": "a.go", "body": "nit", "new_position": 3.0, "old_position": 0.0}}, sent.Comments)
		})
	}
	r := runMain(t, nil, "", "--cli", "create_pull_review", "--help")
	assert.Contains(t, r.out, "--comments         objects  Line comments; each needs new_line or old_line, not both (list of {path, new_line?, old_line?, body}, at most 50")
	assert.Contains(t, r.out, "use --args")
}
