package cmd

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// --out FILE saves the file a result carries: its blob, its image, or
// (when the metadata says "content": "text") its text. For a tool that
// reads a file in windows (it has offset and max_bytes parameters and
// answers with total and next_offset), a file over the inline cap is paged
// through here, window by window, and written whole. The file appears
// only when complete and checked: it is written to a temporary file in the
// same folder and renamed. "-" writes to standard output instead.

// windowMax is the largest window d offers (its max_bytes maximum), or 0
// when d does not read files in windows.
func windowMax(d tool.Def) int64 {
	var off, max bool
	var n int64
	for _, p := range d.Params {
		switch {
		case p.Name == "offset" && p.Type == tool.TypeInteger:
			off = true
		case p.Name == "max_bytes" && p.Type == tool.TypeInteger && p.Max != nil:
			max, n = true, *p.Max
		}
	}
	if off && max {
		return n
	}
	return 0
}

// payload is the file res carries, and words for it.
func payload(res *mcp.CallToolResult) ([]byte, string, bool) {
	for _, c := range res.Content {
		if b, desc, ok := binaryContent(c); ok {
			return b, desc, true
		}
	}
	if len(res.Content) > 1 && metaString(res, "content") == "text" {
		if tc, ok := res.Content[len(res.Content)-1].(mcp.TextContent); ok {
			return []byte(tc.Text), fmt.Sprintf("text, %d bytes", len(tc.Text)), true
		}
	}
	return nil, "", false
}

// meta is the JSON object a result's first text content holds, or nil.
func meta(res *mcp.CallToolResult) map[string]any {
	if len(res.Content) == 0 {
		return nil
	}
	tc, ok := res.Content[0].(mcp.TextContent)
	if !ok {
		return nil
	}
	var m map[string]any
	if json.Unmarshal([]byte(tc.Text), &m) != nil {
		return nil
	}
	return m
}

func metaString(res *mcp.CallToolResult, key string) string {
	s, _ := meta(res)[key].(string)
	return s
}

// fileSHA256 is the whole file's sha256 when the forge gives one: a
// "sha256" (or a "sha256:"-prefixed "digest") of an object in the
// metadata, such as the attachment or the artifact.
func fileSHA256(m map[string]any) string {
	for _, v := range m {
		obj, ok := v.(map[string]any)
		if !ok {
			continue
		}
		if s, ok := obj["sha256"].(string); ok && len(s) == 64 {
			return strings.ToLower(s)
		}
		if s, ok := obj["digest"].(string); ok && strings.HasPrefix(s, "sha256:") {
			return strings.ToLower(strings.TrimPrefix(s, "sha256:"))
		}
	}
	return ""
}

// fileSize is the file's size in the metadata's object (the attachment,
// the artifact), or -1.
func fileSize(m map[string]any) int64 {
	for _, v := range m {
		if obj, ok := v.(map[string]any); ok {
			if n, ok := obj["size"].(float64); ok {
				return int64(n)
			}
		}
	}
	return -1
}

// DefaultMaxOutBytes is --max-out-bytes: the largest file --out writes
// unless told otherwise. A forge can claim any size and page through
// windows of it for as long as it likes; without a cap a hostile one
// fills the disk.
const DefaultMaxOutBytes = 1 << 30

// sink is where --out writes: a temporary file renamed into place on
// commit, or standard output for "-". It writes at most limit bytes.
type sink struct {
	path  string
	tmp   *os.File
	w     *bufio.Writer
	limit int64
	n     int64
}

func openSink(path string, stdout io.Writer, limit int64) (*sink, error) {
	if limit <= 0 {
		limit = DefaultMaxOutBytes
	}
	if path == "-" {
		return &sink{path: path, w: bufio.NewWriter(stdout), limit: limit}, nil
	}
	// CreateTemp makes the file 0600: nobody else can open it while it is
	// written; commit gives it its final mode.
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".part-*")
	if err != nil {
		return nil, fmt.Errorf("--out: %v", errors.Unwrap(err))
	}
	return &sink{path: path, tmp: tmp, w: bufio.NewWriter(tmp), limit: limit}, nil
}

// reserve checks, before anything is written, that a file of size bytes
// is within the limit and fits in the free space of its folder.
func (s *sink) reserve(size int64) error {
	if size > s.limit {
		return fmt.Errorf("the file is %d bytes, over the --max-out-bytes limit of %d; raise the limit to save it", size, s.limit)
	}
	if s.tmp == nil {
		return nil
	}
	dir := filepath.Dir(s.path)
	if free, ok := freeBytes(dir); ok && size > free {
		return fmt.Errorf("the file is %d bytes but only %d bytes are free in %s; free some space or choose another folder", size, free, dir)
	}
	return nil
}

func (s *sink) Write(b []byte) (int, error) {
	if s.n+int64(len(b)) > s.limit {
		return 0, fmt.Errorf("the file is over the --max-out-bytes limit of %d bytes; raise the limit to save it", s.limit)
	}
	n, err := s.w.Write(b)
	s.n += int64(n)
	return n, err
}

// commit makes the file appear; abort removes every trace of it. The file
// gets the mode of the file it replaces, so a 0600 file stays 0600, or
// else what a new file gets under the process's umask (0644 under 022).
func (s *sink) commit() error {
	if err := s.w.Flush(); err != nil {
		s.abort()
		return fmt.Errorf("--out: %v", err)
	}
	if s.tmp == nil {
		return nil
	}
	err := s.tmp.Sync()
	if err == nil {
		err = s.tmp.Chmod(outMode(s.path))
	}
	if cerr := s.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(s.tmp.Name(), s.path)
	}
	if err != nil {
		_ = os.Remove(s.tmp.Name())
		return fmt.Errorf("--out: %v", err)
	}
	return nil
}

// outMode is the mode --out gives path: that of the file there now, or
// 0666 less the umask.
func outMode(path string) os.FileMode {
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
		return st.Mode().Perm()
	}
	return 0o666 &^ umask()
}

func (s *sink) abort() {
	if s.tmp != nil {
		_ = s.tmp.Close()
		_ = os.Remove(s.tmp.Name())
	}
}

// saveOne writes the file one result carries to --out, at most limit
// bytes.
func saveOne(std IO, res *mcp.CallToolResult, out string, limit int64) error {
	b, desc, ok := payload(res)
	if !ok {
		return fmt.Errorf("--out: the result has no binary content to save")
	}
	s, err := openSink(out, std.Out, limit)
	if err != nil {
		return err
	}
	if err := s.reserve(int64(len(b))); err != nil {
		s.abort()
		return fmt.Errorf("--out: %v", err)
	}
	if _, err := s.Write(b); err != nil {
		s.abort()
		return fmt.Errorf("--out: %v", err)
	}
	if err := s.commit(); err != nil {
		return err
	}
	fmt.Fprintf(std.Err, "wrote %d bytes (%s) to %s\n", len(b), desc, out)
	return nil
}

// pageOut reads the file window by window with call (args plus offset and
// max_bytes) and writes it to out. It checks each window's offset and
// sha256, the total, and the whole file's sha256 when the first result
// (first) gives one. Any failure removes the partial file. The file's
// size is checked against limit and the free space before the first byte
// is written, and the bytes against limit as they come.
func pageOut(ctx context.Context, std IO, call func(map[string]any) *mcp.CallToolResult, args map[string]any, window int64, first *mcp.CallToolResult, out string, limit int64) error {
	s, err := openSink(out, std.Out, limit)
	if err != nil {
		return err
	}
	fail := func(format string, a ...any) error {
		s.abort()
		if out != "-" {
			format += "; nothing was written to %s"
			a = append(a, out)
		}
		return fmt.Errorf("--out: "+format, a...)
	}
	want, wantSize := fileSHA256(meta(first)), fileSize(meta(first))
	if wantSize >= 0 {
		if err := s.reserve(wantSize); err != nil {
			return fail("%v", err)
		}
	}
	whole := sha256.New()
	progress := isTerminalWriter(std.Err)
	var offset, total int64 = 0, -1
	windows := 0
	for {
		if err := ctx.Err(); err != nil {
			return fail("%v", err)
		}
		a := make(map[string]any, len(args)+2)
		for k, v := range args {
			a[k] = v
		}
		a["offset"], a["max_bytes"] = offset, window
		res := call(a)
		if res.IsError {
			return fail("window at offset %d failed: %s", offset, resultText(res))
		}
		m := meta(res)
		b, _, ok := payload(res)
		t, tok := m["total"].(float64)
		if !ok || !tok {
			return fail("the window at offset %d has no bytes or no total", offset)
		}
		if got, _ := m["offset"].(float64); int64(got) != offset {
			return fail("asked for offset %d, got %d", offset, int64(got))
		}
		if sum, _ := m["sha256"].(string); sum != "" {
			if h := sha256.Sum256(b); hex.EncodeToString(h[:]) != sum {
				return fail("the window at offset %d does not match its sha256", offset)
			}
		}
		if total < 0 {
			total = int64(t)
			if wantSize < 0 {
				if err := s.reserve(total); err != nil {
					return fail("%v", err)
				}
			}
		} else if int64(t) != total {
			return fail("the file changed size while being read (%d, then %d bytes)", total, int64(t))
		}
		if offset+int64(len(b)) > total {
			return fail("the window at offset %d runs past the file's %d bytes", offset, total)
		}
		if _, err := s.Write(b); err != nil {
			return fail("%v", err)
		}
		whole.Write(b)
		windows++
		offset += int64(len(b))
		if progress {
			fmt.Fprintf(std.Err, "\r%s: %d of %d bytes (%d%%)", out, offset, total, offset*100/max(total, 1))
		}
		next, more := m["next_offset"].(float64)
		if !more {
			break
		}
		if int64(next) != offset || len(b) == 0 {
			return fail("next_offset %d does not follow the %d bytes read", int64(next), offset)
		}
	}
	if progress {
		fmt.Fprintln(std.Err)
	}
	if offset != total {
		return fail("read %d bytes but the file has %d", offset, total)
	}
	if wantSize >= 0 && offset != wantSize {
		return fail("read %d bytes but the forge says the file has %d", offset, wantSize)
	}
	sum := hex.EncodeToString(whole.Sum(nil))
	if want != "" && want != sum {
		return fail("the file's sha256 is %s, the forge says %s", sum, want)
	}
	if err := s.commit(); err != nil {
		return err
	}
	fmt.Fprintf(std.Err, "wrote %d bytes (sha256 %s) to %s in %d windows\n", offset, sum, out, windows)
	return nil
}

func resultText(res *mcp.CallToolResult) string {
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			return tc.Text
		}
	}
	return "no message"
}
