package cmd

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// maxTextFileBytes bounds a --NAME-file; the tool's own length limit
// (a body's 64 KiB) then applies to what was read.
const maxTextFileBytes = 16 << 20

// paramFlags registers one typed flag per parameter and returns, for each,
// a getter of its parsed value. The repository parameter also answers to
// -R, which takes OWNER/REPO (repoContext splits it).
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
			short := ""
			if p.Name == "repo" && hasParam(d, "owner") {
				short = "R"
			}
			v := fs.StringP(p.Name, short, "", p.Description)
			get[p.Name] = func() any { return *v }
		}
	}
	return get
}

// longText says whether p is free text a person writes at length (a body,
// a description, a commit message, a file's text), which --NAME-file FILE
// can fill from a file or standard input instead of the command line.
func longText(p tool.Param) bool {
	if p.Type != tool.TypeString || p.Sensitive || len(p.Enum) > 0 || p.Pattern != nil {
		return false
	}
	switch p.Name {
	case "body", "content", "description", "message":
		return true
	}
	return false
}

// registerTextFiles adds --NAME-file for each long text parameter of d.
func (cf *cliFlags) registerTextFiles(fs *pflag.FlagSet, d tool.Def) {
	cf.textFiles = map[string]*string{}
	for _, p := range d.Params {
		flag := strings.ReplaceAll(p.Name, "_", "-") + "-file"
		if !longText(p) || fs.Lookup(flag) != nil {
			continue
		}
		cf.textFiles[p.Name] = fs.String(flag, "", fmt.Sprintf("read --%s from this file ('-': standard input)", strings.ReplaceAll(p.Name, "_", "-")))
	}
}

// cliArgs merges --args (or standard input) with the typed flags, which
// win where both give a value, and with --NAME-file and --file.
func cliArgs(fs *pflag.FlagSet, d tool.Def, params map[string]func() any, cf cliFlags, stdin io.Reader) (map[string]any, error) {
	args := map[string]any{}
	stdinUsers := 0
	if cf.args == "-" {
		stdinUsers++
	}
	for _, path := range cf.textFiles {
		if *path == "-" {
			stdinUsers++
		}
	}
	if stdinUsers > 1 {
		return nil, errors.New("standard input can be read once: give '-' to only one of --args and the --…-file flags")
	}
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
	for name, path := range cf.textFiles {
		if *path == "" {
			continue
		}
		flag := strings.ReplaceAll(name, "_", "-")
		if fs.Changed(flag) {
			return nil, fmt.Errorf("--%s and --%s-file both give %s: give one", flag, flag, name)
		}
		text, err := readTextFile(*path, stdin)
		if err != nil {
			return nil, fmt.Errorf("--%s-file %s: %v", flag, *path, err)
		}
		args[name] = text
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

// readTextFile reads a --NAME-file: a file, or standard input for "-".
// The text must be UTF-8: a binary file is refused rather than mangled.
func readTextFile(path string, stdin io.Reader) (string, error) {
	var r io.Reader
	if path == "-" {
		if stdin == nil {
			return "", errors.New("no standard input")
		}
		r = stdin
	} else {
		f, err := os.Open(path)
		if err != nil {
			return "", errors.Unwrap(err)
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, maxTextFileBytes+1))
	if err != nil {
		return "", err
	}
	if len(b) > maxTextFileBytes {
		return "", fmt.Errorf("larger than %d MiB", maxTextFileBytes>>20)
	}
	if tool.IsBinary(b) {
		return "", errors.New("not text (a NUL byte or invalid UTF-8); attach a binary file with an upload tool instead")
	}
	return string(b), nil
}

func hasParam(d tool.Def, name string) bool {
	for _, p := range d.Params {
		if p.Name == name {
			return true
		}
	}
	return false
}

// isList says whether d answers one page of a list ({items, page,
// has_more}): it takes a page and a page size.
func isList(d tool.Def) bool { return hasParam(d, "page") && hasParam(d, "limit") }

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
