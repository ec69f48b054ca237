package edgar13f

import (
	"context"
	"errors"
	"fmt"

	"github.com/edgar13f/edgar13f/internal/edgarhttp"
	"github.com/edgar13f/edgar13f/internal/mirror"
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
	if f.client == nil {
		return nil, ErrNoUserAgent
	}
	target := url
	if f.baseURL != "" {
		var err error
		if target, err = mirror.URLFor(f.baseURL, url); err != nil {
			return nil, fmt.Errorf("edgar13f: %v", err)
		}
	}
	b, err := f.client.GetPrefix(ctx, target, enough)
	if err == nil {
		return b, nil
	}
	if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
		return nil, ctxErr
	}
	var he *edgarhttp.Error
	if errors.As(err, &he) {
		fe := &FetchError{URL: url, StatusCode: he.StatusCode, Attempts: he.Attempts, Err: he.Err}
		switch {
		case errors.Is(he, edgarhttp.ErrNotFound):
			fe.Err = ErrNotFound
		case errors.Is(he, edgarhttp.ErrTooLarge):
			fe.Err = fmt.Errorf("%w: %v", ErrTooLarge, he.Err)
		}
		return nil, fe
	}
	return nil, &FetchError{URL: url, Attempts: 1, Err: err}
}
