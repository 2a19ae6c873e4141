package pull_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/pull"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Every recorded forge answers a .diff route's Range request with 200 and
// the whole diff (seq 134 on Forgejo 13.0.5 and Gitea, 152 on Forgejo
// 15.0.3): the tool's windows are cut here, so a window from an offset is
// the recorded diff from that byte.
func TestRecordedDiffWindowsCutHere(t *testing.T) {
	recs, err := fakeforge.Recordings()
	require.NoError(t, err)
	for _, rec := range recs {
		var e *fakeforge.Exchange
		for i := range rec.Exchanges {
			if x := &rec.Exchanges[i]; x.Tool == "get_pull_request_diff" && e == nil {
				e = x
			}
		}
		require.NotNil(t, e, rec.Name)
		require.NotNil(t, e.Response.Text, rec.Name)
		whole := *e.Response.Text
		require.Equal(t, 200, e.Status, "%s: the forge ignored Range", rec.Name)
		f := fakeforge.New(t)
		f.Replay(rec, "get_pull_request_diff")
		for _, offset := range []int{0, 40, len(whole) - 1} {
			res := f.Call(t, pull.Tools(), "get_pull_request_diff", map[string]any{"owner": "forgeadmin", "repo": "sweep-rec",
				"index": 4.0, "offset": float64(offset)})
			require.False(t, res.IsError, fakeforge.Text(t, res))
			var w tool.DiffWindow
			require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &w))
			assert.Equal(t, int64(offset), w.Offset, rec.Name)
			assert.Equal(t, whole[offset:], w.Diff, "%s from byte %d", rec.Name, offset)
			assert.Zero(t, w.NextOffset, rec.Name)
		}
	}
}
