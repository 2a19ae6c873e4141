package memcheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// A one-shot --cli call exits before its /proc entry can be read, so its
// peak comes from the rusage of the exited process. That figure is only
// true when a small process starts it: Linux counts in a child's peak the
// peak of the memory it was created from (the parent's, up to exec), which
// for this test process, holding the 10 MiB PDF and more, is about 99 MB.
// So runCLI has a fresh copy of this test binary (TestCLIStarter) start the
// call and report its rusage.
const (
	envStarterArgs = "MEMCHECK_CLI_ARGS" // the command to start, as a JSON array
	envStarterOut  = "MEMCHECK_CLI_OUT"  // where its standard output goes
)

// runCLI runs one --cli call of the binary to its end and returns its
// standard output and its peak resident set in KiB.
func runCLI(t *testing.T, bin, forgeURL string, env []string, args ...string) (stdout []byte, peakKB int64) {
	t.Helper()
	argv, err := json.Marshal(append([]string{bin, "--url", forgeURL, "--log-level", "warn", "--cli"}, args...))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "stdout")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "-test.run=^TestCLIStarter$")
	cmd.Env = append(append([]string(nil), env...), envStarterArgs+"="+string(argv), envStarterOut+"="+out)
	var report, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &report, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("forgejo-mcp --cli %s: %v\n%s%s", strings.Join(args, " "), err, report.String(), errOut.String())
	}
	m := regexp.MustCompile(`maxrss-kib=(\d+)`).FindSubmatch(report.Bytes())
	if m == nil {
		t.Fatalf("no peak reported: %s", report.String())
	}
	peakKB, _ = strconv.ParseInt(string(m[1]), 10, 64)
	stdout, err = os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return stdout, peakKB
}

// TestCLIStarter is not a test of its own: runCLI runs this test binary
// afresh with it to start the measured call (see above).
func TestCLIStarter(t *testing.T) {
	spec := os.Getenv(envStarterArgs)
	if spec == "" {
		t.Skip("runCLI runs it")
	}
	var argv []string
	if err := json.Unmarshal([]byte(spec), &argv); err != nil || len(argv) == 0 {
		t.Fatalf("%s: %q", envStarterArgs, spec)
	}
	out, err := os.Create(os.Getenv(envStarterOut))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, envStarterArgs+"=") && !strings.HasPrefix(kv, envStarterOut+"=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Stdout, cmd.Stderr = out, os.Stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v", err)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Fatal("no rusage for the process")
	}
	fmt.Printf("maxrss-kib=%d\n", ru.Maxrss) // KiB on Linux
}
