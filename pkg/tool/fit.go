package tool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// Results that fit the client. A widely used client refuses a tool result
// over 25,000 tokens (Claude Code's MAX_MCP_OUTPUT_TOKENS), and a token is
// about 3 bytes of code, logs or JSON at worst. So every tool at its
// defaults answers with at most MaxResultBytes of text, counted as it
// travels: JSON, escaping included (a log's ANSI colour codes take six
// bytes each). A tool that returns a window of a long text (a diff, a log,
// a file) fills at most TextBudget of it, leaving the rest for the fields
// around it, and says which next call narrows.

// MaxResultBytes is the most text one tool result carries at a tool's
// defaults: about 20,000 tokens.
const MaxResultBytes = 60_000

// TextBudget is the most JSON-encoded bytes a window of text (diff, log,
// file) takes in a result.
const TextBudget = 48 << 10

// JSONLen is the length of s encoded as a JSON string by JSON (without
// HTML escaping), quotes excluded.
func JSONLen(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			n += asciiLen(c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			n += 6 // \ufffd
		case r == '\u2028' || r == '\u2029':
			n += 6
		default:
			n += size
		}
		i += size
	}
	return n
}

func asciiLen(c byte) int {
	switch {
	case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f':
		return 2
	case c < 0x20:
		return 6 // \u00XX
	}
	return 1
}

// FitPrefix returns how many bytes of s, from its start, fit in budget
// bytes of JSON, cut at a line end when one falls in the window (whole
// runes otherwise).
func FitPrefix(s string, budget int) int {
	n, cut, lastLine := 0, 0, -1
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		w := size
		if r < utf8.RuneSelf {
			w = asciiLen(s[i])
		} else if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			w = 6
		}
		if n+w > budget {
			break
		}
		n += w
		i += size
		cut = i
		if r == '\n' {
			lastLine = i
		}
	}
	if cut < len(s) && lastLine > 0 {
		return lastLine
	}
	return cut
}

// fitMinString is the shortest string the backstop cuts: ids, names and
// dates are never touched, only bodies and texts.
const fitMinString = 512

// fitListString is what a long string is cut to before the backstop
// shortens lists: their items' texts go first.
const fitListString = 1 << 10

// fit is the backstop behind every tool's own windows and pages. A JSON
// result over limit bytes has its longest strings (bodies, texts) cut
// to one common length, each ending in a note of how much was cut, until
// it fits; when that is not enough (a list of very many items), its
// longest lists keep only their leading items, and the result's note
// (added to the root object, which schemas leave open) says so. ok is
// false when nothing makes it fit (it is then returned unchanged).
func fit(b []byte, limit int) (out []byte, ok bool) {
	if len(b) <= limit {
		return b, true
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return b, false
	}
	var long []*string
	collectLong(&v, &long)
	if out, ok := cutStrings(v, long, limit); ok {
		return out, true
	}
	for _, s := range long {
		*s = cutTo(*s, JSONLen(*s), fitListString)
	}
	var notes []string
	for range 8 {
		l := largestList(v, "")
		if l == nil {
			break
		}
		// Room for this list's note and the ones before it.
		budget := limit - 120 - len(strings.Join(notes, "; ")) - len(l.path)
		n := len(l.items)
		keep := sort.Search(n+1, func(k int) bool {
			l.set(l.items[:k])
			enc, err := marshal(v)
			return err != nil || len(enc) > budget
		}) - 1
		keep = max(keep, 0)
		l.set(l.items[:keep])
		notes = append(notes, fmt.Sprintf("%s: the first %d of %d items, as many as fit one result", l.path, keep, n))
		if enc, err := marshal(v); err == nil && len(enc) <= budget {
			break
		}
	}
	if root, isObj := v.(map[string]any); isObj && len(notes) > 0 {
		note := strings.Join(notes, "; ") + ": ask for less (a smaller limit, a narrower filter)"
		if old, ok := root["note"].(string); ok && old != "" {
			note = old + "; " + note
		}
		root["note"] = note
	}
	out, err := marshal(v)
	if err != nil || len(out) > limit {
		return b, false
	}
	return out, true
}

// cutStrings cuts the strings of long (found in v) to the longest common
// length at which v encodes within limit bytes.
func cutStrings(v any, long []*string, limit int) ([]byte, bool) {
	if len(long) == 0 {
		return nil, false
	}
	lens := make([]int, len(long))
	orig := make([]string, len(long))
	for i, s := range long {
		lens[i], orig[i] = JSONLen(*s), *s
	}
	// Binary search on the common cap: each step re-encodes.
	lo, hi := 0, slices.Max(lens)
	var best []byte
	for lo < hi {
		cap := (lo + hi + 1) / 2
		for i, s := range orig {
			*long[i] = cutTo(s, lens[i], cap)
		}
		enc, err := marshal(v)
		if err != nil {
			return nil, false
		}
		if len(enc) <= limit {
			best, lo = enc, cap
		} else {
			hi = cap - 1
		}
	}
	for i, s := range orig {
		*long[i] = s
	}
	return best, best != nil
}

// list is a JSON array in a decoded result, where it sits and how to
// replace it.
type list struct {
	path  string
	items []any
	size  int
	set   func([]any)
}

// largestList finds the array in v (below path) that encodes longest.
func largestList(v any, path string) *list {
	var best *list
	consider := func(l *list) {
		if l != nil && len(l.items) > 0 && (best == nil || l.size > best.size) {
			best = l
		}
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			p := k
			if path != "" {
				p = path + "." + k
			}
			if arr, ok := e.([]any); ok {
				enc, _ := marshal(arr)
				consider(&list{path: p, items: arr, size: len(enc), set: func(a []any) { x[k] = a }})
			}
			consider(largestList(e, p))
		}
	case []any:
		for i, e := range x {
			consider(largestList(e, fmt.Sprintf("%s[%d]", path, i)))
		}
	}
	return best
}

// cutTo returns s (n bytes as JSON) cut to about limit bytes as JSON, with
// a note of what was cut; s itself when it fits.
func cutTo(s string, n, limit int) string {
	if n <= limit {
		return s
	}
	keep := FitPrefix(s, max(0, limit-40))
	return s[:keep] + fmt.Sprintf("…[%d more bytes cut to fit the result]", len(s)-keep)
}

// collectLong gathers pointers to the strings in v longer than fitMinString.
func collectLong(v *any, out *[]*string) {
	switch x := (*v).(type) {
	case string:
		if len(x) > fitMinString {
			s := x
			*v = &s
			*out = append(*out, &s)
		}
	case map[string]any:
		for k := range x {
			e := x[k]
			collectLong(&e, out)
			x[k] = e
		}
	case []any:
		for i := range x {
			collectLong(&x[i], out)
		}
	}
}

// marshal encodes v as results carry it: compact, without HTML escaping
// (nobody renders a result as HTML, and \u003c costs six bytes).
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
