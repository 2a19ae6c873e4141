package fakeforge

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Large is a forge whose answers are as big as real ones get: every list as
// long as the page asked for allows (Items when no limit is sent), every
// free-text field (a body, a description, a file's content) Body bytes
// long, a diff or patch a Diff of several MB, a job log Log, and any other
// text or file route Raw. Tools driven against it show whether their
// results stay within what a client takes.
type Large struct {
	Items       int
	Body        int
	Diff, Log   []byte
	Raw         []byte
	contentB64  string
	longStrings map[string]bool
	base        string
	items       int // the answer's list length: Items, or the page asked for
	// answers caches each JSON answer by schema and list length, shared by
	// every fake made from one LargeDefaults: building and encoding
	// megabytes of JSON is the test's cost.
	answers *sync.Map
}

type answerKey struct {
	sc    *Schema
	items int
	base  string
}

// LargeDefaults are the sizes the result-bound test uses: 1,000 items, 16
// KiB bodies (20 of them, a page, are five times what a result may carry),
// a 2 MB diff, a 5 MB log, a 2 MB file.
func LargeDefaults() Large {
	l := Large{Items: 1000, Body: 16 << 10, Diff: BigDiff(2 << 20), Log: BigLog(5 << 20), Raw: BigText(2 << 20)}
	l.contentB64 = base64.StdEncoding.EncodeToString(l.Raw)
	l.answers = &sync.Map{}
	return l
}

// WithRaw returns l serving raw as its file (a download's bytes, a file's
// content), with answers cached apart from l's.
func (l Large) WithRaw(raw []byte) Large {
	l.Raw = raw
	l.contentB64 = base64.StdEncoding.EncodeToString(raw)
	l.answers = &sync.Map{}
	return l
}

// longFields are the properties that hold long free text: a body, a
// message, a file's or wiki page's content, a patch. Other prose
// (descriptions, notes) is 1 KiB.
var longFields = []string{"body", "message", "content", "patch", "diff"}

// proseFields hold shorter free text.
var proseFields = []string{"description", "note", "summary"}

// BigDiff is a unified diff of about n bytes over many files, with the
// quotes, tabs and angle brackets that JSON escapes.
func BigDiff(n int) []byte {
	var b bytes.Buffer
	for f := 0; b.Len() < n; f++ {
		fmt.Fprintf(&b, "diff --git a/pkg/f%d.go b/pkg/f%d.go\nindex 1111111..2222222 100644\n--- a/pkg/f%d.go\n+++ b/pkg/f%d.go\n@@ -1,40 +1,40 @@\n", f, f, f, f)
		for i := 0; i < 40; i++ {
			fmt.Fprintf(&b, "-\tif a < b && c > \"d\" { return %d }\n+\tif a <= b && c >= \"d\" { return %d }\n", i, i)
		}
	}
	return b.Bytes()
}

// BigLog is a job log of about n bytes, coloured with ANSI codes as CI
// logs are, ending in a failure.
func BigLog(n int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "2026-01-02T03:04:05.0000000Z \x1b[32m✓\x1b[0m step %d: \"compiling\" <pkg/%d>\n", i, i)
	}
	b.WriteString("2026-01-02T03:04:06.0000000Z \x1b[31mFAIL\x1b[0m exit status 1\n")
	return b.Bytes()
}

// BigText is a text file of about n bytes.
func BigText(n int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "line %d: \"quoted\"\t<tag> & more text to fill the line\n", i)
	}
	return b.Bytes()
}

// MimicLarge makes every route of spec answer on s as Mimic does, with
// answers as big as l says.
func (s *Server) MimicLarge(spec *Spec, l Large) {
	l.longStrings = map[string]bool{}
	for _, f := range longFields {
		l.longStrings[f] = true
	}
	if l.contentB64 == "" {
		l.contentB64 = base64.StdEncoding.EncodeToString(l.Raw)
	}
	l.base = s.URL
	s.mimic(spec, answers{
		file: func(w http.ResponseWriter, r *http.Request) { serveBytes(w, r, l.Raw) },
		text: func(w http.ResponseWriter, r *http.Request, tpl string, _ int) {
			switch p := r.URL.Path; {
			case strings.HasSuffix(tpl, "/logs"):
				serveBytes(w, r, l.Log)
			case strings.Contains(tpl, ".{diffType}"), strings.HasSuffix(p, ".diff"), strings.HasSuffix(p, ".patch"):
				serveBytes(w, r, l.Diff)
			default:
				serveBytes(w, r, l.Raw)
			}
		},
		json: func(r *http.Request, sc *Schema) any {
			// Items in all: a page holds what is left of them.
			one := l
			one.items = l.Items
			if n, err := strconv.Atoi(r.URL.Query().Get("limit")); err == nil && n > 0 {
				page, _ := strconv.Atoi(r.URL.Query().Get("page"))
				one.items = max(0, min(n, l.Items-(max(page, 1)-1)*n))
			}
			if one.items > 50 { // an unpaged list: long, of shorter texts
				one.Body = min(one.Body, 1<<10)
			}
			if l.answers == nil {
				return spec.large(sc, "v", nil, one, 0)
			}
			k := answerKey{sc, one.items, l.base}
			if b, ok := l.answers.Load(k); ok {
				return b
			}
			b, err := json.Marshal(spec.large(sc, "v", nil, one, 0))
			if err != nil {
				panic(err)
			}
			l.answers.Store(k, json.RawMessage(b))
			return json.RawMessage(b)
		},
	})
}

// largeUUID is every attachment's UUID on a large forge.
const largeUUID = "0b5e2f0c-6a8d-4c1e-9f3a-7d2b1c4e5f60"

// serveBytes answers with data as the forge serves files: byte ranges
// honoured.
func serveBytes(w http.ResponseWriter, r *http.Request, data []byte) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(data))
}

// large is example's twin for a large forge: the answer's lists (at its
// root or one level down, as {"workflow_runs": […]}) hold l.items elements,
// deeper lists 10; free text is l.Body long in the answer's own objects or
// its items (a nested user's or repository's is short); a file's content
// (at the root) is l.Raw.
func (s *Spec) large(sc *Schema, name string, seen []string, l Large, depth int) any {
	if sc == nil {
		return nil
	}
	if sc.Ref != "" {
		def, seen, ok := s.deref(sc, seen, 1) // a large answer need not nest a repository in itself
		if !ok {
			return nil
		}
		return s.large(def, name, seen, l, depth)
	}
	switch sc.Type {
	case "array":
		n := l.items
		if depth > 1 {
			n = 10
		}
		v := s.large(sc.Items, name, seen, l, depth+1)
		if v == nil {
			return []any{}
		}
		out := make([]any, n)
		for i := range out {
			out[i] = v
		}
		return out
	case "string":
		switch {
		case (name == "content" || name == "content_base64") && depth <= 1:
			return l.contentB64
		case name == "type":
			return "file" // a file's contents entry: read as a file, not skipped
		case name == "date":
			return ExampleTime // a wiki commit's date, which the description leaves unformatted
		case name == "uuid":
			return largeUUID // an attachment's: its download route reaches Raw
		case name == "browser_download_url":
			return l.base + "/attachments/" + largeUUID
		case strings.HasSuffix(name, "url"):
			return l.base + "/files/" + name // on the forge: downloads reach Raw
		case l.longStrings[name] && depth <= 2:
			return strings.Repeat("text \"quoted\" <b>\n", l.Body/18+1)[:l.Body]
		case slices.Contains(proseFields, name) && depth <= 2:
			return strings.Repeat("prose \"quoted\" <b>\n", 1<<10/19+1)[:1<<10]
		}
		return exampleString(sc, name)
	case "integer":
		if name == "size" || name == "size_in_bytes" {
			return len(l.Raw) // a file's size: what a download reaches
		}
		return s.example(sc, name, seen)
	case "boolean":
		return name != "expired" // an artifact that can still be downloaded
	case "number":
		return s.example(sc, name, seen)
	}
	if len(sc.Properties) == 0 && sc.AdditionalProperties != nil {
		return s.example(sc, name, seen)
	}
	obj := map[string]any{}
	for k, p := range sc.Properties {
		obj[k] = s.large(p, k, seen, l, depth+1) // null where a definition is cut
	}
	return obj
}
