package redact

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

const (
	secret   = "0123456789abcdef0123456789abcdef01234567"
	reqToken = "request-token-with/slash+plus"
)

func TestString(t *testing.T) {
	tests := []struct {
		name, in, want string
		secrets        []string
	}{
		{name: "plain", in: "no secret here", want: "no secret here", secrets: []string{secret}},
		{name: "secret", in: "echo " + secret + " and " + secret, want: "echo [REDACTED] and [REDACTED]", secrets: []string{secret}},
		{name: "url escaped", in: "http://x/?auth=" + url.QueryEscape(reqToken), want: "http://x/?auth=[REDACTED]", secrets: []string{reqToken}},
		{name: "longest first", in: "ab-" + secret, want: "[REDACTED]", secrets: []string{secret, "ab-" + secret}},
		{name: "too short to be a secret", in: "POST /mcp", want: "POST /mcp", secrets: []string{"POST", "/mcp"}},
		{name: "authorization header", in: "Authorization: token deadbeefdeadbeefdeadbeef", want: "Authorization: token [REDACTED]"},
		{name: "bearer jwt", in: "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig", want: "Bearer [REDACTED]"},
		{name: "url-encoded scheme", in: "q=token%20deadbeefdeadbeefdeadbeef", want: "q=token%20[REDACTED]"},
		{name: "oauth parameter", in: "GET /cb?code=1&access_token=abc.def&x=1", want: "GET /cb?code=1&access_token=[REDACTED]&x=1"},
		{name: "prose stays", in: "the forge rejected the token (invalid, expired or revoked)", want: "the forge rejected the token (invalid, expired or revoked)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, String(tt.in, tt.secrets...))
		})
	}
}

type stringer struct{ s string }

func (s stringer) String() string { return s.s }

type valuer struct{}

func (valuer) LogValue() slog.Value { return slog.StringValue("lazy " + secret) }

func TestHandler(t *testing.T) {
	tests := []struct {
		name string
		log  func(ctx context.Context, l *slog.Logger)
		want []string // substrings of the output
	}{
		{name: "message", log: func(ctx context.Context, l *slog.Logger) { l.InfoContext(ctx, "got "+secret) }, want: []string{`msg="got [REDACTED]"`}},
		{name: "string attr", log: func(ctx context.Context, l *slog.Logger) { l.InfoContext(ctx, "m", "body", "x "+secret) }, want: []string{`body="x [REDACTED]"`}},
		{name: "error attr", log: func(ctx context.Context, l *slog.Logger) {
			l.InfoContext(ctx, "m", "err", fmt.Errorf("wrapped: %w", errors.New("Get http://evil/?t="+secret)))
		}, want: []string{`err="wrapped: Get http://evil/?t=[REDACTED]"`}},
		{name: "stringer, valuer, bytes and structs", log: func(ctx context.Context, l *slog.Logger) {
			l.InfoContext(ctx, "m", "s", stringer{secret}, "v", valuer{}, "b", []byte(secret), "st", struct{ T string }{secret}, "n", 3)
		}, want: []string{`s=[REDACTED]`, `v="lazy [REDACTED]"`, `b=[REDACTED]`, `st={T:[REDACTED]}`, `n=3`}},
		{name: "nested groups", log: func(ctx context.Context, l *slog.Logger) {
			l.InfoContext(ctx, "m", slog.Group("outer", slog.Group("inner", "k", secret)))
		}, want: []string{`outer.inner.k=[REDACTED]`}},
		{name: "WithAttrs and WithGroup", log: func(ctx context.Context, l *slog.Logger) {
			l.With("pre", secret).WithGroup("g").With("mid", "m "+secret).WithGroup("h").InfoContext(ctx, "m", "k", secret)
		}, want: []string{`pre=[REDACTED]`, `g.mid="m [REDACTED]"`, `g.h.k=[REDACTED]`}},
		{name: "request secret from the context", log: func(ctx context.Context, l *slog.Logger) {
			l.InfoContext(WithSecret(ctx, reqToken), "login "+reqToken, "user", reqToken, "url", "http://x/?a="+url.QueryEscape(reqToken))
		}, want: []string{`msg="login [REDACTED]"`, `user=[REDACTED]`, `url="http://x/?a=[REDACTED]"`}},
		{name: "context secret added with attrs bound earlier", log: func(ctx context.Context, l *slog.Logger) {
			l.With("early", reqToken).InfoContext(WithSecret(ctx, reqToken), "m")
		}, want: []string{`early=[REDACTED]`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			l := slog.New(NewHandler(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}), secret, ""))
			tt.log(t.Context(), l)
			out := buf.String()
			assert.NotContains(t, out, secret)
			assert.NotContains(t, out, reqToken)
			assert.NotContains(t, out, url.QueryEscape(reqToken))
			for _, w := range tt.want {
				assert.Contains(t, out, w)
			}
		})
	}
}

func TestHandlerJSONKeepsStructure(t *testing.T) {
	var buf bytes.Buffer
	l := slog.New(NewHandler(slog.NewJSONHandler(&buf, nil), secret))
	l.Info("m", "n", 3, "ok", true, "m", map[string]int{"a": 1})
	assert.Equal(t, `"n":3,"ok":true,"m":{"a":1}}`, strings.TrimSpace(buf.String()[strings.Index(buf.String(), `"n"`):]))
}

func TestWithSecret(t *testing.T) {
	ctx := WithSecret(context.Background(), "POST") // too short: ignored
	assert.Empty(t, Secrets(ctx))
	ctx = WithSecret(ctx, reqToken)
	ctx = WithSecret(ctx, reqToken)
	ctx2 := WithSecret(ctx, secret)
	assert.Equal(t, []string{reqToken}, Secrets(ctx), "a derived context does not change its parent")
	assert.Equal(t, []string{reqToken, secret}, Secrets(ctx2))
}
