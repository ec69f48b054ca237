package edgarhttp

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/edgar13f/edgar13f/internal/edgartest/edgarfiles"
	"github.com/edgar13f/edgar13f/internal/sleep"
	"github.com/google/go-cmp/cmp"
)

const testUA = "Example Research research@example.com"

// Real EDGAR documents served by the test servers, with their EDGAR paths.
const (
	jsonPath = "/submissions/CIK0000315090.json"
	xmlPath  = "/Archives/edgar/data/1067983/000095012323011029/28498.xml"
)

func realBytes(t *testing.T, path string) []byte {
	t.Helper()
	host := "www.sec.gov"
	if path == jsonPath {
		host = "data.sec.gov"
	}
	b, err := os.ReadFile(edgarfiles.Mirror + "/" + host + path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// rateLimitPage imitates the page SEC serves when a client exceeds its
// request rate.
const rateLimitPage = `
<!DOCTYPE html>
<html lang="en"><head><title>SEC.gov | Request Rate Threshold Exceeded</title></head>
<body><h1>Your Request Originates from an Undeclared Automated Tool</h1></body></html>`

// The landing page of the Form 13F Data Sets (a web page whose URL has no
// extension) and one of its zips, abridged.
const (
	landingPath = "/data-research/sec-markets-data/form-13f-data-sets"
	landingPage = `<!DOCTYPE html><html><body><a href="/files/structureddata/data/form-13f-data-sets/2024q1_form13f.zip">2024 Q1</a></body></html>`
	zipPath     = "/files/structureddata/data/form-13f-data-sets/2024q1_form13f.zip"
)

// zipBytes stands for a Data Sets zip: the start of a zip archive, then
// enough bytes to pass through several reads.
var zipBytes = append([]byte("PK\x03\x04"), bytes.Repeat([]byte("0123456789abcdef"), 20000)...)

// fixedNow is the test clock; whole seconds so that HTTP-dates are exact.
var fixedNow = time.Date(2024, 5, 15, 14, 30, 0, 0, time.UTC)

// A step writes one response.
type step func(w http.ResponseWriter, r *http.Request)

func ok(body []byte, contentType string) step {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", contentType)
		_, _ = w.Write(body)
	}
}

func status(code int, header map[string]string, body string) step {
	return func(w http.ResponseWriter, _ *http.Request) {
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(code)
		_, _ = io.WriteString(w, body)
	}
}

func gzipBytes(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// gzipped serves z, a gzip stream, with a correct Content-Length.
func gzipped(z []byte) step {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Length", strconv.Itoa(len(z)))
		_, _ = w.Write(z)
	}
}

// cut announces len(body) bytes, sends half and drops the connection.
func cut(body []byte) step {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		_, _ = w.Write(body[:len(body)/2])
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler)
	}
}

// hangUp closes the connection without any response.
func hangUp(w http.ResponseWriter, _ *http.Request) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err != nil {
		panic(err)
	}
	_ = conn.Close()
}

// A hit records what the server received.
type hit struct {
	Method, UserAgent, AcceptEncoding string
}

// server serves steps in order, repeating the last, and records every hit.
// Not the tests' kit (internal/edgartest): that is built on the root,
// which imports this package.
type server struct {
	*httptest.Server
	mu    sync.Mutex
	hits  []hit
	steps []step
}

func newServer(t *testing.T, steps ...step) *server {
	s := &server{steps: steps}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		n := len(s.hits)
		s.hits = append(s.hits, hit{r.Method, r.Header.Get("User-Agent"), r.Header.Get("Accept-Encoding")})
		s.mu.Unlock()
		s.steps[min(n, len(s.steps)-1)](w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *server) Hits() []hit {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]hit(nil), s.hits...)
}

// countingWaiter counts Wait calls.
type countingWaiter struct {
	mu sync.Mutex
	n  int
}

func (w *countingWaiter) Wait(ctx context.Context) error {
	w.mu.Lock()
	w.n++
	w.mu.Unlock()
	return ctx.Err()
}

// testClient returns a Client with the test clock, no jitter, and a sleep
// that records its durations without sleeping.
func testClient(t *testing.T, cfg Config) (*Client, *[]time.Duration) {
	t.Helper()
	cfg.UserAgent = testUA
	if cfg.BaseDelay == 0 {
		cfg.BaseDelay = time.Millisecond
	}
	if cfg.MaxDelay == 0 {
		cfg.MaxDelay = time.Minute
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var sleeps []time.Duration
	c.sleep = func(ctx context.Context, d time.Duration) error {
		sleeps = append(sleeps, d)
		return ctx.Err()
	}
	c.now = func() time.Time { return fixedNow }
	c.jitter = func() float64 { return 0.5 }
	return c, &sleeps
}

// failure is the comparable part of an *Error.
type failure struct {
	StatusCode, Attempts int
}

func TestGet(t *testing.T) {
	js := realBytes(t, jsonPath)
	xml := realBytes(t, xmlPath)
	retryDate := fixedNow.Add(5 * time.Second).Format(http.TimeFormat)
	ms := time.Millisecond

	tests := []getCase{
		{name: "json", path: jsonPath, steps: []step{ok(js, "application/json")}, want: js, wantHits: 1},
		{name: "gzip json", path: jsonPath, steps: []step{gzipped(gzipBytes(t, js))}, want: js, wantHits: 1},
		{name: "gzip xml", path: xmlPath, steps: []step{gzipped(gzipBytes(t, xml))}, want: xml, wantHits: 1},
		{name: "404 not retried", path: jsonPath, steps: []step{status(404, nil, "Not Found")},
			wantErr: &failure{404, 1}, wantIs: ErrNotFound, wantHits: 1},
		{name: "400 not retried", path: jsonPath, steps: []step{status(400, nil, "")},
			wantErr: &failure{400, 1}, wantHits: 1},
		{name: "401 not retried", path: jsonPath, steps: []step{status(401, nil, "")},
			wantErr: &failure{401, 1}, wantHits: 1},
		{name: "429 then 200", path: jsonPath,
			steps: []step{status(429, nil, ""), ok(js, "application/json")},
			want:  js, wantHits: 2, wantSleeps: []time.Duration{ms}},
		{name: "429 retry-after seconds", path: jsonPath,
			steps: []step{status(429, map[string]string{"Retry-After": "1"}, ""), ok(js, "application/json")},
			want:  js, wantHits: 2, wantSleeps: []time.Duration{time.Second}},
		{name: "503 retry-after http-date", path: jsonPath,
			steps: []step{status(503, map[string]string{"Retry-After": retryDate}, ""), ok(js, "application/json")},
			want:  js, wantHits: 2, wantSleeps: []time.Duration{5 * time.Second}},
		{name: "retry-after capped by MaxDelay", path: jsonPath,
			steps: []step{status(429, map[string]string{"Retry-After": "3600"}, ""), ok(js, "application/json")},
			want:  js, wantHits: 2, wantSleeps: []time.Duration{time.Minute}},
		{name: "403 rate limit page", path: jsonPath,
			steps: []step{status(403, map[string]string{"Content-Type": "text/html"}, rateLimitPage), ok(js, "application/json")},
			want:  js, wantHits: 2, wantSleeps: []time.Duration{ms}},
		{name: "200 html page in place of json", path: jsonPath,
			steps: []step{ok([]byte(rateLimitPage), "text/html; charset=utf-8"), ok(js, "application/json")},
			want:  js, wantHits: 2, wantSleeps: []time.Duration{ms}},
		{name: "200 html body mislabelled", path: xmlPath,
			steps: []step{ok([]byte("\r\n  <HTML><body>busy</body></HTML>"), "application/xml"), ok(xml, "application/xml")},
			want:  xml, wantHits: 2, wantSleeps: []time.Duration{ms}},
		{name: "html page asked for", path: "/Archives/edgar/data/1067983/000095012323011029/index.HTM",
			steps: []step{ok([]byte(rateLimitPage), "text/html")},
			want:  []byte(rateLimitPage), wantHits: 1},
		{name: "web page without extension asked for", path: landingPath,
			steps: []step{ok([]byte(landingPage), "text/html; charset=utf-8")},
			want:  []byte(landingPage), wantHits: 1},
		{name: "html page in place of a zip", path: zipPath,
			steps: []step{ok([]byte(rateLimitPage), "text/html"), ok(zipBytes, "application/zip")},
			want:  zipBytes, wantHits: 2, wantSleeps: []time.Duration{ms}},
		{name: "truncated zip", path: zipPath,
			steps: []step{cut(zipBytes), ok(zipBytes, "application/zip")},
			want:  zipBytes, wantHits: 2, wantSleeps: []time.Duration{ms}},
		{name: "5xx burst", path: jsonPath,
			steps: []step{status(500, nil, ""), status(503, nil, ""), status(502, nil, ""), ok(js, "application/json")},
			want:  js, wantHits: 4, wantSleeps: []time.Duration{ms, 2 * ms, 4 * ms}},
		{name: "backoff capped", path: jsonPath, cfg: Config{MaxAttempts: 5, MaxDelay: 2 * ms},
			steps:   []step{status(503, nil, "")},
			wantErr: &failure{503, 5}, wantHits: 5, wantSleeps: []time.Duration{ms, 2 * ms, 2 * ms, 2 * ms}},
		{name: "truncated body", path: jsonPath, steps: []step{cut(js), ok(js, "application/json")},
			want: js, wantHits: 2, wantSleeps: []time.Duration{ms}},
		{name: "truncated gzip", path: jsonPath,
			steps: []step{gzipped(gzipBytes(t, js)[:1000]), gzipped(gzipBytes(t, js))},
			want:  js, wantHits: 2, wantSleeps: []time.Duration{ms}},
		{name: "connection dropped", path: jsonPath, steps: []step{hangUp, ok(js, "application/json")},
			want: js, wantHits: 2, wantSleeps: []time.Duration{ms}},
		{name: "attempts exhausted", path: jsonPath, cfg: Config{MaxAttempts: 3},
			steps:   []step{status(503, nil, "")},
			wantErr: &failure{503, 3}, wantHits: 3, wantSleeps: []time.Duration{ms, 2 * ms}},
		{name: "always truncated", path: jsonPath, cfg: Config{MaxAttempts: 2}, steps: []step{cut(js)},
			wantErr: &failure{200, 2}, wantIs: io.ErrUnexpectedEOF, wantHits: 2, wantSleeps: []time.Duration{ms}},
		{name: "max bytes exceeded", path: jsonPath, cfg: Config{MaxBytes: 1000},
			steps:   []step{ok(js, "application/json")},
			wantErr: &failure{200, 1}, wantIs: errTooLarge, wantHits: 1},
		{name: "max bytes exceeded after gunzip", path: jsonPath, cfg: Config{MaxBytes: int64(len(js)) - 1},
			steps:   []step{gzipped(gzipBytes(t, js))},
			wantErr: &failure{200, 1}, wantIs: errTooLarge, wantHits: 1},
		{name: "max bytes exactly", path: jsonPath, cfg: Config{MaxBytes: int64(len(js))},
			steps: []step{gzipped(gzipBytes(t, js))}, want: js, wantHits: 1},
	}
	// Every case runs twice: through Get, and through GetTo streaming into
	// a Sink, which must behave the same in everything but where the body goes.
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, false) })
		t.Run(tc.name+" streamed", func(t *testing.T) { tc.run(t, true) })
	}
}

// A getCase is one case of TestGet: the responses served in turn and what
// the Client must make of them.
type getCase struct {
	name       string
	path       string
	cfg        Config
	steps      []step
	want       []byte
	wantErr    *failure
	wantIs     error
	wantHits   int
	wantSleeps []time.Duration
}

// run fetches the case's document with Get, or with GetTo when streamed.
func (tc getCase) run(t *testing.T, streamed bool) {
	srv := newServer(t, tc.steps...)
	waiter := &countingWaiter{}
	tc.cfg.Spacer = waiter
	c, sleeps := testClient(t, tc.cfg)
	url := srv.URL + tc.path
	var got []byte
	var err error
	if streamed {
		sink := &memSink{}
		var n int64
		n, err = c.GetTo(context.Background(), url, sink)
		if err == nil {
			got = sink.Bytes()
			if n != int64(len(got)) {
				t.Errorf("GetTo returned %d, wrote %d bytes", n, len(got))
			}
		}
	} else {
		got, err = c.Get(context.Background(), url)
	}
	if tc.wantErr == nil {
		if err != nil {
			t.Fatalf("Get: %v", err)
		}
		if !bytes.Equal(got, tc.want) {
			t.Errorf("Get returned %d bytes %.40q, want %d bytes %.40q", len(got), got, len(tc.want), tc.want)
		}
	} else {
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("Get error = %v, want *Error", err)
		}
		if diff := cmp.Diff(*tc.wantErr, failure{e.StatusCode, e.Attempts}); diff != "" {
			t.Errorf("Error (-want +got):\n%s", diff)
		}
		if e.URL != url {
			t.Errorf("Error.URL = %q, want %q", e.URL, url)
		}
		if tc.wantIs != nil && !errors.Is(err, tc.wantIs) {
			t.Errorf("Get error = %v, want it to wrap %v", err, tc.wantIs)
		}
		if got != nil {
			t.Errorf("Get returned %d bytes with an error", len(got))
		}
	}
	hits := srv.Hits()
	want := make([]hit, tc.wantHits)
	for i := range want {
		want[i] = hit{http.MethodGet, testUA, "gzip"}
	}
	if diff := cmp.Diff(want, hits); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
	if waiter.n != len(hits) {
		t.Errorf("Spacer waited %d times for %d requests", waiter.n, len(hits))
	}
	if diff := cmp.Diff(tc.wantSleeps, *sleeps); diff != "" {
		t.Errorf("sleeps (-want +got):\n%s", diff)
	}
}

// memSink is a Sink in memory.
type memSink struct {
	bytes.Buffer
	resets int
}

func (s *memSink) Reset() error {
	s.resets++
	s.Buffer.Reset()
	return nil
}

func TestNewRejects(t *testing.T) {
	tests := []struct {
		name   string
		cfg    Config
		wantIs error
	}{
		{"no user agent", Config{}, ErrNoUserAgent},
		{"blank user agent", Config{UserAgent: " \t "}, ErrNoUserAgent},
		{"control character", Config{UserAgent: "Name a@b.c\r\nX-Evil: 1"}, nil},
		{"negative attempts", Config{UserAgent: testUA, MaxAttempts: -1}, nil},
		{"negative max bytes", Config{UserAgent: testUA, MaxBytes: -1}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := newServer(t, ok([]byte("{}"), "application/json"))
			tc.cfg.HTTPClient = srv.Client()
			c, err := New(tc.cfg)
			if err == nil {
				_, _ = c.Get(context.Background(), srv.URL+jsonPath)
				t.Fatal("New succeeded, want error")
			}
			if tc.wantIs != nil && err != tc.wantIs {
				t.Errorf("New error = %v, want %v", err, tc.wantIs)
			}
			if n := len(srv.Hits()); n != 0 {
				t.Errorf("server saw %d requests, want 0", n)
			}
		})
	}
}

func TestNewDefaults(t *testing.T) {
	c, err := New(Config{UserAgent: " " + testUA + " "})
	if err != nil {
		t.Fatal(err)
	}
	type settings struct {
		UserAgent   string
		Timeout     time.Duration
		MaxAttempts int
		BaseDelay   time.Duration
		MaxDelay    time.Duration
		MaxBytes    int64
	}
	want := settings{testUA, 60 * time.Second, 6, time.Second, 2 * time.Minute, 256 << 20}
	got := settings{c.userAgent, c.hc.Timeout, c.maxAttempts, c.baseDelay, c.maxDelay, c.maxBytes}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("defaults (-want +got):\n%s", diff)
	}
}

// hangGuard bounds a call that must end with its context. It is no speed
// claim: the calls it guards end in milliseconds, and one that ignored its
// context would wait an hour.
const hangGuard = 2 * time.Minute

// withinHangGuard runs f and fails the test if f has not returned within
// hangGuard.
func withinHangGuard(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(hangGuard):
		t.Fatalf("hang guard: still running after %v", hangGuard)
	}
}

// TestGetContext: a Get whose context ends before the request, during a
// backoff, while the server holds the request, or midway through the body
// returns context.Canceled itself. The context is cancelled at the moment
// under test (by the server's handler or as the backoff starts), never
// after a fixed delay, so a slow machine cannot move it elsewhere.
func TestGetContext(t *testing.T) {
	// cancelNow cancels the running subtest's context.
	var cancelNow func()
	tests := []struct {
		name          string
		step          step
		cancelBackoff bool // cancel as the first backoff starts
		cancelBefore  bool // cancelled before Get
		wantHits      int
	}{
		{"before request", status(503, nil, ""), false, true, 0},
		{"during backoff", status(503, nil, ""), true, false, 1},
		{"during request", func(w http.ResponseWriter, r *http.Request) {
			cancelNow()
			<-r.Context().Done()
		}, false, false, 1},
		{"during body", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "100")
			_, _ = io.WriteString(w, "{")
			w.(http.Flusher).Flush()
			cancelNow()
			<-r.Context().Done()
		}, false, false, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := newServer(t, tc.step)
			// Real sleeps: the first backoff would last an hour.
			c, err := New(Config{UserAgent: testUA, BaseDelay: time.Hour, MaxDelay: time.Hour})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cancelNow = cancel
			if tc.cancelBefore {
				cancel()
			}
			if tc.cancelBackoff {
				c.sleep = func(ctx context.Context, d time.Duration) error {
					if d >= time.Minute {
						cancel()
					}
					return sleep.For(ctx, d)
				}
			}
			var got []byte
			withinHangGuard(t, func() { got, err = c.Get(ctx, srv.URL+jsonPath) })
			if err != context.Canceled {
				t.Errorf("Get error = %#v, want context.Canceled itself", err)
			}
			if got != nil {
				t.Errorf("Get returned %d bytes", len(got))
			}
			if n := len(srv.Hits()); n != tc.wantHits {
				t.Errorf("server saw %d requests, want %d", n, tc.wantHits)
			}
		})
	}
}

// failingWaiter refuses every request.
type failingWaiter struct{}

var errWaiter = errors.New("test: waiter broken")

func (failingWaiter) Wait(context.Context) error { return errWaiter }

func TestGetSpacerError(t *testing.T) {
	srv := newServer(t, ok([]byte("{}"), "application/json"))
	c, _ := testClient(t, Config{Spacer: failingWaiter{}})
	_, err := c.Get(context.Background(), srv.URL+jsonPath)
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, errWaiter) {
		t.Fatalf("Get error = %v, want *Error wrapping %v", err, errWaiter)
	}
	if diff := cmp.Diff(failure{0, 0}, failure{e.StatusCode, e.Attempts}); diff != "" {
		t.Errorf("Error (-want +got):\n%s", diff)
	}
	if n := len(srv.Hits()); n != 0 {
		t.Errorf("server saw %d requests, want 0", n)
	}
}

func TestErrorString(t *testing.T) {
	const u = "https://data.sec.gov/submissions/CIK0000315090.json"
	tests := []struct {
		err  *Error
		want string
	}{
		{&Error{URL: u, StatusCode: 404, Attempts: 1, Err: ErrNotFound},
			"edgarhttp: get " + u + ": status 404: edgar13f: document not found"},
		{&Error{URL: u, StatusCode: 503, Attempts: 6, Err: statusError(503)},
			"edgarhttp: get " + u + ": status 503: giving up after 6 attempts: edgarhttp: service unavailable"},
		{&Error{URL: u, Attempts: 2, Err: io.EOF},
			"edgarhttp: get " + u + ": giving up after 2 attempts: EOF"},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, tc.err.Error()); diff != "" {
			t.Errorf("Error() (-want +got):\n%s", diff)
		}
	}
}

func TestBackoffJitter(t *testing.T) {
	tests := []struct {
		jitter  float64
		attempt int
		want    time.Duration
	}{
		{0, 1, 800 * time.Microsecond},
		{0.5, 1, time.Millisecond},
		{0.75, 3, 4400 * time.Microsecond},
		{0, 40, 8 * time.Millisecond}, // capped before jitter
	}
	for _, tc := range tests {
		c, _ := testClient(t, Config{MaxDelay: 10 * time.Millisecond})
		c.jitter = func() float64 { return tc.jitter }
		if got := c.backoff(tc.attempt); got != tc.want {
			t.Errorf("backoff(%d) with jitter %v = %v, want %v", tc.attempt, tc.jitter, got, tc.want)
		}
	}
}
