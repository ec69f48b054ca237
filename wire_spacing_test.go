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
	"github.com/edgar13f/edgar13f/internal/edgarhttp"
	"github.com/edgar13f/edgar13f/internal/edgartest"
	"github.com/edgar13f/edgar13f/internal/throttle"
	"github.com/edgar13f/edgar13f/internal/wiretest"
	"github.com/edgar13f/edgar13f/mirror"
)

// wireSpacingInterval is the request spacing of TestWireSpacing.
const wireSpacingInterval = 120 * time.Millisecond

// TestWireSpacing answers a Client's queries from the recorded mirror
// through a server that redirects every document once and resets every
// connection at its second request (so that Go's transport sends that
// request again by itself), from several goroutines at once: every request
// the Client writes takes a start of its own from its spacer, and no two
// starts are granted closer than the Client's request interval. It checks
// the client's side (see wiretest.Log), not the times requests arrive at
// the server, which a loaded machine delays at random.
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

	log := &wiretest.Log{}
	tr := srv.Client().Transport.(*http.Transport).Clone()
	tr.DialContext = log.Dial

	c, err := edgar13f.NewClient(
		edgar13f.WithUserAgent("Example Research research@example.com"),
		edgar13f.WithHTTPClient(&http.Client{Transport: tr}),
		edgar13f.WithWrappedSpacer(func(sp *throttle.Spacer) edgarhttp.Waiter { return log.Spacer(sp, 0) }),
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

	paths, _ := srv.Requests()
	// A path asked for twice was sent again; one under /moved was redirected.
	redirected := map[string]bool{}
	for _, p := range paths {
		if strings.HasPrefix(p, "/moved/") {
			redirected[p] = true
		}
	}
	resent := len(paths) - len(slices.Compact(slices.Sorted(slices.Values(paths))))
	kept, writes, unmatched := log.Check(false)
	gap := wiretest.MinGap(kept)
	t.Logf("%d requests written, %d reached the server (%d documents redirected, %d requests sent again), %d starts granted, closest %v apart",
		writes, len(paths), len(redirected), resent, len(kept), gap)
	if len(redirected) == 0 || resent == 0 {
		t.Errorf("%d documents redirected, %d requests sent again: want both", len(redirected), resent)
	}
	if writes < len(paths) {
		t.Errorf("%d requests written, but the server saw %d", writes, len(paths))
	}
	if unmatched != "" {
		t.Error(unmatched)
	}
	if gap < wireSpacingInterval {
		t.Errorf("two starts granted %v apart, want at least %v", gap, wireSpacingInterval)
	}
}
