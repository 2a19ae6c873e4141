package tool

import (
	"bytes"
	"encoding/json"
	"path"
	"reflect"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/hidden"
)

// The Runner's hidden-text pass: in every result, the text the forge's
// web view renders as markdown has what that view does not show marked
// where it stands (pkg/hidden: ⟦hidden: …⟧, ⟦collapsed: …⟧), the rest of
// it byte for byte. It runs in the Runner, so no surface can skip it; the
// result types say which members hold such text, with a struct tag:
//
//	md:"rendered"        always markdown the web view renders (an issue's
//	                     body, a comment, a review, release notes, a wiki
//	                     page, a milestone's or an organisation's
//	                     description)
//	md:"file=path"       a file's text: rendered when the sibling member
//	                     path names a markdown file (README.md)
//	md:"when=type:markdown"  rendered when the sibling member type is
//	                     markdown (an issue form's text element)
//
// Text the web view shows as it is (titles, names, commit and tag
// messages, labels, a repository's description, CI logs, diffs, code) is
// left alone: nothing in it is hidden. TestEveryToolMarksHiddenText drives
// every tool against a fake forge whose markdown fields hide text, and
// fails on a result that passes it on unmarked.

// mdNode says where a result's markdown is: at this value (rule), or
// below it (fields, elem).
type mdNode struct {
	rule   string
	fields map[string]*mdNode
	elem   *mdNode
}

// markdownOf returns where out's markdown is, nil for nowhere.
func markdownOf(out any) *mdNode {
	switch x := out.(type) {
	case nil:
		return nil
	case Shape:
		n := &mdNode{fields: map[string]*mdNode{}}
		for k, v := range x {
			if c := markdownOf(v); c != nil {
				n.fields[k] = c
			}
		}
		return n.orNil()
	case anyOf:
		n := &mdNode{fields: map[string]*mdNode{}}
		for _, o := range x {
			if c := markdownOf(o); c != nil {
				for k, f := range c.fields {
					n.fields[k] = f
				}
			}
		}
		return n.orNil()
	}
	return mdOfType(reflect.TypeOf(out), map[reflect.Type]bool{})
}

func (n *mdNode) orNil() *mdNode {
	if n.rule == "" && len(n.fields) == 0 && n.elem == nil {
		return nil
	}
	return n
}

func mdOfType(t reflect.Type, seen map[reflect.Type]bool) *mdNode {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil {
		return nil
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map:
		if e := mdOfType(t.Elem(), seen); e != nil {
			return &mdNode{elem: e}
		}
		return nil
	case reflect.Struct:
		if t == timeType || seen[t] {
			return nil
		}
		seen[t] = true
		defer delete(seen, t)
		var fields []field
		collectFields(t, 0, false, &fields)
		n := &mdNode{fields: map[string]*mdNode{}}
		for _, f := range dominant(fields) {
			switch {
			case f.md != "":
				n.fields[f.name] = &mdNode{rule: f.md}
			default:
				if c := mdOfType(f.typ, seen); c != nil {
					n.fields[f.name] = c
				}
			}
		}
		return n.orNil()
	}
	return nil
}

// markdownFile reports a file name Gitea renders as markdown (its
// [markdown] FILE_EXTENSIONS default).
func markdownFile(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".md", ".markdown", ".mdown", ".mkd", ".livemd":
		return true
	}
	return false
}

// markHidden marks the markdown of res, a successful result of d: its
// JSON text content and its structured content.
func markHidden(d Def, res *mcp.CallToolResult) {
	if res.IsError {
		return
	}
	tree := markdownOf(d.Output)
	if tree == nil {
		return
	}
	if len(res.Content) > 0 {
		// The result's JSON is its first content (JSON, Items); what may
		// follow (a PDF's text, a file) is no markdown the forge renders.
		switch c := res.Content[0].(type) {
		case mcp.TextContent:
			if b, ok := markJSON([]byte(c.Text), tree); ok {
				c.Text = string(refit(b, len(c.Text)))
				res.Content[0] = c
			}
		case *mcp.TextContent:
			if b, ok := markJSON([]byte(c.Text), tree); ok {
				c.Text = string(refit(b, len(c.Text)))
			}
		}
	}
	if res.StructuredContent != nil {
		raw, ok := res.StructuredContent.(json.RawMessage)
		if !ok {
			var err error
			if raw, err = json.Marshal(res.StructuredContent); err != nil {
				return
			}
		}
		if b, changed := markJSON(raw, tree); changed {
			res.StructuredContent = json.RawMessage(refit(b, len(raw)))
		}
	}
}

// refit fits a result the marks lengthened to what its tool promised:
// MaxResultBytes, or its unmarked length when a larger window was asked
// for. The text and structured copies are cut by the same rule, so they
// stay equal.
func refit(b []byte, was int) []byte {
	out, _ := fit(b, max(was, MaxResultBytes))
	return out
}

// markJSON rewrites the strings of JSON text b that tree says are
// markdown, leaving every other byte as it is; changed is false when
// nothing was marked (or b is not the JSON tree describes).
func markJSON(b []byte, tree *mdNode) ([]byte, bool) {
	w := &jsonMarker{in: b}
	end, ok := w.value(w.space(0), tree, "")
	if !ok || w.out == nil || w.space(end) != len(b) {
		return b, false
	}
	return append(w.out, b[w.last:]...), true
}

type jsonMarker struct {
	in   []byte
	out  []byte
	last int // in[:last] is in out already
}

func (w *jsonMarker) space(i int) int {
	for i < len(w.in) && (w.in[i] == ' ' || w.in[i] == '\t' || w.in[i] == '\n' || w.in[i] == '\r') {
		i++
	}
	return i
}

// value reads the JSON value at i, marking it when n's rule applies (with
// sibling the value its rule names, "" for none); it returns its end.
func (w *jsonMarker) value(i int, n *mdNode, sibling string) (int, bool) {
	if i >= len(w.in) {
		return 0, false
	}
	switch w.in[i] {
	case '{':
		return w.object(i, n)
	case '[':
		return w.array(i, n)
	case '"':
		end, ok := stringEnd(w.in, i)
		if ok && n != nil && applies(n.rule, sibling) {
			w.mark(i, end)
		}
		return end, ok
	}
	j := i
	for j < len(w.in) && !bytes.ContainsRune([]byte(",}] \t\r\n"), rune(w.in[j])) {
		j++
	}
	return j, j > i
}

// applies tells whether rule makes a string markdown, given the sibling
// value the rule names.
func applies(rule, sibling string) bool {
	switch {
	case rule == "rendered":
		return true
	case strings.HasPrefix(rule, "file="):
		return markdownFile(sibling)
	case strings.HasPrefix(rule, "when="):
		_, want, _ := strings.Cut(rule[len("when="):], ":")
		return sibling == want
	}
	return false
}

// siblingKey is the member a rule looks at.
func siblingKey(rule string) string {
	switch {
	case strings.HasPrefix(rule, "file="):
		return rule[len("file="):]
	case strings.HasPrefix(rule, "when="):
		k, _, _ := strings.Cut(rule[len("when="):], ":")
		return k
	}
	return ""
}

func (w *jsonMarker) object(i int, n *mdNode) (int, bool) {
	// The siblings the rules of this object's members name, read first:
	// a member may come before or after the one it qualifies.
	var siblings map[string]string
	if n != nil {
		for _, c := range n.fields {
			if k := siblingKey(c.rule); k != "" {
				if siblings == nil {
					siblings = map[string]string{}
				}
				siblings[k] = ""
			}
		}
		if siblings != nil {
			w.readSiblings(i, siblings)
		}
	}
	j := w.space(i + 1)
	if j < len(w.in) && w.in[j] == '}' {
		return j + 1, true
	}
	for j < len(w.in) {
		kEnd, ok := stringEnd(w.in, j)
		if !ok {
			return 0, false
		}
		var key string
		if json.Unmarshal(w.in[j:kEnd], &key) != nil {
			return 0, false
		}
		j = w.space(kEnd)
		if j >= len(w.in) || w.in[j] != ':' {
			return 0, false
		}
		var child *mdNode
		if n != nil {
			if child = n.fields[key]; child == nil {
				child = n.elem // a map's values
			}
		}
		sib := ""
		if child != nil {
			sib = siblings[siblingKey(child.rule)]
		}
		if j, ok = w.value(w.space(j+1), child, sib); !ok {
			return 0, false
		}
		j = w.space(j)
		if j < len(w.in) && w.in[j] == ',' {
			j = w.space(j + 1)
			continue
		}
		if j < len(w.in) && w.in[j] == '}' {
			return j + 1, true
		}
		return 0, false
	}
	return 0, false
}

// readSiblings fills want with the string members of the object at i that
// it names.
func (w *jsonMarker) readSiblings(i int, want map[string]string) {
	var obj map[string]json.RawMessage
	end, ok := (&jsonMarker{in: w.in}).object(i, nil)
	if !ok || json.Unmarshal(w.in[i:end], &obj) != nil {
		return
	}
	for k := range want {
		var s string
		if raw, ok := obj[k]; ok && json.Unmarshal(raw, &s) == nil {
			want[k] = s
		}
	}
}

func (w *jsonMarker) array(i int, n *mdNode) (int, bool) {
	var elem *mdNode
	if n != nil {
		elem = n.elem
	}
	j := w.space(i + 1)
	if j < len(w.in) && w.in[j] == ']' {
		return j + 1, true
	}
	for j < len(w.in) {
		var ok bool
		if j, ok = w.value(j, elem, ""); !ok {
			return 0, false
		}
		j = w.space(j)
		if j < len(w.in) && w.in[j] == ',' {
			j = w.space(j + 1)
			continue
		}
		if j < len(w.in) && w.in[j] == ']' {
			return j + 1, true
		}
		return 0, false
	}
	return 0, false
}

// mark replaces the JSON string in[i:end] with its text marked.
func (w *jsonMarker) mark(i, end int) {
	var s string
	if json.Unmarshal(w.in[i:end], &s) != nil {
		return
	}
	marked := hidden.Mark(s)
	if marked == s {
		return
	}
	enc, err := marshal(marked)
	if err != nil {
		return
	}
	w.out = append(append(w.out, w.in[w.last:i]...), enc...)
	w.last = end
}

// stringEnd returns the end of the JSON string starting at b[i].
func stringEnd(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' {
		return 0, false
	}
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return 0, false
}
