package forgejo

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/costcheck"
	"github.com/stretchr/testify/require"
)

// FuzzForgeText: the small parsers of what a forge sends besides JSON
// bodies (an error body's message, a Content-Range header, a version, a
// router's 404, a line of a log or diff) take any bytes: no panic, and
// what each returns holds its promise.
func FuzzForgeText(f *testing.F) {
	for _, s := range []string{`{"message":"not found"}`, "bytes 0-99/1000", "bytes 5-9/*", "13.0.5+gitea-1.22.0", "1.26.0",
		"404 page not found\n", "line one\r\nline two\nlast", "\x00\xff\u202e\u200b message", "null", "bytes -1-2/3", "bytes 0-1/-2"} {
		f.Add([]byte(s), uint8(16))
	}
	f.Fuzz(func(t *testing.T, data []byte, size uint8) {
		costcheck.Within(t, costcheck.Default(), func() { // each input within issue 26's ceiling
			s := string(data)

			if msg := MessageFromBody(data); msg != "" {
				var m struct{ Message string }
				require.NoError(t, json.Unmarshal(data, &m))
				require.Equal(t, m.Message, msg)
			}

			clean := Sanitize(s, 40)
			require.True(t, utf8.ValidString(clean))
			require.LessOrEqual(t, utf8.RuneCountInString(clean), 41)
			for _, r := range clean {
				require.False(t, unicode.IsControl(r) || unicode.Is(unicode.Cf, r), "%q kept %U", clean, r)
			}

			if start, total, ok := parseContentRange(s); ok {
				require.GreaterOrEqual(t, start, int64(0))
				require.True(t, total == -1 || total > start || start == 0 && total == 0, "start %d, total %d", start, total)
			}

			if _, ok := parseRelease(s); ok {
				c, ok := CompareVersions(s, s)
				require.True(t, ok)
				require.Zero(t, c)
			}
			require.NotEmpty(t, ParseForge(s).Flavour)
			_ = isRouterNotFound("text/plain", data)

			// Lines: offsets add up, and a line is its bytes without the line
			// end, cut to MaxLineBytes.
			r := bufio.NewReaderSize(bytes.NewReader(data), 16+int(size))
			var buf []byte
			var read int64
			for {
				var n int64
				var err error
				buf, n, err = readLine(r, buf[:0])
				if n > 0 {
					line := data[read : read+n]
					require.Equal(t, strings.TrimRight(string(line), "\r\n")[:len(buf)], string(buf))
					require.LessOrEqual(t, len(buf), MaxLineBytes)
				}
				read += n
				if err != nil {
					break
				}
			}
			require.Equal(t, int64(len(data)), read)
		})
	})
}
