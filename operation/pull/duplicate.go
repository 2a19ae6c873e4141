package pull

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// alreadyOpen explains a 409 from create_pull_request: the forge refuses a
// second open pull request between the same branches, and says so with its
// internal ids ("pull request already exists for these targets [id: 1,
// issue_id: 2, head_repo_id: 13, …]"), which an agent cannot use. It asks
// the forge for that pull request (GET pulls/{base}/{head}, on both
// flavours) and names its number, title and URL; when it cannot, err
// stays as it was.
func alreadyOpen(ctx context.Context, c *forgejo.Client, a tool.Args, subject string, err error) error {
	if forgejo.StatusOf(err) != http.StatusConflict {
		return err
	}
	// The route takes the head as the rest of the path (a branch may
	// hold "/"), the base as one segment.
	base := a.String("base")
	if strings.Contains(base, "/") {
		return err
	}
	route, perr := forgejo.FilePath([]string{"repos", a.String("owner"), a.String("repo"), "pulls", base}, a.String("head"))
	if perr != nil {
		return err
	}
	var p sdk.PullRequest
	if c.DoJSON(ctx, http.MethodGet, route, nil, nil, &p) != nil || p.Index == 0 {
		return err
	}
	return fmt.Errorf("open %s: one is already open between these branches (409): #%d %q, %s; "+
		"get_pull_request_by_index or update_pull_request take it from here, and a push to %s updates it",
		subject, p.Index, forgejo.Clip(p.Title), p.HTMLURL, a.String("head"))
}
