package bytesize

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestText(t *testing.T) {
	for n, want := range map[int64]string{
		0:         "0 bytes",
		1023:      "1023 bytes",
		1024:      "1 KiB",
		1536:      "1.5 KiB",
		256 << 10: "256 KiB",
		1 << 20:   "1 MiB",
		3 << 19:   "1.5 MiB",
		16 << 20:  "16 MiB",
		9856614:   "9.4 MiB",
	} {
		assert.Equal(t, want, Text(n), "Text(%d)", n)
	}
}
