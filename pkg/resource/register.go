package resource

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// readKey is where the hook leaves a read's outcome for the handler, in
// the request's _meta. A client cannot forge it: the hook overwrites the
// key, and the handler only accepts a *readOutcome, which no JSON decodes
// to.
const readKey = "forgejo-mcp/read"

type readOutcome struct {
	contents []mcp.ResourceContents
	err      *ReadError
}

// Register offers rd's templates on s. mcp-go v1.2.1 answers every error a
// resource handler returns with -32603 (internal error) and keeps the
// resource-not-found code (-32002 before 2026-07-28, -32602 from it) for
// a URI that matches no template. So the read runs in a before-read hook:
// when it finds nothing (a malformed URI, a refused argument, a forge
// 404, another scheme), the hook rewrites the request's URI into
// "<uri>: <reason>", a text with spaces that no template matches, and
// mcp-go answers with the not-found code and that text inside its own
// wording, which the transports take off (notfound.go). Otherwise the hook leaves the outcome for
// the handler and the URI without its query (which mcp-go's template
// matching does not parse reliably), and the handler answers it: contents,
// or -32603 with the reason for any other failure.
func (rd *Reader) Register(s *server.MCPServer, hooks *server.Hooks) {
	if len(rd.templates) == 0 {
		return
	}
	hooks.AddBeforeReadResource(rd.beforeRead)
	// A request narrowed to some tools lists only the templates it can
	// read (a read of another is refused by Read).
	hooks.AddAfterListResourceTemplates(func(ctx context.Context, _ any, _ *mcp.ListResourceTemplatesRequest, res *mcp.ListResourceTemplatesResult) {
		if res == nil {
			return
		}
		res.ResourceTemplates = slices.DeleteFunc(res.ResourceTemplates, func(t mcp.ResourceTemplate) bool {
			return t.URITemplate == nil || !rd.Visible(ctx, t.URITemplate.Raw())
		})
	})
	ts := make([]server.ServerResourceTemplate, 0, len(rd.templates))
	for _, t := range rd.templates {
		ts = append(ts, server.ServerResourceTemplate{Template: t.MCP(), Handler: rd.handle})
	}
	s.AddResourceTemplates(ts...)
}

func (rd *Reader) beforeRead(ctx context.Context, _ any, req *mcp.ReadResourceRequest) {
	if req == nil {
		return
	}
	uri := req.Params.URI
	shown := func() string { return forgejo.Clip(rd.runner.Redact(ctx, tool.EscapeInvisible(uri))) }
	if !strings.HasPrefix(uri, Scheme+"://") {
		req.Params.URI = shown() + ": not a " + Scheme + ":// URI; this server reads only those of resources/templates/list"
		return
	}
	contents, err := rd.Read(ctx, uri)
	if err != nil {
		re := asReadError(err)
		if re.NotFound {
			req.Params.URI = shown() + ": " + re.Msg
			return
		}
		rd.stash(req, &readOutcome{err: re})
	} else {
		rd.stash(req, &readOutcome{contents: contents})
	}
	if t, perr := Parse(uri); perr == nil {
		args := maps.Clone(t.Args)
		for _, q := range []string{"ref", "offset", "max_bytes"} {
			delete(args, q)
		}
		req.Params.URI = URI(t.Kind, args)
	}
}

func (rd *Reader) stash(req *mcp.ReadResourceRequest, o *readOutcome) {
	meta := &mcp.Meta{AdditionalFields: map[string]any{}}
	if req.Params.Meta != nil {
		meta.ProgressToken = req.Params.Meta.ProgressToken
		maps.Copy(meta.AdditionalFields, req.Params.Meta.AdditionalFields)
	}
	meta.AdditionalFields[readKey] = o
	req.Params.Meta = meta
}

func (rd *Reader) handle(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	if m := req.Params.Meta; m != nil {
		if o, ok := m.AdditionalFields[readKey].(*readOutcome); ok {
			if o.err != nil {
				return nil, o.err
			}
			return o.contents, nil
		}
	}
	// Not reached through the server (the hook always runs first); read
	// directly.
	return rd.Read(ctx, req.Params.URI)
}
