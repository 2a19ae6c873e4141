package rpcguard

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// ValidID reports whether raw, a JSON value, is an id this server accepts
// and echoes exactly: a string of Unicode characters, or an integer from
// -2^53 to 2^53 written as one (no fraction, exponent or -0). Other
// numbers would come back changed (2^64 as 18446744073709552000, 1e3 as
// 1000), so would a string escaping a lone UTF-16 surrogate ("\ud800"
// decodes to U+FFFD), and null, booleans, objects and arrays are no ids in
// MCP.
func ValidID(raw []byte) bool {
	if len(raw) == 0 {
		return false
	}
	if raw[0] == '"' {
		_, ok := stringValue(raw)
		return ok && !loneSurrogate(raw)
	}
	digits := raw
	if digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 16 || (digits[0] == '0' && len(raw) > 1) {
		return false // -0 and leading zeros included; 2^53 has 16 digits
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	n, err := strconv.ParseUint(string(digits), 10, 64)
	return err == nil && n <= MaxID
}

// RecoverID looks for a top-level "id" at the start of a message too long
// to read whole, so its refusal can name the request; it returns Null
// when none is found in the first 64 KiB (clients put id before params).
func RecoverID(prefix []byte) json.RawMessage {
	const scanBytes = 64 << 10
	if len(prefix) > scanBytes {
		prefix = prefix[:scanBytes]
	}
	s := newScan(prefix)
	// The id must end before the prefix does: a number cut short is
	// another number.
	if !s.isObj || s.topBad == "id" || !s.top[mID].ok() || s.top[mID].end >= len(prefix) {
		return Null
	}
	id := s.top[mID].of(prefix)
	if !utf8.Valid(id) || !ValidID(id) {
		return Null
	}
	return id
}

// stringValue decodes raw when it is a JSON string.
func stringValue(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	inner := raw[1 : len(raw)-1]
	plain := true
	for _, c := range inner {
		if c == '\\' || c == '"' || c < 0x20 {
			plain = false
			break
		}
	}
	if plain && utf8.Valid(inner) {
		return string(inner), true
	}
	var v string
	if json.Unmarshal(raw, &v) != nil {
		return "", false
	}
	return v, true
}

func firstByte(b []byte) byte {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\n', '\r':
		default:
			return c
		}
	}
	return 0
}

// loneSurrogate reports whether raw, a valid JSON string, escapes a UTF-16
// surrogate that is not half of a pair: a high one (\uD800–\uDBFF) not
// directly followed by an escaped low one (\uDC00–\uDFFF), or a low one
// alone. Encoded as UTF-8 a surrogate is invalid and refused before this.
func loneSurrogate(raw []byte) bool {
	for i := 1; i < len(raw)-1; i++ {
		if raw[i] != '\\' {
			continue
		}
		if raw[i+1] != 'u' {
			i++ // an escaped character, \\ included
			continue
		}
		r := hex4(raw[i+2:])
		switch {
		case r >= 0xDC00 && r <= 0xDFFF:
			return true
		case r >= 0xD800 && r <= 0xDBFF:
			next := raw[i+6:]
			if len(next) < 6 || next[0] != '\\' || next[1] != 'u' {
				return true
			}
			if lo := hex4(next[2:]); lo < 0xDC00 || lo > 0xDFFF {
				return true
			}
			i += 11 // the pair
		default:
			i += 5
		}
	}
	return false
}

// hex4 is the value of the four hex digits b starts with (valid JSON
// guarantees them).
func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c-'a') + 10
		case c >= 'A' && c <= 'F':
			r |= rune(c-'A') + 10
		}
	}
	return r
}
