//go:build !unix

package parquetdir

import "os"

// lockFD does nothing where flock is missing: one importing process at a
// time is then the caller's duty.
func lockFD(*os.File) error { return nil }

// unlockFD does nothing where flock is missing.
func unlockFD(*os.File) error { return nil }
