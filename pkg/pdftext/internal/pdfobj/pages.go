package pdfobj

import "fmt"

// Limits of the page tree walk: nodes visited and depth, so a cyclic or
// absurd tree ends.
const (
	maxTreeNodes = 100_000
	maxTreeDepth = 64
)

// Page is one page dictionary with what it inherits from its ancestors
// (PDF 32000-2 §7.7.3.4): resources.
type Page struct {
	Dict      Dict
	Resources Dict
}

// Pages collects the pages in order, up to page want (0: all); more says
// the walk stopped before the end.
func (d *Doc) Pages(want int) (pages []Page, more bool, err error) {
	root := d.GetDict(d.Root(), "Pages")
	if root == nil || (d.GetName(root, "Type") != "Pages" && d.GetArray(root, "Kids") == nil) {
		return nil, false, fmt.Errorf("%w: it has no page tree", ErrMalformed)
	}
	w := walker{d: d, want: want}
	if err := w.walk(root, nil, 0); err != nil {
		return nil, false, err
	}
	return w.pages, w.more, nil
}

type walker struct {
	d     *Doc
	want  int
	nodes int
	pages []Page
	more  bool
}

func (w *walker) walk(node Dict, res Dict, depth int) error {
	if r := w.d.GetDict(node, "Resources"); r != nil {
		res = r
	}
	kids := w.d.GetArray(node, "Kids")
	if kids == nil && w.d.GetName(node, "Type") != "Pages" {
		w.pages = append(w.pages, Page{Dict: node, Resources: res})
		return nil
	}
	for _, k := range kids {
		if w.want > 0 && len(w.pages) >= w.want {
			w.more = true
			return nil
		}
		w.nodes++
		if w.nodes > maxTreeNodes || depth > maxTreeDepth {
			return fmt.Errorf("%w: its page tree is over %d nodes or %d levels (a cycle?)", ErrMalformed, maxTreeNodes, maxTreeDepth)
		}
		kid := w.d.Dict(k)
		switch {
		case kid == nil:
		case w.d.GetName(kid, "Type") == "Pages" || w.d.GetArray(kid, "Kids") != nil:
			if err := w.walk(kid, res, depth+1); err != nil {
				return err
			}
		default:
			r := res
			if own := w.d.GetDict(kid, "Resources"); own != nil {
				r = own
			}
			w.pages = append(w.pages, Page{Dict: kid, Resources: r})
		}
	}
	return nil
}
