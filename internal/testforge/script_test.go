package testforge

import (
	"bytes"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// script runs scripts/test-forge with env added to a copy of the environment that has no
// FORGEJO_TEST_* of the caller's (the suite itself may run under `test-forge run`).
func script(t *testing.T, env []string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	for _, tool := range []string{"bash", "python3", "curl", "git"} {
		_, lerr := exec.LookPath(tool)
		require.NoError(t, lerr, "scripts/test-forge needs %s", tool)
	}
	cmd := exec.Command(filepath.Join("..", "..", "scripts", "test-forge"), args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "FORGEJO_TEST_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	// A cache dir of its own: the branch under test must never build or touch the Gitea cache.
	cmd.Env = append(cmd.Env, "FORGEJO_TEST_CACHE="+t.TempDir())
	cmd.Env = append(cmd.Env, env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.String(), errOut.String(), err
}

func fakeForgejo(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", "fake-forgejo"))
	require.NoError(t, err)
	return p
}

// TestScriptBringYourOwnForgejo starts and stops a forge through scripts/test-forge's
// FORGEJO_TEST_FORGEJO_BIN branch, with a stand-in binary (testdata/fake-forgejo) that logs what
// it is asked: the same set-up steps as for Gitea, the variables a Forgejo reads, static folders
// only when the build has none, and the flavour and version reported.
func TestScriptBringYourOwnForgejo(t *testing.T) {
	static := t.TempDir()
	for _, d := range []string{"options", "templates", "public"} {
		require.NoError(t, os.Mkdir(filepath.Join(static, d), 0o755))
	}
	for _, tc := range []struct {
		name       string
		env        []string
		wantStatic string // STATIC_ROOT_PATH in app.ini; "" for none
	}{
		{name: "bindata", env: nil},
		{name: "static folders", env: []string{"FAKE_FORGEJO_TAGS=sqlite, sqlite_unlock_notify", "FORGEJO_TEST_FORGEJO_STATIC=" + static}, wantStatic: static},
	} {
		t.Run(tc.name, func(t *testing.T) {
			state := filepath.Join(t.TempDir(), "state")
			calls := filepath.Join(t.TempDir(), "calls.log")
			env := append([]string{"FORGEJO_TEST_FORGEJO_BIN=" + fakeForgejo(t), "FAKE_FORGEJO_LOG=" + calls}, tc.env...)
			out, errOut, err := script(t, env, "start", state)
			t.Cleanup(func() { _, _, _ = script(t, nil, "stop", state) })
			require.NoError(t, err, errOut)

			lines := map[string]string{}
			for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
				k, v, ok := strings.Cut(l, "=")
				require.True(t, ok, "a KEY=value line: %q", l)
				lines[k] = v
			}
			assert.Equal(t, "Forgejo", lines["FORGEJO_TEST_FLAVOUR"])
			assert.Equal(t, "10.0.0+gitea-1.22.0", lines["FORGEJO_TEST_FORGE_VERSION"])
			assert.Equal(t, "forgeadmin", lines["FORGEJO_TEST_USER"])
			assert.Equal(t, "forgeuser2", lines["FORGEJO_TEST_USER2"])
			assert.Regexp(t, `^[0-9a-f]{40}$`, lines["FORGEJO_TEST_TOKEN"])
			assert.Regexp(t, `^[0-9a-f]{40}$`, lines["FORGEJO_TEST_TOKEN2"])
			assert.Regexp(t, `^http://127\.0\.0\.1:\d+$`, lines["FORGEJO_TEST_URL"])
			assert.Contains(t, errOut, "using Forgejo 10.0.0+gitea-1.22.0 from "+fakeForgejo(t))

			// The forge it started answers, and Identify agrees with what the script printed.
			f := &Forge{URL: lines["FORGEJO_TEST_URL"], Token: lines["FORGEJO_TEST_TOKEN"]}
			assert.Equal(t, Identity{Forgejo: true, Version: "10.0.0+gitea-1.22.0"}, f.Identify(t))

			ini, err := os.ReadFile(filepath.Join(lines["FORGEJO_TEST_STATE"], "app.ini"))
			require.NoError(t, err)
			if tc.wantStatic != "" {
				assert.Contains(t, string(ini), "\nSTATIC_ROOT_PATH = "+tc.wantStatic+"\n")
			} else {
				assert.NotContains(t, string(ini), "STATIC_ROOT_PATH")
			}

			raw, err := os.ReadFile(calls)
			require.NoError(t, err)
			var cmds []string
			for _, l := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
				cmd, vars, _ := strings.Cut(l, " | ")
				cmds = append(cmds, strings.Join(strings.Fields(cmd)[:min(3, len(strings.Fields(cmd)))], " "))
				if !strings.HasPrefix(cmd, "--version") && !strings.HasPrefix(cmd, "generate") {
					assert.Equal(t, "FORGEJO_WORK_DIR="+lines["FORGEJO_TEST_STATE"]+" GITEA_WORK_DIR="+lines["FORGEJO_TEST_STATE"], vars, cmd)
					assert.Contains(t, cmd, "--config "+lines["FORGEJO_TEST_STATE"]+"/app.ini", cmd)
				}
			}
			assert.Equal(t, []string{
				"--version",
				"generate secret SECRET_KEY", "generate secret INTERNAL_TOKEN", "generate secret JWT_SECRET", "generate secret LFS_JWT_SECRET",
				"migrate --config " + lines["FORGEJO_TEST_STATE"] + "/app.ini",
				"admin user create", "admin user create",
				"admin user generate-access-token", "admin user generate-access-token",
				"web --config " + lines["FORGEJO_TEST_STATE"] + "/app.ini",
			}, cmds)

			_, errOut, err = script(t, nil, "stop", state)
			require.NoError(t, err, errOut)
			assert.NoDirExists(t, state)
			_, err = http.Get(lines["FORGEJO_TEST_URL"] + "/api/v1/version")
			assert.Error(t, err, "the forge is stopped")
		})
	}
}

// TestScriptBringYourOwnForgejoRefusals: a wrong FORGEJO_TEST_FORGEJO_BIN or _STATIC stops the
// script before anything starts, with a message that says what to fix.
func TestScriptBringYourOwnForgejoRefusals(t *testing.T) {
	noTemplates := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(noTemplates, "options"), 0o755))
	notExec := filepath.Join(t.TempDir(), "forgejo")
	require.NoError(t, os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644))
	silent := filepath.Join(t.TempDir(), "forgejo")
	require.NoError(t, os.WriteFile(silent, []byte("#!/bin/sh\nexit 0\n"), 0o755))
	for _, tc := range []struct {
		name string
		env  []string
		want string
	}{
		{"missing", []string{"FORGEJO_TEST_FORGEJO_BIN=/nonexistent/forgejo"}, "FORGEJO_TEST_FORGEJO_BIN=/nonexistent/forgejo is not an executable file"},
		{"not executable", []string{"FORGEJO_TEST_FORGEJO_BIN=" + notExec}, "is not an executable file"},
		{"no version", []string{"FORGEJO_TEST_FORGEJO_BIN=" + silent}, "printed no version for --version (got: nothing); is it a Forgejo server binary?"},
		{"no bindata, no static", []string{"FORGEJO_TEST_FORGEJO_BIN=" + fakeForgejo(t), "FAKE_FORGEJO_TAGS=sqlite"}, "built without the bindata tag (--version: Forgejo version 10.0.0+gitea-1.22.0 built with GNU Make 4.4.1, go1.23.4 : sqlite): set FORGEJO_TEST_FORGEJO_STATIC"},
		{"static without templates", []string{"FORGEJO_TEST_FORGEJO_BIN=" + fakeForgejo(t), "FORGEJO_TEST_FORGEJO_STATIC=" + noTemplates}, "has no templates/ folder"},
		{"static alone", []string{"FORGEJO_TEST_FORGEJO_STATIC=" + noTemplates}, "FORGEJO_TEST_FORGEJO_STATIC is set without FORGEJO_TEST_FORGEJO_BIN"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			state := filepath.Join(t.TempDir(), "state")
			start := time.Now()
			out, errOut, err := script(t, tc.env, "start", state)
			require.Error(t, err)
			assert.Empty(t, out, "no FORGEJO_TEST_* lines on failure")
			assert.Contains(t, errOut, tc.want)
			assert.NoFileExists(t, filepath.Join(state, "app.ini"), "nothing set up")
			assert.Less(t, time.Since(start), 30*time.Second, "refused before any start or build")
		})
	}
}
