package attachment_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCreate(t *testing.T) {
	pdf := makePDF(t, "upload", 2000)
	pngData := makePNG(t, 4, 4)
	b64 := base64.StdEncoding.EncodeToString
	tests := []struct {
		name     string
		tool     string
		args     map[string]any
		maxBytes int64
		wantMIME string // the part's Content-Type
		wantData []byte
		errText  string // set: an isError result and nothing sent
	}{
		{"pdf by extension", "create_issue_attachment", args("index", 3, "filename", "spec.pdf", "content", b64(pdf)), 0, "application/pdf", pdf, ""},
		{"png by its bytes", "create_issue_attachment", args("index", 3, "filename", "screenshot", "content", b64(pngData)), 0, "image/png", pngData, ""},
		{"text by its bytes", "create_comment_attachment", args("comment_id", 7, "filename", "notes", "content", b64([]byte("plain words\n"))), 0, "text/plain; charset=utf-8", []byte("plain words\n"), ""},
		{"explicit type wins", "create_issue_attachment", args("index", 3, "filename", "data.bin", "content", b64(pdf), "mime_type", "Application/PDF"), 0, "application/pdf", pdf, ""},
		{"unicode name", "create_issue_attachment", args("index", 3, "filename", "Übersicht März.pdf", "content", b64(pdf)), 0, "application/pdf", pdf, ""},
		{"exactly the limit", "create_issue_attachment", args("index", 3, "filename", "s.pdf", "content", b64(pdf)), int64(len(pdf)), "application/pdf", pdf, ""},
		{"over the limit", "create_issue_attachment", args("index", 3, "filename", "s.pdf", "content", b64(pdf)), int64(len(pdf)) - 1, "", nil, "the upload limit is 1999 bytes (the server's --max-upload-bytes)"},
		{"bad base64", "create_issue_attachment", args("index", 3, "filename", "s.pdf", "content", "not base64!"), 0, "", nil, "content is not valid base64"},
		{"empty file", "create_issue_attachment", args("index", 3, "filename", "s.pdf", "content", ""), 0, "", nil, `argument "content" must not be empty`},
		{"only padding", "create_issue_attachment", args("index", 3, "filename", "s.pdf", "content", "===="), 0, "", nil, "not valid base64"},
		{"missing filename", "create_issue_attachment", args("index", 3, "content", b64(pdf)), 0, "", nil, `missing required argument "filename"`},
		{"blank filename", "create_issue_attachment", args("index", 3, "filename", "  ", "content", b64(pdf)), 0, "", nil, `argument "filename" must not be empty`},
		{"path as filename", "create_issue_attachment", args("index", 3, "filename", "../etc/passwd", "content", b64(pdf)), 0, "", nil, "must be a plain file name"},
		{"filename over 255 bytes", "create_issue_attachment", args("index", 3, "filename", strings.Repeat("a", 252)+".pdf", "content", b64(pdf)), 0, "", nil, "filename is 256 bytes long; at most 255 are allowed"},
		{"mime type over 255 bytes", "create_issue_attachment", args("index", 3, "filename", "a.pdf", "content", b64(pdf), "mime_type", "application/"+strings.Repeat("x", 250)), 0, "", nil, "mime_type is 262 bytes long"},
		{"line break in filename", "create_issue_attachment", args("index", 3, "filename", "a\nb.pdf", "content", b64(pdf)), 0, "", nil, "control characters"},
		{"bad mime type", "create_issue_attachment", args("index", 3, "filename", "a.pdf", "content", b64(pdf), "mime_type", "pdf"), 0, "", nil, `mime_type "pdf" is not a MIME type`},
		{"negative comment id", "create_comment_attachment", args("comment_id", -7, "filename", "a.pdf", "content", b64(pdf)), 0, "", nil, `argument "comment_id" must be at least 1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newForge(t)
			c := f.Client()
			if tt.maxBytes > 0 {
				c = c.WithMaxUpload(tt.maxBytes)
			}
			res := f.callWith(t, c, tt.tool, tt.args)
			up, sent := f.lastUpload()
			if tt.errText != "" {
				require.True(t, res.IsError)
				assert.Contains(t, textOf(t, res), tt.errText)
				assert.False(t, sent, "nothing reached the forge")
				assert.Empty(t, f.Requests())
				return
			}
			require.False(t, res.IsError, textOf(t, res))
			require.True(t, sent)
			assert.Equal(t, "attachment", up.Field)
			assert.Equal(t, tt.args["filename"], up.Filename)
			assert.Equal(t, tt.args["filename"], up.Name, "?name= carries the exact name")
			assert.Equal(t, tt.wantMIME, up.ContentType)
			assert.Equal(t, tt.wantData, up.Data)
			var got sdk.Attachment
			require.NoError(t, json.Unmarshal([]byte(textOf(t, res)), &got))
			assert.Equal(t, tt.args["filename"], got.Name)
			assert.Equal(t, int64(len(tt.wantData)), got.Size)
		})
	}
}

func TestEditAndDelete(t *testing.T) {
	f := newForge(t)
	a := f.add("comment/7", "old.txt", []byte("x"))
	res := f.call(t, "edit_comment_attachment", args("comment_id", 7, "attachment_id", a.ID, "name", "new.txt"))
	require.False(t, res.IsError, textOf(t, res))
	assert.Contains(t, textOf(t, res), `"name":"new.txt"`, "a 201 answer is success")
	last := f.Requests()[len(f.Requests())-1]
	assert.Equal(t, http.MethodPatch, last.Method)
	assert.JSONEq(t, `{"name":"new.txt"}`, string(last.Body))

	for _, tt := range []struct {
		name, tool string
		args       map[string]any
		isError    bool
		want       string
	}{
		{"rename to a path", "edit_comment_attachment", args("comment_id", 7, "attachment_id", a.ID, "name", "a/b"), true, "must be a plain file name"},
		{"rename a missing one", "edit_issue_attachment", args("index", 3, "attachment_id", 42, "name", "x"), true, "attachment 42 not found on issue o/r#3"},
		{"delete", "delete_comment_attachment", args("comment_id", 7, "attachment_id", a.ID), false, `{"deleted":true,"id":` + itoa(a.ID) + `}`},
		{"delete again", "delete_comment_attachment", args("comment_id", 7, "attachment_id", a.ID), true, "attachment " + itoa(a.ID) + " not found on comment 7 in o/r"},
		{"list after delete", "list_comment_attachments", args("comment_id", 7), false, `"items":[]`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := f.call(t, tt.tool, tt.args)
			assert.Equal(t, tt.isError, res.IsError)
			assert.Contains(t, textOf(t, res), tt.want)
		})
	}
}
