package edgar13f_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/edgartest"
	"github.com/edgar13f/edgar13f/mirror"
)

// mixedQueries are Filings, Holdings and Diff questions, answers and
// declines, over filers that share no documents and filers that do.
var mixedQueries = []func(context.Context, *edgar13f.Client) (any, error){
	func(ctx context.Context, c *edgar13f.Client) (any, error) {
		return c.Filings(ctx, "9000001", date("2025-12-01"))
	},
	func(ctx context.Context, c *edgar13f.Client) (any, error) {
		return c.Holdings(ctx, "9000001", date("2024-12-31"), date("2025-04-02"))
	},
	func(ctx context.Context, c *edgar13f.Client) (any, error) {
		return c.Holdings(ctx, "9000001", date("2025-03-31"), date("2025-05-21"), edgar13f.Limit(1))
	},
	func(ctx context.Context, c *edgar13f.Client) (any, error) {
		return c.Diff(ctx, "9000001", date("2024-12-31"), date("2025-03-31"), date("2025-06-01"))
	},
	func(ctx context.Context, c *edgar13f.Client) (any, error) {
		return c.Holdings(ctx, "9000002", date("2024-12-31"), date("2025-05-16"))
	},
	func(ctx context.Context, c *edgar13f.Client) (any, error) {
		return c.Filings(ctx, "9000003", date("2025-05-14"))
	},
	func(ctx context.Context, c *edgar13f.Client) (any, error) {
		return c.Holdings(ctx, "9000004", date("2014-03-31"), date("2024-02-14"))
	},
	func(ctx context.Context, c *edgar13f.Client) (any, error) {
		return c.Holdings(ctx, "1067983", date("2023-09-30"), date("2024-05-16"), edgar13f.Issuer("apple"))
	},
	func(ctx context.Context, c *edgar13f.Client) (any, error) {
		return c.Diff(ctx, "1067983", date("2023-09-30"), date("2023-12-31"), date("2024-05-16"), edgar13f.Limit(5))
	},
	func(ctx context.Context, c *edgar13f.Client) (any, error) {
		return c.Filings(ctx, "1067983", date("2024-05-16"), edgar13f.ForPeriod(date("2023-12-31")))
	},
}

// outcome is an answer or the reason of a decline, for comparison.
type outcome struct {
	Answer  any
	Decline edgar13f.Reason
}

func outcomeOf(t *testing.T, v any, err error) outcome {
	t.Helper()
	if err != nil {
		r := edgartest.Reason(err)
		if r == "" {
			t.Fatalf("query failed: %v", err)
		}
		return outcome{Decline: r}
	}
	return outcome{Answer: v}
}

// TestConcurrentQueries shares one Client (disk cache) among 64 goroutines
// asking mixed questions at once: every answer equals the answer of the
// same question asked alone, and no document is fetched twice.
func TestConcurrentQueries(t *testing.T) {
	ctx := context.Background()
	want := make([]outcome, len(mixedQueries))
	for i, q := range mixedQueries {
		ref, _ := edgartest.MirrorClient(t) // a fresh client per question: nothing shared
		v, err := q(ctx, ref)
		want[i] = outcomeOf(t, v, err)
	}
	if want[4].Decline != edgar13f.NoticeOnly || want[6].Decline != "" {
		t.Fatalf("reference outcomes changed: %+v, %+v", want[4], want[6])
	}

	f := &edgartest.CountingFetcher{Next: mirror.NewFetcher(edgartest.MirrorFS(t))}
	c, err := edgar13f.NewClient(
		edgar13f.WithFetcher(f),
		edgar13f.WithCacheDir(t.TempDir()),
		edgar13f.WithClock(edgartest.Clock(func() time.Time { return edgartest.FixedNow })),
	)
	if err != nil {
		t.Fatal(err)
	}
	const goroutines = 64
	got := make([]outcome, goroutines)
	errs := make([]error, goroutines)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for g := range goroutines {
		wg.Go(func() {
			<-start
			v, err := mixedQueries[g%len(mixedQueries)](ctx, c)
			if err != nil && edgartest.Reason(err) == "" {
				errs[g] = err
				return
			}
			got[g] = outcome{Answer: v, Decline: edgartest.Reason(err)}
			if err != nil {
				got[g].Answer = nil
			}
		})
	}
	close(start)
	wg.Wait()
	for g := range goroutines {
		if errs[g] != nil {
			t.Errorf("goroutine %d: %v", g, errs[g])
			continue
		}
		if diff := cmp.Diff(want[g%len(mixedQueries)], got[g]); diff != "" {
			t.Errorf("goroutine %d, query %d (-want +got):\n%s", g, g%len(mixedQueries), diff)
		}
	}
	counts := map[string]int{}
	urls := f.Take()
	for _, u := range urls {
		counts[u]++
	}
	for u, n := range counts {
		if n > 1 {
			t.Errorf("%s fetched %d times", u, n)
		}
	}
	t.Logf("%d goroutines, %d fetches of %d documents", goroutines, len(urls), len(counts))
}

// TestCancellation cancels queries stuck on a server that never answers
// and on the rate limiter: every call returns context.Canceled (a call that
// ignored the cancellation would end later with the HTTP client's timeout
// instead, or not at all) and no goroutine is left behind. Nothing is
// timed.
func TestCancellation(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	arrived := make(chan struct{})
	var once sync.Once
	e := edgartest.NewServer(t, &edgartest.Fault{Serve: func(w http.ResponseWriter, r *http.Request, body []byte) {
		once.Do(func() { close(arrived) })
		edgartest.Stall(w, r, body)
	}})
	tr := &http.Transport{}
	c := e.Client(t, "", edgar13f.WithHTTPClient(&http.Client{Transport: tr}))
	ctx, cancel := context.WithCancel(context.Background())
	const goroutines = 16
	errs := make(chan error, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			var err error
			switch g % 3 {
			case 0:
				_, err = c.Filings(ctx, fmt.Sprint(9000001+g%4), date("2025-12-01"))
			case 1:
				_, err = c.Holdings(ctx, fmt.Sprint(9000001+g%4), date("2024-12-31"), date("2025-12-01"))
			default:
				_, err = c.Diff(ctx, "1067983", date("2023-09-30"), date("2023-12-31"), date("2024-05-16"))
			}
			errs <- err
		})
	}
	// Cancel once a request is in flight (the others wait their turn at
	// the rate limiter or for that shared fetch).
	select {
	case <-arrived:
	case <-time.After(time.Minute): // a guard against hanging, not a wait
		t.Fatal("no request reached the server")
	}
	cancel()
	wg.Wait()
	close(errs)
	for err := range errs {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("call returned %v, want context.Canceled", err)
		}
	}
	e.Close()
	tr.CloseIdleConnections()
}
