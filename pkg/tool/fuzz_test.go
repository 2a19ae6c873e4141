package tool_test

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// FuzzOwnerRepo: whatever owner and repo Parse accepts is a name that
// needs no escaping and makes a valid route segment, so it cannot change
// the route even where a route is built without escaping.
func FuzzOwnerRepo(f *testing.F) {
	for _, s := range []string{"forgeadmin", "demo.git", "..", ".", "a/b", "%2e%2e", "a?b", "a#b", "a\x00", " ", "é", strings.Repeat("a", 101)} {
		f.Add(s, "repo")
		f.Add("owner", s)
	}
	d := tool.Def{Name: "t", Params: []tool.Param{tool.Owner(), tool.Repo()}}
	f.Fuzz(func(t *testing.T, owner, repo string) {
		args, err := d.Parse(map[string]any{"owner": owner, "repo": repo})
		if err != nil {
			return
		}
		for _, v := range []string{args.String("owner"), args.String("repo")} {
			if url.PathEscape(v) != v || v == "." || v == ".." || v == "" || len(v) > 100 {
				t.Fatalf("accepted %q, which a route would have to escape or resolve", v)
			}
		}
		if _, err := forgejo.Path("repos", owner, repo); err != nil {
			t.Fatalf("accepted owner %q repo %q that Path refuses: %v", owner, repo, err)
		}
	})
}

// fuzzDef has one parameter of every kind and constraint.
var fuzzDef = tool.Def{Name: "t", Offline: true, Params: []tool.Param{
	tool.Owner(), tool.Repo().Optional(), tool.Index().Optional(), tool.Page(), tool.Limit(), tool.State(),
	tool.Str("body", "text", tool.MaxLen(64)),
	tool.Bool("flag", "flag"),
	tool.Strs("labels", "labels", tool.MaxLen(8)),
}, Handler: func(context.Context, *forgejo.Client, tool.Args) (*mcp.CallToolResult, error) {
	return tool.JSON("ok")
}}

// FuzzParse: any JSON as arguments is refused or yields values of the
// declared types within their constraints; the whole pipeline never
// panics on it.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"owner":"o"}`, `{"owner":"o","page":2,"limit":50,"state":"all","flag":"true","labels":["a","b"]}`,
		`{"owner":".."}`, `{"owner":"o","index":1.5}`, `{"owner":"o","index":"7"}`, `{"owner":"o","limit":1e308}`,
		`{"owner":"o","labels":[1]}`, `{"owner":"o","body":"\u0000"}`, `[]`, `null`, `"x"`, `{"owner":"o","x":1}`,
		`{"owner":"o","page":-9223372036854775808}`, `{"owner":"o","body":"` + strings.Repeat("é", 40) + `"}`,
	} {
		f.Add([]byte(s))
	}
	r := &tool.Runner{MaxArgBytes: 512, MaxResultBytes: 1024}
	f.Fuzz(func(t *testing.T, data []byte) {
		var raw any
		if json.Unmarshal(data, &raw) != nil {
			return
		}
		_ = r.Call(context.Background(), fuzzDef, raw)
		args, err := fuzzDef.Parse(raw)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "invalid arguments for t: ") {
				t.Fatalf("error without the tool's prefix: %v", err)
			}
			return
		}
		for _, p := range fuzzDef.Params {
			if !args.Has(p.Name) {
				if p.Required {
					t.Fatalf("required %s missing after a successful parse", p.Name)
				}
				continue
			}
			switch p.Type {
			case tool.TypeString:
				checkString(t, p, args.String(p.Name))
			case tool.TypeInteger:
				i := args.Int(p.Name)
				if (p.Min != nil && i < *p.Min) || (p.Max != nil && i > *p.Max) {
					t.Fatalf("%s=%d out of range", p.Name, i)
				}
			case tool.TypeList:
				for _, s := range args.Strings(p.Name) {
					checkString(t, p, s)
				}
			}
		}
	})
}

func checkString(t *testing.T, p tool.Param, s string) {
	t.Helper()
	if !utf8.ValidString(s) || strings.ContainsRune(s, 0) || (p.MaxLength > 0 && len(s) > p.MaxLength) {
		t.Fatalf("%s=%q violates its constraints", p.Name, s)
	}
	if len(p.Enum) > 0 && !fuzzContains(p.Enum, s) {
		t.Fatalf("%s=%q is not one of %v", p.Name, s, p.Enum)
	}
	if p.Pattern != nil && s != "" && !p.Pattern.MatchString(s) {
		t.Fatalf("%s=%q does not match %s", p.Name, s, p.Pattern)
	}
}

func fuzzContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// FuzzEscapeInvisible: the escaped text has no invisible rune left and,
// inside a JSON string, decodes back to the original.
func FuzzEscapeInvisible(f *testing.F) {
	for _, c := range invisibleCorpus {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		b, err := json.Marshal(s)
		if err != nil {
			return
		}
		esc := tool.EscapeInvisible(string(b))
		prev := rune(-1)
		for _, r := range esc {
			if tool.IsInvisible(r) {
				t.Fatalf("invisible %U left in %q", r, esc)
			}
			// A kept presentation selector follows a visible character:
			// no run of them, none after a space, none first.
			if (r == 0xFE0E || r == 0xFE0F) && (prev < 0 || prev == 0xFE0E || prev == 0xFE0F || unicode.IsSpace(prev)) {
				t.Fatalf("presentation selector %U kept after %U in %q", r, prev, esc)
			}
			prev = r
		}
		var back string
		if err := json.Unmarshal([]byte(esc), &back); err != nil || back != s {
			t.Fatalf("not lossless: %q -> %q -> %q (%v)", s, esc, back, err)
		}
	})
}
