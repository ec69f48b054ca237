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
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/edgar13f/edgar13f/internal/sleep"
)

// slotSize is the length of the lock file's content: the start time of the
// latest request, as little-endian int64 Unix nanoseconds.
const slotSize = 8

// maxAheadFactor bounds how far in the future a recorded start may lie, in
// intervals; one further ahead (at least an hour) is treated as corrupt, so
// a bad value or a clock step cannot block callers for long.
const maxAheadFactor = 1000

// A Spacer spaces request starts at least Interval apart, within this
// process and, when its lock path is not "", across every process using the
// same lock file. On platforms without flock the lock path is ignored and
// spacing is in-process only.
//
// A start is granted only when at least Interval has passed since the
// latest recorded start, and it is recorded at that moment, under the lock:
// no start times are handed out ahead, so a caller that wakes late cannot
// start together with the next one, and a stalled process does not release
// a burst when it resumes. Within a process, golang.org/x/time/rate (burst
// 1) queues callers first so that they rarely contend for the lock.
//
// Most callers use Wait just before they send. A caller whose request may
// reach the wire some time after its start was granted (it still has to
// dial, say) takes the start with Take, queueing where no request timeout
// runs yet, and calls Retake at the moment the request goes out: the start
// then moves there, or, when another start was granted meanwhile, a new one
// is taken.
type Spacer struct {
	interval time.Duration
	limiter  *rate.Limiter
	lockPath string

	mu   sync.Mutex // serialises starts within the process
	last int64      // latest start of this process, Unix nanoseconds
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
// returns ctx.Err()). The caller should start its request at once.
func (s *Spacer) Wait(ctx context.Context) error {
	_, err := s.Take(ctx)
	return err
}

// Take is like Wait but also returns the start it recorded, so that a
// request that reaches the wire only later (after dialing, say) can move
// its start there with Retake.
func (s *Spacer) Take(ctx context.Context) (time.Time, error) {
	if err := ctx.Err(); err != nil {
		return time.Time{}, err
	}
	r := s.limiter.Reserve()
	if err := sleep.For(ctx, r.Delay()); err != nil {
		r.Cancel()
		return time.Time{}, err
	}
	for {
		start, wait, err := s.record(s.startNow)
		if err != nil || start != 0 {
			return time.Unix(0, start), err
		}
		if err := sleep.For(ctx, wait); err != nil {
			return time.Time{}, err
		}
	}
}

// Retake records a start now for a request whose start Take recorded at t
// and which reaches the wire only now. When no start has been recorded
// since t (by this process or by any sharing the lock file), the start at
// t moves to now and Retake returns at once; otherwise it waits like Wait
// for a start of its own. It returns ctx.Err() when ctx has ended.
func (s *Spacer) Retake(ctx context.Context, t time.Time) error {
	_, err := s.RetakeAt(ctx, t)
	return err
}

// RetakeAt is like Retake but also returns the start it recorded (the
// moved start or a new one), as Take does; tests of spacing on the wire
// compare it with the requests written.
func (s *Spacer) RetakeAt(ctx context.Context, t time.Time) (time.Time, error) {
	if err := ctx.Err(); err != nil {
		return time.Time{}, err
	}
	if !t.IsZero() {
		from := t.UnixNano()
		start, _, err := s.record(func(last, now int64) (int64, time.Duration) {
			if last != from {
				return 0, 0
			}
			return max(now, from), 0
		})
		if err != nil {
			return time.Time{}, err
		}
		if start != 0 {
			return time.Unix(0, start), nil
		}
	}
	return s.Take(ctx)
}

// startNow grants a start now if at least the interval has passed since
// the latest start; otherwise it returns how long to wait before asking
// again.
func (s *Spacer) startNow(last, now int64) (int64, time.Duration) {
	if wait := s.waitAfter(last, now); wait > 0 {
		return 0, wait
	}
	return now, 0
}

// record asks decide, given the latest recorded start (of this process,
// and of every process sharing the lock file) and the time now, both in
// Unix nanoseconds, for a start to record; it holds the locks throughout,
// records a non-zero start as the latest and returns decide's answer.
func (s *Spacer) record(decide func(last, now int64) (int64, time.Duration)) (int64, time.Duration, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lockPath == "" {
		start, wait := decide(s.last, time.Now().UnixNano())
		if start != 0 {
			s.last = start
		}
		return start, wait, nil
	}

	f, err := os.OpenFile(s.lockPath, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return 0, 0, fmt.Errorf("throttle: open lock file: %w", err)
	}
	defer f.Close()
	if err := lock(f); err != nil {
		return 0, 0, fmt.Errorf("throttle: lock %s: %w", s.lockPath, err)
	}
	defer unlock(f)

	now := time.Now().UnixNano() // after the lock, which may have taken a while
	var buf [slotSize + 1]byte
	n, err := io.ReadFull(f, buf[:])
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return 0, 0, fmt.Errorf("throttle: read lock file: %w", err)
	}
	last := max(s.last, 0)
	if n == slotSize {
		last = max(last, int64(binary.LittleEndian.Uint64(buf[:slotSize])))
	}
	start, wait := decide(last, now)
	if start == 0 {
		return 0, wait, nil
	}
	binary.LittleEndian.PutUint64(buf[:slotSize], uint64(start))
	if _, err := f.WriteAt(buf[:slotSize], 0); err != nil {
		return 0, 0, fmt.Errorf("throttle: write lock file: %w", err)
	}
	if n != slotSize {
		if err := f.Truncate(slotSize); err != nil {
			return 0, 0, fmt.Errorf("throttle: write lock file: %w", err)
		}
	}
	s.last = start
	return start, 0, nil
}

// waitAfter returns how long a start at now must wait after a start at
// last. A last start implausibly far in the future counts as none.
func (s *Spacer) waitAfter(last, now int64) time.Duration {
	if last <= 0 || last-now > s.maxAhead() {
		return 0
	}
	return time.Duration(last + int64(s.interval) - now)
}

// maxAhead is the furthest in the future, in nanoseconds, that a recorded
// start is believed.
func (s *Spacer) maxAhead() int64 {
	return max(int64(time.Hour), maxAheadFactor*int64(s.interval))
}
