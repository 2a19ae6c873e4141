//go:build !unix

package costcheck

import "time"

// threadCPU is unknown here: the CPU ceiling is not checked.
func threadCPU() time.Duration { return 0 }
