// Package throttle spaces the starts of requests to a remote service, both
// among goroutines of one process and, through a shared lock file, among all
// processes that use the same file.
package throttle

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/time/rate"
)

// slotSize is the length of the lock file's content: the next free start
// time as little-endian int64 Unix nanoseconds.
const slotSize = 8

// maxAheadFactor bounds how far in the future a stored slot may lie, in
// intervals; a slot further ahead (at least an hour) is treated as corrupt.
const maxAheadFactor = 1000

// A Spacer spaces request starts at least Interval apart, within this
// process (golang.org/x/time/rate, burst 1) and, when its lock path is not
// "", across every process using the same lock file. On platforms without
// flock the lock path is ignored and spacing is in-process only.
type Spacer struct {
	interval time.Duration
	limiter  *rate.Limiter
	lockPath string
}

// New returns a Spacer. interval must be > 0. lockPath "" means in-process
// spacing only; otherwise the lock file is created (mode 0600) if missing.
func New(interval time.Duration, lockPath string) (*Spacer, error) {
	if interval <= 0 {
		return nil, fmt.Errorf("throttle: interval %v is not positive", interval)
	}
	if !crossProcess {
		lockPath = ""
	}
	if lockPath != "" {
		f, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil, fmt.Errorf("throttle: open lock file: %w", err)
		}
		if err := f.Close(); err != nil {
			return nil, fmt.Errorf("throttle: close lock file: %w", err)
		}
	}
	return &Spacer{
		interval: interval,
		limiter:  rate.NewLimiter(rate.Every(interval), 1),
		lockPath: lockPath,
	}, nil
}

// Interval returns the spacing.
func (s *Spacer) Interval() time.Duration { return s.interval }

// Wait blocks until the caller may start a request, or ctx ends (then it
// returns ctx.Err()). A slot given up by cancellation is not reused.
func (s *Spacer) Wait(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	r := s.limiter.Reserve()
	if err := sleep(ctx, r.Delay()); err != nil {
		r.Cancel()
		return err
	}
	if s.lockPath == "" {
		return nil
	}
	at, err := s.reserve()
	if err != nil {
		return err
	}
	return sleep(ctx, time.Until(at))
}

// reserve takes the next free cross-process slot under the file lock and
// returns its start time. The lock is held only while reading and writing.
func (s *Spacer) reserve() (time.Time, error) {
	f, err := os.OpenFile(s.lockPath, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return time.Time{}, fmt.Errorf("throttle: open lock file: %w", err)
	}
	defer f.Close()
	if err := lock(f); err != nil {
		return time.Time{}, fmt.Errorf("throttle: lock %s: %w", s.lockPath, err)
	}
	defer unlock(f)

	now := time.Now().UnixNano()
	reserved := now
	var buf [slotSize + 1]byte
	n, err := io.ReadFull(f, buf[:])
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return time.Time{}, fmt.Errorf("throttle: read lock file: %w", err)
	}
	if n == slotSize {
		slot := int64(binary.LittleEndian.Uint64(buf[:slotSize]))
		if slot > now && slot-now <= s.maxAhead() {
			reserved = slot
		}
	}
	binary.LittleEndian.PutUint64(buf[:slotSize], uint64(reserved+int64(s.interval)))
	if _, err := f.WriteAt(buf[:slotSize], 0); err != nil {
		return time.Time{}, fmt.Errorf("throttle: write lock file: %w", err)
	}
	if n != slotSize {
		if err := f.Truncate(slotSize); err != nil {
			return time.Time{}, fmt.Errorf("throttle: write lock file: %w", err)
		}
	}
	return time.Unix(0, reserved), nil
}

// maxAhead is the furthest in the future, in nanoseconds, that a stored slot
// is believed.
func (s *Spacer) maxAhead() int64 {
	return max(int64(time.Hour), maxAheadFactor*int64(s.interval))
}

// sleep waits for d, or until ctx ends, returning ctx.Err() then.
func sleep(ctx context.Context, d time.Duration) error {
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
