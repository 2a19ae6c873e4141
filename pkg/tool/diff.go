package tool

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// Diffs in windows that fit the client: at most max_bytes of JSON per call
// (TextBudget by default), cut at a line end, or one file's part of the
// diff (path), split here since neither forge serves one file's diff. A
// cut-off note names the file the window stops in, so the next call can
// ask for that file alone.

// MaxDiffBytes is the largest window a diff tool returns when asked
// (max_bytes); by default a window is TextBudget.
const MaxDiffBytes = 256 << 10

// maxDiffSkip bounds how far into a diff a window may start, and how much
// of it is read to find one file: the forge streams diffs without byte
// ranges, so reaching an offset reads past it.
const maxDiffSkip = 16 << 20

// maxListedFiles bounds the file names an error lists when path names no
// file of the diff (each cut by forgejo.Clip).
const maxListedFiles = 30

// DiffParams are the window parameters of a diff tool: one file's diff,
// where to start, and the window's size.
func DiffParams() []Param {
	return []Param{
		Str("path", "One file's diff"),
		Int("offset", "Start byte (next_offset)", AtLeast(0)),
		Int("max_bytes", "Window size", Default(TextBudget), Range(1024, MaxDiffBytes)),
	}
}

// DiffResult is the result of a diff tool: w, allowed past MaxResultBytes
// when a's max_bytes asked for a larger window.
func DiffResult(w DiffWindow, a Args) (*mcp.CallToolResult, error) {
	return JSONUpTo(w, int(a.Int("max_bytes"))+4<<10)
}

// DiffWindow is one window of a diff or patch: the text from Offset (of
// the whole diff, or of path's part when path is given), cut at a line
// end, and where to read on when more follows.
type DiffWindow struct {
	Diff       string `json:"diff"`
	Offset     int64  `json:"offset"`
	NextOffset int64  `json:"next_offset,omitempty"`
	Note       string `json:"note,omitempty"`
}

// ReadDiffWindow reads the window of the diff at apiPath (a route below
// /api/v1 built by RepoRoute) that a's path, offset and max_bytes ask for.
// narrow names the tool that lists the changed files. A failure is the raw
// call's *forgejo.Error; callers relabel it.
func ReadDiffWindow(ctx context.Context, c *forgejo.Client, apiPath string, a Args, narrow string) (DiffWindow, error) {
	offset, budget := a.Int("offset"), int(a.Int("max_bytes"))
	if budget == 0 {
		budget = TextBudget
	}
	if p := a.String("path"); p != "" {
		return fileDiffWindow(ctx, c, apiPath, p, offset, budget, narrow)
	}
	// One byte past the window tells whether more follows; JSON is never
	// shorter than the text, so budget bytes of text are enough to fill it.
	raw, err := c.DoRaw(ctx, "/api/v1"+apiPath, forgejo.RawOptions{MaxBytes: int64(budget) + 1, Offset: offset,
		Length: int64(budget) + 1, MaxSkip: maxDiffSkip})
	if err != nil {
		return DiffWindow{}, err
	}
	text := strings.ToValidUTF8(string(raw.Body), "\uFFFD")
	out := window(text, offset, budget)
	if out.NextOffset > 0 {
		out.Note = fmt.Sprintf("diff cut at byte %d; read on with offset=%d", out.NextOffset, out.NextOffset)
		if f := lastFile(out.Diff); f != "" {
			out.Note += fmt.Sprintf(", or read one file's diff with path (this window ends in %s; %s lists the files)", f, narrow)
		} else {
			out.Note += fmt.Sprintf(", or read one file's diff with path (%s lists the files)", narrow)
		}
	}
	if out.Diff == "" && offset > 0 {
		out.Note = "offset is at or past the end of the diff"
	}
	return out, nil
}

// window is text from offset, as much as fits budget bytes of JSON, cut at
// a line end, with NextOffset set when text goes on.
func window(text string, offset int64, budget int) DiffWindow {
	cut := FitPrefix(text, budget)
	out := DiffWindow{Diff: text[:cut], Offset: offset}
	if cut < len(text) {
		out.NextOffset = offset + int64(cut)
	}
	return out
}

// fileDiffWindow reads the diff a line at a time, finds the part of path
// (from its "diff --git" line to the next file's) and returns the window
// of that part from offset. Only the window's bytes are kept: those
// before offset are counted, not held.
func fileDiffWindow(ctx context.Context, c *forgejo.Client, apiPath, path string, offset int64, budget int, narrow string) (DiffWindow, error) {
	var part strings.Builder
	var files []string
	var partLen int64 // bytes of path's part seen, from its header
	found, inFile := false, false
	want := offset + int64(budget) + 1
	err := c.DoLines(ctx, "/api/v1"+apiPath, maxDiffSkip, func(b []byte, _ int64) bool {
		if bytes.HasPrefix(b, []byte("diff --git ")) {
			if found {
				return false // path's part is complete
			}
			line := string(b)
			inFile = headerNames(line, path)
			found = inFile
			if len(files) < maxListedFiles {
				files = append(files, forgejo.Clip(headerFile(line)))
			}
		}
		if !inFile {
			return true
		}
		start, end := partLen, partLen+int64(len(b))+1
		partLen = end
		if end > offset { // the window starts in this line, or began before
			from := max(offset-start, 0)
			if from < int64(len(b)) {
				part.Write(b[from:])
			}
			part.WriteByte('\n')
		}
		return partLen < want
	})
	if err != nil {
		return DiffWindow{}, err
	}
	if !found {
		return DiffWindow{}, fmt.Errorf("no file %q in this diff; it changes %s (%s lists them all)", path, strings.Join(files, ", "), narrow)
	}
	if offset >= partLen {
		return DiffWindow{Offset: offset, Note: "offset is at or past the end of this file's diff"}, nil
	}
	text := strings.ToValidUTF8(part.String(), "\uFFFD")
	out := window(text, offset, budget)
	if out.NextOffset > 0 {
		out.Note = fmt.Sprintf("%s's diff cut at byte %d of it; read on with path and offset=%d", path, out.NextOffset, out.NextOffset)
	}
	return out, nil
}

// headerNames says whether a "diff --git a/X b/Y" line names path as X
// or Y (quoted as git quotes names with spaces or special bytes).
func headerNames(line, path string) bool {
	rest := strings.TrimPrefix(line, "diff --git ")
	return rest == "a/"+path+" b/"+path || strings.HasPrefix(rest, "a/"+path+" b/") || strings.HasSuffix(rest, " b/"+path) ||
		strings.HasPrefix(rest, `"a/`+path+`" `) || strings.HasSuffix(rest, ` "b/`+path+`"`)
}

// headerFile is the new name in a "diff --git a/X b/Y" line.
func headerFile(line string) string {
	if i := strings.LastIndex(line, ` "b/`); i >= 0 {
		return strings.TrimSuffix(line[i+4:], `"`)
	}
	if i := strings.LastIndex(line, " b/"); i >= 0 {
		return line[i+3:]
	}
	return strings.TrimPrefix(line, "diff --git ")
}

// lastFile is the file whose diff a window ends in: the last one whose
// header it holds.
func lastFile(diff string) string {
	i := strings.LastIndex(diff, "\ndiff --git ")
	if i < 0 {
		if !strings.HasPrefix(diff, "diff --git ") {
			return ""
		}
	} else {
		diff = diff[i+1:]
	}
	line, _, _ := strings.Cut(diff, "\n")
	return headerFile(line)
}
