// Package resource serves forge objects as MCP resources: forgejo:// URI
// templates whose reads run as tool calls through the same tool.Runner as
// every tools/call (validation, identity, deadline, limits, escaping,
// redaction), their results converted to resource contents.
package resource

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Scheme is the URI scheme of every resource this server offers.
const Scheme = "forgejo"

// Kind is what a resource URI names.
type Kind string

// The kinds of resource, one per URI template.
const (
	KindRepo              Kind = "repo"
	KindFile              Kind = "file"
	KindIssue             Kind = "issue"
	KindPull              Kind = "pull"
	KindPullDiff          Kind = "pull_diff"
	KindCommit            Kind = "commit"
	KindWiki              Kind = "wiki"
	KindIssueAttachment   Kind = "issue_attachment"
	KindCommentAttachment Kind = "comment_attachment"
	KindReleaseAttachment Kind = "release_attachment"
)

// Target is a parsed resource URI: its kind and the tool arguments it
// carries (owner, repo, index, path, ref, offset…), as a tool call would
// send them (numbers as int64).
type Target struct {
	Kind Kind
	Args map[string]any
}

// uriError is a URI that names no resource; its text says what is wrong.
type uriError struct{ msg string }

func (e *uriError) Error() string { return e.msg }

func badURI(format string, a ...any) error { return &uriError{fmt.Sprintf(format, a...)} }

// Parse reads a forgejo:// URI into a Target. Only the shapes of the
// templates are accepted; every segment is percent-decoded once and must
// not then hold a '/' (no %2F climbing) or be "." or ".." (the route
// guard refuses those too, this only says so earlier). Owner, repo and the
// numbers are validated again by the tool's own parameters when the read
// runs. Query parameters other than the template's are refused rather
// than ignored.
func Parse(raw string) (Target, error) {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return Target{}, badURI("not a valid URI")
	case u.Scheme != Scheme:
		return Target{}, badURI("the scheme must be %s://", Scheme)
	case u.Opaque != "" || u.User != nil || u.Port() != "" || u.Fragment != "" || u.RawFragment != "":
		return Target{}, badURI("expected %s://{owner}/{repo}/…, without user info, port or fragment", Scheme)
	case u.Host == "":
		return Target{}, badURI("the owner is missing: %s://{owner}/{repo}", Scheme)
	}
	segs, err := segments(u)
	if err != nil {
		return Target{}, err
	}
	if len(segs) == 0 || segs[0] == "" {
		return Target{}, badURI("the repository is missing: %s://{owner}/{repo}", Scheme)
	}
	for _, p := range []struct {
		param tool.Param
		value string
	}{{tool.Owner(), u.Host}, {tool.Repo(), segs[0]}} {
		if !p.param.Pattern.MatchString(p.value) || len(p.value) > p.param.MaxLength || p.value == "." || p.value == ".." {
			return Target{}, badURI("%s %q is not a valid name: %s", p.param.Name, forgejo.Clip(p.value), p.param.PatternHint)
		}
	}
	args := map[string]any{"owner": u.Host, "repo": segs[0]}
	query, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return Target{}, badURI("the query is not valid: %v", err)
	}
	t, allowed, err := route(args, segs[1:])
	if err != nil {
		return Target{}, err
	}
	if err := queryArgs(t.Args, query, allowed); err != nil {
		return Target{}, err
	}
	return t, nil
}

// segments splits the URI's path into decoded segments after the leading
// '/'; a trailing '/' gives a last empty segment (a directory).
func segments(u *url.URL) ([]string, error) {
	p := u.EscapedPath()
	if p == "" {
		return nil, nil
	}
	if !strings.HasPrefix(p, "/") {
		return nil, badURI("expected %s://{owner}/{repo}/…", Scheme)
	}
	parts := strings.Split(p[1:], "/")
	for i, s := range parts {
		d, err := url.PathUnescape(s)
		if err != nil {
			return nil, badURI("segment %q is not valid percent-encoding", s)
		}
		if strings.ContainsAny(d, "/\\") {
			return nil, badURI("segment %q decodes to a '/' or '\\': escaped slashes are not accepted", s)
		}
		if d == "." || d == ".." {
			return nil, badURI("the URI must not contain '.' or '..' segments")
		}
		parts[i] = d
	}
	return parts, nil
}

// route maps the segments after {repo} to a kind, filling args, and
// returns the query parameters the kind's template accepts.
func route(args map[string]any, rest []string) (Target, []string, error) {
	t := Target{Args: args}
	num := func(name, s string) error {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 1 {
			return badURI("%s must be a number from 1, got %q", name, s)
		}
		args[name] = n
		return nil
	}
	window := []string{"offset", "max_bytes"}
	switch {
	case len(rest) == 0:
		t.Kind = KindRepo
		return t, nil, nil
	case rest[0] == "files":
		t.Kind = KindFile
		args["path"] = strings.Join(rest[1:], "/")
		return t, []string{"ref"}, nil
	case len(rest) == 2 && (rest[0] == "issues" || rest[0] == "pulls"):
		t.Kind = map[string]Kind{"issues": KindIssue, "pulls": KindPull}[rest[0]]
		return t, nil, num("index", rest[1])
	case len(rest) == 3 && rest[0] == "pulls" && rest[2] == "diff":
		t.Kind = KindPullDiff
		return t, []string{"offset"}, num("index", rest[1])
	case len(rest) == 2 && rest[0] == "commits" && rest[1] != "":
		t.Kind = KindCommit
		args["sha"] = rest[1]
		return t, nil, nil
	case len(rest) == 2 && rest[0] == "wiki" && rest[1] != "":
		t.Kind = KindWiki
		args["page_name"] = rest[1]
		return t, nil, nil
	case len(rest) == 4 && rest[2] == "attachments":
		parent := map[string]struct {
			kind Kind
			name string
		}{"issues": {KindIssueAttachment, "index"}, "comments": {KindCommentAttachment, "comment_id"}, "releases": {KindReleaseAttachment, "release_id"}}[rest[0]]
		if parent.kind == "" {
			break
		}
		t.Kind = parent.kind
		if err := num(parent.name, rest[1]); err != nil {
			return t, nil, err
		}
		return t, window, num("attachment_id", rest[3])
	}
	return t, nil, badURI("no resource has this shape; the templates are listed by resources/templates/list " +
		"(forgejo://{owner}/{repo}, …/files/{path}, …/issues/{index}, …/pulls/{index}, …/pulls/{index}/diff, " +
		"…/commits/{sha}, …/wiki/{page}, …/issues/{index}/attachments/{attachment_id}, " +
		"…/comments/{comment_id}/attachments/{attachment_id}, …/releases/{release_id}/attachments/{attachment_id})")
}

// queryArgs copies the allowed query parameters into args: ref as text,
// offset and max_bytes as numbers.
func queryArgs(args map[string]any, q url.Values, allowed []string) error {
	for name, vals := range q {
		ok := false
		for _, a := range allowed {
			ok = ok || a == name
		}
		switch {
		case !ok && len(allowed) == 0:
			return badURI("this resource takes no query parameters, got %q", name)
		case !ok:
			return badURI("unknown query parameter %q; this resource takes %s", name, strings.Join(allowed, ", "))
		case len(vals) != 1:
			return badURI("query parameter %q is given %d times", name, len(vals))
		}
		if name == "ref" {
			args[name] = vals[0]
			continue
		}
		n, err := strconv.ParseInt(vals[0], 10, 64)
		if err != nil {
			return badURI("query parameter %s must be a whole number, got %q", name, vals[0])
		}
		args[name] = n
	}
	return nil
}

// URI builds the canonical URI of kind from args, the inverse of Parse:
// every segment is escaped, a file path keeps its slashes.
func URI(kind Kind, args map[string]any) string {
	str := func(name string) string { s, _ := args[name].(string); return escape(s) }
	num := func(name string) string { return fmt.Sprint(args[name]) }
	base := Scheme + "://" + str("owner") + "/" + str("repo")
	var s string
	q := url.Values{}
	switch kind {
	case KindRepo:
		s = base
	case KindFile:
		p, _ := args["path"].(string)
		parts := strings.Split(p, "/")
		for i := range parts {
			parts[i] = escape(parts[i])
		}
		s = base + "/files/" + strings.Join(parts, "/")
	case KindIssue:
		s = base + "/issues/" + num("index")
	case KindPull:
		s = base + "/pulls/" + num("index")
	case KindPullDiff:
		s = base + "/pulls/" + num("index") + "/diff"
	case KindCommit:
		s = base + "/commits/" + str("sha")
	case KindWiki:
		s = base + "/wiki/" + str("page_name")
	case KindIssueAttachment:
		s = base + "/issues/" + num("index") + "/attachments/" + num("attachment_id")
	case KindCommentAttachment:
		s = base + "/comments/" + num("comment_id") + "/attachments/" + num("attachment_id")
	case KindReleaseAttachment:
		s = base + "/releases/" + num("release_id") + "/attachments/" + num("attachment_id")
	}
	for _, name := range []string{"ref", "offset", "max_bytes"} {
		if v, ok := args[name]; ok {
			q.Set(name, fmt.Sprint(v))
		}
	}
	if len(q) > 0 {
		s += "?" + q.Encode()
	}
	return s
}

// escape percent-encodes every byte of a segment but the unreserved ones
// (RFC 3986: letters, digits, '-', '.', '_', '~'). url.PathEscape leaves
// '+', '&', '=', '@'… as they are, which RFC 6570's simple expansion
// ({page}, {sha}) does not produce, so mcp-go's template matching would not
// recognise the URI.
func escape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}
