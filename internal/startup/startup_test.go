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
	envCheck  = "STARTUP_CHECK"       // fail when a target below is missed
)

// The targets of issue 28, E: a one-shot --cli call that asks the forge
// once starts within 1.2 times curl's time for the same answer (fastest
// runs, side by side in one run), and no --cli command peaks above 16 MiB.
const (
	maxCurlRatio = 1.2
	maxCLIRSSKB  = 16 << 10
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
	now := map[string]sample{} // the "now" column's figures, by command
	for _, c := range commands {
		row := []string{"`" + c.name + "`"}
		for _, col := range cols {
			s := measure(t, env, runs, append([]string{bins[col]}, c.args...)...)
			row = append(row, s.wall(), s.rss())
			if col == "now" {
				now[c.name] = s
			}
		}
		rows = append(rows, row)
	}
	var floor *sample
	if curl, err := exec.LookPath("curl"); err == nil {
		s := measure(t, env, runs, curl, "-sf", "-H", "Authorization: token "+fakeforge.Token, f.URL+"/api/v1/repos/o/r/issues/3")
		floor = &s
		row := []string{"curl, the same issue (floor)"}
		for range cols {
			row = append(row, s.wall(), s.rss())
		}
		rows = append(rows, row)
	}
	misses := targets(now, floor)

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
	b.WriteString(misses.report)
	t.Log("\n" + b.String())
	if out := os.Getenv(envOut); out != "" {
		require.NoError(t, os.WriteFile(out, []byte(b.String()), 0o644))
	}
	if os.Getenv(envCheck) != "" {
		for _, m := range misses.missed {
			t.Errorf("target missed: %s", m)
		}
	}
}

// verdict is the targets' report and the ones missed.
type verdict struct {
	report string
	missed []string
}

// targets checks the "now" figures against the targets: the forge call's
// fastest run against curl's, and every --cli command's median peak RSS.
func targets(now map[string]sample, floor *sample) verdict {
	var v verdict
	var b strings.Builder
	b.WriteString("\nTargets (issue 28, E), now:\n")
	line := func(ok bool, format string, args ...any) {
		text := fmt.Sprintf(format, args...)
		mark := "met"
		if !ok {
			mark = "MISSED"
			v.missed = append(v.missed, text)
		}
		fmt.Fprintf(&b, "- %s: %s\n", mark, text)
	}
	if call, ok := now["--cli get_issue_by_index"]; ok && floor != nil {
		r := float64(call.min) / float64(floor.min)
		line(r <= maxCurlRatio, "`--cli get_issue_by_index` %.2f× curl (fastest %.1f ms / %.1f ms; at most %.1f×)",
			r, ms(call.min), ms(floor.min), maxCurlRatio)
	}
	names := make([]string, 0, len(now))
	for name := range now {
		if strings.HasPrefix(name, "--cli") {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		s := now[name]
		line(s.medianRSSKB <= maxCLIRSSKB, "`%s` peak RSS %.1f MiB (at most %d)", name, float64(s.medianRSSKB)/1024, maxCLIRSSKB>>10)
	}
	v.report = b.String()
	return v
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func (s sample) wall() string { return fmt.Sprintf("%.1f ms (median %.1f)", ms(s.min), ms(s.median)) }

func (s sample) rss() string {
	return fmt.Sprintf("%.1f MB (largest %.1f)", float64(s.medianRSSKB)/1024, float64(s.maxRSS)/1024)
}
