package tool

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/bytesize"
)

// The inline cap. A download returns a file of up to MaxInlineBytes whole,
// in one result, as its exact bytes (the user's contract, seed 003: "up to
// 1 MiB … as blob resources"); larger files, and windows, are read in
// pieces of at most the cap. The bytes are not text: clients hand a blob
// to the agent as a file or a link, not as tokens (docs/attachments.md),
// so the cap is separate from MaxResultBytes, which bounds the text and
// JSON of a result. A client whose whole result is capped below what a
// 1 MiB blob needs (Claude Desktop refuses results over 1,048,576
// characters, and base64 is a third larger) lowers the cap: --max-inline-bytes
// for the server, a request header over HTTP, never above MaxInlineBytes.

// InlineCapHeader is the HTTP request header that lowers the inline cap
// for one request (pkg/httpserver reads it).
const InlineCapHeader = "X-MCP-Max-Inline-Bytes"

// MaxInlineBytes is the default and largest inline cap: 1 MiB.
const MaxInlineBytes = 1 << 20

// MinInlineBytes is the smallest inline cap a server or request may set:
// below it a window holds too little of a file to be worth a call.
const MinInlineBytes = 1 << 10

type inlineKey struct{}

// WithInlineCap returns ctx whose downloads inline at most n bytes. It can
// only lower the cap ctx already has, so a request header cannot raise
// what the server allows; n ≤ 0 leaves ctx as it is.
func WithInlineCap(ctx context.Context, n int64) context.Context {
	if n <= 0 || n >= InlineCap(ctx) {
		return ctx
	}
	return context.WithValue(ctx, inlineKey{}, n)
}

// InlineCap returns the most bytes of a file one result of ctx's call
// carries: the lowest cap set on ctx, else MaxInlineBytes.
func InlineCap(ctx context.Context) int64 {
	if n, ok := ctx.Value(inlineKey{}).(int64); ok {
		return n
	}
	return MaxInlineBytes
}

// ParseInlineCap reads an inline cap as bytes, with an optional KiB or MiB
// suffix ("655360", "640KiB", "1MiB"), between MinInlineBytes and
// MaxInlineBytes. what names the setting in the error ("--max-inline-bytes").
func ParseInlineCap(what, s string) (int64, error) {
	v := strings.TrimSpace(s)
	unit := int64(1)
	for _, u := range []struct {
		suffix string
		n      int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}} {
		if num, ok := strings.CutSuffix(v, u.suffix); ok {
			v, unit = strings.TrimSpace(num), u.n
			break
		}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 || n > MaxInlineBytes/unit {
		return 0, fmt.Errorf("%s must be a number of bytes from %d (1KiB) to %d (1MiB), with an optional KiB or MiB suffix, not %q",
			what, MinInlineBytes, MaxInlineBytes, s)
	}
	if n *= unit; n < MinInlineBytes {
		return 0, fmt.Errorf("%s must be at least %d bytes (1KiB), not %q", what, MinInlineBytes, s)
	}
	return n, nil
}

// WindowOverCap is the error of a window (max_bytes) asked larger than the
// call's inline cap: refused with the cap, never cut silently.
func WindowOverCap(maxBytes, limit int64) error {
	return fmt.Errorf("invalid arguments: max_bytes %d is over the %s this server returns in one result (its inline cap, "+
		"--max-inline-bytes or the %s request header); ask for at most %d", maxBytes, bytesize.Text(limit), InlineCapHeader, limit)
}
