package repo

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// change_files' replace operation edits a file in place: the exact text
// old becomes content, so an agent changing one line sends that line, not
// the whole file. The file is read here, edited, and committed as an update
// carrying the SHA just read, so the forge refuses the commit if the file
// changed in between: the same guard as an update whose sha the agent read.

// edited is one file's edit: its text after every replace given for it,
// the SHA it was read at, and the first item that edits it.
type edited struct {
	text, sha string
	first     int
}

// applyReplaces reads each file that replace items name, once, from
// branch, and applies their replacements in order. It refuses a file that
// another item of the call also writes, a stale sha, a binary or unreadable
// file, and an old text found other than exactly once.
func applyReplaces(ctx context.Context, c *forgejo.Client, a tool.Args, files []tool.Args) (map[string]*edited, error) {
	out := map[string]*edited{}
	for i, f := range files {
		if f.String("operation") != "replace" {
			continue
		}
		path := f.String("path")
		e := out[path]
		if e == nil {
			if j := otherWriter(files, path); j >= 0 {
				return nil, fmt.Errorf("files[%d] replaces text in %s, which files[%d] also writes: edit a file one way per call", i, path, j)
			}
			var err error
			if e, err = readForEdit(ctx, c, a, path); err != nil {
				return nil, err
			}
			e.first = i
			out[path] = e
		}
		if sha := f.String("sha"); sha != "" && sha != e.sha {
			return nil, fmt.Errorf("files[%d] (%s) has an out-of-date sha %s: the file is now at %s; read it again with get_file_content", i, path, sha, e.sha)
		}
		text, err := replaceOnce(e.text, f.String("old"), f.String("content"))
		if err != nil {
			return nil, fmt.Errorf("files[%d] (%s): %w", i, path, err)
		}
		e.text = text
	}
	return out, nil
}

// otherWriter is the index of a non-replace item that writes path (as its
// path or the path it moves from), -1 if none.
func otherWriter(files []tool.Args, path string) int {
	for j, f := range files {
		if f.String("operation") != "replace" && (f.String("path") == path || f.String("from_path") == path) {
			return j
		}
	}
	return -1
}

// replaceOnce replaces the one occurrence of old in text by repl. A file
// with CRLF line ends is matched with old's line ends made CRLF too, as an
// agent copies lines without their \r.
func replaceOnce(text, old, repl string) (string, error) {
	n := strings.Count(text, old)
	if n == 0 && strings.Contains(text, "\r\n") && !strings.Contains(old, "\r\n") {
		crlf := strings.ReplaceAll(old, "\n", "\r\n")
		if m := strings.Count(text, crlf); m > 0 {
			old, repl, n = crlf, strings.ReplaceAll(repl, "\n", "\r\n"), m
		}
	}
	switch {
	case n == 0:
		return "", fmt.Errorf("old text not found (it must match exactly, spaces and line ends included); read the file with get_file_content")
	case n > 1:
		return "", fmt.Errorf("old text found %d times: give more of the surrounding lines so it matches once", n)
	}
	return strings.Replace(text, old, repl, 1), nil
}

// readForEdit reads path's text and SHA at branch ("": the default one).
func readForEdit(ctx context.Context, c *forgejo.Client, a tool.Args, path string) (*edited, error) {
	p, err := forgejo.FilePath([]string{"repos", a.String("owner"), a.String("repo"), "contents"}, path)
	if err != nil {
		return nil, err
	}
	var q url.Values
	branch := a.String("branch")
	if branch != "" {
		q = url.Values{"ref": {branch}}
	}
	subject := "file " + path + " in " + tool.FullName(a)
	if branch != "" {
		subject += "@" + branch
	}
	var raw json.RawMessage
	if err := c.DoJSON(ctx, "GET", p, q, nil, &raw); err != nil {
		return nil, whichMissing(ctx, c, a, forgejo.Relabel(err, "read, to edit,", subject), fmt.Sprintf("branch %q", branch), branch, "")
	}
	var cr sdk.ContentsResponse
	if err := json.Unmarshal(raw, &cr); err != nil || cr.Type != "file" {
		return nil, fmt.Errorf("%s is not a file: replace edits a file's text", subject)
	}
	if cr.Content == nil {
		return nil, fmt.Errorf("the forge does not serve %s's content through the API (too large) to edit in place: send the whole file with update", subject)
	}
	data, err := decodeContent(cr)
	if err != nil {
		return nil, &forgejo.Error{Verb: "read", Subject: subject, Status: 200, Cause: err}
	}
	if tool.IsBinary(data) {
		return nil, fmt.Errorf("%s is binary: replace edits text only", subject)
	}
	return &edited{text: string(data), sha: cr.SHA}, nil
}
