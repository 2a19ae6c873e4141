package cmd

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

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
	help   bool
}

// runCLI runs `--cli list` or `--cli TOOL ...`. before are the arguments
// ahead of --cli, after those behind it; server flags may stand in either,
// before or after the tool name.
func runCLI(ctx context.Context, before, after []string, std IO, env Env) int {
	name, afterName, err := splitToolName(after, env)
	if err != nil {
		fmt.Fprintln(std.Err, "forgejo-mcp:", err)
		return ExitUsage
	}
	rest := append(append([]string{}, before...), afterName...)
	all := operation.All()
	def, found := tool.Find(all, name)
	if name != "list" && !found {
		fmt.Fprintf(std.Err, "forgejo-mcp: unknown tool %q%s; run forgejo-mcp --cli list for the tool names\n", name, didYouMean(name, all))
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
	}
	if err := fs.Parse(rest); err != nil {
		fmt.Fprintf(std.Err, "forgejo-mcp: %v; see forgejo-mcp --cli %s --help\n", err, name)
		return ExitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(std.Err, "forgejo-mcp: unexpected argument %q; parameters are flags (--name value)\n", fs.Arg(0))
		return ExitUsage
	}
	if cf.output != "text" && cf.output != "json" {
		fmt.Fprintf(std.Err, "forgejo-mcp: unknown --output %q: use text or json\n", cf.output)
		return ExitUsage
	}
	if cf.help {
		if found {
			printToolHelp(std.Out, def, fs)
		} else {
			fmt.Fprintf(std.Out, "forgejo-mcp --cli list [--output json] [--toolsets …] [--read-only]\n")
		}
		return ExitOK
	}
	if !fs.Changed("log-level") && env("FORGEJO_MCP_LOG_LEVEL") == "" {
		cfg.LogLevel = "warn" // one-shot output stays clean; a call's failure is already printed
	}
	if err := cfg.resolve(env, found && !def.Offline); err != nil {
		fmt.Fprintln(std.Err, "forgejo-mcp:", err)
		return ExitUsage
	}
	defs, err := tool.Select(all, cfg.selection())
	if err != nil {
		fmt.Fprintln(std.Err, "forgejo-mcp:", err)
		return ExitUsage
	}
	if !found {
		return printList(std.Out, defs, cf.output)
	}
	if _, ok := tool.Find(defs, name); !ok {
		fmt.Fprintf(std.Err, "forgejo-mcp: %s is not offered with the current --toolsets/--tools/--exclude-tools/--read-only selection\n", name)
		return ExitUsage
	}
	args, err := cliArgs(fs, def, params, cf, std.In)
	if err != nil {
		fmt.Fprintln(std.Err, "forgejo-mcp:", err)
		return ExitUsage
	}
	runner := cfg.runner(newLogger(std.Err, &cfg))
	res := runner.Call(ctx, def, args)
	if window := windowMax(def); cf.out != "" && window > 0 && !res.IsError && args["offset"] == nil && args["max_bytes"] == nil {
		if _, _, inline := payload(res); !inline {
			// Over the inline cap: read it in windows.
			call := func(a map[string]any) *mcp.CallToolResult { return runner.Call(ctx, def, a) }
			if err := pageOut(ctx, std, call, args, window, res, cf.out, cf.maxOut); err != nil {
				fmt.Fprintln(std.Err, "forgejo-mcp:", err)
				return ExitToolError
			}
			return ExitOK
		}
	}
	if err := printResult(std, res, cf); err != nil {
		fmt.Fprintln(std.Err, "forgejo-mcp:", err)
		return ExitToolError
	}
	if res.IsError {
		// Arguments the tool refuses (a required one missing, a wrong
		// type) are a usage error of the command line, as a bad flag is;
		// the forge refusing a call is not. Parse tells them apart: it
		// fails exactly when the Runner refused before calling the tool.
		if _, err := def.Parse(args); err != nil {
			fmt.Fprintf(std.Err, "see forgejo-mcp --cli %s --help\n", name)
			return ExitUsage
		}
		return ExitToolError
	}
	return ExitOK
}

// register adds the flags of --cli mode; args, out and file only exist
// for a tool (file only for one that uploads a file).
func (cf *cliFlags) register(fs *pflag.FlagSet, forTool, withFile bool) {
	fs.StringVar(&cf.output, "output", "text", "text (the result's text, JSON pretty-printed) or json (the whole MCP result)")
	fs.BoolVarP(&cf.help, "help", "h", false, "show this tool's parameters")
	if forTool {
		fs.StringVar(&cf.args, "args", "", "arguments as a JSON object ('-' reads standard input)")
		fs.StringVar(&cf.out, "out", "", "write the file a result carries (blob, image or text file) to this file, read in windows when large; '-' is standard output")
		fs.Int64Var(&cf.maxOut, "max-out-bytes", DefaultMaxOutBytes, "largest file --out writes; a larger one is refused before anything is written")
	}
	if withFile {
		fs.StringVar(&cf.file, "file", "", "the file to upload: read and base64-encoded for you")
	}
}

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
	return "", nil, errors.New("--cli needs a tool name or 'list': forgejo-mcp --cli list | forgejo-mcp --cli TOOL --help")
}

func normalizeFlag(_ *pflag.FlagSet, n string) pflag.NormalizedName {
	return pflag.NormalizedName(strings.ReplaceAll(n, "_", "-"))
}

// didYouMean is the "; did you mean …?" hint for an unknown tool name, or "".
func didYouMean(name string, all []tool.Def) string {
	names := make([]string, len(all))
	for i, d := range all {
		names[i] = d.Name
	}
	if hint := tool.Suggest(name, names); hint != "" {
		return fmt.Sprintf("; did you mean %q?", hint)
	}
	return ""
}

// paramFlags registers one typed flag per parameter and returns, for each,
// a getter of its parsed value.
func paramFlags(fs *pflag.FlagSet, d tool.Def) map[string]func() any {
	get := make(map[string]func() any, len(d.Params))
	for _, p := range d.Params {
		if fs.Lookup(p.Name) != nil {
			continue // a server flag of the same name; --args still reaches it
		}
		switch p.Type {
		case tool.TypeInteger:
			v := fs.Int64(p.Name, 0, p.Description)
			get[p.Name] = func() any { return *v }
		case tool.TypeBoolean:
			v := fs.Bool(p.Name, false, p.Description)
			get[p.Name] = func() any { return *v }
		case tool.TypeList:
			v := fs.StringSlice(p.Name, nil, p.Description+" (comma-separated or repeated)")
			get[p.Name] = func() any { return *v }
		default:
			v := fs.String(p.Name, "", p.Description)
			get[p.Name] = func() any { return *v }
		}
	}
	return get
}

// cliArgs merges --args (or standard input) with the typed flags, which
// win where both give a value.
func cliArgs(fs *pflag.FlagSet, d tool.Def, params map[string]func() any, cf cliFlags, stdin io.Reader) (map[string]any, error) {
	args := map[string]any{}
	src := []byte(cf.args)
	if cf.args == "-" || (cf.args == "" && fs.NFlag() == 0 && isPipe(stdin)) {
		b, err := io.ReadAll(io.LimitReader(stdin, 64<<20))
		if err != nil {
			return nil, fmt.Errorf("reading arguments from standard input: %v", err)
		}
		src = b
	}
	if len(bytes.TrimSpace(src)) > 0 {
		if err := json.Unmarshal(src, &args); err != nil {
			return nil, fmt.Errorf("--args is not a JSON object: %v", err)
		}
	}
	for name, get := range params {
		if fs.Changed(name) {
			args[name] = get()
		}
	}
	if cf.file != "" {
		b, err := os.ReadFile(cf.file)
		if err != nil {
			return nil, fmt.Errorf("--file %s: %v", cf.file, errors.Unwrap(err))
		}
		args[d.CLIFile] = base64.StdEncoding.EncodeToString(b)
		if _, ok := args["filename"]; !ok && hasParam(d, "filename") {
			args["filename"] = filepath.Base(cf.file)
		}
	}
	return args, nil
}

func hasParam(d tool.Def, name string) bool {
	for _, p := range d.Params {
		if p.Name == name {
			return true
		}
	}
	return false
}

// isPipe reports whether r is a pipe or file rather than a terminal, so
// JSON piped in is read while an interactive shell is not waited on.
func isPipe(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return r != nil
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice == 0 && (st.Mode()&os.ModeNamedPipe != 0 || st.Mode().IsRegular())
}

func printList(w io.Writer, defs []tool.Def, output string) int {
	if output == "json" {
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
		return ExitOK
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, d := range defs {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", d.Name, d.Toolset, d.Description)
	}
	_ = tw.Flush()
	return ExitOK
}

func printToolHelp(w io.Writer, d tool.Def, fs *pflag.FlagSet) {
	fmt.Fprintf(w, "%s (%s toolset, %s)\n  %s\n\nParameters:\n", d.Name, d.Toolset, tool.AnnotationSummary(d.Annotations), d.Description)
	for _, p := range d.Params {
		summary := tool.ParamSummary(p)
		if p.Name == d.CLIFile {
			summary += "; or pass the file itself with --file PATH"
		}
		fmt.Fprintf(w, "  --%-16s %-8s %s\n", strings.ReplaceAll(p.Name, "_", "-"), p.Type, summary)
	}
	if d.CLIFile != "" {
		fmt.Fprintf(w, "  --%-16s %-8s %s\n", "file", "path", fmt.Sprintf(
			"The file to upload: read and base64-encoded into --%s for you, the way to pass content on the command line", strings.ReplaceAll(d.CLIFile, "_", "-")))
	}
	if len(d.Params) == 0 {
		fmt.Fprintln(w, "  (none)")
	}
	fmt.Fprintln(w, "\nAlso: --args JSON (or '-' for standard input), --output text|json, --out FILE, and the server flags (--url, --token-file, …).")
}

// printResult writes the result: its text (JSON pretty-printed) or the
// whole MCP result, and saves the file it carries to --out. Binary content
// is never dropped silently: without --out a line says what there is.
func printResult(std IO, res *mcp.CallToolResult, cf cliFlags) error {
	if cf.out != "" && !res.IsError {
		if err := saveOne(std, res, cf.out, cf.maxOut); err != nil {
			return err
		}
		if cf.out == "-" {
			std.Out = std.Err // the file went to standard output
		}
		if metaString(res, "content") == "text" && cf.output != "json" {
			// The text file is saved, not printed as well.
			res = &mcp.CallToolResult{Content: res.Content[:len(res.Content)-1]}
		}
	}
	if cf.output == "json" {
		enc := json.NewEncoder(std.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	w := std.Out
	if res.IsError {
		w = std.Err
	}
	for _, c := range res.Content {
		switch c := c.(type) {
		case mcp.TextContent:
			fmt.Fprintln(w, prettyJSON(c.Text))
		default:
			if _, desc, ok := binaryContent(c); ok && cf.out == "" {
				fmt.Fprintf(w, "[%s: use --out FILE to save it]\n", desc)
			}
		}
	}
	return nil
}

// binaryContent decodes an image or blob resource content.
func binaryContent(c mcp.Content) ([]byte, string, bool) {
	var data, mime, what string
	switch c := c.(type) {
	case mcp.ImageContent:
		data, mime, what = c.Data, c.MIMEType, "image"
	case mcp.EmbeddedResource:
		blob, ok := c.Resource.(mcp.BlobResourceContents)
		if !ok {
			return nil, "", false
		}
		data, mime, what = blob.Blob, blob.MIMEType, "blob "+blob.URI
	default:
		return nil, "", false
	}
	b, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return nil, "", false
	}
	return b, fmt.Sprintf("%s, %s, %d bytes", what, mime, len(b)), true
}

func prettyJSON(s string) string {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "{") && !strings.HasPrefix(t, "[") {
		return s
	}
	var buf bytes.Buffer
	if json.Indent(&buf, []byte(t), "", "  ") != nil {
		return s
	}
	return buf.String()
}
