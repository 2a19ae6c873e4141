package rpcguard

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// ValidID reports whether raw, a JSON value, is an id this server accepts
// and echoes exactly: a string, or an integer from -2^53 to 2^53 written
// as one (no fraction, exponent or -0). Other numbers would come back
// changed (2^64 as 18446744073709552000, 1e3 as 1000), and null, booleans,
// objects and arrays are no ids in MCP.
func ValidID(raw []byte) bool {
	if len(raw) == 0 {
		return false
	}
	if raw[0] == '"' {
		_, ok := stringValue(raw)
		return ok
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
