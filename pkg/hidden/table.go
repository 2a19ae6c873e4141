package hidden

import "strings"

// The tables of GitHub-flavoured Markdown: a header row over a delimiter
// row makes a table, whose cells are inline text of their own.

// delimiterCells returns the number of cells of a table's delimiter row
// ("| --- | :-: |"), or 0.
func delimiterCells(line string) int {
	dashesOnly := true
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == '-':
		case c == ' ' || c == '\t' || c == '|' || c == ':':
			dashesOnly = false
		default:
			return 0
		}
	}
	if dashesOnly {
		return 0
	}
	cols := strings.Split(line, "|")
	if strings.TrimSpace(cols[0]) == "" {
		cols = cols[1:]
	}
	if len(cols) > 0 && strings.TrimSpace(cols[len(cols)-1]) == "" {
		cols = cols[:len(cols)-1]
	}
	for _, c := range cols {
		c = strings.TrimSpace(c)
		c = strings.TrimPrefix(strings.TrimSuffix(c, ":"), ":")
		if c == "" || strings.Trim(c, "-") != "" {
			return 0
		}
	}
	return len(cols)
}

// cells splits a table row at the pipes not escaped, each cell trimmed.
func cells(src string, row seg) []seg {
	a, b := row.start, row.end
	for a < b && isSpace(src[a]) {
		a++
	}
	for b > a && isSpace(src[b-1]) {
		b--
	}
	if a < b && src[a] == '|' {
		a++
	}
	if b > a && src[b-1] == '|' {
		b--
	}
	var out []seg
	for p := a; p < b; {
		e := p
		for e < b && (src[e] != '|' || e > 0 && src[e-1] == '\\') {
			e++
		}
		cs, ce := p, e
		for cs < ce && isSpace(src[cs]) {
			cs++
		}
		for ce > cs && isSpace(src[ce-1]) {
			ce--
		}
		out = append(out, seg{cs, ce})
		p = e + 1
	}
	return out
}
