package tool

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWhen(t *testing.T) {
	d := Def{Name: "t", Params: []Param{Since("updated"), Before("updated")}}
	tests := []struct {
		in      string
		want    time.Time
		invalid string // substring of a Parse or Time error
	}{
		{in: "2026-01-02T15:04:05Z", want: time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)},
		{in: "2026-01-02T15:04:05.5+02:00", want: time.Date(2026, 1, 2, 13, 4, 5, 5e8, time.UTC)},
		{in: "2026-01-02t15:04:05z", want: time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)},
		{in: "2026-01-02 15:04Z", want: time.Date(2026, 1, 2, 15, 4, 0, 0, time.UTC)},
		{in: "2026-01-02T15:04+01:00", want: time.Date(2026, 1, 2, 14, 4, 0, 0, time.UTC)},
		{in: "2026-01-02", want: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)},
		{in: "2026-13-02", invalid: `"2026-13-02" is not an RFC 3339 date-time`},
		{in: "2026-01-02T25:00:00Z", invalid: "is not an RFC 3339 date-time"},
		{in: "yesterday", invalid: "an RFC 3339 date-time such as"},
		{in: "2026-01-02T15:04:05", invalid: "an RFC 3339 date-time such as"}, // no zone: ambiguous
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			a, err := d.Parse(map[string]any{"since": tt.in})
			if err == nil {
				var got time.Time
				got, err = a.Time("since")
				if tt.invalid == "" {
					require.NoError(t, err)
					assert.True(t, tt.want.Equal(got), "got %s", got)
					return
				}
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.invalid)
		})
	}
	a, err := d.Parse(map[string]any{})
	require.NoError(t, err)
	got, err := a.Time("before")
	require.NoError(t, err)
	assert.True(t, got.IsZero())
}
