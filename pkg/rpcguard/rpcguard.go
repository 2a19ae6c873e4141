// Package rpcguard checks a raw JSON-RPC message before anything decodes
// it, for both transports (pkg/stdio, pkg/httpserver), so that a hostile
// message costs no more memory than its own bytes.
//
// Decoding JSON into Go maps multiplies its size: 16 MiB of `[{},{},…]`
// becomes hundreds of megabytes of maps before any bound on the arguments
// can look at them. Check walks the message once, allocating nothing for
// its values, and finds the members the transports need (id, method,
// params.name, the span of params.arguments), counting JSON values and
// nesting depth on the way. A message past a bound is refused before
// mcp-go sees it; arguments of a tools/call over their tool's limit are
// cut out of the message and the call is refused by the tool pipeline
// with the isError result the agent gets for an over-limit argument
// anyway. A Budget bounds the bytes of the messages being decoded and
// handled at once.
//
// Check also validates the envelope (valid UTF-8 and JSON, one object,
// jsonrpc "2.0", a string or exactly representable integer id, a method)
// the same way for both transports, so stdio and HTTP refuse the same
// messages with the same errors.
package rpcguard

import (
	"context"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/bytesize"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Defaults of Limits. Ordinary messages stay far below each: the tools'
// arguments are flat (names to strings, numbers, booleans and lists of
// strings), a few levels deep and a few dozen values; only an upload's
// content is large, and it is one string.
const (
	// DefaultMaxDepth bounds nesting of arrays and objects, counted from
	// the message (a tool's arguments object is at depth 3).
	DefaultMaxDepth = 64
	// DefaultMaxValues bounds the JSON values of one message, member names
	// included: what decoding into maps costs is per value, not per byte.
	DefaultMaxValues = 16384
	// DefaultMaxOtherBytes bounds a message apart from the arguments of a
	// tools/call (those have their tool's own limit): the envelope, the
	// tool name, _meta.
	DefaultMaxOtherBytes = 1 << 20
	// MaxNumberBytes bounds a number literal: float64, as every number is
	// decoded, holds 17 significant digits; no parameter needs more than
	// an int64's 20 characters.
	MaxNumberBytes = 64
)

// MaxID is the largest magnitude of an integer id: 2^53, the largest for
// which every integer up to it is exactly a float64, as clients and
// mcp-go hold ids.
const MaxID = 1 << 53

// MethodToolsCall is the method whose arguments have a per-tool limit.
const MethodToolsCall = "tools/call"

// JSON-RPC error codes of refusals.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeBusy           = -32000 // implementation-defined server error
)

// ArgLimitFunc returns the bound on the arguments of a call of the named
// tool, as JSON bytes (0: none), and the text of the isError result that
// refuses arguments past it. An unknown name gets the smallest limit.
type ArgLimitFunc func(tool string) (limit int64, refusal string)

// Limits bound a message. Zero fields take the defaults; a nil ArgLimit
// leaves the arguments of a tools/call to the transport's message limit.
type Limits struct {
	MaxDepth      int
	MaxValues     int
	MaxOtherBytes int
	ArgLimit      ArgLimitFunc
}

func (l Limits) withDefaults() Limits {
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxValues <= 0 {
		l.MaxValues = DefaultMaxValues
	}
	if l.MaxOtherBytes <= 0 {
		l.MaxOtherBytes = DefaultMaxOtherBytes
	}
	return l
}

// Kind of a valid message.
type Kind int

const (
	KindRequest Kind = iota
	KindNotification
	KindResponse // to a server-to-client request; this server sends none
)

// Message is what Check found in a valid message. Its raw members are
// slices of the checked message.
type Message struct {
	Kind   Kind
	ID     json.RawMessage // nil for a notification
	Method string          // "" for a response
	Params json.RawMessage // nil when absent
	// Tool is params.name of a tools/call request, when a string.
	Tool string
	// Bytes and Values are the message's size and JSON values (member
	// names included): what Cost charges.
	Bytes, Values int
	// RefusedArgs, when set, is the isError text refusing the arguments
	// of this tools/call: Forward cuts them out and Context marks the call
	// so that the tool pipeline answers with this text.
	RefusedArgs string
	args        span
}

// Error is a message refused at the protocol level: the transport replies
// with it (Response) and does not pass the message on.
type Error struct {
	ID      json.RawMessage // null when the id is unknown or invalid
	Code    int
	Message string
}

func (e *Error) Error() string { return e.Message }

// Response is a JSON-RPC error response.
type Response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   ErrorDetail     `json:"error"`
}

// ErrorDetail is the error member of a Response.
type ErrorDetail struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// ErrorResponse is the JSON-RPC error response with id (nil: null).
func ErrorResponse(id json.RawMessage, code int, msg string) Response {
	if id == nil {
		id = Null
	}
	return Response{JSONRPC: "2.0", ID: id, Error: ErrorDetail{Code: code, Message: msg}}
}

// Response is e as a JSON-RPC error response.
func (e *Error) Response() Response { return ErrorResponse(e.ID, e.Code, e.Message) }

// Null is the id of a reply to a message whose id is unknown or invalid.
var Null = json.RawMessage("null")

// Check validates msg, one JSON-RPC message, against lim without decoding
// it. It returns the refusal to reply with, or what it found.
func Check(msg []byte, lim Limits) (Message, *Error) {
	lim = lim.withDefaults()
	refuse := func(id json.RawMessage, code int, format string, a ...any) (Message, *Error) {
		return Message{}, &Error{ID: id, Code: code, Message: fmt.Sprintf(format, a...)}
	}
	if !utf8.Valid(msg) {
		return refuse(Null, CodeParseError, "parse error: the message is not valid UTF-8")
	}
	s := newScan(msg)
	switch {
	case s.invalid:
		return refuse(Null, CodeParseError, "parse error: the message is not valid JSON")
	case !s.isObj && firstByte(msg) == '[':
		return refuse(Null, CodeInvalidRequest, "invalid request: JSON-RPC batches are not supported; send one message at a time")
	case !s.isObj:
		return refuse(Null, CodeInvalidRequest, "invalid request: a message must be a JSON object")
	}
	idSpan := s.top[mID]
	id := json.RawMessage(nil)
	if idSpan.ok() {
		id = idSpan.of(msg)
	}
	replyID := Null
	if id != nil && ValidID(id) && s.topBad != "id" {
		replyID = id
	}
	if s.topBad != "" {
		return refuse(replyID, CodeInvalidRequest, "invalid request: more than one member is named %q when case is ignored; send it once, spelled exactly so", s.topBad)
	}
	if id != nil && !ValidID(id) {
		return refuse(Null, CodeInvalidRequest, "invalid request: id must be a string or an integer from -2^53 to 2^53 (%d)", int64(MaxID))
	}
	if string(s.top[mJSONRPC].of(msg)) != `"2.0"` {
		return refuse(replyID, CodeInvalidRequest, `invalid request: jsonrpc must be "2.0"`)
	}
	m := Message{ID: id, Bytes: len(msg), Values: s.rest.values + s.args.values}
	hasResult, hasError := s.top[mResult].ok(), s.top[mError].ok()
	switch {
	case !s.top[mMethod].ok() && id != nil && (hasResult || hasError):
		m.Kind = KindResponse
	case !s.top[mMethod].ok():
		return refuse(replyID, CodeInvalidRequest, "invalid request: no method")
	case hasResult || hasError:
		return refuse(replyID, CodeInvalidRequest, "invalid request: a request or notification carries no result or error")
	case id == nil:
		m.Kind = KindNotification
	default:
		m.Kind = KindRequest
	}
	if m.Kind != KindResponse {
		method, ok := stringValue(s.top[mMethod].of(msg))
		if !ok || method == "" {
			return refuse(replyID, CodeInvalidRequest, "invalid request: method must be a non-empty string")
		}
		m.Method = method
	}
	// params null is taken for params absent, as mcp-go takes it.
	if p := s.top[mParams]; p.ok() && string(p.of(msg)) != "null" {
		if !p.startsWith('{', msg) && !p.startsWith('[', msg) {
			return refuse(replyID, CodeInvalidRequest, "invalid request: params must be an object")
		}
		m.Params = p.of(msg)
	}

	// A tools/call request's arguments are measured apart, against their
	// tool's limit; everything else against the message's.
	call := m.Kind == KindRequest && m.Method == MethodToolsCall
	if call {
		if s.parBad != "" {
			return refuse(replyID, CodeInvalidRequest, "invalid request: more than one member of params is named %q when case is ignored; send it once, spelled exactly so", s.parBad)
		}
		if name := s.params[pName]; name.ok() {
			m.Tool, _ = stringValue(name.of(msg))
		}
	}
	exempt := call && m.Tool != "" && s.params[pArguments].ok()
	other := s.rest
	otherBytes := len(msg)
	if exempt {
		m.args = s.params[pArguments]
		otherBytes -= m.args.size()
	} else {
		other.add(s.args)
	}
	switch {
	case other.badNumber:
		return refuse(replyID, CodeInvalidRequest, "invalid request: the message holds a number longer than %d characters or out of float64's range", MaxNumberBytes)
	case other.depth > lim.MaxDepth:
		return refuse(replyID, CodeInvalidRequest, "invalid request: the message nests deeper than %d levels", lim.MaxDepth)
	case other.values > lim.MaxValues:
		return refuse(replyID, CodeInvalidRequest, "invalid request: the message holds more than %d JSON values", lim.MaxValues)
	case otherBytes > lim.MaxOtherBytes && exempt:
		return refuse(replyID, CodeInvalidRequest, "invalid request: the message is %s without the tool's arguments, over the limit of %s", bytesize.Text(int64(otherBytes)), bytesize.Text(int64(lim.MaxOtherBytes)))
	case otherBytes > lim.MaxOtherBytes:
		return refuse(replyID, CodeInvalidRequest, "invalid request: the message is %s, over the limit of %s for anything but the arguments of a tools/call", bytesize.Text(int64(otherBytes)), bytesize.Text(int64(lim.MaxOtherBytes)))
	}
	if !exempt {
		return m, nil
	}
	if lim.ArgLimit != nil {
		// As JSON: white space between tokens is not counted, like the
		// tool pipeline's own check on the decoded arguments.
		if limit, refusal := lim.ArgLimit(m.Tool); limit > 0 && int64(m.args.size()-s.args.space) > limit {
			m.RefusedArgs = refusal
			return m, nil
		}
	}
	switch {
	case s.args.badNumber:
		m.RefusedArgs = fmt.Sprintf("invalid arguments for %s: a number is longer than %d characters or out of range; no parameter takes one", m.Tool, MaxNumberBytes)
	case s.args.depth > lim.MaxDepth:
		m.RefusedArgs = fmt.Sprintf("invalid arguments for %s: they nest deeper than %d levels", m.Tool, lim.MaxDepth-2)
	case m.Values > lim.MaxValues:
		m.RefusedArgs = fmt.Sprintf("invalid arguments for %s: they hold more than %d JSON values; no tool needs that many", m.Tool, lim.MaxValues-other.values)
	}
	return m, nil
}

// Forward returns the message to pass on: msg itself, or, when the
// arguments are refused, a copy of msg with them replaced by {} (it is
// never decoded).
func (m Message) Forward(msg []byte) []byte {
	if m.RefusedArgs == "" {
		return msg
	}
	out := make([]byte, 0, len(msg)-m.args.size()+2)
	out = append(out, msg[:m.args.start]...)
	out = append(out, "{}"...)
	return append(out, msg[m.args.end:]...)
}

// Context returns ctx marked, when the arguments are refused, so that the
// tool pipeline refuses the call with RefusedArgs.
func (m Message) Context(ctx context.Context) context.Context {
	if m.RefusedArgs == "" {
		return ctx
	}
	return tool.WithRefusedArgs(ctx, m.Tool, m.RefusedArgs)
}

// ToolLimits is the ArgLimitFunc of the tools defs, run through r: the
// limit r puts on each, and for a name not among defs the smallest.
func ToolLimits(defs []tool.Def, r *tool.Runner) ArgLimitFunc {
	type limit struct {
		n       int64
		refusal string
	}
	byName := make(map[string]limit, len(defs))
	var least limit
	for _, d := range defs {
		n, refusal := r.ArgLimit(d)
		byName[d.Name] = limit{n, refusal}
		if n > 0 && (least.n == 0 || n < least.n) {
			least = limit{n, ""}
		}
	}
	return func(name string) (int64, string) {
		if l, ok := byName[name]; ok {
			return l.n, l.refusal
		}
		if least.n == 0 {
			return 0, ""
		}
		return least.n, fmt.Sprintf("invalid arguments for %s: they are over the limit of %s (as JSON) and there is no such tool", name, bytesize.Text(least.n))
	}
}
