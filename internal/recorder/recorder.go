// Package recorder is a recording reverse proxy: it passes every request to
// a live forge and writes each exchange as one JSON line in the format of
// internal/fakeforge/recorded (its README describes the fields). The replay
// tests answer tools from those lines, so a new tool is proven against a
// real forge's answers by sweeping it through this proxy (./sweep).
//
// Tokens never reach a line: the Authorization header is recorded only as
// the name of whose token it was, and every token the recorder knows is
// replaced by "<token>" wherever it occurs in a path, body or header.
package recorder

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// TextLimit is where a recorded text body is cut: a diff or log is kept
// for its shape, not its whole length.
const TextLimit = 8 << 10

// maxBody bounds what the proxy buffers of one body.
const maxBody = 64 << 20

// keptHeaders are the answer headers the tools read (paging, redirects,
// downloads); no other header is recorded.
var keptHeaders = []string{"location", "link", "x-total-count", "x-hasmore",
	"content-range", "content-disposition", "content-encoding", "accept-ranges"}

// Exchange is one recorded line; the field order is the recordings'.
type Exchange struct {
	Seq                int               `json:"seq"`
	Tool               string            `json:"tool"`
	Call               *int              `json:"call"`
	Method             string            `json:"method"`
	Path               string            `json:"path"`
	Auth               string            `json:"auth"`
	RequestContentType string            `json:"request_content_type,omitempty"`
	RequestBody        *Body             `json:"request_body,omitempty"`
	RequestRange       string            `json:"request_range,omitempty"`
	Status             int               `json:"status"`
	ContentType        *string           `json:"content_type"`
	Headers            map[string]string `json:"headers,omitempty"`
	ResponseBody       *Body             `json:"response_body"`
	ResponseLength     int               `json:"response_length"`
	MS                 int64             `json:"ms"`
}

// Body is a recorded body: JSON, text cut at TextLimit, a binary one's
// length and hash, or a multipart form's parts.
type Body struct {
	JSON         json.RawMessage `json:"json,omitempty"`
	Text         *string         `json:"text,omitempty"`
	BinaryLength int             `json:"binary_length,omitempty"`
	SHA256       string          `json:"sha256,omitempty"`
	Multipart    []Part          `json:"multipart,omitempty"`
	Length       int             `json:"length,omitempty"`
}

// Part is one part of a recorded multipart form: its bytes only by length
// and hash.
type Part struct {
	Name        string `json:"name"`
	Filename    string `json:"filename,omitempty"`
	ContentType string `json:"content_type,omitempty"`
	Length      int    `json:"length"`
	SHA256      string `json:"sha256"`
}

// Recorder proxies to Target and writes every exchange to Out.
type Recorder struct {
	target    *url.URL
	out       io.Writer
	transport http.RoundTripper
	tokens    map[string]string // token → whose ("admin")

	mu   sync.Mutex
	seq  int
	tool string
	call *int
}

// New returns a recorder forwarding to target, writing lines to out, their
// seq counting from firstSeq. tokens maps each token the sweep uses to the
// name a line's "auth" shows for it.
func New(target *url.URL, out io.Writer, firstSeq int, tokens map[string]string) *Recorder {
	return &Recorder{target: target, out: out, transport: http.DefaultTransport,
		tokens: tokens, seq: firstSeq - 1, tool: "(probe)"}
}

// SetTool labels the requests that follow: a tool call's (call counts the
// calls) or, with call nil, the sweep's own ("(seed) …").
func (r *Recorder) SetTool(name string, call *int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.tool, r.call = name, call
}

// ServeHTTP forwards one request and records it.
func (r *Recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	start := time.Now()
	reqBody, err := io.ReadAll(io.LimitReader(req.Body, maxBody))
	if err != nil {
		http.Error(w, "recorder: reading the request: "+err.Error(), http.StatusBadGateway)
		return
	}
	out := req.Clone(req.Context())
	out.RequestURI = ""
	// The Host header stays the proxy's: a forge that builds absolute
	// URLs from the request (Gitea 1.26's default) then names the proxy,
	// as one that uses its ROOT_URL does.
	out.URL.Scheme, out.URL.Host = r.target.Scheme, r.target.Host
	out.Body = io.NopCloser(bytes.NewReader(reqBody))
	out.ContentLength = int64(len(reqBody))
	resp, err := r.transport.RoundTrip(out) // never follows redirects: the tool sees them
	if err != nil {
		http.Error(w, "recorder: forwarding: "+err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	respBody, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		http.Error(w, "recorder: reading the answer: "+err.Error(), http.StatusBadGateway)
		return
	}
	for k, vs := range resp.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	w.Header().Del("Content-Length")
	w.WriteHeader(resp.StatusCode)
	_, _ = w.Write(respBody)

	e := Exchange{
		Method:         req.Method,
		Path:           req.URL.RequestURI(),
		Auth:           r.whose(req.Header.Get("Authorization")),
		RequestRange:   req.Header.Get("Range"),
		Status:         resp.StatusCode,
		ResponseBody:   recordBody(resp.Header.Get("Content-Type"), respBody),
		ResponseLength: len(respBody),
		MS:             time.Since(start).Milliseconds(),
	}
	if len(reqBody) > 0 {
		e.RequestContentType = req.Header.Get("Content-Type")
		e.RequestBody = recordBody(e.RequestContentType, reqBody)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "" {
		e.ContentType = &ct
	}
	for _, h := range keptHeaders {
		if vs := resp.Header.Values(h); len(vs) > 0 {
			if e.Headers == nil {
				e.Headers = map[string]string{}
			}
			e.Headers[h] = strings.Join(vs, ", ")
		}
	}
	r.write(e)
}

// whose names the token an Authorization header carries; "none" without
// one, "unknown" for a token the recorder was not told about.
func (r *Recorder) whose(authz string) string {
	if authz == "" {
		return "none"
	}
	_, tok, _ := strings.Cut(authz, " ")
	if name, ok := r.tokens[strings.TrimSpace(tok)]; ok {
		return name
	}
	return "unknown"
}

// write numbers e and appends it as one line, every known token replaced.
func (r *Recorder) write(e Exchange) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seq++
	e.Seq, e.Tool, e.Call = r.seq, r.tool, r.call
	// "&" in a query stays "&", as in the first recordings: no HTML escapes.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(e); err != nil { // only RawMessage could fail, and it was checked valid
		buf.Reset()
		_ = enc.Encode(map[string]any{"seq": e.Seq, "error": err.Error()})
	}
	s := strings.TrimSuffix(buf.String(), "\n")
	for tok := range r.tokens {
		if tok != "" {
			s = strings.ReplaceAll(s, tok, "<token>")
		}
	}
	_, _ = io.WriteString(r.out, s+"\n")
}

// recordBody records b by its content type: JSON as JSON, a multipart
// form by its parts, text cut at TextLimit, anything else by length and
// hash. Nil for an empty body.
func recordBody(contentType string, b []byte) *Body {
	if len(b) == 0 {
		return nil
	}
	mt, params, _ := mime.ParseMediaType(contentType)
	switch {
	case strings.Contains(mt, "json") && json.Valid(b):
		var c bytes.Buffer
		if json.Compact(&c, b) == nil {
			return &Body{JSON: c.Bytes()}
		}
	case strings.HasPrefix(mt, "multipart/") && params["boundary"] != "":
		if parts, ok := recordParts(b, params["boundary"]); ok {
			return &Body{Multipart: parts, Length: len(b)}
		}
	}
	if utf8.Valid(b) {
		t := cutText(b)
		return &Body{Text: &t}
	}
	sum := sha256.Sum256(b)
	return &Body{BinaryLength: len(b), SHA256: hex.EncodeToString(sum[:])}
}

func recordParts(b []byte, boundary string) ([]Part, bool) {
	mr := multipart.NewReader(bytes.NewReader(b), boundary)
	var parts []Part
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return parts, true
		}
		if err != nil {
			return nil, false
		}
		data, err := io.ReadAll(p)
		if err != nil {
			return nil, false
		}
		sum := sha256.Sum256(data)
		parts = append(parts, Part{Name: p.FormName(), Filename: p.FileName(),
			ContentType: p.Header.Get("Content-Type"), Length: len(data), SHA256: hex.EncodeToString(sum[:])})
	}
}

// cutText is b's first TextLimit bytes, not splitting a character.
func cutText(b []byte) string {
	if len(b) <= TextLimit {
		return string(b)
	}
	b = b[:TextLimit]
	for len(b) > 0 && !utf8.Valid(b) {
		b = b[:len(b)-1]
	}
	return string(b)
}
