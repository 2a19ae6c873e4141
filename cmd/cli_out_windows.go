//go:build windows

package cmd

import (
	"os"

	"golang.org/x/sys/windows"
)

// umask has no Windows counterpart: a new file's access comes from its
// folder.
func umask() os.FileMode { return 0 }

// freeBytes is the space the user may still fill on the volume holding
// dir; ok is false when it cannot be told.
func freeBytes(dir string) (int64, bool) {
	p, err := windows.UTF16PtrFromString(dir)
	if err != nil {
		return 0, false
	}
	var free, total, all uint64
	if err := windows.GetDiskFreeSpaceEx(p, &free, &total, &all); err != nil {
		return 0, false
	}
	if free > 1<<62 {
		free = 1 << 62
	}
	return int64(free), true
}
