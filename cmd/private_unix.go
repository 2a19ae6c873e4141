//go:build unix

package cmd

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// openPrivate opens path to read it without following a symbolic link
// (O_NOFOLLOW) and checks the file it opened, not the name, so nothing
// can be swapped in between: a regular file, owned by this user, with
// none of the mode bits in mask (group or world access), in folders
// nobody else can change (checkFolders). Profiles say which command gives
// a token; a file another user could write or plant would have it run as
// this user.
func openPrivate(path string, mask fs.FileMode, why string) (*os.File, error) {
	if err := checkFolders(filepath.Dir(path)); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, fmt.Errorf("%s is a symbolic link: it is read only as a file of its own; replace the link with the file", path)
		}
		return nil, err
	}
	st, err := f.Stat()
	if err == nil {
		err = checkOwned(path, st, mask, why)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// checkOwned refuses a file that is not regular, not this user's, or has
// a mode bit of mask.
func checkOwned(path string, st fs.FileInfo, mask fs.FileMode, why string) error {
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file (%s)", path, st.Mode().Type())
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != os.Geteuid() {
		return fmt.Errorf("%s belongs to user %d, not to you (%d): %s; remove it, or log in again", path, sys.Uid, os.Geteuid(), why)
	}
	if st.Mode().Perm()&mask != 0 {
		return fmt.Errorf("%s has mode %04o: %s; run chmod %o %s", path, st.Mode().Perm(), why, st.Mode().Perm()&^mask, path)
	}
	return nil
}

// checkFolders refuses dir when it or a folder above it could be changed
// by another user: owned by someone other than this user or root, or
// writable by group or world without the sticky bit (with it, as /tmp,
// others cannot rename or remove what is not theirs). Whoever can change
// a folder on the path can swap the configuration below it.
func checkFolders(dir string) error {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	for d := dir; ; d = filepath.Dir(d) {
		st, err := os.Lstat(d)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && d == dir {
				return nil // nothing stored yet
			}
			return err
		}
		sys, ok := st.Sys().(*syscall.Stat_t)
		switch {
		case st.Mode()&fs.ModeSymlink != 0:
			// A link on the path (a home on another disk): the folder it
			// points to is checked through the rest of the walk of its
			// target.
			target, err := filepath.EvalSymlinks(d)
			if err != nil {
				return err
			}
			if err := checkFolders(target); err != nil {
				return err
			}
		case ok && sys.Uid != 0 && int(sys.Uid) != os.Geteuid():
			return fmt.Errorf("the folder %s belongs to user %d, not to you or root: another user could replace the profiles in %s", d, sys.Uid, dir)
		case st.Mode().Perm()&0o022 != 0 && st.Mode()&fs.ModeSticky == 0:
			return fmt.Errorf("the folder %s has mode %04o: others can write to it and replace the profiles in %s; run chmod go-w %s", d, st.Mode().Perm(), dir, d)
		}
		if filepath.Dir(d) == d {
			return nil
		}
	}
}
