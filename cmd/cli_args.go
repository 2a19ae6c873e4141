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
// a description, a commit message, a file's text, a diff), which --NAME-file FILE
// can fill from a file or standard input instead of the command line.
func longText(p tool.Param) bool {
	if p.Type != tool.TypeString || p.Sensitive || len(p.Enum) > 0 || p.Pattern != nil {
		return false
	}
	switch p.Name {
	case "body", "content", "description", "message", "diff":
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

// cliArgs merges --args (standard input for '-') with the typed flags, which
// win where both give a value, and with --NAME-file and --file.
func cliArgs(ctx context.Context, fs *pflag.FlagSet, d tool.Def, params map[string]func() any, cf cliFlags, stdin io.Reader) (map[string]any, error) {
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
	// Standard input is read only when asked (--args -): a call in a
	// shell loop or under a client's open pipe must not wait for, or eat,
	// input meant for someone else.
	if cf.args == "-" {
		b, err := readStdin(ctx, stdin, maxArgsStdinBytes)
		if err != nil {
			return nil, fmt.Errorf("--args -: reading standard input: %v", err)
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
		text, err := readTextFile(ctx, *path, stdin)
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
func readTextFile(ctx context.Context, path string, stdin io.Reader) (string, error) {
	var b []byte
	var err error
	if path == "-" {
		b, err = readStdin(ctx, stdin, maxTextFileBytes+1)
	} else {
		var f *os.File
		if f, err = os.Open(path); err != nil {
			return "", errors.Unwrap(err)
		}
		defer f.Close()
		b, err = io.ReadAll(io.LimitReader(f, maxTextFileBytes+1))
	}
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

// maxArgsStdinBytes bounds --args - (the JSON of one call; an upload's
// base64 included).
const maxArgsStdinBytes = 64 << 20

// readStdin reads r (standard input) to its end, at most limit bytes,
// and gives up when ctx ends: a read from a pipe nobody closes cannot be
// interrupted, so it runs apart and is abandoned (the process is about
// to exit).
func readStdin(ctx context.Context, r io.Reader, limit int64) ([]byte, error) {
	if r == nil {
		return nil, errors.New("no standard input")
	}
	type read struct {
		b   []byte
		err error
	}
	done := make(chan read, 1)
	go func() {
		b, err := io.ReadAll(io.LimitReader(r, limit))
		done <- read{b, err}
	}()
	select {
	case got := <-done:
		return got.b, got.err
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

// isPipe reports whether r is a pipe or a file rather than a terminal:
// where JSON a caller meant as arguments may be waiting, unread.
func isPipe(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice == 0 && (st.Mode()&os.ModeNamedPipe != 0 || st.Mode().IsRegular())
}
