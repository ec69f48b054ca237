package edgar13f_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
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
)

// The one EDGAR of the root tests: an httptest server serving the recorded
// mirror, with faults injected per path, noting every request.

// A fault replaces the mirror's answer to the requests whose path contains
// match: the first times of them, or all of them while times is 0.
type fault struct {
	match string
	times int
	serve func(w http.ResponseWriter, r *http.Request, body []byte) // body: the mirror's bytes
	hits  int
}

// fakeEDGAR serves the recorded mirror over HTTP with injected faults and
// records the path, start time and User-Agent of every request.
type fakeEDGAR struct {
	srv    *httptest.Server
	mirror http.Handler
	mu     sync.Mutex
	faults []*fault
	paths  []string
	starts []time.Time
	agents []string
}

func newFakeEDGAR(t testing.TB, faults ...*fault) *fakeEDGAR {
	t.Helper()
	e := &fakeEDGAR{mirror: edgar13f.MirrorHandler(mirrorFS(t)), faults: faults}
	e.srv = httptest.NewServer(http.HandlerFunc(e.serve))
	t.Cleanup(e.srv.Close)
	return e
}

func (e *fakeEDGAR) serve(w http.ResponseWriter, r *http.Request) {
	now := time.Now()
	e.mu.Lock()
	e.paths = append(e.paths, r.URL.Path)
	e.starts = append(e.starts, now)
	e.agents = append(e.agents, r.Header.Get("User-Agent"))
	var hit *fault
	for _, f := range e.faults {
		if strings.Contains(r.URL.Path, f.match) && (f.times == 0 || f.hits < f.times) {
			f.hits++
			hit = f
			break
		}
	}
	e.mu.Unlock()
	if hit == nil {
		e.mirror.ServeHTTP(w, r)
		return
	}
	body, _ := os.ReadFile(filepath.Join(mirrorDir, filepath.FromSlash(strings.TrimPrefix(r.URL.Path, "/"))))
	hit.serve(w, r, body)
}

// setFaults replaces the faults; none clears them.
func (e *fakeEDGAR) setFaults(faults ...*fault) {
	e.mu.Lock()
	e.faults = faults
	e.mu.Unlock()
}

// requests returns the paths and start times recorded so far.
func (e *fakeEDGAR) requests() ([]string, []time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.paths), slices.Clone(e.starts)
}

// reset forgets the requests recorded so far.
func (e *fakeEDGAR) reset() {
	e.mu.Lock()
	e.paths, e.starts, e.agents = nil, nil, nil
	e.mu.Unlock()
}

// userAgents returns the User-Agent of every request recorded so far.
func (e *fakeEDGAR) userAgents() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.agents)
}

// notFound answers 404, as for a document the mirror does not hold.
func notFound(w http.ResponseWriter, r *http.Request, _ []byte) { http.NotFound(w, r) }

// count returns how many requested paths contain s.
func (e *fakeEDGAR) count(s string) int {
	paths, _ := e.requests()
	n := 0
	for _, p := range paths {
		if strings.Contains(p, s) {
			n++
		}
	}
	return n
}

// fastRetry retries like the default policy but with waits short enough for tests.
var fastRetry = edgar13f.RetryPolicy{MaxAttempts: 6, BaseDelay: time.Millisecond, MaxDelay: 20 * time.Millisecond}

// client returns a Client reading e over HTTP with a disk cache in dir (a
// new temporary directory when dir is "").
func (e *fakeEDGAR) client(t testing.TB, dir string, opts ...edgar13f.ClientOption) *edgar13f.Client {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	all := append([]edgar13f.ClientOption{
		edgar13f.WithUserAgent(testUserAgent),
		edgar13f.WithBaseURL(e.srv.URL),
		edgar13f.WithCacheDir(dir),
		edgar13f.WithRequestInterval(101 * time.Millisecond),
		edgar13f.WithRetryPolicy(fastRetry),
		edgar13f.WithClock(edgar13f.ClockFunc(func() time.Time { return fixedNow })),
	}, opts...)
	c, err := edgar13f.NewClient(all...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Fault responses.

func status(code int, header ...string) func(http.ResponseWriter, *http.Request, []byte) {
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

func htmlPage(code int) func(http.ResponseWriter, *http.Request, []byte) {
	return func(w http.ResponseWriter, r *http.Request, _ []byte) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(code)
		io.WriteString(w, secThrottlePage)
	}
}

// resetMidBody announces the whole body, sends half and drops the connection.
func resetMidBody(w http.ResponseWriter, r *http.Request, body []byte) {
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	w.Write(body[:len(body)/2])
	w.(http.Flusher).Flush()
	panic(http.ErrAbortHandler)
}

// truncatedGzip sends a gzip body cut before its end.
func truncatedGzip(w http.ResponseWriter, r *http.Request, body []byte) {
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

// stall answers only when the request is cancelled.
func stall(w http.ResponseWriter, r *http.Request, _ []byte) {
	select {
	case <-r.Context().Done():
	case <-time.After(10 * time.Second):
	}
}

// replace serves fixed bytes.
func replace(b []byte) func(http.ResponseWriter, *http.Request, []byte) {
	return func(w http.ResponseWriter, r *http.Request, _ []byte) { w.Write(b) }
}

// edit serves the mirror's bytes changed by f.
func edit(f func([]byte) []byte) func(http.ResponseWriter, *http.Request, []byte) {
	return func(w http.ResponseWriter, r *http.Request, body []byte) { w.Write(f(body)) }
}

// editRecent changes the filings.recent columns of a submissions document.
func editRecent(f func(recent map[string]any)) func([]byte) []byte {
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
