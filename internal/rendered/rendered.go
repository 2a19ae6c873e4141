// Package rendered reads what a person sees of the HTML a forge rendered
// from markdown: the text on the page, the text of closed <details>
// bodies (seen only once opened), and nothing of comments, attributes or
// elements the page does not draw. It is the oracle pkg/hidden's marks are
// checked against, written apart from it so the two cannot agree by
// sharing a mistake: it reads the forge's output with the HTML5 parser
// browsers follow (golang.org/x/net/html), not markdown.
package rendered

import (
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Text is what a page shows: Visible at once, Collapsed inside closed
// <details> (their <summary> is visible). Elements are separated by a
// space so that words of neighbouring elements do not run together.
type Text struct {
	Visible, Collapsed string
}

// Read parses a rendered fragment.
func Read(fragment string) (Text, error) {
	body := &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body}
	nodes, err := html.ParseFragment(strings.NewReader(fragment), body)
	if err != nil {
		return Text{}, err
	}
	var r reader
	for _, n := range nodes {
		r.walk(n, false)
	}
	return Text{Visible: r.visible.String(), Collapsed: r.collapsed.String()}, nil
}

type reader struct{ visible, collapsed strings.Builder }

func (r *reader) walk(n *html.Node, collapsed bool) {
	switch n.Type {
	case html.TextNode:
		if collapsed {
			r.collapsed.WriteString(n.Data)
		} else {
			r.visible.WriteString(n.Data)
		}
		return
	case html.ElementNode:
		if undrawn(n) {
			return
		}
	default:
		return // comments, doctype
	}
	r.visible.WriteByte(' ')
	r.collapsed.WriteByte(' ')
	closed := n.DataAtom == atom.Details && !hasAttr(n, "open")
	summarySeen := false
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		inner := collapsed
		if closed {
			if c.Type == html.ElementNode && c.DataAtom == atom.Summary && !summarySeen {
				summarySeen = true
			} else {
				inner = true
			}
		}
		r.walk(c, inner)
	}
	r.visible.WriteByte(' ')
	r.collapsed.WriteByte(' ')
}

// undrawn reports an element whose text the page does not draw.
func undrawn(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Script, atom.Style, atom.Template, atom.Title, atom.Noscript, atom.Iframe,
		atom.Object, atom.Svg, atom.Video, atom.Head:
		return true
	}
	if hasAttr(n, "hidden") {
		return true
	}
	style := attr(n, "style")
	if style == "" {
		return false
	}
	props := map[string]string{}
	for _, d := range strings.Split(strings.ToLower(style), ";") {
		if k, v, ok := strings.Cut(d, ":"); ok {
			props[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	if props["display"] == "none" || props["visibility"] == "hidden" {
		return true
	}
	fg := props["color"]
	return fg != "" && (transparent(fg) || fg == props["background-color"])
}

// transparent reports a CSS colour whose alpha is below 0.06.
func transparent(c string) bool {
	c = strings.ReplaceAll(c, " ", "")
	if c == "transparent" {
		return true
	}
	if strings.HasPrefix(c, "#") {
		var alpha string
		switch len(c) {
		case 5:
			alpha = c[4:] + c[4:]
		case 9:
			alpha = c[7:]
		default:
			return false
		}
		a, err := strconv.ParseUint(alpha, 16, 8)
		return err == nil && float64(a)/255 < 0.06
	}
	open := strings.IndexByte(c, '(')
	if open < 0 || !strings.HasSuffix(c, ")") {
		return false
	}
	args := strings.FieldsFunc(c[open+1:len(c)-1], func(r rune) bool { return r == ',' || r == '/' })
	if len(args) != 4 {
		return false
	}
	a := args[3]
	scale := 1.0
	if strings.HasSuffix(a, "%") {
		a, scale = strings.TrimSuffix(a, "%"), 100
	}
	f, err := strconv.ParseFloat(a, 64)
	return err == nil && f/scale < 0.06
}

func hasAttr(n *html.Node, name string) bool {
	for _, a := range n.Attr {
		if a.Key == name {
			return true
		}
	}
	return false
}

func attr(n *html.Node, name string) string {
	for _, a := range n.Attr {
		if a.Key == name {
			return a.Val
		}
	}
	return ""
}

// Words splits text into words: runs of letters and digits, as a reader
// would tell them apart whatever markup or punctuation sat between.
func Words(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}
