package edgar13f

import (
	"context"

	"github.com/edgar13f/edgar13f/internal/edgarhttp"
)

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
