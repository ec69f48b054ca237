package throttle

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edgar13f/edgar13f/internal/helperproc"
	"github.com/google/go-cmp/cmp"
)

// Two checks judge a run of starts, as the Spacer recorded them (the
// times Take returns, not when a goroutine got to run afterwards, which a
// busy machine delays at will), against the interval:
//   - none may be early: the i-th start (sorted, from 0) comes no sooner than
//     t0 + i*interval less skew, where t0 precedes every Take (skew covers
//     comparing a wall-clock reading with one that has a monotonic part).
//   - consecutive starts are at least the interval apart: the Spacer
//     records a start only once the interval has passed since the last.
const skew = time.Millisecond

// tries is how often a measurement that should show correct spacing is
// repeated before a violation counts; a broken spacer violates on every run.
const tries = 5

// check reports the smallest gap between consecutive starts and whether
// the run violates either spacing check.
func check(t0 time.Time, starts []time.Time, interval time.Duration) (gap time.Duration, bad bool) {
	s := slices.Clone(starts)
	slices.SortFunc(s, func(a, b time.Time) int { return a.Compare(b) })
	gap = time.Duration(1<<63 - 1)
	for i := range s {
		if s[i].Before(t0.Add(time.Duration(i)*interval - skew)) {
			bad = true
		}
		if i > 0 {
			gap = min(gap, s[i].Sub(s[i-1]))
		}
	}
	return gap, bad || gap < interval
}

// measure runs run up to n times, stopping at the first run whose check
// gives want (a planted fault shows only when starts happen to overlap,
// which a busy machine may prevent in one run), and reports that run's (or
// else the last run's) result.
func measure(t *testing.T, interval time.Duration, n int, want bool, run func() (time.Time, []time.Time)) (gap time.Duration, bad bool) {
	t.Helper()
	for i := range n {
		t0, starts := run()
		gap, bad = check(t0, starts, interval)
		t.Logf("run %d: closest starts %v apart, violation %v", i+1, gap, bad)
		if bad == want {
			break
		}
	}
	return gap, bad
}

func TestNew(t *testing.T) {
	tests := []struct {
		name     string
		interval time.Duration
		wantErr  bool
	}{
		{"positive", 250 * time.Millisecond, false},
		{"zero", 0, true},
		{"negative", -time.Second, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := New(tc.interval, "")
			if gotErr := err != nil; gotErr != tc.wantErr {
				t.Fatalf("New(%v) error = %v, want error %v", tc.interval, err, tc.wantErr)
			}
			if err == nil && s.Interval() != tc.interval {
				t.Errorf("Interval() = %v, want %v", s.Interval(), tc.interval)
			}
		})
	}
}

func TestNewCreatesPrivateLockFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lock")
	if _, err := New(time.Millisecond, path); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(os.FileMode(0o600), fi.Mode().Perm()); diff != "" {
		t.Errorf("lock file mode (-want +got):\n%s", diff)
	}
}

func TestNewUnusableLockPath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing-dir", "lock")
	if _, err := New(time.Millisecond, path); err == nil {
		t.Fatalf("New(%q) succeeded, want error", path)
	}
}

func TestWaitSpacesGoroutines(t *testing.T) {
	const interval = 50 * time.Millisecond
	tests := []struct {
		name     string
		lock     bool
		separate bool // planted fault: one Spacer per goroutine
		tries    int
		wantBad  bool
	}{
		{"in-process", false, false, tries, false},
		{"lock file", true, false, tries, false},
		{"separate spacers", false, true, tries, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := ""
			if tc.lock {
				path = filepath.Join(t.TempDir(), "lock")
			}
			shared, err := New(interval, path)
			if err != nil {
				t.Fatal(err)
			}
			spacer := func() *Spacer {
				if !tc.separate {
					return shared
				}
				s, err := New(interval, path)
				if err != nil {
					t.Error(err)
				}
				return s
			}
			gap, bad := measure(t, interval, tc.tries, tc.wantBad, func() (time.Time, []time.Time) { return startAll(t, spacer, 6) })
			if bad != tc.wantBad {
				t.Errorf("closest starts %v apart (interval %v): violation = %v, want %v", gap, interval, bad, tc.wantBad)
			}
		})
	}
}

// startAll calls Take from n goroutines at once, each on the Spacer that
// spacer returns, and returns the time before the first call and the
// starts recorded.
func startAll(t *testing.T, spacer func() *Spacer, n int) (time.Time, []time.Time) {
	t.Helper()
	t0 := time.Now()
	var mu sync.Mutex
	var starts []time.Time
	var wg sync.WaitGroup
	for range n {
		s := spacer()
		wg.Go(func() {
			now, err := s.Take(context.Background())
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			starts = append(starts, now)
			mu.Unlock()
		})
	}
	wg.Wait()
	if len(starts) != n {
		t.Fatalf("got %d starts, want %d", len(starts), n)
	}
	return t0, starts
}

func TestWaitLockFileContent(t *testing.T) {
	const interval = 40 * time.Millisecond
	tests := []struct {
		name    string
		content []byte
	}{
		{"missing", nil},
		{"empty", []byte{}},
		{"short", []byte{1, 2, 3}},
		{"long", []byte("not a slot at all")},
		{"past", slot(time.Now().Add(-time.Hour))},
		{"far future", slot(time.Now().Add(24 * time.Hour))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "lock")
			if tc.content != nil {
				if err := os.WriteFile(path, tc.content, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			s, err := New(interval, path)
			if err != nil {
				t.Fatal(err)
			}
			before := time.Now()
			if err := s.Wait(context.Background()); err != nil {
				t.Fatal(err)
			}
			after := time.Now()
			// A bad or stale record does not delay the start, and the start
			// granted is recorded as "now".
			start := recordedStart(t, path)
			if start.Before(before) || start.After(after) {
				t.Errorf("recorded start %v, want within [%v, %v]", start, before, after)
			}
		})
	}
}

// slot encodes t as the lock file's content.
func slot(t time.Time) []byte {
	return binary.LittleEndian.AppendUint64(nil, uint64(t.UnixNano()))
}

// recordedStart returns the start recorded in the lock file at path.
func recordedStart(t *testing.T, path string) time.Time {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != slotSize {
		t.Fatalf("lock file holds %d bytes, want %d", len(b), slotSize)
	}
	return time.Unix(0, int64(binary.LittleEndian.Uint64(b)))
}

// hourSpacer returns a Spacer of an hour between starts, with a lock file
// (and its path) or without one (and "").
func hourSpacer(t *testing.T, lock bool) (*Spacer, string) {
	t.Helper()
	path := ""
	if lock {
		path = filepath.Join(t.TempDir(), "lock")
	}
	s, err := New(time.Hour, path)
	if err != nil {
		t.Fatal(err)
	}
	return s, path
}

func TestWaitHonoursStoredSlot(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lock")
	at := time.Now().Add(60 * time.Millisecond)
	if err := os.WriteFile(path, slot(at), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := New(10*time.Millisecond, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	if now := time.Now(); now.Before(at) {
		t.Errorf("Wait returned %v before the stored slot", at.Sub(now))
	}
}

func TestWaitContext(t *testing.T) {
	tests := []struct {
		name   string
		lock   bool
		stored bool // a slot an hour ahead already taken by another process
		cancel bool // cancel rather than deadline
	}{
		{"in-process cancel", false, false, true},
		{"in-process deadline", false, false, false},
		{"lock file cancel", true, true, true},
		{"lock file deadline", true, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, path := hourSpacer(t, tc.lock)
			if tc.stored {
				if err := os.WriteFile(path, slot(time.Now().Add(time.Hour)), 0o600); err != nil {
					t.Fatal(err)
				}
			} else if err := s.Wait(context.Background()); err != nil {
				t.Fatal(err) // takes the only immediate slot
			}
			var ctx context.Context
			var cancel context.CancelFunc
			want := context.DeadlineExceeded
			if tc.cancel {
				ctx, cancel = context.WithCancel(context.Background())
				time.AfterFunc(20*time.Millisecond, cancel)
				want = context.Canceled
			} else {
				ctx, cancel = context.WithTimeout(context.Background(), 20*time.Millisecond)
			}
			defer cancel()
			// The only slot is an hour away: a Wait that did not end with
			// ctx would block the test until it timed out.
			err := s.Wait(ctx)
			if err != want {
				t.Errorf("Wait error = %v, want %v", err, want)
			}
		})
	}
}

func TestWaitContextAlreadyDone(t *testing.T) {
	s, err := New(time.Millisecond, "")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.Wait(ctx); err != context.Canceled {
		t.Errorf("Wait error = %v, want %v", err, context.Canceled)
	}
}

// latest returns the latest start s recorded.
func latest(s *Spacer) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return time.Unix(0, s.last)
}

// errWaited is the error of a noWaitCtx once something waited on it.
var errWaited = errors.New("test: waited on the context")

// noWaitCtx is a context that ends the moment anything waits on it: the
// first call of Done closes its channel, and Err then returns errWaited.
// A call given it fails with errWaited at once if it waits, however slow
// or fast the machine, and succeeds if it never waits.
type noWaitCtx struct {
	context.Context
	mu     sync.Mutex
	done   chan struct{}
	waited bool
}

func newNoWaitCtx() *noWaitCtx {
	return &noWaitCtx{Context: context.Background(), done: make(chan struct{})}
}

func (c *noWaitCtx) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.waited {
		c.waited = true
		close(c.done)
	}
	return c.done
}

func (c *noWaitCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.waited {
		return errWaited
	}
	return nil
}

// TestRetake: with an hour between starts, Retake is given a context that
// ends as soon as anything waits on it (noWaitCtx), so success shows it
// did not wait and errWaited that it did, with no deadline a loaded
// machine could miss. Retake moves the start Take recorded when no other
// start came since, and otherwise waits for one of its own; the lock file
// records what it does.
func TestRetake(t *testing.T) {
	tests := []struct {
		name    string
		lock    bool
		between bool // another start recorded after Take
		cancel  bool // the context has ended before Retake
		zero    bool // Retake of no start: a Wait
		wantErr error
	}{
		{name: "in-process, moves", wantErr: nil},
		{name: "lock file, moves", lock: true, wantErr: nil},
		{name: "in-process, start between", between: true, wantErr: errWaited},
		{name: "lock file, start between", lock: true, between: true, wantErr: errWaited},
		{name: "context ended", lock: true, cancel: true, wantErr: context.Canceled},
		{name: "no start to move", lock: true, zero: true, wantErr: errWaited},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, path := hourSpacer(t, tc.lock)
			before := time.Now()
			taken, err := s.Take(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if taken.Before(before) || taken.After(time.Now()) {
				t.Fatalf("Take returned %v, want a time within the call", taken)
			}
			if !latest(s).Equal(taken) {
				t.Fatalf("Take returned %v but recorded %v", taken, latest(s))
			}
			if tc.between {
				other := taken.Add(time.Millisecond)
				if tc.lock {
					err = os.WriteFile(path, slot(other), 0o600) // another process
				} else {
					s.mu.Lock()
					s.last = other.UnixNano()
					s.mu.Unlock()
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			recorded := func() time.Time {
				if !tc.lock {
					return latest(s)
				}
				return recordedStart(t, path)
			}
			was := recorded()

			var ctx context.Context = newNoWaitCtx()
			if tc.cancel {
				ended, cancel := context.WithCancel(context.Background())
				cancel()
				ctx = ended
			}
			retake := taken
			if tc.zero {
				retake = time.Time{}
			}
			time.Sleep(time.Millisecond) // so that a moved start differs
			from := time.Now()
			at, err := s.RetakeAt(ctx, retake)
			if err != tc.wantErr {
				t.Fatalf("RetakeAt error = %v, want %v", err, tc.wantErr)
			}
			got := recorded()
			if err == nil && !at.Equal(got) {
				t.Errorf("RetakeAt returned %v but recorded %v", at, got)
			}
			if err != nil {
				if !got.Equal(was) {
					t.Errorf("failed Retake recorded %v, want %v kept", got, was)
				}
				return
			}
			if got.Before(from) || got.After(time.Now()) {
				t.Errorf("Retake recorded %v, want the time of the call (after %v)", got, from)
			}
		})
	}
}

// Environment of the helper processes started by TestWaitAcrossProcesses.
const (
	envHelper   = "THROTTLE_HELPER"
	envLock     = "THROTTLE_LOCK"
	envInterval = "THROTTLE_INTERVAL"
	envSlots    = "THROTTLE_SLOTS"
)

// TestHelperProcess is not a test: run by TestWaitAcrossProcesses, it prints
// "ready", waits for a line on stdin, then takes slots and prints each start.
func TestHelperProcess(t *testing.T) {
	if os.Getenv(envHelper) != "1" {
		t.Skip("helper process only")
	}
	interval, err := time.ParseDuration(os.Getenv(envInterval))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	slots, err := strconv.Atoi(os.Getenv(envSlots))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	s, err := New(interval, os.Getenv(envLock))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	fmt.Println("ready")
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	for range slots {
		start, err := s.Take(context.Background())
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		fmt.Println("start", start.UnixNano())
	}
	os.Exit(0)
}

// runHelpers starts two helper processes that share lockPath, releases them
// together, and returns the wall-clock time before the release and all
// their start times.
func runHelpers(t *testing.T, lockPath string, interval time.Duration, slots int) (time.Time, []time.Time) {
	t.Helper()
	type helper struct {
		cmd   *exec.Cmd
		out   *bufio.Scanner
		stdin io.WriteCloser
	}
	var hs []*helper
	for range 2 {
		p := helperproc.Start(t, "TestHelperProcess", "",
			envHelper+"=1",
			envLock+"="+lockPath,
			envInterval+"="+interval.String(),
			envSlots+"="+strconv.Itoa(slots),
		)
		hs = append(hs, &helper{cmd: p.Cmd, out: bufio.NewScanner(p.Stdout), stdin: p.Stdin})
	}
	for i, h := range hs {
		if !h.out.Scan() || h.out.Text() != "ready" {
			t.Fatalf("helper %d did not report ready: %q %v", i, h.out.Text(), h.out.Err())
		}
	}
	t0 := time.Now().Round(0) // wall clock only, as the helpers report
	for _, h := range hs {
		if _, err := fmt.Fprintln(h.stdin); err != nil {
			t.Fatal(err)
		}
	}
	var starts []time.Time
	for i, h := range hs {
		n := 0
		for h.out.Scan() {
			ns, ok := strings.CutPrefix(h.out.Text(), "start ")
			if !ok {
				continue
			}
			v, err := strconv.ParseInt(ns, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			starts = append(starts, time.Unix(0, v))
			n++
		}
		if err := h.cmd.Wait(); err != nil {
			t.Fatalf("helper %d: %v", i, err)
		}
		if n != slots {
			t.Fatalf("helper %d took %d slots, want %d", i, n, slots)
		}
	}
	return t0, starts
}

func TestWaitAcrossProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts helper processes")
	}
	const interval = 50 * time.Millisecond
	tests := []struct {
		name      string
		lock      bool
		tries     int
		wantClose bool // spacing violated somewhere
	}{
		{"shared lock file", true, tries, false},
		// Planted fault: without the lock file each process spaces only its
		// own starts, and a run where the two overlap shows it.
		{"no lock file", false, tries, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := ""
			if tc.lock {
				path = filepath.Join(t.TempDir(), "lock")
			}
			gap, bad := measure(t, interval, tc.tries, tc.wantClose, func() (time.Time, []time.Time) {
				return runHelpers(t, path, interval, 4)
			})
			if bad != tc.wantClose {
				t.Errorf("spacing violated = %v (closest gap %v), want %v", bad, gap, tc.wantClose)
			}
		})
	}
}
