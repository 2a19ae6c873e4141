package pdfobj

import (
	"bufio"
	"fmt"
	"io"
)

// predictor undoes a Flate or LZW stream's predictor (PDF 32000-2
// §7.4.4.4): 2 is TIFF's horizontal differencing, 10 to 15 PNG's row
// filters (each row names its own).
func predictor(r io.Reader, p Dict) (io.Reader, error) {
	pred, _ := p["Predictor"].(int64)
	if pred <= 1 {
		return r, nil
	}
	colors, bits, columns := int64(1), int64(8), int64(1)
	if v, ok := p["Colors"].(int64); ok {
		colors = v
	}
	if v, ok := p["BitsPerComponent"].(int64); ok {
		bits = v
	}
	if v, ok := p["Columns"].(int64); ok {
		columns = v
	}
	if colors < 1 || colors > 32 || bits < 1 || bits > 16 || columns < 1 || columns > 1<<20 {
		return nil, fmt.Errorf("%w: predictor parameters %d colors, %d bits, %d columns", ErrMalformed, colors, bits, columns)
	}
	bpp := int((colors*bits + 7) / 8)
	rowLen := int((colors*bits*columns + 7) / 8)
	if pred == 2 {
		if bits != 8 {
			return r, nil // rare; the bytes are left as they are
		}
		return &rows{r: bufio.NewReader(r), cur: make([]byte, rowLen), tiff: true, bpp: bpp}, nil
	}
	return &rows{r: bufio.NewReader(r), cur: make([]byte, rowLen), prev: make([]byte, rowLen), bpp: bpp}, nil
}

type rows struct {
	r    *bufio.Reader
	cur  []byte
	prev []byte
	pend []byte
	bpp  int
	tiff bool
	err  error
}

func (w *rows) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(w.pend) == 0 {
			if w.err != nil {
				if n == 0 {
					return 0, w.err
				}
				return n, nil
			}
			w.row()
			continue
		}
		k := copy(p[n:], w.pend)
		n += k
		w.pend = w.pend[k:]
	}
	return n, nil
}

// row decodes the next row into pend.
func (w *rows) row() {
	if w.tiff {
		k, err := io.ReadFull(w.r, w.cur)
		for i := w.bpp; i < k; i++ {
			w.cur[i] += w.cur[i-w.bpp]
		}
		w.pend, w.err = w.cur[:k], eof(err)
		return
	}
	kind, err := w.r.ReadByte()
	if err != nil {
		w.err = io.EOF
		return
	}
	copy(w.prev, w.cur)
	k, err := io.ReadFull(w.r, w.cur)
	cur, prev, bpp := w.cur[:k], w.prev, w.bpp
	for i := range cur {
		var left, up, upLeft byte
		if i >= bpp {
			left, upLeft = cur[i-bpp], prev[i-bpp]
		}
		up = prev[i]
		switch kind {
		case 1:
			cur[i] += left
		case 2:
			cur[i] += up
		case 3:
			cur[i] += byte((int(left) + int(up)) / 2)
		case 4:
			cur[i] += paeth(left, up, upLeft)
		}
	}
	w.pend, w.err = cur, eof(err)
}

func eof(err error) error {
	if err != nil {
		return io.EOF
	}
	return nil
}

func paeth(a, b, c byte) byte {
	p := int(a) + int(b) - int(c)
	pa, pb, pc := abs(p-int(a)), abs(p-int(b)), abs(p-int(c))
	switch {
	case pa <= pb && pa <= pc:
		return a
	case pb <= pc:
		return b
	}
	return c
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// lzwEarly decodes LZW with PDF's default early change: the code width
// grows one code before the table fills (PDF 32000-2 §7.4.4.2).
type lzwEarly struct {
	r     *bufio.Reader
	bits  uint32
	nbits uint
	width uint
	table [][]byte
	prev  []byte
	pend  []byte
	done  bool
}

func newLZWEarly(r io.Reader) io.Reader {
	z := &lzwEarly{r: bufio.NewReader(r)}
	z.reset()
	return z
}

func (z *lzwEarly) reset() {
	z.table = z.table[:0]
	for i := range 256 {
		z.table = append(z.table, []byte{byte(i)})
	}
	z.table = append(z.table, nil, nil) // 256 clear, 257 end
	z.width, z.prev = 9, nil
}

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
		var out []byte
		switch {
		case c < len(z.table) && z.table[c] != nil:
			out = z.table[c]
			if z.prev != nil {
				z.add(append(append([]byte(nil), z.prev...), out[0]))
			}
		case c == len(z.table) && z.prev != nil:
			out = append(append([]byte(nil), z.prev...), z.prev[0])
			z.add(out)
		default:
			z.done = true
			continue
		}
		z.prev, z.pend = out, out
	}
	if n == 0 && z.done {
		return 0, io.EOF
	}
	return n, nil
}

func (z *lzwEarly) add(b []byte) {
	if len(z.table) < 4096 {
		z.table = append(z.table, b)
	}
	switch len(z.table) + 1 {
	case 512, 1024, 2048:
		z.width++
	}
}
