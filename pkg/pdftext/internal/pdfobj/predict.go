package pdfobj

import (
	"fmt"
	"io"
)

// Predictor rows are bounded by what the streams read here use (cross-
// reference and object streams: a few bytes; images, which are never
// decoded here, are what needs wide rows): a row is at most maxRow bytes,
// components are 1, 2, 4, 8 or 16 bits, at most 32 of them a pixel. A
// stream asking for more is refused before anything is allocated: PDF
// 32000-2 allows 32 colours of 16 bits over 2^20 columns, a 64 MiB row.
const (
	maxRow    = 64 << 10
	maxColors = 32
)

// predictor undoes a Flate or LZW stream's predictor (PDF 32000-2
// §7.4.4.4): 2 is TIFF's horizontal differencing, 10 to 15 PNG's row
// filters (each row names its own). Its rows come from the document's
// kept buffers (Release gives them back), charged to the budget.
func (d *Doc) predictor(r io.Reader, p Dict, dec *decoded) (io.Reader, error) {
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
	switch bits {
	case 1, 2, 4, 8, 16:
	default:
		return nil, fmt.Errorf("%w: predictor parameters %d colors, %d bits, %d columns", ErrMalformed, colors, bits, columns)
	}
	if colors < 1 || colors > maxColors || columns < 1 || columns > 1<<40 {
		return nil, fmt.Errorf("%w: predictor parameters %d colors, %d bits, %d columns", ErrMalformed, colors, bits, columns)
	}
	bpp := int((colors*bits + 7) / 8)
	rowLen := (colors*bits*columns + 7) / 8
	if rowLen > maxRow {
		return nil, fmt.Errorf("%w: predictor rows of %d bytes (%d colours of %d bits, %d columns), over the %d bytes this reader decodes",
			ErrLimit, rowLen, colors, bits, columns, maxRow)
	}
	if pred == 2 && bits != 8 {
		return r, nil // rare; the bytes are left as they are
	}
	w := &rows{r: r, bpp: bpp, tiff: pred == 2}
	w.cur = d.rowBuf(int(rowLen)+1, dec)
	if !w.tiff {
		w.prev = d.rowBuf(int(rowLen)+1, dec)
	}
	return w, nil
}

// rows reads a predicted stream row by row: cur holds the row's filter
// byte (PNG) and the row, prev the row before (zero before the first).
type rows struct {
	r    io.Reader
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
		cur := w.cur[1:]
		k, err := io.ReadFull(w.r, cur)
		for i := w.bpp; i < k; i++ {
			cur[i] += cur[i-w.bpp]
		}
		w.pend, w.err = cur[:k], eof(err)
		return
	}
	// The row before is the one just decoded: swap, don't copy.
	w.prev, w.cur = w.cur, w.prev
	k, err := io.ReadFull(w.r, w.cur)
	if k == 0 {
		w.err = io.EOF
		return
	}
	kind, cur, prev, bpp := w.cur[0], w.cur[1:k], w.prev[1:], w.bpp
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
