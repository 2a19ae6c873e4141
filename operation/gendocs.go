package operation

import (
	"bytes"
	"fmt"
	"regexp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Generated is a file parts of which `make docs` writes from the
// inventory: Update returns the file's bytes with each generated section
// rewritten and everything else kept.
type Generated struct {
	Path   string // relative to the repository root
	Update func(doc []byte) ([]byte, error)
}

// GeneratedDocs lists the documentation `make docs` writes from defs:
// README.md keeps what a reader needs to choose (the toolsets, the default
// selection's scopes); the reference tables live in docs/. A test fails
// when any of them drifted.
func GeneratedDocs(defs []tool.Def) []Generated {
	return []Generated{
		{"README.md", func(doc []byte) ([]byte, error) {
			doc, err := replaceBetween(doc, ToolsetsBegin, ToolsetsEnd, ToolsetTable(defs))
			if err != nil {
				return nil, err
			}
			doc, err = replaceBetween(doc, DefaultScopesBegin, DefaultScopesEnd, DefaultScopeLine(defs))
			if err != nil {
				return nil, err
			}
			return toolCount(doc, len(defs))
		}},
		{"docs/tools.md", func(doc []byte) ([]byte, error) {
			doc, err := replaceBetween(doc, ToolsetsBegin, ToolsetsEnd, ToolsetTable(defs))
			if err != nil {
				return nil, err
			}
			return replaceBetween(doc, TableBegin, TableEnd, ToolTable(defs))
		}},
		{"docs/scopes.md", func(doc []byte) ([]byte, error) { return UpdateScopes(doc, defs) }},
		{"docs/compatibility.md", UpdateCompat},
	}
}

// replaceBetween replaces what lies between the markers begin and end of
// doc with text, the one way every generated section is written.
func replaceBetween(doc []byte, begin, end, text string) ([]byte, error) {
	b := bytes.Index(doc, []byte(begin))
	e := bytes.Index(doc, []byte(end))
	if b < 0 || e < b {
		return nil, fmt.Errorf("no %q … %q markers", begin, end)
	}
	var out bytes.Buffer
	out.Write(doc[:b+len(begin)])
	out.WriteString("\n" + text)
	out.Write(doc[e:])
	return out.Bytes(), nil
}

// toolCount rewrites the first "(N tools)" of doc, the introduction's
// count, to n.
func toolCount(doc []byte, n int) ([]byte, error) {
	re := regexp.MustCompile(`\(\d+ tools\)`)
	loc := re.FindIndex(doc)
	if loc == nil {
		return nil, fmt.Errorf("no \"(N tools)\" to count the tools in")
	}
	return append(append(append([]byte{}, doc[:loc[0]]...), fmt.Sprintf("(%d tools)", n)...), doc[loc[1]:]...), nil
}
