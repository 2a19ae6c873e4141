package forgejo

import (
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"
)

// A proxy in front of the forge may decode a request's path before passing
// it on: nginx with a URI in proxy_pass decodes once and folds dot
// segments; one with `proxy_pass http://next$uri` passes the decoded path
// on raw, so the next proxy decodes it again. A chain of n such proxies
// decodes n times. A value is therefore safe in a route segment only if
// none of its decodings, however many, holds something that ends or
// leaves the segment: '/' or '\' (a separator), a "." or ".." segment (a
// climb), '?' or '#' (the end of the path), or a control character (the
// end of the request line). climbProblem checks every decoding, down to
// the fixed point where decoding changes nothing or fails.

// maxDecodings bounds the decodings climbProblem looks at. Each one that
// changes the value shortens it by at least two bytes, so a segment of
// MaxSegmentBytes reaches its fixed point well within it; the bound only
// makes the loop's end obvious.
const maxDecodings = MaxFilePathBytes / 2

// climbProblem says why s, or one of its percent-decodings, cannot stand in
// one route segment, or "". s itself is decoding 0: the value as given
// (for Path) or as sent on the wire (for CheckRoute).
func climbProblem(s string) string {
	for n := 0; n < maxDecodings; n++ {
		if reason := stageProblem(s); reason != "" {
			if n == 0 {
				return reason
			}
			return fmt.Sprintf("percent-decoded %s it is %q: %s", times(n), Clip(s), reason)
		}
		d, err := url.PathUnescape(s)
		if err != nil || d == s {
			return ""
		}
		s = d
	}
	return "it is percent-encoded more times than any name needs"
}

// stageProblem checks one decoding of a value.
func stageProblem(s string) string {
	switch {
	case s == "." || s == "..":
		return "'.' and '..' are not names"
	case strings.ContainsAny(s, `/\`):
		return slashReason
	case strings.ContainsAny(s, "?#"):
		return queryReason
	case hasControl(s):
		return "it contains a control character"
	}
	return ""
}

// queryReason explains why '?' and '#' cannot be in a segment.
const queryReason = "it contains '?' or '#', which a proxy in front of the forge that decodes %3F or %23 " +
	"would read as the end of the path, sending the request to another route"

// hasControl reports a C0 or C1 control character or DEL in s: by rune
// when s is UTF-8, else by byte.
func hasControl(s string) bool {
	if !utf8.ValidString(s) {
		for i := 0; i < len(s); i++ {
			if s[i] < 0x20 || s[i] == 0x7f {
				return true
			}
		}
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
			return true
		}
	}
	return false
}

func times(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}
