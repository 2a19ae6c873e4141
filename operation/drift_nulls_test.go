package operation_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/schemacheck"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// nullRefusals are the tools that rightly fail when a member the forge may
// send as null is null, with what they say.
var nullRefusals = map[string]string{
	"get_ci_status": "no head commit", // a pull request whose head is null has no commit to check
}

// TestToolsTakeNulls drives every tool against each described forge's
// shapes with null in every member the forge may send as null
// (fakeforge.MimicNulls: the recorded answers showed 368 such nulls that
// the every-member-set fake never sends). A tool that succeeds with every
// member set succeeds with the nulls too, or fails with a message it
// declares in nullRefusals, and its structured result still validates
// against its outputSchema.
func TestToolsTakeNulls(t *testing.T) {
	sp := loadSpecs(t)
	refused := map[string]bool{}
	calls := 0
	f := fakeforge.New(t)
	for _, spec := range sp.described {
		for _, d := range operation.All() {
			if d.Offline || refusedOn(d.Name, spec.Forge()) {
				continue
			}
			if drive(t, sp, f, spec, d, sampleArgs(d)).Result.IsError {
				continue // fails with every member set already: the shaped drift tests' business
			}
			f.Reset()
			f.MimicNulls(spec)
			c := f.Fresh()
			r := &tool.Runner{Client: func(context.Context) (*forgejo.Client, error) { return c, nil }, Timeout: 10 * time.Second}
			res := r.Call(context.Background(), d, sampleArgs(d))
			calls++
			if res.IsError {
				want, ok := nullRefusals[d.Name]
				if assert.True(t, ok, "%s on %s fails on the nulls the forge may send: %s", d.Name, spec.Forge(), textOf(res)) {
					assert.Contains(t, textOf(res), want, d.Name)
					refused[d.Name] = true
				}
				continue
			}
			full, err := d.OutputSchema()
			require.NoError(t, err)
			if sc, ok := res.StructuredContent.(json.RawMessage); ok && full != nil {
				assert.NoError(t, schemacheck.Validate(full, sc), "%s on %s with nulls: %s", d.Name, spec.Forge(), sc)
			}
		}
	}
	for name := range nullRefusals {
		assert.True(t, refused[name], "nullRefusals lists %s, which takes the nulls now", name)
	}
	t.Logf("%d tool calls against %d described forges' shapes with every nullable member null", calls, len(sp.described))
}
