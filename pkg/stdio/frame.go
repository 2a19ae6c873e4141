package stdio

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"unicode/utf8"
)

// frame is one line read from the client, or how reading it failed.
type frame struct {
	data []byte // the line without its line ending; only its start when over
	over bool   // the line is longer than the limit
	rest bool   // over, and the rest of the line is still unread
	eof  bool   // the input ended after this frame
	err  error  // reading failed (not io.EOF)
}

// readFrame reads the next newline-delimited frame, holding at most about
// max bytes of it: a longer line is returned as soon as it passes max,
// flagged over (and rest, when discardLine must skip the remainder).
// Memory stays bounded by max whatever the client sends, and an over-long
// line is never parsed.
func readFrame(r *bufio.Reader, max int) frame {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		buf = append(buf, chunk...)
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			if len(buf) > max+2 { // +2: room for "\r\n"
				return frame{data: buf, over: true, rest: true}
			}
			continue
		case err == nil, errors.Is(err, io.EOF):
			line := trimEOL(buf)
			return frame{data: line, over: len(line) > max, eof: err != nil}
		default:
			return frame{data: trimEOL(buf), over: len(trimEOL(buf)) > max, err: err}
		}
	}
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

// nullID is the id of an error reply to a message whose id is unknown.
var nullID = json.RawMessage("null")

// recoverID looks for a top-level "id" member at the start of an over-long
// frame, so its error reply can name the request it refuses. Only the first
// idScanBytes are tokenised: clients put id before params, and when one
// does not the reply carries a null id.
func recoverID(prefix []byte) json.RawMessage {
	const idScanBytes = 64 << 10
	if len(prefix) > idScanBytes {
		prefix = prefix[:idScanBytes]
	}
	dec := json.NewDecoder(bytes.NewReader(prefix))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nullID
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nullID
		}
		if key != "id" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return nullID
			}
			continue
		}
		var id json.RawMessage
		if dec.Decode(&id) != nil || !validID(id) {
			return nullID
		}
		return id
	}
	return nullID
}

// validID reports whether raw is a JSON-RPC request id MCP allows: a
// string or a number (not null, not a structure).
func validID(raw json.RawMessage) bool {
	if len(raw) == 0 {
		return false
	}
	switch c := raw[0]; {
	case c == '"':
		var s string
		return json.Unmarshal(raw, &s) == nil
	case c == '-' || (c >= '0' && c <= '9'):
		var n json.Number
		return json.Unmarshal(raw, &n) == nil
	}
	return false
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

// envelope is a validated JSON-RPC message: exactly the members this front
// reads, rebuilt by canonical so mcp-go sees only what was checked.
type envelope struct {
	ID     json.RawMessage // nil for a notification
	Method string
	Params json.RawMessage // nil when absent
}

func (e envelope) canonical() json.RawMessage {
	m := struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id,omitempty"`
		Method  string          `json:"method"`
		Params  json.RawMessage `json:"params,omitempty"`
	}{"2.0", e.ID, e.Method, e.Params}
	b, _ := json.Marshal(m) // cannot fail: every member is valid JSON
	return b
}

// protoError is a message refused at the protocol level.
type protoError struct {
	id   json.RawMessage
	code int
	msg  string
}

// JSON-RPC error codes used by the front.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeOverloaded     = -32000 // implementation-defined server error
)

// kind of a valid message.
type kind int

const (
	kindRequest kind = iota
	kindNotification
	kindResponse // a reply to a server-to-client request; this server sends none
)

// parse validates one frame: valid UTF-8, valid JSON, one object (never a
// batch), jsonrpc "2.0", a string or number id, a string method.
func parse(data []byte) (envelope, kind, *protoError) {
	if !utf8.Valid(data) {
		return envelope{}, 0, &protoError{nullID, codeParseError, "parse error: the message is not valid UTF-8"}
	}
	trimmed := bytes.TrimLeft(data, " \t")
	if !json.Valid(trimmed) {
		return envelope{}, 0, &protoError{nullID, codeParseError, "parse error: the message is not valid JSON"}
	}
	switch trimmed[0] {
	case '{':
	case '[':
		return envelope{}, 0, &protoError{nullID, codeInvalidRequest, "invalid request: JSON-RPC batches are not supported; send one message per line"}
	default:
		return envelope{}, 0, &protoError{nullID, codeInvalidRequest, "invalid request: a message must be a JSON object"}
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &m); err != nil {
		return envelope{}, 0, &protoError{nullID, codeParseError, "parse error: " + err.Error()}
	}
	id, hasID := m["id"]
	if hasID && !validID(id) {
		return envelope{}, 0, &protoError{nullID, codeInvalidRequest, "invalid request: id must be a string or a number"}
	}
	replyID := nullID
	if hasID {
		replyID = id
	}
	if string(m["jsonrpc"]) != `"2.0"` {
		return envelope{}, 0, &protoError{replyID, codeInvalidRequest, `invalid request: jsonrpc must be "2.0"`}
	}
	rawMethod, hasMethod := m["method"]
	if !hasMethod {
		_, hasResult := m["result"]
		_, hasError := m["error"]
		if hasID && (hasResult || hasError) {
			return envelope{ID: id}, kindResponse, nil
		}
		return envelope{}, 0, &protoError{replyID, codeInvalidRequest, "invalid request: no method"}
	}
	var method string
	if json.Unmarshal(rawMethod, &method) != nil || method == "" {
		return envelope{}, 0, &protoError{replyID, codeInvalidRequest, "invalid request: method must be a non-empty string"}
	}
	env := envelope{Method: method, Params: m["params"]}
	if len(env.Params) > 0 && env.Params[0] != '{' && env.Params[0] != '[' {
		return envelope{}, 0, &protoError{replyID, codeInvalidRequest, "invalid request: params must be an object"}
	}
	if !hasID {
		return env, kindNotification, nil
	}
	env.ID = id
	return env, kindRequest, nil
}

// cancelTarget returns the request id a notifications/cancelled names.
func cancelTarget(params json.RawMessage) (json.RawMessage, bool) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil || !validID(p.RequestID) {
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
