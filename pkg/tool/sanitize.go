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
// Tab, newline and carriage return are kept. So is one emoji presentation
// selector (U+FE0E text, U+FE0F emoji) directly after a visible character,
// the only place it means anything (❤️ is U+2764 U+FE0F); one after another
// selector, after an escaped rune or at the start of the text is escaped,
// so a run of them cannot carry hidden bits.
func EscapeInvisible(s string) string {
	i := firstInvisible(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	prevKept := i > 0 && keptBase(lastRune(s[:i]))
	for _, r := range s[i:] {
		if !IsInvisible(r) && !(isPresentationSelector(r) && !prevKept) {
			b.WriteRune(r)
			prevKept = keptBase(r)
			continue
		}
		prevKept = false
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
	prevKept := false
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7f {
				return i
			}
			prevKept = c > ' '
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if IsInvisible(r) || isPresentationSelector(r) && !prevKept {
			return i
		}
		prevKept = keptBase(r)
		i += size
	}
	return -1
}

// keptBase reports whether a presentation selector may follow r: r is a
// visible character, not white space and not itself a selector.
func keptBase(r rune) bool {
	return r > ' ' && !IsInvisible(r) && !isPresentationSelector(r) && !unicode.IsSpace(r)
}

func lastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

// isPresentationSelector reports whether r is U+FE0E (text presentation)
// or U+FE0F (emoji presentation).
func isPresentationSelector(r rune) bool { return r == 0xFE0E || r == 0xFE0F }

const hexDigits = "0123456789abcdef"

func writeEscape(b *strings.Builder, r rune) {
	b.WriteString(`\u`)
	for shift := 12; shift >= 0; shift -= 4 {
		b.WriteByte(hexDigits[(r>>uint(shift))&0xf])
	}
}

// IsInvisible reports whether r is escaped by EscapeInvisible wherever it
// stands: C0 controls other than tab, newline and carriage return, DEL, C1
// controls, every Unicode format character (category Cf), every
// Default_Ignorable_Code_Point (see IsDefaultIgnorable), the whole block
// U+E0000–U+E0FFF (tags, variation selectors 17–256 and code points not
// yet assigned there, which a newer client may render as nothing), every
// private-use code point (category Co: no agreed glyph, so a font may draw
// it as anything or nothing), the noncharacters, and U+2800 BRAILLE
// PATTERN BLANK, which looks like a space but is none.
//
// U+FE0E and U+FE0F are the exception: they are default-ignorable, but
// IsInvisible leaves them to EscapeInvisible, which keeps one after a
// visible character (an emoji's presentation) and escapes any other.
//
// Cf is escaped whole, a little more than Default_Ignorable_Code_Point:
// the format characters that property leaves out because they have a
// visible fallback (interlinear annotations U+FFF9–U+FFFB, which can hide a
// run of text inside an annotation; Egyptian hieroglyph format controls;
// prepended concatenation marks such as U+0600) are rare in forge text and
// still change how the text around them renders.
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
	case isPresentationSelector(r):
		return false
	case r >= 0xE0000 && r <= 0xE0FFF:
		return true
	case r == 0x2800:
		// Braille pattern blank: drawn as an empty cell, so it passes for
		// a space, yet it is no white space and splits no word.
		return true
	case isNoncharacter(r):
		return true
	}
	return unicode.In(r, unicode.Cf, unicode.Co) || IsDefaultIgnorable(r)
}

// isNoncharacter reports the 66 code points Unicode sets aside never to be
// characters: U+FDD0–U+FDEF and the last two of every plane.
func isNoncharacter(r rune) bool {
	return r >= 0xFDD0 && r <= 0xFDEF || r&0xFFFE == 0xFFFE
}

// IsDefaultIgnorable reports whether r has the Unicode property
// Default_Ignorable_Code_Point: code points a renderer shows as nothing
// when it has no glyph for them. Go's unicode package has no table for the
// property itself, so it is derived as DerivedCoreProperties.txt defines it:
//
//	Other_Default_Ignorable_Code_Point
//	+ Cf (format characters)
//	+ Variation_Selector
//	- White_Space
//	- U+FFF9..U+FFFB (interlinear annotation format characters)
//	- U+13430..U+1343F (Egyptian hieroglyph format characters)
//	- Prepended_Concatenation_Mark (format characters that must be visible)
//
// Other_Default_Ignorable_Code_Point includes the code points reserved for
// future ignorables (U+2065, U+FFF0–U+FFF8, U+E0000, U+E0002–U+E001F,
// U+E0080–U+E00FF, U+E01F0–U+E0FFF), so those are covered although nothing
// is assigned there yet. TestDefaultIgnorableDerivation checks every code
// point against the property's published ranges.
func IsDefaultIgnorable(r rune) bool {
	if !unicode.In(r, unicode.Other_Default_Ignorable_Code_Point, unicode.Cf, unicode.Variation_Selector) {
		return false
	}
	switch {
	case unicode.Is(unicode.White_Space, r),
		r >= 0xFFF9 && r <= 0xFFFB,
		r >= 0x13430 && r <= 0x1343F,
		unicode.Is(unicode.Prepended_Concatenation_Mark, r):
		return false
	}
	return true
}
