package pull_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/pull"
)

// A pending review shows no submitted_at, though both forges send its
// creation time as one; a submitted review keeps it. The answers are the
// recorded ones of the second sweep (recorded/README.md).
func TestPendingReviewShowsNoSubmittedAt(t *testing.T) {
	tests := []struct {
		rec, tool     string
		seq           int // the recorded answer
		args          map[string]any
		state         string
		wantSubmitted bool
	}{
		{"gitea-1.26.0", "get_pull_review", 1043, map[string]any{"review_id": 2.0}, "PENDING", false},
		{"forgejo-10.0.0-dev-456d05998231+gitea-1.22.0", "get_pull_review", 45, map[string]any{"review_id": 2.0}, "PENDING", false},
		{"gitea-1.26.0", "undismiss_pull_review", 1054, map[string]any{"review_id": 1.0}, "APPROVED", true},
		{"forgejo-10.0.0-dev-456d05998231+gitea-1.22.0", "undismiss_pull_review", 50, map[string]any{"review_id": 1.0}, "APPROVED", true},
	}
	for _, tt := range tests {
		t.Run(tt.rec+" "+tt.tool, func(t *testing.T) {
			rec, err := fakeforge.LoadRecording(tt.rec)
			require.NoError(t, err)
			raw, ok := rec.Seq(tt.seq).JSON()
			require.True(t, ok)
			require.NotEmpty(t, raw.(map[string]any)["submitted_at"], "the forge sent submitted_at")

			f := fakeforge.New(t)
			f.ReplayExact(rec, tt.seq)
			a := map[string]any{"owner": "forgeadmin", "repo": "sweep2-rec", "index": 2.0}
			for k, v := range tt.args {
				a[k] = v
			}
			res := f.Call(t, pull.Tools(), tt.tool, a)
			require.False(t, res.IsError, fakeforge.Text(t, res))
			var out map[string]any
			require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &out))
			assert.Equal(t, tt.state, out["state"])
			_, has := out["submitted_at"]
			assert.Equal(t, tt.wantSubmitted, has)
		})
	}
}
