package access

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestFlightShares: callers joining a call in progress get its result and
// do not run the function again; a later call runs it again.
func TestFlightShares(t *testing.T) {
	var g flight
	joined := make(chan string)
	g.joined = func(key string) { joined <- key }
	release := make(chan struct{})
	var runs atomic.Int32
	fn := func() (any, error) {
		runs.Add(1)
		<-release
		return "v", nil
	}
	type result struct {
		v   any
		err error
	}
	out := make(chan result, 3)
	go func() { v, err := g.do("k", fn); out <- result{v, err} }()
	// The first caller is running fn once a second caller joins it.
	for range 2 {
		go func() { v, err := g.do("k", fn); out <- result{v, err} }()
		select {
		case k := <-joined:
			if k != "k" {
				t.Fatalf("joined %q", k)
			}
		case <-time.After(2 * time.Minute): // a guard against hanging, not a wait
			t.Fatal("the second caller did not join the call in progress")
		}
	}
	close(release)
	for range 3 {
		if r := <-out; r.v != "v" || r.err != nil {
			t.Errorf("got %v, %v", r.v, r.err)
		}
	}
	if n := runs.Load(); n != 1 {
		t.Errorf("fn ran %d times, want 1", n)
	}
	if _, err := g.do("k", fn); err != nil || runs.Load() != 2 {
		t.Errorf("a later call: %v, %d runs; want fn run again", err, runs.Load())
	}
}

// TestFlightPanic: a panic in the function goes up the stack of the caller
// running it; the callers waiting on it get an error, not a hang.
func TestFlightPanic(t *testing.T) {
	var g flight
	joined := make(chan struct{})
	g.joined = func(string) { close(joined) }
	release := make(chan struct{})
	waiter := make(chan error, 2)
	go func() {
		<-joined
		close(release)
	}()
	go func() {
		defer func() {
			if recover() == nil {
				waiter <- errors.New("no panic in the running caller")
			}
		}()
		_, _ = g.do("k", func() (any, error) {
			go func() { _, err := g.do("k", nil); waiter <- err }()
			<-release
			panic("boom")
		})
	}()
	if err := <-waiter; err == nil || !strings.Contains(err.Error(), "panicked") {
		t.Errorf("waiting caller got %v, want the shared fetch's panic", err)
	}
}
