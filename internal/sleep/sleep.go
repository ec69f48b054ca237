// Package sleep pauses a goroutine for a while, or until a context ends.
package sleep

import (
	"context"
	"time"
)

// For waits for d, or until ctx ends, and then returns ctx.Err(): nil when
// the whole of d has passed with ctx still live. A d <= 0 does not wait.
func For(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
