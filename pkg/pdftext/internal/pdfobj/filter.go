package pdfobj

import (
	"bufio"
	"bytes"
	"compress/lzw"
	"encoding/ascii85"
	"errors"
	"fmt"
	"io"
)

// ErrImage is the error of a stream in an image-only filter (DCT, JPX,
// JBIG2, CCITT): nothing here decodes images.
var ErrImage = errors.New("an image filter")

// StreamReader returns s's data, decrypted and decoded through its
// filters (PDF 32000-2 §7.4). The caller bounds how much it reads.
func (d *Doc) StreamReader(s *Stream) (io.Reader, error) {
	if s == nil {
		return nil, fmt.Errorf("%w: not a stream", ErrMalformed)
	}
	end := min(s.Off+s.Len, int64(len(d.data)))
	if s.Off > end {
		return bytes.NewReader(nil), nil
	}
	raw := d.data[s.Off:end]
	if d.crypt != nil && s.Dict["Type"] != Name("XRef") {
		raw = d.crypt.decryptStream(s, raw)
	}
	dec := &decoded{}
	var r io.Reader = bytes.NewReader(raw)
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
	plist, ok := params.(Array)
	for i, f := range list {
		f = d.Resolve(f)
		if f == nil {
			continue
		}
		name, _ := f.(Name)
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

// streamBytes reads at most max decoded bytes of s; past that it fails
// with ErrLimit. A stream damaged part way returns what decoded.
func (d *Doc) streamBytes(s *Stream, max int64) ([]byte, error) {
	r, err := d.StreamReader(s)
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	d.Release(r)
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%w: a stream decodes to more than %d bytes", ErrLimit, max)
	}
	return data, err
}

// StreamBytes is streamBytes for callers outside the package.
func (d *Doc) StreamBytes(s *Stream, max int64) ([]byte, error) { return d.streamBytes(s, max) }

func (d *Doc) filter(r io.Reader, name Name, p Dict, dec *decoded) (io.Reader, error) {
	switch name {
	case "FlateDecode", "Fl":
		return predictor(d.inflate(r, dec), p)
	case "LZWDecode", "LZW":
		early := true
		if v, ok := p["EarlyChange"].(int64); ok && v == 0 {
			early = false
		}
		return predictor(newLZW(r, early), p)
	case "ASCII85Decode", "A85":
		return ascii85.NewDecoder(&a85Clean{r: bufio.NewReader(r)}), nil
	case "ASCIIHexDecode", "AHx":
		return &hexReader{r: bufio.NewReader(r)}, nil
	case "RunLengthDecode", "RL":
		return &runLength{r: bufio.NewReader(r)}, nil
	case "Crypt":
		return r, nil // the Identity crypt filter; the security handler did the rest
	case "DCTDecode", "DCT", "JPXDecode", "JBIG2Decode", "CCITTFaxDecode", "CCF":
		return nil, fmt.Errorf("%w (%s)", ErrImage, name)
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

// newLZW decodes PDF's LZW (MSB first, 8-bit literals, EarlyChange).
func newLZW(r io.Reader, early bool) io.Reader {
	if !early {
		return &tolerant{r: lzw.NewReader(r, lzw.MSB, 8)}
	}
	return newLZWEarly(r)
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
