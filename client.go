package edgar13f

import (
	"context"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/edgar13f/edgar13f/internal/access"
	"github.com/edgar13f/edgar13f/internal/clientparts"
	"github.com/edgar13f/edgar13f/internal/diskcache"
	"github.com/edgar13f/edgar13f/internal/nameindex"
)

// A Fetcher returns the bytes at an EDGAR URL such as
// https://data.sec.gov/submissions/CIK0001067983.json. When the document does
// not exist it returns an error wrapping [ErrNotFound] (or [fs.ErrNotExist]).
// A Fetcher must be safe for concurrent use.
//
// The Client's own HTTP fetcher adds the User-Agent, request spacing and
// retries; a Fetcher given with [WithFetcher] replaces all of that, which is
// what offline use of a mirror wants.
//
// Cache entries belong to the source they were read from. Implement the
// optional method
//
//	Source() string
//
// to use the Client's cache (on disk, or the one given with [WithCache]):
// it returns a name that is the same wherever the same documents are read
// (a mirror.Fetcher over mirror.Dir returns its directory: see package
// [github.com/edgar13f/edgar13f/mirror]), and entries read through it are shared by every Client whose Fetcher returns the
// same name, and by no other. A Client over a Fetcher without one (or with
// an empty one) caches in memory only, for itself alone (at most 128 MiB,
// oldest entries dropped first): its entries could serve no other Client,
// so they are never written anywhere. A Fetcher that wraps another should
// pass the inner Source on.
type Fetcher interface {
	Fetch(ctx context.Context, url string) ([]byte, error)
}

// A Cache stores opaque blobs under string keys. Get returns [ErrCacheMiss]
// for an absent key. Implementations must not interpret keys or values; the
// Client keeps all policy (what is kept for how long, which entries may
// answer which asOf, and which source an entry belongs to). A Cache must be
// safe for concurrent use.
type Cache interface {
	Get(ctx context.Context, key string) ([]byte, error)
	Put(ctx context.Context, key string, data []byte) error
}

// A Clock tells the current time. The Client consults it only to decide
// whether a cached filing list or name index is fresh enough; it never
// affects which filings are visible (that depends on asOf alone).
type Clock interface {
	Now() time.Time
}

// systemClock is the default [Clock]: the system's time.
type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

// A Client answers point-in-time questions about 13F filings. Build one with
// [NewClient]. A Client is safe for concurrent use by multiple goroutines;
// share one per process.
//
// Every question a Client answers reads EDGAR through its one access layer:
// one fetcher, one request spacing, one cache. See "How the parts fit" in
// the package documentation.
type Client struct {
	edgar     *access.Layer
	clock     Clock
	redaction redactionRule
	managers  atomic.Pointer[nameindex.Index] // FindManager's index once loaded
}

// Parts fills p with what c lends the module's own packages (companies,
// datasets): its access layer, clock and redaction rule, so that they read
// EDGAR through c's one fetcher, spacing and cache. It is for the module's
// own packages: p's type is internal, so no other program can name it.
func (c *Client) Parts(p *clientparts.Parts) {
	if p == nil {
		return
	}
	*p = clientparts.Parts{Access: c.edgar, Now: c.clock.Now, Rule: c.redaction.name, Redact: c.redaction.remove}
}

// NewClient returns a Client configured by opts. By default it reads EDGAR
// over HTTP with request starts 250ms apart, retries by
// the default [RetryPolicy], caches on disk in the default cache directory and
// redacts (see the package documentation).
//
// A Client that reads EDGAR over HTTP needs a User-Agent naming you and an
// email address ([WithUserAgent]): without one, or with one that holds no
// email address, NewClient fails with an error matching [ErrNoUserAgent]
// and nothing is ever sent. A Client built [WithFetcher] needs none.
func NewClient(opts ...ClientOption) (*Client, error) {
	o := clientOptions{
		interval:  defaultRequestInterval,
		redaction: defaultRedaction,
		clock:     systemClock{},
	}
	for _, opt := range opts {
		if opt == nil {
			continue
		}
		if err := opt(&o); err != nil {
			return nil, err
		}
	}
	c := &Client{clock: o.clock, redaction: o.redaction}

	cfg := access.Config{
		UserAgent:  o.userAgent,
		HTTPClient: o.httpClient,
		BaseURL:    o.baseURL,
		Interval:   o.interval,
		Retry:      access.Retry(o.retry),
		Failed:     newFetchError,
	}
	if o.fetcher != nil {
		cfg.Fetcher = o.fetcher
		if m, ok := o.fetcher.(interface{ Parts(*clientparts.Mirror) }); ok {
			var p clientparts.Mirror
			m.Parts(&p) // a mirror.Fetcher: downloads stream from its files
			cfg.Stream = p.Stream
		}
	} else if err := access.CheckUserAgent(o.userAgent); err != nil {
		return nil, err // before the cache directory is touched
	}
	switch {
	case o.cacheSet && o.cache != nil:
		cfg.Cache = o.cache
	case o.cacheSet: // caching off
	case o.fetcher != nil && !access.Named(o.fetcher):
		cfg.Cache = access.NewMemoryCache() // nothing on disk could serve another Client
	default:
		dir := o.cacheDir
		if dir == "" {
			dir = diskcache.DefaultPath()
		}
		d, err := diskcache.Open(dir)
		if err != nil {
			return nil, fmt.Errorf("edgar13f: cache: %v", err)
		}
		cfg.Cache, cfg.Dir = diskCache{d}, d.Path()
		cfg.LockPath = filepath.Join(d.Path(), "request.lock")
	}
	cfg.WrapSpacer = o.wrapSpacer
	var err error
	if c.edgar, err = access.New(cfg); err != nil {
		return nil, err
	}
	return c, nil
}
