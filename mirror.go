package edgar13f

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"

	"github.com/edgar13f/edgar13f/internal/mirror"
)

// A MirrorFetcher is a [Fetcher] that reads an EDGAR mirror tree: the
// document at https://HOST/PATH is the file HOST/PATH of the tree, for
// example data.sec.gov/submissions/CIK0001067983.json. A missing file is
// an error wrapping [ErrNotFound]. Use it for offline work and tests; it
// sends nothing over the network, so no User-Agent or rate limit applies.
type MirrorFetcher struct {
	m *mirror.Fetcher
}

// NewMirrorFetcher returns a MirrorFetcher reading fsys. For a directory on
// disk, pass [MirrorDir] so that symbolic links cannot lead outside it.
func NewMirrorFetcher(fsys fs.FS) *MirrorFetcher {
	return &MirrorFetcher{m: mirror.NewFetcher(fsys)}
}

// Fetch returns the mirrored bytes of url. A file over the size limit of
// its kind (see [ErrTooLarge]) is refused without being read.
func (f *MirrorFetcher) Fetch(ctx context.Context, url string) ([]byte, error) {
	b, err := f.m.FetchMax(ctx, url, maxBytesFor(url))
	if err == nil {
		return b, nil
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		return nil, ctxErr
	}
	if errors.Is(err, mirror.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("edgar13f: mirror has no %s: %w", url, ErrNotFound)
	}
	if errors.Is(err, mirror.ErrTooLarge) {
		return nil, fmt.Errorf("%w: %v", ErrTooLarge, err)
	}
	return nil, fmt.Errorf("edgar13f: mirror: %v", err)
}

// MirrorDir returns a read-only file system of the mirror tree in dir that
// neither ".." nor symbolic links can lead out of.
func MirrorDir(dir string) (fs.FS, error) {
	fsys, err := mirror.DirFS(dir)
	if err != nil {
		return nil, fmt.Errorf("edgar13f: mirror: %v", err)
	}
	return fsys, nil
}

// MirrorHandler serves an EDGAR mirror tree over HTTP: GET /HOST/PATH
// returns the file HOST/PATH, and a missing file is a 404. Pointed at with
// [WithBaseURL], it lets tests and private mirrors use the Client's real
// HTTP path (User-Agent, spacing, retries and cache).
func MirrorHandler(fsys fs.FS) http.Handler { return mirror.Handler(fsys) }
