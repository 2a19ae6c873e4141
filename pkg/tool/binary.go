package tool

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
)

// Binary results and inputs. MCP carries bytes as base64 text both ways:
// an embedded blob resource works with every client, image content is what
// vision models look at directly, and uploads arrive as a base64 string.

// Blob returns data as an embedded blob resource named uri, the form every
// MCP client can save or hand on without guessing an encoding. Bytes that
// are not text are never labelled as text (BlobType).
func Blob(uri, mimeType string, data []byte) mcp.EmbeddedResource {
	return mcp.NewEmbeddedResource(mcp.BlobResourceContents{
		URI:      uri,
		MIMEType: BlobType(mimeType, data),
		Blob:     base64.StdEncoding.EncodeToString(data),
	})
}

// Image returns data as image content, which a vision model sees as a
// picture rather than as base64 text.
func Image(mimeType string, data []byte) mcp.ImageContent {
	return mcp.NewImageContent(base64.StdEncoding.EncodeToString(data), mimeType)
}

// ImageType returns the MIME type of data when its first bytes are those of
// a PNG, JPEG, GIF or WebP image, the formats vision models commonly accept.
// The bytes decide, not a file name: a file called x.png that is not a PNG
// must not be handed to a model as one.
func ImageType(data []byte) (string, bool) {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png", true
	case bytes.HasPrefix(data, []byte{0xff, 0xd8, 0xff}):
		return "image/jpeg", true
	case bytes.HasPrefix(data, []byte("GIF87a")), bytes.HasPrefix(data, []byte("GIF89a")):
		return "image/gif", true
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return "image/webp", true
	}
	return "", false
}

// Window is where the bytes of a windowed download sit in the file: where
// they start, the file's size, and where the next window starts until the
// end. Every download tool with offset and max_bytes parameters embeds it
// in its result, and --cli --out pages through any of them by these names.
type Window struct {
	Offset     *int64 `json:"offset,omitempty"`
	Total      int64  `json:"total,omitempty"`
	NextOffset *int64 `json:"next_offset,omitempty"`
}

// IsBinary is git's own test for a repository file: a NUL byte in its
// first 8000 bytes, or (stricter than git) invalid UTF-8. A repository file
// that passes is shown as text, whatever its control bytes, as git would
// diff it; IsText below is the stricter test for an attachment, whose bytes
// come with no such expectation.
func IsBinary(data []byte) bool {
	head := data[:min(len(data), 8000)]
	return bytes.IndexByte(head, 0) >= 0 || !utf8.Valid(data)
}

// IsText says whether data reads as text (a text/*, JSON, YAML, CSV,
// Markdown or source file, whatever its name): valid UTF-8, no NUL byte,
// and at most 1% control bytes besides line breaks, tabs and form feeds.
func IsText(data []byte) bool {
	if len(data) == 0 || bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data) {
		return false
	}
	ctl := 0
	for _, c := range data {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' || c == 0x7f {
			ctl++
		}
	}
	return ctl*100 <= len(data)
}

// DecodeBase64 decodes the base64 value of parameter name into at most max
// bytes. Line breaks and spaces (as base64 tools wrap their output) are
// ignored; the standard and URL-safe alphabets, padded or not, are
// accepted. Anything else is an error saying what is wrong, so a mangled
// upload is refused rather than stored as a corrupt file. The size is
// checked before decoding, so an oversized value costs no decoding memory.
func DecodeBase64(name, s string, max int64) ([]byte, error) {
	if strings.HasPrefix(s, "data:") {
		return nil, fmt.Errorf("%s must be bare base64, without a data: URL prefix; send only the part after the comma (and the MIME type in mime_type)", name)
	}
	if strings.ContainsAny(s, " \t\r\n") {
		s = strings.Map(func(r rune) rune {
			if r == ' ' || r == '\t' || r == '\r' || r == '\n' {
				return -1
			}
			return r
		}, s)
	}
	if s == "" {
		return nil, fmt.Errorf("%s is empty: there is no file to upload", name)
	}
	enc := base64.StdEncoding
	if strings.ContainsAny(s, "-_") {
		enc = base64.URLEncoding
	}
	if !strings.HasSuffix(s, "=") && len(s)%4 != 0 {
		enc = enc.WithPadding(base64.NoPadding)
	}
	if n := int64(enc.DecodedLen(len(s))); n > max+2 {
		return nil, fmt.Errorf("%s decodes to about %d bytes; the upload limit is %d bytes (the server's --max-upload-bytes)", name, n, max)
	}
	// Streamed, so the value is not copied once more before decoding, and
	// read to its end (one spare byte), so trailing garbage is caught.
	dec := base64.NewDecoder(enc, strings.NewReader(s))
	out := make([]byte, enc.DecodedLen(len(s))+1)
	n := 0
	for {
		m, err := dec.Read(out[n:])
		n += m
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil || n == len(out) {
			return nil, fmt.Errorf("%s is not valid base64 (a character outside the alphabet, or a wrong length); send the file's bytes base64-encoded (RFC 4648)", name)
		}
	}
	out = out[:n]
	if int64(n) > max {
		return nil, fmt.Errorf("%s is %d bytes; the upload limit is %d bytes (the server's --max-upload-bytes)", name, n, max)
	}
	if n == 0 {
		return nil, fmt.Errorf("%s decodes to an empty file: there is nothing to upload", name)
	}
	return out, nil
}
