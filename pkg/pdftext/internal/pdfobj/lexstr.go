package pdfobj

// The tokens whose bytes are escaped in the file (PDF 32000-2 §7.3.4,
// §7.3.5): names with "#xx", literal strings with backslash escapes and
// nested parentheses, hex strings. Each is cut at MaxString, the rest read
// and dropped.

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func (l *Lexer) name() []byte {
	for {
		c, ok := l.peek()
		if !ok || IsSpace(c) || IsDelim(c) {
			return l.tmp
		}
		l.pos++
		l.long()
		if c == '#' {
			if d := l.twoHex(); d >= 0 {
				c = byte(d)
			}
		}
		if len(l.tmp) < l.max() {
			l.tmp = append(l.tmp, c)
		}
	}
}

// twoHex reads the two hex digits of a name's #xx, or returns -1 leaving
// them unread.
func (l *Lexer) twoHex() int {
	if !l.ensure(2) {
		return -1
	}
	a, ok1 := unhex(l.buf[l.pos])
	b, ok2 := unhex(l.buf[l.pos+1])
	if !ok1 || !ok2 {
		return -1
	}
	l.pos += 2
	return int(a<<4 | b)
}

func (l *Lexer) hex() []byte {
	var hi byte
	half := false
	for {
		c, ok := l.next()
		if !ok || c == '>' {
			break
		}
		v, isHex := unhex(c)
		if !isHex {
			continue
		}
		if half {
			if len(l.tmp) < l.max() {
				l.tmp = append(l.tmp, hi<<4|v)
			}
		} else {
			hi = v
		}
		half = !half
	}
	if half && len(l.tmp) < l.max() {
		l.tmp = append(l.tmp, hi<<4)
	}
	return l.tmp
}

func (l *Lexer) literal() []byte {
	depth := 1
	add := func(c byte) {
		if len(l.tmp) < l.max() {
			l.tmp = append(l.tmp, c)
		}
	}
	for {
		c, ok := l.next()
		if !ok {
			return l.tmp
		}
		switch c {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return l.tmp
			}
		case '\r':
			// An end of line in a string is a line feed, whatever it was.
			if c, ok := l.peek(); ok && c == '\n' {
				l.pos++
			}
			c = '\n'
		case '\\':
			c, ok = l.next()
			if !ok {
				return l.tmp
			}
			switch c {
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'f':
				c = '\f'
			case '\r':
				if c, ok := l.peek(); ok && c == '\n' {
					l.pos++
				}
				continue
			case '\n':
				continue
			default:
				if c >= '0' && c <= '7' {
					v := int(c - '0')
					for range 2 {
						d, ok := l.peek()
						if !ok || d < '0' || d > '7' {
							break
						}
						l.pos++
						v = v*8 + int(d-'0')
					}
					c = byte(v)
				}
			}
		}
		add(c)
	}
}
