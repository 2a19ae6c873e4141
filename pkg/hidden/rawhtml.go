package hidden

import "strings"

// Where raw HTML starts, as goldmark (the renderer of Gitea and Forgejo)
// decides it: the seven kinds of HTML block, and the inline constructs of
// a paragraph. What the HTML then shows is the tokenizer's business
// (tokenizer.go).

// htmlStart returns the kind (1–7) of HTML block line opens, or 0; line
// starts at its '<'. Kind 7 cannot interrupt a paragraph.
func htmlStart(line string, inPara bool) int {
	if len(line) < 2 {
		return 0
	}
	switch {
	case rawBlockOpen(line):
		return 1
	case strings.HasPrefix(line, "<!--"):
		return 2
	case strings.HasPrefix(line, "<?"):
		return 3
	case len(line) > 2 && line[1] == '!' && line[2] >= 'A' && line[2] <= 'Z':
		return 4
	case strings.HasPrefix(line, "<![CDATA["):
		return 5
	}
	closing, name, end := tagName(line)
	if name == "" {
		return 0
	}
	ln := lower(name)
	complete := 0 // the end of one complete tag, if the line starts with one
	if closing {
		complete = closeTagEnd(line, 0) // 0 where spaces follow "</"
	} else {
		complete, _ = openTagEnd(line, 0)
	}
	if complete > 0 {
		for _, c := range []byte(line[complete:]) {
			if c != ' ' && c != '\t' {
				complete = 0
				break
			}
		}
	}
	if hasWord(blockTags, ln) {
		if complete > 0 || end == len(line) || line[end] == ' ' || line[end] == '>' || strings.HasPrefix(line[end:], "/>") {
			return 6
		}
		return 0
	}
	if complete > 0 && !inPara && ln != "script" && ln != "style" && ln != "pre" {
		return 7 // one complete tag alone on its line
	}
	return 0
}

// tagName reads "<name" or "</ name" at the start of line.
func tagName(line string) (closing bool, name string, end int) {
	i := 1
	if i < len(line) && line[i] == '/' {
		closing = true
		i++
		for i < len(line) && line[i] == ' ' {
			i++
		}
	}
	if i >= len(line) || !isLetter(line[i]) {
		return false, "", 0
	}
	j := i + 1
	for j < len(line) && (isAlnum(line[j]) || line[j] == '-') {
		j++
	}
	return closing, line[i:j], j
}

func rawBlockOpen(line string) bool {
	for _, n := range []string{"script", "pre", "style", "textarea"} {
		if len(line) > len(n) && strings.EqualFold(line[1:1+len(n)], n) {
			rest := line[1+len(n):]
			if rest == "" || rest[0] == '>' || isSpace(rest[0]) || strings.HasPrefix(rest, "/>") {
				return true
			}
		}
	}
	return false
}

// htmlEnds reports whether a line holds the end of an HTML block of kind
// t (kinds 6 and 7 end at a blank line instead).
func htmlEnds(line string, t int) bool {
	switch t {
	case 1:
		l := lower(line)
		return strings.Contains(l, "</script>") || strings.Contains(l, "</pre>") ||
			strings.Contains(l, "</style>") || strings.Contains(l, "</textarea>")
	case 2:
		return strings.Contains(line, "-->")
	case 3:
		return strings.Contains(line, "?>")
	case 4:
		return strings.Contains(line, ">")
	case 5:
		return strings.Contains(line, "]]>")
	}
	return false
}

// inlineHTML returns the end of the raw HTML construct at t[i] ('<'), or
// 0: an open or closing tag, a comment, a processing instruction, a
// declaration or CDATA, in goldmark's syntax. find looks up a closing
// string from a position without rescanning what an earlier look-up
// passed.
func inlineHTML(t string, i int, find func(close string, from int) int) int {
	if i+1 >= len(t) {
		return 0
	}
	c := t[i+1]
	switch {
	case isAlnum(c):
		if !isLetter(c) {
			return 0
		}
		end, _ := openTagEnd(t, i)
		return end
	case c == '/' && i+2 < len(t) && isAlnum(t[i+2]):
		return closeTagEnd(t, i)
	case strings.HasPrefix(t[i:], "<!-->"):
		return i + 5
	case strings.HasPrefix(t[i:], "<!--->"):
		return i + 6
	case strings.HasPrefix(t[i:], "<!--"):
		return endAfter(find("-->", i+4), 3)
	case c == '?':
		return endAfter(find("?>", i+2), 2)
	case c == '!' && i+2 < len(t) && t[i+2] >= 'A' && t[i+2] <= 'Z':
		return endAfter(find(">", i+2), 1)
	case strings.HasPrefix(t[i:], "<![CDATA["):
		return endAfter(find("]]>", i+9), 3)
	}
	return 0
}

func endAfter(at, n int) int {
	if at < 0 {
		return 0
	}
	return at + n
}

// openTagEnd returns the end of the open tag at t[i] in CommonMark's
// syntax (name, attributes each after white space, optional "/", ">") and
// how many attributes it has, or 0.
func openTagEnd(t string, i int) (int, int) {
	j := i + 1
	if j >= len(t) || !isLetter(t[j]) {
		return 0, 0
	}
	for j < len(t) && (isAlnum(t[j]) || t[j] == '-') {
		j++
	}
	attrs := 0
	for {
		k := j
		for k < len(t) && isSpace(t[k]) {
			k++
		}
		if k == j || k >= len(t) || !(isLetter(t[k]) || t[k] == '_' || t[k] == ':') {
			j = k
			break
		}
		for k < len(t) && (isAlnum(t[k]) || strings.IndexByte("_.:-", t[k]) >= 0) {
			k++
		}
		attrs++
		v := k
		for v < len(t) && isSpace(t[v]) {
			v++
		}
		if v < len(t) && t[v] == '=' {
			v++
			for v < len(t) && isSpace(t[v]) {
				v++
			}
			e := attrValueEnd(t, v)
			if e < 0 {
				return 0, 0
			}
			k = e
		}
		j = k
	}
	if j < len(t) && t[j] == '/' {
		j++
	}
	if j < len(t) && t[j] == '>' {
		return j + 1, attrs
	}
	return 0, 0
}

// attrValueEnd returns the end of the attribute value at t[v], or -1.
func attrValueEnd(t string, v int) int {
	if v >= len(t) {
		return -1
	}
	if q := t[v]; q == '"' || q == '\'' {
		e := strings.IndexByte(t[v+1:], q)
		if e < 0 {
			return -1
		}
		return v + 1 + e + 1
	}
	e := v
	for e < len(t) && t[e] > ' ' && strings.IndexByte("\"'=<>`", t[e]) < 0 {
		e++
	}
	if e == v {
		return -1
	}
	return e
}

// closeTagEnd returns the end of the closing tag at t[i], or 0.
func closeTagEnd(t string, i int) int {
	j := i + 2
	if j >= len(t) || !isLetter(t[j]) {
		return 0
	}
	for j < len(t) && (isAlnum(t[j]) || t[j] == '-') {
		j++
	}
	for j < len(t) && isSpace(t[j]) {
		j++
	}
	if j < len(t) && t[j] == '>' {
		return j + 1
	}
	return 0
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isAlnum(c byte) bool  { return isLetter(c) || c >= '0' && c <= '9' }
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// lower lower-cases ASCII letters, allocating only when it must.
func lower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}

// tagCleaned reports whether Gitea's renderer turns the '<' at s[0] into
// "&lt;" before it parses the HTML markdown made (its "tag cleaner", a
// regular expression over the whole output, so raw HTML only: markdown's
// own text has its '<' escaped already). It matches <script, <style,
// <html and <head and their end tags, "<%" or "<?" before a word
// character, "<a/b" and "</a b/". Such a tag shows as text, its content
// too.
func tagCleaned(s string) bool {
	word := func(c byte) bool { return isAlnum(c) || c == '_' }
	if len(s) < 2 || s[0] != '<' {
		return false
	}
	j := 1
	if s[j] == '/' {
		j++
		k := j
		for k < len(s) && (word(s[k]) || s[k] == ' ') {
			k++
		}
		if k > j && k < len(s) && s[k] == '/' {
			return true // </[\w ]+/
		}
	}
	k := j
	for k < len(s) && word(s[k]) {
		k++
	}
	if k > j && k+1 < len(s) && s[k] == '/' && word(s[k+1]) {
		return true // </?\w+/\w+
	}
	for _, name := range []string{"html", "head", "script", "style"} {
		if len(s) >= j+len(name) && strings.EqualFold(s[j:j+len(name)], name) &&
			(len(s) == j+len(name) || !word(s[j+len(name)])) {
			return true
		}
	}
	return j < len(s) && (s[j] == '%' || s[j] == '?') && j+1 < len(s) && word(s[j+1])
}
