package user_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/user"
)

// Asked for one notification of three, Forgejo 13.0.5 sends X-Total-Count
// but no Link (seq 236), Gitea both (seq 226): either way the tool says
// more follow.
func TestNotificationsHaveMoreWithoutALink(t *testing.T) {
	recs, err := fakeforge.Recordings()
	require.NoError(t, err)
	for _, rec := range recs {
		f := fakeforge.New(t)
		f.Replay(rec, "check_notifications")
		res := f.Call(t, user.Tools(), "check_notifications", map[string]any{"include_read": true, "limit": 1.0})
		require.False(t, res.IsError, fakeforge.Text(t, res))
		assert.Contains(t, fakeforge.Text(t, res), `"has_more":true`, rec.Name)
		require.NotEmpty(t, f.Served(), rec.Name)
		_, link := f.Served()[len(f.Served())-1].Headers["link"]
		assert.Equal(t, rec.Name == "gitea-1.26.0", link, "%s: the answer replayed", rec.Name)
	}
}
