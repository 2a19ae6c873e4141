package tool

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// The words handlers share: how they name what they act on in messages,
// the routes below a repository, and list plumbing. One spelling each, so
// every tool says "repository o/r" and pages the same way.

// FullName is the repository the owner and repo arguments name: "o/r".
func FullName(a Args) string { return a.String("owner") + "/" + a.String("repo") }

// RepoRef names the repository in messages: "repository o/r".
func RepoRef(a Args) string { return "repository " + FullName(a) }

// IssueRef names the issue the index argument numbers: "issue o/r#3".
func IssueRef(a Args) string { return fmt.Sprintf("issue %s#%d", FullName(a), a.Int("index")) }

// CommentRef names the comment comment_id identifies: "comment 5 in o/r".
func CommentRef(a Args) string {
	return fmt.Sprintf("comment %d in %s", a.Int("comment_id"), FullName(a))
}

// Seg is an integer argument as a route segment.
func Seg(a Args, name string) string { return strconv.FormatInt(a.Int(name), 10) }

// RepoRoute is /repos/{owner}/{repo}/{more...}, every segment escaped by
// forgejo.Path: handlers never splice arguments into a route.
func RepoRoute(a Args, more ...string) (string, error) {
	return forgejo.Path(slices.Concat([]string{"repos", a.String("owner"), a.String("repo")}, more)...)
}

// ListOptions are the page and limit arguments for an SDK list call.
func ListOptions(a Args) sdk.ListOptions {
	return sdk.ListOptions{Page: int(a.Int("page")), PageSize: int(a.Int("limit"))}
}

// PageQuery is the page and limit arguments as the query of a raw route.
func PageQuery(a Args) url.Values {
	return url.Values{"page": {Seg(a, "page")}, "limit": {Seg(a, "limit")}}
}

// ListResult is the result of a list tool: list's items shaped by f, the
// page, and whether more follow, from resp's paging headers (nil for a raw
// call: a full page then means more may follow).
func ListResult[S, T any](a Args, resp *sdk.Response, list []*S, f func(*S) T) (*mcp.CallToolResult, error) {
	page, limit := a.Int("page"), a.Int("limit")
	return Items(Map(list, f), page, forgejo.HasMore(resp, int(page), len(list), int(limit)))
}
