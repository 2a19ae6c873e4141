package tool

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func testDef() Def {
	return Def{Name: "t", Params: []Param{
		Owner(), Repo(), Index(), Page(), Limit(), State(),
		Str("title", "Title", Required(), MaxLen(10)),
		Bool("draft", "Draft"),
		Strs("labels", "Labels"),
	}}
}

func TestParseValid(t *testing.T) {
	var raw map[string]any
	require.NoError(t, json.Unmarshal([]byte(`{"owner":"o","repo":"r.git-x_1","index":3,"title":"hi","draft":true,"labels":["a","b"]}`), &raw))
	a, err := testDef().Parse(raw)
	require.NoError(t, err)
	assert.Equal(t, "o", a.String("owner"))
	assert.Equal(t, int64(3), a.Int("index"))
	assert.Equal(t, int64(1), a.Int("page"), "default filled")
	assert.Equal(t, int64(20), a.Int("limit"), "default filled")
	assert.Equal(t, "open", a.String("state"))
	assert.True(t, a.Bool("draft"))
	assert.Equal(t, []string{"a", "b"}, a.Strings("labels"))
	assert.False(t, a.Has("missing"))
}

func TestParseLenientScalars(t *testing.T) {
	a, err := testDef().Parse(map[string]any{"owner": "o", "repo": "r", "index": "7", "title": "x", "draft": "true"})
	require.NoError(t, err)
	assert.Equal(t, int64(7), a.Int("index"), "a quoted whole number is accepted")
	assert.True(t, a.Bool("draft"))
}

func TestParseErrors(t *testing.T) {
	base := func() map[string]any { return map[string]any{"owner": "o", "repo": "r", "index": 1.0, "title": "x"} }
	tests := []struct {
		name   string
		mutate func(map[string]any)
		raw    any
		want   string
	}{
		{name: "not an object", raw: []any{1}, want: "arguments must be a JSON object, got a list"},
		{name: "unknown", mutate: func(m map[string]any) { m["onwer"] = "x" }, want: `unknown argument "onwer"; this tool takes: owner, repo, index`},
		{name: "missing", mutate: func(m map[string]any) { delete(m, "owner") }, want: `missing required argument "owner"`},
		{name: "null required", mutate: func(m map[string]any) { m["title"] = nil }, want: `missing required argument "title"`},
		{name: "empty required", mutate: func(m map[string]any) { m["title"] = "  " }, want: `argument "title" must not be empty`},
		{name: "wrong type", mutate: func(m map[string]any) { m["owner"] = 5.0 }, want: `argument "owner" must be a string, got a number`},
		{name: "fraction", mutate: func(m map[string]any) { m["index"] = 1.5 }, want: `argument "index" must be a whole number, got 1.5`},
		{name: "non-numeric id", mutate: func(m map[string]any) { m["index"] = "abc" }, want: `argument "index" must be a whole number, got "abc"`},
		{name: "negative index", mutate: func(m map[string]any) { m["index"] = -2.0 }, want: `argument "index" must be at least 1, got -2`},
		{name: "limit too big", mutate: func(m map[string]any) { m["limit"] = 500.0 }, want: `argument "limit" must be at most 50, got 500`},
		{name: "enum", mutate: func(m map[string]any) { m["state"] = "merged" }, want: `argument "state" must be one of open, closed, all, got "merged"`},
		{name: "too long", mutate: func(m map[string]any) { m["title"] = "12345678901" }, want: `argument "title" is 11 bytes long; at most 10 are allowed`},
		{name: "traversal owner", mutate: func(m map[string]any) { m["owner"] = "../admin" }, want: `argument "owner" must contain letters, digits`},
		{name: "dot-dot repo", mutate: func(m map[string]any) { m["repo"] = ".." }, want: `argument "repo" must contain letters, digits`},
		{name: "slash repo", mutate: func(m map[string]any) { m["repo"] = "a/b" }, want: `argument "repo" must contain`},
		{name: "query in repo", mutate: func(m map[string]any) { m["repo"] = "r?x=1" }, want: `argument "repo" must contain`},
		{name: "NUL", mutate: func(m map[string]any) { m["title"] = "a\x00b" }, want: `must not contain NUL`},
		{name: "bad list item", mutate: func(m map[string]any) { m["labels"] = []any{"a", 2.0} }, want: `argument "labels" item 1 must be a string`},
		{name: "bool", mutate: func(m map[string]any) { m["draft"] = "perhaps" }, want: `argument "draft" must be true or false`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := tt.raw
			if raw == nil {
				m := base()
				tt.mutate(m)
				raw = m
			}
			_, err := testDef().Parse(raw)
			require.Error(t, err)
			var ie *InputError
			require.ErrorAs(t, err, &ie)
			assert.Contains(t, err.Error(), "invalid arguments for t: ")
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestParseNilArgumentsUsesDefaults(t *testing.T) {
	d := Def{Name: "l", Params: []Param{Page(), Limit()}}
	a, err := d.Parse(nil)
	require.NoError(t, err)
	assert.Equal(t, int64(1), a.Int("page"))
}

func TestSelect(t *testing.T) {
	all := []Def{
		{Name: "get_a", Toolset: Toolset{ID: "a", Default: true}, Annotations: Read()},
		{Name: "make_a", Toolset: Toolset{ID: "a", Default: true}, Annotations: Write(false)},
		{Name: "get_b", Toolset: Toolset{ID: "b"}, Annotations: Read()},
		{Name: "drop_b", Toolset: Toolset{ID: "b"}, Annotations: Destroy(true)},
	}
	names := func(ds []Def) []string {
		var out []string
		for _, d := range ds {
			out = append(out, d.Name)
		}
		return out
	}
	tests := []struct {
		name string
		sel  Selection
		want []string
		err  string
	}{
		{name: "all", want: []string{"get_a", "make_a", "get_b", "drop_b"}},
		{name: "toolset", sel: Selection{Toolsets: []string{"b"}}, want: []string{"get_b", "drop_b"}},
		{name: "all keyword", sel: Selection{Toolsets: []string{"all"}}, want: []string{"get_a", "make_a", "get_b", "drop_b"}},
		{name: "read-only", sel: Selection{ReadOnly: true}, want: []string{"get_a", "get_b"}},
		{name: "allow-list", sel: Selection{Tools: []string{"make_a", "drop_b"}}, want: []string{"make_a", "drop_b"}},
		{name: "allow-list narrows toolsets", sel: Selection{Toolsets: []string{"a"}, Tools: []string{"get_a", "get_b"}}, want: []string{"get_a"}},
		{name: "exclude", sel: Selection{Exclude: []string{"drop_b"}}, want: []string{"get_a", "make_a", "get_b"}},
		{name: "read-only wins over allow-list", sel: Selection{Tools: []string{"make_a"}, ReadOnly: true}, want: nil},
		{name: "unknown toolset", sel: Selection{Toolsets: []string{"cccc"}}, err: `unknown toolset "cccc"; toolsets: all, default, a, b`},
		{name: "unknown toolset: did you mean", sel: Selection{Toolsets: []string{"defualt"}}, err: `unknown toolset "defualt"; did you mean "default"?; toolsets: all, default, a, b`},
		{name: "unknown added toolset: did you mean", sel: Selection{Toolsets: []string{"-defualt"}}, err: `did you mean "-default"?`},
		{name: "default", sel: Selection{Toolsets: []string{"default"}}, want: []string{"get_a", "make_a"}},
		{name: "default plus one", sel: Selection{Toolsets: []string{"default", "+b"}}, want: []string{"get_a", "make_a", "get_b", "drop_b"}},
		{name: "plus alone starts from default", sel: Selection{Toolsets: []string{"+b"}}, want: []string{"get_a", "make_a", "get_b", "drop_b"}},
		{name: "all minus one", sel: Selection{Toolsets: []string{"all", "-a"}}, want: []string{"get_b", "drop_b"}},
		{name: "minus the default leaves nothing", sel: Selection{Toolsets: []string{"-a"}}, want: nil},
		{name: "unknown added toolset", sel: Selection{Toolsets: []string{"+c"}}, err: `unknown toolset "+c"`},
		{name: "unknown tool", sel: Selection{Tools: []string{"nope"}}, err: `unknown tool "nope"`},
		{name: "unknown tool: did you mean", sel: Selection{Tools: []string{"make-a"}}, err: `unknown tool "make-a"; did you mean "make_a"?; run --cli list`},
		{name: "unknown excluded", sel: Selection{Exclude: []string{"nope"}}, err: `unknown tool "nope"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Select(all, tt.sel)
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, names(got))
		})
	}
}

func TestSplitList(t *testing.T) {
	assert.Equal(t, []string{"a", "b"}, SplitList(" a, ,b ,"))
	assert.Nil(t, SplitList(""))
}

// TestGiven: an edit's body holds exactly the arguments given, lists
// copied.
func TestGiven(t *testing.T) {
	list := []string{"a", "b"}
	a := NewArgs(map[string]any{"title": "t", "milestone": int64(3), "assignees": list, "draft": false})
	body := a.Given("title", "body", "assignees", "milestone", "draft")
	assert.Equal(t, map[string]any{"title": "t", "milestone": int64(3), "assignees": []string{"a", "b"}, "draft": false}, body)
	body["assignees"].([]string)[0] = "changed"
	assert.Equal(t, "a", list[0], "the body's list is a copy")
	assert.Empty(t, a.Given("body"))
}

// TestSelectExplicit: an Explicit toolset (site administration) is kept
// only when a selection names it or one of its tools.
func TestSelectExplicit(t *testing.T) {
	admin := Toolset{ID: "admin", Explicit: true}
	all := []Def{
		{Name: "get_a", Toolset: Toolset{ID: "a", Default: true}, Annotations: Read()},
		{Name: "get_b", Toolset: Toolset{ID: "b"}, Annotations: Read()},
		{Name: "list_users", Toolset: admin, Annotations: Read()},
		{Name: "delete_user", Toolset: admin, Annotations: Destroy(true)},
	}
	tests := []struct {
		name string
		sel  Selection
		want []string
	}{
		{name: "empty selection", want: []string{"get_a", "get_b"}},
		{name: "all", sel: Selection{Toolsets: []string{"all"}}, want: []string{"get_a", "get_b"}},
		{name: "all minus one", sel: Selection{Toolsets: []string{"all", "-b"}}, want: []string{"get_a"}},
		{name: "default", sel: Selection{Toolsets: []string{"default"}}, want: []string{"get_a"}},
		{name: "named", sel: Selection{Toolsets: []string{"admin"}}, want: []string{"list_users", "delete_user"}},
		{name: "added to the default", sel: Selection{Toolsets: []string{"+admin"}}, want: []string{"get_a", "list_users", "delete_user"}},
		{name: "all and named", sel: Selection{Toolsets: []string{"all", "admin"}}, want: []string{"get_a", "get_b", "list_users", "delete_user"}},
		{name: "named then left out", sel: Selection{Toolsets: []string{"admin", "-admin"}}, want: nil},
		{name: "a tool named", sel: Selection{Tools: []string{"list_users", "get_b"}}, want: []string{"get_b", "list_users"}},
		{name: "read-only", sel: Selection{Toolsets: []string{"admin"}, ReadOnly: true}, want: []string{"list_users"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Select(all, tt.sel)
			require.NoError(t, err)
			var names []string
			for _, d := range got {
				names = append(names, d.Name)
			}
			assert.Equal(t, tt.want, names)
		})
	}
}
