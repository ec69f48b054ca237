//go:build unix

package throttle

import (
	"os"
	"syscall"
)

// crossProcess reports whether lock files coordinate processes.
const crossProcess = true

// lock takes an exclusive flock on f, blocking until it is available.
func lock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			return err
		}
	}
}

// unlock releases the flock on f.
func unlock(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}
