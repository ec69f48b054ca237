// Package mirror reads EDGAR mirror trees for offline work and tests, as
// net/http/httptest serves net/http: a mirror tree holds the document at
// https://HOST/PATH as the file HOST/PATH (for example
// data.sec.gov/submissions/CIK0001067983.json). [Dir] opens a tree on
// disk, [NewFetcher] reads one as an [edgar13f.Fetcher] for
// [edgar13f.WithFetcher], and [Handler] serves one over HTTP so that a
// Client built [edgar13f.WithBaseURL] runs its real HTTP path (User-Agent,
// spacing, retries and cache) against it.
//
// The repository's testdata/mirror is such a tree.
package mirror

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strings"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/access"
	"github.com/edgar13f/edgar13f/internal/clientparts"
	"github.com/edgar13f/edgar13f/internal/docerr"
	"github.com/edgar13f/edgar13f/internal/mirror"
)

// A Fetcher is an [edgar13f.Fetcher] that reads an EDGAR mirror tree: the
// document at https://HOST/PATH is the file HOST/PATH of the tree. A
// missing file is an [*edgar13f.FetchError] naming the document's URL and
// mirror path, wrapping [edgar13f.ErrNotFound]. A mirror need not hold
// every document its filing lists name (the repository's testdata/mirror
// does not); a query that needs a missing one fails with that error rather
// than answering without it. It sends nothing over the network, so no
// User-Agent or rate limit applies.
type Fetcher struct {
	m    *mirror.Fetcher
	root string // the tree's directory; "" when not known
}

// NewFetcher returns a Fetcher reading fsys. For a directory on disk, pass
// [Dir]: symbolic links cannot then lead outside it, and the fetcher names
// the directory as its source, so that cache entries read from it are
// shared by every Client reading the same directory and by no other (see
// [edgar13f.Fetcher]).
func NewFetcher(fsys fs.FS) *Fetcher {
	f := &Fetcher{m: mirror.NewFetcher(fsys)}
	if d, ok := fsys.(*mirror.Dir); ok {
		f.root = d.Root()
	}
	return f
}

// Source names the mirror: its directory when the file system came from
// [Dir], else "" (no identity: cache entries read through it serve only
// the Client it is given to).
func (f *Fetcher) Source() string {
	if f.root == "" {
		return ""
	}
	return "mirror:" + f.root
}

// Fetch returns the mirrored bytes of url. A file over the size limit of
// its kind (see [edgar13f.ErrTooLarge]) is refused without being read.
func (f *Fetcher) Fetch(ctx context.Context, url string) ([]byte, error) {
	b, err := f.m.FetchMax(ctx, url, access.MaxBytes(url))
	if err != nil {
		return nil, f.failure(ctx, url, err)
	}
	return b, nil
}

// Parts fills p with what f lends the Client it is given to: a way to
// stream a mirrored document without holding it whole, used by downloads.
// p's type is internal to the module, so no other program can name it.
func (f *Fetcher) Parts(p *clientparts.Mirror) {
	if p == nil {
		return
	}
	p.Stream = f.stream
}

// stream writes the mirrored file of url to w without holding it whole,
// failing like Fetch; the access layer downloads through it.
func (f *Fetcher) stream(ctx context.Context, url string, w io.Writer) error {
	if _, err := f.m.CopyTo(ctx, url, access.MaxBytes(url), w); err != nil {
		return f.failure(ctx, url, err)
	}
	return nil
}

// failure maps a failed read of url to the error a Fetcher returns.
func (f *Fetcher) failure(ctx context.Context, url string, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return ctxErr
	}
	if errors.Is(err, fs.ErrNotExist) && !errors.Is(err, edgar13f.ErrNotFound) {
		err = fmt.Errorf("%w: %w", edgar13f.ErrNotFound, err)
	}
	where := "the mirror tree"
	if f.root != "" {
		where += " " + f.root
	}
	if p, perr := mirror.PathFor(url); perr == nil && errors.Is(err, edgar13f.ErrNotFound) {
		err = fmt.Errorf("%w (no file %s in %s)", edgar13f.ErrNotFound, p, where)
	}
	return &edgar13f.FetchError{URL: url, Attempts: 1, Err: err}
}

// Dir returns a read-only file system of the mirror tree in dir that
// neither ".." nor symbolic links can lead out of. dir must exist and hold
// the directory of at least one EDGAR host (www.sec.gov, data.sec.gov): a
// directory that holds neither is not a mirror tree, and is refused rather
// than answering every question as if EDGAR knew no such filer.
func Dir(dir string) (fs.FS, error) {
	fsys, err := mirror.DirFS(dir)
	if err != nil {
		return nil, errors.New(docerr.Prefix + docerr.Detail(err))
	}
	for _, host := range hosts {
		if st, err := fs.Stat(fsys, host); err == nil && st.IsDir() {
			return fsys, nil
		}
	}
	return nil, fmt.Errorf("%s%s is not an EDGAR mirror tree: it has no %s directory (a mirror holds https://HOST/PATH as HOST/PATH)",
		docerr.Prefix, dir, strings.Join(hosts, " or "))
}

// hosts are the EDGAR hosts whose documents the library reads.
var hosts = []string{"www.sec.gov", "data.sec.gov"}

// Handler serves an EDGAR mirror tree over HTTP: GET /HOST/PATH returns
// the file HOST/PATH, and a missing file is a 404. Pointed at with
// [edgar13f.WithBaseURL], it lets tests and private mirrors use the
// Client's real HTTP path (User-Agent, spacing, retries and cache).
func Handler(fsys fs.FS) http.Handler { return mirror.Handler(fsys) }
