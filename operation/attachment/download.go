package attachment

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"path"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// downloaded is the text part of a download result. The metadata, with
// browser_download_url, is always there; the rest describes the bytes that
// follow as a blob, or says why there are none.
type downloaded struct {
	Attachment *sdk.Attachment `json:"attachment"`
	Inline     bool            `json:"inline"`
	MIMEType   string          `json:"mime_type,omitempty"`
	Bytes      int             `json:"bytes,omitempty"`
	SHA256     string          `json:"sha256,omitempty"` // of the bytes in this result
	// A window of the file (offset or max_bytes given): where it starts,
	// the file's size, and where the next window starts until the end.
	Offset     *int64 `json:"offset,omitempty"`
	Total      int64  `json:"total,omitempty"`
	NextOffset *int64 `json:"next_offset,omitempty"`
	Note       string `json:"note,omitempty"`
}

func (s scope) download(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	att, err := s.fetch(ctx, c, a, "download")
	if err != nil {
		return nil, err
	}
	return Download(ctx, c, a, att, s.subject(a), s.name("download"))
}

// Download answers a download tool call for att, whose metadata the caller
// has fetched: the metadata, then the bytes (whole up to
// MaxInlineDownloadBytes, or the window that the offset and max_bytes
// arguments in a ask for) as a blob, and an image when they are one.
// subject names the attachment's parent in messages ("release 3 in o/r");
// toolName is the download tool, named in the note about large files.
// Release attachments are downloaded through it too.
func Download(ctx context.Context, c *forgejo.Client, a tool.Args, att *sdk.Attachment, subject, toolName string) (*mcp.CallToolResult, error) {
	out := downloaded{Attachment: att}
	window := a.Has("offset") || a.Has("max_bytes")
	offset, maxBytes := a.Int("offset"), a.Int("max_bytes")
	if maxBytes == 0 {
		maxBytes = MaxInlineDownloadBytes
	}
	if !window && att.Size > MaxInlineDownloadBytes {
		// Nothing is fetched, so download_count is not bumped either.
		out.Note = fmt.Sprintf("%d bytes is over the %d-byte inline limit, so no bytes are included: call %s again "+
			"with offset 0 (and max_bytes up to %d) to read it in windows, following next_offset; or fetch "+
			"browser_download_url with the forge token", att.Size, MaxInlineDownloadBytes, toolName, MaxInlineDownloadBytes)
		return tool.JSON(out)
	}
	if window && offset > 0 && offset >= att.Size {
		return nil, fmt.Errorf("offset %d is at or past the end of attachment %d (%d bytes); the last window starts before %d",
			offset, att.ID, att.Size, att.Size)
	}
	link, note, err := downloadURL(c, att)
	if err != nil {
		return nil, fmt.Errorf("download attachment %d of %s: %w", att.ID, subject, err)
	}
	opt := forgejo.RawOptions{MaxBytes: MaxInlineDownloadBytes}
	if window && att.Size > 0 {
		length := min(maxBytes, att.Size-offset)
		opt = forgejo.RawOptions{MaxBytes: length, Offset: offset, Length: length, MaxSkip: maxSkipBytes}
	}
	raw, err := c.DoRaw(ctx, link, opt)
	switch {
	case errors.Is(err, forgejo.ErrResponseTooLarge):
		return nil, fmt.Errorf("attachment %d of %s is larger than its metadata says (over %d bytes); read it in windows with offset and max_bytes",
			att.ID, subject, opt.MaxBytes)
	case err != nil:
		return nil, forgejo.Relabel(err, "download", fmt.Sprintf("attachment %d of %s", att.ID, subject))
	}

	body := raw.Body
	total := raw.Total
	if total < 0 {
		total = att.Size
	}
	tool.Progress(ctx, offset+int64(len(body)), total)
	whole := offset == 0 && int64(len(body)) == total
	mt := contentType(att.Name, raw.ContentType, body, offset == 0)
	sum := sha256.Sum256(body)
	out.Inline, out.MIMEType, out.Bytes, out.SHA256 = true, mt, len(body), hex.EncodeToString(sum[:])
	out.Note = note
	uri := absolute(c, link)
	if window {
		out.Offset, out.Total = &offset, total
		if next := offset + int64(len(body)); next < total && len(body) > 0 {
			out.NextOffset = &next
		}
		if !whole {
			uri += fmt.Sprintf("#bytes=%d-%d", offset, offset+int64(len(body))-1)
		}
	}
	res, err := tool.JSON(out)
	if err != nil {
		return nil, err
	}
	res.Content = append(res.Content, tool.Blob(uri, mt, body))
	if it, ok := tool.ImageType(body); ok && whole {
		res.Content = append(res.Content, tool.Image(it, body))
	}
	return res, nil
}

// downloadURL picks where to fetch the bytes: browser_download_url when it
// is one of the forge's attachment download routes on the configured
// origin and base path (forgejo.Client.AttachmentURL), else
// attachments/{uuid} built from the UUID on that origin. A forge whose
// ROOT_URL differs from the URL this server was given (a proxy, a docker
// port) then still works, the token is never sent to the origin the forge
// named, and a URL that points elsewhere on the forge (an external release
// attachment set to /api/v1/admin/users) is never fetched with the token.
// note says why browser_download_url was not used, "" when it was.
func downloadURL(c *forgejo.Client, att *sdk.Attachment) (link, note string, err error) {
	if link, ok := c.AttachmentURL(att.DownloadURL); ok {
		return link, "", nil
	}
	if forgejo.IsAttachmentUUID(att.UUID) {
		return "attachments/" + att.UUID, "browser_download_url is not one of the forge's attachment download routes " +
			"under its configured URL, so it was not fetched; the bytes come from attachments/{uuid}", nil
	}
	return "", "", errNoDownloadURL
}

// absolute returns link as an absolute URL on the forge, the blob's URI.
func absolute(c *forgejo.Client, link string) string {
	if u, err := url.Parse(link); err == nil && u.IsAbs() {
		return link
	}
	return c.BaseURL().JoinPath(link).String()
}

// contentType decides the MIME type a blob is labelled with. An image is
// recognised by its bytes; otherwise the forge's Content-Type wins unless
// it is the uninformative application/octet-stream, then the name's
// extension, then (at the file's start) the bytes themselves.
func contentType(name, served string, data []byte, atStart bool) string {
	if atStart {
		if it, ok := tool.ImageType(data); ok {
			return it
		}
	}
	if mt, _, err := mime.ParseMediaType(served); err == nil && mt != "application/octet-stream" {
		return mt
	}
	if mt, _, err := mime.ParseMediaType(mime.TypeByExtension(path.Ext(name))); err == nil {
		return mt
	}
	if atStart && len(data) > 0 {
		mt, _, _ := mime.ParseMediaType(http.DetectContentType(data))
		return mt
	}
	return "application/octet-stream"
}
