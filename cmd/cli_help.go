package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// printCLIHelp is `--cli help` and `--cli --help`: how to call a tool, the
// flags of --cli itself (from the same registration the parser uses), the
// repository context, and the exit codes.
func printCLIHelp(w io.Writer) {
	var cf cliFlags
	fs := pflag.NewFlagSet("cli", pflag.ContinueOnError)
	cf.register(fs, true, true)
	fs.StringP("repo", "R", "", "OWNER/REPO: the repository, for tools that take --owner and --repo")
	fs.String("NAME-file", "", "read a long text parameter (--body, --description, --message, --content) from FILE; '-' is standard input")
	onceOnly(fs) // printed as the parser's flags are
	fmt.Fprintf(w, `forgejo-mcp --cli: one tool call from a shell

Usage:
  forgejo-mcp --cli list                   the tools, by toolset (--toolsets, --read-only narrow it)
  forgejo-mcp --cli TOOL --help            a tool's parameters
  forgejo-mcp --cli TOOL [--PARAM VALUE …] call it; parameters are typed flags
  forgejo-mcp --cli help [TOOL]            this help, or a tool's

Flags of --cli:
%s
%s
Destructive tools (list marks them) ask before they run when standard input
is a terminal; --yes skips the question, and scripts are never asked.

Exit status: 0 success, 1 the tool or the forge failed (message on standard
error), 2 a usage mistake caught before any call.

Server flags (--url, --profile, --token-file, --toolsets, …) work here too:
forgejo-mcp --help lists them and the environment variables.
`, fs.FlagUsages(), repoContextHelp)
}

// repoContextHelp is the precedence of the repository a tool acts on.
const repoContextHelp = `The repository, for a tool that takes --owner and --repo, the first that applies:
  1. a web URL of the forge as the one argument (a repository, issue, pull
     request, file, commit or run page: it fills what it names)
  2. --owner and --repo (or the same in --args)
  3. -R OWNER/REPO (also --repo OWNER/REPO, -R HOST/OWNER/REPO, -R URL)
  4. the git remote of the current directory's repository that points at the
     configured forge (https or ssh; the remote named origin first, then
     upstream, then the others by name); a write says which on stderr
A pull request tool without --index, in a clone: the open pull request of
the checked-out branch.
`

// printToolHelp is `--cli TOOL --help`.
func printToolHelp(w io.Writer, d tool.Def) {
	fmt.Fprintf(w, "%s (%s toolset, %s)\n  %s\n\nParameters:\n", d.Name, d.Toolset, tool.AnnotationSummary(d.Annotations), d.Description)
	for _, p := range d.Params {
		summary := tool.ParamSummary(p)
		if p.Name == d.CLIFile {
			summary += "; or pass the file itself with --file PATH"
		}
		if longText(p) {
			summary += fmt.Sprintf("; or --%s-file FILE ('-': standard input)", strings.ReplaceAll(p.Name, "_", "-"))
		}
		flag := strings.ReplaceAll(p.Name, "_", "-")
		if p.Name == "repo" && hasParam(d, "owner") {
			summary += "; -R OWNER/REPO gives both"
		}
		fmt.Fprintf(w, "  --%-16s %-8s %s\n", flag, p.Type, summary)
	}
	if d.CLIFile != "" {
		fmt.Fprintf(w, "  --%-16s %-8s %s\n", "file", "path", fmt.Sprintf(
			"The file to upload: read and base64-encoded into --%s for you, the way to pass content on the command line", strings.ReplaceAll(d.CLIFile, "_", "-")))
	}
	if len(d.Params) == 0 {
		fmt.Fprintln(w, "  (none)")
	}
	also := []string{"--args JSON (or '-' for standard input)", "--output table|text|json|mcp", "--out FILE"}
	if isList(d) {
		also = append(also, fmt.Sprintf("--all (every page, up to %d items)", maxAllItems))
	}
	if d.Annotations.Destructive {
		also = append(also, "--yes (do not ask on a terminal)")
	}
	fmt.Fprintf(w, "\nAlso: %s, and the server flags (--url, --profile, --token-file, …); forgejo-mcp --cli help says more.\n", strings.Join(also, ", "))
	if hasParam(d, "owner") && hasParam(d, "repo") {
		fmt.Fprintf(w, "\n%s", repoContextHelp)
	}
}

// printList lists defs: as JSON, or by toolset for people (on a terminal,
// or with --output table), or one tool a line (name, toolset, description)
// in the inventory's order, which keeps each toolset together, for scripts.
func printList(w io.Writer, defs []tool.Def, output string) int {
	if output == "" && isTerminalWriter(w) {
		output = "table"
	}
	switch output {
	case "json", "mcp":
		type entry struct {
			Name        string `json:"name"`
			Toolset     string `json:"toolset"`
			Description string `json:"description"`
			ReadOnly    bool   `json:"read_only"`
			Destructive bool   `json:"destructive"`
		}
		list := make([]entry, len(defs))
		for i, d := range defs {
			list[i] = entry{d.Name, d.Toolset.ID, d.Description, d.Annotations.ReadOnly, d.Annotations.Destructive}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		_ = enc.Encode(list)
	case "table":
		for i, ts := range tool.ToolsetsOf(defs) {
			if i > 0 {
				fmt.Fprintln(w)
			}
			dflt := ""
			if ts.Default {
				dflt = " (default)"
			}
			fmt.Fprintf(w, "%s: %s%s\n", ts.ID, ts.Description, dflt)
			tw := newTable(w)
			for _, d := range defs {
				if d.Toolset.ID == ts.ID {
					fmt.Fprintf(tw, "  %s\t%s\t%s\n", d.Name, kind(d.Annotations), d.Description)
				}
			}
			_ = tw.Flush()
		}
	default:
		tw := newTable(w)
		for _, d := range defs {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", d.Name, d.Toolset, d.Description)
		}
		_ = tw.Flush()
	}
	return ExitOK
}

// kind is a tool's annotations in one word for the list.
func kind(a tool.Annotations) string {
	switch {
	case a.ReadOnly:
		return "read"
	case a.Destructive:
		return "destructive"
	}
	return "write"
}
