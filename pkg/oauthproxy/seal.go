package oauthproxy

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// The proxy stores nothing: what it must remember between two requests
// (a registered client, a consent in progress, a sign-in at the forge, an
// authorization code, a refresh token) travels with the client, sealed.
// Sealing is AES-256-GCM under a key derived with HMAC-SHA256 from a key
// the operator shares between replicas (a file), so any replica opens
// what another sealed, nobody else can read or forge it, and a change of
// a single bit is refused. Each kind of sealed value has its own purpose,
// bound as GCM's additional data: a consent cannot pass for a code, nor a
// code for a refresh token.

// Purposes of sealed values.
const (
	purposeClient  = "client"  // a client registered by RFC 7591
	purposeConsent = "consent" // an authorization request shown on the consent page
	purposeState   = "state"   // a sign-in in progress at the forge (its state parameter)
	purposeCode    = "code"    // an authorization code handed to the client
	purposeRefresh = "refresh" // the forge's refresh token, bound to the client
)

// MinKeyBytes is the shortest key accepted: 256 bits.
const MinKeyBytes = 32

// maxSealed bounds a sealed value before anything decodes it: the largest
// one (a consent carrying a 512-byte client id, redirect URI and state)
// is about 3 KiB.
const maxSealed = 8 << 10

// keyLabel derives the sealing key from the operator's key, so the raw
// key is used for nothing else.
const keyLabel = "forgejo-mcp oauth seal v1"

var errSealed = errors.New("not a value this server sealed (or sealed with a key it no longer has)")

// sealer seals with the first key and opens with any: keys rotate by
// adding a new first line to the key file and removing the old one once
// what it sealed has expired.
type sealer struct{ aeads []cipher.AEAD }

func newSealer(keys [][]byte) (*sealer, error) {
	if len(keys) == 0 {
		return nil, errors.New("no sealing key")
	}
	s := &sealer{}
	for i, k := range keys {
		if len(k) < MinKeyBytes {
			return nil, fmt.Errorf("key %d is %d bytes; at least %d are needed (e.g. openssl rand -hex 32)", i+1, len(k), MinKeyBytes)
		}
		mac := hmac.New(sha256.New, k)
		mac.Write([]byte(keyLabel))
		block, err := aes.NewCipher(mac.Sum(nil))
		if err != nil {
			return nil, err
		}
		aead, err := cipher.NewGCM(block)
		if err != nil {
			return nil, err
		}
		s.aeads = append(s.aeads, aead)
	}
	return s, nil
}

// ParseKeys reads a key file: one key a line, the first sealing, every
// one opening; blank lines and lines starting with # are skipped.
func ParseKeys(text string) ([][]byte, error) {
	var keys [][]byte
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if len(line) < MinKeyBytes {
			return nil, fmt.Errorf("a key is %d bytes; at least %d are needed (e.g. openssl rand -hex 32)", len(line), MinKeyBytes)
		}
		keys = append(keys, []byte(line))
	}
	if len(keys) == 0 {
		return nil, errors.New("the key file holds no key")
	}
	return keys, nil
}

// seal returns v sealed for purpose, as URL-safe text.
func (s *sealer) seal(purpose string, v any) (string, error) {
	plain, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	aead := s.aeads[0]
	buf := make([]byte, aead.NonceSize(), aead.NonceSize()+len(plain)+aead.Overhead())
	if _, err := rand.Read(buf); err != nil {
		return "", err
	}
	buf = aead.Seal(buf, buf, plain, []byte(purpose))
	return base64.RawURLEncoding.EncodeToString(buf), nil
}

// open reverses seal into v, refusing anything another key or purpose
// sealed, or that was changed.
func (s *sealer) open(purpose, text string, v any) error {
	if text == "" || len(text) > maxSealed {
		return errSealed
	}
	raw, err := base64.RawURLEncoding.DecodeString(text)
	if err != nil {
		return errSealed
	}
	for _, aead := range s.aeads {
		if len(raw) < aead.NonceSize()+aead.Overhead() {
			return errSealed
		}
		plain, err := aead.Open(nil, raw[:aead.NonceSize()], raw[aead.NonceSize():], []byte(purpose))
		if err != nil {
			continue
		}
		if json.Unmarshal(plain, v) != nil {
			return errSealed // sealed by us, so a bug or an older format
		}
		return nil
	}
	return errSealed
}
