package pdftext

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext/internal/pdfobj"
)

// Reading a content stream's operators and their operands (PDF 32000-2
// §7.8.2). Memory is bounded by the content, not its byte count: at most
// maxOperands operands wait for an operator (older ones are dropped, as
// other readers drop them), one operator's arrays and dictionaries hold at
// most maxOperandCells values and its strings at most maxOperandBytes.
//
// CPU is bounded by what the stream proves to be. No operator takes more
// than a few operands (SCN with a pattern, 33), so a stream that piles up
// maxWaiting operands with no operator, puts over maxOperandCells values
// in one operator's operands, or nests arrays past pdfobj.MaxDepth is
// hostile (issue 18's bombs: "1 " × 16 M, "/a ", "<<>>", a 16 M-element
// array) or damaged beyond use: its interpretation stops there, with a note
// on the page and the text before it kept, instead of lexing the other
// 32 MiB the content budget would allow.
const (
	maxOperands     = 64
	maxWaiting      = 4096
	maxOperandCells = 1 << 16
	maxOperandBytes = 1 << 20
	maxStringBytes  = 64 << 10
)

// counting fails a read once the extraction's content budget is spent.
type counting struct {
	r    io.Reader
	left *int64
}

var errBudget = errors.New("content budget spent")

func (c *counting) Read(p []byte) (int, error) {
	if *c.left <= 0 {
		*c.left = -1 // spent: a read was refused
		return 0, errBudget
	}
	if int64(len(p)) > *c.left {
		p = p[:*c.left+1]
	}
	n, err := c.r.Read(p)
	*c.left -= int64(n)
	if *c.left < 0 {
		return n, errBudget
	}
	return n, err
}

// hostile is the error of a content stream stopped because of its shape.
type hostile struct{ why string }

func (h *hostile) Error() string { return h.why }

// work counts what one extraction did, so tests assert how much work a
// hostile file costs (tokens lexed, operands dropped, streams stopped,
// cross-reference sections read) instead of timing it.
type work struct {
	Tokens      int64 // content stream tokens lexed
	Dropped     int64 // operands dropped: more waited than any operator takes
	Stopped     int   // content streams stopped as hostile
	Sections    int   // cross-reference sections read
	XrefLoop    bool  // a /Prev chain came back to a section already read
	Streams     int64 // content streams (pages', forms', appearances') opened
	Evicted     int   // times the fonts and CMaps loaded were dropped for room
	Collections int   // character collections' CMaps read (collection.go)
	Peak        int64 // the most memory the budget held at once
}

// streamCost is what opening a content stream counts against the content
// budget besides its bytes: its decoders are set up whether it holds
// anything or not, so a page that draws an empty form a million times
// costs what reading 32 GiB would, and stops.
const streamCost = 1 << 10

// interpret runs a page's or a form's content stream: a spent budget ends
// the page (errBudget panics up to it), a hostile stream ends itself with
// a note on the page.
func (c *content) interpret(r io.Reader) {
	var h *hostile
	switch err := c.run(r); {
	case errors.Is(err, errBudget):
		panic(errBudget)
	case errors.As(err, &h):
		c.x.work.Stopped++
		if c.x.note == "" {
			c.x.note = "its content stops early: " + h.why + "; the text before it is kept"
		}
	}
}

// run interprets r (a reader from StreamReader, whose decoders it gives
// back at the end): errBudget when the content budget ran out, *hostile
// when the stream proved hostile.
func (c *content) run(r io.Reader) error {
	x := c.x
	defer x.doc.Release(r)
	lex := x.streamLexer(&counting{r: r, left: &x.contentLeft})
	defer x.keepLexer(lex)
	defer func() { x.work.Tokens += lex.Tokens }()
	// The operands' values are charged to the budget until their
	// operator runs (each reset gives them back).
	p := pdfobj.NewParser(lex, x.mem, maxOperandCells)
	defer p.Reset()
	stack := make([]pdfobj.Object, 0, 8)
	stackBytes, waiting := 0, 0
	for {
		t := lex.Next()
		switch t.Kind {
		case pdfobj.EOF:
			if x.contentLeft < 0 {
				return errBudget
			}
			return nil
		case pdfobj.Keyword:
			switch op := string(t.Bytes); op {
			case "true", "false", "null":
			case "BI":
				if !c.inlineImage(lex) {
					return &hostile{fmt.Sprintf("an inline image of over %d entries, at byte %d of a content stream", maxWaiting, t.Off)}
				}
				p.Reset()
				stack, stackBytes, waiting = stack[:0], 0, 0
				continue
			default:
				c.op(op, stack)
				p.Reset()
				stack, stackBytes, waiting = stack[:0], 0, 0
				continue
			}
		}
		v, err := p.Value(t)
		if err != nil {
			// Nested too deep, or too many values for one operator.
			return &hostile{fmt.Sprintf("%s, at byte %d of a content stream", reason(err), t.Off)}
		}
		if waiting++; waiting > maxWaiting {
			return &hostile{fmt.Sprintf("over %d operands with no operator, at byte %d of a content stream", maxWaiting, t.Off)}
		}
		if s, ok := v.(pdfobj.String); ok {
			stackBytes += len(s)
		}
		if len(stack) >= maxOperands || stackBytes > maxOperandBytes {
			// Too many operands for any operator: the older half goes
			// (all but the newest when their bytes are too many).
			keep := maxOperands / 2
			if stackBytes > maxOperandBytes {
				keep = 0
			}
			x.work.Dropped += int64(len(stack) - keep)
			stack = append(stack[:0], stack[len(stack)-keep:]...)
			stackBytes = 0
			for _, o := range stack {
				if s, ok := o.(pdfobj.String); ok {
					stackBytes += len(s)
				}
			}
		}
		stack = append(stack, v)
	}
}

// why is an error's text without the prefixes the object layer gives its
// errors, for a page's note.
func why(err error) string {
	s := err.Error()
	for _, p := range []string{ErrMalformed.Error() + ": ", ErrTooMuchWork.Error() + ": "} {
		s = strings.TrimPrefix(s, p)
	}
	return s
}

// reason says why the parser refused an operand, without the prefix the
// object layer gives its errors.
func reason(err error) string {
	if errors.Is(err, pdfobj.ErrLimit) {
		return fmt.Sprintf("over %d values in one operator's operands", maxOperandCells)
	}
	return fmt.Sprintf("arrays or dictionaries nested over %d deep", pdfobj.MaxDepth)
}

// openContent opens content stream s (a page's, a form's, an
// appearance's), counting streamCost against the content budget; past
// the budget it ends the page (errBudget).
func (x *extractor) openContent(s *pdfobj.Stream) (io.Reader, error) {
	x.work.Streams++
	if x.contentLeft -= streamCost; x.contentLeft < 0 {
		panic(errBudget)
	}
	return x.doc.StreamReader(s)
}

// streamLexer is a lexer of a content stream, through a kept buffer
// (forms nest, so a few are kept), looking at the deadline per token.
func (x *extractor) streamLexer(r io.Reader) *pdfobj.Lexer {
	var buf []byte
	if n := len(x.lexBufs); n > 0 {
		buf, x.lexBufs = x.lexBufs[n-1], x.lexBufs[:n-1]
	} else {
		x.mem.Take(lexBuf)
		buf = make([]byte, 0, lexBuf)
	}
	lex := pdfobj.NewStreamLexerBuf(r, buf)
	lex.MaxString = maxStringBytes
	lex.Check = x.check
	return lex
}

// keepLexer keeps lex's buffer for the next stream.
func (x *extractor) keepLexer(lex *pdfobj.Lexer) {
	x.lexBufs = append(x.lexBufs, lex.Buffer())
}

// lexBuf is the size of a content lexer's buffer (pdfobj.NewStreamLexer's).
const lexBuf = 4 << 10

// inlineImage skips BI … ID data EI; false when the image's dictionary
// runs on past any real one's size (a hostile stream).
func (c *content) inlineImage(lex *pdfobj.Lexer) bool {
	for n := 0; ; n++ {
		t := lex.Next()
		if t.Kind == pdfobj.EOF {
			return true
		}
		if t.Kind == pdfobj.Keyword && string(t.Bytes) == "ID" {
			break
		}
		if n == 2*maxWaiting {
			return false
		}
	}
	c.x.sawImage = true
	lex.SkipInlineData()
	return true
}
