package tool

import (
	"mime"
	"strings"
	"unicode/utf8"
)

// OctetStream is the MIME type of bytes that claim nothing.
const OctetStream = "application/octet-stream"

// IsTextType says whether the MIME type mt describes text (text/*, JSON,
// XML, JavaScript, shell, TOML, YAML), so a client may show a blob of it
// as text.
func IsTextType(mt string) bool {
	base, _, _ := mime.ParseMediaType(mt)
	return strings.HasPrefix(base, "text/") || strings.HasSuffix(base, "json") || strings.HasSuffix(base, "xml") ||
		base == "application/javascript" || base == "application/x-sh" || base == "application/toml" || base == "application/yaml"
}

// BlobType is the MIME type a blob of data is labelled with: mt, unless
// mt says text and the bytes are not (a NUL, invalid UTF-8, or more than
// 1% control bytes, as IsText counts them), then application/octet-stream.
// A file named notes.md, or served as text/markdown, can hold anything;
// labelled as text, a client may render its control bytes (terminal
// escapes, bidi tricks the text escaping never saw, since a blob is
// base64) as if they were a document. A window of a file may cut a
// character at either end; such a cut is not held against it.
func BlobType(mt string, data []byte) string {
	if !IsTextType(mt) || looksLikeText(data) {
		return mt
	}
	return OctetStream
}

// looksLikeText is IsText for a window of a file: up to three bytes of a
// character cut at either end are ignored.
func looksLikeText(data []byte) bool {
	if len(data) == 0 {
		return true
	}
	for i := 0; i < utf8.UTFMax-1 && len(data) > 0 && !utf8.RuneStart(data[0]); i++ {
		data = data[1:]
	}
	if cut := lastRuneStart(data); cut >= 0 && !utf8.FullRune(data[cut:]) {
		data = data[:cut]
	}
	if len(data) == 0 {
		return true
	}
	return IsText(data)
}

// lastRuneStart is the offset of the start of the last (possibly cut)
// character among the last UTFMax bytes of b, or -1.
func lastRuneStart(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			return i
		}
	}
	return -1
}
