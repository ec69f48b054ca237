package edgarhttp

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptrace"
	"sync"
	"time"
)

// Spacing on the wire.
//
// SEC counts the requests that reach it, so every request written on a
// connection takes its own start slot: each attempt of a Get, each hop of
// a redirect (http.Client follows redirects inside Do, one RoundTrip per
// hop), and each request that net/http's Transport sends again by itself
// when a reused connection fails (both its HTTP/1.1 and HTTP/2 code replay
// idempotent requests, inside one RoundTrip). The Transport reports each
// connection it is about to write a request on through the httptrace
// GotConn hook, once per replay, in the goroutine of the round trip and
// before it writes: for HTTP/1.1 at the end of getConn, for HTTP/2 in the
// retry loop of RoundTripOpt, ahead of ClientConn.RoundTrip. Holding the
// hook until a slot is granted holds the request back until then.
//
// The first slot of an attempt is taken before Do, where no client timeout
// runs yet, so that requests queue for the spacer outside their timeouts;
// at GotConn a spacer that can (see retaker) moves that slot to the moment
// the request goes out. A RoundTripper that never reports connections gets
// one slot per RoundTrip.

// A retaker is a Waiter that can take a start ahead of a request and move
// it to the moment the request reaches the wire, as throttle.Spacer does.
// With a plain Waiter, the slot taken ahead stands for the first request
// written, however much later that is.
type retaker interface {
	Waiter
	// Take is like Wait but returns the start it granted.
	Take(ctx context.Context) (time.Time, error)
	// Retake moves the start granted at t to now if no start was granted
	// since; otherwise it waits like Wait.
	Retake(ctx context.Context, t time.Time) error
}

// A gate hands start slots to the requests of one attempt. It travels to
// spacedTransport in the request's context.
type gate struct {
	spacer Waiter

	mu   sync.Mutex
	held bool      // a slot is taken that no request has used yet
	at   time.Time // when the held slot was granted (zero from a plain Waiter)
}

// gateKey is the context key of an attempt's gate.
type gateKey struct{}

// hold takes a slot ahead of the next request, unless one is held already.
func (g *gate) hold(ctx context.Context) error {
	g.mu.Lock()
	held := g.held
	g.mu.Unlock()
	if held {
		return nil
	}
	var at time.Time
	var err error
	if r, ok := g.spacer.(retaker); ok {
		at, err = r.Take(ctx)
	} else {
		err = g.spacer.Wait(ctx)
	}
	if err != nil {
		return err
	}
	g.mu.Lock()
	g.held, g.at = true, at
	g.mu.Unlock()
	return nil
}

// use takes the slot of a request about to be written: the held one, moved
// to now when the spacer can, or else a new one.
func (g *gate) use(ctx context.Context) error {
	g.mu.Lock()
	held, at := g.held, g.at
	g.held = false
	g.mu.Unlock()
	r, ok := g.spacer.(retaker)
	switch {
	case !held:
		return g.spacer.Wait(ctx)
	case ok:
		return r.Retake(ctx, at)
	default:
		return nil
	}
}

// drop forgets the held slot once the request it was held for is over, so
// that the next request (a redirect hop) takes its own.
func (g *gate) drop() {
	g.mu.Lock()
	g.held = false
	g.mu.Unlock()
}

// A spacerError is a failure of the spacer itself, not of the request's
// context; the request is not retried.
type spacerError struct{ err error }

func (e *spacerError) Error() string { return e.err.Error() }
func (e *spacerError) Unwrap() error { return e.err }

// spacedTransport makes every request that base writes on a connection
// wait for its own start slot from the spacer.
type spacedTransport struct {
	base   http.RoundTripper
	spacer Waiter
}

// RoundTrip sends one request, or one hop of a redirect, through base.
func (t spacedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	g, _ := ctx.Value(gateKey{}).(*gate)
	if g == nil {
		g = &gate{spacer: t.spacer}
	}
	if err := g.hold(ctx); err != nil {
		if req.Body != nil {
			_ = req.Body.Close()
		}
		return nil, spacingFailure(ctx, err)
	}
	defer g.drop()

	var mu sync.Mutex
	var failed error // why a request was kept off the wire
	over := false    // RoundTrip has returned; later hooks are ignored
	trace := &httptrace.ClientTrace{GotConn: func(info httptrace.GotConnInfo) {
		mu.Lock()
		defer mu.Unlock()
		if over {
			return
		}
		err := failed
		if err == nil {
			err = g.use(ctx)
		}
		if err != nil {
			// The transport writes the request on this connection as soon
			// as the hook returns, even when ctx has ended; it cannot
			// write on a closed connection. (Over HTTP/2 this also ends
			// the other requests sharing the connection; they fail or are
			// sent again, each with a slot of its own.)
			failed = err
			if info.Conn != nil {
				_ = info.Conn.Close()
			}
		}
	}}
	resp, err := t.base.RoundTrip(req.WithContext(httptrace.WithClientTrace(ctx, trace)))
	mu.Lock()
	over = true
	if err != nil && failed != nil {
		err = spacingFailure(ctx, failed)
	}
	mu.Unlock()
	return resp, err
}

// spacingFailure returns err, a failure to get a slot, as a spacerError
// unless it is the end of ctx.
func spacingFailure(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil && errors.Is(err, cerr) {
		return err
	}
	return &spacerError{err}
}
