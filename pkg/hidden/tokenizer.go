package hidden

// The HTML tokenizer: a byte-at-a-time state machine after the HTML
// standard's, as far as it decides what is a comment, a tag with which
// attributes, and raw text. It is fed every piece of raw HTML in document
// order (the lines of HTML blocks and inline HTML), and keeps its state
// between them: a comment or a <script> left open in an HTML block goes on
// through the markdown after it in the rendered page, until raw HTML ends
// it. Markdown between the pieces is never fed: rendered, its text has <,
// > and " escaped and cannot end anything.

type tokState uint8

const (
	tData tokState = iota
	tTagOpen
	tEndTagOpen
	tTagName
	tBeforeAttr
	tAttrName
	tAfterAttrName
	tBeforeValue
	tValueQuoted
	tValueBare
	tSelfClose
	tMarkupDecl  // after "<!"
	tCommentDash // after "<!-"
	tComment
	tBogus
	tRaw // raw text until </rawName
)

// maxKept bounds what the tokenizer keeps of a name or a value: enough for
// every table lookup and style rule; a longer value is marked anyway.
const maxKept = 4096

type attr struct {
	name       []byte // lower-cased, at most maxKept bytes
	value      []byte // at most maxKept bytes
	long       bool   // the value was longer than maxKept
	start, end int    // source range of the whole attribute
}

type tag struct {
	closing     bool
	selfClosing bool
	name        []byte // lower-cased
	attrs       []attr
	start, end  int
}

type tokenizer struct {
	state    tokState
	start    int // where the current comment, bogus comment or tag began
	dashes   int // comment: dashes just seen; "!" after two of them is 4
	fresh    int // comment: bytes seen since "<!--", for <!--> and <!--->
	quote    byte
	tag      tag
	rawName  []byte
	rawMatch int // raw text: bytes of "</name" matched so far
	rawAt    int // raw text: where that "</" began
	last     int // the position after the last byte fed
	sink     tokenSink
}

// tokenSink receives what the tokenizer finds, in source positions.
type tokenSink interface {
	onComment(start, end int)
	onBogus(start, end int)
	onTag(t *tag)
	onText(at int) // a byte of visible text outside white space
}

// inConstruct reports a tag, comment or raw text left open.
func (z *tokenizer) inConstruct() bool { return z.state != tData }

// endsAtMarkup reports a tag or a bogus comment ("<!x", "<?x") left open:
// the page's own markup that follows ends it soon ('>' or a quote), so at
// the end of an HTML block it is cut off there. A comment and raw text go
// on until raw HTML ends them.
func (z *tokenizer) endsAtMarkup() bool {
	switch z.state {
	case tTagOpen, tEndTagOpen, tTagName, tBeforeAttr, tAttrName, tAfterAttrName,
		tBeforeValue, tValueQuoted, tValueBare, tSelfClose, tMarkupDecl, tCommentDash, tBogus:
		return true
	}
	return false
}

func (z *tokenizer) reset() { z.state = tData }

func (z *tokenizer) beginTag(closing bool, at int) {
	z.tag.closing, z.tag.selfClosing = closing, false
	z.tag.name = z.tag.name[:0]
	z.tag.attrs = z.tag.attrs[:0]
	z.tag.start = z.start
	_ = at
}

func (z *tokenizer) newAttr(at int) {
	z.tag.attrs = append(z.tag.attrs, attr{start: at, end: at + 1})
}

func (z *tokenizer) curAttr() *attr { return &z.tag.attrs[len(z.tag.attrs)-1] }

func (z *tokenizer) emitTag(end int) {
	z.tag.end = end
	z.state = tData
	if !z.tag.closing && !z.tag.selfClosing && hasWord(rawTags, string(z.tag.name)) {
		z.state = tRaw
		z.rawName = append(z.rawName[:0], z.tag.name...)
		z.rawMatch = 0
	} else if !z.tag.closing && string(z.tag.name) == "plaintext" {
		z.state = tRaw
		z.rawName = z.rawName[:0]
	}
	z.sink.onTag(&z.tag)
}

func appendLower(b []byte, c byte) []byte {
	if len(b) >= maxKept {
		return b
	}
	if c >= 'A' && c <= 'Z' {
		c += 'a' - 'A'
	}
	return append(b, c)
}

func isHTMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

// step feeds one byte at source position at.
func (z *tokenizer) step(c byte, at int) {
	z.last = at + 1
	switch z.state {
	case tData:
		if c == '<' {
			z.state, z.start = tTagOpen, at
		} else if !isHTMLSpace(c) {
			z.sink.onText(at)
		}
	case tTagOpen:
		switch {
		case c == '!':
			z.state = tMarkupDecl
		case c == '/':
			z.state = tEndTagOpen
		case isLetter(c):
			z.beginTag(false, at)
			z.tag.name = appendLower(z.tag.name, c)
			z.state = tTagName
		case c == '?':
			z.state = tBogus
		default: // the '<' was text
			z.state = tData
			z.sink.onText(z.start)
			z.step(c, at)
		}
	case tEndTagOpen:
		switch {
		case isLetter(c):
			z.beginTag(true, at)
			z.tag.name = appendLower(z.tag.name, c)
			z.state = tTagName
		case c == '>': // "</>" is dropped
			z.sink.onBogus(z.start, at+1)
			z.state = tData
		default:
			z.state = tBogus
		}
	case tTagName:
		switch {
		case isHTMLSpace(c):
			z.state = tBeforeAttr
		case c == '/':
			z.state = tSelfClose
		case c == '>':
			z.emitTag(at + 1)
		default:
			z.tag.name = appendLower(z.tag.name, c)
		}
	case tBeforeAttr, tAfterAttrName:
		switch {
		case isHTMLSpace(c):
		case c == '/':
			z.state = tSelfClose
		case c == '>':
			z.emitTag(at + 1)
		case c == '=' && z.state == tAfterAttrName:
			z.state = tBeforeValue
		default:
			z.newAttr(at)
			z.curAttr().name = appendLower(z.curAttr().name, c)
			z.state = tAttrName
		}
	case tAttrName:
		switch {
		case isHTMLSpace(c):
			z.state = tAfterAttrName
		case c == '/':
			z.state = tSelfClose
		case c == '=':
			z.state = tBeforeValue
		case c == '>':
			z.emitTag(at + 1)
		default:
			a := z.curAttr()
			a.name = appendLower(a.name, c)
			a.end = at + 1
		}
	case tBeforeValue:
		switch {
		case isHTMLSpace(c):
		case c == '"' || c == '\'':
			z.quote, z.state = c, tValueQuoted
			z.curAttr().end = at + 1
		case c == '>':
			z.emitTag(at + 1)
		default:
			z.state = tValueBare
			z.addValue(c, at)
		}
	case tValueQuoted:
		if c == z.quote {
			z.curAttr().end = at + 1
			z.state = tBeforeAttr
		} else {
			z.addValue(c, at)
		}
	case tValueBare:
		switch {
		case isHTMLSpace(c):
			z.state = tBeforeAttr
		case c == '>':
			z.emitTag(at + 1)
		default:
			z.addValue(c, at)
		}
	case tSelfClose:
		if c == '>' {
			z.tag.selfClosing = true
			z.emitTag(at + 1)
		} else {
			z.state = tBeforeAttr
			z.step(c, at)
		}
	case tMarkupDecl:
		if c == '-' {
			z.state = tCommentDash
		} else {
			z.state = tBogus // a declaration, CDATA: a bogus comment to the next '>'
			z.step(c, at)
		}
	case tCommentDash:
		if c == '-' {
			z.state, z.dashes, z.fresh = tComment, 0, 0
		} else {
			z.state = tBogus
			z.step(c, at)
		}
	case tComment:
		z.fresh++
		switch {
		case c == '>' && (z.dashes >= 2 || z.fresh == 1 || z.fresh == 2 && z.dashes == 1):
			// "-->", "--!>", and the abrupt "<!-->" and "<!--->".
			z.sink.onComment(z.start, at+1)
			z.state = tData
		case c == '-':
			if z.dashes == 4 { // after "--!", a dash starts over
				z.dashes = 1
			} else {
				z.dashes = min(z.dashes+1, 3)
			}
		case c == '!' && z.dashes == 2 || c == '!' && z.dashes == 3:
			z.dashes = 4 // "--!": a '>' next ends the comment
		default:
			z.dashes = 0
		}
	case tBogus:
		if c == '>' {
			z.sink.onBogus(z.start, at+1)
			z.state = tData
		}
	case tRaw:
		z.rawStep(c, at)
	}
}

func (z *tokenizer) addValue(c byte, at int) {
	a := z.curAttr()
	if len(a.value) < maxKept {
		a.value = append(a.value, c)
	} else {
		a.long = true
	}
	a.end = at + 1
}

// rawStep looks for "</" rawName followed by white space, "/" or ">".
func (z *tokenizer) rawStep(c byte, at int) {
	if len(z.rawName) == 0 {
		return // plaintext: to the end
	}
	switch {
	case z.rawMatch == 0:
		if c == '<' {
			z.rawMatch, z.rawAt = 1, at
		}
	case z.rawMatch == 1:
		if c == '/' {
			z.rawMatch = 2
		} else {
			z.rawMatch = 0
			z.rawStep(c, at)
		}
	case z.rawMatch-2 < len(z.rawName):
		if c|0x20 == z.rawName[z.rawMatch-2] || c == z.rawName[z.rawMatch-2] {
			z.rawMatch++
		} else {
			z.rawMatch = 0
			z.rawStep(c, at)
		}
	default:
		if isHTMLSpace(c) || c == '/' || c == '>' {
			z.start = z.rawAt
			z.beginTag(true, at)
			z.tag.name = append(z.tag.name, z.rawName...)
			z.state = tTagName
			z.step(c, at)
			return
		}
		z.rawMatch = 0
		z.rawStep(c, at)
	}
}
