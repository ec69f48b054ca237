package edgar13f_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/wiretest"
)

// rateInterval is the request spacing of the rate tests. The server notes
// a start when the request reaches it, up to rateDelivery after the Client
// sent it (on a loaded machine, or under the race detector, the test
// server's goroutines wait their turn), so the starts that reach it in any
// one second left the Client within 1 s + rateDelivery: at most
// rateMaxPerSecond of them. A Client spacing nothing across processes
// would show about twice that.
const (
	rateInterval     = 120 * time.Millisecond
	rateDelivery     = rateInterval
	rateMaxPerSecond = int((time.Second+rateDelivery)/rateInterval) + 1
)

// rateQueries are two disjoint sets of queries that together need about 30
// requests on a cold cache.
var rateQueries = map[string][]func(context.Context, *edgar13f.Client) error{
	"a": {
		func(ctx context.Context, c *edgar13f.Client) error {
			_, err := c.Filings(ctx, "9000001", date("2025-12-01"))
			return err
		},
		func(ctx context.Context, c *edgar13f.Client) error {
			_, err := c.Holdings(ctx, "9000003", date("2025-03-31"), date("2025-05-16"))
			return err
		},
	},
	"b": {
		func(ctx context.Context, c *edgar13f.Client) error {
			_, err := c.Holdings(ctx, "9000001", date("2024-12-31"), date("2025-12-01"))
			return err
		},
		func(ctx context.Context, c *edgar13f.Client) error {
			_, err := c.Filings(ctx, "9000002", date("2025-12-01"))
			return err
		},
		func(ctx context.Context, c *edgar13f.Client) error {
			_, err := c.Holdings(ctx, "1067983", date("2023-09-30"), date("2024-05-16"))
			return err
		},
	},
}

// runRateQueries runs the query sets named by sets with a Client on the
// server at base and the cache in dir, each query in 4 goroutines at once.
func runRateQueries(base, dir, sets string) error {
	c, err := edgar13f.NewClient(
		edgar13f.WithUserAgent(testUserAgent),
		edgar13f.WithBaseURL(base),
		edgar13f.WithCacheDir(dir),
		edgar13f.WithRequestInterval(rateInterval),
		edgar13f.WithRetryPolicy(fastRetry),
		edgar13f.WithClock(edgar13f.ClockFunc(func() time.Time { return fixedNow })),
	)
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for _, set := range sets {
		for _, q := range rateQueries[string(set)] {
			for range 4 {
				wg.Go(func() {
					if err := q(context.Background(), c); err != nil {
						errs <- err
					}
				})
			}
		}
	}
	wg.Wait()
	close(errs)
	return <-errs
}

// rateHelper runs one query set in a helper process.
func rateHelper() error {
	return runRateQueries(os.Getenv("EDGAR13F_URL"), os.Getenv("EDGAR13F_CACHE"), os.Getenv("EDGAR13F_SET"))
}

// maxPerWindow returns the largest number of starts in any one-second window.
func maxPerWindow(starts []time.Time) int {
	slices.SortFunc(starts, func(a, b time.Time) int { return a.Compare(b) })
	best := 0
	j := 0
	for i := range starts {
		for starts[i].Sub(starts[j]) >= time.Second {
			j++
		}
		best = max(best, i-j+1)
	}
	return best
}

// twoFailures fails the first two requests for every path, with a 503 and
// then a 429, and serves the third.
func twoFailures() *fault {
	seen := map[string]int{}
	var mu sync.Mutex
	return &fault{serve: func(w http.ResponseWriter, r *http.Request, body []byte) {
		mu.Lock()
		seen[r.URL.Path]++
		k := seen[r.URL.Path]
		mu.Unlock()
		switch k {
		case 1:
			status(http.StatusServiceUnavailable)(w, r, body)
		case 2:
			status(http.StatusTooManyRequests)(w, r, body)
		default:
			w.Write(body)
		}
	}}
}

// TestRateLimit records every request start at a fake EDGAR and checks that
// no one-second window holds more starts than the configured interval
// allows: within one process with many goroutines, and across two processes
// sharing a cache directory, with and without faults (whose retries count).
func TestRateLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("takes a few seconds of real time")
	}
	tests := []struct {
		name      string
		processes bool
		faults    bool
	}{
		{"one process", false, false},
		{"one process with faults", false, true},
		{"two processes", true, false},
		{"two processes with faults", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newFakeEDGAR(t)
			if tt.faults {
				e.setFaults(twoFailures())
			}
			dir := t.TempDir()
			if tt.processes {
				var cmds []func() error
				for _, set := range []string{"a", "b"} {
					cmd, _, stderr := startHelper(t, "rate", "", "EDGAR13F_URL="+e.srv.URL, "EDGAR13F_CACHE="+dir, "EDGAR13F_SET="+set)
					cmds = append(cmds, func() error {
						if err := cmd.Wait(); err != nil {
							return fmt.Errorf("helper %s: %v; stderr: %s", set, err, stderr)
						}
						return nil
					})
				}
				for _, wait := range cmds {
					if err := wait(); err != nil {
						t.Fatal(err)
					}
				}
			} else if err := runRateQueries(e.srv.URL, dir, "ab"); err != nil {
				t.Fatal(err)
			}
			paths, starts := e.requests()
			got := maxPerWindow(starts)
			t.Logf("%d requests; at most %d starts in one second (limit %d); closest starts %v apart", len(starts), got, rateMaxPerSecond, wiretest.MinGap(starts))
			if len(starts) < 2*rateMaxPerSecond {
				t.Errorf("only %d requests: too few to test the rate", len(starts))
			}
			limit := rateMaxPerSecond
			if got > limit {
				t.Errorf("%d request starts in one second, want at most %d", got, limit)
			}
			if tt.processes || tt.faults {
				return
			}
			seen := map[string]int{}
			for _, p := range paths {
				seen[p]++
			}
			for p, n := range seen {
				if n > 1 {
					t.Errorf("%s requested %d times", p, n)
				}
			}
		})
	}
}
