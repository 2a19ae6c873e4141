package forgejo

import (
	"strconv"
	"strings"
)

// release is a forge version's major.minor.patch, the part that orders
// releases. Forgejo's versions carry the Gitea version they are compatible
// with as build metadata ("13.0.5+gitea-1.22.0") and development builds a
// pre-release ("17.0.0-dev", "10.0.0-dev-456d059982+gitea-1.22.0"); both
// are left out of the order, so a development build counts as the release
// it leads to. That errs towards sending a request its API may lack, which
// the router-404 check then reports, rather than refusing one it has.
type release [3]int

// parseRelease reads the leading digits of version ("1.26.0",
// "13.0.5+gitea-1.22.0", "1.21.11-1"); ok is false when there are none
// ("development", "").
func parseRelease(version string) (r release, ok bool) {
	v := strings.TrimPrefix(strings.TrimSpace(version), "v")
	if i := strings.IndexAny(v, "-+ "); i >= 0 {
		v = v[:i]
	}
	parts := strings.Split(v, ".")
	if len(parts) > 3 {
		return r, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return r, false
		}
		r[i] = n
	}
	return r, true
}

func (r release) compare(o release) int {
	for i := range r {
		if r[i] != o[i] {
			if r[i] < o[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// CompareVersions orders two forge versions of the same flavour by their
// release numbers: -1, 0 or 1, and ok false when either has none.
func CompareVersions(a, b string) (cmp int, ok bool) {
	ra, okA := parseRelease(a)
	rb, okB := parseRelease(b)
	if !okA || !okB {
		return 0, false
	}
	return ra.compare(rb), true
}
