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

// sink is where --out writes: a temporary file renamed into place on
// commit, or standard output for "-".
type sink struct {
	path string
	tmp  *os.File
	w    *bufio.Writer
	std  io.Writer
}

func openSink(path string, stdout io.Writer) (*sink, error) {
	if path == "-" {
		return &sink{path: path, w: bufio.NewWriter(stdout)}, nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".part-*")
	if err != nil {
		return nil, fmt.Errorf("--out: %v", errors.Unwrap(err))
	}
	return &sink{path: path, tmp: tmp, w: bufio.NewWriter(tmp)}, nil
}

func (s *sink) Write(b []byte) (int, error) { return s.w.Write(b) }

// commit makes the file appear; abort removes every trace of it.
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
		err = s.tmp.Chmod(0o644)
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

func (s *sink) abort() {
	if s.tmp != nil {
		_ = s.tmp.Close()
		_ = os.Remove(s.tmp.Name())
	}
}

// saveOne writes the file one result carries to --out.
func saveOne(std IO, res *mcp.CallToolResult, out string) error {
	b, desc, ok := payload(res)
	if !ok {
		return fmt.Errorf("--out: the result has no binary content to save")
	}
	s, err := openSink(out, std.Out)
	if err != nil {
		return err
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
// (first) gives one. Any failure removes the partial file.
func pageOut(ctx context.Context, std IO, call func(map[string]any) *mcp.CallToolResult, args map[string]any, window int64, first *mcp.CallToolResult, out string) error {
	s, err := openSink(out, std.Out)
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
		} else if int64(t) != total {
			return fail("the file changed size while being read (%d, then %d bytes)", total, int64(t))
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
