package demos

import (
	"fmt"
	"strings"
)

// doc is a Showboat document read the way `showboat verify` reads it
// (markdown/parser.go in Showboat's source): a line starting with ``` opens
// a fenced block that ends at the next line that is exactly ```; a fence
// "```output" holds the output of the code block just before it (one blank
// line between them is a separator), any other fence is code to run with
// its info string as the interpreter. lines keeps the text so outputs can
// be rewritten in place.
type doc struct {
	id     string
	lines  []string
	blocks []*block
}

// block is a code block and the output block after it, if there is one.
type block struct {
	lang   string
	code   string
	output string
	// line is the opening fence's line, 1-based, for messages.
	line int
	// hasOutput tells whether an output block follows; codeEnd is the
	// index of the code block's closing fence, outStart and outEnd those of
	// the output block's fences.
	hasOutput                 bool
	codeEnd, outStart, outEnd int
}

const fence = "```"

func parse(src string) (*doc, error) {
	d := &doc{lines: strings.Split(strings.TrimSuffix(src, "\n"), "\n")}
	for _, l := range d.lines {
		if rest, ok := strings.CutPrefix(l, "<!-- showboat-id: "); ok {
			d.id = strings.TrimSuffix(rest, " -->")
			break
		}
	}
	// closing finds the line that closes the fence opened before from.
	closing := func(from int) (int, error) {
		for j := from; j < len(d.lines); j++ {
			if d.lines[j] == fence {
				return j, nil
			}
		}
		return 0, fmt.Errorf("line %d: fenced block never closed", from)
	}
	var last *block // the code block the next output block belongs to
	for i := 0; i < len(d.lines); i++ {
		l := d.lines[i]
		if !strings.HasPrefix(l, fence) {
			if l != "" {
				last = nil // commentary between a code block and an output block parts them
			}
			continue
		}
		info := l[len(fence):]
		end, err := closing(i + 1)
		if err != nil {
			return nil, err
		}
		body := d.lines[i+1 : end]
		switch {
		case info == "output":
			if last == nil {
				return nil, fmt.Errorf("line %d: an output block with no code block right before it", i+1)
			}
			last.hasOutput, last.outStart, last.outEnd = true, i, end
			for _, b := range body {
				last.output += b + "\n"
			}
			last = nil
		case strings.HasSuffix(info, " {image}"):
			last = nil // showboat verify skips image blocks
		case info == "" || strings.ContainsAny(info, " {"):
			return nil, fmt.Errorf("line %d: fence %q: showboat would run it with %q -c; give code blocks an interpreter (bash)", i+1, l, info)
		default:
			last = &block{lang: info, code: strings.Join(body, "\n"), line: i + 1, codeEnd: end}
			d.blocks = append(d.blocks, last)
		}
		i = end
	}
	return d, nil
}

// render writes the document back with each block's output, adding an
// output block where one was missing, in the layout `showboat exec` writes.
func (d *doc) render() string {
	var out []string
	pos := 0
	for _, b := range d.blocks {
		outBlock := []string{fence + "output"}
		if b.output != "" {
			outBlock = append(outBlock, strings.Split(strings.TrimSuffix(b.output, "\n"), "\n")...)
		}
		outBlock = append(outBlock, fence)
		if b.hasOutput {
			out = append(out, d.lines[pos:b.outStart]...)
			pos = b.outEnd + 1
		} else {
			out = append(out, d.lines[pos:b.codeEnd+1]...)
			out = append(out, "")
			pos = b.codeEnd + 1
		}
		out = append(out, outBlock...)
	}
	out = append(out, d.lines[pos:]...)
	return strings.Join(out, "\n") + "\n"
}

// representable says why Showboat could not keep output in an output
// block unchanged, or "" when it can: the block is stored line by line and
// ends at the first line that is exactly ```.
func representable(output string) string {
	if output != "" && !strings.HasSuffix(output, "\n") {
		return "the output does not end with a newline (Showboat would add one and then never match)"
	}
	for _, l := range strings.Split(output, "\n") {
		if l == fence {
			return "a line of the output is ``` (it would close the output block early)"
		}
	}
	return ""
}
