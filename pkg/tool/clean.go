package tool

import (
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"
)

// Clean escapes invisible characters in, then applies redact to, every
// string res carries to the client: text content, the URI, MIME type and
// text of embedded resources, resource links, image and audio MIME types,
// structured content and _meta. It is the Runner's one redaction step, so
// a string added to a result later (a blob's URI with the token in its
// query, a validation error echoing an argument) cannot bypass it; redact
// may be nil. Base64 payloads (image, audio, blob data) are left alone:
// they are the bytes themselves.
func Clean(res *mcp.CallToolResult, redact func(string) string) {
	clean := func(s string) string {
		s = EscapeInvisible(s)
		if redact != nil {
			s = redact(s)
		}
		return s
	}
	for i, c := range res.Content {
		res.Content[i] = cleanOne(c, clean)
	}
	if res.StructuredContent != nil {
		res.StructuredContent = cleanJSON(res.StructuredContent, clean)
	}
	if res.Meta != nil && len(res.Meta.AdditionalFields) > 0 {
		for k, v := range res.Meta.AdditionalFields {
			res.Meta.AdditionalFields[k] = cleanJSON(v, clean)
		}
	}
}

func cleanOne(c mcp.Content, clean func(string) string) mcp.Content {
	switch v := c.(type) {
	case mcp.TextContent:
		v.Text = clean(v.Text)
		return v
	case *mcp.TextContent:
		v.Text = clean(v.Text)
	case mcp.ImageContent:
		v.MIMEType = clean(v.MIMEType)
		return v
	case *mcp.ImageContent:
		v.MIMEType = clean(v.MIMEType)
	case mcp.AudioContent:
		v.MIMEType = clean(v.MIMEType)
		return v
	case *mcp.AudioContent:
		v.MIMEType = clean(v.MIMEType)
	case mcp.ResourceLink:
		cleanLink(&v, clean)
		return v
	case *mcp.ResourceLink:
		cleanLink(v, clean)
	case mcp.EmbeddedResource:
		v.Resource = cleanResource(v.Resource, clean)
		return v
	case *mcp.EmbeddedResource:
		v.Resource = cleanResource(v.Resource, clean)
	}
	return c
}

func cleanLink(l *mcp.ResourceLink, clean func(string) string) {
	l.URI, l.Name, l.Title = clean(l.URI), clean(l.Name), clean(l.Title)
	l.Description, l.MIMEType = clean(l.Description), clean(l.MIMEType)
}

func cleanResource(r mcp.ResourceContents, clean func(string) string) mcp.ResourceContents {
	switch v := r.(type) {
	case mcp.TextResourceContents:
		v.URI, v.MIMEType, v.Text = clean(v.URI), clean(v.MIMEType), clean(v.Text)
		return v
	case *mcp.TextResourceContents:
		v.URI, v.MIMEType, v.Text = clean(v.URI), clean(v.MIMEType), clean(v.Text)
	case mcp.BlobResourceContents:
		v.URI, v.MIMEType = clean(v.URI), clean(v.MIMEType)
		return v
	case *mcp.BlobResourceContents:
		v.URI, v.MIMEType = clean(v.URI), clean(v.MIMEType)
	}
	return r
}

// cleanJSON cleans a JSON-shaped value through its encoding: escapes are
// JSON escapes and the redaction marker is plain text, so the cleaned text
// is still the JSON of an equivalent value. A value that does not encode
// is dropped rather than sent uncleaned.
func cleanJSON(v any, clean func(string) string) any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return json.RawMessage(clean(string(b)))
}
