package forgejo

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// Web URLs: what a person copies from the forge's web pages (a repository,
// an issue, a pull request, a file, a commit, a workflow run) read as the
// arguments they stand for. Only URLs on the configured forge are read:
// the same origin (scheme, host, port) and below its base path, so a URL
// can never point a call, and the token, at another forge.

// WebTarget is what a forge web URL names. Zero fields are not named.
type WebTarget struct {
	Owner, Repo string
	// Index is the issue or pull request number of …/issues/N or
	// …/pulls/N.
	Index int64
	// Ref and Path are the ref and file path of a file or folder page
	// (…/src/branch/REF/PATH, src/tag, src/commit, raw, media): the ref is
	// the first segment after the kind, so a branch whose name holds a
	// slash cannot be told from a folder.
	Ref, Path string
	// SHA is the commit of …/commit/SHA.
	SHA string
	// Run and Job are the workflow run and job of
	// …/actions/runs/RUN[/jobs/JOB].
	Run, Job int64
	// Tag is the release tag of …/releases/tag/TAG.
	Tag string
	// Comment is the comment an issue or pull request URL's fragment
	// points at (#issuecomment-ID).
	Comment int64
}

// ParseWebURL reads raw, a web URL of the forge at base, into what it
// names. It fails, saying why, for a URL on another origin or outside the
// base path (never followed: the forge's token stays with the forge), for
// user information in it, and for a path that names no repository.
func ParseWebURL(raw string, base *url.URL) (WebTarget, error) {
	var t WebTarget
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return t, fmt.Errorf("%q is not a web URL (http or https, with a host)", Clip(raw))
	}
	if base == nil {
		return t, errors.New("no forge is configured to read a web URL against")
	}
	if u.User != nil {
		return t, errors.New("a web URL with user information (user@ or user:password@) is refused")
	}
	if !SameOrigin(u, base) {
		return t, fmt.Errorf("%s is not on the configured forge %s; a URL is read only on the forge whose token this is", u.Redacted(), base.Redacted())
	}
	rest := u.EscapedPath()
	if prefix := strings.TrimSuffix(base.EscapedPath(), "/"); prefix != "" {
		var under bool
		if rest, under = strings.CutPrefix(rest, prefix+"/"); !under {
			return t, fmt.Errorf("%s is outside the forge's base path %s", u.Redacted(), prefix)
		}
	}
	segs, err := webSegments(rest)
	if err != nil {
		return t, fmt.Errorf("%s: %v", u.Redacted(), err)
	}
	if len(segs) < 2 {
		return t, fmt.Errorf("%s names no repository (OWNER/REPO after the forge's address)", u.Redacted())
	}
	t.Owner, t.Repo = segs[0], strings.TrimSuffix(segs[1], ".git")
	if !namePattern.MatchString(t.Owner) || !namePattern.MatchString(t.Repo) {
		return t, fmt.Errorf("%s names no repository: %q/%q is not OWNER/REPO", u.Redacted(), t.Owner, t.Repo)
	}
	if err := t.readRoute(segs[2:]); err != nil {
		return WebTarget{}, fmt.Errorf("%s: %v", u.Redacted(), err)
	}
	if id, found := strings.CutPrefix(u.Fragment, "issuecomment-"); found && t.Index > 0 {
		if n, err := strconv.ParseInt(id, 10, 64); err == nil && n > 0 {
			t.Comment = n
		}
	}
	return t, nil
}

// webSegments splits an escaped path into unescaped segments, refusing
// dot segments and empty ones inside it.
func webSegments(escaped string) ([]string, error) {
	escaped = strings.Trim(escaped, "/")
	if escaped == "" {
		return nil, nil
	}
	parts := strings.Split(escaped, "/")
	out := make([]string, len(parts))
	for i, p := range parts {
		s, err := url.PathUnescape(p)
		if err != nil || s == "" || s == "." || s == ".." || strings.ContainsAny(s, "/\\\x00") {
			return nil, fmt.Errorf("segment %q is not one a forge page has", Clip(p))
		}
		out[i] = s
	}
	return out, nil
}

// readRoute reads the part of a repository page's path after OWNER/REPO.
// A page it does not know names the repository alone.
func (t *WebTarget) readRoute(segs []string) error {
	if len(segs) == 0 {
		return nil
	}
	number := func(s, what string) (int64, error) {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 1 {
			return 0, fmt.Errorf("%q is not a %s number", Clip(s), what)
		}
		return n, nil
	}
	var err error
	switch segs[0] {
	case "issues", "pulls":
		if len(segs) > 1 {
			t.Index, err = number(segs[1], "issue or pull request")
		}
	case "commit":
		if len(segs) > 1 {
			t.SHA = segs[1]
		}
	case "src", "raw", "media":
		// src/branch/REF/PATH, src/tag/…, src/commit/SHA/…, and the
		// older src/REF/PATH.
		rest := segs[1:]
		if len(rest) > 0 && (rest[0] == "branch" || rest[0] == "tag" || rest[0] == "commit") {
			rest = rest[1:]
		}
		if len(rest) > 0 {
			t.Ref, t.Path = rest[0], strings.Join(rest[1:], "/")
		}
	case "actions":
		if len(segs) > 2 && segs[1] == "runs" {
			if t.Run, err = number(segs[2], "run"); err == nil && len(segs) > 4 && segs[3] == "jobs" {
				t.Job, err = number(segs[4], "job")
			}
		}
	case "releases":
		if len(segs) > 2 && segs[1] == "tag" {
			t.Tag = strings.Join(segs[2:], "/")
		}
	}
	return err
}

// ParseRepoRef reads what -R takes: OWNER/REPO, HOST/OWNER/REPO (HOST
// with a port when the forge has one) or a web URL of the forge at base,
// of which only the repository is kept. A host or URL of another forge is
// refused.
func ParseRepoRef(s string, base *url.URL) (owner, repo string, err error) {
	if strings.Contains(s, "://") {
		t, err := ParseWebURL(s, base)
		if err != nil {
			return "", "", err
		}
		return t.Owner, t.Repo, nil
	}
	parts := strings.Split(strings.TrimSuffix(s, ".git"), "/")
	switch {
	case len(parts) == 3 && parts[0] != "":
		if base == nil {
			return "", "", fmt.Errorf("%s names a host, and no forge is configured", s)
		}
		if !sameHost(parts[0], base) {
			return "", "", fmt.Errorf("%s is on %s, not on the configured forge %s", s, parts[0], base.Host)
		}
		if strings.Trim(base.Path, "/") != "" {
			return "", "", fmt.Errorf("the configured forge %s is served under a path: give OWNER/REPO, or the repository's web URL", base.Redacted())
		}
		parts = parts[1:]
	case len(parts) != 2:
		return "", "", fmt.Errorf("-R wants OWNER/REPO, HOST/OWNER/REPO or the repository's web URL, got %q", Clip(s))
	}
	if !namePattern.MatchString(parts[0]) || !namePattern.MatchString(parts[1]) {
		return "", "", fmt.Errorf("-R wants OWNER/REPO (letters, digits, '-', '_' and '.'), got %q", Clip(s))
	}
	return parts[0], parts[1], nil
}

// sameHost says whether host (a host, with or without a port) is base's:
// without a port, any port of base's host name matches, as a person
// writes a forge's name.
func sameHost(host string, base *url.URL) bool {
	if strings.Contains(host, ":") {
		return strings.EqualFold(hostPort(&url.URL{Scheme: base.Scheme, Host: host}), hostPort(base))
	}
	return strings.EqualFold(host, base.Hostname())
}
