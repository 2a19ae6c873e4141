package resource

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// commentsPerIssue is how many comments an issue resource carries: one
// page of list_issue_comments at its largest limit.
const commentsPerIssue = 50

// Reader reads resources by running the tools they map to through a
// Runner, with the definitions the server offers (over HTTP, those whose
// handlers run under the request's deadline).
type Reader struct {
	runner    *tool.Runner
	defs      map[string]tool.Def
	templates []Template
}

// NewReader returns a Reader over the offered tools defs.
func NewReader(defs []tool.Def, r *tool.Runner) *Reader {
	byName := make(map[string]tool.Def, len(defs)+1)
	offered := make(map[string]bool, len(defs))
	for _, d := range defs {
		byName[d.Name] = d
		offered[d.Name] = true
	}
	if d, ok := byName["get_file_content"]; ok {
		byName[fileTool] = fileDef(d.Toolset)
	}
	return &Reader{runner: r, defs: byName, templates: Offered(offered)}
}

// Templates returns the templates this reader serves.
func (rd *Reader) Templates() []Template { return rd.templates }

// selectedAs is the offered tool whose selection the definition name
// follows: itself, or get_file_content for the file resource's own.
func selectedAs(name string) string {
	if name == fileTool {
		return "get_file_content"
	}
	return name
}

// offers reports whether a read for ctx's request may run the definition
// name: the server offers it and the request is not narrowed away from it.
func (rd *Reader) offers(ctx context.Context, name string) bool {
	_, ok := rd.defs[name]
	return ok && tool.Allowed(ctx, selectedAs(name))
}

// Visible reports whether ctx's request can read the template uri (as
// resources/templates/list shows it): the server offers it and the
// request is not narrowed away from the tool it reads with.
func (rd *Reader) Visible(ctx context.Context, uri string) bool {
	for _, t := range rd.templates {
		if t.URI == uri {
			return tool.Allowed(ctx, selectedAs(t.Tool))
		}
	}
	return false
}

// ReadError is a failed read. NotFound marks a URI that names nothing this
// server can read (a malformed URI, an argument the tool refuses, a forge
// 404), which the protocol reports with its resource-not-found code;
// anything else (a 403, a forge failure, a result over the limit) is an
// internal error. Msg is already escaped and redacted.
type ReadError struct {
	NotFound bool
	Msg      string
}

func (e *ReadError) Error() string { return e.Msg }

// Read reads uri: it parses it, runs the tool calls its kind maps to, and
// converts their results to resource contents.
func (rd *Reader) Read(ctx context.Context, uri string) ([]mcp.ResourceContents, error) {
	t, err := Parse(uri)
	if err != nil {
		return nil, &ReadError{NotFound: true, Msg: rd.runner.Redact(ctx, tool.EscapeInvisible("invalid resource URI: "+err.Error()))}
	}
	switch t.Kind {
	case KindIssue:
		return rd.issue(ctx, uri, t)
	case KindIssueAttachment, KindCommentAttachment, KindReleaseAttachment:
		if _, ok := t.Args["offset"]; !ok {
			// A whole file up to the inline limit comes back as the
			// first window; a larger one as its first MiB, with where
			// the next window starts, rather than no bytes at all.
			t.Args["offset"] = int64(0)
		}
		// Without max_bytes, a window is the inline cap (1 MiB unless
		// the server or the request lowered it), as for a tool call.
		res, err := rd.call(ctx, rd.tool(t.Kind), t.Args)
		if err != nil {
			return nil, err
		}
		return withNextWindow(convert(uri, res), t), nil
	}
	res, err := rd.call(ctx, rd.tool(t.Kind), t.Args)
	if err != nil {
		return nil, err
	}
	return convert(uri, res), nil
}

// tool is the definition a kind's read runs.
func (rd *Reader) tool(k Kind) string {
	for _, t := range Templates() {
		if t.Kind == k {
			return t.Tool
		}
	}
	return ""
}

// call runs the tool named name through the Runner. The handler is
// wrapped only to learn whether the forge answered 404, which decides the
// protocol error; the result, escaped and redacted, is the Runner's.
func (rd *Reader) call(ctx context.Context, name string, args map[string]any) (*mcp.CallToolResult, error) {
	d, ok := rd.defs[name]
	switch {
	case !ok:
		return nil, &ReadError{NotFound: true, Msg: fmt.Sprintf("this server does not offer %s, which this resource is read with (see --toolsets)", name)}
	case !tool.Allowed(ctx, selectedAs(name)):
		return nil, &ReadError{NotFound: true, Msg: fmt.Sprintf("this request is narrowed to tools without %s, which this resource is read with (see its X-MCP-* headers)", selectedAs(name))}
	}
	notFound := false
	inner := d.Handler
	d.Handler = func(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
		res, err := inner(ctx, c, a)
		notFound = forgejo.IsNotFound(err)
		return res, err
	}
	parsed := true
	if _, err := d.Parse(args); err != nil {
		parsed = false // the Runner refuses it with the same text
	}
	res := rd.runner.Call(ctx, d, args)
	if res.IsError {
		return nil, &ReadError{NotFound: notFound || !parsed, Msg: firstText(res)}
	}
	return res, nil
}

// issue is the issue and its first page of comments, as one JSON object.
func (rd *Reader) issue(ctx context.Context, uri string, t Target) ([]mcp.ResourceContents, error) {
	issue, err := rd.call(ctx, "get_issue_by_index", t.Args)
	if err != nil {
		return nil, err
	}
	out := map[string]json.RawMessage{"issue": json.RawMessage(firstText(issue))}
	if rd.offers(ctx, "list_issue_comments") {
		args := maps.Clone(t.Args)
		args["limit"] = int64(commentsPerIssue)
		comments, err := rd.call(ctx, "list_issue_comments", args)
		if err != nil {
			return nil, err
		}
		out["comments"] = json.RawMessage(firstText(comments))
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, &ReadError{Msg: "encoding the issue resource: " + err.Error()}
	}
	return []mcp.ResourceContents{mcp.TextResourceContents{URI: uri, MIMEType: "application/json", Text: string(b)}}, nil
}

// convert turns a tool result into resource contents named uri: text as
// text (application/json when it is JSON), embedded resources as they are,
// and an image or audio as a blob unless a blob of the same bytes is
// already there.
func convert(uri string, res *mcp.CallToolResult) []mcp.ResourceContents {
	out := make([]mcp.ResourceContents, 0, len(res.Content))
	blobs := map[string]bool{}
	for _, c := range res.Content {
		if e, ok := c.(mcp.EmbeddedResource); ok {
			if b, ok := e.Resource.(mcp.BlobResourceContents); ok {
				blobs[b.Blob] = true
			}
		}
	}
	for _, c := range res.Content {
		switch v := c.(type) {
		case mcp.TextContent:
			mt := "text/plain"
			if json.Valid([]byte(v.Text)) {
				mt = "application/json"
			}
			out = append(out, mcp.TextResourceContents{URI: uri, MIMEType: mt, Text: v.Text})
		case mcp.EmbeddedResource:
			switch r := v.Resource.(type) {
			case mcp.TextResourceContents:
				r.URI = uri
				out = append(out, r)
			case mcp.BlobResourceContents:
				r.URI = uri
				out = append(out, r)
			}
		case mcp.ImageContent:
			if !blobs[v.Data] {
				out = append(out, mcp.BlobResourceContents{URI: uri, MIMEType: v.MIMEType, Blob: v.Data})
			}
		case mcp.AudioContent:
			if !blobs[v.Data] {
				out = append(out, mcp.BlobResourceContents{URI: uri, MIMEType: v.MIMEType, Blob: v.Data})
			}
		}
	}
	return out
}

// withNextWindow finishes an attachment's contents: its JSON metadata
// (the first JSON text) gains next_uri, the URI of the next window, when
// the download says where that starts, and a file the download returned as
// text is labelled with the file's MIME type rather than text/plain.
func withNextWindow(contents []mcp.ResourceContents, t Target) []mcp.ResourceContents {
	for i, c := range contents {
		tc, ok := c.(mcp.TextResourceContents)
		if !ok || tc.MIMEType != "application/json" {
			continue
		}
		var meta map[string]any
		if json.Unmarshal([]byte(tc.Text), &meta) != nil {
			continue
		}
		if next, ok := meta["next_offset"].(float64); ok {
			args := maps.Clone(t.Args)
			args["offset"] = int64(next)
			// Appended to the tool's own JSON, which keeps its field
			// order, and without HTML escaping, so '&' stays '&'.
			var b strings.Builder
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(URI(t.Kind, args)); err == nil && strings.HasSuffix(tc.Text, "}") {
				tc.Text = strings.TrimSuffix(tc.Text, "}") + `,"next_uri":` + strings.TrimSpace(b.String()) + "}"
				contents[i] = tc
			}
		}
		mt, _ := meta["mime_type"].(string)
		if meta["content"] == "text" && mt != "" && i+1 < len(contents) {
			if file, ok := contents[i+1].(mcp.TextResourceContents); ok {
				file.MIMEType = mt
				contents[i+1] = file
			}
		}
		break
	}
	return contents
}

func firstText(res *mcp.CallToolResult) string {
	for _, c := range res.Content {
		if t, ok := c.(mcp.TextContent); ok {
			return t.Text
		}
	}
	return ""
}

// BlobBytes decodes a blob's base64, for tests and measurements.
func BlobBytes(c mcp.BlobResourceContents) ([]byte, error) {
	return base64.StdEncoding.DecodeString(c.Blob)
}

// asReadError returns err as a *ReadError, wrapping any other error as an
// internal one.
func asReadError(err error) *ReadError {
	var re *ReadError
	if errors.As(err, &re) {
		return re
	}
	return &ReadError{Msg: err.Error()}
}
