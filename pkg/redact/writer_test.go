package redact

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReplacer(t *testing.T) {
	const oauth = "eyJhbGciOi.JIUz<I1>&NiJ9+/Ab"
	r := NewReplacer(secret, oauth, "short")
	jsonForm, _ := json.Marshal(oauth)
	for _, tc := range []struct{ name, in, want string }{
		{"none", "nothing to hide", "nothing to hide"},
		{"as is", `{"error":{"message":"Method ` + secret + ` not found"}}`, `{"error":{"message":"Method [REDACTED] not found"}}`},
		{"twice", secret + secret, "[REDACTED][REDACTED]"},
		{"other case", "unknown header X-Mcp-" + strings.ToUpper(secret[:1]) + secret[1:], "unknown header X-Mcp-[REDACTED]"},
		{"upper case", strings.ToUpper(oauth), "[REDACTED]"},
		{"query-escaped", "u=" + url.QueryEscape(oauth), "u=[REDACTED]"},
		{"path-escaped", "/x/" + url.PathEscape(oauth), "/x/[REDACTED]"},
		{"JSON-escaped", `"` + string(jsonForm[1:len(jsonForm)-1]) + `"`, `"[REDACTED]"`},
		{"a short value is no secret", "short", "short"},
		{"a near miss", secret[:len(secret)-1] + "X", secret[:len(secret)-1] + "X"},
		{"at the very end", "x" + secret, "x[REDACTED]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := []byte(tc.in)
			orig := bytes.Clone(in)
			assert.Equal(t, tc.want, string(r.Bytes(in)))
			assert.Equal(t, orig, in, "the caller's buffer is not changed")
		})
	}
	assert.Nil(t, NewReplacer("", "short"))
	var none *Replacer
	assert.Equal(t, "x", string(none.Bytes([]byte("x"))))
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("gone") }

func TestWriter(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b, secret)
	line := []byte(`{"id":1,"error":{"message":"invalid logging level '` + secret + `'"}}` + "\n")
	n, err := w.Write(line)
	require.NoError(t, err)
	assert.Equal(t, len(line), n, "the caller's count, whatever the masking changed")
	assert.Equal(t, `{"id":1,"error":{"message":"invalid logging level '[REDACTED]'"}}`+"\n", b.String())
	assert.Same(t, &b, NewWriter(&b, "").(*bytes.Buffer), "nothing to mask: the writer itself")
	_, err = NewWriter(failWriter{}, secret).Write(line)
	assert.Error(t, err)
}

func TestReplacerLargeWrites(t *testing.T) {
	r := NewReplacer(secret)
	big := bytes.Repeat([]byte("x"), foldBytes)
	in := append(append(bytes.Clone(big), secret...), strings.ToUpper(secret)...)
	out := string(r.Bytes(in))
	assert.Equal(t, string(big)+"[REDACTED]"+strings.ToUpper(secret), out, "past foldBytes, the forms as they are")
}

// BenchmarkReplacer is the cost of masking an answer without a secret,
// the common case on every authenticated HTTP request: a 400-byte echo
// and an 8 MiB result, against the secrets of a request (the token and
// its Authorization value).
func BenchmarkReplacer(b *testing.B) {
	r := NewReplacer(secret, "Bearer "+secret)
	// Prose, and text made to match the secrets' first 16 bytes every 50.
	prose := []byte(`{"title":"Crash when saving","body":"Steps: open the file, press save; it fails with error 500 on 2026-01-02."},`)
	near := []byte(`{"name":"x","body":"0123456789abcdef Bearer text"}`)
	for _, n := range []int{400, foldBytes, 8 << 20} {
		for kind, unit := range map[string][]byte{"prose": prose, "near-misses": near} {
			p := bytes.Repeat(unit, n/len(unit)+1)[:n]
			b.Run(fmt.Sprintf("%s/%d", kind, n), func(b *testing.B) {
				b.SetBytes(int64(len(p)))
				for b.Loop() {
					r.Bytes(p)
				}
			})
		}
	}
}
