package resource

import (
	"strings"
	"testing"
)

// FuzzParse: Parse never panics; what it accepts carries no '/' or dot
// segment in a name, and builds back to a URI that parses to the same.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"forgejo://o/r", "forgejo://o/r/files/a/b?ref=x", "forgejo://o/r/issues/3/attachments/7?offset=1&max_bytes=2",
		"forgejo://o/r/wiki/C%2B%2B", "forgejo://o/r/files/%2e%2e/x", "forgejo://o/r/comments/1/attachments/2", "forgejo://o/r/pulls/1/diff?offset=9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := Parse(s)
		if err != nil {
			return
		}
		for _, k := range []string{"owner", "repo", "sha", "page_name"} {
			if v, ok := got.Args[k].(string); ok && (strings.ContainsAny(v, "/\\") || v == "." || v == "..") {
				t.Fatalf("%q: %s = %q", s, k, v)
			}
		}
		if p, ok := got.Args["path"].(string); ok {
			for _, seg := range strings.Split(p, "/") {
				if seg == "." || seg == ".." || strings.Contains(seg, "\\") {
					t.Fatalf("%q: path %q", s, p)
				}
			}
		}
		again, err := Parse(URI(got.Kind, got.Args))
		if err != nil {
			t.Fatalf("%q → %q: %v", s, URI(got.Kind, got.Args), err)
		}
		if again.Kind != got.Kind || len(again.Args) != len(got.Args) {
			t.Fatalf("%q: %v then %v", s, got, again)
		}
		for k, v := range got.Args {
			if again.Args[k] != v {
				t.Fatalf("%q: %s %v then %v", s, k, v, again.Args[k])
			}
		}
	})
}
