package stdio

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"unicode/utf8"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/rpcguard"
)

// frame is one line read from the client, or how reading it failed.
type frame struct {
	data []byte // the line without its line ending; only its first 64 KiB or so when over
	over bool   // the line is longer than the limit
	rest bool   // over, and the rest of the line is still unread
	eof  bool   // the input ended after this frame
	err  error  // reading failed (not io.EOF)
}

// readFrame reads the next newline-delimited frame, holding at most about
// max bytes of it: a longer line is returned as soon as it passes max,
// flagged over (and rest, when discardLine must skip the remainder).
// Memory stays bounded by max whatever the client sends, and an over-long
// line is never parsed. A line longer than the reader's buffer is kept in
// pieces and joined once at its end: it costs twice its length while it is
// read, not the several times a growing buffer leaves behind.
func readFrame(r *bufio.Reader, max int) frame {
	var parts [][]byte
	n := 0
	for {
		chunk, err := r.ReadSlice('\n')
		parts = append(parts, append([]byte(nil), chunk...))
		n += len(chunk)
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			if n > max+2 { // +2: room for "\r\n"
				// Only the start is kept: RecoverID reads no further.
				head, m := parts, 0
				for i, p := range parts {
					if m += len(p); m >= 64<<10 {
						head = parts[:i+1]
						break
					}
				}
				return frame{data: join(head, min(m, n)), over: true, rest: true}
			}
			continue
		case err == nil, errors.Is(err, io.EOF):
			line := trimEOL(join(parts, n))
			return frame{data: line, over: len(line) > max, eof: err != nil}
		default:
			line := trimEOL(join(parts, n))
			return frame{data: line, over: len(line) > max, err: err}
		}
	}
}

// join is the concatenation of parts, n bytes long, in one allocation
// (none for one part).
func join(parts [][]byte, n int) []byte {
	if len(parts) == 1 {
		return parts[0]
	}
	out := make([]byte, 0, n)
	for i, p := range parts {
		out = append(out, p...)
		parts[i] = nil // collectable at once
	}
	return out
}

// discardLine skips what is left of an over-long line; it reports whether
// the input ended or failed.
func discardLine(r *bufio.Reader) (done bool, err error) {
	for {
		_, err := r.ReadSlice('\n')
		switch {
		case err == nil:
			return false, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			return true, nil
		default:
			return true, err
		}
	}
}

func trimEOL(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}

// idKey is the identity of a request id: a string and a number never
// collide, and two spellings of one string ("a" and "\u0061") are one id.
func idKey(raw json.RawMessage) string {
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		_ = json.Unmarshal(raw, &s)
		return "s" + s
	}
	return "n" + string(raw)
}

// cancelTarget returns the request id a notifications/cancelled names.
func cancelTarget(params json.RawMessage) (json.RawMessage, bool) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil || !rpcguard.ValidID(p.RequestID) {
		return nil, false
	}
	return p.RequestID, true
}

// clipID shortens an id (the client's text) for messages.
func clipID(raw json.RawMessage) string {
	s := string(raw)
	if len(s) > 40 {
		cut := 40
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// showID renders an id for logs: shortened and quoted.
func showID(raw json.RawMessage) string { return strconv.Quote(clipID(raw)) }
