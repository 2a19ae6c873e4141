package attachment

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"path"
	"strings"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/bytesize"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// downloaded is the text part of a download result. The metadata, with
// browser_download_url, is always there; the rest describes the content
// that follows (content says which kind) or says why there is none.
type downloaded struct {
	Attachment *sdk.Attachment `json:"attachment"`
	Inline     bool            `json:"inline"`
	// Content is where the bytes are: "image" (image content), "text"
	// (a text file, as text), "blob" (an embedded blob resource).
	Content  string `json:"content,omitempty"`
	MIMEType string `json:"mime_type,omitempty"`
	Bytes    int    `json:"bytes,omitempty"`
	SHA256   string `json:"sha256,omitempty"` // of the bytes in this result
	// Set for a window of the file (offset or max_bytes given).
	tool.Window
	// PDF describes the PDF's text, which follows as a text content.
	PDF *pdftext.Info `json:"pdf,omitempty"`
	// ExternalURL is where an external release asset points; it is not
	// fetched.
	ExternalURL string `json:"external_url,omitempty"`
	Note        string `json:"note,omitempty"`
}

func (s scope) download(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	att, err := s.fetch(ctx, c, a, "download")
	if err != nil {
		return nil, err
	}
	if IsExternal(att.Type) {
		return external(&att.Attachment)
	}
	return Download(ctx, c, a, &att.Attachment, s.subject(a), s.name("download"), s.uriParent(a))
}

// external answers the download of an external release asset: Forgejo
// lets a repository writer make a release asset a link to any URL, the
// forge's own API included, and its download route redirects there
// (recorded on Forgejo 13.0.5: attachments/{uuid} answered 303 to
// /api/v1/user, and the downloader's token fetched the user's own record
// as "the file"). Its bytes are not the forge's, so nothing is fetched and
// the token goes nowhere: the agent gets the link and decides.
func external(att *sdk.Attachment) (*mcp.CallToolResult, error) {
	return tool.JSON(downloaded{Attachment: att, ExternalURL: att.DownloadURL,
		Note: "this release asset is external: a link set by a repository writer, not a file the forge holds, so it was " +
			"not fetched and the forge token was not sent; fetch external_url yourself only if you trust it"})
}

// Download answers a download tool call for att, whose metadata the caller
// has fetched: the metadata, then the bytes (whole up to the call's inline
// cap, tool.InlineCap: 1 MiB unless the server or the request lowered it;
// or the window that the offset and max_bytes arguments in a ask for) in
// the form an agent reads best: a whole image as image content, a whole
// text file that fits tool.TextBudget as text, anything else as a blob
// named by its forgejo:// URI; a PDF (up to MaxPDFBytes) also as its text,
// the pages argument choosing the pages. subject names the attachment's
// parent in messages ("release 3 in o/r"); toolName is the download tool,
// named in the note about large files; parent is the parent's part of the
// resource URI ("issues/3").
func Download(ctx context.Context, c *forgejo.Client, a tool.Args, att *sdk.Attachment, subject, toolName, parent string) (*mcp.CallToolResult, error) {
	out := downloaded{Attachment: att}
	limit := tool.InlineCap(ctx)
	window := a.Has("offset") || a.Has("max_bytes")
	offset, maxBytes := a.Int("offset"), a.Int("max_bytes")
	if maxBytes > limit {
		return nil, tool.WindowOverCap(maxBytes, limit)
	}
	if maxBytes == 0 {
		maxBytes = limit
	}
	wantPages := a.Has("pages")
	if wantPages && window {
		return nil, fmt.Errorf("invalid arguments: pages reads a PDF's text from the whole file; leave out offset and max_bytes, or pages")
	}
	textOnly := a.Bool("text_only")
	if textOnly && window {
		return nil, fmt.Errorf("invalid arguments: text_only reads a PDF's text from the whole file; leave out offset and max_bytes, or text_only")
	}
	// Whole, a file comes up to the inline cap; a larger PDF as its text
	// alone.
	bigPDF := !window && att.Size > limit && strings.EqualFold(path.Ext(att.Name), ".pdf") && att.Size <= MaxPDFBytes
	if !window && att.Size > limit && !bigPDF {
		if wantPages {
			return nil, fmt.Errorf("%s (%d bytes) is not a PDF of at most %d bytes, so it has no pages to read; leave out pages",
				att.Name, att.Size, MaxPDFBytes)
		}
		// Nothing is fetched, so download_count is not bumped either.
		out.Note = overInline(att.Size, limit, toolName)
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
	opt := forgejo.RawOptions{MaxBytes: limit}
	switch {
	case bigPDF:
		opt.MaxBytes = MaxPDFBytes
	case window && att.Size > 0:
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
	mt := tool.BlobType(ContentType(att.Name, raw.ContentType, body, offset == 0), body)
	out.MIMEType, out.Note = mt, note
	var pdfText *mcp.TextContent
	if whole && pdftext.IsPDF(body) {
		info, text, ok, err := pdftext.Read(ctx, body, a.String("pages"))
		if err != nil {
			return nil, err
		}
		out.PDF = &info
		if ok {
			tc := mcp.NewTextContent(text)
			pdfText = &tc
		}
	} else if wantPages {
		return nil, fmt.Errorf("%s is not a PDF (%s), so it has no pages to read; leave out pages", att.Name, mt)
	}
	if bigPDF {
		// The text, not the bytes: they are over the inline cap.
		if out.PDF == nil {
			out.PDF = &pdftext.Info{Note: "no text: the name says PDF, the bytes do not"}
		}
		what := "only the text is included"
		if pdfText == nil {
			what = "no bytes are included"
		}
		out.Note = strings.TrimSpace(out.Note + fmt.Sprintf(" %d bytes is over the %s one result carries inline, so %s: "+
			"read the bytes in windows with offset and max_bytes", att.Size, bytesize.Text(limit), what))
		return withText(out, pdfText)
	}
	sum := sha256.Sum256(body)
	if textOnly && pdfText != nil {
		out.Note = strings.TrimSpace(out.Note + " text_only: the PDF's bytes are left out; call again without text_only for them")
		return withText(out, pdfText)
	}
	if textOnly {
		out.Note = strings.TrimSpace(out.Note + " text_only: no text could be extracted, so the bytes are included")
	}
	out.Inline, out.Bytes, out.SHA256 = true, len(body), hex.EncodeToString(sum[:])
	if window {
		out.Offset, out.Total = &offset, total
		if next := offset + int64(len(body)); next < total && len(body) > 0 {
			out.NextOffset = &next
		}
	}
	uri := ResourceURI(a.String("owner"), a.String("repo"), parent, att.ID, offset, int64(len(body)), window && !whole)
	kind, content, note := Carry(body, mt, uri, whole, whole && !window && out.PDF == nil)
	out.Content, out.Note = kind, strings.TrimSpace(out.Note+" "+note)
	res, err := withText(out, pdfText)
	if err != nil {
		return nil, err
	}
	res.Content = append(res.Content, content)
	return res, nil
}

// Carry is how a download result carries body, a file's bytes labelled
// mt: as image content when it is the whole file (whole) and an image; as
// text when it may be (asText: the whole file, not asked for as a window
// nor read as a PDF), reads as text and fits tool.TextBudget; else as a
// blob named uri. note says why a text file came as a blob, or is "".
func Carry(body []byte, mt, uri string, whole, asText bool) (kind string, content mcp.Content, note string) {
	text := asText && tool.IsText(body)
	switch it, isImage := tool.ImageType(body); {
	case whole && isImage:
		return "image", tool.Image(it, body), ""
	case text && tool.JSONLen(string(body)) <= tool.TextBudget:
		return "text", mcp.NewTextContent(string(body)), ""
	}
	if text {
		// Whole as text it would be over the text one result carries
		// (tool.MaxResultBytes): its bytes come as the blob.
		note = fmt.Sprintf("a text file over the %s one result carries as text: its exact bytes are the blob", bytesize.Text(tool.TextBudget))
	}
	return "blob", tool.Blob(uri, mt, body), note
}

// overInline is the note of a download left out for its size.
func overInline(size, limit int64, toolName string) string {
	return fmt.Sprintf("%d bytes is over the %s one result carries inline, so no bytes are included: call %s again "+
		"with offset 0 to read it in windows of up to %s (max_bytes), following next_offset; "+
		"or fetch browser_download_url with the forge token",
		size, bytesize.Text(limit), toolName, bytesize.Text(limit))
}

// withText is the JSON of out, followed by text when there is some.
func withText(out downloaded, text *mcp.TextContent) (*mcp.CallToolResult, error) {
	res, err := tool.JSON(out)
	if err != nil {
		return nil, err
	}
	if text != nil {
		res.Content = append(res.Content, *text)
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

// ContentType decides the MIME type a blob is labelled with. An image is
// recognised by its bytes; otherwise the forge's Content-Type wins unless
// it is the uninformative application/octet-stream, then the name's
// extension, then (at the file's start) the bytes themselves.
func ContentType(name, served string, data []byte, atStart bool) string {
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
