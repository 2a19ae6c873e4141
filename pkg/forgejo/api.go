package forgejo

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// APIResponse is the answer to a DoAPI request.
type APIResponse struct {
	Status      int
	ContentType string
	Body        []byte
}

// apiMethods are the methods DoAPI sends.
var apiMethods = map[string]bool{http.MethodGet: true, http.MethodPost: true, http.MethodPut: true, http.MethodPatch: true, http.MethodDelete: true}

// DoAPI sends an authenticated request to route, a path below the API's
// /api/v1 as a person writes it ("repos/o/r/topics", "/api/v1/user",
// with or without a query), for routes no tool covers (`forgejo-mcp
// api`). The route goes through the same checks as every other request:
// it must stay below /api/v1 (no dot segments, even escaped; no
// fragment), on the forge's origin, and the route guard checks each hop.
// body, when not nil, is sent as JSON. A non-2xx answer is an *Error with
// the forge's message; a 2xx answer's body is read up to max bytes.
func (c *Client) DoAPI(ctx context.Context, method, route string, query url.Values, body []byte, max int64) (*APIResponse, error) {
	method = strings.ToUpper(method)
	if !apiMethods[method] {
		return nil, fmt.Errorf("method %q: use GET, POST, PUT, PATCH or DELETE", Clip(method))
	}
	if strings.Contains(route, "://") || strings.HasPrefix(route, "//") {
		return nil, fmt.Errorf("%s: give a route below /api/v1 (repos/OWNER/REPO/…), not a URL: requests go to the configured forge only", Clip(route))
	}
	path, rawQuery, _ := strings.Cut(route, "?")
	path = "/" + strings.TrimPrefix(strings.TrimPrefix(path, "/"), "api/v1/")
	if q, err := url.ParseQuery(rawQuery); err != nil {
		return nil, fmt.Errorf("the query of %s: %v", Clip(route), err)
	} else {
		for k, vs := range query {
			q[k] = append(q[k], vs...)
		}
		query = q
	}
	u, err := c.apiURL(path, query)
	if err != nil {
		return nil, fmt.Errorf("%s: not a route below /api/v1 (dot segments, a fragment or a backslash)", Clip(route))
	}
	if err := CheckRoute(u); err != nil {
		return nil, err
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := c.newRequest(ctx, method, u, rd)
	if err != nil {
		return nil, &Error{Verb: method, Subject: path, Cause: err}
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	if c.observe != nil {
		c.observe(method, path, nil)
	}
	resp, err := c.send(req, method, path)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := readCapped(resp.Body, max, resp.ContentLength)
	if err != nil {
		return nil, &Error{Verb: method, Subject: path, Status: resp.StatusCode, Cause: err}
	}
	return &APIResponse{Status: resp.StatusCode, ContentType: resp.Header.Get("Content-Type"), Body: b}, nil
}
