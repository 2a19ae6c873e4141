package wiki_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/wiki"
)

// TestListWikiPagesEmpty: the forge's 404 for a wiki without pages is an
// empty list; a turned-off wiki and a missing repository say so.
func TestListWikiPagesEmpty(t *testing.T) {
	tests := []struct {
		name   string
		status int
		repo   map[string]any
		want   string
		isErr  bool
	}{
		{name: "no pages yet", status: 200, repo: map[string]any{"has_wiki": true}, want: `{"items":[],"page":1,"has_more":false}`},
		{name: "wiki turned off", status: 200, repo: map[string]any{"has_wiki": false}, isErr: true,
			want: "o/r has its wiki turned off (the repository's has_wiki setting)"},
		{name: "no repository", status: 404, isErr: true,
			want: "repository o/r not found (404): it does not exist or this token cannot see it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON("GET /api/v1/repos/o/r/wiki/pages", 404, map[string]any{"message": "not found", "errors": []string{"no such file or directory"}})
			f.JSON("GET /api/v1/repos/o/r", tt.status, tt.repo)
			res := f.Call(t, wiki.Tools(), "list_wiki_pages", map[string]any{"owner": "o", "repo": "r"})
			require.Equal(t, tt.isErr, res.IsError, fakeforge.Text(t, res))
			if tt.isErr {
				assert.Equal(t, tt.want, fakeforge.Text(t, res))
			} else {
				assert.JSONEq(t, tt.want, fakeforge.Text(t, res))
			}
		})
	}
}
