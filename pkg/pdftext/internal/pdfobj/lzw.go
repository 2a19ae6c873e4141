package pdfobj

import (
	"bufio"
	"compress/lzw"
	"io"
)

// newLZW decodes PDF's LZW (MSB first, 8-bit literals, EarlyChange).
func newLZW(r io.Reader, early bool) io.Reader {
	if !early {
		return &tolerant{r: lzw.NewReader(r, lzw.MSB, 8)}
	}
	return newLZWEarly(r)
}

// costLZW is what an LZW decoder holds: its table and buffers (the
// standard library's, or lzwEarly's).
const costLZW = 32 << 10

// lzwEarly decodes LZW with PDF's default early change: the code width
// grows one code before the table fills (PDF 32000-2 §7.4.4.2). Its table
// is fixed (each entry a code before it and a last byte, 4096 entries), so
// what a stream costs does not grow with the strings it makes: a table of
// strings each one byte longer than the one before costs 7 MB a fill when
// every entry is its own copy.
type lzwEarly struct {
	r      *bufio.Reader
	bits   uint32
	nbits  uint
	width  uint
	next   int // the next code the table gives
	prev   int // the code before, -1 after a reset
	done   bool
	prefix [4096]uint16
	last   [4096]byte
	first  [4096]byte
	out    [4096]byte // the string of the code being written, backwards
	pend   []byte
}

func newLZWEarly(r io.Reader) io.Reader {
	z := &lzwEarly{r: bufio.NewReader(r)}
	for i := range 256 {
		z.last[i], z.first[i] = byte(i), byte(i)
	}
	z.reset()
	return z
}

func (z *lzwEarly) reset() { z.next, z.width, z.prev = 258, 9, -1 }

func (z *lzwEarly) code() (int, bool) {
	for z.nbits < z.width {
		c, err := z.r.ReadByte()
		if err != nil {
			return 0, false
		}
		z.bits = z.bits<<8 | uint32(c)
		z.nbits += 8
	}
	z.nbits -= z.width
	return int(z.bits>>z.nbits) & (1<<z.width - 1), true
}

func (z *lzwEarly) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(z.pend) > 0 {
			k := copy(p[n:], z.pend)
			n += k
			z.pend = z.pend[k:]
			continue
		}
		if z.done {
			break
		}
		c, ok := z.code()
		if !ok || c == 257 {
			z.done = true
			break
		}
		if c == 256 {
			z.reset()
			continue
		}
		switch {
		case c < z.next && (c < 256 || c > 257):
			if z.prev >= 0 {
				z.add(z.prev, z.first[c])
			}
		case c == z.next && z.prev >= 0:
			// The code being defined: the string before and its first byte.
			z.add(z.prev, z.first[z.prev])
		default:
			z.done = true
			continue
		}
		z.prev = c
		z.pend = z.string(c)
	}
	if n == 0 && z.done {
		return 0, io.EOF
	}
	return n, nil
}

// string writes code c's string into out and returns it.
func (z *lzwEarly) string(c int) []byte {
	i := len(z.out)
	for {
		i--
		z.out[i] = z.last[c]
		if c < 256 {
			return z.out[i:]
		}
		c = int(z.prefix[c])
	}
}

// add gives the next code to the string of code p and byte b.
func (z *lzwEarly) add(p int, b byte) {
	if z.next < 4096 {
		z.prefix[z.next], z.last[z.next], z.first[z.next] = uint16(p), b, z.first[p]
		z.next++
	}
	switch z.next + 1 {
	case 512, 1024, 2048:
		z.width++
	}
}
