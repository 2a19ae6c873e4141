// Package redact keeps tokens out of logs. Every log record of the process
// passes through one Handler, which replaces the secrets it knows in the
// message and in every attribute (nested groups, errors and other values
// included) before the record reaches the real handler.
//
// Why at the handler and not at each log call: a forge that echoes the
// token (in an error body, an HTML page, a redirect URL, the login of a
// user) can put it into any string the process later logs, so no call site
// can be trusted to remember; the handler sees everything.
//
// The secrets are the process's own token (stdio, --cli, HTTP's shared
// token), given to NewHandler, and the token of the request being served,
// which travels in the context (WithSecret) so one user's log lines are
// cleaned of that user's token. Text that looks like an Authorization value
// ("token …", "Bearer …") or an access_token parameter is redacted as well,
// for lines logged without a request's context.
package redact

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// Mask replaces a secret.
const Mask = "[REDACTED]"

// minSecretLen is the shortest secret replaced. Forge tokens are 40
// characters and OAuth tokens longer; a shorter "token" sent by a client
// would only let it mask words ("POST", "/mcp") in its own log lines.
const minSecretLen = 8

// authValue matches what looks like an Authorization value, and
// oauthParam an OAuth token parameter. The credential part must be long
// enough to be one, so prose ("the token is invalid") is left alone.
var (
	authValue  = regexp.MustCompile(`(?i)\b(bearer|token|basic)((?:\s|%20|\+)+)[A-Za-z0-9._~+/=-]{16,}`)
	oauthParam = regexp.MustCompile(`(?i)\b(access_token|refresh_token|id_token)=[^&\s"']+`)
)

// String returns s with every secret (and its URL-escaped form) and
// everything that looks like a credential replaced by Mask.
func String(s string, secrets ...string) string {
	if len(secrets) > 1 && !slices.IsSortedFunc(secrets, longerFirst) {
		secrets = slices.Clone(secrets)
		sortLongestFirst(secrets)
	}
	for _, sec := range secrets {
		if len(sec) < minSecretLen {
			continue
		}
		s = strings.ReplaceAll(s, sec, Mask)
		if esc := url.QueryEscape(sec); esc != sec {
			s = strings.ReplaceAll(s, esc, Mask)
		}
	}
	s = authValue.ReplaceAllString(s, "${1}${2}"+Mask)
	return oauthParam.ReplaceAllString(s, "${1}="+Mask)
}

type secretsKey struct{}

// WithSecret returns a context whose log records are cleaned of secret too,
// besides the secrets ctx already carries.
func WithSecret(ctx context.Context, secret string) context.Context {
	if len(secret) < minSecretLen {
		return ctx
	}
	old, _ := ctx.Value(secretsKey{}).([]string)
	if slices.Contains(old, secret) {
		return ctx
	}
	return context.WithValue(ctx, secretsKey{}, append(slices.Clip(old), secret))
}

// Secrets returns the secrets ctx carries.
func Secrets(ctx context.Context) []string {
	if ctx == nil {
		return nil
	}
	s, _ := ctx.Value(secretsKey{}).([]string)
	return s
}

// Handler is a slog.Handler that redacts every record before passing it on.
// Attributes and groups added with WithAttrs and WithGroup are kept here
// and redacted with each record, since the secrets of a request are only
// known from the context of the record.
type Handler struct {
	next   slog.Handler
	static []string
	ops    []op // WithGroup and WithAttrs in the order they were applied
}

type op struct {
	group string
	attrs []slog.Attr
}

// NewHandler returns a Handler passing redacted records to next; secrets
// are redacted from every record (empty ones are ignored).
func NewHandler(next slog.Handler, secrets ...string) *Handler {
	h := &Handler{next: next}
	for _, s := range secrets {
		if len(s) >= minSecretLen {
			h.static = append(h.static, s)
		}
	}
	sortLongestFirst(h.static)
	return h
}

// Enabled implements slog.Handler.
func (h *Handler) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

// Handle implements slog.Handler.
func (h *Handler) Handle(ctx context.Context, r slog.Record) error {
	secrets := h.static
	if s := Secrets(ctx); len(s) > 0 {
		secrets = append(slices.Clone(secrets), s...)
		sortLongestFirst(secrets)
	}
	attrs := make([]slog.Attr, 0, r.NumAttrs())
	r.Attrs(func(a slog.Attr) bool {
		attrs = append(attrs, attr(a, secrets))
		return true
	})
	for i := len(h.ops) - 1; i >= 0; i-- {
		o := h.ops[i]
		if o.group != "" {
			attrs = []slog.Attr{{Key: o.group, Value: slog.GroupValue(attrs...)}}
			continue
		}
		pre := make([]slog.Attr, 0, len(o.attrs)+len(attrs))
		for _, a := range o.attrs {
			pre = append(pre, attr(a, secrets))
		}
		attrs = append(pre, attrs...)
	}
	out := slog.NewRecord(r.Time, r.Level, String(r.Message, secrets...), r.PC)
	out.AddAttrs(attrs...)
	return h.next.Handle(ctx, out)
}

// WithAttrs implements slog.Handler.
func (h *Handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	if len(attrs) == 0 {
		return h
	}
	return h.with(op{attrs: slices.Clone(attrs)})
}

// WithGroup implements slog.Handler.
func (h *Handler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	return h.with(op{group: name})
}

func (h *Handler) with(o op) *Handler {
	cp := *h
	cp.ops = append(slices.Clip(h.ops), o)
	return &cp
}

// sortLongestFirst orders secrets so one containing another is masked
// whole rather than leaving its remainder.
func sortLongestFirst(secrets []string) {
	slices.SortStableFunc(secrets, longerFirst)
}

func longerFirst(a, b string) int { return len(b) - len(a) }

func attr(a slog.Attr, secrets []string) slog.Attr {
	return slog.Attr{Key: String(a.Key, secrets...), Value: value(a.Value, secrets)}
}

func value(v slog.Value, secrets []string) slog.Value {
	v = v.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.StringValue(String(v.String(), secrets...))
	case slog.KindGroup:
		g := v.Group()
		out := make([]slog.Attr, len(g))
		for i, a := range g {
			out[i] = attr(a, secrets)
		}
		return slog.GroupValue(out...)
	case slog.KindAny:
		switch x := v.Any().(type) {
		case error:
			return slog.StringValue(String(x.Error(), secrets...))
		case fmt.Stringer:
			return slog.StringValue(String(x.String(), secrets...))
		case []byte:
			return slog.StringValue(String(string(x), secrets...))
		default:
			s := fmt.Sprintf("%+v", x)
			if r := String(s, secrets...); r != s {
				return slog.StringValue(r)
			}
		}
	}
	return v
}
