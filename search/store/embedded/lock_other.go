//go:build !unix

package embedded

import "os"

// Without flock, the store coordinates the goroutines of one process only:
// one process at a time may use a store directory.

func lockFile(*os.File) error { return nil }

func tryLockFile(*os.File) (bool, error) { return true, nil }

func unlockFile(*os.File) error { return nil }

// openFileLimit is not known on this system.
func openFileLimit() uint64 { return 0 }
