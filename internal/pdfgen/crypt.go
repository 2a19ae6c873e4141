package pdfgen

import (
	"crypto/md5"
	"crypto/rc4"
	"encoding/hex"
	"fmt"
)

// Object is one object of an encrypted file: a dictionary (or any other
// body), or a stream when Data is set (Dict then holds the stream's
// dictionary entries, without /Length).
type Object struct {
	Dict   string
	Data   []byte
	Stream bool
}

// padding is the password padding of PDF 32000-2 Algorithm 2.
var padding = []byte("\x28\xBF\x4E\x5E\x4E\x75\x8A\x41\x64\x00\x4E\x56\xFF\xFA\x01\x08\x2E\x2E\x00\xB6\xD0\x68\x3E\x80\x2F\x0C\xA9\xFE\x64\x53\x69\x7A")

// RC4 writes a PDF of objs (numbered from 1, the first the catalog)
// encrypted with the standard security handler, revision 3 (RC4, 128-bit
// key) and an empty user password, as qpdf --encrypt "" OWNER 128 does:
// each stream's data is encrypted with its object's key. Strings in the
// dictionaries are left as written (tests give them none that matter).
func RC4(objs ...Object) []byte {
	id := []byte("pdfgen-rc4-file!")
	owner := make([]byte, 32)
	for i := range owner {
		owner[i] = byte(i * 7)
	}
	const p = -4
	key := rc4Key(owner, id, p)
	user := rc4User(key, id)
	w := &writer{}
	w.buf.WriteString("%PDF-1.4\n")
	for i, o := range objs {
		num := i + 1
		if !o.Stream {
			w.obj(num, o.Dict)
			continue
		}
		data := rc4XOR(objectKey(key, num), o.Data)
		w.obj(num, fmt.Sprintf("<< %s /Length %d >>\nstream\n%s\nendstream", o.Dict, len(data), data))
	}
	enc := len(objs) + 1
	w.obj(enc, fmt.Sprintf("<< /Filter /Standard /V 2 /R 3 /Length 128 /O <%s> /U <%s> /P %d >>", hex.EncodeToString(owner), hex.EncodeToString(user), p))
	return w.finishWith(enc+1, fmt.Sprintf(" /Encrypt %d 0 R /ID [<%s> <%s>]", enc, hex.EncodeToString(id), hex.EncodeToString(id)))
}

// rc4Key is Algorithm 2 for the empty password, revision 3.
func rc4Key(owner, id []byte, p int32) []byte {
	h := md5.New()
	h.Write(padding)
	h.Write(owner)
	h.Write([]byte{byte(p), byte(p >> 8), byte(p >> 16), byte(p >> 24)})
	h.Write(id)
	key := h.Sum(nil)
	for range 50 {
		s := md5.Sum(key)
		key = s[:]
	}
	return key
}

// rc4User is Algorithm 5: /U for the empty user password.
func rc4User(key, id []byte) []byte {
	s := md5.Sum(append(append([]byte(nil), padding...), id...))
	u := rc4XOR(key, s[:])
	for i := 1; i <= 19; i++ {
		k := make([]byte, len(key))
		for j := range key {
			k[j] = key[j] ^ byte(i)
		}
		u = rc4XOR(k, u)
	}
	return append(u, make([]byte, 16)...)
}

// objectKey is Algorithm 1 for object num, generation 0.
func objectKey(key []byte, num int) []byte {
	s := md5.Sum(append(append([]byte(nil), key...), byte(num), byte(num>>8), byte(num>>16), 0, 0))
	return s[:min(len(key)+5, 16)]
}

func rc4XOR(key, data []byte) []byte {
	c, err := rc4.NewCipher(key)
	if err != nil {
		panic(err)
	}
	out := make([]byte, len(data))
	c.XORKeyStream(out, data)
	return out
}
