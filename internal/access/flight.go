package access

import (
	"fmt"
	"sync"
)

// flight runs a function once for all concurrent callers of one key, as
// golang.org/x/sync/singleflight does, and can tell a test when a caller
// has joined a call in progress: the moment from which that caller waits
// for the call's result, whatever happens to the caller that runs it.
type flight struct {
	mu     sync.Mutex
	calls  map[string]*flightCall
	joined func(key string) // nil but in tests
}

// A flightCall is one run of a function and its result.
type flightCall struct {
	done chan struct{}
	v    any
	err  error
}

// do returns fn's result, running fn unless a call for key is in progress,
// in which case it waits for that call's result.
func (g *flight) do(key string, fn func() (any, error)) (any, error) {
	g.mu.Lock()
	if c, ok := g.calls[key]; ok {
		joined := g.joined
		g.mu.Unlock()
		if joined != nil {
			joined(key)
		}
		<-c.done
		return c.v, c.err
	}
	if g.calls == nil {
		g.calls = map[string]*flightCall{}
	}
	c := &flightCall{done: make(chan struct{})}
	g.calls[key] = c
	g.mu.Unlock()

	finished := false
	defer func() {
		// A panic in fn fails the callers waiting on it rather than
		// leaving them waiting for ever; the panic goes on up this
		// caller's stack.
		if !finished {
			c.v, c.err = nil, fmt.Errorf("%s: the shared fetch panicked", key)
		}
		g.mu.Lock()
		delete(g.calls, key)
		g.mu.Unlock()
		close(c.done)
	}()
	c.v, c.err = fn()
	finished = true
	return c.v, c.err
}

// OnJoin sets a function called (for tests) each time a caller of
// [Layer.Shared] joins a fetch another caller is running, from which moment
// it waits for that fetch's result.
func (l *Layer) OnJoin(f func(key string)) {
	l.flight.mu.Lock()
	l.flight.joined = f
	l.flight.mu.Unlock()
}
