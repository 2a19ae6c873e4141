package cmd

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestJQ: --jq filters the result's JSON as gh's --jq does: strings as
// text, other values as compact JSON, one a line; a bad expression is a
// usage error before the forge is asked; the environment is not reachable.
func TestJQ(t *testing.T) {
	f := newFakeWithIssue(t)
	env := fakeEnv(f)
	env["SECRET_IN_ENV"] = "s3cret"
	base := []string{"--cli", "get_issue_by_index", "-R", "o/r", "--index", "3"}
	tests := []struct {
		name string
		args []string
		code int
		out  string
		err  string
	}{
		{"a string", []string{"--jq", ".title"}, ExitOK, "Export fails\n", ""},
		{"a list", []string{"-q", ".labels[]"}, ExitOK, "bug\nui\n", ""},
		{"an object", []string{"--jq", "{n: .number, open: (.state == \"open\")}"}, ExitOK, "{\"n\":3,\"open\":true}\n", ""},
		{"a number", []string{"--jq", ".comments + 1"}, ExitOK, "3\n", ""},
		{"nothing", []string{"--jq", "empty"}, ExitOK, "", ""},
		{"with --output json", []string{"--jq", ".number", "--output", "json"}, ExitOK, "3\n", ""},
		{"the environment is out of reach", []string{"--jq", "$ENV.SECRET_IN_ENV, env.SECRET_IN_ENV"}, ExitOK, "null\nnull\n", ""},
		{"a bad expression", []string{"--jq", ".title |"}, ExitUsage, "", `--jq ".title |"`},
		{"with --output table", []string{"--jq", ".title", "--output", "table"}, ExitUsage, "", "--jq prints JSON values: leave out --output table"},
		{"an error at run time", []string{"--jq", ".title + 1"}, ExitToolError, "", "--jq: cannot add"},
		{"a runaway expression", []string{"--jq", "range(1e9)"}, ExitToolError, "", "more than 100000 values"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runMain(t, env, "", append(append([]string{}, base...), tt.args...)...)
			assert.Equal(t, tt.code, r.code, r.err)
			if tt.code == ExitOK {
				assert.Equal(t, tt.out, r.out)
			}
			assert.Contains(t, r.err, tt.err)
			assert.NotContains(t, r.out, "s3cret")
		})
	}
}
