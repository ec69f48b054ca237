package testkit

import (
	"context"
	"sync"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/mirror"
)

// A CountingFetcher is an edgar13f.Fetcher reading the recorded EDGAR
// mirror (see Mirror) that counts the reads of each URL. It names no
// source, so a Client given it shares no cache entry with another.
type CountingFetcher struct {
	next *mirror.Fetcher

	mu    sync.Mutex
	reads map[string]int
}

// NewCountingFetcher returns a CountingFetcher over the recorded mirror.
func NewCountingFetcher(t testing.TB) *CountingFetcher {
	t.Helper()
	fsys, err := mirror.Dir(Mirror())
	if err != nil {
		t.Fatal(err)
	}
	return &CountingFetcher{next: mirror.NewFetcher(fsys), reads: map[string]int{}}
}

// Fetch counts a read of url and returns the mirrored document.
func (f *CountingFetcher) Fetch(ctx context.Context, url string) ([]byte, error) {
	f.mu.Lock()
	f.reads[url]++
	f.mu.Unlock()
	return f.next.Fetch(ctx, url)
}

// Reads returns how many times url has been fetched.
func (f *CountingFetcher) Reads(url string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.reads[url]
}

// CountingClient returns a Client reading the recorded mirror through a
// new CountingFetcher, with no cache at all (every document read is a
// fetch the fetcher counts), and the fetcher.
func CountingClient(t testing.TB) (*edgar13f.Client, *CountingFetcher) {
	t.Helper()
	f := NewCountingFetcher(t)
	c, err := edgar13f.NewClient(edgar13f.WithFetcher(f), edgar13f.WithCache(nil))
	if err != nil {
		t.Fatal(err)
	}
	return c, f
}
