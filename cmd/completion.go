package cmd

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/pflag"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Shell completion. The scripts are thin: on each TAB they run
// `forgejo-mcp __complete WORD… CURRENT`, and the binary answers from the
// same tool inventory and flag registrations the parser uses (tools,
// flags, enum values), plus owners, repositories, branches, tags, paths
// and issue numbers from the forge through pkg/complete when one is
// configured. So completion cannot fall behind the tools, and one Go
// implementation serves bash, zsh and fish. Each answer line is a
// candidate, a tab and its description; a first line ":files" asks the
// shell to complete file names.

// completeCommand is the hidden subcommand the scripts call.
const completeCommand = "__complete"

// filesDirective asks the shell for file name completion.
const filesDirective = ":files"

// runCompletion is `forgejo-mcp completion bash|zsh|fish`.
func runCompletion(_ context.Context, args []string, std IO, _ Env) int {
	scripts := map[string]string{"bash": bashCompletion, "zsh": zshCompletion, "fish": fishCompletion}
	if len(args) == 1 {
		if s, ok := scripts[args[0]]; ok {
			fmt.Fprint(std.Out, s)
			return ExitOK
		}
	}
	help := `Usage: forgejo-mcp completion bash|zsh|fish

Prints the completion script for the shell. To load it:
  bash  in ~/.bashrc:                      source <(forgejo-mcp completion bash)
  zsh   in ~/.zshrc, after compinit:       source <(forgejo-mcp completion zsh)
  fish  once:  forgejo-mcp completion fish > ~/.config/fish/completions/forgejo-mcp.fish

It completes tool names, flags and their values; with a forge configured
(FORGEJO_URL or a profile) also owners, repositories, branches, tags,
paths and issue numbers, asking the forge (each lookup bounded to 3 s).
`
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help") {
		fmt.Fprint(std.Out, help)
		return ExitOK
	}
	if len(args) == 1 {
		fmt.Fprintf(std.Err, "forgejo-mcp completion: unknown shell %q%s\n", args[0], didYouMeanWord(args[0], []string{"bash", "zsh", "fish"}))
	}
	fmt.Fprint(std.Err, help)
	return ExitUsage
}

// runComplete is `forgejo-mcp __complete WORD… CURRENT`: the candidates
// for CURRENT after the words, one a line. The words come as the shell
// has them on its command line, quotes and backslashes included
// (dequoted here); the candidates go out raw, each script quoting them
// for its shell, and a candidate that cannot be one line of plain text
// (a newline, a control character: forge names are written by others) is
// left out.
func runComplete(ctx context.Context, args []string, std IO, env Env) int {
	words := make([]string, len(args))
	for i, a := range args {
		words[i] = dequote(a)
	}
	for _, c := range completions(ctx, words, env) {
		value, desc, _ := strings.Cut(c, "\t")
		if !plainText(value) {
			continue
		}
		if desc != "" {
			value += "\t" + strings.Map(func(r rune) rune {
				if !plainText(string(r)) {
					return ' '
				}
				return r
			}, desc)
		}
		fmt.Fprintln(std.Out, value)
	}
	return ExitOK
}

// plainText says whether s can go on a command line as typed text: no
// control characters (newline, escape, C1) and no bidirectional controls,
// which would make a candidate read otherwise than it runs.
func plainText(s string) bool {
	for _, r := range s {
		if unicode.IsControl(r) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == utf8.RuneError {
			return false
		}
	}
	return true
}

// dequote reads a word as a shell wrote it (bash's COMP_WORDS, zsh's
// words, fish's current token): single and double quotes and backslash
// escapes are taken off, so a half-typed 'x$( is the text x$( it stands
// for. An unclosed quote ends with the word.
func dequote(w string) string {
	if !strings.ContainsAny(w, `'"\`) {
		return w
	}
	var b strings.Builder
	var quote rune
	escaped := false
	for _, r := range w {
		switch {
		case escaped:
			escaped = false
			b.WriteRune(r)
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				b.WriteRune(r)
			}
		case r == '\\':
			escaped = true
		case quote == '"':
			if r == '"' {
				quote = 0
			} else {
				b.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote = r
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// candidate is one completion with its description ("" for none).
func candidate(value, desc string) string {
	if desc == "" {
		return value
	}
	if i := strings.IndexAny(desc, ".;("); i > 20 {
		desc = desc[:i]
	}
	return value + "\t" + strings.TrimSpace(cut(desc, 60))
}

// matching keeps the candidates starting with prefix.
func matching(prefix string, cands []string) []string {
	var out []string
	for _, c := range cands {
		if strings.HasPrefix(c, prefix) {
			out = append(out, c)
		}
	}
	return out
}

// completions answers for the words after the program name, the last
// being the one completed (maybe empty).
func completions(ctx context.Context, words []string, env Env) []string {
	if len(words) == 0 {
		words = []string{""}
	}
	cur, prev := words[len(words)-1], words[:len(words)-1]
	if i := indexOf(prev, "--cli"); i >= 0 {
		return completeCLI(ctx, prev[:i], prev[i+1:], cur, env)
	}
	if len(prev) > 0 {
		switch prev[0] {
		case "completion":
			if len(prev) == 1 {
				return matching(cur, []string{"bash", "zsh", "fish"})
			}
			return nil
		case "login":
			o := &loginOptions{}
			return completeFlags(ctx, o.flags(), prev[1:], cur, env, nil)
		case "logout":
			var name string
			return completeFlags(ctx, logoutFlags(&name), prev[1:], cur, env, nil)
		}
	}
	var cfg Config
	fs := serverFlags(&cfg, env)
	if out, done := flagValues(ctx, fs, prev, cur, env, nil); done {
		return out
	}
	if strings.HasPrefix(cur, "-") {
		return matching(cur, append(flagNames(fs, prev), candidate("--cli", "call one tool from the shell"), candidate("--help", "")))
	}
	if len(prev) == 0 {
		return matching(cur, []string{candidate("login", "store a forge and its token"), candidate("logout", "forget a stored forge"),
			candidate("api", "call an API route no tool covers"),
			candidate("completion", "a shell completion script")})
	}
	return nil
}

// completeCLI completes after --cli: the tool name, then its flags and
// their values.
func completeCLI(ctx context.Context, before, after []string, cur string, env Env) []string {
	name, rest, err := splitToolName(after, env)
	var cf cliFlags
	var cfg Config
	fs := serverFlags(&cfg, env)
	d, known := findTool(name)
	cf.register(fs, err == nil && name != "list", err != nil || (known && d.CLIFile != ""))
	if err != nil {
		if out, done := flagValues(ctx, fs, after, cur, env, nil); done {
			return out
		}
		if strings.HasPrefix(cur, "-") {
			return matching(cur, flagNames(fs, after))
		}
		return matching(cur, toolCandidates(true))
	}
	if name == "help" {
		if len(rest) == 0 && !strings.HasPrefix(cur, "-") {
			return matching(cur, toolCandidates(false))
		}
		return nil
	}
	words := append(append([]string{}, before...), rest...)
	var def *tool.Def
	if known {
		def = &d
		paramFlags(fs, d)
		cf.registerTextFiles(fs, d)
	} else if name != "list" {
		return nil
	}
	return completeFlags(ctx, fs, words, cur, env, def)
}

// completeFlags completes a flag's value or a flag name of fs. For a
// tool, its own flags (its parameters, their --NAME-file twins and the
// flags of --cli) come first: the server's flags, four times as many, are
// offered only when none of the tool's matches what was typed (--pro →
// --profile).
func completeFlags(ctx context.Context, fs *pflag.FlagSet, words []string, cur string, env Env, def *tool.Def) []string {
	if out, done := flagValues(ctx, fs, words, cur, env, def); done {
		return out
	}
	if !strings.HasPrefix(cur, "-") {
		return nil
	}
	all := matching(cur, flagNames(fs, words))
	if def == nil {
		return all
	}
	var cfg Config
	server := serverFlags(&cfg, env)
	var own, others []string
	for _, c := range all {
		name, _, _ := strings.Cut(strings.TrimPrefix(c, "--"), "\t")
		if server.Lookup(name) != nil {
			others = append(others, c)
		} else {
			own = append(own, c)
		}
	}
	if len(own) > 0 {
		return own
	}
	return others
}

// toolCandidates are the tool names with their descriptions, and list
// (and help) when withWords.
func toolCandidates(withWords bool) []string {
	var out []string
	if withWords {
		out = append(out, candidate("list", "the tools, by toolset"), candidate("help", "how --cli works"))
	}
	for _, d := range allTools() {
		out = append(out, candidate(d.Name, d.Description))
	}
	return out
}
