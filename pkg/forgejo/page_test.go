package forgejo_test

import (
	"net/http"
	"testing"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/stretchr/testify/assert"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// PageOf cuts a list the forge answered whole and passes through one the
// forge paged itself.
func TestPageOf(t *testing.T) {
	withTotal := func(n string) *sdk.Response {
		h := http.Header{}
		if n != "" {
			h.Set("X-Total-Count", n)
		}
		return &sdk.Response{Response: &http.Response{Header: h}}
	}
	for _, c := range []struct {
		name        string
		resp        *sdk.Response
		items       []int
		page, limit int
		want        []int
		more        bool
	}{
		{"whole, page 1", withTotal("3"), []int{1, 2, 3}, 1, 2, []int{1, 2}, true},
		{"whole, page 2", withTotal("3"), []int{1, 2, 3}, 2, 2, []int{3}, false},
		{"whole, past the end", withTotal("3"), []int{1, 2, 3}, 3, 2, []int{}, false},
		{"whole and short, page 2", withTotal("2"), []int{1, 2}, 2, 5, []int{}, false},
		{"paged by the forge, page 1", withTotal("3"), []int{1, 2}, 1, 2, []int{1, 2}, true},
		{"paged by the forge, page 2", withTotal("3"), []int{3}, 2, 2, []int{3}, false},
		{"paged, no total, full page", withTotal(""), []int{1, 2}, 1, 2, []int{1, 2}, true},
		{"no answer headers", nil, []int{1, 2, 3}, 1, 2, []int{1, 2}, true},
	} {
		got, more := forgejo.PageOf(c.resp, c.items, c.page, c.limit)
		assert.Equal(t, c.want, append([]int{}, got...), c.name)
		assert.Equal(t, c.more, more, c.name)
	}
}
