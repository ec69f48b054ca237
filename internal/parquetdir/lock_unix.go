//go:build unix

package parquetdir

import (
	"os"
	"syscall"
)

// lockFD takes an exclusive flock on f, waiting for it.
func lockFD(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			return err
		}
	}
}

// unlockFD releases the flock on f.
func unlockFD(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
