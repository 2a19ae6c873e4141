package mcpserver

import (
	"context"
	"log/slog"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/redact"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// MCP logging: a client that sets a level (logging/setLevel under
// 2025-11-25, the request's own level under 2026-07-28, which mcp-go
// reads) receives the server's log records about its own requests at or
// above that level as notifications/message. Only records logged with a
// request's context are sent, and only to the session of that request, so
// over HTTP nobody receives another user's records; every string is
// redacted with the request's token first, as on stderr.

func loggingOptions() []server.ServerOption { return []server.ServerOption{server.WithLogging()} }

// withLogging makes r's logger also send its records to the client whose
// request they are about.
func withLogging(s *server.MCPServer, r *tool.Runner) {
	next := slog.DiscardHandler
	if r.Logger != nil {
		next = r.Logger.Handler()
	}
	r.Logger = slog.New(&notifyHandler{next: next, srv: s, redact: r.Redact})
}

type notifyHandler struct {
	next   slog.Handler
	srv    *server.MCPServer
	redact func(context.Context, string) string
	attrs  []slog.Attr
}

// Enabled is true for a record stderr takes, and for any record about a
// client's request: the client's level is checked when sending.
func (h *notifyHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.next.Enabled(ctx, l) || server.ClientSessionFromContext(ctx) != nil
}

func (h *notifyHandler) Handle(ctx context.Context, rec slog.Record) error {
	var err error
	if h.next.Enabled(ctx, rec.Level) {
		err = h.next.Handle(ctx, rec)
	}
	lvl := level(rec.Level)
	if !wants(ctx, lvl) {
		return err
	}
	clean := func(s string) string { return redact.String(h.redact(ctx, s), redact.Secrets(ctx)...) }
	data := map[string]any{"msg": clean(rec.Message)}
	add := func(a slog.Attr) bool {
		data[a.Key] = clean(a.Value.Resolve().String())
		return true
	}
	for _, a := range h.attrs {
		add(a)
	}
	rec.Attrs(add)
	// mcp-go checks the client's level and drops what is below it (or
	// everything, when a 2026-07-28 request asked for no logs).
	if h.srv.SendLogMessageToClient(ctx, mcp.NewLoggingMessageNotification(lvl, "forgejo-mcp", data)) == nil {
		tool.AwaitDelivery(ctx)
	}
	return err
}

func (h *notifyHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &notifyHandler{next: h.next.WithAttrs(attrs), srv: h.srv, redact: h.redact, attrs: append(h.attrs[:len(h.attrs):len(h.attrs)], attrs...)}
}

// WithGroup keeps the group for stderr; notifications carry flat keys.
func (h *notifyHandler) WithGroup(name string) slog.Handler {
	return &notifyHandler{next: h.next.WithGroup(name), srv: h.srv, redact: h.redact, attrs: h.attrs}
}

// wants says whether the client of ctx's request asked for records at l:
// the request's own level under 2026-07-28, the session's (set by
// logging/setLevel, "error" until then) before.
func wants(ctx context.Context, l mcp.LoggingLevel) bool {
	s := server.ClientSessionFromContext(ctx)
	if s == nil {
		return false
	}
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern {
		return info.LogLevel != "" && l.ShouldSendTo(info.LogLevel)
	}
	sl, ok := s.(server.SessionWithLogging)
	return ok && l.ShouldSendTo(sl.GetLogLevel())
}

func level(l slog.Level) mcp.LoggingLevel {
	switch {
	case l >= slog.LevelError:
		return mcp.LoggingLevelError
	case l >= slog.LevelWarn:
		return mcp.LoggingLevelWarning
	case l >= slog.LevelInfo:
		return mcp.LoggingLevelInfo
	}
	return mcp.LoggingLevelDebug
}
