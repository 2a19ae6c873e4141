package tool_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

func TestInlineCapOnlyLowers(t *testing.T) {
	ctx := context.Background()
	assert.EqualValues(t, tool.MaxInlineBytes, tool.InlineCap(ctx), "1 MiB by default: the user's contract")
	assert.EqualValues(t, tool.MaxInlineBytes, tool.InlineCap(tool.WithInlineCap(ctx, 0)), "0 sets nothing")
	assert.EqualValues(t, tool.MaxInlineBytes, tool.InlineCap(tool.WithInlineCap(ctx, 4<<20)), "never above 1 MiB")
	low := tool.WithInlineCap(ctx, 64<<10)
	assert.EqualValues(t, 64<<10, tool.InlineCap(low))
	assert.EqualValues(t, 64<<10, tool.InlineCap(tool.WithInlineCap(low, 512<<10)), "a later, larger cap does not raise it")
	assert.EqualValues(t, 16<<10, tool.InlineCap(tool.WithInlineCap(low, 16<<10)), "a later, smaller one lowers it")
}

func TestParseInlineCap(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int64
		err  string
	}{
		{"655360", 655360, ""},
		{"640KiB", 640 << 10, ""},
		{" 1MiB ", 1 << 20, ""},
		{"1024", 1024, ""},
		{"1023", 0, "--max-inline-bytes must be at least 1024 bytes (1KiB), not \"1023\""},
		{"2MiB", 0, "from 1024 (1KiB) to 1048576 (1MiB)"},
		{"1048577", 0, "from 1024 (1KiB) to 1048576 (1MiB)"},
		{"0", 0, "from 1024"},
		{"-5", 0, "from 1024"},
		{"1MB", 0, "with an optional KiB or MiB suffix, not \"1MB\""},
		{"", 0, "not \"\""},
	} {
		t.Run(tt.in, func(t *testing.T) {
			got, err := tool.ParseInlineCap("--max-inline-bytes", tt.in)
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}
