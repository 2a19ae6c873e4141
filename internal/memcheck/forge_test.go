package memcheck

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// How much a hostile forge offers, written as the client reads it, never
// held: a list of 500 MB (issue 26, item 5), and one just under the 32
// MiB response cap, which the bytes alone let through to be decoded.
const (
	bigAnswer   = 500 << 20
	underTheCap = 31 << 20
)

// forgeAnswer is what a hostile forge answers a list request with.
type forgeAnswer struct {
	name   string
	size   int
	status int
	// open, item, close make the body: open item,item,… close, up to
	// forgeAnswerBytes.
	open, item, close string
}

// forgeAnswers are the shapes: real repositories (a recorded answer of
// Forgejo 13.0.5, repeated), and the shapes that cost most decoded.
func forgeAnswers(t *testing.T) []forgeAnswer {
	repo := recordedRepo(t)
	return []forgeAnswer{
		{name: "500MB-real-repos", size: bigAnswer, status: 200, open: "[", item: repo, close: "]"},
		{name: "500MB-empty-objects", size: bigAnswer, status: 200, open: "[", item: "{}", close: "]"},
		{name: "500MB-strings", size: bigAnswer, status: 200, open: "[", item: `"` + strings.Repeat("s", 62) + `"`, close: "]"},
		{name: "500MB-deep", size: bigAnswer, status: 200, open: "", item: "[", close: ""},
		{name: "31MiB-empty-objects", size: underTheCap, status: 200, open: "[", item: "{}", close: "]"},
		{name: "31MiB-numbers", size: underTheCap, status: 200, open: "[", item: "1", close: "]"},
		{name: "31MiB-error-body", size: underTheCap, status: 500, open: `{"message":"boom","junk":[`, item: "{}", close: "]}"},
		// The costliest answers taken: just within the response limit,
		// decoded, and made into a result.
		{name: "budget-real-repos", size: withinBudget(repo), status: 200, open: "[", item: repo, close: "]"},
		{name: "budget-empty-objects", size: withinBudget("{}"), status: 200, open: "[", item: "{}", close: "]"},
	}
}

// withinBudget is the size of the longest list of item whose decoding
// cost stays within the response limit.
func withinBudget(item string) int {
	per := forgejo.DecodeCost([]byte("["+item+","+item+"]")) - forgejo.DecodeCost([]byte("["+item+"]"))
	n := (forgejo.DefaultMaxResponseBytes - 1024) / per
	return int(n) * (len(item) + 1)
}

// recordedRepo is one repository as a real Forgejo 13.0.5 answered it.
func recordedRepo(t *testing.T) string {
	recs, err := fakeforge.Recordings()
	require.NoError(t, err)
	one := regexp.MustCompile(`^/api/v1/repos/[^/]+/[^/]+$`)
	for _, e := range recs[0].Exchanges {
		if e.Method == http.MethodGet && e.Status == 200 && one.MatchString(e.Route()) && e.Response != nil && len(e.Response.JSON) > 1000 {
			var b bytes.Buffer
			require.NoError(t, json.Compact(&b, e.Response.JSON))
			return b.String()
		}
	}
	t.Fatal("no recorded repository")
	return ""
}

// serve writes the answer, about a.size bytes, until the client stops
// reading.
func (a forgeAnswer) serve(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(a.status)
	chunk := []byte(strings.Repeat(a.item+",", max(1, (64<<10)/(len(a.item)+1))))
	if a.item == "[" {
		chunk = bytes.Repeat([]byte("["), 64<<10)
	}
	if _, err := w.Write([]byte(a.open + a.item)); err != nil {
		return
	}
	for sent := len(a.open); sent+len(chunk)+len(a.close) < a.size; sent += len(chunk) {
		if a.item != "[" {
			if _, err := w.Write([]byte(",")); err != nil {
				return
			}
		}
		if _, err := w.Write(chunk[:len(chunk)-1]); err != nil {
			return
		}
	}
	_, _ = w.Write([]byte(a.close))
}

// TestForgeAnswerMemory: a forge (or a proxy in front of one) answering a
// list with 500 MB, or just under the response cap, in shapes that cost
// most when decoded, to an SDK call
// (list_my_repos) and to a raw one (list_workflow_runs), on stdio and four
// at once over HTTP: a fresh process per case, its peak RSS and reply.
func TestForgeAnswerMemory(t *testing.T) {
	if os.Getenv(envRun) == "" {
		t.Skipf("set %s=1 to run (scripts/check does, as its own step)", envRun)
	}
	bin := binary(t)
	t.Setenv(envArgs, os.Getenv(envArgs)+" --toolsets all")
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "FORGEJO_ACCESS_TOKEN=memcheck-token-0123456789"}
	sdkCall := toolCall("list_my_repos", map[string]any{})
	rawCall := toolCall("list_workflow_runs", map[string]any{"owner": "o", "repo": "r"})
	cs := &cases{t: t}
	for _, a := range forgeAnswers(t) {
		f := fakeforge.New(t)
		f.JSON("GET /api/v1/version", 200, map[string]any{"version": "1.26.0"})
		f.JSON("GET /api/v1/user", 200, map[string]any{"id": 1, "login": "alice"})
		f.Handle("GET /api/v1/user/repos", a.serve)
		runs := a
		if a.open == "[" { // the runs route answers an object around the list
			runs.open, runs.close = `{"total_count":1,"workflow_runs":[`, "]}"
		}
		f.Handle("GET /api/v1/repos/o/r/actions/runs", runs.serve)
		for _, c := range []struct {
			kind string
			msg  []byte
		}{{"sdk", sdkCall}, {"raw", rawCall}} {
			cs.run("stdio/forge-"+a.name+"-"+c.kind, stdioTargetMB, func(t *testing.T) (int64, string) {
				p := startStdio(t, bin, f.URL, env)
				p.roundTrip(t, []byte(`{"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"memcheck","version":"1"}}}`))
				reply := p.roundTrip(t, c.msg)
				return p.peak(t), summary(reply)
			})
		}
		cs.run("http/forge-"+a.name+"-x4", httpTargetMB, func(t *testing.T) (int64, string) {
			h := startHTTP(t, bin, f.URL, env)
			replies := h.postConcurrently(t, "memcheck-token-0123456789", [][]byte{sdkCall, rawCall, sdkCall, rawCall})
			notes := map[string]int{}
			for _, r := range replies {
				notes[clip(summary(r))]++
			}
			return h.peak(t), counts("%s", notes)
		})
	}
	report(t, cs.rows)
}
