//go:build unix

package companyfacts

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used (user and system, all
// threads), or 0 when unknown. Benchmarks report it per operation beside
// wall time, which on a busy machine measures the wait for a CPU too.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
