package edgar13f_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/edgartest"
	"github.com/edgar13f/edgar13f/internal/wiretest"
	"github.com/edgar13f/edgar13f/mirror"
)

// wireSpacingInterval is the request spacing of TestWireSpacing; the slack
// allows for the scheduling latency between a start and the moment the
// server notes it. The transport's own re-sends come 1-5 ms apart.
const (
	wireSpacingInterval = 120 * time.Millisecond
	wireSpacingSlack    = wireSpacingInterval / 2
)

// TestWireSpacing answers a Client's queries from the recorded mirror
// through a server that redirects every document once and resets every
// connection at its second request (so that Go's transport sends that
// request again by itself), and notes the start of every request that
// reaches it: no two may come closer than the Client's request interval,
// from several goroutines at once.
func TestWireSpacing(t *testing.T) {
	if testing.Short() {
		t.Skip("takes a few seconds of real time")
	}
	tree := mirror.Handler(edgartest.MirrorFS(t))
	srv := wiretest.NewServer(t, true, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p, ok := strings.CutPrefix(r.URL.Path, "/moved"); ok {
			r2 := r.Clone(r.Context())
			r2.URL.Path = p
			tree.ServeHTTP(w, r2)
			return
		}
		http.Redirect(w, r, "/moved"+r.URL.Path, http.StatusFound)
	}))

	c, err := edgar13f.NewClient(
		edgar13f.WithUserAgent("Example Research research@example.com"),
		edgar13f.WithBaseURL(srv.URL),
		edgar13f.WithCacheDir(t.TempDir()),
		edgar13f.WithRequestInterval(wireSpacingInterval),
		edgar13f.WithRetryPolicy(edgar13f.RetryPolicy{MaxAttempts: 6, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}),
	)
	if err != nil {
		t.Fatal(err)
	}
	period := edgar13f.MustParseDate("2023-09-30")
	asOf := edgar13f.MustParseDate("2024-05-16")
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			if _, err := c.Holdings(context.Background(), "1067983", period, asOf); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()

	paths, starts := srv.Requests()
	// A path asked for twice was sent again; one under /moved was redirected.
	redirected := map[string]bool{}
	for _, p := range paths {
		if strings.HasPrefix(p, "/moved/") {
			redirected[p] = true
		}
	}
	resent := len(paths) - len(slices.Compact(slices.Sorted(slices.Values(paths))))
	gap := wiretest.MinGap(starts)
	t.Logf("%d requests on the wire (%d documents redirected, %d requests sent again); closest starts %v apart", len(starts), len(redirected), resent, gap)
	if len(redirected) == 0 || resent == 0 {
		t.Errorf("%d documents redirected, %d requests sent again: want both", len(redirected), resent)
	}
	if gap < wireSpacingInterval-wireSpacingSlack {
		t.Errorf("two request starts %v apart, want at least %v (less %v of slack)", gap, wireSpacingInterval, wireSpacingSlack)
	}
}
