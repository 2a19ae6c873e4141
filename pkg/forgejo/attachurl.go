package forgejo

import (
	"net/url"
	"regexp"
	"strings"
)

// The forge's attachment download routes, below its base path:
//
//	attachments/{uuid}                              (Gitea, Forgejo)
//	{owner}/{repo}/attachments/{uuid}               (Gitea, Forgejo)
//	{owner}/{repo}/releases/download/{tag…}/{name}  (Forgejo release files)
var (
	// The length is checked apart (IsAttachmentUUID): a counted
	// repetition compiles to one copy per count at every process start.
	uuidPattern      = regexp.MustCompile(`^[0-9a-fA-F-]+$`)
	namePattern      = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)
	minReleaseDLSegs = 6 // owner, repo, "releases", "download", tag, name
)

// IsAttachmentUUID reports whether s has the shape of an attachment UUID,
// so it can be put in the attachments/{uuid} route.
func IsAttachmentUUID(s string) bool {
	return len(s) >= 8 && len(s) <= 64 && uuidPattern.MatchString(s)
}

// AttachmentURL returns raw, an attachment's browser_download_url, when it
// may be fetched with the token: on the forge's origin, under its base
// path, with no query or user info, and on one of the forge's attachment
// download routes. The URL is written by the forge, but Forgejo lets a
// repository writer attach an external URL to a release, and a forge on the
// same origin serves much more than files: "/api/v1/admin/users" fetched
// with the caller's token must never come back as "the attachment". ok is
// false for anything else; the caller then builds attachments/{uuid}.
func (c *Client) AttachmentURL(raw string) (link string, ok bool) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || raw == "" || u.User != nil || u.RawQuery != "" || u.ForceQuery || u.Opaque != "" {
		return "", false
	}
	if u.IsAbs() || u.Host != "" {
		if !SameOrigin(u, c.base) {
			return "", false
		}
	} else if !strings.HasPrefix(u.Path, "/") {
		return "", false // relative to what? Only the forge's own absolute forms are trusted
	} else {
		u = &url.URL{Scheme: c.base.Scheme, Host: c.base.Host, Path: u.Path, RawPath: u.RawPath}
	}
	rest, under := strings.CutPrefix(u.EscapedPath(), c.base.EscapedPath()+"/")
	if !under || CheckRoute(u) != nil {
		return "", false
	}
	segs := strings.Split(rest, "/")
	for _, s := range segs {
		if s == "" {
			return "", false
		}
	}
	switch {
	case len(segs) == 2 && segs[0] == "attachments" && IsAttachmentUUID(segs[1]):
	case len(segs) == 4 && segs[2] == "attachments" && ownerRepo(segs) && IsAttachmentUUID(segs[3]):
	case len(segs) >= minReleaseDLSegs && segs[2] == "releases" && segs[3] == "download" && ownerRepo(segs):
	default:
		return "", false
	}
	u.Fragment, u.RawFragment = "", ""
	return u.String(), true
}

func ownerRepo(segs []string) bool {
	return namePattern.MatchString(segs[0]) && namePattern.MatchString(segs[1])
}
