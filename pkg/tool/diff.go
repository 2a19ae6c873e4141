package tool

import (
	"context"
	"fmt"
	"strings"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// MaxDiffBytes bounds the diff text one call of a diff tool returns
// (get_pull_request_diff, get_commit_diff).
const MaxDiffBytes = 256 << 10

// maxDiffSkip bounds how far into a diff an offset may reach: the forge
// streams diffs without byte ranges, so reaching an offset reads past it.
const maxDiffSkip = 16 << 20

// DiffWindow is one window of a diff or patch: the text from Offset, cut at
// a line end, and where to read on when more follows.
type DiffWindow struct {
	Diff       string `json:"diff"`
	Offset     int64  `json:"offset"`
	NextOffset int64  `json:"next_offset,omitempty"`
	Note       string `json:"note,omitempty"`
}

// ReadDiffWindow reads the window of the diff at apiPath (a route below
// /api/v1 built by RepoRoute) that starts at offset: at most MaxDiffBytes,
// cut at the last line end, with NextOffset and a note when more follows.
// narrow names the tool that lists the changed files instead. A failure is
// the raw call's *forgejo.Error; callers relabel it.
func ReadDiffWindow(ctx context.Context, c *forgejo.Client, apiPath string, offset int64, narrow string) (DiffWindow, error) {
	// One byte past the window tells whether more follows.
	raw, err := c.DoRaw(ctx, "/api/v1"+apiPath, forgejo.RawOptions{MaxBytes: MaxDiffBytes + 1, Offset: offset,
		Length: MaxDiffBytes + 1, MaxSkip: maxDiffSkip})
	if err != nil {
		return DiffWindow{}, err
	}
	body := raw.Body
	out := DiffWindow{Offset: offset}
	if len(body) > MaxDiffBytes {
		cut := strings.LastIndexByte(string(body[:MaxDiffBytes]), '\n') + 1
		if cut == 0 { // one line longer than the window
			cut = MaxDiffBytes
		}
		body = body[:cut]
		out.NextOffset = offset + int64(cut)
		out.Note = fmt.Sprintf("diff cut after %d KiB; read on with offset=%d, or narrow with %s", cut>>10, out.NextOffset, narrow)
	}
	out.Diff = strings.ToValidUTF8(string(body), "\uFFFD")
	if out.Diff == "" && offset > 0 {
		out.Note = "offset is at or past the end of the diff"
	}
	return out, nil
}
