package edgar13f

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/edgar13f/edgar13f/internal/diskcache"
	"github.com/edgar13f/edgar13f/internal/edgarhttp"
	"github.com/edgar13f/edgar13f/internal/mirror"
	"github.com/edgar13f/edgar13f/internal/throttle"
)

// A Fetcher returns the bytes at an EDGAR URL such as
// https://data.sec.gov/submissions/CIK0001067983.json. When the document does
// not exist it returns an error wrapping [ErrNotFound] (or [fs.ErrNotExist]).
// A Fetcher must be safe for concurrent use.
//
// The Client's own HTTP fetcher adds the User-Agent, request spacing and
// retries; a Fetcher given with [WithFetcher] replaces all of that, which is
// what offline use of a mirror wants.
type Fetcher interface {
	Fetch(ctx context.Context, url string) ([]byte, error)
}

// ErrTooLarge is wrapped by the error for an EDGAR document larger than the
// size limit of its kind; such a document is not retried. The Client's HTTP
// fetcher and [MirrorFetcher] stop reading at the limit, so memory stays
// bounded whatever a server sends: 64 MiB for filing lists (.json; real ones
// are a few MB), 16 MiB for cover pages (primary_doc.xml; real ones are well
// under 1 MB), 512 MiB for complete submission text files and other .txt
// files (an information table of 250,000 rows is about 120 MB), and 256 MiB
// for any other document.
var ErrTooLarge = errors.New("edgar13f: document over the size limit of its kind")

// Size limits per kind of document; see [ErrTooLarge].
const (
	maxListBytes  = 64 << 20
	maxCoverBytes = 16 << 20
	maxTextBytes  = 512 << 20
	maxOtherBytes = 256 << 20
)

// maxBytesFor returns the size limit of the document at an EDGAR URL.
func maxBytesFor(url string) int64 {
	switch u := strings.ToLower(url); {
	case strings.HasSuffix(u, ".json"):
		return maxListBytes
	case strings.HasSuffix(u, "/primary_doc.xml"):
		return maxCoverBytes
	case strings.HasSuffix(u, ".txt"):
		return maxTextBytes
	}
	return maxOtherBytes
}

// ErrCacheMiss is returned by a [Cache] when a key has no entry.
var ErrCacheMiss = errors.New("edgar13f: cache miss")

// A Cache stores opaque blobs under string keys. Get returns [ErrCacheMiss]
// for an absent key. Implementations must not interpret keys or values; the
// Client keeps all policy (what is kept for how long, and which entries may
// answer which asOf). A Cache must be safe for concurrent use.
type Cache interface {
	Get(ctx context.Context, key string) ([]byte, error)
	Put(ctx context.Context, key string, data []byte) error
}

// A Clock tells the current time. The Client consults it only to decide
// whether a cached filing list is fresh enough for an asOf date; it never
// affects which filings are visible (that depends on asOf alone).
type Clock interface {
	Now() time.Time
}

// ClockFunc adapts a function to the [Clock] interface.
type ClockFunc func() time.Time

// Now returns f().
func (f ClockFunc) Now() time.Time { return f() }

// RetryPolicy says how the Client's HTTP fetcher retries a request that
// failed with 403, 429, 5xx, a network error, a truncated body or an HTML
// error page. Waits double from BaseDelay up to MaxDelay, with jitter;
// a Retry-After header is honoured up to MaxDelay. Every attempt also waits
// for its turn under the rate limit, so retries never exceed it.
type RetryPolicy struct {
	MaxAttempts int           // total attempts per document; default 6
	BaseDelay   time.Duration // first wait; default 1s
	MaxDelay    time.Duration // longest single wait; default 2m
}

// DefaultRetryPolicy is the policy of a Client built without
// [WithRetryPolicy]: 6 attempts waiting about 1, 2, 4, 8 and 16 seconds
// (plus any longer Retry-After up to 2 minutes). SEC throttling can last
// about ten minutes; a long-running job that must ride it out sets a larger
// MaxAttempts and MaxDelay.
var DefaultRetryPolicy = RetryPolicy{MaxAttempts: 6, BaseDelay: time.Second, MaxDelay: 2 * time.Minute}

// DefaultRequestInterval is the default spacing of request starts to EDGAR.
const DefaultRequestInterval = 250 * time.Millisecond

// MinRequestInterval bounds [WithRequestInterval] from below: SEC asks for
// fewer than 10 requests a second, so intervals must exceed 100ms.
const MinRequestInterval = 100 * time.Millisecond

type clientOptions struct {
	userAgent  string
	cacheDir   string
	cache      Cache
	cacheSet   bool
	fetcher    Fetcher
	httpClient *http.Client
	baseURL    string
	clock      Clock
	interval   time.Duration
	retry      RetryPolicy
	redaction  redactionRule
}

// A ClientOption configures a [Client]. Options apply in order; the last of
// a kind wins.
type ClientOption func(*clientOptions) error

// WithUserAgent sets the User-Agent sent with every EDGAR request. SEC's
// fair-access policy requires one naming you and an email address, such as
// "Jane Quant jane@example.com". Without it the Client sends nothing to
// EDGAR: requests fail with [ErrNoUserAgent].
func WithUserAgent(ua string) ClientOption {
	return func(o *clientOptions) error {
		o.userAgent = strings.TrimSpace(ua)
		return nil
	}
}

// WithCacheDir sets the directory of the on-disk cache, which also holds
// the lock file that spaces requests across processes sharing it. The
// default is $XDG_CACHE_HOME/edgar13f (on Linux usually ~/.cache/edgar13f),
// else a private per-user directory under the system temp directory.
func WithCacheDir(dir string) ClientOption {
	return func(o *clientOptions) error {
		if dir == "" {
			return errors.New("edgar13f: WithCacheDir: empty directory")
		}
		o.cacheDir = dir
		o.cache, o.cacheSet = nil, false
		return nil
	}
}

// WithCache replaces the on-disk cache with c. A nil c disables caching:
// every query fetches what it needs. With a Cache of your own, request
// spacing is coordinated within this process only.
func WithCache(c Cache) ClientOption {
	return func(o *clientOptions) error {
		o.cache, o.cacheSet = c, true
		o.cacheDir = ""
		return nil
	}
}

// WithFetcher makes the Client read EDGAR through f instead of over HTTP,
// for example a [MirrorFetcher] over recorded data. No User-Agent, spacing
// or retries apply to f.
func WithFetcher(f Fetcher) ClientOption {
	return func(o *clientOptions) error {
		if f == nil {
			return errors.New("edgar13f: WithFetcher: nil Fetcher")
		}
		o.fetcher = f
		return nil
	}
}

// WithHTTPClient sets the HTTP client under the Client's own fetcher (for
// proxies, timeouts or tests). The User-Agent, spacing and retry logic stay
// above it. The client is copied.
func WithHTTPClient(hc *http.Client) ClientOption {
	return func(o *clientOptions) error {
		if hc == nil {
			return errors.New("edgar13f: WithHTTPClient: nil client")
		}
		c := *hc
		o.httpClient = &c
		return nil
	}
}

// WithBaseURL makes the HTTP fetcher request every EDGAR URL
// https://HOST/PATH as base/HOST/PATH: an EDGAR mirror, proxy or test
// server in the layout of [MirrorHandler]. User-Agent, spacing, retries and
// the cache still apply.
func WithBaseURL(base string) ClientOption {
	return func(o *clientOptions) error {
		if _, err := mirror.URLFor(base, "https://www.sec.gov/"+"x"); err != nil {
			return fmt.Errorf("edgar13f: WithBaseURL: %v", err)
		}
		o.baseURL = base
		return nil
	}
}

// WithClock sets the clock used for cache freshness. The default is the
// system clock.
func WithClock(c Clock) ClientOption {
	return func(o *clientOptions) error {
		if c == nil {
			return errors.New("edgar13f: WithClock: nil Clock")
		}
		o.clock = c
		return nil
	}
}

// WithRequestInterval sets the least time between the starts of two EDGAR
// requests, across all goroutines and all processes sharing the cache
// directory. It must exceed [MinRequestInterval]; the default is
// [DefaultRequestInterval].
func WithRequestInterval(d time.Duration) ClientOption {
	return func(o *clientOptions) error {
		if d <= MinRequestInterval {
			return fmt.Errorf("edgar13f: WithRequestInterval(%v): must exceed %v (SEC allows fewer than 10 requests a second)", d, MinRequestInterval)
		}
		o.interval = d
		return nil
	}
}

// WithRetryPolicy sets how failed EDGAR requests are retried. Zero fields
// take the values of [DefaultRetryPolicy].
func WithRetryPolicy(p RetryPolicy) ClientOption {
	return func(o *clientOptions) error {
		if p.MaxAttempts < 0 || p.BaseDelay < 0 || p.MaxDelay < 0 {
			return fmt.Errorf("edgar13f: WithRetryPolicy: negative field in %+v", p)
		}
		if p.MaxAttempts == 0 {
			p.MaxAttempts = DefaultRetryPolicy.MaxAttempts
		}
		if p.BaseDelay == 0 {
			p.BaseDelay = DefaultRetryPolicy.BaseDelay
		}
		if p.MaxDelay == 0 {
			p.MaxDelay = DefaultRetryPolicy.MaxDelay
		}
		o.retry = p
		return nil
	}
}

// WithRedaction turns the default redaction rule (SPEC §6; see the package
// documentation) on or off. It is on unless turned off. Rows read with
// redaction off are cached apart and never served once it is back on.
func WithRedaction(on bool) ClientOption {
	return func(o *clientOptions) error {
		if on {
			o.redaction = defaultRedaction
		} else {
			o.redaction = noRedaction
		}
		return nil
	}
}

// WithRedactionRule replaces the redaction rule: remove reports whether a
// row (the Accession and FilingDate fields are not yet set) must be removed.
// name identifies the rule in cache keys: give each different rule its own
// name, and a new name whenever the rule changes.
func WithRedactionRule(name string, remove func(Holding) bool) ClientOption {
	return func(o *clientOptions) error {
		if remove == nil || strings.TrimSpace(name) == "" || name == noRedaction.name || name == defaultRedaction.name {
			return fmt.Errorf("edgar13f: WithRedactionRule: need a non-nil rule and a name of its own (got %q)", name)
		}
		o.redaction = redactionRule{
			name: "custom-" + name,
			remove: func(issuer, title, cusip string) bool {
				return remove(Holding{NameOfIssuer: issuer, TitleOfClass: title, CUSIP: cusip})
			},
		}
		return nil
	}
}

// A Client answers point-in-time questions about 13F filings. Build one with
// [NewClient]. A Client is safe for concurrent use by multiple goroutines;
// share one per process.
type Client struct {
	fetcher   Fetcher
	cache     Cache // never nil; a no-op cache when caching is off
	clock     Clock
	redaction redactionRule
	flight    singleflight.Group
	managers  atomic.Pointer[nameIndex] // FindManager's index once loaded
}

// NewClient returns a Client configured by opts. By default it reads EDGAR
// over HTTP with request starts [DefaultRequestInterval] apart, retries by
// [DefaultRetryPolicy], caches on disk in the default cache directory and
// redacts (see the package documentation). Set a User-Agent with
// [WithUserAgent] before querying live EDGAR.
func NewClient(opts ...ClientOption) (*Client, error) {
	o := clientOptions{
		interval:  DefaultRequestInterval,
		retry:     DefaultRetryPolicy,
		redaction: defaultRedaction,
		clock:     ClockFunc(time.Now),
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

	lockPath := ""
	switch {
	case o.cacheSet && o.cache == nil:
		c.cache = nopCache{}
	case o.cacheSet:
		c.cache = o.cache
	default:
		dir := o.cacheDir
		if dir == "" {
			dir = diskcache.DefaultPath()
		}
		d, err := diskcache.Open(dir)
		if err != nil {
			return nil, fmt.Errorf("edgar13f: cache: %v", err)
		}
		c.cache = diskCache{d}
		lockPath = filepath.Join(d.Path(), "request.lock")
	}

	if o.fetcher != nil {
		c.fetcher = o.fetcher
		return c, nil
	}
	hf := &httpFetcher{baseURL: o.baseURL}
	if o.userAgent != "" {
		sp, err := throttle.New(o.interval, lockPath)
		if err != nil {
			return nil, fmt.Errorf("edgar13f: rate limiter: %v", err)
		}
		hf.client, err = edgarhttp.New(edgarhttp.Config{
			UserAgent:   o.userAgent,
			HTTPClient:  o.httpClient,
			Spacer:      sp,
			MaxAttempts: o.retry.MaxAttempts,
			BaseDelay:   o.retry.BaseDelay,
			MaxDelay:    o.retry.MaxDelay,
		})
		if err != nil {
			return nil, fmt.Errorf("edgar13f: %v", err)
		}
	}
	c.fetcher = hf
	return c, nil
}

// httpFetcher is the Client's own Fetcher: EDGAR over HTTP with the
// User-Agent, spacing and retries of internal/edgarhttp. A nil client means
// no User-Agent was configured: nothing is sent.
type httpFetcher struct {
	client  *edgarhttp.Client
	baseURL string
}

func (f *httpFetcher) Fetch(ctx context.Context, url string) ([]byte, error) {
	return f.do(ctx, url, func(c *edgarhttp.Client, target string) ([]byte, error) {
		return c.Get(ctx, target)
	})
}

// do runs one request for url through get, with the document's size limit,
// and maps the outcome to the errors the package documents.
func (f *httpFetcher) do(ctx context.Context, url string, get func(c *edgarhttp.Client, target string) ([]byte, error)) ([]byte, error) {
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
	b, err := get(f.client.WithMaxBytes(maxBytesFor(url)), target)
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

// isNotFound reports whether err says a document does not exist.
func isNotFound(err error) bool {
	return errors.Is(err, ErrNotFound) || errors.Is(err, fs.ErrNotExist)
}

// diskCache adapts internal/diskcache to Cache.
type diskCache struct{ d *diskcache.Dir }

func (c diskCache) Get(ctx context.Context, key string) ([]byte, error) {
	b, err := c.d.Get(ctx, key)
	if errors.Is(err, diskcache.ErrMiss) {
		return nil, ErrCacheMiss
	}
	return b, err
}

func (c diskCache) Put(ctx context.Context, key string, data []byte) error {
	return c.d.Put(ctx, key, data)
}

// nopCache keeps nothing.
type nopCache struct{}

func (nopCache) Get(context.Context, string) ([]byte, error) { return nil, ErrCacheMiss }
func (nopCache) Put(context.Context, string, []byte) error   { return nil }
