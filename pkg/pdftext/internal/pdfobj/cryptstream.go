package pdfobj

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rc4"
	"io"
)

// A stream is decrypted as it is read, never as a copy of its raw bytes
// made at once: a form a page draws a million times costs what the
// interpreter reads of it each time, not its size each time.

// costCipher is what a stream's decryption holds (RC4's state, or AES's
// block buffer).
const costCipher = 8 << 10

// streamReader decrypts the stream s reading from r.
func (c *crypt) streamReader(s *Stream, r io.Reader, mem *Budget, dec *decoded) io.Reader {
	m := c.stm
	// A stream with its own /Crypt filter of /Identity stays as it is.
	if f, ok := s.Dict["Filter"].(Array); ok && len(f) > 0 && f[0] == Name("Crypt") {
		m = none
	}
	switch m {
	case useRC4:
		dec.take(mem, costCipher)
		rc, err := rc4.NewCipher(c.objectKey(s.Ref, m))
		if err != nil {
			return eofReader{}
		}
		return cipher.StreamReader{S: rc, R: r}
	case useAES, useAES256:
		dec.take(mem, costCipher)
		block, err := aes.NewCipher(c.objectKey(s.Ref, m))
		if err != nil {
			return eofReader{}
		}
		return &cbcReader{r: r, block: block}
	}
	return r
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// cbcReader decrypts AES-CBC data whose first block is the IV and whose
// last block ends in PKCS#5 padding (PDF 32000-2 §7.6.3): it decrypts as
// it reads, holding back the last block until the data ends, when its
// padding comes off; a last block cut short is dropped.
type cbcReader struct {
	r      io.Reader
	block  cipher.Block
	mode   cipher.BlockMode
	in     [4096]byte // raw bytes read, have of them
	have   int
	outBuf [4096 + aes.BlockSize]byte
	out    []byte // decrypted bytes ready
	hold   [aes.BlockSize]byte
	held   bool // hold is the last block decrypted, not yet given out
	ended  bool
}

func (c *cbcReader) Read(p []byte) (int, error) {
	for len(c.out) == 0 {
		if c.ended {
			return 0, io.EOF
		}
		c.fill()
	}
	n := copy(p, c.out)
	c.out = c.out[n:]
	return n, nil
}

// fill reads more raw data and decrypts its whole blocks, keeping the
// last one back; at the end of the data it gives that one out without its
// padding.
func (c *cbcReader) fill() {
	n, err := io.ReadAtLeast(c.r, c.in[c.have:], 1)
	c.have += n
	c.ended = err != nil
	if c.mode == nil {
		if c.have < aes.BlockSize {
			return
		}
		c.mode = cipher.NewCBCDecrypter(c.block, c.in[:aes.BlockSize])
		c.have = copy(c.in[:], c.in[aes.BlockSize:c.have])
	}
	out := c.outBuf[:0]
	if whole := c.have / aes.BlockSize * aes.BlockSize; whole > 0 {
		c.mode.CryptBlocks(c.in[:whole], c.in[:whole])
		if c.held {
			out = append(out, c.hold[:]...)
		}
		out = append(out, c.in[:whole-aes.BlockSize]...)
		copy(c.hold[:], c.in[whole-aes.BlockSize:whole])
		c.held = true
		c.have = copy(c.in[:], c.in[whole:c.have])
	}
	if c.ended && c.held {
		last := c.hold[:]
		if k := int(last[len(last)-1]); k >= 1 && k <= aes.BlockSize {
			last = last[:len(last)-k]
		}
		out = append(out, last...)
		c.held = false
	}
	c.out = out
}
