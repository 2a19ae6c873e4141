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
