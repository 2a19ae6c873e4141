package actions

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/costcheck"
)

// FuzzJobList: a job list in either flavour's shape, or anything else
// the forge sends, decodes without a panic; a bare array is bare and
// keeps every element.
func FuzzJobList(f *testing.F) {
	for _, s := range []string{`[{"id":1,"name":"build"}]`, `{"jobs":[{"id":2}],"total_count":7}`, `{"total_count":"x"}`, `[]`, `null`, ` [1]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		costcheck.Within(t, costcheck.Default(), func() { // each input within issue 26's ceiling
			var l jobList
			if err := json.Unmarshal(data, &l); err != nil {
				return
			}
			var arr []json.RawMessage
			if l.bare {
				require.NoError(t, json.Unmarshal(data, &arr))
				require.Len(t, l.Jobs, len(arr))
			}
		})
	})
}
