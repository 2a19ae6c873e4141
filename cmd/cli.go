package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/itchyny/gojq"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/spf13/pflag"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// cliFlags are the flags of --cli mode besides the server's and the tool's.
type cliFlags struct {
	args   string
	output string
	out    string
	maxOut int64
	file   string
	jq     string
	watch  bool
	// interval is --watch's wait between looks.
	interval time.Duration
	all      bool
	yes      bool
	help     bool
	// textFiles are the --NAME-file flags of the tool's long text
	// parameters (--body-file), by parameter name.
	textFiles map[string]*string
}

// runCLI runs `--cli list`, `--cli help [TOOL]` or `--cli TOOL ...`.
// before are the arguments ahead of --cli, after those behind it; server
// flags may stand in either, before or after the tool name.
func runCLI(ctx context.Context, before, after []string, std IO, env Env) int {
	// The whole inventory only when a list, a suggestion or a selection
	// needs it: a call finds its tool building only its own part.
	var all []tool.Def
	inventory := func() []tool.Def {
		if all == nil {
			all = operation.All()
		}
		return all
	}
	name, afterName, err := splitToolName(after, env)
	if err != nil {
		if errors.Is(err, errNoTool) && wantsHelp(after) {
			printCLIHelp(std.Out)
			return ExitOK
		}
		fmt.Fprintln(std.Err, "forgejo-mcp:", err)
		return ExitUsage
	}
	if name == "help" {
		topic, _, err := splitToolName(afterName, env)
		if err != nil || topic == "list" {
			printCLIHelp(std.Out)
			return ExitOK
		}
		name, afterName = topic, []string{"--help"}
	}
	rest := append(append([]string{}, before...), afterName...)
	def, found := operation.Find(name)
	if name != "list" && !found {
		fmt.Fprintf(std.Err, "forgejo-mcp: unknown tool %q%s; run forgejo-mcp --cli list for the tool names\n", name, didYouMeanWord(name, toolNames(inventory())))
		return ExitUsage
	}

	var cfg Config
	var cf cliFlags
	fs := pflag.NewFlagSet("forgejo-mcp --cli "+name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SetNormalizeFunc(normalizeFlag)
	cfg.registerFlags(fs, env)
	cf.register(fs, found, def.CLIFile != "")
	var params map[string]func() any
	if found {
		params = paramFlags(fs, def)
		cf.registerTextFiles(fs, def)
		cf.registerWatch(fs, def.Name)
	}
	onceOnly(fs)
	if err := fs.Parse(rest); err != nil {
		fmt.Fprintln(std.Err, "forgejo-mcp:", cliFlagError(fs, err, def, name))
		return ExitUsage
	}
	webURL := ""
	if fs.NArg() == 1 && found && def.TakesURL() && strings.Contains(fs.Arg(0), "://") {
		webURL = fs.Arg(0) // a page of the forge: what it names fills the arguments
	} else if fs.NArg() > 0 {
		fmt.Fprintf(std.Err, "forgejo-mcp: unexpected argument %q; parameters are flags (--name value)%s; see forgejo-mcp --cli %s --help\n", fs.Arg(0), urlHint(found, def), name)
		return ExitUsage
	}
	if err := cf.checkOutput(found, def); err != nil {
		fmt.Fprintln(std.Err, "forgejo-mcp:", err)
		return ExitUsage
	}
	if cf.help {
		if found {
			printToolHelp(std.Out, def)
		} else {
			fmt.Fprintf(std.Out, "forgejo-mcp --cli list [--output table|json] [--toolsets …] [--tools …] [--read-only]\n  the tools offered, by toolset\n")
		}
		return ExitOK
	}
	if !fs.Changed("log-level") && env("FORGEJO_MCP_LOG_LEVEL") == "" {
		cfg.LogLevel = "warn" // one-shot output stays clean; a call's failure is already printed
	}
	needForge := found && !def.Offline
	err = nil
	if needForge || fs.Changed("profile") {
		err = cfg.applyProfile(ctx, env)
	}
	if err == nil {
		err = cfg.resolve(env, needForge)
	}
	sel := cfg.selection()
	selecting := !found || len(sel.Toolsets) > 0 || len(sel.Tools) > 0 || len(sel.Exclude) > 0 || sel.ReadOnly
	var defs []tool.Def // the selection, when one is made
	if err == nil && selecting {
		defs, err = tool.Select(inventory(), sel)
	}
	if err != nil {
		fmt.Fprintln(std.Err, "forgejo-mcp:", err)
		return ExitUsage
	}
	if !found {
		return printList(std.Out, defs, cf.output)
	}
	offered := func(n string) (tool.Def, bool) {
		if !selecting {
			return operation.Find(n)
		}
		return tool.Find(defs, n)
	}
	if _, ok := offered(name); !ok {
		fmt.Fprintf(std.Err, "forgejo-mcp: %s is not offered with the current --toolsets/--tools/--exclude-tools/--read-only selection\n", name)
		return ExitUsage
	}
	var jq *gojq.Code
	if cf.jq != "" {
		if jq, err = compileJQ(cf.jq); err != nil {
			fmt.Fprintln(std.Err, "forgejo-mcp:", err)
			return ExitUsage
		}
	}
	args, err := cliArgs(ctx, fs, def, params, cf, std.In)
	if err == nil && webURL != "" {
		if _, dup := args[tool.URLArg]; dup {
			err = fmt.Errorf("two web URLs: one as the argument, one in --args; give one")
		}
		args[tool.URLArg] = webURL
	}
	var from repoFrom
	if err == nil {
		from, err = repoContext(fs, def, args, cfg.URL, env)
	}
	var runner *tool.Runner
	if err == nil {
		runner = cfg.runner(newLogger(std.Err, &cfg))
		if takesPull(def) && runner.Client != nil {
			if client, cerr := runner.Client(ctx); cerr == nil {
				err = branchPull(ctx, std, client, def, args, env)
			}
		}
	}
	if err != nil {
		fmt.Fprintln(std.Err, "forgejo-mcp:", err)
		stdinHint(std, cf)
		return ExitUsage
	}
	from.note(std, def, args)
	runner.Callable = func() []tool.Def {
		if selecting {
			return defs
		}
		return inventory()
	}
	asked, askedArgs := def, args
	if def.Forward != nil {
		// call_tool asks what the tool it calls would ask; naming no
		// tool it can call, it fails before anything is sent.
		target, inner, ok := tool.DispatchTarget(def, args, runner.Callable())
		asked, askedArgs = target, inner
		if !ok {
			asked = tool.Def{}
		}
	}
	if !cf.yes && asked.Annotations.Destructive && isTerminalReader(std.In) {
		if !confirm(std, asked, askedArgs) {
			fmt.Fprintln(std.Err, "forgejo-mcp: not confirmed; nothing was sent (--yes skips the question)")
			return ExitToolError
		}
	}
	call := func(a map[string]any) *mcp.CallToolResult { return runner.Call(ctx, def, a) }
	var res *mcp.CallToolResult
	switch {
	case cf.all:
		res = callAll(ctx, std, call, def, args)
	case cf.watch:
		res = watchCI(ctx, std, call, args, cf.interval)
	default:
		res = call(args)
	}
	window := windowMax(def)
	if cfg.MaxInlineBytes > 0 {
		window = min(window, cfg.MaxInlineBytes) // --max-inline-bytes bounds the windows too
	}
	if cf.out != "" && window > 0 && !res.IsError && args["offset"] == nil && args["max_bytes"] == nil {
		if _, _, inline := payload(res); !inline {
			// Over the inline cap: read it in windows.
			if err := pageOut(ctx, std, call, args, window, res, cf.out, cf.maxOut); err != nil {
				fmt.Fprintln(std.Err, "forgejo-mcp:", err)
				return ExitToolError
			}
			return ExitOK
		}
	}
	callTool := func(n string, a map[string]any) *mcp.CallToolResult {
		d, ok := offered(n)
		if !ok {
			return tool.Error(n + " is not offered with the current selection")
		}
		return runner.Call(ctx, d, a)
	}
	if jq != nil && !res.IsError {
		if err := runJQ(ctx, std.Out, jq, resultText(res)); err != nil {
			fmt.Fprintln(std.Err, "forgejo-mcp:", err)
			return ExitToolError
		}
	} else if err := printResult(std, res, cf, def, args, callTool); err != nil {
		fmt.Fprintln(std.Err, "forgejo-mcp:", err)
		return ExitToolError
	}
	if def.Name == ciTool && !res.IsError {
		return ciExit(res)
	}
	if res.IsError {
		// Arguments the tool refuses (a required one missing, a wrong
		// type) are a usage error of the command line, as a bad flag is;
		// the forge refusing a call is not. Parse tells them apart: it
		// fails exactly when the Runner refused before calling the tool.
		if _, err := def.Parse(args); err != nil {
			stdinHint(std, cf)
			fmt.Fprintf(std.Err, "see forgejo-mcp --cli %s --help\n", name)
			return ExitUsage
		}
		return ExitToolError
	}
	return ExitOK
}

// urlHint names the one positional argument a tool takes: a web URL.
func urlHint(found bool, def tool.Def) string {
	if found && def.TakesURL() {
		return ", or one web URL of the forge"
	}
	return ""
}

// stdinHint says, after arguments were found wanting, that JSON piped in
// is not read unless asked for (it was before --args - was required).
func stdinHint(std IO, cf cliFlags) {
	if cf.args == "" && isPipe(std.In) {
		fmt.Fprintln(std.Err, "forgejo-mcp: standard input is read for arguments only with --args -")
	}
}

// register adds the flags of --cli mode; args, out, all, yes and file
// only exist for a tool (file only for one that uploads a file).
func (cf *cliFlags) register(fs *pflag.FlagSet, forTool, withFile bool) {
	fs.StringVar(&cf.output, "output", "", "table (people: lists as tables, one object as fields and text; the default on a terminal), text (the result's text, JSON pretty-printed; the default otherwise), json (the result's JSON value) or mcp (the whole MCP result)")
	fs.BoolVarP(&cf.help, "help", "h", false, "show this tool's parameters")
	if forTool {
		fs.StringVar(&cf.args, "args", "", "arguments as a JSON object ('-' reads standard input)")
		fs.StringVar(&cf.out, "out", "", "write the file a result carries (blob, image or text file) to this file, read in windows when large; '-' is standard output")
		fs.Int64Var(&cf.maxOut, "max-out-bytes", DefaultMaxOutBytes, "largest file --out writes; a larger one is refused before anything is written")
		fs.BoolVar(&cf.all, "all", false, fmt.Sprintf("a list tool: follow has_more through every page (at most %d items), at the largest page size", maxAllItems))
		fs.BoolVarP(&cf.yes, "yes", "y", false, "a destructive tool: do not ask for confirmation on a terminal")
		fs.StringVarP(&cf.jq, "jq", "q", "", "filter the result's JSON with a jq expression; strings print as text")
	}
	if withFile {
		fs.StringVar(&cf.file, "file", "", "the file to upload: read and base64-encoded for you")
	}
}

// checkOutput validates --output and --all for the command; an empty
// --output means table on a terminal and text elsewhere, decided when
// printing.
func (cf *cliFlags) checkOutput(found bool, def tool.Def) error {
	switch cf.output {
	case "", "text", "json", "table", "mcp":
	default:
		return fmt.Errorf("unknown --output %q: use table, text, json or mcp (the whole MCP result, what --output json printed before)", cf.output)
	}
	if found && cf.all && !isList(def) {
		return fmt.Errorf("--all is for list tools (with page and limit); %s answers in one piece", def.Name)
	}
	if cf.jq != "" && cf.output != "" && cf.output != "json" {
		return fmt.Errorf("--jq prints JSON values: leave out --output %s", cf.output)
	}
	return nil
}

// errNoTool is a --cli command line without a tool name.
var errNoTool = errors.New("--cli needs a tool name or 'list': forgejo-mcp --cli list | forgejo-mcp --cli TOOL --help | forgejo-mcp --cli help")

// splitToolName finds the tool name in the arguments after --cli: the
// first one that is neither a flag nor a flag's value, so server flags may
// come before it (--cli --url U TOOL) as well as after. A flag ahead of the
// name must be a server or --cli flag: a tool's parameters are only known
// once the tool is.
func splitToolName(after []string, env Env) (string, []string, error) {
	var cfg Config
	var cf cliFlags
	fs := pflag.NewFlagSet("scan", pflag.ContinueOnError)
	fs.SetNormalizeFunc(normalizeFlag)
	cfg.registerFlags(fs, env)
	cf.register(fs, true, true)
	for i := 0; i < len(after); i++ {
		a := after[i]
		switch {
		case a == "--":
			i = len(after)
		case a == "-" || !strings.HasPrefix(a, "-"):
			return a, append(append([]string{}, after[:i]...), after[i+1:]...), nil
		case strings.Contains(a, "="):
		default:
			var f *pflag.Flag
			if strings.HasPrefix(a, "--") {
				f = fs.Lookup(string(normalizeFlag(fs, a[2:])))
			} else {
				f = fs.ShorthandLookup(a[1:])
			}
			if f == nil {
				return "", nil, fmt.Errorf("%s before the tool name is not a server flag; give the tool first: forgejo-mcp --cli TOOL %s …", a, a)
			}
			if f.NoOptDefVal == "" {
				i++ // its value
			}
		}
	}
	return "", nil, errNoTool
}

// wantsHelp says whether args ask for help (--help or -h).
func wantsHelp(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--help" || a == "-h" {
			return true
		}
	}
	return false
}

// cliFlagError is flagError for --cli, which also says when -R was given
// to a tool that takes no repository.
func cliFlagError(fs *pflag.FlagSet, err error, def tool.Def, name string) error {
	var missing *pflag.NotExistError
	if errors.As(err, &missing) && missing.GetSpecifiedShortnames() != "" && missing.GetSpecifiedName() == "R" {
		return fmt.Errorf("-R OWNER/REPO: %s takes no repository; see forgejo-mcp --cli %s --help", def.Name, name)
	}
	return flagError(fs, err, "forgejo-mcp --cli "+name+" --help")
}

func toolNames(all []tool.Def) []string {
	names := make([]string, len(all))
	for i, d := range all {
		names[i] = d.Name
	}
	return names
}

// didYouMeanWord is the "; did you mean …?" hint for an unknown name
// among names, or "".
func didYouMeanWord(name string, names []string) string {
	if hint := tool.Suggest(name, names); hint != "" {
		return fmt.Sprintf("; did you mean %q?", hint)
	}
	return ""
}
