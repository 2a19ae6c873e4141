package tool

import (
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// EscapeInvisible replaces every invisible or control rune in s with a
// visible JSON-style escape: U+202E becomes the six characters \u202e, a
// rune outside the Basic Multilingual Plane (tag characters) becomes its
// UTF-16 surrogate pair, \udb40\udc41.
//
// Why: issue bodies, comments, file contents and names come from other
// people. Bidi overrides can make text read differently from what it is
// (Trojan Source), and zero-width, tag and variation-selector characters can
// hide instructions an agent would see but a human reviewing the
// conversation would not. Escaping instead of stripping keeps the evidence
// visible, and inside a JSON string (every tool answers compact JSON) the
// escape is exactly what a JSON decoder turns back into the original rune,
// so the text stays valid and lossless. In plain text the escape is merely
// visible.
//
// Tab, newline and carriage return are kept; so are U+FE00..U+FE0F
// (variation selectors that every emoji with a colour presentation needs).
func EscapeInvisible(s string) string {
	i := firstInvisible(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		if !IsInvisible(r) {
			b.WriteRune(r)
			continue
		}
		if r > 0xFFFF {
			hi, lo := utf16.EncodeRune(r)
			writeEscape(&b, hi)
			writeEscape(&b, lo)
			continue
		}
		writeEscape(&b, r)
	}
	return b.String()
}

// firstInvisible returns the byte offset of the first rune to escape, or
// -1. Plain printable ASCII, the bulk of every result, is skipped a byte at
// a time without decoding.
func firstInvisible(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7f {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if IsInvisible(r) {
			return i
		}
		i += size
	}
	return -1
}

const hexDigits = "0123456789abcdef"

func writeEscape(b *strings.Builder, r rune) {
	b.WriteString(`\u`)
	for shift := 12; shift >= 0; shift -= 4 {
		b.WriteByte(hexDigits[(r>>uint(shift))&0xf])
	}
}

// IsInvisible reports whether r is escaped by EscapeInvisible: C0 controls
// other than tab, newline and carriage return, DEL, C1 controls, every
// Unicode format character (category Cf: bidi embeddings, overrides and
// isolates, zero-width space and joiners, word joiner, BOM, tag characters,
// soft hyphen, …), the supplementary variation selectors, the combining
// grapheme joiner and the Hangul fillers that render as blank space.
func IsInvisible(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r':
		return false
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
		return true
	case r < 0xa0:
		return false
	case r == utf8.RuneError:
		// Kept: it is visible (�) and is what invalid UTF-8 decodes to.
		return false
	case unicode.Is(unicode.Cf, r):
		return true
	case r >= 0xE0100 && r <= 0xE01EF: // variation selectors supplement
		return true
	case r == 0x034F, r == 0x115F, r == 0x1160, r == 0x3164, r == 0xFFA0:
		return true
	}
	return false
}
