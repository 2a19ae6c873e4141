// Package release checks what `make release` ships: it builds one target
// with scripts/release in a fresh clone of HEAD, checks the SHA256SUMS
// file's format and hashes and the binary's version stamp, and checks the
// stamp of a plain `go build` (runtime/debug.ReadBuildInfo) too.
package release

import (
	"bufio"
	"crypto/sha256"
	"debug/buildinfo"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type versionInfo struct {
	Version   string `json:"version"`
	Commit    string `json:"commit"`
	GoVersion string `json:"go_version"`
}

func TestReleaseStamping(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("git is required under CI")
		}
		t.Skip("git is not installed")
	}
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	head := strings.TrimSpace(run(t, root, nil, "git", "rev-parse", "HEAD"))
	// A clone of HEAD: what was committed, in a directory Go recognises as
	// a git checkout (a linked worktree's .git is a file, which Go's VCS
	// stamping does not follow).
	dir := filepath.Join(t.TempDir(), "src")
	run(t, root, nil, "git", "clone", "-q", "--no-checkout", root, dir)
	run(t, dir, nil, "git", "checkout", "-q", head)
	// A tag already on HEAD would be what both builds print; the test
	// sets its own.
	for _, tag := range strings.Fields(run(t, dir, nil, "git", "tag", "--points-at", "HEAD")) {
		run(t, dir, nil, "git", "tag", "-d", tag)
	}
	env := []string{"GOFLAGS=", "CGO_ENABLED=0"}

	t.Run("go build stamps the commit", func(t *testing.T) {
		bin := filepath.Join(t.TempDir(), "forgejo-mcp")
		run(t, dir, env, "go", "build", "-buildvcs=true", "-o", bin, ".")
		got := versionOf(t, bin)
		assert.Equal(t, head[:12], got.Version)
		assert.Equal(t, head, got.Commit)
		assert.Equal(t, runtime.Version(), got.GoVersion)
	})

	t.Run("make release stamps the tag and -dirty", func(t *testing.T) {
		run(t, dir, nil, "git", "tag", "v0.0.0-releasetest")
		require.NoError(t, os.WriteFile(filepath.Join(dir, "uncommitted.txt"), []byte("x"), 0o600))
		target := runtime.GOOS + "/" + runtime.GOARCH
		run(t, dir, append(env, "TARGETS="+target, "DIST=dist"), "scripts/release")

		const version = "v0.0.0-releasetest-dirty"
		name := "forgejo-mcp-" + version + "-" + runtime.GOOS + "-" + runtime.GOARCH
		if runtime.GOOS == "windows" {
			name += ".exe"
		}
		sums, err := os.ReadFile(filepath.Join(dir, "dist", "SHA256SUMS"))
		require.NoError(t, err)
		line := regexp.MustCompile(`^([0-9a-f]{64})  (forgejo-mcp-[A-Za-z0-9._-]+)$`)
		sc := bufio.NewScanner(strings.NewReader(string(sums)))
		var names []string
		for sc.Scan() {
			m := line.FindStringSubmatch(sc.Text())
			require.NotNil(t, m, "SHA256SUMS line %q is not `<sha256>  <file>`", sc.Text())
			b, err := os.ReadFile(filepath.Join(dir, "dist", m[2]))
			require.NoError(t, err, "SHA256SUMS names %s", m[2])
			sum := sha256.Sum256(b)
			assert.Equal(t, m[1], hex.EncodeToString(sum[:]), "checksum of %s", m[2])
			names = append(names, m[2])
		}
		assert.Equal(t, []string{name}, names)

		bin := filepath.Join(dir, "dist", name)
		got := versionOf(t, bin)
		assert.Equal(t, versionInfo{Version: version, Commit: head, GoVersion: runtime.Version()}, got)
		info, err := buildinfo.ReadFile(bin)
		require.NoError(t, err)
		settings := map[string]string{}
		for _, s := range info.Settings {
			settings[s.Key] = s.Value
		}
		assert.Equal(t, "0", settings["CGO_ENABLED"], "static: cgo off")
		assert.Equal(t, "true", settings["-trimpath"], "no build paths in the binary")
		assert.NotContains(t, string(mustRead(t, bin)), dir, "the build directory does not leak into the binary")
	})
}

func versionOf(t *testing.T, bin string) versionInfo {
	t.Helper()
	out := run(t, filepath.Dir(bin), nil, bin, "--version", "--output", "json")
	var v versionInfo
	require.NoError(t, json.Unmarshal([]byte(out), &v), out)
	text := run(t, filepath.Dir(bin), nil, bin, "--version")
	assert.Equal(t, "forgejo-mcp "+v.Version+"\n", text)
	return v
}

func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "%s %v: %s", name, args, stderr.String())
	return string(out)
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return b
}
