package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

type run struct {
	code     int
	out, err string
}

func runMain(t *testing.T, env map[string]string, stdin string, args ...string) run {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(context.Background(), args, IO{In: strings.NewReader(stdin), Out: &out, Err: &errb},
		func(k string) string { return env[k] })
	return run{code, out.String(), errb.String()}
}

func fakeEnv(f *fakeforge.Server) map[string]string {
	return map[string]string{"FORGEJO_URL": f.URL, "FORGEJO_ACCESS_TOKEN": fakeforge.Token}
}

func TestCLI(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/issues/3", 200, map[string]any{"number": 3, "title": "Hello", "state": "open", "user": map[string]any{"login": "a"}})
	f.JSON("GET /api/v1/user", 200, map[string]any{"login": "alice"})
	f.JSON("GET /api/v1/repos/o/r/hooks/5", 200, map[string]any{"id": 5, "type": "forgejo", "active": true, "config": map[string]any{"url": "http://127.0.0.1:9/h"}})
	env := fakeEnv(f)
	missing := filepath.Join(t.TempDir(), "no-such-file.bin")
	tests := []struct {
		name  string
		env   map[string]string
		stdin string
		args  []string
		code  int
		out   string // substring of stdout
		err   string // substring of stderr
	}{
		{name: "list", args: []string{"--cli", "list"}, out: "get_issue_by_index"},
		{name: "list json", args: []string{"--cli", "list", "--output", "json"}, out: `"name": "get_my_user_info"`},
		{name: "list read-only", args: []string{"--cli", "list", "--read-only"}, out: "get_issue_by_index"},
		{name: "typed flags", env: env, args: []string{"--cli", "get_issue_by_index", "--owner", "o", "--repo", "r", "--index", "3"}, out: "\"title\": \"Hello\""},
		{name: "args json", env: env, args: []string{"--cli", "get_issue_by_index", "--args", `{"owner":"o","repo":"r","index":3}`}, out: `"number": 3`},
		{name: "stdin json", env: env, stdin: `{"owner":"o","repo":"r","index":3}`, args: []string{"--cli", "get_issue_by_index", "--args", "-"}, out: `"number": 3`},
		{name: "flag wins over args", env: env, args: []string{"--cli", "get_issue_by_index", "--args", `{"owner":"o","repo":"r","index":9}`, "--index", "3"}, out: `"number": 3`},
		{name: "server flag after the tool", args: []string{"--cli", "get_my_user_info", "--url", f.URL}, env: map[string]string{"FORGEJO_ACCESS_TOKEN": fakeforge.Token}, out: `"login": "alice"`},
		{name: "server flag before --cli", args: []string{"--url", f.URL, "--cli", "get_my_user_info"}, out: `"login": "alice"`},
		{name: "output mcp is the whole result", env: env, args: []string{"--cli", "get_my_user_info", "--output", "mcp"}, out: `"type": "text"`},
		{name: "output json is the result's JSON", env: env, args: []string{"--cli", "get_my_user_info", "--output", "json"}, out: "{\n  \"id\": 0,\n  \"login\": \"alice\""},
		{name: "tool error exits 1", env: env, args: []string{"--cli", "get_issue_by_index", "--owner", "o", "--repo", "r", "--index", "4"}, code: 1, err: "issue o/r#4 not found (404)"},
		{name: "missing required argument exits 2", env: env, args: []string{"--cli", "get_issue_by_index", "--owner", "o", "--repo", "r"}, code: 2, err: `missing required argument "index"`},
		{name: "missing required argument says where help is", env: env, args: []string{"--cli", "get_issue_by_index", "--owner", "o", "--repo", "r"}, code: 2, err: "see forgejo-mcp --cli get_issue_by_index --help"},
		{name: "wrong argument type exits 2", env: env, args: []string{"--cli", "get_issue_by_index", "--args", `{"owner":"o","repo":"r","index":"three"}`}, code: 2, err: `argument "index" must be a whole number`},
		{name: "server flags before the tool name", env: map[string]string{"FORGEJO_ACCESS_TOKEN": fakeforge.Token}, args: []string{"--cli", "--url", f.URL, "--log-level", "warn", "--read-only", "get_my_user_info"}, out: `"login": "alice"`},
		{name: "server flag with = before the tool name", env: map[string]string{"FORGEJO_ACCESS_TOKEN": fakeforge.Token}, args: []string{"--cli", "--url=" + f.URL, "get_my_user_info"}, out: `"login": "alice"`},
		{name: "tool parameter before the tool name", env: env, args: []string{"--cli", "--owner", "o", "get_issue_by_index"}, code: 2, err: "--owner before the tool name is not a server flag"},
		{name: "unknown tool: did you mean", args: []string{"--cli", "get_isue_by_index"}, code: 2, err: `unknown tool "get_isue_by_index"; did you mean "get_issue_by_index"?`},
		{name: "unknown tool: did you mean, words reordered", args: []string{"--cli", "issue_create"}, code: 2, err: `did you mean "create_issue"?`},
		{name: "missing --file is named", env: env, args: []string{"--cli", "create_issue_attachment", "--owner", "o", "--repo", "r", "--index", "1", "--file", missing}, code: 2, err: "--file " + missing + ": no such file or directory"},
		{name: "hidden alias through --args", env: env, args: []string{"--cli", "get_repo_hook", "--args", `{"owner":"o","repo":"r","id":5}`}, out: `"id": 5`},
		{name: "alias and parameter together", env: env, args: []string{"--cli", "get_repo_hook", "--args", `{"owner":"o","repo":"r","id":5,"hook_id":5}`}, code: 2, err: `"id" and "hook_id" name the same argument`},
		{name: "help", args: []string{"--cli", "get_issue_by_index", "--help"}, out: "--index"},
		{name: "offline tool needs no forge", args: []string{"--cli", "get_forgejo_mcp_server_version"}, out: `"version"`},
		{name: "unknown tool", args: []string{"--cli", "get_nothing"}, code: 2, err: `unknown tool "get_nothing"; run forgejo-mcp --cli list`},
		{name: "no tool", args: []string{"--cli"}, code: 2, err: "--cli needs a tool name"},
		{name: "unknown flag", env: env, args: []string{"--cli", "get_my_user_info", "--nope"}, code: 2, err: "unknown flag: --nope"},
		{name: "bad --args", env: env, args: []string{"--cli", "get_my_user_info", "--args", "{"}, code: 2, err: "--args is not a JSON object"},
		{name: "no forge", args: []string{"--cli", "get_my_user_info"}, code: 2, err: "no forge configured"},
		{name: "bad url", args: []string{"--cli", "get_my_user_info", "--url", "http://forge.example.com"}, code: 2, err: "non-loopback host"},
		{name: "token on argv refused", env: env, args: []string{"--cli", "get_my_user_info", "--token", "abc"}, code: 2, err: "--token is not accepted"},
		{name: "read-only hides write tools", env: env, args: []string{"--cli", "create_issue", "--read-only", "--owner", "o", "--repo", "r", "--title", "x"}, code: 2, err: "not offered with the current"},
		{name: "bad output", env: env, args: []string{"--cli", "get_my_user_info", "--output", "yaml"}, code: 2, err: `unknown --output "yaml"`},
		{name: "--out without binary content", env: env, args: []string{"--cli", "get_my_user_info", "--out", filepath.Join(t.TempDir(), "x")}, code: 1, err: "no binary content"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runMain(t, tt.env, tt.stdin, tt.args...)
			assert.Equal(t, tt.code, r.code, "stdout: %s\nstderr: %s", r.out, r.err)
			assert.Contains(t, r.out, tt.out)
			assert.Contains(t, r.err, tt.err)
			assert.NotContains(t, r.out+r.err, fakeforge.Token)
		})
	}
}

func TestCLIListColumns(t *testing.T) {
	r := runMain(t, nil, "", "--cli", "list")
	require.Equal(t, 0, r.code)
	assert.Regexp(t, `(?m)^create_issue_comment +issue +Add a comment to an issue or PR$`, r.out)
}

func TestCLIListMatchesInventory(t *testing.T) {
	r := runMain(t, nil, "", "--cli", "list", "--output", "json")
	require.Equal(t, 0, r.code)
	var list []struct{ Name string }
	require.NoError(t, json.Unmarshal([]byte(r.out), &list))
	all, err := tool.Select(operation.All(), tool.Selection{Toolsets: []string{"all"}})
	require.NoError(t, err)
	assert.Len(t, list, len(all), "every tool but those of a toolset offered only by name (admin)")
}

func TestTokenFile(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/user", 200, map[string]any{"login": "alice"})
	path := filepath.Join(t.TempDir(), "token")
	require.NoError(t, os.WriteFile(path, []byte(fakeforge.Token+"\n"), 0o600))
	r := runMain(t, map[string]string{"FORGEJO_URL": f.URL}, "", "--cli", "get_my_user_info", "--token-file", path)
	require.Equal(t, 0, r.code, r.err)
	assert.Equal(t, "token "+fakeforge.Token, f.Requests()[0].Auth)

	r = runMain(t, map[string]string{"FORGEJO_URL": f.URL}, "", "--cli", "get_my_user_info", "--token-file", filepath.Join(t.TempDir(), "none"))
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.err, "cannot read --token-file")
}

// TestToolParamsDoNotShadowFlags keeps every tool parameter reachable as a
// typed --cli flag: a parameter named like a server flag would be shadowed.
func TestToolParamsDoNotShadowFlags(t *testing.T) {
	var cfg Config
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	cfg.registerFlags(fs, func(string) string { return "" })
	for _, reserved := range []string{"args", "output", "out", "file", "help", "all", "yes"} {
		fs.Bool(reserved, false, "")
	}
	for _, d := range operation.All() {
		names := map[string]bool{}
		for _, p := range d.Params {
			names[p.Name] = true
		}
		for _, p := range d.Params {
			assert.Nil(t, fs.Lookup(strings.ReplaceAll(p.Name, "_", "-")), "%s parameter %s collides with a flag", d.Name, p.Name)
			if longText(p) {
				assert.False(t, names[p.Name+"_file"], "%s parameter %s_file collides with --%s-file", d.Name, p.Name, p.Name)
			}
		}
	}
}

func TestServerModeUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		env  map[string]string
		code int
		err  string
	}{
		{args: []string{"--version"}, code: 0},
		{args: []string{}, code: 2, err: "no forge configured"},
		{args: []string{"--url", "https://x.example/?a=b"}, code: 2, err: "must not contain a query"},
		{args: []string{"--url", "https://x.example", "--toolsets", "nope"}, code: 2, err: `unknown toolset "nope"`},
		{args: []string{"--url", "https://x.example", "--log-level", "loud"}, code: 2, err: `unknown --log-level "loud"`},
		{args: []string{"--url", "https://x.example", "--transport", "carrier-pigeon"}, code: 2, err: "unknown --transport"},
		{args: []string{"get_my_user_info"}, code: 2, err: "did you mean --cli get_my_user_info"},
		{args: []string{"--token", "secret"}, code: 2, err: "--token is not accepted"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := runMain(t, tt.env, "", tt.args...)
			assert.Equal(t, tt.code, r.code, r.err)
			assert.Contains(t, r.err, tt.err)
			assert.NotContains(t, r.err, "secret")
		})
	}
}

// TestUploadHelpOffersFile: the help of every upload tool shows --file as
// the way to pass the content.
func TestUploadHelpOffersFile(t *testing.T) {
	n := 0
	for _, d := range operation.All() {
		if d.CLIFile == "" {
			continue
		}
		n++
		r := runMain(t, nil, "", "--cli", d.Name, "--help")
		require.Equal(t, 0, r.code, r.err)
		flag := strings.ReplaceAll(d.CLIFile, "_", "-")
		assert.Regexp(t, `(?m)^  --`+flag+` .*or pass the file itself with --file PATH$`, r.out, d.Name)
		assert.Regexp(t, `(?m)^  --file +path +The file to upload: read and base64-encoded into --`+flag+` for you`, r.out, d.Name)
	}
	assert.GreaterOrEqual(t, n, 2, "the attachment and release asset uploads")
}
