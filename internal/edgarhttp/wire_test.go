package edgarhttp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edgar13f/edgar13f/internal/throttle"
	"github.com/edgar13f/edgar13f/internal/wiretest"
)

// wireInterval is the spacing of the wire tests.
const wireInterval = 100 * time.Millisecond

// serveJSON answers with a small JSON document.
func serveJSON(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"ok":true}`))
}

// wireClient returns a Client spaced by sp that retries at once but for
// the spacing.
func wireClient(t *testing.T, hc *http.Client, sp Waiter) *Client {
	t.Helper()
	c, err := New(Config{UserAgent: testUA, HTTPClient: hc, Spacer: sp,
		BaseDelay: time.Microsecond, MaxDelay: time.Microsecond})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// hiddenConns is a RoundTripper that reports no connections: it sends each
// request through base under a context of its own.
type hiddenConns struct{ base http.RoundTripper }

func (h hiddenConns) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancel(context.Background())
	stop := context.AfterFunc(req.Context(), cancel)
	resp, err := h.base.RoundTrip(req.WithContext(ctx))
	if err != nil || !stop() {
		cancel()
	}
	return resp, err
}

// TestWireSpacing checks that every request written on a connection took
// a start of its own from the spacer, and that the starts granted are
// spaced by the interval: the transport's own re-sends over connections
// the server resets, the hops of a redirect chain, retries, and all of
// them from several goroutines and from two spacers sharing a lock file
// (as two processes do). It checks cause and effect (see wiretest.Log), not the
// times requests arrive at the server, which a loaded machine delays at
// random.
func TestWireSpacing(t *testing.T) {
	redirects := func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/a"):
			http.Redirect(w, r, strings.TrimSuffix(r.URL.Path, "a")+"b", http.StatusMovedPermanently)
		case strings.HasSuffix(r.URL.Path, "/b"):
			http.Redirect(w, r, strings.TrimSuffix(r.URL.Path, "b")+"c", http.StatusFound)
		default:
			serveJSON(w, r)
		}
	}
	var mu sync.Mutex
	seen := map[string]int{}
	twoFailures := func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.URL.Path]++
		n := seen[r.URL.Path]
		mu.Unlock()
		if n <= 2 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		serveJSON(w, r)
	}
	tests := []struct {
		name        string
		resetReused bool
		serve       http.HandlerFunc
		path        string // requested as path/<n>/a
		hidden      bool   // through a RoundTripper that reports no connections
		slowDial    bool   // the first connection takes 2.5 intervals to open
		clients     int    // each with its own spacer on one lock file
		goroutines  int    // per client
		gets        int    // per goroutine
		wantHits    int
	}{
		// Each Get after the first is sent on the kept-alive connection,
		// reset, and re-sent by the transport on a new one.
		{name: "transport replays", resetReused: true, serve: serveJSON, clients: 1, goroutines: 1, gets: 5, wantHits: 9},
		{name: "redirect chain", serve: redirects, clients: 1, goroutines: 1, gets: 2, wantHits: 6},
		{name: "redirect chain, connections hidden", serve: redirects, hidden: true, clients: 1, goroutines: 1, gets: 2, wantHits: 6},
		// The slot taken before the slow dial moves to the moment the
		// request goes out, or else waits behind the starts granted meanwhile.
		{name: "slow dial", serve: serveJSON, slowDial: true, clients: 1, goroutines: 3, gets: 1, wantHits: 3},
		{name: "retries", serve: twoFailures, clients: 1, goroutines: 1, gets: 2, wantHits: 6},
		{name: "all at once across spacers", resetReused: true, serve: redirects, clients: 2, goroutines: 2, gets: 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := wiretest.NewServer(t, tc.resetReused, tc.serve)
			lock := filepath.Join(t.TempDir(), "request.lock")
			log := &wiretest.Log{}
			var wg sync.WaitGroup
			for ci := range tc.clients {
				hc := srv.Client()
				tr := hc.Transport.(*http.Transport).Clone()
				var dials atomic.Int32
				tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
					if dials.Add(1) == 1 && tc.slowDial {
						time.Sleep(wireInterval * 5 / 2)
					}
					return log.Dial(ctx, network, addr)
				}
				hc.Transport = tr
				if tc.hidden {
					hc.Transport = hiddenConns{hc.Transport}
				}
				sp, err := throttle.New(wireInterval, lock)
				if err != nil {
					t.Fatal(err)
				}
				c := wireClient(t, hc, log.Spacer(sp, ci))
				for gi := range tc.goroutines {
					wg.Go(func() {
						for n := range tc.gets {
							url := fmt.Sprintf("%s/%d/%d/%d/a", srv.URL, ci, gi, n)
							if _, err := c.Get(context.Background(), url); err != nil {
								t.Errorf("Get %s: %v", url, err)
							}
						}
					})
				}
			}
			wg.Wait()
			paths, _ := srv.Requests()
			kept, writes, unmatched := log.Check(tc.hidden)
			gap := wiretest.MinGap(kept)
			t.Logf("%d Gets, %d requests written, %d reached the server, %d starts granted, closest %v apart",
				tc.clients*tc.goroutines*tc.gets, writes, len(paths), len(kept), gap)
			if tc.wantHits != 0 && len(paths) != tc.wantHits {
				t.Errorf("server saw %d requests, want %d: %q", len(paths), tc.wantHits, paths)
			}
			if len(paths) <= tc.clients*tc.goroutines*tc.gets && !tc.slowDial {
				t.Errorf("server saw %d requests for as many Gets: nothing was re-sent", len(paths))
			}
			if writes < len(paths) {
				t.Errorf("%d requests written, but the server saw %d", writes, len(paths))
			}
			if unmatched != "" {
				t.Error(unmatched)
			}
			if gap < wireInterval {
				t.Errorf("two starts granted %v apart, want at least %v", gap, wireInterval)
			}
		})
	}
}

// A stallingSpacer grants starts ahead at once but holds every request at
// the wire: Retake and Wait report on waiting and then wait for the end of
// ctx, or fail with err when it is set.
type stallingSpacer struct {
	waiting chan struct{}
	err     error
}

func (s *stallingSpacer) Take(ctx context.Context) (time.Time, error) {
	return time.Now(), ctx.Err()
}

func (s *stallingSpacer) Retake(ctx context.Context, _ time.Time) error { return s.Wait(ctx) }

func (s *stallingSpacer) Wait(ctx context.Context) error {
	if s.err != nil {
		return s.err
	}
	s.waiting <- struct{}{}
	<-ctx.Done()
	return ctx.Err()
}

// A slowConn counts the bytes written on it and is slow to close: a
// request that the transport writes on it while closing it (as it does
// when the request's context ends) gets out.
type slowConn struct {
	net.Conn
	n *atomic.Int64
}

func (c slowConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.n.Add(int64(n))
	return n, err
}

func (c slowConn) Close() error {
	time.Sleep(20 * time.Millisecond)
	return c.Conn.Close()
}

// TestWireCancel: a request whose context ends while it waits at the wire
// for its start never reaches the server, over HTTP/1.1 (where the
// transport writes it while it closes the connection, so that no byte may
// be written) and HTTP/2, and Get returns the context's error at once. A
// failing spacer fails the Get without a retry.
func TestWireCancel(t *testing.T) {
	for _, h2 := range []bool{false, true} {
		t.Run(map[bool]string{false: "HTTP/1.1", true: "HTTP/2"}[h2], func(t *testing.T) {
			srv := newServer(t, ok([]byte("{}"), "application/json"))
			var written atomic.Int64
			hc := srv.Client()
			if h2 {
				srv.Close()
				srv.Server = httptest.NewUnstartedServer(srv.Config.Handler)
				srv.EnableHTTP2 = true
				srv.StartTLS()
				t.Cleanup(srv.Close)
				hc = srv.Client()
				resp, err := hc.Get(srv.URL)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if resp.ProtoMajor != 2 {
					t.Fatalf("test server speaks %s, want HTTP/2", resp.Proto)
				}
				srv.hits = nil
			} else {
				tr := hc.Transport.(*http.Transport).Clone()
				tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
					conn, err := (&net.Dialer{}).DialContext(ctx, network, addr)
					if err != nil {
						return nil, err
					}
					return slowConn{conn, &written}, nil
				}
				hc = &http.Client{Transport: tr}
			}
			sp := &stallingSpacer{waiting: make(chan struct{})}
			c, err := New(Config{UserAgent: testUA, HTTPClient: hc, Spacer: sp})
			if err != nil {
				t.Fatal(err)
			}
			for range 10 {
				ctx, cancel := context.WithCancel(context.Background())
				go func() {
					<-sp.waiting
					cancel()
				}()
				var err error
				withinHangGuard(t, func() { _, err = c.Get(ctx, srv.URL+jsonPath) })
				if err != context.Canceled {
					t.Errorf("Get error = %v, want context.Canceled", err)
				}
			}
			if n := len(srv.Hits()); n != 0 {
				t.Errorf("server saw %d requests, want none", n)
			}
			if n := written.Load(); n != 0 {
				t.Errorf("client wrote %d bytes, want none", n)
			}

			sp.err = errWaiter
			_, err = c.Get(context.Background(), srv.URL+jsonPath)
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, errWaiter) || e.Attempts != 1 {
				t.Errorf("Get error = %v, want *Error of 1 attempt wrapping %v", err, errWaiter)
			}
			if n := len(srv.Hits()); n != 0 {
				t.Errorf("server saw %d requests, want none", n)
			}
		})
	}
}
