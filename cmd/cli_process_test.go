package cmd_test

// --cli run as a process: exit codes and every byte it prints, as a script
// calling the binary sees them.

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

// runCLIProcess runs the built binary with the fake's token in its
// environment and returns its exit code, stdout and stderr.
func runCLIProcess(t *testing.T, forgeURL string, args ...string) (int, string, string) {
	t.Helper()
	bin, err := binaryPath()
	require.NoError(t, err)
	cmd := exec.Command(bin, args...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"),
		"FORGEJO_URL=" + forgeURL, "FORGEJO_ACCESS_TOKEN=" + fakeforge.Token}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return code, out.String(), errb.String()
}

// TestCLIProcessRedactsBlobURI: a browser_download_url carrying the token
// in its query is redacted in the JSON text; the blob's URI is the
// forgejo:// resource, which carries none, in the result and in the --out
// message alike.
func TestCLIProcessRedactsBlobURI(t *testing.T) {
	f := fakeforge.New(t)
	uuid := "0a1b2c3d-0000-4000-8000-000000000001"
	f.TokenLinkedAttachment(uuid)
	file := filepath.Join(t.TempDir(), "notes.bin")
	for _, output := range []string{"text", "json", "mcp"} {
		t.Run(output, func(t *testing.T) {
			code, stdout, stderr := runCLIProcess(t, f.URL, "--cli", "download_issue_attachment",
				"--owner", "o", "--repo", "r", "--index", "3", "--attachment-id", "7", "--out", file, "--output", output)
			require.Equal(t, 0, code, stderr)
			b, err := os.ReadFile(file)
			require.NoError(t, err)
			assert.Equal(t, "he\x00lo", string(b))
			assert.NotContains(t, stdout+stderr, fakeforge.Token)
			assert.Contains(t, stderr, "wrote 5 bytes (blob forgejo://o/r/issues/3/attachments/7, application/octet-stream, 5 bytes) to "+file)
			if output == "mcp" {
				assert.Contains(t, stdout, `"uri": "forgejo://o/r/issues/3/attachments/7"`)
			}
		})
	}
}

// TestCLIProcessUsage: exit codes and messages of careless command lines.
func TestCLIProcessUsage(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/user", 200, map[string]any{"login": "alice"})
	tests := []struct {
		name string
		args []string
		code int
		out  string
		err  string
	}{
		{"missing required argument", []string{"--cli", "get_issue_by_index", "--owner", "o", "--repo", "r"}, 2, "", `missing required argument "index"`},
		{"token pasted into owner is not echoed", []string{"--cli", "get_issue_by_index", "--owner", "x/" + fakeforge.Token, "--repo", "r", "--index", "1"}, 2, "", `got "x/[REDACTED]"`},
		{"server flags before the tool", []string{"--cli", "--log-level", "error", "--url", f.URL, "get_my_user_info"}, 0, `"login": "alice"`, ""},
		{"server flags after the tool", []string{"--cli", "get_my_user_info", "--log-level", "error", "--url", f.URL}, 0, `"login": "alice"`, ""},
		{"unknown tool", []string{"--cli", "get_my_usr_info"}, 2, "", `unknown tool "get_my_usr_info"; did you mean "get_my_user_info"?`},
		{"missing --file", []string{"--cli", "create_release_attachment", "--owner", "o", "--repo", "r", "--release-id", "1", "--file", "/nonexistent/upload.bin"}, 2, "", "--file /nonexistent/upload.bin: no such file or directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCLIProcess(t, f.URL, tt.args...)
			assert.Equal(t, tt.code, code, "stdout: %s\nstderr: %s", stdout, stderr)
			assert.Contains(t, stdout, tt.out)
			assert.Contains(t, stderr, tt.err)
			assert.NotContains(t, stdout+stderr, fakeforge.Token)
		})
	}
}
