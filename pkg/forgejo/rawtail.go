package forgejo

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Reading the end of a file, or all of it a line at a time, without
// holding it: a job's log is read from its tail (where the error is), and
// searched for a pattern, and either may be megabytes long.

// DoTail downloads the last n bytes of the file at rawURL (as DoRaw takes
// it) with a suffix Range request. A server that ignores Range sends the
// whole file: it is read through, at most maxRead bytes, keeping only the
// last n. Offset and Total say where the bytes sit in the file.
func (c *Client) DoTail(ctx context.Context, rawURL string, n, maxRead int64) (*RawResponse, error) {
	if n <= 0 {
		return nil, &Error{Verb: "download", Subject: "a file", Cause: errors.New("invalid tail length")}
	}
	resp, subject, err := c.get(ctx, rawURL, fmt.Sprintf("bytes=-%d", n))
	if err != nil {
		if StatusOf(err) == http.StatusRequestedRangeNotSatisfiable {
			return &RawResponse{}, nil // an empty file has no last bytes
		}
		return nil, err
	}
	defer resp.Body.Close()
	out := &RawResponse{ContentType: resp.Header.Get("Content-Type"), Total: -1}
	if resp.StatusCode == http.StatusPartialContent {
		start, total, ok := parseContentRange(resp.Header.Get("Content-Range"))
		if !ok || (total >= 0 && total-start > n) {
			return nil, &Error{Verb: "download", Subject: subject, Cause: errors.New("the server answered a different byte range than asked for")}
		}
		body, err := readCapped(resp.Body, n, resp.ContentLength)
		if err != nil {
			return nil, &Error{Verb: "download", Subject: subject, Cause: err}
		}
		out.Body, out.Offset, out.Total, out.Ranged = body, start, total, true
		return out, nil
	}
	ring := make([]byte, 0, n)
	var read int64
	buf := make([]byte, 32<<10)
	for {
		k, rerr := resp.Body.Read(buf)
		read += int64(k)
		if read > maxRead {
			return nil, &Error{Verb: "download", Subject: subject,
				Cause: fmt.Errorf("the server does not support byte ranges and the file is longer than the %d bytes this client reads", maxRead)}
		}
		ring = append(ring, buf[:k]...)
		if int64(len(ring)) > n {
			ring = append(ring[:0], ring[int64(len(ring))-n:]...)
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return nil, &Error{Verb: "download", Subject: subject, Cause: rerr}
		}
	}
	out.Body, out.Offset, out.Total = ring, read-int64(len(ring)), read
	return out, nil
}

// MaxLineBytes is the longest line DoLines passes whole; the rest of a
// longer line is dropped.
const MaxLineBytes = 64 << 10

// DoLines downloads the file at rawURL and calls line with each line (its
// end cut off, at most MaxLineBytes; the bytes are only valid during the
// call) and the byte offset it starts at, reading at most maxRead bytes and
// never holding more than one line. line returns false to stop early.
func (c *Client) DoLines(ctx context.Context, rawURL string, maxRead int64, line func(text []byte, offset int64) bool) error {
	resp, subject, err := c.get(ctx, rawURL, "")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	r := bufio.NewReaderSize(io.LimitReader(resp.Body, maxRead+1), 64<<10)
	var offset int64
	buf := make([]byte, 0, 4<<10)
	for {
		// What is already buffered is not read from the connection, so
		// the deadline is checked here too: the work a caller does per
		// line (a search) stops with the call.
		if err := ctx.Err(); err != nil {
			return &Error{Verb: "download", Subject: subject, Cause: err}
		}
		var n int64
		var rerr error
		buf, n, rerr = readLine(r, buf[:0])
		if offset+n > maxRead {
			return &Error{Verb: "download", Subject: subject, Cause: fmt.Errorf("the file is longer than the %d bytes this client reads", maxRead)}
		}
		if n > 0 && !line(buf, offset) {
			return nil
		}
		offset += n
		if rerr == io.EOF {
			return nil
		}
		if rerr != nil {
			return &Error{Verb: "download", Subject: subject, Cause: rerr}
		}
	}
}

// readLine appends one line of r to buf: its text without the line end
// (cut to MaxLineBytes), and the bytes it took, line end included.
func readLine(r *bufio.Reader, buf []byte) ([]byte, int64, error) {
	var n int64
	for {
		chunk, err := r.ReadSlice('\n')
		n += int64(len(chunk))
		if room := MaxLineBytes - len(buf); room > 0 {
			buf = append(buf, chunk[:min(len(chunk), room)]...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(buf, "\r\n"), n, err
	}
}

// get sends an authenticated GET of rawURL (range, when set, as its Range
// header) on the guarded client; the caller closes the body.
func (c *Client) get(ctx context.Context, rawURL, rng string) (*http.Response, string, error) {
	u, err := c.resolve(rawURL)
	if err != nil {
		return nil, "", err
	}
	subject := u.Path
	if c.observe != nil {
		c.observe(http.MethodGet, "/"+strings.TrimPrefix(u.EscapedPath(), "/"), nil)
	}
	req, err := c.newRequest(streamed(ctx), http.MethodGet, u, nil)
	if err != nil {
		return nil, subject, &Error{Verb: "download", Subject: subject, Cause: err}
	}
	if rng != "" {
		req.Header.Set("Range", rng)
	}
	resp, err := c.send(req, "download", subject)
	return resp, subject, err
}
