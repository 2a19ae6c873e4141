package forgejo

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
)

// DoStream sends an authenticated GET to apiPath (relative to /api/v1)
// and hands read the body of a 2xx answer, for a caller that decodes it as
// it arrives and may stop early, keeping only what it needs: a list the
// forge does not paginate (git refs, a directory) can be tens of
// megabytes. The client's response cap still applies; a non-2xx answer is
// an *Error as for DoJSON, and so is a failure of read.
func (c *Client) DoStream(ctx context.Context, apiPath string, query url.Values, read func(body io.Reader) error) error {
	return c.DoStreamMethod(ctx, http.MethodGet, apiPath, query, read)
}

// DoStreamMethod is DoStream with another method and no request body: a
// write whose answer is a list that may be long (marking notifications
// read answers with every thread it marked).
func (c *Client) DoStreamMethod(ctx context.Context, method, apiPath string, query url.Values, read func(body io.Reader) error) error {
	u, err := c.apiURL(apiPath, query)
	if err != nil {
		return err
	}
	req, err := c.newRequest(streamed(ctx), method, u, nil)
	if err != nil {
		return &Error{Verb: method, Subject: apiPath, Cause: err}
	}
	req.Header.Set("Accept", "application/json")
	if c.observe != nil {
		c.observe(method, apiPath, nil)
	}
	resp, err := c.send(req, method, apiPath)
	if err != nil {
		return err
	}
	// Closed without draining what read left: the connection is dropped
	// rather than the rest of a large answer read for nothing.
	defer resp.Body.Close()
	if err := read(resp.Body); err != nil {
		return &Error{Verb: method, Subject: apiPath, Status: resp.StatusCode, Cause: err}
	}
	return nil
}

// CountList counts the elements of the JSON list body, one at a time,
// keeping none; an empty body is an empty list (forges before Gitea 1.16
// answer some writes with no list).
func CountList(body io.Reader) (int, error) {
	dec := json.NewDecoder(body)
	tok, err := dec.Token()
	switch {
	case errors.Is(err, io.EOF):
		return 0, nil
	case err != nil:
		return 0, err
	case tok != json.Delim('['):
		return 0, errors.New("the forge's answer is not a list")
	}
	n := 0
	for dec.More() {
		// An object is read into nothing; anything else is read whole
		// and refused by type, which still counts it (FuzzCountList).
		var skip struct{}
		var typ *json.UnmarshalTypeError
		if err := dec.Decode(&skip); err != nil && !errors.As(err, &typ) {
			return n, err
		}
		n++
	}
	_, err = dec.Token()
	return n, err
}

// DoJSONReader is DoJSON with a request body that is produced as it is
// sent: length bytes of JSON read from body. A body holding a file's
// contents in base64 (change_files) need never be whole in memory.
func (c *Client) DoJSONReader(ctx context.Context, method, apiPath string, query url.Values, body io.Reader, length int64, out any) error {
	u, err := c.apiURL(apiPath, query)
	if err != nil {
		return err
	}
	req, err := c.newRequest(ctx, method, u, body)
	if err != nil {
		return &Error{Verb: method, Subject: apiPath, Cause: err}
	}
	req.ContentLength = length
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	return c.decode(req, apiPath, out)
}
