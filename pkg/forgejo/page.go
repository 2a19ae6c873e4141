package forgejo

import (
	"strconv"
	"time"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
)

// HasMore tells whether a list has a page after this one (page is 1-based,
// got the items on it). A rel="next" link says so; otherwise the forge's
// X-Total-Count decides; without either, a full page may have a successor.
func HasMore(resp *sdk.Response, page, got, limit int) bool {
	if resp == nil || resp.Response == nil {
		return got >= limit
	}
	if resp.NextPage > 0 {
		return true
	}
	if total, err := strconv.Atoi(resp.Header.Get("X-Total-Count")); err == nil {
		return (page-1)*limit+got < total
	}
	if resp.Header.Get("Link") != "" {
		return false
	}
	return got >= limit
}

// PageOf returns page (1-based) of limit items from a list the forge may
// have answered whole, and whether more follow. Both Forgejo 13 and Gitea
// 1.26 answer an issue's comments whole, ignoring page and limit (recorded:
// limit=1 answered both comments, with X-Total-Count 2). An answer longer
// than limit, or one on a later page holding the whole total, is the whole
// list, cut here; any other answer is the forge's own page.
func PageOf[T any](resp *sdk.Response, items []T, page, limit int) ([]T, bool) {
	total := -1
	if resp != nil && resp.Response != nil {
		if n, err := strconv.Atoi(resp.Header.Get("X-Total-Count")); err == nil {
			total = n
		}
	}
	whole := len(items) > limit || page > 1 && len(items) > 0 && len(items) == total
	if !whole {
		return items, HasMore(resp, page, len(items), limit)
	}
	return Cut(items, page, limit)
}

// Cut returns page (1-based) of limit items cut from the whole list, and
// whether more follow it: the one place a list a forge answered whole is
// paged here.
func Cut[T any](items []T, page, limit int) ([]T, bool) {
	from := min(max(page-1, 0)*limit, len(items))
	to := min(from+limit, len(items))
	return items[from:to], to < len(items)
}

// Login returns a user's login, "" for nil (ghost or deleted users).
func Login(u *sdk.User) string {
	if u == nil {
		return ""
	}
	return u.UserName
}

// Logins returns the logins of users.
func Logins(us []*sdk.User) []string {
	out := make([]string, 0, len(us))
	for _, u := range us {
		if u != nil {
			out = append(out, u.UserName)
		}
	}
	return out
}

// TimePtr returns t, or nil for the zero or nil time, so JSON omits it.
func TimePtr(t *time.Time) *time.Time {
	if t == nil || t.IsZero() {
		return nil
	}
	return t
}
