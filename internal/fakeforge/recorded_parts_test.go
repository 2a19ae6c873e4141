package fakeforge_test

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// A recording's later sweeps load as part of it: one origin (the replay
// rewrites only the recording's), seq numbers that each name one
// exchange, and the same forge version; a partial recording's routes are
// matched by the nearest later described version of its flavour.
func TestRecordingParts(t *testing.T) {
	anyOrigin := regexp.MustCompile(`http://127\.0\.0\.1:[0-9]+`)
	partial, err := fakeforge.PartialRecordings()
	require.NoError(t, err)
	full, err := fakeforge.Recordings()
	require.NoError(t, err)
	tests := []struct {
		rec       *fakeforge.Recording
		parts     []string
		exchanges int
		spec      string // the described version its routes are matched by
	}{
		{full[0], []string{"forgejo-13.0.5-sweep2"}, 257 + 57, "13.0.5+gitea-1.22.0"},
		{full[1], nil, 302, "15.0.3+gitea-1.22.0"},
		{full[2], []string{"gitea-1.26.0-sweep2", "gitea-1.26.0-sweep3"}, 247 + 63 + 274, "1.26.0"},
		{partial[0], nil, 59, "10.0.0-dev-456d05998231+gitea-1.22.0"}, // its own description (internal/fakeforge/sources)
	}
	for _, tt := range tests {
		t.Run(tt.rec.Name, func(t *testing.T) {
			assert.Equal(t, tt.parts, tt.rec.Parts)
			require.Len(t, tt.rec.Exchanges, tt.exchanges)
			seqs := map[int]bool{}
			// An address the client sent (a push mirror's remote, the forge
			// itself past the proxy: gitea-1.26.0-sweep3 seq 2196) comes back
			// as sent; it is no origin of the forge's answers.
			sent := map[string]bool{"http://127.0.0.1:9": true} // the first sweep's webhook target (port 9, discard)
			for _, e := range tt.rec.Exchanges {
				if e.RequestBody != nil {
					for _, o := range anyOrigin.FindAllString(string(e.RequestBody.JSON), -1) {
						sent[o] = o != tt.rec.Origin
					}
				}
			}
			for _, e := range tt.rec.Exchanges {
				assert.False(t, seqs[e.Seq], "seq %d twice", e.Seq)
				seqs[e.Seq] = true
				if e.Response == nil {
					continue
				}
				for _, o := range anyOrigin.FindAllString(string(e.Response.JSON), -1) {
					if !sent[o] {
						assert.Equal(t, tt.rec.Origin, o, "seq %d", e.Seq)
					}
				}
			}
			spec, err := tt.rec.Spec()
			require.NoError(t, err)
			assert.Equal(t, tt.spec, spec.Version)
		})
	}
	assert.Equal(t, forgejo.Forgejo, partial[0].Forge.Flavour)
	assert.NotEqual(t, "13.0.5+gitea-1.22.0", partial[0].Forge.Version, "the snapshot is not counted as 13.0.5")
}
