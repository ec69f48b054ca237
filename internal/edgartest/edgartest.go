// Package edgartest is the one EDGAR of the module's tests: the recorded
// mirror in testdata/mirror (MirrorDir, MirrorFS), read through a
// CountingFetcher or served over HTTP by a Server with faults injected
// per path, a MemCache, and the settings every test uses with them. Only
// tests import it; the tests of the packages below the root, which it is
// built on, find the mirror through its package edgarfiles.
package edgartest

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/edgartest/edgarfiles"
	"github.com/edgar13f/edgar13f/mirror"
)

// MirrorDir is the recorded EDGAR mirror, testdata/mirror at the root of
// the module, as an absolute path, so that the tests of every package
// (which run in their own directories) find it.
var MirrorDir = edgarfiles.Mirror

// UserAgent identifies the tests; they never reach sec.gov.
const UserAgent = "edgar13f tests test@example.com"

// Clock adapts a function to the edgar13f.Clock interface, for tests
// that move or pin a Client's time.
type Clock func() time.Time

// Now returns f().
func (f Clock) Now() time.Time { return f() }

// FixedNow is late enough that every cached filing list in the mirror
// counts as fresh for every asOf the tests ask about.
var FixedNow = time.Date(2026, time.December, 1, 12, 0, 0, 0, time.UTC)

// A CountingFetcher is the tests' Fetcher: it records every URL asked
// for, then answers from Files when the URL is there, else from Next (when
// Next is nil, with ErrNotFound). Before, when set, is called first with
// each request; an error from it is the answer (a test's way to stall,
// fail or watch a request). The fetcher passes Next's Source on, or names
// Name when that is set, so that Clients over it use the cache they are
// given.
type CountingFetcher struct {
	Next   edgar13f.Fetcher
	Files  map[string][]byte
	Name   string
	Before func(ctx context.Context, url string) error
	mu     sync.Mutex
	urls   []string
}

// Fetch records url and answers it.
func (f *CountingFetcher) Fetch(ctx context.Context, url string) ([]byte, error) {
	f.mu.Lock()
	f.urls = append(f.urls, url)
	f.mu.Unlock()
	if f.Before != nil {
		if err := f.Before(ctx, url); err != nil {
			return nil, err
		}
	}
	if b, ok := f.Files[url]; ok {
		return b, nil
	}
	if f.Next == nil {
		return nil, fmt.Errorf("%w: %s", edgar13f.ErrNotFound, url)
	}
	return f.Next.Fetch(ctx, url)
}

// Source is Name, or else the Source of Next ("" when it has none).
func (f *CountingFetcher) Source() string {
	if f.Name != "" {
		return f.Name
	}
	if s, ok := f.Next.(interface{ Source() string }); ok {
		return s.Source()
	}
	return ""
}

// Take returns the URLs fetched since the last Take.
func (f *CountingFetcher) Take() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	u := f.urls
	f.urls = nil
	return u
}

// Len returns how many URLs were fetched since the last Take.
func (f *CountingFetcher) Len() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.urls)
}

// A MemCache is an edgar13f.Cache in memory, for tests that look at or
// share entries.
type MemCache struct {
	mu sync.Mutex
	m  map[string][]byte
}

// NewMemCache returns an empty MemCache.
func NewMemCache() *MemCache { return &MemCache{m: map[string][]byte{}} }

// Get returns a copy of the entry under key, or edgar13f.ErrCacheMiss.
func (c *MemCache) Get(_ context.Context, key string) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.m[key]
	if !ok {
		return nil, edgar13f.ErrCacheMiss
	}
	return slices.Clone(b), nil
}

// Len returns the number of entries.
func (c *MemCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// All yields a copy of every entry, in key order.
func (c *MemCache) All() iter.Seq2[string, []byte] {
	c.mu.Lock()
	keys := slices.Sorted(maps.Keys(c.m))
	c.mu.Unlock()
	return func(yield func(string, []byte) bool) {
		for _, k := range keys {
			c.mu.Lock()
			b, ok := c.m[k]
			c.mu.Unlock()
			if ok && !yield(k, slices.Clone(b)) {
				return
			}
		}
	}
}

// Put keeps a copy of data under key.
func (c *MemCache) Put(_ context.Context, key string, data []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[key] = slices.Clone(data)
	return nil
}

// MirrorClient returns a Client reading the mirror directly through a
// CountingFetcher, with a MemCache of its own and FixedNow for a clock
// (opts applied last), and the fetcher.
func MirrorClient(t testing.TB, opts ...edgar13f.ClientOption) (*edgar13f.Client, *CountingFetcher) {
	t.Helper()
	f := &CountingFetcher{Next: mirror.NewFetcher(MirrorFS(t))}
	all := append([]edgar13f.ClientOption{
		edgar13f.WithFetcher(f),
		edgar13f.WithCache(NewMemCache()),
		edgar13f.WithClock(Clock(func() time.Time { return FixedNow })),
	}, opts...)
	c, err := edgar13f.NewClient(all...)
	if err != nil {
		t.Fatal(err)
	}
	return c, f
}

// Reason returns the reason of a decline, "" for any other error or nil.
func Reason(err error) edgar13f.Reason {
	var d *edgar13f.DeclineError
	if errors.As(err, &d) {
		return d.Reason
	}
	return ""
}

// MirrorFS returns the mirror as a file system.
func MirrorFS(t testing.TB) fs.FS {
	t.Helper()
	fsys, err := mirror.Dir(MirrorDir)
	if err != nil {
		t.Fatal(err)
	}
	return fsys
}

// A Fault replaces the mirror's answer to the requests whose path contains
// Match: the first Times of them, or all of them while Times is 0.
type Fault struct {
	Match string
	Times int
	Serve func(w http.ResponseWriter, r *http.Request, body []byte) // body: the mirror's bytes
	hits  int
}

// A Server serves the recorded mirror over HTTP with injected faults and
// records the path, start time and User-Agent of every request.
type Server struct {
	srv    *httptest.Server
	tree   http.Handler
	mu     sync.Mutex
	faults []*Fault
	paths  []string
	starts []time.Time
	agents []string
}

// NewServer starts a Server with faults, closed when the test ends.
func NewServer(t testing.TB, faults ...*Fault) *Server {
	t.Helper()
	e := &Server{tree: mirror.Handler(MirrorFS(t)), faults: faults}
	e.srv = httptest.NewServer(http.HandlerFunc(e.serve))
	t.Cleanup(e.srv.Close)
	return e
}

func (e *Server) serve(w http.ResponseWriter, r *http.Request) {
	now := time.Now()
	e.mu.Lock()
	e.paths = append(e.paths, r.URL.Path)
	e.starts = append(e.starts, now)
	e.agents = append(e.agents, r.Header.Get("User-Agent"))
	var hit *Fault
	for _, f := range e.faults {
		if strings.Contains(r.URL.Path, f.Match) && (f.Times == 0 || f.hits < f.Times) {
			f.hits++
			hit = f
			break
		}
	}
	e.mu.Unlock()
	if hit == nil {
		e.tree.ServeHTTP(w, r)
		return
	}
	body, _ := os.ReadFile(filepath.Join(MirrorDir, filepath.FromSlash(strings.TrimPrefix(r.URL.Path, "/"))))
	hit.Serve(w, r, body)
}

// URL is the server's base URL, for edgar13f.WithBaseURL.
func (e *Server) URL() string { return e.srv.URL }

// Close shuts the server down before the test ends.
func (e *Server) Close() { e.srv.Close() }

// SetFaults replaces the faults; none clears them.
func (e *Server) SetFaults(faults ...*Fault) {
	e.mu.Lock()
	e.faults = faults
	e.mu.Unlock()
}

// Requests returns the paths and start times recorded so far.
func (e *Server) Requests() ([]string, []time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.paths), slices.Clone(e.starts)
}

// Reset forgets the requests recorded so far.
func (e *Server) Reset() {
	e.mu.Lock()
	e.paths, e.starts, e.agents = nil, nil, nil
	e.mu.Unlock()
}

// UserAgents returns the User-Agent of every request recorded so far.
func (e *Server) UserAgents() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.agents)
}

// NotFound answers 404, as for a document the mirror does not hold.
func NotFound(w http.ResponseWriter, r *http.Request, _ []byte) { http.NotFound(w, r) }

// Count returns how many requested paths contain s.
func (e *Server) Count(s string) int {
	paths, _ := e.Requests()
	n := 0
	for _, p := range paths {
		if strings.Contains(p, s) {
			n++
		}
	}
	return n
}

// FastRetry retries like the default policy but with waits short enough for tests.
var FastRetry = edgar13f.RetryPolicy{MaxAttempts: 6, BaseDelay: time.Millisecond, MaxDelay: 20 * time.Millisecond}

// Client returns a Client reading e over HTTP with a disk cache in dir (a
// new temporary directory when dir is ""), opts applied last.
func (e *Server) Client(t testing.TB, dir string, opts ...edgar13f.ClientOption) *edgar13f.Client {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	all := append([]edgar13f.ClientOption{
		edgar13f.WithUserAgent(UserAgent),
		edgar13f.WithBaseURL(e.srv.URL),
		edgar13f.WithCacheDir(dir),
		edgar13f.WithRequestInterval(101 * time.Millisecond),
		edgar13f.WithRetryPolicy(FastRetry),
		edgar13f.WithClock(Clock(func() time.Time { return FixedNow })),
	}, opts...)
	c, err := edgar13f.NewClient(all...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Fault responses.

// Status answers code with the header pairs given (name, value, ...).
func Status(code int, header ...string) func(http.ResponseWriter, *http.Request, []byte) {
	return func(w http.ResponseWriter, r *http.Request, _ []byte) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(code)
	}
}

// secThrottlePage is the page SEC serves with 403 when a client exceeds its
// request rate (abridged).
const secThrottlePage = `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">
<head><title>SEC.gov | Request Rate Threshold Exceeded</title></head>
<body><h1>Your Request Originates from an Undeclared Automated Tool</h1>
<p>To allow for equitable access to all users, SEC reserves the right to limit requests originating from undeclared automated tools.</p>
</body></html>`

// HTMLPage answers code with SEC's throttling page.
func HTMLPage(code int) func(http.ResponseWriter, *http.Request, []byte) {
	return func(w http.ResponseWriter, r *http.Request, _ []byte) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(code)
		io.WriteString(w, secThrottlePage)
	}
}

// ResetMidBody announces the whole body, sends half and drops the connection.
func ResetMidBody(w http.ResponseWriter, r *http.Request, body []byte) {
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	w.Write(body[:len(body)/2])
	w.(http.Flusher).Flush()
	panic(http.ErrAbortHandler)
}

// TruncatedGzip sends a gzip body cut before its end.
func TruncatedGzip(w http.ResponseWriter, r *http.Request, body []byte) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(body)
	zw.Close()
	cut := buf.Bytes()[:buf.Len()*2/3]
	w.Header().Set("Content-Encoding", "gzip")
	w.Header().Set("Content-Length", strconv.Itoa(len(cut)))
	w.WriteHeader(http.StatusOK)
	w.Write(cut)
}

// Stall answers only when the request is cancelled.
func Stall(w http.ResponseWriter, r *http.Request, _ []byte) {
	select {
	case <-r.Context().Done():
	case <-time.After(10 * time.Second):
	}
}

// Replace serves fixed bytes.
func Replace(b []byte) func(http.ResponseWriter, *http.Request, []byte) {
	return func(w http.ResponseWriter, r *http.Request, _ []byte) { w.Write(b) }
}

// Edit serves the mirror's bytes changed by f.
func Edit(f func([]byte) []byte) func(http.ResponseWriter, *http.Request, []byte) {
	return func(w http.ResponseWriter, r *http.Request, body []byte) { w.Write(f(body)) }
}

// EditRecent changes the filings.recent columns of a submissions document.
func EditRecent(f func(recent map[string]any)) func([]byte) []byte {
	return func(b []byte) []byte {
		var doc map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			panic(err)
		}
		f(doc["filings"].(map[string]any)["recent"].(map[string]any))
		out, err := json.Marshal(doc)
		if err != nil {
			panic(err)
		}
		return out
	}
}
