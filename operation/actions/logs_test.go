package actions_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/actions"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// bigLog is a 5 MB job log as Gitea writes it (a timestamp, then the
// line), coloured with ANSI codes that JSON escapes to six bytes each, and
// ending in the error.
func bigLog() []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < 5<<20; i++ {
		fmt.Fprintf(&b, "2026-01-02T03:04:05.0000000Z \x1b[32mok\x1b[0m step %d: compiling \"pkg/%d\" <%d>\n", i, i, i)
	}
	b.WriteString("2026-01-02T03:04:06.0000000Z \x1b[31mFAIL\x1b[0m: TestThing: want 1, got 2\n")
	b.WriteString("2026-01-02T03:04:06.0000000Z exit status 1\n")
	return b.Bytes()
}

func serveLog(t *testing.T, log []byte, ranges bool) *fakeforge.Server {
	f := fakeforge.New(t)
	f.Handle("GET /api/v1/repos/o/r/actions/jobs/9/logs", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		if ranges {
			http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(log))
			return
		}
		_, _ = w.Write(log)
	})
	return f
}

func readLog(t *testing.T, f *fakeforge.Server, args map[string]any) (actions.Log, string) {
	t.Helper()
	args["owner"], args["repo"], args["job_id"] = "o", "r", 9.0
	res := f.Call(t, actions.Tools(), "get_action_job_logs", args)
	text := fakeforge.Text(t, res)
	require.False(t, res.IsError, text)
	assert.LessOrEqual(t, len(text), tool.MaxResultBytes, "the result fits the client")
	var out actions.Log
	require.NoError(t, json.Unmarshal([]byte(text), &out))
	return out, text
}

func TestJobLogTail(t *testing.T) {
	log := bigLog()
	for _, ranges := range []bool{true, false} {
		t.Run(fmt.Sprintf("ranges=%v", ranges), func(t *testing.T) {
			f := serveLog(t, log, ranges)
			out, _ := readLog(t, f, map[string]any{})
			lines := strings.SplitAfter(out.Log, "\n")
			assert.Len(t, lines, actions.DefaultTailLines+1, "100 lines and the empty rest")
			assert.True(t, strings.HasSuffix(out.Log, "exit status 1\n"))
			assert.Contains(t, out.Log, "FAIL")
			assert.EqualValues(t, len(log), out.TotalBytes)
			assert.Equal(t, string(log[out.Offset:]), out.Log, "offset is where the text starts")
			assert.Contains(t, out.Note, fmt.Sprintf("the last 100 lines, from byte %d", out.Offset))

			// More lines than fit: as many as fit, whole lines only.
			out, text := readLog(t, f, map[string]any{"tail_lines": 5000.0})
			assert.Greater(t, len(text), tool.TextBudget-1000)
			assert.Equal(t, string(log[out.Offset:]), out.Log)
			assert.Equal(t, byte('\n'), log[out.Offset-1], "the text starts at a line start")

			out, _ = readLog(t, f, map[string]any{"tail_lines": 2.0})
			assert.Equal(t, "2026-01-02T03:04:06.0000000Z \x1b[31mFAIL\x1b[0m: TestThing: want 1, got 2\n2026-01-02T03:04:06.0000000Z exit status 1\n", out.Log)
		})
	}
}

func TestJobLogWindowAndGrep(t *testing.T) {
	log := bigLog()
	f := serveLog(t, log, true)
	out, _ := readLog(t, f, map[string]any{"offset": 0.0})
	assert.Zero(t, out.Offset)
	assert.Equal(t, string(log[:out.NextOffset]), out.Log, "a window from the start, cut at a line end")
	assert.Equal(t, byte('\n'), log[out.NextOffset-1])
	next, _ := readLog(t, f, map[string]any{"offset": float64(out.NextOffset)})
	assert.Equal(t, string(log[out.NextOffset:next.NextOffset]), next.Log)

	out, _ = readLog(t, f, map[string]any{"grep": `FAIL|exit status`})
	require.Len(t, out.Matches, 2)
	assert.Equal(t, "2026-01-02T03:04:06.0000000Z exit status 1", out.Matches[1].Text)
	assert.Equal(t, int64(bytes.Count(log, []byte("\n"))), out.Matches[1].Line)
	assert.Equal(t, int64(bytes.LastIndex(log[:len(log)-1], []byte("\n"))+1), out.Matches[1].Offset)
	assert.Empty(t, out.Note)

	out, _ = readLog(t, f, map[string]any{"grep": `(?i)COMPILING`})
	assert.Greater(t, len(out.Matches), 100)
	assert.Regexp(t, `^\d+ of \d+ lines match; the first \d+ are shown`, out.Note)
	assert.EqualValues(t, 1, out.Matches[0].Line)

	out, _ = readLog(t, f, map[string]any{"grep": "nothing like this"})
	assert.Empty(t, out.Matches)
	assert.Regexp(t, `^no line of \d+ matches$`, out.Note)

	res := f.Call(t, actions.Tools(), "get_action_job_logs", map[string]any{"owner": "o", "repo": "r", "job_id": 9.0, "grep": "(unclosed"})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "grep is not a regular expression")
}

func TestJobLogEmpty(t *testing.T) {
	f := serveLog(t, nil, true)
	out, _ := readLog(t, f, map[string]any{})
	assert.Empty(t, out.Log)
	assert.Equal(t, "the log is empty", out.Note)
}
