package pdftext

import (
	"bytes"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
)

// The PDF library has no context and no limits of its own, and it reads
// the file through an io.ReaderAt for nearly every step it takes (it caches
// no object). guard is that ReaderAt: it stops the library, by a panic that
// Extract recovers, once the deadline passes or once it has read more than
// its budget, so a looping or quadratic walk of a hostile file ends.

// stop is the panic value guard raises. It satisfies runtime.Error on
// purpose: the library swallows other panics while it reads an operand,
// and a stop must not be swallowed.
type stop struct{ err error }

func (s stop) Error() string { return s.err.Error() }
func (s stop) RuntimeError() {}
func (s stop) Unwrap() error { return s.err }

type guard struct {
	ctx    context.Context
	data   []byte
	budget int64 // bytes the library may still read
}

func (g *guard) check() {
	if err := g.ctx.Err(); err != nil {
		panic(stop{fmt.Errorf("%w: %w", ErrTooMuchWork, err)})
	}
}

func (g *guard) ReadAt(p []byte, off int64) (int, error) {
	g.check()
	g.budget -= int64(len(p))
	if g.budget < 0 {
		panic(stop{fmt.Errorf("%w: it re-reads the file far more than its size", ErrTooMuchWork)})
	}
	if off < 0 || off >= int64(len(g.data)) {
		return 0, io.EOF
	}
	n := copy(p, g.data[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// maxDepth bounds how deeply arrays and dictionaries may nest. The
// library parses them recursively: a file of a few million "[" would
// overflow the goroutine stack, a crash no recover catches, so such a file
// is refused before the library sees it.
const maxDepth = 256

var (
	streamKW   = []byte("stream")
	endKW      = []byte("endstream")
	sizeRE     = regexp.MustCompile(`/Size\s+(\d+)`)
	indexRE    = regexp.MustCompile(`/Index\s*\[([\d\s]*)\]`)
	subsection = regexp.MustCompile(`(?m)^\s*(\d+)\s+(\d+)\s*$`)
	// Numbers the library sizes buffers by: xref stream field widths and
	// a predictor's columns.
	widthsRE  = regexp.MustCompile(`/W\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s*\]`)
	columnsRE = regexp.MustCompile(`/Columns\s+(\d+)`)
	// CMap blocks: the library loops (and allocates) as many times as a
	// block's count says, whatever the stream holds.
	cmapBlock = regexp.MustCompile(`(\d+)\s+begin(?:bfchar|bfrange|codespacerange|cidchar|cidrange)`)
)

// Limits on the numbers above.
const (
	maxBufferNumber = 1 << 20
	maxCMapBlock    = 10_000
	maxCMapEntries  = 1 << 16
)

// prescan refuses what the library would crash on rather than fail:
// nesting deeper than maxDepth (in the file's own text and in its object
// streams, where objects hide compressed) and cross-reference tables that
// declare more objects than maxObjects, which the library would allocate
// up front.
func prescan(data []byte, maxObjects int64, maxDecoded int64) error {
	text, streams := split(data)
	if err := depth(text); err != nil {
		return err
	}
	if err := objectCounts(text, maxObjects); err != nil {
		return err
	}
	for _, s := range streams {
		if !bytes.Contains(s.dict, []byte("ObjStm")) {
			continue
		}
		var r io.Reader = bytes.NewReader(s.body)
		if bytes.Contains(s.dict, []byte("FlateDecode")) {
			zr, err := zlib.NewReader(r)
			if err != nil {
				continue // the library will say it cannot read it
			}
			r = zr
		}
		body, err := io.ReadAll(io.LimitReader(r, maxDecoded+1))
		if int64(len(body)) > maxDecoded {
			return fmt.Errorf("%w: an object stream decompresses to more than %d bytes", ErrTooMuchWork, maxDecoded)
		}
		maxDecoded -= int64(len(body))
		_ = err // a truncated stream is the library's to report
		if err := depth([][]byte{body}); err != nil {
			return err
		}
	}
	return nil
}

type rawStream struct{ dict, body []byte }

// split cuts the file into the text outside streams and the streams, each
// with the text of its dictionary (from the "obj" before it).
func split(data []byte) (text [][]byte, streams []rawStream) {
	rest := data
	for {
		i := bytes.Index(rest, streamKW)
		// "endstream" contains "stream": only a "stream" keyword that is
		// not the tail of "endstream" opens one.
		for i >= 3 && bytes.HasSuffix(rest[:i], []byte("end")) {
			j := bytes.Index(rest[i+len(streamKW):], streamKW)
			if j < 0 {
				i = -1
				break
			}
			i += len(streamKW) + j
		}
		if i < 0 {
			return append(text, rest), streams
		}
		head := rest[:i]
		text = append(text, head)
		dict := head
		if k := bytes.LastIndex(head, []byte(" obj")); k >= 0 {
			dict = head[k:]
		}
		body := rest[i+len(streamKW):]
		body = bytes.TrimPrefix(bytes.TrimPrefix(body, []byte("\r")), []byte("\n"))
		end := bytes.Index(body, endKW)
		if end < 0 {
			return text, append(streams, rawStream{dict, body})
		}
		streams = append(streams, rawStream{dict, body[:end]})
		rest = body[end+len(endKW):]
	}
}

// depth fails when arrays and dictionaries nest deeper than maxDepth in
// parts, skipping strings and comments the way the lexer does.
func depth(parts [][]byte) error {
	d := 0
	for _, p := range parts {
		for i := 0; i < len(p); i++ {
			switch c := p[i]; c {
			case '%':
				for i < len(p) && p[i] != '\n' && p[i] != '\r' {
					i++
				}
			case '(':
				n := 1
				for i++; i < len(p) && n > 0; i++ {
					switch p[i] {
					case '\\':
						i++
					case '(':
						n++
					case ')':
						n--
					}
				}
				i--
			case '[':
				d++
			case ']':
				d = max(d-1, 0)
			case '<':
				if i+1 < len(p) && p[i+1] == '<' {
					d++
					i++
				}
			case '>':
				if i+1 < len(p) && p[i+1] == '>' {
					d = max(d-1, 0)
					i++
				}
			}
			if d > maxDepth {
				return fmt.Errorf("%w: arrays or dictionaries nest more than %d deep", ErrMalformed, maxDepth)
			}
		}
	}
	return nil
}

// objectCounts fails when a cross-reference table or stream declares more
// objects than maxObjects.
func objectCounts(parts [][]byte, maxObjects int64) error {
	tooMany := func(n int64) error {
		return fmt.Errorf("%w: it declares %d objects, more than a file of its size can hold (%d)", ErrMalformed, n, maxObjects)
	}
	for _, p := range parts {
		for _, m := range sizeRE.FindAllSubmatch(p, -1) {
			if n, err := strconv.ParseInt(string(m[1]), 10, 64); err != nil || n > maxObjects {
				return tooMany(n)
			}
		}
		for _, m := range indexRE.FindAllSubmatch(p, -1) {
			f := bytes.Fields(m[1])
			for i := 0; i+1 < len(f); i += 2 {
				a, err1 := strconv.ParseInt(string(f[i]), 10, 64)
				b, err2 := strconv.ParseInt(string(f[i+1]), 10, 64)
				if err1 != nil || err2 != nil || a+b > maxObjects || a < 0 || b < 0 {
					return tooMany(a + b)
				}
			}
		}
		for _, re := range []*regexp.Regexp{widthsRE, columnsRE} {
			for _, m := range re.FindAllSubmatch(p, -1) {
				for _, v := range m[1:] {
					if n, err := strconv.ParseInt(string(v), 10, 64); err != nil || n > maxBufferNumber {
						return fmt.Errorf("%w: a field width or column count of %s", ErrMalformed, v)
					}
				}
			}
		}
		for _, m := range subsection.FindAllSubmatch(p, -1) {
			a, err1 := strconv.ParseInt(string(m[1]), 10, 64)
			b, err2 := strconv.ParseInt(string(m[2]), 10, 64)
			if err1 != nil || err2 != nil || a+b > maxObjects {
				return tooMany(a + b)
			}
		}
	}
	return nil
}

// cmapOK says whether a ToUnicode CMap's block counts are ones the library
// can loop over: each at most maxCMapBlock, together maxCMapEntries.
func cmapOK(body []byte) bool {
	total := int64(0)
	for _, m := range cmapBlock.FindAllSubmatch(body, -1) {
		n, err := strconv.ParseInt(string(m[1]), 10, 64)
		if err != nil || n > maxCMapBlock {
			return false
		}
		total += n
	}
	return total <= maxCMapEntries
}

// asError turns a recovered panic into an error.
func asError(r any) error {
	var s stop
	switch v := r.(type) {
	case stop:
		return v.err
	case error:
		if errors.As(v, &s) {
			return s.err
		}
		return fmt.Errorf("%w: %v", ErrMalformed, v)
	}
	return fmt.Errorf("%w: %v", ErrMalformed, r)
}
