//go:build unix

package embedded

import (
	"errors"
	"os"
	"syscall"
)

// lockFile takes an exclusive flock on f, waiting for it.
func lockFile(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			return err
		}
	}
}

// tryLockFile takes an exclusive flock on f if no one holds one.
func tryLockFile(f *os.File) (bool, error) {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, syscall.EWOULDBLOCK):
			return false, nil
		case err != syscall.EINTR:
			return false, err
		}
	}
}

// unlockFile releases the flock on f.
func unlockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }

// openFileLimit returns the process's limit of open files, or 0 when it
// cannot be read.
func openFileLimit() uint64 {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return 0
	}
	return l.Cur
}
