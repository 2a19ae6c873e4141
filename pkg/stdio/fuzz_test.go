package stdio

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

var frameSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"x","arguments":{}}}`,
	`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
	`{"jsonrpc":"2.0","id":1,"result":{}}`,
	`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, `[]`, `{}`, `null`, `42`, `"x"`, `{"jsonrpc":"2.0","id":null,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, `{"jsonrpc":"2.0","id":1,"method":"ping","params":"x"}`,
	"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\xffing\"}", `{"jsonrpc":"2.0","ID":1,"Method":"ping"}`,
	`{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`, `{"jsonrpc":"2.0","id":"\u0031","method":"ping"}`,
}

// FuzzServe: any input, split in lines, never stops the server from
// writing only whole JSON-RPC objects, one per line, and returning.
func FuzzServe(f *testing.F) {
	f.Add([]byte(strings.Join(frameSeeds, "\n")))
	f.Add([]byte(strings.Repeat("x", 300) + "\n" + frameSeeds[0]))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := server.NewMCPServer("fuzz", "1")
		var out bytes.Buffer
		err := Serve(context.Background(), s, bytes.NewReader(data), &out, Limits{MaxFrameBytes: 256, ShutdownGrace: 100 * time.Millisecond}, nil)
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
		sc := bufio.NewScanner(&out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil || m["jsonrpc"] != "2.0" {
				t.Fatalf("wrote %q", sc.Text())
			}
		}
	})
}
