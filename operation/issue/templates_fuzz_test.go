package issue

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/costcheck"
)

// FuzzTemplates: issue templates are files anyone who can push writes,
// sent on by the forge: whatever the answer holds, it decodes or is
// refused without a panic, and a template keeps at most maxTemplateList
// labels and assignees, however they were written.
func FuzzTemplates(f *testing.F) {
	for _, s := range []string{
		`[{"name":"Bug","labels":["bug"],"assignees":null,"ref":"refs/heads/","content":"## Steps","body":null}]`,
		`[{"name":"F","labels":"enhancement, ui","assignees":["bob"],"ref":"refs/heads/main","body":[` +
			`{"type":"markdown","id":"0","attributes":{"value":"Thanks!"}},` +
			`{"type":"dropdown","id":"a","attributes":{"label":"A","options":["x",{"label":"y"},3,null],"multiple":true},"validations":{"required":true}}]}]`,
		`[{"labels":"` + strings.Repeat(",", 1000) + `a"}]`, `[{"labels":[1]}]`, `[{"body":[{"attributes":{"options":{}}}]}]`, `{}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		costcheck.Within(t, costcheck.Default(), func() { // each input within issue 26's ceiling
			var list []*rawTemplate
			if json.Unmarshal(data, &list) != nil {
				return
			}
			for _, r := range list {
				if r == nil {
					continue
				}
				out := compactTemplate(r)
				require.LessOrEqual(t, len(out.Labels), maxTemplateList)
				require.LessOrEqual(t, len(out.Assignees), maxTemplateList)
				_, err := json.Marshal(out)
				require.NoError(t, err)
			}
		})
	})
}
