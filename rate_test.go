package edgar13f_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/edgartest"
	"github.com/edgar13f/edgar13f/internal/wiretest"
)

// rateInterval is the request spacing of the rate tests.
//
// The tests check a bound that holds however late the server sees a
// request: n starts spaced rateInterval apart span at least (n-1) times
// rateInterval from the first to the last, so the time from just before
// the first query (t0, taken by the querying process itself) to the last
// start the server saw is at least that. A delay in delivery only makes
// the measured span longer, never shorter, so a loaded machine cannot fail
// the test; two processes spacing independently of each other would take
// about half the time and fail it. The spacer's per-request gaps are
// checked where they are decided, in internal/throttle.
const rateInterval = 120 * time.Millisecond

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
// started is called just before the first query.
func runRateQueries(base, dir, sets string, started func(time.Time)) error {
	c, err := edgar13f.NewClient(
		edgar13f.WithUserAgent(edgartest.UserAgent),
		edgar13f.WithBaseURL(base),
		edgar13f.WithCacheDir(dir),
		edgar13f.WithRequestInterval(rateInterval),
		edgar13f.WithRetryPolicy(edgartest.FastRetry),
		edgar13f.WithClock(edgartest.Clock(func() time.Time { return edgartest.FixedNow })),
	)
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	started(time.Now())
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

// rateHelper runs one query set in a helper process and writes the time
// before its first query on stdout (RFC 3339, nanoseconds).
func rateHelper() error {
	return runRateQueries(os.Getenv("EDGAR13F_URL"), os.Getenv("EDGAR13F_CACHE"), os.Getenv("EDGAR13F_SET"), func(t0 time.Time) {
		fmt.Println(t0.Format(time.RFC3339Nano))
	})
}

// twoFailures fails the first two requests for every path, with a 503 and
// then a 429, and serves the third.
func twoFailures() *edgartest.Fault {
	seen := map[string]int{}
	var mu sync.Mutex
	return &edgartest.Fault{Serve: func(w http.ResponseWriter, r *http.Request, body []byte) {
		mu.Lock()
		seen[r.URL.Path]++
		k := seen[r.URL.Path]
		mu.Unlock()
		switch k {
		case 1:
			edgartest.Status(http.StatusServiceUnavailable)(w, r, body)
		case 2:
			edgartest.Status(http.StatusTooManyRequests)(w, r, body)
		default:
			w.Write(body)
		}
	}}
}

// TestRateLimit records every request start at a fake EDGAR and checks that
// the starts took at least as long as the configured interval allows (see
// rateInterval): within one process with many goroutines, and across two
// processes sharing a cache directory, with and without faults (whose
// retries count).
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
			e := edgartest.NewServer(t)
			if tt.faults {
				e.SetFaults(twoFailures())
			}
			dir := t.TempDir()
			var t0 time.Time // before the first query of any process
			first := func(t time.Time) {
				if t0.IsZero() || t.Before(t0) {
					t0 = t
				}
			}
			if tt.processes {
				var cmds []func() error
				for _, set := range []string{"a", "b"} {
					cmd, stdout, stderr := startHelper(t, "rate", "", "EDGAR13F_URL="+e.URL(), "EDGAR13F_CACHE="+dir, "EDGAR13F_SET="+set)
					cmds = append(cmds, func() error {
						line, readErr := stdout.ReadString('\n')
						if err := cmd.Wait(); err != nil {
							return fmt.Errorf("helper %s: %v; stderr: %s", set, err, stderr)
						}
						at, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(line))
						if readErr != nil || err != nil {
							return fmt.Errorf("helper %s wrote no start time (%q): %v %v", set, line, readErr, err)
						}
						first(at)
						return nil
					})
				}
				for _, wait := range cmds {
					if err := wait(); err != nil {
						t.Fatal(err)
					}
				}
			} else if err := runRateQueries(e.URL(), dir, "ab", first); err != nil {
				t.Fatal(err)
			}
			paths, starts := e.Requests()
			if len(starts) < 20 {
				t.Fatalf("only %d requests: too few to test the rate", len(starts))
			}
			last := slices.MaxFunc(starts, func(a, b time.Time) int { return a.Compare(b) })
			span, least := last.Sub(t0), time.Duration(len(starts)-1)*rateInterval
			t.Logf("%d requests in %v (at least %v spaced %v apart); closest starts seen %v apart", len(starts), span, least, rateInterval, wiretest.MinGap(starts))
			if span < least {
				t.Errorf("%d requests took %v; spaced %v apart they take at least %v", len(starts), span, rateInterval, least)
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
