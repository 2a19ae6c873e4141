// Package attachment has the tools for files attached to issues, issue
// comments and releases: list, get, download, upload, rename and delete, one
// set of six per scope (the parent's kind), all from one model. forgejo-sdk
// has no calls for the issue and comment routes, so every request goes
// through pkg/forgejo's raw HTTP helpers (DoJSON, DoMultipart, DoRaw); this
// package never builds an HTTP request itself. The release files are in the
// release toolset (ReleaseTools), the others in this package's own.
//
// The motivating case: a user attaches a PDF or a screenshot to an issue in
// the web UI. GET of the issue does not show it; these tools let an agent
// find it, read it (a screenshot arrives as an image a vision model sees),
// and manage attachments in turn. docs/attachments.md has the details.
package attachment

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"unicode"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Toolset is the attachment toolset: the issue and comment files (the
// release files are in the release toolset).
var Toolset = tool.Toolset{ID: "attachment", Description: "Files attached to issues", Default: true}

// CommentToolset has the comment attachment tools.
var CommentToolset = tool.Toolset{ID: "comment-attachment", Description: "Files attached to issue comments"}

// MaxInlineDownloadBytes is the largest file a download returns whole and
// the largest window of a ranged download: tool.MaxInlineBytes, 1 MiB, the
// user's contract. A server or a request may lower it (tool.InlineCap);
// larger files are read in windows (offset, max_bytes).
const MaxInlineDownloadBytes = tool.MaxInlineBytes

// maxSkipBytes bounds what a ranged download reads and throws away when the
// forge ignores Range requests (Gitea and Forgejo honour them; a proxy in
// front might not). The shared HTTP client's response limit also applies.
const maxSkipBytes = 64 << 20

// uploadField is the multipart field the forge reads an attachment from;
// any other name makes Gitea answer 500.
const uploadField = "attachment"

// scope is what differs between the issue, comment and release tools: the
// parent's id parameter, its route and the words in messages.
type scope struct {
	noun    string // in tool names: "issue", "comment" or "release"
	what    string // in descriptions: "an issue or PR", "an issue comment"
	item    string // one file, capitalised: "Attachment", "Release attachment"
	anItem  string // one file with its article: "an attachment"
	idParam tool.Param
	// parent is the route of the attachments' parent, as segments for
	// forgejo.Path; its attachments are below it at "assets".
	parent func(a tool.Args) []string
	// subject names the parent in messages: "issue o/r#3".
	subject func(a tool.Args) string
	// uriParent is the parent's part of a resource URI: "issues/3".
	uriParent func(a tool.Args) string
}

// repoSegments is the route of the repository the arguments name.
func repoSegments(a tool.Args, more ...string) []string {
	return slices.Concat([]string{"repos", a.String("owner"), a.String("repo")}, more)
}

var issueScope = scope{
	noun: "issue", what: "an issue or PR",
	item: "Attachment", anItem: "an attachment",
	idParam:   tool.Index(),
	parent:    func(a tool.Args) []string { return repoSegments(a, "issues", tool.Seg(a, "index")) },
	subject:   tool.IssueRef,
	uriParent: func(a tool.Args) string { return "issues/" + tool.Seg(a, "index") },
}

var commentScope = scope{
	noun: "comment", what: "an issue comment",
	item: "Attachment", anItem: "an attachment",
	idParam:   tool.CommentID(),
	parent:    func(a tool.Args) []string { return repoSegments(a, "issues", "comments", tool.Seg(a, "comment_id")) },
	subject:   tool.CommentRef,
	uriParent: func(a tool.Args) string { return "comments/" + tool.Seg(a, "comment_id") },
}

var releaseScope = scope{
	noun: "release", what: "a release",
	item: "Release attachment", anItem: "a release attachment",
	idParam: tool.ReleaseID(),
	parent:  func(a tool.Args) []string { return repoSegments(a, "releases", tool.Seg(a, "release_id")) },
	subject: func(a tool.Args) string {
		return fmt.Sprintf("release %d in %s", a.Int("release_id"), tool.FullName(a))
	},
	uriParent: func(a tool.Args) string { return "releases/" + tool.Seg(a, "release_id") },
}

// route is the API path of the parent followed by more segments, every
// one escaped by forgejo.Path: handlers never splice arguments into a URL.
func (s scope) route(a tool.Args, more ...string) (string, error) {
	return forgejo.Path(slices.Concat(s.parent(a), more)...)
}

// assets is the route of the parent's attachment collection.
func (s scope) assets(a tool.Args) (string, error) { return s.route(a, "assets") }

// attachment is the route of the one attachment the arguments name.
func (s scope) attachment(a tool.Args) (string, error) {
	return s.route(a, "assets", tool.Seg(a, "attachment_id"))
}

// Tools returns the attachment toolset: six issue tools, then their six
// comment twins.
func Tools() []tool.Def {
	return append(issueScope.tools(Toolset), commentScope.tools(CommentToolset)...)
}

// ReleaseTools returns the six release attachment tools, in toolset ts (the
// release toolset: operation.All puts them there, so neither package
// imports the other).
func ReleaseTools(ts tool.Toolset) []tool.Def { return releaseScope.tools(ts) }

func (s scope) name(verb string) string {
	if verb == "list" {
		return "list_" + s.noun + "_attachments"
	}
	return verb + "_" + s.noun + "_attachment"
}

func (s scope) tools(ts tool.Toolset) []tool.Def {
	// Descriptions are short on purpose: every session pays for tools/list.
	base := []tool.Param{tool.Owner(), tool.Repo(), s.idParam}
	// slices.Concat always copies: the definitions must not share arrays.
	withID := slices.Concat(base, []tool.Param{tool.AttachmentID()})
	return []tool.Def{
		{
			Name: s.name("list"), Toolset: ts,
			Title: "List " + s.noun + " attachments", Output: tool.ListPage[Meta]{},
			Description: fmt.Sprintf("List the attachments (uploaded files) of %s", s.what),
			Params:      base, Annotations: tool.Read(), Handler: s.list,
		},
		{
			Name: s.name("get"), Toolset: ts,
			Title: "Get " + s.noun + " attachment", Output: Meta{},
			Description: s.item + " metadata",
			Params:      withID, Annotations: tool.Read(), Handler: s.get,
		},
		{
			Name: s.name("download"), Toolset: ts,
			Title:       "Download " + s.noun + " attachment", // JSON then the bytes: no outputSchema
			Description: s.item + " metadata and bytes up to 1 MiB (a PDF also as text); larger: pass offset",
			Params: slices.Concat(withID, []tool.Param{
				tool.Int("offset", "Start byte", tool.AtLeast(0)),
				tool.Int("max_bytes", "Window size", tool.Range(1, MaxInlineDownloadBytes)),
				tool.Pages(), TextOnly()}),
			Annotations: tool.Read(), Handler: s.download,
		},
		{
			Name: s.name("create"), Toolset: ts,
			Title: "Upload " + s.noun + " attachment", Output: Meta{},
			Description: fmt.Sprintf("Attach a file to %s", s.what),
			Params: slices.Concat(base, []tool.Param{
				tool.Str("content", "Base64 file", tool.Required(), tool.Secret()),
				tool.Str("filename", "File name", tool.Required()),
				tool.Str("mime_type", "MIME type")}),
			Annotations: tool.Write(false), Handler: s.create, CLIFile: "content", LargeArgs: true,
		},
		{
			Name: s.name("edit"), Toolset: ts,
			Title: "Rename " + s.noun + " attachment", Output: Meta{},
			Description: "Rename " + s.anItem,
			Params: slices.Concat(withID, []tool.Param{
				tool.Str("name", "New file name", tool.Required())}),
			Annotations: tool.Destroy(true), Handler: s.edit,
		},
		{
			Name: s.name("delete"), Toolset: ts,
			Title: "Delete " + s.noun + " attachment", Output: tool.DeletedOutput("id", int64(0)),
			Description: "Delete " + s.anItem,
			Params:      withID, Annotations: tool.Destroy(true), Handler: s.delete,
		},
	}
}

// fail phrases a failed attachment call for the agent. A 404 is ambiguous
// (repository, parent or attachment) and the forge's body does not say
// which, so the parent is probed to name what is missing; the call
// pipeline then asks for the repository when the parent is missing too
// (tool's missingRepo).
func (s scope) fail(ctx context.Context, c *forgejo.Client, a tool.Args, err error, verb string) error {
	subject := s.subject(a)
	if !forgejo.IsNotFound(err) {
		return forgejo.Relabel(err, verb, subject)
	}
	route, perr := forgejo.Path(s.parent(a)...)
	if perr != nil {
		return forgejo.Relabel(err, verb, subject)
	}
	switch perr = c.DoJSON(ctx, http.MethodGet, route, nil, nil, nil); {
	case forgejo.IsNotFound(perr):
		return forgejo.Relabel(perr, verb, subject)
	case perr != nil:
		// The probe failed otherwise (a 401, the forge down): say what
		// the call itself got.
		return forgejo.Relabel(err, verb, subject)
	}
	if id := a.Int("attachment_id"); id > 0 {
		return fmt.Errorf("attachment %d not found on %s (404); %s lists the attachments it has", id, subject, s.name("list"))
	}
	return fmt.Errorf("%s %s: the forge answered 404 although the %s exists; attachments may be disabled on this forge", verb, subject, s.noun)
}

// maxNameBytes bounds file names and MIME types. It is checked here, not
// advertised in the schema: every schema byte is paid in every session.
const maxNameBytes = 255

// CheckName refuses a file name the forge would store badly or that would
// read as a path: empty, a path, control characters.
func CheckName(param, name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return fmt.Errorf("%s is empty: give the file a name such as report.pdf", param)
	case strings.ContainsAny(name, `/\`):
		return fmt.Errorf("%s %q must be a plain file name, without / or \\", param, name)
	case name == "." || name == "..":
		return fmt.Errorf("%s %q is not a file name", param, name)
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return fmt.Errorf("%s must not contain control characters (such as line breaks)", param)
	case len(name) > maxNameBytes:
		return fmt.Errorf("%s is %d bytes long; at most %d are allowed", param, len(name), maxNameBytes)
	}
	return nil
}

// errNoDownloadURL is returned when the forge offers no URL on its own
// origin and no UUID to build one from.
var errNoDownloadURL = errors.New("the forge gave no download URL on one of its own attachment routes and no UUID to build one; nothing was fetched")
