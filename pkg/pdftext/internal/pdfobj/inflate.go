package pdfobj

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/zlib"
	"io"
)

// Flate decoders are kept for the next stream: a new one costs about
// 45 KB (its 32 KiB window, its tables, its buffer), which for the small
// content streams of most pages is more than their text, and a 10 MiB
// PDF's 118 pages made 3.8 MB of garbage of them. A reader from
// StreamReader holds its decoders until Release gives them back. So do
// predictor rows. Kept decoders stay charged to the budget: the document
// holds them.

// maxIdle bounds the decoders (and row buffers) kept: streams are read
// one at a time, or nested (forms inside forms, twelve deep at most, a
// font's CMap while a page is read), and a page may draw nested forms
// again and again.
const maxIdle = 16

// costInflater is what one kept Flate decoder holds.
const costInflater = 48 << 10

// inflater is one kept decoder: the buffer it reads through, and its zlib
// and raw deflate readers, each made on first use and then reset.
type inflater struct {
	br *bufio.Reader
	z  io.ReadCloser
	f  io.ReadCloser
}

// decoded is the reader StreamReader returns: the filters' output, the
// decoders and row buffers it holds, and what it was charged besides.
type decoded struct {
	io.Reader
	held    []*inflater
	rows    [][]byte
	charged int64
}

// take charges n bytes to mem for what this reader holds until released.
func (dec *decoded) take(mem *Budget, n int64) {
	mem.Take(n)
	dec.charged += n
}

// inflate decodes zlib data, or raw deflate data when the zlib header is
// missing or wrong (some writers omit it), with a kept decoder when there
// is one; dec holds it until released.
func (d *Doc) inflate(r io.Reader, dec *decoded) io.Reader {
	var in *inflater
	if n := len(d.idle); n > 0 {
		in, d.idle = d.idle[n-1], d.idle[:n-1]
		in.br.Reset(r)
	} else {
		d.mem.Take(costInflater)
		in = &inflater{br: bufio.NewReader(r)}
	}
	dec.held = append(dec.held, in)
	head, _ := in.br.Peek(2)
	if len(head) == 2 && head[0]&0x0f == 8 && (uint16(head[0])<<8|uint16(head[1]))%31 == 0 {
		if in.z == nil {
			if z, err := zlib.NewReader(in.br); err == nil {
				in.z = z
				return &tolerant{r: z}
			}
		} else if err := in.z.(zlib.Resetter).Reset(in.br, nil); err == nil {
			return &tolerant{r: in.z}
		}
	}
	if in.f == nil {
		in.f = flate.NewReader(in.br)
	} else {
		_ = in.f.(flate.Resetter).Reset(in.br, nil)
	}
	return &tolerant{r: in.f}
}

// rowBuf is a zeroed buffer of n bytes for a predictor's rows: a kept one
// when one is large enough, else a new one, charged.
func (d *Doc) rowBuf(n int, dec *decoded) []byte {
	for i, b := range d.rows {
		if cap(b) >= n {
			d.rows = append(d.rows[:i], d.rows[i+1:]...)
			b = b[:n]
			clear(b)
			dec.rows = append(dec.rows, b)
			return b
		}
	}
	d.mem.Take(int64(n))
	b := make([]byte, n)
	dec.rows = append(dec.rows, b)
	return b
}

// Release gives back the decoders and row buffers a reader from
// StreamReader holds, for the next stream (or to the budget, past what is
// kept); the reader reads nothing more.
func (d *Doc) Release(r io.Reader) {
	dec, ok := r.(*decoded)
	if !ok {
		return
	}
	for _, in := range dec.held {
		if len(d.idle) < maxIdle {
			in.br.Reset(nil)
			d.idle = append(d.idle, in)
		} else {
			d.mem.Give(costInflater)
		}
	}
	for _, b := range dec.rows {
		if len(d.rows) < maxIdle {
			d.rows = append(d.rows, b)
		} else {
			d.mem.Give(int64(cap(b)))
		}
	}
	d.mem.Give(dec.charged)
	dec.held, dec.rows, dec.charged = nil, nil, 0
	dec.Reader = bytes.NewReader(nil)
}
