// Package wiretest provides the ground truth for tests of request spacing:
// an HTTP test server that notes every request reaching it, and that can
// reset each connection at its second request, so that Go's transport
// sends that request again by itself; and a Log of the client's side (the
// starts its spacer granted, the connections it dialed, the requests it
// wrote), whose order is that of cause and effect however late the
// scheduler runs the server.
package wiretest

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A Server is an httptest.Server that notes every request reaching it.
type Server struct {
	*httptest.Server
	mu     sync.Mutex
	starts []time.Time
	paths  []string
}

// connRequests is the context key of the count of requests read on one
// connection.
type connRequests struct{}

// NewServer starts a Server answering with h, closed when the test ends.
// With resetReused, a request that arrives on a connection that already
// carried one is noted, and then the connection is reset instead of
// answered.
func NewServer(t testing.TB, resetReused bool, h http.Handler) *Server {
	t.Helper()
	s := &Server{}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		now := time.Now()
		s.mu.Lock()
		s.starts = append(s.starts, now)
		s.paths = append(s.paths, r.URL.Path)
		s.mu.Unlock()
		if n := r.Context().Value(connRequests{}).(*atomic.Int32).Add(1); resetReused && n > 1 {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err != nil {
				panic(err)
			}
			_ = conn.(*net.TCPConn).SetLinger(0) // close with a reset
			_ = conn.Close()
			return
		}
		h.ServeHTTP(w, r)
	}))
	s.Config.ConnContext = func(ctx context.Context, _ net.Conn) context.Context {
		return context.WithValue(ctx, connRequests{}, new(atomic.Int32))
	}
	s.Start()
	t.Cleanup(s.Close)
	return s
}

// Requests returns the paths and start times of the requests noted so
// far, in the order they arrived.
func (s *Server) Requests() (paths []string, starts []time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.paths), slices.Clone(s.starts)
}

// MinGap returns the smallest gap between two of starts, in any order; the
// largest Duration when there are fewer than two.
func MinGap(starts []time.Time) time.Duration {
	s := slices.SortedFunc(slices.Values(starts), func(a, b time.Time) int { return a.Compare(b) })
	gap := time.Duration(1<<63 - 1)
	for i := 1; i < len(s); i++ {
		gap = min(gap, s[i].Sub(s[i-1]))
	}
	return gap
}
