package tool_test

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

func TestDecodeBase64(t *testing.T) {
	data := []byte{0xfb, 0xff, 0xbf, 0, 1, 2, 3}
	std := base64.StdEncoding.EncodeToString(data)
	tests := []struct {
		name    string
		in      string
		max     int64
		want    []byte
		errText string
	}{
		{"standard padded", std, 100, data, ""},
		{"standard unpadded", base64.RawStdEncoding.EncodeToString(data), 100, data, ""},
		{"url-safe", base64.URLEncoding.EncodeToString(data), 100, data, ""},
		{"wrapped lines", std[:4] + "\r\n" + std[4:8] + "\n " + std[8:], 100, data, ""},
		{"exactly the limit", std, int64(len(data)), data, ""},
		{"over the limit", std, int64(len(data)) - 1, nil, "upload limit is 6 bytes"},
		{"far over the limit is refused before decoding", strings.Repeat("A", 4000), 10, nil, "decodes to about 3000 bytes"},
		{"bad character", "QUJD*EVG", 100, nil, "content is not valid base64"},
		{"bad length", "QUJDR", 100, nil, "content is not valid base64"},
		{"bad padding", "QQ=", 100, nil, "content is not valid base64"},
		{"empty", " \n", 100, nil, "content is empty"},
		{"only padding", "====", 100, nil, "not valid base64"},
		{"data URL", "data:application/pdf;base64," + std, 100, nil, "without a data: URL prefix"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tool.DecodeBase64("content", tt.in, tt.max)
			if tt.errText != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.errText)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestImageType(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 2, 2))))
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"png", buf.Bytes(), "image/png"},
		{"jpeg", []byte{0xff, 0xd8, 0xff, 0xe0, 0, 0x10}, "image/jpeg"},
		{"gif", []byte("GIF89a\x01\x00"), "image/gif"},
		{"webp", []byte("RIFF\x10\x00\x00\x00WEBPVP8 "), "image/webp"},
		{"pdf is no image", []byte("%PDF-1.4\n"), ""},
		{"svg is not offered as an image", []byte("<svg xmlns='http://www.w3.org/2000/svg'/>"), ""},
		{"short", []byte("RIFF"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := tool.ImageType(tt.data)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.want != "", ok)
		})
	}
}

func TestBlobAndImageRoundTrip(t *testing.T) {
	data := []byte{0, 1, 2, 0xff}
	b := tool.Blob("http://forge/attachments/u", "application/pdf", data)
	res, ok := b.Resource.(mcp.BlobResourceContents)
	require.True(t, ok)
	assert.Equal(t, "resource", b.Type)
	assert.Equal(t, "http://forge/attachments/u", res.URI)
	assert.Equal(t, "application/pdf", res.MIMEType)
	got, err := base64.StdEncoding.DecodeString(res.Blob)
	require.NoError(t, err)
	assert.Equal(t, data, got)

	img := tool.Image("image/png", data)
	assert.Equal(t, "image", img.Type)
	assert.Equal(t, "image/png", img.MIMEType)
	got, err = base64.StdEncoding.DecodeString(img.Data)
	require.NoError(t, err)
	assert.Equal(t, data, got)
}

func TestIsText(t *testing.T) {
	for _, tc := range []struct {
		data string
		want bool
	}{
		{"hello\n", true},
		{`{"a": [1, 2]}`, true},
		{"a,b\n1,2\n", true},
		{"# Título\n\n- ünïcode\n", true},
		{"package main\n\tfunc main() {}\n", true},
		{"", false},
		{"nul\x00byte", false},
		{"\xff\xfe bad utf-8", false},
		{"\x01\x02\x03\x04 mostly control", false},
	} {
		assert.Equal(t, tc.want, tool.IsText([]byte(tc.data)), "%q", tc.data)
	}
}

// TestIsBinary: git's test (a NUL in the first 8000 bytes) plus invalid
// UTF-8; control bytes alone leave a repository file text, unlike IsText.
func TestIsBinary(t *testing.T) {
	late := append(bytes.Repeat([]byte("a"), 9000), 0)
	for _, tt := range []struct {
		name string
		data []byte
		want bool
	}{
		{"empty", nil, false},
		{"text", []byte("hello\n"), false},
		{"control bytes", []byte("\x1b[31mred\x1b[0m\x01\x02"), false},
		{"NUL early", []byte("he\x00lo"), true},
		{"NUL after 8000 bytes", late, false},
		{"invalid UTF-8", []byte{0xff, 0xfe, 'a'}, true},
	} {
		assert.Equal(t, tt.want, tool.IsBinary(tt.data), tt.name)
	}
}
