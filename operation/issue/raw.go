package issue

import (
	"context"
	"net/url"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// repoRequest is one raw call below /repos/{owner}/{repo}, for a route
// forgejo-sdk lacks or gets wrong. Route holds the further segments,
// escaped by tool.RepoRoute (never spliced into a string); a forge failure
// reads "<Verb> <Subject>", like the SDK-backed tools' errors.
type repoRequest struct {
	Method        string
	Route         []string
	Query         url.Values
	Body          any
	Verb, Subject string
}

// send makes the call and decodes a 2xx answer into out (nil: not read).
func (r repoRequest) send(ctx context.Context, c *forgejo.Client, a tool.Args, out any) error {
	p, err := tool.RepoRoute(a, r.Route...)
	if err != nil {
		return err
	}
	if err := c.DoJSON(ctx, r.Method, p, r.Query, r.Body, out); err != nil {
		return forgejo.Relabel(err, r.Verb, r.Subject)
	}
	return nil
}

// issueRoute is the route of the issue the index argument numbers, with
// more segments after it: issues/{index}/more….
func issueRoute(a tool.Args, more ...string) []string {
	return append([]string{"issues", tool.Seg(a, "index")}, more...)
}
