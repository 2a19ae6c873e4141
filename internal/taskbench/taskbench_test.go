// Package taskbench_test measures what five everyday agent tasks cost on a
// server: tool calls, argument bytes and result bytes, each task scripted
// the shortest way the server's tools allow (tasks_test.go). It is a
// measurement, not a test of the code: it runs only when TASKBENCH_SERVERS
// names the server binaries to compare, as scripts/taskbench does (which
// builds this checkout and an earlier commit), on the live test forge.
package taskbench_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
)

// TestTaskBench runs every task on every server of TASKBENCH_SERVERS
// ("label=path,label=path"), each on a fixture of its own, and prints a
// table of the costs (into TASKBENCH_OUT too when set).
func TestTaskBench(t *testing.T) {
	spec := os.Getenv("TASKBENCH_SERVERS")
	if spec == "" {
		t.Skip("a measurement: scripts/taskbench runs it")
	}
	f := testforge.Get(t)
	var servers []server
	for _, kv := range strings.Split(spec, ",") {
		label, bin, ok := strings.Cut(kv, "=")
		require.True(t, ok, "TASKBENCH_SERVERS item %q is not label=path", kv)
		servers = append(servers, server{label, bin})
	}
	costs := map[string][]cost{}
	lists := map[string]int{}
	for _, sv := range servers {
		fx := newFixture(t, f)
		s := open(t, sv.bin, f.URL, f.Token, "--toolsets", "all")
		for _, tk := range tasks {
			c := s.measure(func() { tk.run(s, fx) })
			costs[sv.label] = append(costs[sv.label], c)
			t.Logf("%s: %s: %d calls (%s), %d argument bytes, %d result bytes", sv.label, tk.name, c.Calls,
				strings.Join(c.Tools, ", "), c.ArgBytes, c.ResultBytes)
		}
		lists[sv.label] = open(t, sv.bin, f.URL, f.Token).listBytes()
	}
	table := report(servers, costs, lists)
	t.Log("\n" + table)
	if out := os.Getenv("TASKBENCH_OUT"); out != "" {
		require.NoError(t, os.WriteFile(out, []byte(table), 0o644))
	}
}

type server struct{ label, bin string }

// report is the costs as a Markdown table, a column pair per server, then
// the tools each task called and the default selection's tools/list size.
func report(servers []server, costs map[string][]cost, lists map[string]int) string {
	var b strings.Builder
	b.WriteString("| Task |")
	for _, sv := range servers {
		fmt.Fprintf(&b, " %s: calls | %s: result bytes | %s: argument bytes |", sv.label, sv.label, sv.label)
	}
	b.WriteString("\n|---|" + strings.Repeat("---:|", 3*len(servers)) + "\n")
	for i, tk := range tasks {
		fmt.Fprintf(&b, "| %s |", tk.name)
		for _, sv := range servers {
			c := costs[sv.label][i]
			fmt.Fprintf(&b, " %d | %d | %d |", c.Calls, c.ResultBytes, c.ArgBytes)
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	for _, sv := range servers {
		fmt.Fprintf(&b, "%s: default tools/list %d bytes\n", sv.label, lists[sv.label])
		for i, tk := range tasks {
			fmt.Fprintf(&b, "  %s: %s\n", tk.name, strings.Join(costs[sv.label][i].Tools, " → "))
		}
	}
	return b.String()
}
