package rpcguard

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

func TestCheckEnvelope(t *testing.T) {
	tests := []struct {
		name   string
		msg    string
		code   int    // 0: accepted
		id     string // the reply's id when refused, the message's when accepted
		kind   Kind
		method string
		err    string
	}{
		{name: "request", msg: `{"jsonrpc":"2.0","id":1,"method":"ping"}`, id: `1`, kind: KindRequest, method: "ping"},
		{name: "white space around", msg: " \t{ \"jsonrpc\" : \"2.0\" , \"id\" : \"a\" , \"method\" : \"ping\" }\r\n", id: `"a"`, kind: KindRequest, method: "ping"},
		{name: "notification", msg: `{"jsonrpc":"2.0","method":"notifications/initialized"}`, kind: KindNotification, method: "notifications/initialized"},
		{name: "response", msg: `{"jsonrpc":"2.0","id":7,"result":{}}`, id: `7`, kind: KindResponse},
		{name: "error response", msg: `{"jsonrpc":"2.0","id":7,"error":{"code":1,"message":"x"}}`, id: `7`, kind: KindResponse},
		{name: "escaped method", msg: `{"jsonrpc":"2.0","id":1,"method":"p\u0069ng"}`, id: `1`, kind: KindRequest, method: "ping"},
		{name: "unknown members pass", msg: `{"jsonrpc":"2.0","id":1,"method":"ping","x":[1,{"y":null}]}`, id: `1`, kind: KindRequest, method: "ping"},
		{name: "invalid UTF-8", msg: "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\xffing\"}", code: CodeParseError, id: "null", err: "UTF-8"},
		{name: "invalid JSON", msg: `{"jsonrpc":"2.0","id":1,`, code: CodeParseError, id: "null", err: "not valid JSON"},
		{name: "trailing garbage", msg: `{"jsonrpc":"2.0","id":1,"method":"ping"} x`, code: CodeParseError, id: "null"},
		{name: "two messages", msg: `{"jsonrpc":"2.0","id":1,"method":"ping"}{}`, code: CodeParseError, id: "null"},
		{name: "batch", msg: `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, code: CodeInvalidRequest, id: "null", err: "batches are not supported"},
		{name: "invalid batch", msg: `[{"jsonrpc":"2.0","id":1,`, code: CodeParseError, id: "null"},
		{name: "number", msg: `42`, code: CodeInvalidRequest, id: "null", err: "must be a JSON object"},
		{name: "empty", msg: ``, code: CodeParseError, id: "null"},
		{name: "no jsonrpc", msg: `{"id":4,"method":"ping"}`, code: CodeInvalidRequest, id: `4`, err: `jsonrpc must be "2.0"`},
		{name: "jsonrpc 1.0", msg: `{"jsonrpc":"1.0","id":4,"method":"ping"}`, code: CodeInvalidRequest, id: `4`, err: `jsonrpc must be "2.0"`},
		{name: "no method", msg: `{"jsonrpc":"2.0","id":5}`, code: CodeInvalidRequest, id: `5`, err: "no method"},
		{name: "method not a string", msg: `{"jsonrpc":"2.0","id":6,"method":7}`, code: CodeInvalidRequest, id: `6`, err: "method must be"},
		{name: "empty method", msg: `{"jsonrpc":"2.0","id":6,"method":""}`, code: CodeInvalidRequest, id: `6`, err: "method must be"},
		{name: "params not an object", msg: `{"jsonrpc":"2.0","id":7,"method":"ping","params":"x"}`, code: CodeInvalidRequest, id: `7`, err: "params must be"},
		{name: "null params", msg: `{"jsonrpc":"2.0","id":7,"method":"ping","params":null}`, id: `7`, kind: KindRequest, method: "ping"},
		{name: "method and result", msg: `{"jsonrpc":"2.0","id":8,"method":"ping","result":{}}`, code: CodeInvalidRequest, id: `8`, err: "carries no result"},
		{name: "duplicate id", msg: `{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`, code: CodeInvalidRequest, id: "null", err: `named "id"`},
		{name: "id in another case", msg: `{"jsonrpc":"2.0","id":1,"ID":{},"method":"ping"}`, code: CodeInvalidRequest, id: "null", err: `named "id"`},
		{name: "method in another case", msg: `{"jsonrpc":"2.0","id":1,"Method":"x","method":"ping"}`, code: CodeInvalidRequest, id: `1`, err: `named "method"`},
		{name: "escaped case variant", msg: `{"jsonrpc":"2.0","id":1,"\u0050arams":{},"method":"ping"}`, code: CodeInvalidRequest, id: `1`, err: `named "params"`},
		{name: "Unicode case fold", msg: `{"jsonrpc":"2.0","id":1,"paramſ":{},"method":"ping"}`, code: CodeInvalidRequest, id: `1`, err: `named "params"`},
		{name: "tools/call params twice", msg: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":{},"Arguments":{}}}`, code: CodeInvalidRequest, id: `1`, err: `member of params is named "arguments"`},
		{name: "other method's params unchecked", msg: `{"jsonrpc":"2.0","id":1,"method":"x","params":{"name":"a","Name":"b"}}`, id: `1`, kind: KindRequest, method: "x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Check([]byte(tt.msg), Limits{})
			if tt.code != 0 {
				require.NotNil(t, err, "accepted: %+v", m)
				assert.Equal(t, tt.code, err.Code)
				assert.Equal(t, tt.id, string(err.ID))
				assert.Contains(t, err.Message, tt.err)
				return
			}
			require.Nil(t, err)
			assert.Equal(t, tt.kind, m.Kind)
			assert.Equal(t, tt.method, m.Method)
			assert.Equal(t, tt.id, string(m.ID))
			assert.Equal(t, len(tt.msg), m.Bytes)
		})
	}
}

// idForms are ids as clients may send them, with whether they are
// accepted.
var idForms = []struct {
	raw string
	ok  bool
}{
	{`0`, true}, {`1`, true}, {`-1`, true}, {`42`, true},
	{`9007199254740992`, true}, {`-9007199254740992`, true}, // ±2^53
	{`9007199254740993`, false}, {`-9007199254740993`, false}, // 2^53+1
	{`18446744073709551616`, false}, // 2^64
	{`99999999999999999999999`, false},
	{`1.5`, false}, {`1.0`, false}, {`-0`, false}, {`1e3`, false}, {`1E3`, false},
	{`true`, false}, {`false`, false}, {`null`, false}, {`{}`, false}, {`[]`, false}, {`[1]`, false},
	{`""`, true}, {`"a"`, true}, {`"\u0061"`, true}, {`"18446744073709551616"`, true}, {`"😀"`, true},
}

func TestIDs(t *testing.T) {
	for _, f := range idForms {
		t.Run(f.raw, func(t *testing.T) {
			assert.Equal(t, f.ok, ValidID([]byte(f.raw)))
			m, err := Check([]byte(`{"jsonrpc":"2.0","id":`+f.raw+`,"method":"ping"}`), Limits{})
			if f.ok {
				require.Nil(t, err)
				assert.Equal(t, f.raw, string(m.ID), "the id is kept exactly as sent")
				return
			}
			require.NotNil(t, err)
			assert.Equal(t, CodeInvalidRequest, err.Code)
			assert.Equal(t, "null", string(err.ID))
			assert.Contains(t, err.Message, "id must be a string or an integer from -2^53 to 2^53")
			// The same id on a response is refused too.
			_, err = Check([]byte(`{"jsonrpc":"2.0","id":`+f.raw+`,"result":{}}`), Limits{})
			require.NotNil(t, err)
		})
	}
}

func TestRecoverID(t *testing.T) {
	big := strings.Repeat("x", 100<<10)
	assert.Equal(t, `"a"`, string(RecoverID([]byte(`{"jsonrpc":"2.0","id":"a","method":"ping","params":{"p":"`+big))))
	assert.Equal(t, `3`, string(RecoverID([]byte(`{"id":3,"params":[1,2,`))))
	assert.Equal(t, "null", string(RecoverID([]byte(`{"jsonrpc":"2.0","method":"ping","params":{"p":"`+big+`"},"id":3}`))), "past the first 64 KiB")
	assert.Equal(t, "null", string(RecoverID([]byte(`{"id":1.5,"params":`))))
	assert.Equal(t, "null", string(RecoverID([]byte(`{"id":1,"ID":2,"params":`))))
	assert.Equal(t, "null", string(RecoverID([]byte(`[{"id":1}`))))
	assert.Equal(t, "null", string(RecoverID([]byte(`{"id":12`))), "a number cut short is no id")
}

// call is a tools/call of name with args (raw JSON), id 1.
func call(name, args string) []byte {
	return []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":` + name + `,"arguments":` + args + `}}`)
}

func limits() Limits {
	return Limits{MaxDepth: 8, MaxValues: 100, MaxOtherBytes: 1000, ArgLimit: func(name string) (int64, string) {
		if name == "upload" {
			return 10000, "upload: over 10000"
		}
		return 200, name + ": over 200"
	}}
}

func TestBounds(t *testing.T) {
	list := func(n int) string { return "[" + strings.TrimSuffix(strings.Repeat("1,", n), ",") + "]" }
	nest := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	tests := []struct {
		name    string
		msg     []byte
		code    int    // a protocol refusal
		id      string // its id, when not 1
		refused string // or refused arguments
		err     string
	}{
		{name: "small call", msg: call(`"t"`, `{"a":"b"}`)},
		{name: "arguments at the tool's limit", msg: call(`"t"`, `{"a":"`+strings.Repeat("x", 200-8)+`"}`)},
		{name: "arguments past the tool's limit", msg: call(`"t"`, `{"a":"`+strings.Repeat("x", 200-7)+`"}`), refused: "t: over 200"},
		{name: "white space is not counted", msg: call(`"t"`, `{"a":"`+strings.Repeat("x", 200-8)+`"`+strings.Repeat(" ", 500)+`}`)},
		{name: "large tool", msg: call(`"upload"`, `{"a":"`+strings.Repeat("x", 5000)+`"}`)},
		{name: "unknown tool gets the smallest limit", msg: call(`"nope"`, `{"a":"`+strings.Repeat("x", 300)+`"}`), refused: "nope: over 200"},
		{name: "arguments too deep", msg: call(`"upload"`, `{"a":`+nest(6)+`}`), refused: "upload: they nest deeper than 6 levels"},
		{name: "arguments at the depth", msg: call(`"upload"`, `{"a":`+nest(4)+`}`)},
		// The message besides the arguments holds 12 values.
		{name: "arguments with too many values", msg: call(`"upload"`, `{"a":`+list(86)+`}`), refused: "upload: they hold more than 88 JSON values"},
		{name: "arguments at the value bound", msg: call(`"upload"`, `{"a":`+list(85)+`}`)},
		{name: "too deep elsewhere", msg: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":` + nest(7) + `}}`), code: CodeInvalidRequest, err: "nests deeper than 8 levels"},
		{name: "too many values elsewhere", msg: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":` + list(100) + `}}`), code: CodeInvalidRequest, err: "more than 100 JSON values"},
		{name: "too many values in _meta", msg: []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":` + list(100) + `,"name":"t","arguments":{}}}`), code: CodeInvalidRequest, err: "more than 100 JSON values"},
		{name: "too large elsewhere", msg: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"` + strings.Repeat("x", 1000) + `"}}`), code: CodeInvalidRequest, err: "over the limit of 1000 bytes for anything but"},
		{name: "too large besides arguments", msg: []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"x":"` + strings.Repeat("x", 1000) + `"},"name":"upload","arguments":{}}}`), code: CodeInvalidRequest, err: "without the tool's arguments"},
		{name: "arguments of a notification are not exempt", msg: []byte(`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"upload","arguments":{"a":"` + strings.Repeat("x", 1000) + `"}}}`), code: CodeInvalidRequest, id: "null", err: "for anything but"},
		{name: "a name that is no string exempts nothing", msg: call(`7`, `{"a":"`+strings.Repeat("x", 1000)+`"}`), code: CodeInvalidRequest},
		{name: "deep arguments are scanned without recursion", msg: call(`"upload"`, nest(1<<20)), refused: "upload: over 10000"},
		// Issue 18, item 10: a 16 MiB literal cost ~200 MB to decode and
		// came back whole in the decoder's error.
		{name: "number at the bound", msg: call(`"upload"`, `{"a":`+strings.Repeat("9", MaxNumberBytes)+`}`)},
		{name: "number past the bound", msg: call(`"upload"`, `{"a":`+strings.Repeat("9", MaxNumberBytes+1)+`}`), refused: "upload: a number is longer than 64 characters or out of range"},
		{name: "number out of float64's range", msg: call(`"upload"`, `{"a":[1,1e309]}`), refused: "upload: a number is longer than 64 characters"},
		{name: "small exponents are numbers", msg: call(`"upload"`, `{"a":[-1.5e-300,2E+10,1e308]}`)},
		{name: "long number elsewhere", msg: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":` + strings.Repeat("1", 500) + `}}`), code: CodeInvalidRequest, err: "holds a number longer than 64 characters or out of float64's range"},
		{name: "deep nesting is scanned without recursion", msg: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":` + nest(1<<20) + `}}`), code: CodeInvalidRequest, err: "nests deeper than 8 levels"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Check(tt.msg, limits())
			if tt.code != 0 {
				require.NotNil(t, err, "accepted: %+v", m)
				assert.Equal(t, tt.code, err.Code)
				assert.Contains(t, err.Message, tt.err)
				id := tt.id
				if id == "" {
					id = "1"
				}
				assert.Equal(t, id, string(err.ID))
				return
			}
			require.Nil(t, err)
			if tt.refused == "" {
				assert.Empty(t, m.RefusedArgs)
				assert.Equal(t, string(tt.msg), string(m.Forward(tt.msg)))
				return
			}
			assert.Contains(t, m.RefusedArgs, tt.refused)
			fwd := m.Forward(tt.msg)
			assert.True(t, json.Valid(fwd))
			var p struct {
				Params struct {
					Arguments json.RawMessage `json:"arguments"`
				} `json:"params"`
			}
			require.NoError(t, json.Unmarshal(fwd, &p))
			assert.Equal(t, "{}", string(p.Params.Arguments), "the arguments are cut out")
			ctx := m.Context(context.Background())
			assert.NotEqual(t, context.Background(), ctx)
		})
	}
}

func TestToolLimits(t *testing.T) {
	r := &tool.Runner{MaxArgBytes: 1000, MaxLargeArgBytes: 5000}
	f := ToolLimits([]tool.Def{{Name: "small"}, {Name: "large", LargeArgs: true}}, r)
	n, msg := f("small")
	assert.Equal(t, int64(1000), n)
	assert.Contains(t, msg, "invalid arguments for small: they are over this tool's limit of 1000 bytes (as JSON)")
	n, msg = f("large")
	assert.Equal(t, int64(5000), n)
	assert.Contains(t, msg, "4.9 KiB")
	n, _ = f("unknown")
	assert.Equal(t, int64(1000), n)
}

// TestCheckAllocates: a message is checked without decoding it, whatever
// its shape: a few allocations at most, none per value.
func TestCheckAllocates(t *testing.T) {
	shapes := map[string]string{
		"objects":     "[" + strings.TrimSuffix(strings.Repeat("{},", 100000), ",") + "]",
		"numbers":     "[" + strings.TrimSuffix(strings.Repeat("12345,", 100000), ",") + "]",
		"keys":        `{"` + strings.Repeat(`k":0,"`, 100000) + `k":0}`,
		"deep":        strings.Repeat("[", 1000) + strings.Repeat("]", 1000),
		"string":      `"` + strings.Repeat("x", 1<<20) + `"`,
		"exponents":   "[" + strings.TrimSuffix(strings.Repeat("1.5e10,", 100000), ",") + "]",
		"long number": strings.Repeat("1", 1<<20),
	}
	for name, args := range shapes {
		msg := call(`"upload"`, args)
		allocs := testing.AllocsPerRun(5, func() { _, _ = Check(msg, Limits{}) })
		assert.LessOrEqual(t, allocs, 16.0, name)
	}
}

var fuzzSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"x","arguments":{"a":[1,2,{"b":null}]}}}`,
	`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
	`{"jsonrpc":"2.0","id":1,"result":{}}`, `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, `[]`, `{}`, `null`, `42`,
	`"x"`, `-0.5e+10`, `{"jsonrpc":"2.0","id":null,"method":"ping"}`, `{"jsonrpc":"2.0","id":1e3,"method":"ping"}`,
	`{"a":"\u00e9\n\"\\"}`, `{"jsonrpc":"2.0","ID":1,"Method":"ping"}`, `{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`,
	` { "jsonrpc" : "2.0" , "id" : 9007199254740993 , "method" : "x" } `, `[[[[]]]]`, `{"a":tru}`, `01`, `1.`, `"\ud800"`,
}

// FuzzCheck: Check agrees with encoding/json on what is valid JSON and on
// the members it reports, never panics, and what it passes on is valid
// JSON with the same id.
func FuzzCheck(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Check(data, Limits{MaxDepth: 6, MaxValues: 40, MaxOtherBytes: 200, ArgLimit: func(string) (int64, string) { return 30, "over" }})
		if utf8.Valid(data) {
			s := newScan(data)
			if s.invalid == json.Valid(data) {
				t.Fatalf("scan says invalid=%v, encoding/json says valid=%v", s.invalid, json.Valid(data))
			}
		}
		_ = RecoverID(data)
		if err != nil {
			if string(err.ID) != "null" && !ValidID(err.ID) {
				t.Fatalf("refusal with id %q", err.ID)
			}
			if err.Code >= 0 || err.Message == "" {
				t.Fatalf("bad refusal %+v", err)
			}
			return
		}
		var env map[string]json.RawMessage
		if e := json.Unmarshal(data, &env); e != nil {
			t.Fatalf("accepted what encoding/json cannot decode: %v", e)
		}
		if !bytes.Equal(env["id"], m.ID) || (m.ID != nil && !ValidID(m.ID)) {
			t.Fatalf("id %q, encoding/json finds %q", m.ID, env["id"])
		}
		fwd := m.Forward(data)
		if !json.Valid(fwd) {
			t.Fatalf("forwarded invalid JSON %q", fwd)
		}
		var base struct {
			ID     any    `json:"id"`
			Method string `json:"method"`
		}
		if e := json.Unmarshal(fwd, &base); e != nil || base.Method != m.Method {
			t.Fatalf("mcp-go would read method %q (%v), Check found %q", base.Method, e, m.Method)
		}
	})
}
