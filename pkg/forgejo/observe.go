package forgejo

// DecodeObserver is told, for each raw JSON request (DoJSON,
// DoMultipart), the method, the API path and the value the answer is
// decoded into: the drift tests read the decoding types' JSON fields
// from it. It must not modify out.
type DecodeObserver func(method, apiPath string, out any)

// WithDecodeObserver returns a copy of c that reports every raw JSON
// decode to f (tests only; nil turns it off).
func (c *Client) WithDecodeObserver(f DecodeObserver) *Client {
	cp := *c
	cp.observe = f
	return &cp
}
