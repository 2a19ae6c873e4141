package pdfobj

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCryptRevisions: qpdf's files (testdata/make.sh) are what their names
// say, and each decrypts, strings and streams, with the empty user
// password (TestOpenQpdf checks the text).
func TestCryptRevisions(t *testing.T) {
	for _, tc := range []struct {
		file string
		v, r int64
		stm  method
		bits int // key length
	}{
		{"r2-rc4-40.pdf", 1, 2, useRC4, 40},
		{"r3-rc4-128.pdf", 2, 3, useRC4, 128},
		{"r4-rc4-128.pdf", 4, 4, useRC4, 128},
		{"r4-aes-128.pdf", 4, 4, useAES, 128},
		{"r5-aes-256.pdf", 5, 5, useAES256, 256},
		{"r6-aes-256.pdf", 5, 6, useAES256, 256},
		{"r6-aes-256-objstm.pdf", 5, 6, useAES256, 256},
	} {
		t.Run(tc.file, func(t *testing.T) {
			d := open(t, readFile(t, tc.file))
			enc := d.Dict(d.Trailer["Encrypt"])
			assert.Equal(t, tc.v, enc["V"])
			assert.Equal(t, tc.r, enc["R"])
			require.NotNil(t, d.crypt)
			assert.Equal(t, tc.stm, d.crypt.stm)
			assert.Equal(t, tc.stm, d.crypt.str)
			assert.Len(t, d.crypt.key, tc.bits/8)
			assert.Equal(t, String(title), infoTitle(d))
		})
	}
	t.Run("R4 without encrypted metadata", func(t *testing.T) {
		d := open(t, readFile(t, "r4-rc4-128.pdf"))
		assert.Equal(t, false, d.Dict(d.Trailer["Encrypt"])["EncryptMetadata"])
	})
}

// TestCryptRefused: a file that needs a password, another security
// handler, or a revision this reader does not know is refused with
// ErrPassword and a message that says which; a damaged encryption
// dictionary is malformed.
func TestCryptRefused(t *testing.T) {
	aes := readFile(t, "r4-aes-128.pdf")
	same := func(data []byte, from, to string) []byte {
		require.Equal(t, len(from), len(to), "offsets stay")
		require.True(t, bytes.Contains(data, []byte(from)), from)
		return bytes.Replace(data, []byte(from), []byte(to), 1)
	}
	for _, tc := range []struct {
		name string
		data []byte
		want error
		msg  string
	}{
		{"a user password", readFile(t, "needs-password.pdf"), ErrPassword, "opens only with a password"},
		{"another handler", same(aes, "/Filter /Standard", "/Filter /FooSecur"), ErrPassword, `the "FooSecur" security handler`},
		{"an unknown version", same(aes, "/V 4", "/V 3"), ErrPassword, "encryption version 3"},
		{"an unknown revision", same(aes, "/R 4", "/R 7"), ErrPassword, "security handler revision 7"},
		{"a damaged /U", same(aes, "/U <", "/U<0"), ErrPassword, "opens only with a password"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Open(tc.data, Options{})
			require.ErrorIs(t, err, tc.want)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
	t.Run("AES-256 entries too short", func(t *testing.T) {
		_, err := keyAES256(6, make([]byte, 47), make([]byte, 32))
		require.ErrorIs(t, err, ErrMalformed)
	})
}

// TestDecryptEdges: data no cipher could have written decrypts to
// nothing or to what is there, never a panic.
func TestDecryptEdges(t *testing.T) {
	c := &crypt{key: bytes.Repeat([]byte{7}, 16), stm: useAES, str: useAES}
	ref := Ref{3, 0}
	for _, n := range []int{0, 1, 15, 16, 31, 33, 47} {
		assert.NotPanics(t, func() { c.decryptString(ref, make([]byte, n)) }, "%d bytes", n)
	}
	assert.Nil(t, c.decryptString(ref, make([]byte, 16)), "an IV alone is no data")
	// A stream with an Identity crypt filter is left as it is.
	s := &Stream{Dict: Dict{"Filter": Array{Name("Crypt")}}, Ref: ref}
	got, err := io.ReadAll(c.streamReader(s, strings.NewReader("plain"), nil, &decoded{}))
	require.NoError(t, err)
	assert.Equal(t, []byte("plain"), got)
	// RC4 is its own inverse: a string encrypted with an object's key
	// decrypts back.
	rc := &crypt{key: []byte("0123456789abcdef"), stm: useRC4, str: useRC4}
	enc := rc4x(rc.objectKey(ref, useRC4), []byte("round trip"))
	assert.Equal(t, []byte("round trip"), rc.decryptString(ref, enc))
}

// TestStreamDecryption: a stream decrypted as it is read, through reads
// of any size, is what decrypting its bytes at once gives (AES: the IV,
// whole blocks, the padding off the last one, a cut last block dropped;
// RC4), for every length around the block size and the reader's buffer.
func TestStreamDecryption(t *testing.T) {
	ref := Ref{7, 0}
	for _, m := range []method{useAES, useAES256, useRC4} {
		key := bytes.Repeat([]byte{9}, 16)
		if m == useAES256 {
			key = bytes.Repeat([]byte{9}, 32)
		}
		c := &crypt{key: key, stm: m, str: m}
		for _, n := range []int{0, 1, 15, 16, 17, 31, 32, 33, 47, 48, 64, 4095, 4096, 4097, 4111, 4112, 4113, 10000} {
			raw := make([]byte, n)
			for i := range raw {
				raw[i] = byte(i*31 + n)
			}
			if n >= 32 && n%16 == 0 {
				raw[n-1] = byte(n % 17) // a padding byte, valid or not
			}
			want := c.decrypt(ref, m, append([]byte(nil), raw...))
			for _, r := range []func(io.Reader) io.Reader{func(r io.Reader) io.Reader { return r }, iotest.OneByteReader, iotest.HalfReader} {
				got, err := io.ReadAll(r(c.streamReader(&Stream{Dict: Dict{}, Ref: ref}, r(bytes.NewReader(raw)), nil, &decoded{})))
				require.NoError(t, err)
				require.Equal(t, len(want), len(got), "method %d, %d bytes", m, n)
				require.True(t, bytes.Equal(want, got), "method %d, %d bytes", m, n)
			}
		}
	}
}
