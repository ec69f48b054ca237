//go:build !unix

package throttle

import "os"

// crossProcess reports whether lock files coordinate processes; without
// flock, spacing is in-process only.
const crossProcess = false

// lock is never called when crossProcess is false.
func lock(*os.File) error { return nil }

// unlock is never called when crossProcess is false.
func unlock(*os.File) error { return nil }
