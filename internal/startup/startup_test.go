package startup

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

// Env names.
const (
	envRun    = "FORGEJO_MCP_STARTUP" // set to run the measurement
	envBin    = "STARTUP_BIN"         // the binary to measure instead of building this tree
	envBefore = "STARTUP_BEFORE"      // an older binary to measure side by side
	envRuns   = "STARTUP_RUNS"        // runs per command
	envOut    = "STARTUP_OUT"         // write the table here as Markdown
)

// sample is one command's figures over its runs: the fastest and the
// median wall time, the median and the largest peak RSS (the largest
// catches a run the machine's load made spawn more threads).
type sample struct {
	min, median         time.Duration
	medianRSSKB, maxRSS int64
}

// measure runs argv runs times (after one warm-up run that fills the page
// cache) and returns its figures; every run must exit 0.
func measure(t *testing.T, env []string, runs int, argv ...string) sample {
	t.Helper()
	var walls []time.Duration
	var rss []int64
	for i := -1; i < runs; i++ {
		cmd := exec.CommandContext(context.Background(), argv[0], argv[1:]...)
		cmd.Env = env
		start := time.Now()
		out, err := cmd.CombinedOutput()
		wall := time.Since(start)
		require.NoError(t, err, "%s: %s", strings.Join(argv, " "), out)
		if i < 0 {
			continue
		}
		walls = append(walls, wall)
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			rss = append(rss, ru.Maxrss) // KiB on Linux
		}
	}
	slices.Sort(walls)
	slices.Sort(rss)
	return sample{min: walls[0], median: walls[len(walls)/2], medianRSSKB: rss[len(rss)/2], maxRSS: rss[len(rss)-1]}
}

// build compiles this tree the way scripts/release does.
func build(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "forgejo-mcp")
	cmd := exec.Command("go", "build", "-trimpath", "-o", bin, "codeberg.org/forgejo-mcp/forgejo-mcp")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	return bin
}

// TestStartup measures the commands and prints the table.
func TestStartup(t *testing.T) {
	if os.Getenv(envRun) == "" {
		t.Skipf("set %s=1 to run (scripts/startup does)", envRun)
	}
	runs := 40
	if n, err := strconv.Atoi(os.Getenv(envRuns)); err == nil && n > 0 {
		runs = n
	}
	bins := map[string]string{"now": os.Getenv(envBin)}
	if bins["now"] == "" {
		bins["now"] = build(t)
	}
	cols := []string{"now"}
	if b := os.Getenv(envBefore); b != "" {
		bins["before"] = b
		cols = []string{"before", "now"}
	}

	f := fakeforge.New(t)
	issue := map[string]any{"number": 3, "title": "Export fails on large repos", "state": "open",
		"body": "Steps are in the log.", "user": map[string]any{"login": "alice"}, "labels": []any{},
		"comments": 0, "created_at": "2026-11-30T22:00:00Z", "updated_at": "2026-11-30T22:00:00Z",
		"html_url": f.URL + "/o/r/issues/3"}
	f.JSON("GET /api/v1/repos/o/r/issues/3", 200, issue)
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(),
		"FORGEJO_URL=" + f.URL, "FORGEJO_ACCESS_TOKEN=" + fakeforge.Token}

	type command struct {
		name string
		args []string
	}
	commands := []command{
		{"--version", []string{"--version"}},
		{"--cli get_forgejo_mcp_server_version (no forge call)", []string{"--cli", "get_forgejo_mcp_server_version"}},
		{"--cli get_issue_by_index", []string{"--cli", "get_issue_by_index", "--owner", "o", "--repo", "r", "--index", "3"}},
		{"--cli list", []string{"--cli", "list"}},
	}
	var rows [][]string
	for _, c := range commands {
		row := []string{"`" + c.name + "`"}
		for _, col := range cols {
			s := measure(t, env, runs, append([]string{bins[col]}, c.args...)...)
			row = append(row, s.wall(), s.rss())
		}
		rows = append(rows, row)
	}
	if curl, err := exec.LookPath("curl"); err == nil {
		s := measure(t, env, runs, curl, "-sf", "-H", "Authorization: token "+fakeforge.Token, f.URL+"/api/v1/repos/o/r/issues/3")
		row := []string{"curl, the same issue (floor)"}
		for range cols {
			row = append(row, s.wall(), s.rss())
		}
		rows = append(rows, row)
	}

	var b strings.Builder
	b.WriteString("| Command |")
	for _, col := range cols {
		fmt.Fprintf(&b, " wall, %s | peak RSS, %s |", col, col)
	}
	b.WriteString("\n|---|" + strings.Repeat("---|---|", len(cols)) + "\n")
	for _, r := range rows {
		b.WriteString("| " + strings.Join(r, " | ") + " |\n")
	}
	fmt.Fprintf(&b, "\n%d runs each after a warm-up; wall: fastest (and median) from fork to exit; peak RSS: ru_maxrss, median (and largest), in MiB.\n", runs)
	t.Log("\n" + b.String())
	if out := os.Getenv(envOut); out != "" {
		require.NoError(t, os.WriteFile(out, []byte(b.String()), 0o644))
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func (s sample) wall() string { return fmt.Sprintf("%.1f ms (median %.1f)", ms(s.min), ms(s.median)) }

func (s sample) rss() string {
	return fmt.Sprintf("%.1f MB (largest %.1f)", float64(s.medianRSSKB)/1024, float64(s.maxRSS)/1024)
}
