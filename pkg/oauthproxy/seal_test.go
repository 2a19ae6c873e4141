package oauthproxy

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSeal(t *testing.T) {
	s, err := newSealer([][]byte{[]byte(testKey)})
	require.NoError(t, err)
	in := flow{Client: "c", Redirect: "https://a.example/cb", Exp: 42}
	text, err := s.seal(purposeConsent, in)
	require.NoError(t, err)
	var out flow
	require.NoError(t, s.open(purposeConsent, text, &out))
	assert.Equal(t, in, out)

	other, _ := s.seal(purposeConsent, in)
	assert.NotEqual(t, text, other, "a fresh nonce each time")
	assert.Error(t, s.open(purposeState, text, &out), "a consent cannot pass for a state")
	assert.Error(t, s.open(purposeCode, text, &out))
	for i := range text {
		b := []byte(text)
		b[i] ^= 1
		assert.Error(t, s.open(purposeConsent, string(b), &out), "bit %d", i)
	}
	assert.Error(t, s.open(purposeConsent, text[:20], &out))
	assert.Error(t, s.open(purposeConsent, "", &out))
	assert.Error(t, s.open(purposeConsent, strings.Repeat("A", maxSealed+1), &out))
	assert.Error(t, s.open(purposeConsent, "!!!", &out))
}

func TestKeys(t *testing.T) {
	_, err := newSealer(nil)
	assert.Error(t, err)
	_, err = newSealer([][]byte{[]byte("short")})
	assert.ErrorContains(t, err, "at least 32")
	keys, err := ParseKeys("# rotated 2026-12\n" + strings.Repeat("b", 64) + "\n\n  " + strings.Repeat("a", 32) + "  \n")
	require.NoError(t, err)
	assert.Equal(t, [][]byte{[]byte(strings.Repeat("b", 64)), []byte(strings.Repeat("a", 32))}, keys)
	_, err = ParseKeys("\n# nothing\n")
	assert.ErrorContains(t, err, "no key")
	_, err = ParseKeys("tooshort")
	assert.ErrorContains(t, err, "at least 32")
	assert.NotContains(t, err.Error(), "tooshort", "a key is never quoted")
}
