package attachment

import (
	"bytes"
	"context"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strings"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// The DTO is forgejo-sdk's Attachment: the issue, comment and release
// attachment JSON are the same seven fields, and reusing the SDK's struct
// means a field the SDK renames breaks the build, not the tools. The release
// routes go through DoJSON like the others (not the SDK's release calls), so
// all three scopes fail and probe alike.

func (s scope) list(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	route, err := s.assets(a)
	if err != nil {
		return nil, err
	}
	var out []*meta
	if err := c.DoJSON(ctx, http.MethodGet, route, nil, nil, &out); err != nil {
		// A 404 is not an empty list: the forge answers 200 [] for that.
		return nil, s.fail(ctx, c, a, err, "list attachments of")
	}
	// The forge answers every attachment at once: one page, nothing more.
	return tool.Items(tool.Map(out, (*meta).show), 1, false)
}

// meta is one attachment's metadata as the forge sends it, with the
// type Forgejo adds: "attachment", or "external" for a release asset that
// is only a link a repository writer set (Gitea sends none).
type meta struct {
	sdk.Attachment
	Type string `json:"type"`
}

// fetch reads one attachment's metadata.
func (s scope) fetch(ctx context.Context, c *forgejo.Client, a tool.Args, verb string) (*meta, error) {
	route, err := s.attachment(a)
	if err != nil {
		return nil, err
	}
	var att meta
	if err := c.DoJSON(ctx, http.MethodGet, route, nil, nil, &att); err != nil {
		return nil, s.fail(ctx, c, a, err, fmt.Sprintf("%s attachment %d of", verb, a.Int("attachment_id")))
	}
	return &att, nil
}

func (s scope) get(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	att, err := s.fetch(ctx, c, a, "get")
	if err != nil {
		return nil, err
	}
	return tool.JSON(att.show())
}

func (s scope) create(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	route, err := s.assets(a)
	if err != nil {
		return nil, err
	}
	att, err := upload(ctx, c, a, route, func(err error) error {
		return s.fail(ctx, c, a, err, fmt.Sprintf("attach %s to", a.String("filename")))
	})
	if err != nil {
		return nil, err
	}
	// The shape the other attachment tools answer with, whose name is
	// marked as a person's text (a new upload is never external).
	return tool.JSON(Show(att, ""))
}

// upload posts the file that a create tool call's content, filename and
// mime_type arguments describe to route, an attachment collection
// ("…/assets"). The arguments are checked first, so a bad upload is
// refused with a message saying why; a forge error goes through fail, which
// phrases it for the agent.
func upload(ctx context.Context, c *forgejo.Client, a tool.Args, route string, fail func(error) error) (*sdk.Attachment, error) {
	filename := a.String("filename")
	if err := CheckName("filename", filename); err != nil {
		return nil, err
	}
	mimeType, err := uploadType(a.String("mime_type"))
	if err != nil {
		return nil, err
	}
	// Decoded and size-checked before anything is sent: a bad upload is
	// refused here, not answered by the forge with a 500 or a corrupt file.
	data, err := tool.DecodeBase64("content", a.String("content"), c.MaxUploadBytes())
	if err != nil {
		return nil, err
	}
	if mimeType == "" {
		mimeType = inferType(filename, data)
	}
	var att sdk.Attachment
	// The name travels twice: in the part (what browsers send) and as
	// ?name=, which the forge prefers, so non-ASCII names arrive exactly.
	err = c.DoMultipart(ctx, http.MethodPost, route, url.Values{"name": {filename}}, forgejo.FilePart{
		Field: uploadField, Filename: filename, MIMEType: mimeType,
		Content: tool.ProgressReader(ctx, bytes.NewReader(data), int64(len(data))), Size: int64(len(data)),
	}, &att)
	if err != nil {
		return nil, fail(err)
	}
	return &att, nil
}

func (s scope) edit(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	name := a.String("name")
	if err := CheckName("name", name); err != nil {
		return nil, err
	}
	route, err := s.attachment(a)
	if err != nil {
		return nil, err
	}
	var att meta
	// Gitea answers a rename with 201 Created; any 2xx is success.
	if err := c.DoJSON(ctx, http.MethodPatch, route, nil, sdk.EditAttachmentOptions{Name: name}, &att); err != nil {
		return nil, s.fail(ctx, c, a, err, fmt.Sprintf("rename attachment %d of", a.Int("attachment_id")))
	}
	return tool.JSON(att.show())
}

func (s scope) delete(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	id := a.Int("attachment_id")
	route, err := s.attachment(a)
	if err != nil {
		return nil, err
	}
	if err := c.DoJSON(ctx, http.MethodDelete, route, nil, nil, nil); err != nil {
		return nil, s.fail(ctx, c, a, err, fmt.Sprintf("delete attachment %d of", id))
	}
	return tool.Deleted("id", id)
}

// uploadType validates an explicit mime_type; "" means infer it.
func uploadType(given string) (string, error) {
	if given == "" {
		return "", nil
	}
	if len(given) > maxNameBytes {
		return "", fmt.Errorf("mime_type is %d bytes long; at most %d are allowed", len(given), maxNameBytes)
	}
	mt, params, err := mime.ParseMediaType(given)
	if typ, sub, ok := strings.Cut(mt, "/"); err != nil || !ok || typ == "" || sub == "" || strings.Contains(sub, "/") {
		return "", fmt.Errorf("mime_type %q is not a MIME type; use a type/subtype such as application/pdf, or leave it out to infer it", given)
	}
	return mime.FormatMediaType(mt, params), nil
}

// inferType picks the MIME type sent with an upload: from the file name's
// extension, else from the first bytes (http.DetectContentType, which ends
// at application/octet-stream).
func inferType(filename string, data []byte) string {
	if t := mime.TypeByExtension(path.Ext(filename)); t != "" {
		return t
	}
	return http.DetectContentType(data)
}
