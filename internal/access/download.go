package access

import (
	"context"

	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/edgar13f/edgar13f/internal/docerr"
	"github.com/edgar13f/edgar13f/internal/edgarhttp"
)

// An Opener is a caller's Fetcher that can also stream a document, so that
// a large one (a Data Sets zip) is never held in memory. A Fetcher without
// Open is read whole by Download.
type Opener interface {
	Open(ctx context.Context, url string) (io.ReadCloser, error)
}

// Download fetches the document at url as one request (retried as a whole)
// and writes it to the file path, streaming it to disk. The file appears
// atomically: it is written to a temporary file in path's directory,
// synced and renamed, so path holds either nothing or the whole document.
// It returns the document's length. User-Agent, spacing, retries and the
// size limit ([MaxBytes]) are those of Fetch.
func (l *Layer) Download(ctx context.Context, url, path string) (int64, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, fmt.Errorf("%s%v", docerr.Prefix, err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".part-")
	if err != nil {
		return 0, fmt.Errorf("%s%v", docerr.Prefix, err)
	}
	tmp := f.Name()
	done := false
	defer func() {
		if !done {
			f.Close()
			os.Remove(tmp)
		}
	}()
	n, err := l.fetch.download(ctx, url, fileSink{f})
	if err != nil {
		return 0, err
	}
	if err := f.Sync(); err != nil {
		return 0, fmt.Errorf("%s%v", docerr.Prefix, err)
	}
	if err := f.Close(); err != nil {
		return 0, fmt.Errorf("%s%v", docerr.Prefix, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return 0, fmt.Errorf("%s%v", docerr.Prefix, err)
	}
	done = true
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return n, nil
}

// FetchPage returns the web page at url: an HTML body is the page asked
// for, not an error page served in place of data. Everything else is as
// Fetch.
func (l *Layer) FetchPage(ctx context.Context, url string) ([]byte, error) {
	return l.fetch.fetchPage(ctx, url)
}

// fileSink is a file that a retried download truncates.
type fileSink struct{ f *os.File }

func (s fileSink) Write(p []byte) (int, error) { return s.f.Write(p) }

func (s fileSink) Reset() error {
	if err := s.f.Truncate(0); err != nil {
		return err
	}
	_, err := s.f.Seek(0, io.SeekStart)
	return err
}

// download streams the document at url into dst.
func (c callerFetcher) download(ctx context.Context, url string, dst fileSink) (int64, error) {
	o, ok := c.f.(Opener)
	if !ok {
		b, err := c.f.Fetch(ctx, url)
		if err != nil {
			return 0, err
		}
		n, err := dst.Write(b)
		return int64(n), err
	}
	rc, err := o.Open(ctx, url)
	if err != nil {
		return 0, err
	}
	defer rc.Close()
	limit := MaxBytes(url)
	n, err := io.Copy(dst, io.LimitReader(rc, limit+1))
	if err == nil && n > limit {
		err = fmt.Errorf("%w: %s: over %d bytes", docerr.ErrTooLarge, url, limit)
	}
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return 0, ctxErr
		}
		return 0, err
	}
	return n, nil
}

func (c callerFetcher) fetchPage(ctx context.Context, url string) ([]byte, error) {
	return c.f.Fetch(ctx, url)
}

func (f *httpFetcher) download(ctx context.Context, url string, dst fileSink) (int64, error) {
	var n int64
	_, err := f.do(ctx, url, func(c *edgarhttp.Client, target string) ([]byte, error) {
		var err error
		n, err = c.GetTo(ctx, target, dst)
		return nil, err
	})
	return n, err
}

func (f *httpFetcher) fetchPage(ctx context.Context, url string) ([]byte, error) {
	return f.do(ctx, url, func(c *edgarhttp.Client, target string) ([]byte, error) {
		return c.WithWebPage().Get(ctx, target)
	})
}
