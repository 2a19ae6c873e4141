package forgejo

// DecodeObserver is told, for each raw request (DoJSON, DoMultipart,
// DoRaw), the method, the path and the value the answer is decoded into
// (nil when it is not decoded): the drift tests read the decoding types'
// JSON fields from it, and tell raw requests from the SDK's. It must not
// modify out. DoRaw reports its full escaped path, the others the path
// below /api/v1.
type DecodeObserver func(method, apiPath string, out any)

// WithDecodeObserver returns a copy of c that reports every raw JSON
// decode to f (tests only; nil turns it off).
func (c *Client) WithDecodeObserver(f DecodeObserver) *Client {
	cp := *c
	cp.observe = f
	return &cp
}
