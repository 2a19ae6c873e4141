package pdfobj

import (
	"bufio"
	"bytes"
	"encoding/ascii85"
	"errors"
	"fmt"
	"io"
)

// ErrImage is the error of a stream in an image-only filter (DCT, JPX,
// JBIG2, CCITT): nothing here decodes images.
var ErrImage = errors.New("an image filter")

// maxFilters bounds the filters one stream goes through: real files use
// one or two ([/ASCII85Decode /FlateDecode]); each decoder holds tens of
// kilobytes, and a file may name a hundred thousand.
const maxFilters = 4

// What a filter's decoder holds (buffers and tables), charged to the
// budget while a stream is read.
const (
	costBuffer = 5 << 10 // a bufio.Reader
	costA85    = 8 << 10 // a bufio.Reader and the decoder's buffers
)

// StreamReader returns s's data, decrypted and decoded through its
// filters (PDF 32000-2 §7.4). The caller bounds how much it reads, and
// gives the reader back with Release: its decoders are charged to the
// budget until then. Every read of the stream's raw bytes looks at the
// deadline, so a decoder that consumes input without output (empty
// Flate blocks, LZW clear codes) still stops.
func (d *Doc) StreamReader(s *Stream) (io.Reader, error) {
	if s == nil {
		return nil, fmt.Errorf("%w: not a stream", ErrMalformed)
	}
	end := min(s.Off+s.Len, int64(len(d.data)))
	if s.Off > end || s.Off < 0 {
		return bytes.NewReader(nil), nil
	}
	filters := d.Resolve(s.Dict["Filter"])
	params := d.Resolve(s.Dict["DecodeParms"])
	if params == nil {
		params = d.Resolve(s.Dict["DP"])
	}
	if filters == nil {
		filters = d.Resolve(s.Dict["F"])
	}
	list, ok := filters.(Array)
	if !ok {
		list = Array{filters}
	}
	if len(list) > maxFilters {
		return nil, fmt.Errorf("%w: a stream through %d filters, over the %d this reader decodes", ErrLimit, len(list), maxFilters)
	}
	names := make([]Name, len(list))
	for i, f := range list {
		names[i], _ = d.Resolve(f).(Name)
		if isImage(names[i]) {
			// Nothing here decodes images: said before anything is
			// decrypted or decoded.
			return nil, fmt.Errorf("%w (%s)", ErrImage, names[i])
		}
	}
	dec := &decoded{}
	var r io.Reader = &checked{r: bytes.NewReader(d.data[s.Off:end]), check: d.check}
	if d.crypt != nil && s.Dict["Type"] != Name("XRef") {
		r = d.crypt.streamReader(s, r, d.mem, dec)
	}
	plist, ok := params.(Array)
	for i, name := range names {
		if name == "" {
			continue
		}
		var p Dict
		if ok {
			if i < len(plist) {
				p, _ = d.Resolve(plist[i]).(Dict)
			}
		} else {
			p, _ = params.(Dict)
		}
		var err error
		if r, err = d.filter(r, name, p, dec); err != nil {
			d.Release(dec)
			return nil, err
		}
	}
	dec.Reader = r
	return dec, nil
}

// checked looks at the deadline before each read of what it wraps.
type checked struct {
	r     io.Reader
	check func()
}

func (c *checked) Read(p []byte) (int, error) {
	c.check()
	return c.r.Read(p)
}

func isImage(name Name) bool {
	switch name {
	case "DCTDecode", "DCT", "JPXDecode", "JBIG2Decode", "CCITTFaxDecode", "CCF":
		return true
	}
	return false
}

// streamBytes reads at most limit decoded bytes of s; past that it fails
// with ErrLimit. A stream damaged part way returns what decoded. What it
// returns is charged to the budget as it grows: the caller gives it back
// with Free once done with it.
func (d *Doc) streamBytes(s *Stream, limit int64) ([]byte, error) {
	if limit < 0 {
		return nil, fmt.Errorf("%w: the bytes decoded from its streams are over the limit", ErrLimit)
	}
	r, err := d.StreamReader(s)
	if err != nil {
		return nil, err
	}
	defer d.Release(r)
	var data []byte
	for {
		if len(data) == cap(data) {
			// Never more room than it takes to see the limit passed.
			n := min(max(2*int64(cap(data)), 4<<10), limit+1)
			d.mem.Take(n)
			grown := make([]byte, len(data), n)
			copy(grown, data)
			d.Free(data)
			data = grown
		}
		k, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+k]
		switch {
		case int64(len(data)) > limit:
			d.Free(data)
			return nil, fmt.Errorf("%w: a stream decodes to more than %d bytes", ErrLimit, limit)
		case err == io.EOF:
			return data, nil
		case err != nil:
			return data, err
		}
	}
}

// StreamBytes is streamBytes for callers outside the package.
func (d *Doc) StreamBytes(s *Stream, max int64) ([]byte, error) { return d.streamBytes(s, max) }

// Free gives back to the budget what streamBytes charged for data.
func (d *Doc) Free(data []byte) { d.mem.Give(int64(cap(data))) }

func (d *Doc) filter(r io.Reader, name Name, p Dict, dec *decoded) (io.Reader, error) {
	switch name {
	case "FlateDecode", "Fl":
		return d.predictor(d.inflate(r, dec), p, dec)
	case "LZWDecode", "LZW":
		early := true
		if v, ok := p["EarlyChange"].(int64); ok && v == 0 {
			early = false
		}
		dec.take(d.mem, costLZW)
		return d.predictor(newLZW(r, early), p, dec)
	case "ASCII85Decode", "A85":
		dec.take(d.mem, costA85)
		return ascii85.NewDecoder(&a85Clean{r: bufio.NewReader(r)}), nil
	case "ASCIIHexDecode", "AHx":
		dec.take(d.mem, costBuffer)
		return &hexReader{r: bufio.NewReader(r)}, nil
	case "RunLengthDecode", "RL":
		dec.take(d.mem, costBuffer)
		return &runLength{r: bufio.NewReader(r)}, nil
	case "Crypt":
		return r, nil // the Identity crypt filter; the security handler did the rest
	}
	return nil, fmt.Errorf("%w: an unknown filter %q", ErrMalformed, string(name))
}

// tolerant ends a stream quietly at a checksum error or a truncation:
// what decoded before it is the stream's content, as in other readers.
type tolerant struct{ r io.Reader }

func (t *tolerant) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if err != nil && err != io.EOF {
		err = io.EOF
	}
	return n, err
}

type a85Clean struct{ r *bufio.Reader }

// Read drops white space and stops at the "~>" end marker.
func (a *a85Clean) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		c, err := a.r.ReadByte()
		if err != nil {
			return n, err
		}
		if c == '~' {
			return n, io.EOF
		}
		if IsSpace(c) {
			continue
		}
		p[n] = c
		n++
	}
	return n, nil
}

type hexReader struct {
	r    *bufio.Reader
	done bool
}

func (h *hexReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) && !h.done {
		var v [2]byte
		k := 0
		for k < 2 {
			c, err := h.r.ReadByte()
			if err != nil || c == '>' {
				h.done = true
				break
			}
			if d, ok := unhex(c); ok {
				v[k] = d
				k++
			}
		}
		if k > 0 {
			p[n] = v[0]<<4 | v[1]
			n++
		}
	}
	if n == 0 && h.done {
		return 0, io.EOF
	}
	return n, nil
}

type runLength struct {
	r    *bufio.Reader
	rep  int
	lit  int
	b    byte
	done bool
}

func (rl *runLength) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		switch {
		case rl.lit > 0:
			c, err := rl.r.ReadByte()
			if err != nil {
				return n, io.EOF
			}
			p[n] = c
			n++
			rl.lit--
		case rl.rep > 0:
			p[n] = rl.b
			n++
			rl.rep--
		default:
			c, err := rl.r.ReadByte()
			if err != nil || c == 128 {
				if n == 0 {
					return 0, io.EOF
				}
				return n, nil
			}
			if c < 128 {
				rl.lit = int(c) + 1
			} else {
				b, err := rl.r.ReadByte()
				if err != nil {
					return n, io.EOF
				}
				rl.b, rl.rep = b, 257-int(c)
			}
		}
	}
	return n, nil
}
