package forgejo

import (
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"
)

// Bounds of values that become API route segments. No forge name comes
// close; the bounds only stop a hostile argument from making a URL that
// proxies refuse or log in full.
const (
	MaxSegmentBytes  = 1024
	MaxFilePathBytes = 4096
)

// PathError is an argument that cannot be part of an API route. Its text
// names the value's role and what is wrong, for the agent to correct.
type PathError struct {
	Value  string // clipped for display
	Reason string
}

func (e *PathError) Error() string {
	return fmt.Sprintf("%q cannot be used in a forge API path: %s", e.Value, e.Reason)
}

// Path builds an API route (relative to /api/v1) from segments, escaping
// each one (percent-encoding '%' and every reserved byte) so that no
// argument can change the route. A segment containing '/' or '\' is
// refused, not escaped to %2F or %5C: forges are often run behind nginx,
// Apache or a cloud proxy that decodes %2F and folds ".." before passing the
// request on, so "../../victim" escaped as one segment would still reach
// another route there. Empty, "." and ".." segments are refused for the same
// reason; so are '?', '#' and control characters, which a proxy that passes
// the decoded path on raw turns into the end of the path or of the request
// line, invalid UTF-8 and over-long values. A chain of such proxies decodes
// once per hop, so every percent-decoding of the value is held to the same
// rule: "..%2F..%2Fvictim" and "%252e%252e" are refused too (climbProblem).
// A value that may legitimately hold '/' (a file path, a branch) goes
// through FilePath instead, which checks it part by part.
//
//	Path("repos", owner, repo, "issues", strconv.FormatInt(index, 10))
//	→ "/repos/o/r/issues/3"
//
// Handlers use it (or FilePath) for every raw route; they never concatenate
// arguments into a URL themselves.
func Path(segments ...string) (string, error) {
	var b strings.Builder
	for _, s := range segments {
		if reason := segmentProblem(s); reason != "" {
			return "", &PathError{Value: Clip(s), Reason: reason}
		}
		b.WriteByte('/')
		b.WriteString(url.PathEscape(s))
	}
	return b.String(), nil
}

// FilePath is Path whose last part is a slash-separated path inside a
// repository: a file path, or a branch or tag name that contains slashes.
// Its slashes are kept as route separators and each of its segments is
// checked and escaped as in Path, so "docs/a b.md" becomes "docs/a%20b.md"
// while "../x", "a//b", "./a" and "a/" are refused: none of them names a
// file, and dot segments would climb out of the route.
//
//	FilePath([]string{"repos", owner, repo, "contents"}, "docs/README.md")
//	→ "/repos/o/r/contents/docs/README.md"
func FilePath(prefix []string, file string) (string, error) {
	head, err := Path(prefix...)
	if err != nil {
		return "", err
	}
	if len(file) > MaxFilePathBytes {
		return "", &PathError{Value: Clip(file), Reason: fmt.Sprintf("a path is at most %d bytes, got %d", MaxFilePathBytes, len(file))}
	}
	if file == "" {
		return "", &PathError{Value: file, Reason: "the path is empty"}
	}
	if strings.HasPrefix(file, "/") {
		return "", &PathError{Value: Clip(file), Reason: "give the path relative to the repository root, without a leading '/'"}
	}
	var b strings.Builder
	b.WriteString(head)
	for _, s := range strings.Split(file, "/") {
		if reason := segmentProblem(s); reason != "" {
			return "", &PathError{Value: Clip(file), Reason: fmt.Sprintf("its part %q: %s", Clip(s), reason)}
		}
		b.WriteByte('/')
		b.WriteString(url.PathEscape(s))
	}
	return b.String(), nil
}

// slashReason explains why a value with a slash cannot be one segment.
const slashReason = "it contains '/' or '\\', which cannot be sent as part of one route segment: " +
	"a proxy in front of the forge may decode %2F or %5C into a separator and send the request to another route"

// segmentProblem says why s cannot be one route segment, or "": it is
// empty, too long or not UTF-8, or it or one of its percent-decodings
// holds a separator, a dot segment, '?', '#' or a control character
// (climbProblem).
func segmentProblem(s string) string {
	switch {
	case s == "":
		return "it is empty"
	case len(s) > MaxSegmentBytes:
		return fmt.Sprintf("it is %d bytes long; at most %d are allowed", len(s), MaxSegmentBytes)
	case !utf8.ValidString(s):
		return "it is not valid UTF-8"
	}
	return climbProblem(s)
}

// Clip shortens a value quoted back in an error message to 64 bytes,
// on a rune boundary, so a hostile megabyte-long argument is not echoed.
func Clip(s string) string {
	if len(s) <= 64 {
		return s
	}
	cut := 64
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
