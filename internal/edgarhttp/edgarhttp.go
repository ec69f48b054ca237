// Package edgarhttp fetches EDGAR documents over HTTP politely: every request
// names its sender, the starts of all requests on the wire are spaced by a
// Waiter (retries, redirect hops and the transport's own re-sends each take
// a start of their own), and transient failures (rate limiting, server
// errors, cut or substituted bodies) are retried with exponential backoff
// that honours Retry-After. Get reads a body whole, GetPrefix its start,
// and GetTo streams it into a Sink (a file) without holding it in memory.
package edgarhttp

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/edgar13f/edgar13f/internal/docerr"
	"github.com/edgar13f/edgar13f/internal/retryafter"
	"github.com/edgar13f/edgar13f/internal/sleep"
)

// The retry schedule of a Config whose retry fields are zero.
const (
	DefaultMaxAttempts = 6
	DefaultBaseDelay   = time.Second
	DefaultMaxDelay    = 2 * time.Minute
)

// Defaults for zero Config fields.
const (
	defaultTimeout     = 60 * time.Second
	defaultMaxAttempts = DefaultMaxAttempts
	defaultBaseDelay   = DefaultBaseDelay
	defaultMaxDelay    = DefaultMaxDelay
	defaultMaxBytes    = 256 << 20
)

// maxGzipRatio bounds the uncompressed size read from a gzip trailer, as a
// multiple of the compressed size, before it is used to size a buffer.
const maxGzipRatio = 64

// drainLimit bounds how much of an error response is read so that the
// connection can be reused.
const drainLimit = 64 << 10

// ErrNoUserAgent is returned by New when Config.UserAgent is blank.
var ErrNoUserAgent = errors.New("edgarhttp: no user agent")

// ErrNotFound is wrapped by the *Error for a 404 response.
var ErrNotFound = docerr.ErrNotFound

// ErrTooLarge is wrapped by the *Error for a body over the size limit; such
// a failure is not retried.
var ErrTooLarge = docerr.ErrTooLarge

// Causes recorded in Error.Err.
var (
	errHTMLPage = errors.New("edgarhttp: html page in place of data")
	errTooLarge = ErrTooLarge
)

// A Waiter blocks until a request may start.
type Waiter interface {
	Wait(ctx context.Context) error
}

// Config configures a Client.
type Config struct {
	UserAgent   string        // required: "Name email@domain"
	HTTPClient  *http.Client  // nil means a client with a 60 s timeout; copied
	Spacer      Waiter        // spaces the starts of every request on the wire; nil means none
	MaxAttempts int           // total attempts per Get; 0 means 6
	BaseDelay   time.Duration // first backoff; 0 means 1 s; doubles each retry with ±20% jitter
	MaxDelay    time.Duration // cap on one backoff (and on an honoured Retry-After); 0 means 2 min
	MaxBytes    int64         // cap on a response body; 0 means 256 MiB; larger = non-retryable error
}

// A Client fetches EDGAR URLs. It is safe for concurrent use.
type Client struct {
	userAgent   string
	hc          *http.Client
	spacer      Waiter
	maxAttempts int
	baseDelay   time.Duration
	maxDelay    time.Duration
	maxBytes    int64
	sizeHint    int64 // expected decoded body size, 0 when unknown

	// Seams for tests.
	sleep  func(ctx context.Context, d time.Duration) error
	now    func() time.Time
	jitter func() float64 // uniform in [0, 1)
}

// New returns a Client; it fails with ErrNoUserAgent when cfg.UserAgent is
// blank, and with an error when cfg holds a negative or invalid value.
//
// With a Spacer, every request written on a connection waits for a start of
// its own: each attempt, each hop of a redirect, and each request that
// net/http's Transport sends again by itself after a reused connection
// failed (it reports each connection through net/http/httptrace). A
// Transport that reports no connections gets one start per round trip. A
// Spacer with the methods Take and Retake of throttle.Spacer has the start
// of an attempt taken before the HTTP client's timeout runs and moved to
// the moment the request goes out.
func New(cfg Config) (*Client, error) {
	ua := strings.TrimSpace(cfg.UserAgent)
	if ua == "" {
		return nil, ErrNoUserAgent
	}
	if strings.ContainsFunc(ua, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return nil, errors.New("edgarhttp: user agent contains control characters")
	}
	if cfg.MaxAttempts < 0 || cfg.BaseDelay < 0 || cfg.MaxDelay < 0 || cfg.MaxBytes < 0 {
		return nil, errors.New("edgarhttp: negative config value")
	}
	c := &Client{
		userAgent:   ua,
		hc:          cfg.HTTPClient,
		spacer:      cfg.Spacer,
		maxAttempts: orDefault(cfg.MaxAttempts, defaultMaxAttempts),
		baseDelay:   orDefault(cfg.BaseDelay, defaultBaseDelay),
		maxDelay:    orDefault(cfg.MaxDelay, defaultMaxDelay),
		maxBytes:    orDefault(cfg.MaxBytes, defaultMaxBytes),
		sleep:       sleep.For,
		now:         time.Now,
		jitter:      rand.Float64,
	}
	if c.hc == nil {
		c.hc = &http.Client{Timeout: defaultTimeout}
	} else {
		hc := *c.hc
		c.hc = &hc
	}
	if c.spacer != nil {
		base := c.hc.Transport
		if base == nil {
			base = http.DefaultTransport
		}
		c.hc.Transport = spacedTransport{base: base, spacer: c.spacer}
	}
	return c, nil
}

// WithSizeHint returns a copy of c that expects bodies of about n bytes
// once decoded (EDGAR's filing list gives the size of each filing), so that
// a large body is read into one buffer of that size, decompressed as it
// streams in. The hint never raises the size limit; n <= 0 returns c.
func (c *Client) WithSizeHint(n int64) *Client {
	if n <= 0 {
		return c
	}
	c2 := *c
	c2.sizeHint = n
	return &c2
}

// WithMaxBytes returns a Client that shares c's settings, spacing and HTTP
// client but limits response bodies to n bytes (n <= 0 keeps c's limit).
func (c *Client) WithMaxBytes(n int64) *Client {
	if n <= 0 {
		return c
	}
	c2 := *c
	c2.maxBytes = n
	return &c2
}

func orDefault[T int | int64 | time.Duration](v, def T) T {
	if v == 0 {
		return def
	}
	return v
}

// An Error reports a failed Get.
type Error struct {
	URL        string
	StatusCode int // last HTTP status, 0 when no response was received
	Attempts   int // requests sent
	Err        error
}

// Error describes the failure.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("edgarhttp: get ")
	b.WriteString(e.URL)
	if e.StatusCode != 0 {
		fmt.Fprintf(&b, ": status %d", e.StatusCode)
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, ": giving up after %d attempts", e.Attempts)
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// outcome is the result of one attempt that did not succeed.
type outcome struct {
	status     int
	err        error
	retry      bool
	retryAfter time.Duration
}

// Get returns the body at url. It returns ctx.Err() when ctx ends first, and
// otherwise an *Error when the request fails at once or after the last attempt.
func (c *Client) Get(ctx context.Context, url string) ([]byte, error) {
	return c.get(ctx, url, reader{})
}

// A reader says how an attempt reads a successful body: whole (the zero
// reader), up to the prefix that enough accepts, or streamed into dst.
type reader struct {
	enough func([]byte) bool
	dst    Sink
}

// get runs the attempts of Get, GetPrefix or GetTo.
func (c *Client) get(ctx context.Context, url string, rd reader) ([]byte, error) {
	var last outcome
	for attempt := 1; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		actx := ctx
		if c.spacer != nil {
			g := &gate{spacer: c.spacer}
			if err := g.hold(ctx); err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				return nil, &Error{URL: url, StatusCode: last.status, Attempts: attempt - 1, Err: err}
			}
			actx = context.WithValue(ctx, gateKey{}, g)
		}
		body, o := c.attempt(actx, url, rd)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if o.err == nil {
			return body, nil
		}
		last = o
		if !o.retry || attempt >= c.maxAttempts {
			return nil, &Error{URL: url, StatusCode: o.status, Attempts: attempt, Err: o.err}
		}
		d := min(max(c.backoff(attempt), o.retryAfter), c.maxDelay)
		if err := c.sleep(ctx, d); err != nil {
			return nil, err
		}
	}
}

// backoff returns the jittered delay after the given failed attempt (1-based).
func (c *Client) backoff(attempt int) time.Duration {
	d := c.baseDelay
	for i := 1; i < attempt && d < c.maxDelay; i++ {
		d *= 2
	}
	d = min(d, c.maxDelay)
	return time.Duration(float64(d) * (0.8 + 0.4*c.jitter()))
}

// attempt sends one request and classifies its result.
func (c *Client) attempt(ctx context.Context, rawURL string, rd reader) ([]byte, outcome) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, outcome{err: fmt.Errorf("edgarhttp: %w", err)}
	}
	req.Header.Set("User-Agent", c.userAgent)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := c.hc.Do(req)
	if err != nil {
		if se := (*spacerError)(nil); errors.As(err, &se) {
			return nil, outcome{err: se.err}
		}
		return nil, outcome{err: err, retry: true}
	}
	defer resp.Body.Close()

	code := resp.StatusCode
	switch {
	case code == http.StatusNotFound:
		drain(resp.Body)
		return nil, outcome{status: code, err: ErrNotFound}
	case code == http.StatusForbidden || code == http.StatusTooManyRequests || code >= 500:
		drain(resp.Body)
		return nil, outcome{status: code, err: statusError(code), retry: true,
			retryAfter: retryafter.Parse(resp.Header.Get("Retry-After"), c.now())}
	case code < 200 || code > 299:
		drain(resp.Body)
		return nil, outcome{status: code, err: statusError(code)}
	}

	gz := strings.EqualFold(strings.TrimSpace(resp.Header.Get("Content-Encoding")), "gzip")
	if !gz && resp.ContentLength > c.maxBytes {
		return nil, outcome{status: code, err: fmt.Errorf("%w: %d bytes, limit %d", errTooLarge, resp.ContentLength, c.maxBytes)}
	}
	if rd.dst != nil {
		return nil, c.stream(req.URL, resp, gz, rd.dst)
	}
	body, err := c.read(resp.Body, gz, resp.ContentLength, rd.enough)
	if err != nil {
		if errors.Is(err, errTooLarge) {
			return nil, outcome{status: code, err: err}
		}
		return nil, truncated(code, err)
	}
	if htmlInPlaceOfData(req.URL, resp.Header.Get("Content-Type"), body) {
		return nil, c.htmlPage(resp)
	}
	return body, outcome{}
}

// truncated is the outcome of a body cut short: retried.
func truncated(code int, err error) outcome {
	return outcome{status: code, err: fmt.Errorf("edgarhttp: truncated body: %w", err), retry: true}
}

// htmlPage is the outcome of an HTML page served in place of data: retried
// like a rate-limit response.
func (c *Client) htmlPage(resp *http.Response) outcome {
	return outcome{status: resp.StatusCode, err: errHTMLPage, retry: true,
		retryAfter: retryafter.Parse(resp.Header.Get("Retry-After"), c.now())}
}

// read returns the whole (decoded) body, or with a non-nil enough the
// prefix that enough accepted, failing with errTooLarge beyond c.maxBytes.
// size is the announced length of the body as sent (-1 when unknown).
func (c *Client) read(r io.Reader, gz bool, size int64, enough func([]byte) bool) ([]byte, error) {
	hint := min(c.sizeHint, c.maxBytes)
	switch {
	case !gz && enough != nil:
		return c.readPrefix(r, enough)
	case !gz:
		if size <= 0 {
			size = hint
		}
		return c.readAll(r, size)
	case enough == nil && hint <= 0 && size > 0 && size <= c.maxBytes:
		// The decoded size is unknown but the compressed length is
		// announced and bounded: read it whole and size the document from
		// its trailer.
		return c.readGzip(r, size)
	}
	// Decompress as the body streams in: into one buffer when the decoded
	// size is known, and so that a gzip bomb stops at the limit at once.
	zr, err := gunzip(r)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	if enough != nil {
		return c.readPrefix(zr, enough)
	}
	return c.readAll(zr, hint)
}

// gunzip returns a reader of the gzip stream r. An empty stream is a cut
// one: io.ErrUnexpectedEOF, as the reader reports a stream cut later.
func gunzip(r io.Reader) (*gzip.Reader, error) {
	zr, err := gzip.NewReader(r)
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return zr, err
}

// readAll reads r to the end, into a buffer of the expected size when it is
// known, so that a large body is allocated once rather than grown.
func (c *Client) readAll(r io.Reader, size int64) ([]byte, error) {
	r = io.LimitReader(r, c.maxBytes+1)
	var body []byte
	if size > 0 && size <= c.maxBytes {
		buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
		if _, err := buf.ReadFrom(r); err != nil {
			return nil, err
		}
		body = buf.Bytes()
	} else {
		var err error
		if body, err = io.ReadAll(r); err != nil {
			return nil, err
		}
	}
	if int64(len(body)) > c.maxBytes {
		return nil, fmt.Errorf("%w: over %d bytes", errTooLarge, c.maxBytes)
	}
	return body, nil
}

// readGzip reads a gzip body whole, then decompresses it into a buffer
// sized from the gzip trailer (the uncompressed length modulo 2^32), so the
// document is allocated once. The trailer is only a hint: the limit is
// enforced on the bytes actually produced.
func (c *Client) readGzip(r io.Reader, size int64) ([]byte, error) {
	compressed, err := c.readAll(r, size)
	if err != nil {
		return nil, err
	}
	zr, err := gunzip(bytes.NewReader(compressed))
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	hint := int64(-1)
	if n := len(compressed); n >= 18 {
		hint = int64(binary.LittleEndian.Uint32(compressed[n-4:]))
		// Text compresses well, but not past this: a larger claim is not
		// believed, so a forged trailer cannot make a small body allocate
		// a large buffer (the buffer then grows with the data instead).
		hint = min(hint, maxGzipRatio*int64(n))
	}
	return c.readAll(zr, hint)
}

// statusError describes an unsuccessful HTTP status.
func statusError(code int) error {
	return fmt.Errorf("edgarhttp: %s", strings.ToLower(http.StatusText(code)))
}

// drain reads a little of an unwanted body so the connection can be reused.
func drain(r io.Reader) {
	_, _ = io.Copy(io.Discard, io.LimitReader(r, drainLimit))
}

// htmlInPlaceOfData reports whether a 2xx body is an HTML page, such as a
// rate-limit notice, where the URL asks for data rather than a web page.
// body need only hold the start of the document.
func htmlInPlaceOfData(u *url.URL, contentType string, body []byte) bool {
	if asksForPage(u) {
		return false
	}
	if mt, _, err := mime.ParseMediaType(contentType); err == nil && mt == "text/html" {
		return true
	}
	head := bytes.TrimLeft(body, "\ufeff \t\r\n\f\v")
	head = head[:min(len(head), len("<!doctype html"))]
	return hasPrefixFold(head, "<!doctype html") || hasPrefixFold(head, "<html")
}

// hasPrefixFold reports whether b begins with the ASCII prefix, ignoring case.
func hasPrefixFold(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && strings.EqualFold(string(b[:len(prefix)]), prefix)
}

// asksForPage reports whether u names a web page rather than data, judged by
// the URL alone: a path ending in .htm or .html, in "/", or in a last
// segment with no extension at all, such as
// https://www.sec.gov/data-research/sec-markets-data/form-13f-data-sets
// (the landing page of the Form 13F Data Sets). Every data document of
// EDGAR has an extension (.json, .xml, .txt, .idx, .zip, ...), so an HTML
// page served for one of those is still caught.
func asksForPage(u *url.URL) bool {
	p := strings.ToLower(u.Path)
	if strings.HasSuffix(p, ".htm") || strings.HasSuffix(p, ".html") || p == "" || strings.HasSuffix(p, "/") {
		return true
	}
	return path.Ext(path.Base(p)) == ""
}
