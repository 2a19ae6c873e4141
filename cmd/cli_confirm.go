package cmd

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"golang.org/x/term"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// A destructive tool (one that deletes, or overwrites what exists: its
// destructiveHint) asks before it runs when a person is at the terminal,
// as an MCP client asks its user. Scripts, whose standard input is not a
// terminal, behave as before; --yes skips the question.

// confirm shows what is about to happen and reads the answer: only y or
// yes goes ahead; anything else, or end of input, does not.
func confirm(std IO, d tool.Def, args map[string]any) bool {
	fmt.Fprintf(std.Err, "%s changes or deletes what exists on the forge: %s\n%s? [y/N] ", d.Name, describeCall(d, args), d.Title)
	line, err := bufio.NewReader(std.In).ReadString('\n')
	if err != nil && line == "" {
		fmt.Fprintln(std.Err)
		return false
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true
	}
	return false
}

// describeCall names the call's target and its other arguments, long
// values cut, so the question says what would change.
func describeCall(d tool.Def, args map[string]any) string {
	var parts []string
	target := ""
	if o, r := args["owner"], args["repo"]; o != nil && r != nil {
		target = fmt.Sprintf("%v/%v", o, r)
		if n, ok := args["index"]; ok {
			target += fmt.Sprintf("#%v", n)
		}
		parts = append(parts, target)
	}
	var keys []string
	for k := range args {
		if k == "owner" || k == "repo" || (k == "index" && target != "") {
			continue
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := fmt.Sprint(args[k])
		if p, ok := paramOf(d, k); ok && p.Sensitive {
			v = "…"
		}
		parts = append(parts, fmt.Sprintf("%s=%s", k, cut(clean(v, false), 40)))
	}
	return strings.Join(parts, " ")
}

// isTerminalReader says whether r is a terminal (not a pipe, a file or
// /dev/null): where a person can answer a question.
func isTerminalReader(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// isTerminalWriter says whether w is a terminal, where output for people
// is the better default.
func isTerminalWriter(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
