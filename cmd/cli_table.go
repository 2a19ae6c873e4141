package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// --output table: results for people. Every tool answers compact JSON
// whose fields its result type declares in a sensible order, so one
// generic rendering serves all 165: a list (the items of a page) is a
// table of its short fields, one object is its fields one a line with its
// long text (an issue's body, a commit message) after them as text.
// Forge text is shown with invisible and control characters escaped, as
// the JSON form has them, so no terminal escape sequence from a stranger's
// issue reaches the terminal.

// Cell widths: a title or name may run longer than other cells.
const (
	cellWidth      = 40
	titleCellWidth = 60
)

// table aligns tab-separated cells as tabwriter does, without the blanks
// an empty last cell would leave at the end of a line.
type table struct {
	w   io.Writer
	buf bytes.Buffer
	tw  *tabwriter.Writer
}

func newTable(w io.Writer) *table {
	t := &table{w: w}
	t.tw = tabwriter.NewWriter(&t.buf, 0, 4, 2, ' ', 0)
	return t
}

func (t *table) Write(p []byte) (int, error) { return t.tw.Write(p) }

// Flush writes the aligned lines.
func (t *table) Flush() error {
	if err := t.tw.Flush(); err != nil {
		return err
	}
	for _, line := range strings.SplitAfter(t.buf.String(), "\n") {
		if line == "" {
			continue
		}
		if _, err := io.WriteString(t.w, strings.TrimRight(line, " \n")+"\n"); err != nil {
			return err
		}
	}
	t.buf.Reset()
	return nil
}

// render writes v, a decoded result, for people; note takes what is said
// about it (more pages).
func render(w, note io.Writer, v any) {
	foldRoles(v)
	switch v := v.(type) {
	case *object:
		if key := firstList(v); key != "" && isPage(v) {
			renderPage(w, note, v, key)
			return
		}
		renderObject(w, v, "")
	case []any:
		renderTable(w, v, "")
	default:
		fmt.Fprintln(w, scalar(v))
	}
}

// isPage says whether obj is one page of a list ({items, page, has_more}).
func isPage(obj *object) bool {
	_, more := obj.vals["has_more"].(bool)
	return more
}

// renderPage is a table of the page's items and, on note (standard
// error, so the table alone can be piped on), a line on what follows.
func renderPage(w, note io.Writer, obj *object, key string) {
	list, _ := obj.vals[key].([]any)
	for _, k := range obj.keys {
		// Other short facts of the page (a tree's sha, a total count).
		if k != key && k != "page" && k != "has_more" && isScalar(obj.vals[k]) && scalar(obj.vals[k]) != "" {
			fmt.Fprintf(w, "%s: %s\n", label(k), scalar(obj.vals[k]))
		}
	}
	renderTable(w, list, "")
	if more, _ := obj.vals["has_more"].(bool); more {
		page := scalar(obj.vals["page"])
		next := "the next page"
		if n, err := json.Number(page).Int64(); err == nil {
			next = fmt.Sprintf("--page %d", n+1)
		}
		fmt.Fprintf(note, "More: %s, or --all for every page\n", next)
	}
}

// renderTable writes rows (objects) as a table of their short fields;
// indent prefixes each line.
func renderTable(w io.Writer, rows []any, indent string) {
	if len(rows) == 0 {
		fmt.Fprintln(w, indent+"(none)")
		return
	}
	var objs []*object
	for _, r := range rows {
		o, ok := r.(*object)
		if !ok {
			fmt.Fprintln(w, indent+clean(scalar(r), true))
			continue
		}
		objs = append(objs, o)
	}
	cols := columns(objs)
	tw := newTable(w)
	head := make([]string, len(cols))
	for i, c := range cols {
		head[i] = strings.ToUpper(label(c))
	}
	fmt.Fprintln(tw, indent+strings.Join(head, "\t"))
	for _, o := range objs {
		cells := make([]string, len(cols))
		for i, c := range cols {
			width := cellWidth
			if c == "title" || c == "name" || c == "full_name" || c == "message" {
				width = titleCellWidth
			}
			cells[i] = cut(cell(o.vals[c]), width)
		}
		fmt.Fprintln(tw, indent+strings.Join(cells, "\t"))
	}
	_ = tw.Flush()
}

// columns are the fields worth a column: short ones, in the order they
// first appear, without links (too long for a table), without a creation
// time when an update time is there, and without fields empty in every row.
func columns(objs []*object) []string {
	seen := map[string]bool{}
	var keys []string
	for _, o := range objs {
		for _, k := range o.keys {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	var cols []string
	for _, k := range keys {
		if k == "body" || k == "url" || strings.HasSuffix(k, "_url") || (k == "created_at" && seen["updated_at"]) {
			continue
		}
		filled := false
		for _, o := range objs {
			if cell(o.vals[k]) != "" {
				filled = true
			}
		}
		if filled {
			cols = append(cols, k)
		}
	}
	return cols
}

// cell is a value in one line: a string's first line, a list's values
// joined, a nested object's login or name; "" for what has no short form.
func cell(v any) string {
	switch v := v.(type) {
	case string:
		line, _, more := strings.Cut(strings.TrimSpace(v), "\n")
		line = clean(strings.TrimRight(line, "\r"), false)
		if more {
			line += " …"
		}
		return shortValue(line)
	case []any:
		var parts []string
		for _, e := range v {
			if s := cell(e); s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, ", ")
	case *object:
		for _, k := range []string{"login", "name", "title", "full_name"} {
			if s, ok := v.vals[k].(string); ok {
				return clean(s, false)
			}
		}
		return ""
	}
	return scalar(v)
}

// renderObject writes obj's fields, one a line, then its long texts.
func renderObject(w io.Writer, obj *object, indent string) {
	skip := map[string]bool{}
	if t, ok := obj.vals["title"].(string); ok {
		head := clean(t, false)
		if n, ok := obj.vals["number"].(json.Number); ok {
			head = "#" + n.String() + " " + head
			skip["number"] = true
		}
		fmt.Fprintln(w, indent+head)
		skip["title"] = true
	}
	var texts, nested []string
	tw := newTable(w)
	for _, k := range obj.keys {
		v := obj.vals[k]
		switch {
		case skip[k]:
		case isLongText(k, v):
			texts = append(texts, k)
		case isRows(v):
			nested = append(nested, k)
		default:
			if o, ok := v.(*object); ok && cell(o) == "" {
				nested = append(nested, k)
				continue
			}
			if s := cell(v); s != "" {
				fmt.Fprintf(tw, "%s%s\t%s\n", indent, label(k), s)
			}
		}
	}
	_ = tw.Flush()
	for _, k := range nested {
		fmt.Fprintf(w, "\n%s%s:\n", indent, label(k))
		switch v := obj.vals[k].(type) {
		case []any:
			renderTable(w, v, indent+"  ")
		case *object:
			renderObject(w, v, indent+"  ")
		}
	}
	for _, k := range texts {
		text := strings.TrimRight(clean(obj.vals[k].(string), true), "\n")
		if len(texts) > 1 || indent != "" {
			fmt.Fprintf(w, "\n%s%s:\n", indent, label(k))
		} else {
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, text)
	}
}

// isLongText says whether a field reads better as a block of text after
// the fields than on one line.
func isLongText(k string, v any) bool {
	s, ok := v.(string)
	if !ok || s == "" {
		return false
	}
	switch k {
	case "body", "content", "message", "diff", "patch", "text", "log":
		return true
	}
	return strings.Contains(s, "\n") || utf8.RuneCountInString(s) > 100
}

// isRows says whether v is a non-empty list of objects (a sub-table).
func isRows(v any) bool {
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return false
	}
	_, obj := list[0].(*object)
	return obj
}

func isScalar(v any) bool {
	switch v.(type) {
	case *object, []any:
		return false
	}
	return true
}

// scalar is a JSON scalar as a person reads it.
func scalar(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return shortValue(clean(v, false))
	case bool:
		if v {
			return "yes"
		}
		return "no"
	case json.Number:
		return v.String()
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// shortValue shortens what has a shorter form: a timestamp to the minute,
// a 40-hex commit id to 10.
func shortValue(s string) string {
	if len(s) >= 20 && s[4] == '-' && s[10] == 'T' {
		if t, err := time.Parse(time.RFC3339, s); err == nil {
			if _, off := t.Zone(); off == 0 {
				return t.Format("2006-01-02 15:04")
			}
			return t.Format("2006-01-02 15:04 -07:00")
		}
	}
	if len(s) == 40 && strings.Trim(s, "0123456789abcdef") == "" {
		return s[:10]
	}
	return s
}

// label is a field's name for people: created_at is "created", html_url
// "url".
func label(k string) string {
	if k == "html_url" {
		return "url"
	}
	k = strings.TrimSuffix(k, "_at")
	return strings.ReplaceAll(k, "_", " ")
}

// clean escapes invisible and control characters (tool.EscapeInvisible);
// outside multi-line text a line break or tab is a space.
func clean(s string, multiline bool) string {
	s = tool.EscapeInvisible(s)
	if !multiline {
		s = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\t", " ").Replace(s)
	} else {
		s = strings.ReplaceAll(s, "\r\n", "\n")
		s = strings.ReplaceAll(s, "\r", `\r`)
	}
	return s
}

// cut shortens s to width runes, ending in "…".
func cut(s string, width int) string {
	if utf8.RuneCountInString(s) <= width {
		return s
	}
	r := []rune(s)
	return string(r[:width-1]) + "…"
}
