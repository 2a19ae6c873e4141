package fakeforge

import (
	"bytes"
	"fmt"
)

// ManyRefs is a git/refs answer with n branches, about 137 bytes each:
// 240,000 make 31.4 MiB, security issue 18's hostile forge, just under the
// client's 32 MiB response cap.
func ManyRefs(n int) []byte {
	var b bytes.Buffer
	b.Grow(n * 137)
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"ref":"refs/heads/branch-%06d","url":"http://f/b-%06d","object":{"type":"commit","sha":"%040d"}}`, i, i, i)
	}
	b.WriteByte(']')
	return b.Bytes()
}
