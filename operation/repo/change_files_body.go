package repo

import (
	"encoding/base64"
	"encoding/json"
	"io"
)

// fileOp is one file operation as the forge takes it: Content is the text,
// base64-encoded while the body is sent.
type fileOp struct {
	Operation, Path, SHA, FromPath string
	Content                        string
	HasContent                     bool
}

// filesBody is the JSON body of change_files' one request, streamed: each
// file's text is base64-encoded as the request is sent, so a 15 MiB file
// costs no copy of its text, no 20 MiB of base64 and no 20 MiB of
// marshalled JSON on top of the arguments it came in (security issue 18,
// item 10: 183 MB for one call on stdio). It returns the body and its
// exact length; the body's goroutine ends when it is read to its end or
// closed.
func filesBody(files []fileOp, fields map[string]string) (io.ReadCloser, int64, error) {
	type piece struct {
		json    []byte
		content string // base64-encoded after json, then `"}`
		hasText bool
	}
	var pieces []piece
	length := int64(0)
	add := func(b []byte) {
		pieces = append(pieces, piece{json: b})
		length += int64(len(b))
	}
	add([]byte(`{"files":[`))
	for i, f := range files {
		op := map[string]string{"operation": f.Operation, "path": f.Path}
		if f.SHA != "" {
			op["sha"] = f.SHA
		}
		if f.FromPath != "" {
			op["from_path"] = f.FromPath
		}
		b, err := json.Marshal(op)
		if err != nil {
			return nil, 0, err
		}
		if i > 0 {
			b = append([]byte{','}, b...)
		}
		if !f.HasContent {
			add(b)
			continue
		}
		// The object without its '}', then "content":"<base64>"}.
		b = append(b[:len(b)-1], `,"content":"`...)
		content := f.Content
		pieces = append(pieces, piece{json: b, content: content, hasText: true})
		length += int64(len(b)) + int64(base64.StdEncoding.EncodedLen(len(content))) + 2
	}
	tail := map[string]string{}
	for k, v := range fields {
		if v != "" {
			tail[k] = v
		}
	}
	b, err := json.Marshal(tail)
	if err != nil {
		return nil, 0, err
	}
	if len(tail) == 0 {
		add([]byte("]}"))
	} else {
		add(append([]byte("],"), b[1:]...)) // the fields' object without its '{'
	}

	pr, pw := io.Pipe()
	go func() {
		for _, p := range pieces {
			if _, err := pw.Write(p.json); err != nil {
				return // the request is over: the reader was closed
			}
			if !p.hasText {
				continue
			}
			enc := base64.NewEncoder(base64.StdEncoding, pw)
			const chunk = 48 << 10 // a multiple of 3: no padding mid-way
			for s := p.content; len(s) > 0; {
				n := min(len(s), chunk)
				if _, err := enc.Write([]byte(s[:n])); err != nil {
					return
				}
				s = s[n:]
			}
			if err := enc.Close(); err != nil {
				return
			}
			if _, err := pw.Write([]byte(`"}`)); err != nil {
				return
			}
		}
		pw.Close()
	}()
	return pr, length, nil
}
