package redact

import (
	"bytes"
	"encoding/json"
	"io"
	"net/url"
	"slices"
)

// A transport's output is redacted as a whole, not message by message: a
// client can make the server echo any string it sends (a JSON-RPC method,
// a prompt name or argument, a log level, an X-MCP-* header value), and
// mcp-go and net/http build those echoes where no redaction step of ours
// runs. Replacer holds the secrets of one connection or request and masks
// them in every byte the transport writes.

// Replacer masks a fixed set of secrets, each in the forms an echo could
// take: as is, URL-escaped (query and path) and JSON-escaped. In a write
// of up to foldBytes, the size of every echo (an error, a 400 body), they
// are matched without regard to ASCII case: net/http canonicalises a
// header name such as X-MCP-<token> into X-Mcp-<Token>, and a random
// secret of 8 bytes or more cannot turn up by chance in another case. A
// larger write is a tool's result, which the Runner has redacted already;
// there the forms are matched as they are, at the speed of bytes.Index.
type Replacer struct {
	forms  [][]byte // longest first, so one containing another is masked whole
	folded [][]byte // the same in ASCII lower case
}

// foldBytes is the largest write matched without regard to case.
const foldBytes = 64 << 10

// NewReplacer returns a Replacer of secrets; ones shorter than a secret
// can be (8 bytes) are ignored, and nil is returned when none is left.
func NewReplacer(secrets ...string) *Replacer {
	var forms []string
	for _, s := range secrets {
		if len(s) < minSecretLen {
			continue
		}
		forms = append(forms, s, url.QueryEscape(s), url.PathEscape(s))
		if b, err := json.Marshal(s); err == nil {
			forms = append(forms, string(b[1:len(b)-1]))
		}
	}
	if len(forms) == 0 {
		return nil
	}
	slices.SortStableFunc(forms, func(a, b string) int { return len(b) - len(a) })
	forms = slices.Compact(forms)
	r := &Replacer{}
	for _, f := range forms {
		r.forms = append(r.forms, []byte(f))
		if l := lowerASCII([]byte(f)); !slices.ContainsFunc(r.folded, func(g []byte) bool { return bytes.Equal(l, g) }) {
			r.folded = append(r.folded, l)
		}
	}
	return r
}

// Bytes returns p with every form of every secret replaced by Mask; p
// itself when there is none (nothing is copied then, and p is never
// changed). A nil Replacer changes nothing.
func (r *Replacer) Bytes(p []byte) []byte {
	if r == nil {
		return p
	}
	forms, index := r.forms, bytes.Index
	if len(p) <= foldBytes {
		forms, index = r.folded, indexFold
	}
	for _, f := range forms {
		i := index(p, f)
		if i < 0 {
			continue
		}
		var out []byte
		for i >= 0 {
			out = append(append(out, p[:i]...), Mask...)
			p = p[i+len(f):]
			i = index(p, f)
		}
		p = append(out, p...)
	}
	return p
}

// indexFold is the offset of the first match of f (ASCII lower-case) in s
// without regard to ASCII case, or -1. Candidates are found with
// bytes.IndexByte for either case of f's first byte, so a large answer
// without the secret costs two vectorised scans.
func indexFold(s, f []byte) int {
	lo, up := f[0], upperASCII(f[0])
	nextLo, nextUp := -2, -2 // -2: not looked for yet; -1: none left
	for i := 0; i+len(f) <= len(s); {
		if nextLo != -1 && nextLo < i {
			nextLo = indexFrom(s, lo, i)
		}
		if up == lo {
			nextUp = nextLo
		} else if nextUp != -1 && nextUp < i {
			nextUp = indexFrom(s, up, i)
		}
		switch {
		case nextLo < 0 && nextUp < 0:
			return -1
		case nextLo < 0:
			i = nextUp
		case nextUp < 0:
			i = nextLo
		default:
			i = min(nextLo, nextUp)
		}
		if i+len(f) > len(s) {
			return -1
		}
		if equalFoldASCII(s[i:i+len(f)], f) {
			return i
		}
		i++
	}
	return -1
}

func indexFrom(s []byte, c byte, from int) int {
	if j := bytes.IndexByte(s[from:], c); j >= 0 {
		return from + j
	}
	return -1
}

// equalFoldASCII reports whether a equals f (lower-case) but for ASCII case.
func equalFoldASCII(a, f []byte) bool {
	for i := range f {
		c := a[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != f[i] {
			return false
		}
	}
	return true
}

func lowerASCII(b []byte) []byte {
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return b
}

func upperASCII(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// Writer writes through a Replacer. Each Write must hold whole messages
// (both transports write one message per call), so no secret is split
// across two writes.
type Writer struct {
	w io.Writer
	r *Replacer
}

// NewWriter returns w masking secrets in everything written; w itself
// when there is no secret to mask.
func NewWriter(w io.Writer, secrets ...string) io.Writer {
	r := NewReplacer(secrets...)
	if r == nil {
		return w
	}
	return &Writer{w: w, r: r}
}

// Write implements io.Writer; it reports len(p) written on success, what
// the caller gave, whatever the masking changed.
func (x *Writer) Write(p []byte) (int, error) {
	if _, err := x.w.Write(x.r.Bytes(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}
