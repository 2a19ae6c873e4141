//go:build unix && !linux

package costcheck

import (
	"syscall"
	"time"
)

// threadCPU is the CPU time of the process where a thread's is not known.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
