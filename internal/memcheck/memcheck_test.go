package memcheck

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/pdfgen"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
)

// Targets, in MB (10^6 bytes) of peak resident memory (VmHWM).
const (
	stdioTargetMB = 128
	// pdfTargetMB bounds one download of a hostile PDF, text extracted.
	pdfTargetMB = 64
	// cliPDFTargetMB bounds a whole one-shot --cli download of the 10 MiB
	// PDF of issue 22, its text extracted.
	cliPDFTargetMB = 40
	httpTargetMB   = 256
	// maxMessage is the largest message both transports accept at default
	// limits: --max-frame-bytes and --http-max-body-bytes (16 MiB).
	maxMessage = 16 << 20
	// uploadBytes is the largest upload at default limits (--max-upload-bytes).
	uploadBytes = 10 << 20
	// concurrent is how many maximum-size bodies the HTTP cases send at once.
	concurrent = 4
)

// Env names.
const (
	envRun        = "FORGEJO_MCP_MEMCHECK" // set to run the check
	envBin        = "MEMCHECK_BIN"         // a built binary to measure instead of building one
	envReportOnly = "MEMCHECK_REPORT_ONLY" // measure and report, enforce nothing
	envOut        = "MEMCHECK_OUT"         // write the table (Markdown) here
	envCases      = "MEMCHECK_CASES"       // a regexp: only the cases whose name matches
	envArgs       = "MEMCHECK_ARGS"        // extra flags for the binary, for experiments
)

// TestPeakRSS runs the built binary on each transport with hostile
// messages of the maximum size and with real maximum-size uploads to the
// live forge, one fresh process per case, and checks its peak RSS.
func TestPeakRSS(t *testing.T) {
	if os.Getenv(envRun) == "" {
		t.Skipf("set %s=1 to run (scripts/check does, as its own step)", envRun)
	}
	forge := testforge.Get(t)
	bin := binary(t)
	owner, repo := forge.NewRepo(t)
	index := forge.NewIssue(t, owner, repo, "memcheck uploads", "")
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "FORGEJO_ACCESS_TOKEN=" + forge.Token}

	cs := &cases{t: t}
	run := cs.run

	uploadArgs := func() map[string]any {
		data := make([]byte, uploadBytes)
		_, _ = rand.Read(data)
		return map[string]any{"owner": owner, "repo": repo, "index": index,
			"filename": "memcheck.bin", "content": base64.StdEncoding.EncodeToString(data)}
	}

	// stdio: one message per fresh process.
	run("stdio/idle", stdioTargetMB, func(t *testing.T) (int64, string) {
		p := startStdio(t, bin, forge.URL, env)
		p.roundTrip(t, []byte(`{"jsonrpc":"2.0","id":"ping","method":"ping"}`))
		return p.peak(t), ""
	})
	for _, s := range hostile() {
		run("stdio/"+s.name, stdioTargetMB, func(t *testing.T) (int64, string) {
			p := startStdio(t, bin, forge.URL, env)
			p.roundTrip(t, []byte(`{"jsonrpc":"2.0","id":"ping","method":"ping"}`))
			reply := p.roundTrip(t, s.message(maxMessage))
			p.roundTrip(t, []byte(`{"jsonrpc":"2.0","id":"ping2","method":"ping"}`))
			return p.peak(t), summary(reply)
		})
	}
	run("stdio/upload-10MiB", stdioTargetMB, func(t *testing.T) (int64, string) {
		p := startStdio(t, bin, forge.URL, env)
		msg := toolCall("create_issue_attachment", uploadArgs())
		reply := p.roundTrip(t, msg)
		requireSuccess(t, reply)
		return p.peak(t), fmt.Sprintf("uploaded (%d-byte message)", len(msg))
	})

	// change_files with one file of 15 MiB of text (security issue 18,
	// item 10): the largest text a frame carries, written to the forge.
	run("stdio/change-files-15MiB", stdioTargetMB, func(t *testing.T) (int64, string) {
		p := startStdio(t, bin, forge.URL, env)
		text := strings.Repeat("All work and no play makes Jack a dull boy.\n", (15<<20)/44)
		msg := toolCall("change_files", map[string]any{"owner": owner, "repo": repo, "message": "memcheck",
			"files": []any{map[string]any{"operation": "create", "path": "big.txt", "content": text}}})
		reply := p.roundTrip(t, msg)
		requireSuccess(t, reply)
		return p.peak(t), fmt.Sprintf("committed (%d-byte message)", len(msg))
	})

	// PDF bombs (security issue 18 item 2): each is attached to the issue,
	// then downloaded, text extracted, by a fresh process.
	for _, b := range pdfgen.Bombs() {
		run("stdio/pdf-"+string(b), pdfTargetMB, func(t *testing.T) (int64, string) {
			up := startStdio(t, bin, forge.URL, env)
			reply := up.roundTrip(t, toolCall("create_issue_attachment", map[string]any{"owner": owner, "repo": repo, "index": index,
				"filename": string(b) + ".pdf", "content": base64.StdEncoding.EncodeToString(b.PDF())}))
			requireSuccess(t, reply)
			p := startStdio(t, bin, forge.URL, env)
			p.roundTrip(t, []byte(`{"jsonrpc":"2.0","id":"ping","method":"ping"}`))
			reply = p.roundTrip(t, toolCall("download_issue_attachment", map[string]any{"owner": owner, "repo": repo, "index": index,
				"attachment_id": attachmentID(t, reply)}))
			requireSuccess(t, reply)
			return p.peak(t), "downloaded, text: " + pdfNote(reply)
		})
	}

	// --cli: the whole one-shot process that downloads issue 22's 10 MiB
	// PDF (500 pages) and extracts its text up to the text budget.
	run("cli/download-pdf-10MiB", cliPDFTargetMB, func(t *testing.T) (int64, string) {
		file := filepath.Join(t.TempDir(), "ten.pdf")
		if err := os.WriteFile(file, pdfgen.TenMiB(), 0o600); err != nil {
			t.Fatal(err)
		}
		up, _ := runCLI(t, bin, forge.URL, env, "create_issue_attachment", "--max-upload-bytes", "16777216",
			"--owner", owner, "--repo", repo, "--index", fmt.Sprint(index), "--file", file)
		var att struct {
			ID int64 `json:"id"`
		}
		if err := json.Unmarshal(up, &att); err != nil || att.ID == 0 {
			t.Fatalf("no attachment id in %.300s", up)
		}
		out, peak := runCLI(t, bin, forge.URL, env, "download_issue_attachment",
			"--owner", owner, "--repo", repo, "--index", fmt.Sprint(index), "--attachment-id", fmt.Sprint(att.ID))
		if !bytes.Contains(out, []byte(`"page_count": 500`)) || !bytes.Contains(out, []byte("--- page 1 of 500 ---")) {
			t.Fatalf("no PDF text in the download: %.300s", out)
		}
		return peak, "downloaded, text of the first pages"
	})

	// HTTP: four maximum-size bodies at once per fresh process.
	for _, s := range hostile() {
		run("http/"+s.name+"-x4", httpTargetMB, func(t *testing.T) (int64, string) {
			h := startHTTP(t, bin, forge.URL, env)
			h.post(t, forge.Token, []byte(`{"jsonrpc":"2.0","id":"ping","method":"ping"}`))
			msg := s.message(maxMessage)
			replies := h.postConcurrently(t, forge.Token, [][]byte{msg, msg, msg, msg})
			h.post(t, forge.Token, []byte(`{"jsonrpc":"2.0","id":"ping2","method":"ping"}`))
			return h.peak(t), summary(replies[0])
		})
	}
	run("http/upload-10MiB-x4", httpTargetMB, func(t *testing.T) (int64, string) {
		h := startHTTP(t, bin, forge.URL, env)
		h.post(t, forge.Token, []byte(`{"jsonrpc":"2.0","id":"ping","method":"ping"}`))
		var msgs [][]byte
		for range concurrent {
			msgs = append(msgs, toolCall("create_issue_attachment", uploadArgs()))
		}
		for i, reply := range h.postConcurrently(t, forge.Token, msgs) {
			if forgeFailed(reply) {
				reply = h.post(t, forge.Token, msgs[i])
			}
			requireSuccess(t, reply)
		}
		return h.peak(t), "4 uploaded"
	})
	run("http/mix-x4", httpTargetMB, func(t *testing.T) (int64, string) {
		h := startHTTP(t, bin, forge.URL, env)
		h.post(t, forge.Token, []byte(`{"jsonrpc":"2.0","id":"ping","method":"ping"}`))
		shapes := hostile()
		msgs := [][]byte{toolCall("create_issue_attachment", uploadArgs())}
		for _, s := range shapes[:concurrent-1] {
			msgs = append(msgs, s.message(maxMessage))
		}
		replies := h.postConcurrently(t, forge.Token, msgs)
		if forgeFailed(replies[0]) {
			replies[0] = h.post(t, forge.Token, msgs[0])
		}
		requireSuccess(t, replies[0])
		return h.peak(t), "1 upload + " + strings.Join(names(shapes[:concurrent-1]), ", ")
	})

	report(t, cs.rows)
}

// cases runs the measured cases MEMCHECK_CASES selects and keeps their rows.
type cases struct {
	t    *testing.T
	mu   sync.Mutex
	next int // the order the next case was declared in
	rows []row
}

// run runs a case on its own, before the test's parallel cases.
func (c *cases) run(name string, limitMB int, f func(t *testing.T) (peakKB int64, note string)) {
	c.add(name, limitMB, false, f)
}

// parallel runs a case alongside the test's other parallel cases (up to
// go test's -parallel at once), once the test's body has returned: for
// cases that each measure a process of their own (its peak RSS, its CPU
// time) and spend most of their time waiting, so that running them at
// once shortens the run without changing what each measures. A test with
// parallel cases reports them from t.Cleanup (reportWhenDone).
func (c *cases) parallel(name string, limitMB int, f func(t *testing.T) (peakKB int64, note string)) {
	c.add(name, limitMB, true, f)
}

func (c *cases) add(name string, limitMB int, parallel bool, f func(t *testing.T) (peakKB int64, note string)) {
	if p := os.Getenv(envCases); p != "" && !regexp.MustCompile(p).MatchString(name) {
		return
	}
	seq := c.next
	c.next++
	c.t.Run(name, func(t *testing.T) {
		if parallel {
			t.Parallel()
		}
		peak, note := f(t)
		r := row{seq: seq, name: name, peakKB: peak, limitMB: limitMB, note: note}
		c.mu.Lock()
		c.rows = append(c.rows, r)
		c.mu.Unlock()
		t.Logf("%s: peak RSS %.1f MB %s", name, r.mb(), note)
		if os.Getenv(envReportOnly) == "" && r.mb() >= float64(limitMB) {
			t.Errorf("%s: peak RSS %.1f MB, over the target of %d MB", name, r.mb(), limitMB)
		}
	})
}

// reportWhenDone reports the cases' rows once every case, parallel ones
// included, has ended.
func (c *cases) reportWhenDone() {
	c.t.Cleanup(func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		report(c.t, c.rows)
	})
}

// row is one measured case.
type row struct {
	seq     int // the order the case was declared in, for the table
	name    string
	peakKB  int64
	limitMB int
	note    string
}

func (r row) mb() float64 { return float64(r.peakKB) * 1024 / 1e6 }

func report(t *testing.T, rows []row) {
	rows = slices.Clone(rows)
	slices.SortFunc(rows, func(a, b row) int { return a.seq - b.seq })
	var b strings.Builder
	b.WriteString("| Case | Peak RSS (VmHWM) | Target | Reply |\n|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %.0f MB | < %d MB | %s |\n", r.name, r.mb(), r.limitMB, strings.ReplaceAll(r.note, "|", "\\|"))
	}
	t.Logf("peak RSS per case:\n%s", b.String())
	if out := os.Getenv(envOut); out != "" {
		if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
			t.Errorf("writing %s: %v", out, err)
		}
	}
}

// shape is a hostile arguments value of a given size.
type shape struct {
	name string
	// fill returns a JSON value of exactly n bytes (n is large).
	fill func(n int) []byte
	// wrap puts the value in a tools/call; default: the content of an upload.
	wrap func(value []byte) (prefix, suffix string)
}

func hostile() []shape {
	upload := func([]byte) (string, string) {
		return `{"jsonrpc":"2.0","id":"hostile","method":"tools/call","params":{"name":"create_issue_attachment","arguments":{"owner":"o","repo":"r","index":1,"filename":"f.bin","content":`, `}}}`
	}
	ordinary := func([]byte) (string, string) {
		return `{"jsonrpc":"2.0","id":"hostile","method":"tools/call","params":{"name":"get_issue_attachment","arguments":{"owner":"o","repo":"r","index":1,"x":`, `}}}`
	}
	meta := func([]byte) (string, string) {
		return `{"jsonrpc":"2.0","id":"hostile","method":"tools/call","params":{"_meta":{"x":`, `},"name":"get_issue_attachment","arguments":{"owner":"o","repo":"r","index":1,"attachment_id":1}}}`
	}
	objects := func(n int) []byte { return repeated("[", "{}", ",", "]", n) }
	return []shape{
		{name: "objects", fill: objects, wrap: upload},
		{name: "numbers", fill: func(n int) []byte { return repeated("[", "1", ",", "]", n) }, wrap: upload},
		{name: "keys", fill: keys, wrap: upload},
		{name: "deep", fill: deep, wrap: upload},
		{name: "strings", fill: func(n int) []byte { return repeated("[", `"`+strings.Repeat("s", 62)+`"`, ",", "]", n) }, wrap: upload},
		{name: "long-string", fill: func(n int) []byte { return append(append([]byte{'"'}, bytes.Repeat([]byte{'A'}, n-2)...), '"') }, wrap: upload},
		// One number literal of the whole size (issue 18, item 10).
		{name: "long-number", fill: func(n int) []byte { return bytes.Repeat([]byte{'1'}, n) }, wrap: upload},
		{name: "objects-ordinary-tool", fill: objects, wrap: ordinary},
		{name: "objects-in-meta", fill: objects, wrap: meta},
	}
}

func names(ss []shape) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.name)
	}
	return out
}

// message is the whole tools/call, exactly size bytes.
func (s shape) message(size int) []byte {
	prefix, suffix := s.wrap(nil)
	value := s.fill(size - len(prefix) - len(suffix))
	msg := make([]byte, 0, size)
	msg = append(append(append(msg, prefix...), value...), suffix...)
	if len(msg) != size {
		panic(fmt.Sprintf("%s: %d bytes, want %d", s.name, len(msg), size))
	}
	return msg
}

// repeated is open + item (sep item)* + close, padded with spaces before
// close to exactly n bytes.
func repeated(open, item, sep, close string, n int) []byte {
	b := make([]byte, 0, n)
	b = append(b, open...)
	b = append(b, item...)
	for len(b)+len(sep)+len(item)+len(close) <= n {
		b = append(b, sep...)
		b = append(b, item...)
	}
	for len(b)+len(close) < n {
		b = append(b, ' ')
	}
	return append(b, close...)
}

func keys(n int) []byte {
	b := make([]byte, 0, n)
	b = append(b, '{')
	for i := 0; ; i++ {
		member := fmt.Sprintf(`"k%08d":0`, i)
		if len(b)+1+len(member)+1 > n {
			break
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, member...)
	}
	for len(b)+1 < n {
		b = append(b, ' ')
	}
	return append(b, '}')
}

func deep(n int) []byte {
	b := make([]byte, 0, n)
	b = append(b, bytes.Repeat([]byte{'['}, n/2)...)
	b = append(b, bytes.Repeat([]byte{']'}, n/2)...)
	if len(b) < n {
		b = append(b[:n/2], append([]byte{' '}, b[n/2:]...)...)
	}
	return b
}

func toolCall(name string, args map[string]any) []byte {
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": "call", "method": "tools/call",
		"params": map[string]any{"name": name, "arguments": args}})
	if err != nil {
		panic(err)
	}
	return b
}

// summary describes a reply in a few words for the table.
func summary(reply map[string]any) string {
	if e, ok := reply["error"].(map[string]any); ok {
		return fmt.Sprintf("error %v: %s", e["code"], clip(fmt.Sprint(e["message"])))
	}
	if res, ok := reply["result"].(map[string]any); ok {
		text := ""
		if c, ok := res["content"].([]any); ok && len(c) > 0 {
			if m, ok := c[0].(map[string]any); ok {
				text, _ = m["text"].(string)
			}
		}
		if res["isError"] == true {
			return "isError: " + clip(text)
		}
		return "ok"
	}
	if s, ok := reply["http"].(string); ok {
		return "HTTP " + clip(s)
	}
	return clip(fmt.Sprint(reply))
}

func clip(s string) string {
	if len(s) > 90 {
		return s[:90] + "…"
	}
	return s
}

// forgeFailed reports whether reply says the forge answered 5xx: the test
// forge (SQLite) now and then fails one of several concurrent uploads with
// "database is locked"; such an upload is sent again, alone.
func forgeFailed(reply map[string]any) bool {
	return strings.Contains(summary(reply), "the forge failed (5")
}

func requireSuccess(t *testing.T, reply map[string]any) {
	t.Helper()
	res, ok := reply["result"].(map[string]any)
	if !ok || res["isError"] == true {
		t.Fatalf("the upload failed: %s", summary(reply))
	}
}

// attachmentID is the id in a create_issue_attachment reply.
func attachmentID(t *testing.T, reply map[string]any) int64 {
	t.Helper()
	var att struct {
		ID int64 `json:"id"`
	}
	if err := json.Unmarshal([]byte(firstText(reply)), &att); err != nil || att.ID == 0 {
		t.Fatalf("no attachment id in %s", summary(reply))
	}
	return att.ID
}

// pdfNote is what a download reply says of the PDF's text.
func pdfNote(reply map[string]any) string {
	var out struct {
		PDF struct {
			Pages string `json:"pages"`
			Note  string `json:"note"`
		} `json:"pdf"`
	}
	_ = json.Unmarshal([]byte(firstText(reply)), &out)
	return clip(strings.TrimSpace("pages " + out.PDF.Pages + " " + out.PDF.Note))
}

func firstText(reply map[string]any) string {
	res, _ := reply["result"].(map[string]any)
	c, _ := res["content"].([]any)
	if len(c) == 0 {
		return ""
	}
	m, _ := c[0].(map[string]any)
	s, _ := m["text"].(string)
	return s
}
