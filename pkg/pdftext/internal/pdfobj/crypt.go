package pdfobj

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/md5"
	"crypto/rc4"
	"crypto/sha256"
	"crypto/sha512"
	"fmt"
	"hash"
)

// The standard security handler (PDF 32000-2 §7.6.4), revisions 2 to 6,
// opened with the empty user password: what a viewer does when a file
// opens without asking. RC4 (40 to 128 bits), AES-128 and AES-256.

type method uint8

const (
	none method = iota
	useRC4
	useAES
	useAES256
)

type crypt struct {
	key      []byte
	stm, str method
}

// pad is the password padding string of Algorithm 2.
var pad = []byte("\x28\xBF\x4E\x5E\x4E\x75\x8A\x41\x64\x00\x4E\x56\xFF\xFA\x01\x08\x2E\x2E\x00\xB6\xD0\x68\x3E\x80\x2F\x0C\xA9\xFE\x64\x53\x69\x7A")

func (d *Doc) newCrypt(ref Object) (*crypt, error) {
	enc, _ := d.Resolve(ref).(Dict)
	if enc == nil {
		return nil, fmt.Errorf("%w: its encryption dictionary cannot be read", ErrMalformed)
	}
	if f, _ := enc["Filter"].(Name); f != "Standard" {
		return nil, fmt.Errorf("%w: it is encrypted with the %q security handler, which only its own software opens", ErrPassword, string(f))
	}
	v, _ := enc["V"].(int64)
	r, _ := enc["R"].(int64)
	o, _ := enc["O"].(String)
	u, _ := enc["U"].(String)
	p, _ := enc["P"].(int64)
	c := &crypt{}
	switch {
	case v == 1 || v == 2:
		c.stm, c.str = useRC4, useRC4
	case v == 4 || v == 5:
		cf, _ := d.Resolve(enc["CF"]).(Dict)
		c.stm = filterMethod(d, cf, enc["StmF"])
		c.str = filterMethod(d, cf, enc["StrF"])
	default:
		return nil, fmt.Errorf("%w: it uses encryption version %d, which this reader does not know", ErrPassword, v)
	}
	var err error
	switch {
	case r >= 2 && r <= 4:
		bits, _ := enc["Length"].(int64)
		if v == 1 || bits == 0 {
			bits = 40
		}
		if v == 4 {
			bits = 128
		}
		if bits < 40 || bits > 128 || bits%8 != 0 {
			return nil, fmt.Errorf("%w: a %d-bit encryption key", ErrMalformed, bits)
		}
		meta := true
		if b, ok := enc["EncryptMetadata"].(bool); ok {
			meta = b
		}
		c.key, err = d.keyRC4(int(r), int(bits/8), []byte(o), []byte(u), uint32(p), meta)
	case r == 5 || r == 6:
		oe, _ := enc["UE"].(String)
		c.key, err = keyAES256(int(r), []byte(u), []byte(oe))
	default:
		return nil, fmt.Errorf("%w: it uses security handler revision %d, which this reader does not know", ErrPassword, r)
	}
	if err != nil {
		return nil, err
	}
	return c, nil
}

func filterMethod(d *Doc, cf Dict, name Object) method {
	n, _ := name.(Name)
	if n == "" || n == "Identity" {
		return none
	}
	f, _ := d.Resolve(cf[n]).(Dict)
	switch cfm, _ := f["CFM"].(Name); cfm {
	case "V2":
		return useRC4
	case "AESV2":
		return useAES
	case "AESV3":
		return useAES256
	}
	return none
}

// keyRC4 is Algorithm 2 with the empty password, checked against U
// (Algorithms 4 and 5).
func (d *Doc) keyRC4(r, n int, o, u []byte, p uint32, meta bool) ([]byte, error) {
	var id []byte
	if ids, ok := d.Resolve(d.Trailer["ID"]).(Array); ok && len(ids) > 0 {
		s, _ := d.Resolve(ids[0]).(String)
		id = []byte(s)
	}
	h := md5.New()
	h.Write(pad)
	h.Write(o)
	h.Write([]byte{byte(p), byte(p >> 8), byte(p >> 16), byte(p >> 24)})
	h.Write(id)
	if r >= 4 && !meta {
		h.Write([]byte{0xff, 0xff, 0xff, 0xff})
	}
	key := h.Sum(nil)
	if r >= 3 {
		for range 50 {
			s := md5.Sum(key[:n])
			key = s[:]
		}
	}
	key = key[:n]
	var want []byte
	if r == 2 {
		want = rc4x(key, pad)
	} else {
		s := md5.Sum(append(append([]byte(nil), pad...), id...))
		want = rc4x(key, s[:])
		for i := 1; i <= 19; i++ {
			k := make([]byte, len(key))
			for j := range key {
				k[j] = key[j] ^ byte(i)
			}
			want = rc4x(k, want)
		}
	}
	m := len(want)
	if r >= 3 {
		m = 16
	}
	if len(u) < m || !bytes.Equal(u[:m], want[:m]) {
		return nil, ErrPassword
	}
	return key, nil
}

func rc4x(key, data []byte) []byte {
	c, err := rc4.NewCipher(key)
	if err != nil {
		return nil
	}
	out := make([]byte, len(data))
	c.XORKeyStream(out, data)
	return out
}

// keyAES256 is Algorithm 2.A with the empty password: the hash of the
// password with U's validation salt must equal U's first 32 bytes; the
// file key is UE decrypted with the hash of the key salt.
func keyAES256(r int, u, ue []byte) ([]byte, error) {
	if len(u) < 48 || len(ue) < 32 {
		return nil, fmt.Errorf("%w: its AES-256 encryption entries are too short", ErrMalformed)
	}
	if !bytes.Equal(hash2B(r, nil, u[32:40], nil), u[:32]) {
		return nil, ErrPassword
	}
	k := hash2B(r, nil, u[40:48], nil)
	block, err := aes.NewCipher(k)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	key := make([]byte, 32)
	cipher.NewCBCDecrypter(block, make([]byte, 16)).CryptBlocks(key, ue[:32])
	return key, nil
}

// hash2B is Algorithm 2.B (revision 6), or plain SHA-256 (revision 5).
func hash2B(r int, pw, salt, udata []byte) []byte {
	h := sha256.New()
	h.Write(pw)
	h.Write(salt)
	h.Write(udata)
	k := h.Sum(nil)
	if r == 5 {
		return k
	}
	for round := 0; ; round++ {
		unit := append(append(append([]byte(nil), pw...), k...), udata...)
		k1 := bytes.Repeat(unit, 64)
		block, _ := aes.NewCipher(k[:16])
		e := make([]byte, len(k1))
		cipher.NewCBCEncrypter(block, k[16:32]).CryptBlocks(e, k1)
		sum := 0
		for _, b := range e[:16] {
			sum += int(b)
		}
		var next hash.Hash
		switch sum % 3 {
		case 0:
			next = sha256.New()
		case 1:
			next = sha512.New384()
		default:
			next = sha512.New()
		}
		next.Write(e)
		k = next.Sum(nil)
		if round >= 63 && int(e[len(e)-1]) <= round-31 {
			break
		}
	}
	return k[:32]
}

// objectKey is Algorithm 1: the file key extended by the object's number
// and generation (and "sAlT" for AES), truncated to n+5 bytes (at most 16).
func (c *crypt) objectKey(ref Ref, m method) []byte {
	if m == useAES256 {
		return c.key
	}
	h := md5.New()
	h.Write(c.key)
	h.Write([]byte{byte(ref.Num), byte(ref.Num >> 8), byte(ref.Num >> 16), byte(ref.Gen), byte(ref.Gen >> 8)})
	if m == useAES {
		h.Write([]byte("sAlT"))
	}
	return h.Sum(nil)[:min(len(c.key)+5, 16)]
}

func (c *crypt) decrypt(ref Ref, m method, data []byte) []byte {
	switch m {
	case useRC4:
		return rc4x(c.objectKey(ref, m), data)
	case useAES, useAES256:
		if len(data) < 32 || len(data)%16 != 0 {
			if len(data) >= 16 {
				data = data[:len(data)/16*16] // a truncated last block is dropped
			}
			if len(data) < 32 {
				return nil
			}
		}
		block, err := aes.NewCipher(c.objectKey(ref, m))
		if err != nil {
			return nil
		}
		out := make([]byte, len(data)-16)
		cipher.NewCBCDecrypter(block, data[:16]).CryptBlocks(out, data[16:])
		if k := int(out[len(out)-1]); k >= 1 && k <= 16 && k <= len(out) {
			out = out[:len(out)-k]
		}
		return out
	}
	return data
}

func (c *crypt) decryptString(ref Ref, s []byte) []byte { return c.decrypt(ref, c.str, s) }
