// Package access is the one way edgar13f reaches EDGAR. A [Layer] holds
// everything between a question and the bytes of a document:
//
//   - the fetcher: EDGAR over HTTP (the caller's User-Agent, request starts
//     spaced across goroutines and processes, retries with backoff, size
//     caps per kind of document), or a caller's own fetcher instead;
//   - the cache, with provenance: every entry is kept under the source it
//     was read from (live EDGAR, an HTTP mirror at a base URL, a mirror
//     tree, a caller's fetcher), so an entry read from one source is never
//     served to a Layer reading another;
//   - the sharing of identical concurrent fetches (one request, many
//     waiters).
//
// A Client holds exactly one Layer and every capability reads through it,
// so a process asking 13F, bulk and company questions together still has
// one limiter and one cache. The Layer keeps no policy about what an entry
// means or how long it stays fresh: the callers own their keys and their
// freshness rules.
//
// Two ways to read: Fetch (and FetchSized, FetchPrefix) return a document's
// bytes, for the cache to keep under a caller's key; Download streams one
// into a file under [Layer.Dir] without holding it in memory, for SEC's
// Form 13F Data Sets zips (about 100 MB each), with the same User-Agent,
// spacing, retries and provenance, written atomically (temporary file,
// sync, rename). Company data (data.sec.gov/api/xbrl/companyfacts,
// company_tickers.json, submissions of any form, 10-K and 10-Q documents)
// needs nothing more: Fetch, the cache and a freshness rule of the
// caller's, like the filing list's.
package access

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/edgar13f/edgar13f/internal/docerr"
	"github.com/edgar13f/edgar13f/internal/edgarhttp"
	"github.com/edgar13f/edgar13f/internal/mirror"
	"github.com/edgar13f/edgar13f/internal/throttle"
)

// A Fetcher returns the bytes at an EDGAR URL.
type Fetcher interface {
	Fetch(ctx context.Context, url string) ([]byte, error)
}

// A Cache stores opaque blobs under string keys; any error from Get is a miss.
type Cache interface {
	Get(ctx context.Context, key string) ([]byte, error)
	Put(ctx context.Context, key string, data []byte) error
}

// Retry is the retry schedule of the HTTP fetcher; zero fields take the
// defaults of internal/edgarhttp.
type Retry struct {
	MaxAttempts int
	BaseDelay   time.Duration
	MaxDelay    time.Duration
}

// Config configures a Layer.
type Config struct {
	// Fetcher, when set, replaces the HTTP fetcher: no User-Agent, spacing
	// or retries apply. Its cache entries belong to the source it names
	// with a Source() string method (see [Named]). A Layer over a Fetcher
	// that names none keeps its entries in memory, for itself alone: on
	// disk or in a shared Cache they could answer no other Layer.
	Fetcher Fetcher

	// Stream, when set with Fetcher, writes the document at url to w
	// without holding it whole; Download uses it. Without it, Download
	// writes the bytes Fetcher returns.
	Stream func(ctx context.Context, url string, w io.Writer) error

	UserAgent  string        // required without Fetcher: "Name email@domain"
	HTTPClient *http.Client  // under the HTTP fetcher; nil means a default one
	BaseURL    string        // fetch https://HOST/PATH as BaseURL/HOST/PATH
	Interval   time.Duration // least time between request starts
	Retry      Retry
	LockPath   string // file spacing request starts across processes; "" means this process only

	// WrapSpacer, when set, wraps the spacer of the HTTP fetcher: the
	// wire tests note the starts it grants through it.
	WrapSpacer WrapSpacer

	Cache Cache  // nil means none
	Dir   string // the cache directory, "" when the cache is not on disk

	// Failed builds the error for a request that failed (after retries):
	// the URL asked for, the last HTTP status (0 without a response), the
	// attempts made and the cause.
	Failed func(url string, status, attempts int, cause error) error
}

// A WrapSpacer wraps the spacer of a Layer's HTTP fetcher.
type WrapSpacer func(*throttle.Spacer) edgarhttp.Waiter

// A Layer reads EDGAR for one Client. It is safe for concurrent use.
type Layer struct {
	fetch  fetcher
	source string
	cache  Cache
	dir    string
	flight flight
}

// fetcher is what a Layer reads through: whole documents, documents of a
// known size, and document prefixes.
type fetcher interface {
	fetch(ctx context.Context, url string) ([]byte, error)
	fetchSized(ctx context.Context, url string, size int64) ([]byte, error)
	fetchPrefix(ctx context.Context, url string, enough func([]byte) bool) ([]byte, error)
	download(ctx context.Context, url string, dst edgarhttp.Sink) error
}

// New returns a Layer configured by cfg. Without a Fetcher it needs a
// plausible User-Agent (see [CheckUserAgent]) and fails at once without one.
func New(cfg Config) (*Layer, error) {
	l := &Layer{cache: cfg.Cache, dir: cfg.Dir}
	if cfg.Failed == nil {
		cfg.Failed = func(url string, status, attempts int, cause error) error {
			return docerr.Wrap("fetch "+url, cause)
		}
	}
	if cfg.Fetcher != nil {
		l.fetch = callerFetcher{cfg.Fetcher, cfg.Stream}
		if !Named(cfg.Fetcher) {
			l.source = "fetcher:unnamed"
			if _, ok := l.cache.(*memoryCache); !ok && l.cache != nil {
				l.cache = NewMemoryCache()
			}
			l.dir = ""
			return l, nil
		}
		l.source = "fetcher:named:" + cfg.Fetcher.(sourcer).Source()
		return l, nil
	}
	if err := CheckUserAgent(cfg.UserAgent); err != nil {
		return nil, err
	}
	sp, err := throttle.New(cfg.Interval, cfg.LockPath)
	if err != nil {
		return nil, fmt.Errorf("%srate limiter: %v", docerr.Prefix, err)
	}
	var spacer edgarhttp.Waiter = sp
	if cfg.WrapSpacer != nil {
		spacer = cfg.WrapSpacer(sp)
	}
	hc, err := edgarhttp.New(edgarhttp.Config{
		UserAgent:   strings.TrimSpace(cfg.UserAgent),
		HTTPClient:  cfg.HTTPClient,
		Spacer:      spacer,
		MaxAttempts: cfg.Retry.MaxAttempts,
		BaseDelay:   cfg.Retry.BaseDelay,
		MaxDelay:    cfg.Retry.MaxDelay,
	})
	if err != nil {
		return nil, fmt.Errorf("%s%v", docerr.Prefix, err)
	}
	l.fetch = &httpFetcher{client: hc, baseURL: cfg.BaseURL, failed: cfg.Failed}
	l.source = "edgar"
	if cfg.BaseURL != "" {
		l.source = "base:" + strings.TrimRight(cfg.BaseURL, "/")
	}
	return l, nil
}

// A sourcer is a Fetcher that names the source it reads.
type sourcer interface{ Source() string }

// Named reports whether f names the source it reads with a non-empty
// Source() string, so that its cache entries can be shared with every
// Layer reading the same source. A Layer over a Fetcher that names none
// caches in memory only and cannot Download.
func Named(f Fetcher) bool {
	s, ok := f.(sourcer)
	return ok && s.Source() != ""
}

// ErrNoUserAgent is returned when the HTTP fetcher has no User-Agent.
var ErrNoUserAgent = errors.New(docerr.Prefix + `no User-Agent: SEC's fair-access policy asks every client to name itself and an email address ("Name email@domain"); set one with WithUserAgent`)

// emailLike is a plausible email address: something@host.tld.
var emailLike = regexp.MustCompile(`[^\s@<>()]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}`)

// CheckUserAgent returns an error matching [ErrNoUserAgent] unless ua holds
// an email-like token and no control characters, as SEC asks ("Name
// email@domain").
func CheckUserAgent(ua string) error {
	ua = strings.TrimSpace(ua)
	switch {
	case ua == "":
		return ErrNoUserAgent
	case strings.ContainsFunc(ua, func(r rune) bool { return r < ' ' || r == 0x7f }):
		return &uaError{ua: ua, why: "contains control characters"}
	case !emailLike.MatchString(ua):
		return &uaError{ua: ua, why: "has no email address"}
	}
	return nil
}

// uaError reports an implausible User-Agent; it matches ErrNoUserAgent.
type uaError struct{ ua, why string }

func (e *uaError) Error() string {
	return fmt.Sprintf(`%sUser-Agent %q %s: SEC's fair-access policy asks for one like "Name email@domain"; set it with WithUserAgent`, docerr.Prefix, e.ua, e.why)
}

func (e *uaError) Is(target error) bool { return target == ErrNoUserAgent }

// Source names where the Layer reads EDGAR from; it prefixes every cache key.
func (l *Layer) Source() string { return l.source }

// Dir returns the cache directory, "" when the cache is not on disk.
func (l *Layer) Dir() string { return l.dir }

// Fetch returns the document at url.
func (l *Layer) Fetch(ctx context.Context, url string) ([]byte, error) {
	return l.fetch.fetch(ctx, url)
}

// FetchSized returns the document at url, expected to hold size bytes
// (EDGAR's filing list gives each filing's size), so that a large body is
// read into one buffer. size <= 0 means unknown.
func (l *Layer) FetchSized(ctx context.Context, url string, size int64) ([]byte, error) {
	if size <= 0 {
		return l.fetch.fetch(ctx, url)
	}
	return l.fetch.fetchSized(ctx, url, size)
}

// FetchPrefix returns the start of the document at url, at least up to the
// first prefix that enough accepts (the whole document when it accepts
// none). The HTTP fetcher stops reading there; a caller's fetcher reads the
// whole document.
func (l *Layer) FetchPrefix(ctx context.Context, url string, enough func([]byte) bool) ([]byte, error) {
	return l.fetch.fetchPrefix(ctx, url, enough)
}

// key places a caller's key under the Layer's source.
func (l *Layer) key(k string) string { return l.source + "|" + k }

// Cached returns the entry under key read from this Layer's source.
func (l *Layer) Cached(ctx context.Context, key string) ([]byte, bool) {
	if l.cache == nil {
		return nil, false
	}
	b, err := l.cache.Get(ctx, l.key(key))
	return b, err == nil
}

// Keep stores data under key for this Layer's source. A failed write is not
// a failed query (the answer is right; the next one fetches again), so its
// error is dropped, and the write is not cut short by ctx ending.
func (l *Layer) Keep(ctx context.Context, key string, data []byte) {
	if l.cache != nil {
		_ = l.cache.Put(context.WithoutCancel(ctx), l.key(key), data)
	}
}

// Shared runs fn once for all concurrent callers asking for the same key
// (identical fetches are made once). The caller that runs fn does so under
// its own context; if that context ends, the others are not failed by it:
// each whose own context is still live runs fn again (at most a few times).
func (l *Layer) Shared(ctx context.Context, key string, fn func() (any, error)) (any, error) {
	for range 3 {
		v, err := l.flight.do(key, func() (any, error) {
			v, err := fn()
			if err != nil && ctx.Err() != nil {
				return nil, &leaderEnded{ctx.Err()}
			}
			return v, err
		})
		var le *leaderEnded
		if !errors.As(err, &le) {
			return v, err
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, ctxErr
		}
	}
	return nil, fmt.Errorf("%s%s: the callers sharing this fetch kept ending", docerr.Prefix, key)
}

// leaderEnded reports that the caller running a shared fetch gave up.
type leaderEnded struct{ err error }

func (e *leaderEnded) Error() string { return e.err.Error() }
func (e *leaderEnded) Unwrap() error { return e.err }

// IsNotFound reports whether err says a document does not exist.
func IsNotFound(err error) bool {
	return errors.Is(err, docerr.ErrNotFound) || errors.Is(err, fs.ErrNotExist)
}

// Size limits per kind of document; see [MaxBytes].
const (
	maxListBytes  = 64 << 20
	maxCoverBytes = 16 << 20
	maxTextBytes  = 512 << 20
	maxOtherBytes = 256 << 20
	maxZipBytes   = 2 << 30
)

// MaxBytes returns the size limit of the document at an EDGAR URL: 64 MiB
// for filing lists (.json; real ones are a few MB), 16 MiB for cover pages
// (primary_doc.xml; real ones are well under 1 MB), 512 MiB for complete
// submission text files and other .txt files (an information table of
// 250,000 rows is about 120 MB), 2 GiB for .zip files (a window of the
// Form 13F Data Sets is about 100 MB; only [Layer.Download] reads them, to a
// file), and 256 MiB for any other document.
func MaxBytes(url string) int64 {
	switch u := strings.ToLower(url); {
	case strings.HasSuffix(u, ".zip"):
		return maxZipBytes
	case strings.HasSuffix(u, ".json"):
		return maxListBytes
	case strings.HasSuffix(u, "/primary_doc.xml"):
		return maxCoverBytes
	case strings.HasSuffix(u, ".txt"):
		return maxTextBytes
	}
	return maxOtherBytes
}

// callerFetcher reads through a caller's Fetcher, which cannot stop early
// or use a size hint: it reads whole documents, and streams them only with
// a stream function.
type callerFetcher struct {
	f      Fetcher
	stream func(ctx context.Context, url string, w io.Writer) error
}

func (c callerFetcher) fetch(ctx context.Context, url string) ([]byte, error) {
	return c.f.Fetch(ctx, url)
}

func (c callerFetcher) fetchSized(ctx context.Context, url string, _ int64) ([]byte, error) {
	return c.f.Fetch(ctx, url)
}

func (c callerFetcher) fetchPrefix(ctx context.Context, url string, _ func([]byte) bool) ([]byte, error) {
	return c.f.Fetch(ctx, url)
}

func (c callerFetcher) download(ctx context.Context, url string, dst edgarhttp.Sink) error {
	if err := dst.Reset(); err != nil {
		return err
	}
	if c.stream != nil {
		return c.stream(ctx, url, dst)
	}
	b, err := c.f.Fetch(ctx, url)
	if err != nil {
		return err
	}
	if limit := MaxBytes(url); int64(len(b)) > limit {
		return fmt.Errorf("%sfetch %s: %w: %d bytes, limit %d", docerr.Prefix, url, docerr.ErrTooLarge, len(b), limit)
	}
	_, err = dst.Write(b)
	return err
}

// httpFetcher reads EDGAR over HTTP through internal/edgarhttp.
type httpFetcher struct {
	client  *edgarhttp.Client
	baseURL string
	failed  func(url string, status, attempts int, cause error) error
}

func (f *httpFetcher) fetch(ctx context.Context, url string) (b []byte, err error) {
	err = f.do(ctx, url, func(c *edgarhttp.Client, target string) (err error) {
		b, err = c.Get(ctx, target)
		return err
	})
	return b, err
}

func (f *httpFetcher) fetchSized(ctx context.Context, url string, size int64) (b []byte, err error) {
	err = f.do(ctx, url, func(c *edgarhttp.Client, target string) (err error) {
		b, err = c.WithSizeHint(size).Get(ctx, target)
		return err
	})
	return b, err
}

func (f *httpFetcher) fetchPrefix(ctx context.Context, url string, enough func([]byte) bool) (b []byte, err error) {
	err = f.do(ctx, url, func(c *edgarhttp.Client, target string) (err error) {
		b, err = c.GetPrefix(ctx, target, enough)
		return err
	})
	return b, err
}

func (f *httpFetcher) download(ctx context.Context, url string, dst edgarhttp.Sink) error {
	return f.do(ctx, url, func(c *edgarhttp.Client, target string) error {
		_, err := c.GetTo(ctx, target, dst)
		return err
	})
}

// do runs one request for url through get, with the document's size limit,
// and maps a failure to the error built by failed.
func (f *httpFetcher) do(ctx context.Context, url string, get func(c *edgarhttp.Client, target string) error) error {
	target := url
	if f.baseURL != "" {
		var err error
		if target, err = mirror.URLFor(f.baseURL, url); err != nil {
			return f.failed(url, 0, 0, err)
		}
	}
	err := get(f.client.WithMaxBytes(MaxBytes(url)), target)
	if err == nil {
		return nil
	}
	if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
		return ctxErr
	}
	var he *edgarhttp.Error
	if errors.As(err, &he) {
		return f.failed(url, he.StatusCode, he.Attempts, he.Err)
	}
	return f.failed(url, 0, 1, err)
}
