package complete

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/url"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/resource"
)

// lookup is one forge call whose values are cached under key.
type lookup struct {
	key string
	// fetch reads the forge's answer as it arrives, handing each value to
	// add; whole says it read all of it (within MaxAnswerBytes).
	fetch  func(ctx context.Context, c *forgejo.Client, add func(string)) (whole bool, err error)
	sorted bool // the values are shown sorted
}

// lookupFor is the lookup that completes arg, given the other arguments
// (cc); false when it completes nothing (an unknown argument, or no
// repository to look in yet).
func lookupFor(arg mcp.CompleteArgument, cc mcp.CompleteContext, indexKind string) (lookup, bool) {
	owner, repo := cc.Arguments["owner"], cc.Arguments["repo"]
	if (arg.Name != "owner" && owner == "") || (arg.Name != "owner" && arg.Name != "repo" && repo == "") {
		return lookup{}, false
	}
	in := func(segs ...string) (string, error) {
		return forgejo.Path(append([]string{"repos", owner, repo}, segs...)...)
	}
	key := func(kind string, more ...string) string {
		return strings.Join(append([]string{kind, owner, repo}, more...), "\x00")
	}
	switch arg.Name {
	case "owner":
		// The owners of the first repositories the token's user can
		// reach: the user and their organisations, and the owners of
		// repositories they collaborate on. One call, where the user's
		// login and their organisations would take two.
		seen := map[string]bool{}
		return listed[named]("owners", true, func() (string, error) { return "/user/repos", nil }, pageQuery(nil), func(r named, add func(string)) {
			if r.Owner != nil && r.Owner.Login != "" && !seen[r.Owner.Login] {
				seen[r.Owner.Login] = true
				add(r.Owner.Login)
			}
		}), true
	case "repo":
		return listed[named]("repos\x00"+owner, true, func() (string, error) { return forgejo.Path("users", owner, "repos") }, pageQuery(nil),
			func(r named, add func(string)) { add(r.Name) }), true
	case "ref", "branch", "tag", "since_tag":
		// Branch and tag names; git/refs is not paginated.
		which := map[string]string{"ref": "", "branch": "heads", "tag": "tags", "since_tag": "tags"}[arg.Name]
		segs := []string{"git", "refs"}
		if which != "" {
			segs = append(segs, which)
		}
		return listed[refEntry](key("refs", which), false, func() (string, error) { return in(segs...) }, nil, func(r refEntry, add func(string)) {
			for _, p := range []string{"refs/heads/", "refs/tags/"} {
				if name, ok := strings.CutPrefix(r.Ref, p); ok {
					add(name)
				}
			}
		}), true
	case "path":
		// The paths in the directory being typed (directories with a
		// trailing '/'); a directory listing is not paginated.
		dir, _ := splitPath(arg.Value)
		ref := cc.Arguments["ref"]
		var q url.Values
		if ref != "" {
			q = url.Values{"ref": {ref}}
		}
		return listed[contentEntry](key("dir", ref, dir), false, func() (string, error) { return resource.ContentsRoute(owner, repo, dir) }, q,
			func(e contentEntry, add func(string)) {
				if e.Type == "dir" {
					e.Path += "/"
				}
				add(e.Path)
			}), true
	case "sha":
		// The newest commits of the default branch.
		q := pageQuery(url.Values{"stat": {"false"}, "verification": {"false"}, "files": {"false"}})
		return listed[commitEntry](key("commits"), false, func() (string, error) { return in("commits") }, q, func(c commitEntry, add func(string)) {
			add(c.SHA)
		}), true
	case "page":
		// Wiki pages, as the page_name a read takes (sub_url unescaped).
		return listed[wikiEntry](key("wiki"), false, func() (string, error) { return in("wiki", "pages") }, pageQuery(nil), func(p wikiEntry, add func(string)) {
			if name, err := url.PathUnescape(p.SubURL); err == nil {
				add(name)
			}
		}), true
	case "index":
		// The numbers of the newest open issues or pull requests.
		q := pageQuery(url.Values{"state": {"open"}, "type": {indexKind}})
		return listed[issueEntry](key(indexKind), false, func() (string, error) { return in("issues") }, q, func(i issueEntry, add func(string)) {
			add(strconv.FormatInt(i.Number, 10))
		}), true
	}
	return lookup{}, false
}

// Elements of the lists the lookups read: only the fields they use.
type (
	refEntry struct {
		Ref string `json:"ref"`
	}
	contentEntry struct {
		Path string `json:"path"`
		Type string `json:"type"`
	}
	commitEntry struct {
		SHA string `json:"sha"`
	}
	wikiEntry struct {
		SubURL string `json:"sub_url"`
	}
	issueEntry struct {
		Number int64 `json:"number"`
	}
)

type named struct {
	Name  string `json:"name"`
	Login string `json:"login"`
	Owner *struct {
		Login string `json:"login"`
	} `json:"owner"`
}

func pageQuery(extra url.Values) url.Values {
	q := url.Values{"limit": {strconv.Itoa(pageSize)}, "page": {"1"}}
	for k, v := range extra {
		q[k] = v
	}
	return q
}

// listed is the lookup of a JSON list at route: each element, decoded on
// its own as a T, gives values through each.
func listed[T any](key string, sorted bool, route func() (string, error), q url.Values, each func(T, func(string))) lookup {
	return lookup{key: key, sorted: sorted, fetch: func(ctx context.Context, c *forgejo.Client, add func(string)) (bool, error) {
		r, err := route()
		if err != nil {
			return false, err
		}
		return streamList(ctx, c, r, q, func(v T) { each(v, add) })
	}}
}

// errNotList is an answer that is not a JSON list.
var errNotList = errors.New("the forge's answer is not a list")

// streamList reads the JSON list the forge answers at route one element at
// a time, handing each to each, and stops at MaxAnswerBytes: what a lookup
// costs is one element and what it keeps, however long the list. whole
// says the list ended within the cap.
func streamList[T any](ctx context.Context, c *forgejo.Client, route string, q url.Values, each func(T)) (whole bool, err error) {
	err = c.DoStream(ctx, route, q, func(body io.Reader) error {
		whole, err = decodeList(body, MaxAnswerBytes, each)
		return err
	})
	return whole, err
}

// decodeList reads a JSON list from body, at most max bytes of it, one
// element at a time. A list cut at max is not an error: what was read
// stands, and whole is false.
func decodeList[T any](body io.Reader, max int64, each func(T)) (whole bool, err error) {
	// One byte past max says the answer went on (lr.N reaches 0): a list
	// of exactly max bytes that is malformed is an error, not a cut.
	lr := &io.LimitedReader{R: body, N: max + 1}
	dec := json.NewDecoder(lr)
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return false, errNotList
	}
	for dec.More() {
		var v T
		if err := dec.Decode(&v); err != nil {
			if lr.N <= 0 {
				return false, nil // cut at the cap: what was read stands
			}
			return false, err
		}
		each(v)
	}
	// More is false at the end of the input too: only the list's own
	// end makes it whole.
	if tok, err := dec.Token(); err != nil || tok != json.Delim(']') {
		if lr.N <= 0 {
			return false, nil
		}
		return false, errNotList
	}
	return true, nil
}

// splitPath splits a partial path into the directory to list and the
// start of an entry's name: "src/ma" → "src", "ma"; "src/" → "src", "".
func splitPath(p string) (dir, name string) {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return "", p
	}
	return p[:i], p[i+1:]
}
