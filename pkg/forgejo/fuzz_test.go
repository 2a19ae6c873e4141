package forgejo_test

import (
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// segmentOK mirrors Path's contract in the plainest terms, so the fuzzer
// checks the implementation against the specification: a value is
// non-empty, at most MaxSegmentBytes of UTF-8, and neither it nor any of
// its percent-decodings (as a chain of decoding proxies makes them) is "."
// or "..", or holds '/', '\', '?', '#' or a control character.
func segmentOK(s string) bool {
	if s == "" || len(s) > forgejo.MaxSegmentBytes || !utf8.ValidString(s) {
		return false
	}
	for {
		if s == "." || s == ".." || strings.ContainsAny(s, `/\?#`) {
			return false
		}
		for i := 0; i < len(s); i++ {
			if s[i] < 0x20 || s[i] == 0x7f {
				return false
			}
		}
		if utf8.ValidString(s) {
			for _, r := range s {
				if r >= 0x80 && r <= 0x9f {
					return false
				}
			}
		}
		d, err := url.PathUnescape(s)
		if err != nil || d == s {
			return true
		}
		s = d
	}
}

// FuzzPath: whatever owner, repo and ref are, Path either refuses them as
// its contract says or builds a route that stays under
// /repos/{owner}/{repo}/git/refs/{ref} with each value as one segment.
func FuzzPath(f *testing.F) {
	for _, s := range []string{"o", "..", ".", "", "%2e%2e", "a/b", "a?b", "a#b", "a\x00b", "\xff", "..%2f", "é", `..\`,
		"..%252F..%252Fvictim", "%252e%252e", "a%253Fb", "a%2523b", "a%250Ab", "%25252e%25252e", "100%", "a%41", "%C2%85"} {
		f.Add(s, "r", "main")
		f.Add("o", s, "main")
		f.Add("o", "r", s)
	}
	f.Fuzz(func(t *testing.T, owner, repo, ref string) {
		segments := []string{"repos", owner, repo, "git", "refs", ref}
		route, err := forgejo.Path(segments...)
		want := segmentOK(owner) && segmentOK(repo) && segmentOK(ref)
		if (err == nil) != want {
			t.Fatalf("Path(%q, %q, %q): err=%v, want ok=%v", owner, repo, ref, err, want)
		}
		if err == nil {
			assertUnder(t, route, segments)
			assertGuardAgrees(t, route)
		}
	})
}

// assertGuardAgrees: whatever Path or FilePath builds, the transport's route
// guard lets through, so the two never disagree about a value.
func assertGuardAgrees(t *testing.T, route string) {
	t.Helper()
	u, err := url.Parse("https://forge.example/api/v1" + route)
	if err != nil {
		t.Fatalf("route %q does not parse: %v", route, err)
	}
	if err := forgejo.CheckRoute(u); err != nil {
		t.Fatalf("route %q: built by Path but refused by the guard: %v", route, err)
	}
}

// FuzzFilePath: a file path is refused, or every one of its parts becomes
// one segment under the contents route, in order.
func FuzzFilePath(f *testing.F) {
	for _, s := range []string{"a.md", "docs/a.md", "../x", "a/../b", "a//b", "/a", "a/", "./a", "%2e%2e/x", "a?b#c", "a\x00", "...", "%252e%252e/x", "a/b%252Fc", "a%2541.md"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, file string) {
		prefix := []string{"repos", "o", "r", "contents"}
		route, err := forgejo.FilePath(prefix, file)
		parts := strings.Split(file, "/")
		want := len(file) <= forgejo.MaxFilePathBytes
		for _, p := range parts {
			want = want && segmentOK(p)
		}
		if (err == nil) != want {
			t.Fatalf("FilePath(%q): err=%v, want ok=%v", file, err, want)
		}
		if err == nil {
			assertUnder(t, route, append(prefix, parts...))
			assertGuardAgrees(t, route)
		}
	})
}
