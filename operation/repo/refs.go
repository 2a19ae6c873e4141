package repo

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// How the code tools turn a ref argument into a route segment, and read
// the forge's answers about commits that do not exist.

// missingAs500 turns err into a 404 when it is a 500 and the commit sha
// does not exist: Gitea answers a missing commit's diff, or a status on it,
// with a 500 "object does not exist" that retrying cannot help.
func missingAs500(ctx context.Context, c *forgejo.Client, a tool.Args, err error, sha string) error {
	if forgejo.StatusOf(err) < 500 {
		return err
	}
	_, resp, cerr := c.SDK(ctx).GetSingleCommit(a.String("owner"), a.String("repo"), sha)
	var fe *forgejo.Error
	if forgejo.IsNotFound(forgejo.Fail(resp, cerr, "get", "")) && errors.As(err, &fe) {
		cp := *fe
		cp.Status, cp.Message = http.StatusNotFound, ""
		return &cp
	}
	return err
}

// isHexSHA says whether ref is a full or abbreviated commit SHA: 4 to 64
// hex digits (a function, not a {4,64} regexp, whose 64 compiled copies
// every process would pay for at start).
func isHexSHA(ref string) bool {
	if len(ref) < 4 || len(ref) > 64 {
		return false
	}
	for _, c := range ref {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// refSegment returns ref (a commit SHA, branch or tag; "" for the default
// branch) as a route segment: a SHA as given, any other name resolved to
// the SHA of the commit it names through /commits?sha=NAME&limit=1. A name
// goes in a query, never in the route: a branch such as feature/x cannot
// travel in one route segment (a proxy in front of the forge may decode
// %2F and reach another route), and a query is never split or folded.
func refSegment(ctx context.Context, c *forgejo.Client, a tool.Args, ref string) (string, error) {
	if isHexSHA(ref) {
		return ref, nil
	}
	list, resp, err := c.SDK(ctx).ListRepoCommits(a.String("owner"), a.String("repo"), sdk.ListCommitOptions{
		ListOptions: sdk.ListOptions{Page: 1, PageSize: 1}, SHA: ref})
	what := fmt.Sprintf("branch, tag or commit %q", ref)
	if ref == "" {
		what = "the default branch"
	}
	if err := forgejo.Fail(resp, err, "resolve", fmt.Sprintf("%s in %s", what, tool.FullName(a))); err != nil {
		if forgejo.StatusOf(err) == http.StatusConflict { // Gitea's answer for an empty repository
			return "", fmt.Errorf("%s is empty: it has no commits yet", tool.RepoRef(a))
		}
		return "", whichMissing(ctx, c, a, err, what, ref, "")
	}
	if len(list) == 0 || list[0] == nil || list[0].CommitMeta == nil || list[0].SHA == "" {
		return "", fmt.Errorf("%s names no commit in %s", what, tool.FullName(a))
	}
	return list[0].SHA, nil
}
