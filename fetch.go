package edgar13f

import (
	"context"

	"github.com/edgar13f/edgar13f/internal/edgarhttp"
)

// Optional fetcher abilities, discovered by type assertion.

// A prefixFetcher can stop reading a document once its start holds what
// the caller needs. The Client's own HTTP fetcher is one; any other
// [Fetcher] is read whole.
type prefixFetcher interface {
	fetchPrefix(ctx context.Context, url string, enough func(prefix []byte) bool) ([]byte, error)
}

// fetchPrefix returns the start of the document at url, at least up to the
// first prefix that enough accepts (the whole document when it accepts
// none), through f when it can stop early.
func fetchPrefix(ctx context.Context, f Fetcher, url string, enough func([]byte) bool) ([]byte, error) {
	if pf, ok := f.(prefixFetcher); ok {
		return pf.fetchPrefix(ctx, url, enough)
	}
	return f.Fetch(ctx, url)
}

// fetchPrefix reads url over HTTP like Fetch but closes the connection once
// enough accepts the bytes read so far.
func (f *httpFetcher) fetchPrefix(ctx context.Context, url string, enough func([]byte) bool) ([]byte, error) {
	return f.do(ctx, url, func(c *edgarhttp.Client, target string) ([]byte, error) {
		return c.GetPrefix(ctx, target, enough)
	})
}

// A sizedFetcher can read a document into a buffer of its expected size.
// The Client's own HTTP fetcher is one; any other [Fetcher] reads as it
// does.
type sizedFetcher interface {
	fetchSized(ctx context.Context, url string, size int64) ([]byte, error)
}

// fetchSized returns the document at url through f, telling f to expect
// size bytes (EDGAR's filing list gives each filing's size) when it can use
// that: a large body is then read into one buffer instead of a growing one.
func fetchSized(ctx context.Context, f Fetcher, url string, size int64) ([]byte, error) {
	if sf, ok := f.(sizedFetcher); ok && size > 0 {
		return sf.fetchSized(ctx, url, size)
	}
	return f.Fetch(ctx, url)
}

func (f *httpFetcher) fetchSized(ctx context.Context, url string, size int64) ([]byte, error) {
	return f.do(ctx, url, func(c *edgarhttp.Client, target string) ([]byte, error) {
		return c.WithSizeHint(size).Get(ctx, target)
	})
}
