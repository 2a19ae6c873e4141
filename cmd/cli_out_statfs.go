//go:build linux || darwin

package cmd

import "syscall"

// freeBytes is the space an unprivileged user may still fill on the file
// system holding dir; ok is false when it cannot be told.
func freeBytes(dir string) (free int64, ok bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, false
	}
	n := uint64(st.Bavail) * uint64(st.Bsize)
	if n > 1<<62 {
		n = 1 << 62
	}
	return int64(n), true
}
