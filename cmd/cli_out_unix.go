//go:build unix

package cmd

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// umask is the process's file mode creation mask, which --out applies to
// a new file as the shell's redirection would. Linux reports it in
// /proc/self/status without changing it; elsewhere it is read by setting
// and restoring it, before --out creates anything.
func umask() os.FileMode {
	if f, err := os.Open("/proc/self/status"); err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "Umask:"); ok {
				if m, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32); err == nil {
					return os.FileMode(m) & os.ModePerm
				}
			}
		}
	}
	m := syscall.Umask(0o022)
	syscall.Umask(m)
	return os.FileMode(m) & os.ModePerm
}
