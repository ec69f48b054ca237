package edgar13f_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f"
)

// A fault replaces the mirror's answer to the requests whose path contains
// match: the first times of them, or all of them while times is 0.
type fault struct {
	match string
	times int
	serve func(w http.ResponseWriter, r *http.Request, body []byte) // body: the mirror's bytes
	hits  int
}

// fakeEDGAR serves the recorded mirror over HTTP with injected faults and
// records the path and start time of every request.
type fakeEDGAR struct {
	srv    *httptest.Server
	mirror http.Handler
	mu     sync.Mutex
	faults []*fault
	paths  []string
	starts []time.Time
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

const (
	faultCIK     = "9000001"
	faultList    = "/submissions/CIK0009000001.json"
	faultTxt     = "/0009000001-25-000004.txt"
	faultCover   = "/000900000125000004/primary_doc.xml"
	faultAccLast = "0009000001-25-000004"
)

var (
	faultPeriod = date("2024-12-31")
	faultAsOf   = date("2025-04-02")
)

// faultAnswers returns the answers of the fault queries read straight from
// the mirror, checked against testdata/SCENARIOS.md.
func faultAnswers(t *testing.T) (*edgar13f.Snapshot, *edgar13f.FilingList) {
	t.Helper()
	ref, _ := newMirrorClient(t)
	ctx := context.Background()
	snap, err := ref.Holdings(ctx, faultCIK, faultPeriod, faultAsOf)
	if err != nil {
		t.Fatal(err)
	}
	var sum int64
	for _, h := range snap.Holdings {
		sum += h.Value
	}
	got := fmt.Sprintln(snap.Base.Accession, len(snap.Sources), len(snap.Holdings), sum)
	if want := "0009000001-25-000003 2 4 7123755\n"; got != want {
		t.Fatalf("reference answer %q, want %q (SCENARIOS.md)", got, want)
	}
	list, err := ref.Filings(ctx, faultCIK, faultAsOf, edgar13f.ForPeriod(faultPeriod))
	if err != nil || len(list.Filings) != 4 {
		t.Fatalf("reference Filings: %v, %v; want 4 filings", list, err)
	}
	return snap, list
}

// Outcome checks for faults that end in an error.

func wantFetchError(code int, target error) func(error) string {
	return func(err error) string {
		var fe *edgar13f.FetchError
		if !errors.As(err, &fe) || fe.StatusCode != code || (target != nil && !errors.Is(err, target)) {
			return fmt.Sprintf("want *FetchError with status %d wrapping %v", code, target)
		}
		return ""
	}
}

func wantParseError(doc string) func(error) string {
	return func(err error) string {
		var pe *edgar13f.ParseError
		if !errors.As(err, &pe) || !strings.HasSuffix(pe.Document, doc) {
			return "want *ParseError for " + doc
		}
		return ""
	}
}

func wantIs(target error) func(error) string {
	return func(err error) string {
		if !errors.Is(err, target) {
			return fmt.Sprintf("want an error matching %v", target)
		}
		return ""
	}
}

// TestFaults runs each fault of the table against the real HTTP
// path: the call recovers with the right answer or fails with a clear typed
// error within its deadline, and once the fault clears, the same Client
// (same cache) answers correctly.
func TestFaults(t *testing.T) {
	wantSnap, wantFilings := faultAnswers(t)
	unequal := editRecent(func(r map[string]any) {
		forms := r["form"].([]any)
		r["form"] = forms[:len(forms)-1]
	})
	missing := editRecent(func(r map[string]any) { delete(r, "accessionNumber") })
	brokenXML := func(b []byte) []byte {
		return bytes.Replace(b, []byte("</periodOfReport>"), []byte("</periodOfRep"), 1)
	}
	tests := []struct {
		name     string
		filings  bool // query Filings instead of Holdings
		fault    *fault
		policy   edgar13f.RetryPolicy
		deadline time.Duration
		minTime  time.Duration          // least time the call must take (honoured Retry-After)
		fails    func(err error) string // nil: the call must recover
	}{
		{name: "429 without Retry-After", fault: &fault{match: faultList, times: 2, serve: status(429)}},
		{name: "429 Retry-After seconds", fault: &fault{match: faultList, times: 1, serve: status(429, "Retry-After", "1")},
			policy: edgar13f.RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: 3 * time.Second}, minTime: 900 * time.Millisecond},
		{name: "429 Retry-After HTTP-date", fault: &fault{match: faultTxt, times: 1, serve: func(w http.ResponseWriter, r *http.Request, b []byte) {
			status(429, "Retry-After", time.Now().Add(2*time.Second).UTC().Format(http.TimeFormat))(w, r, b)
		}}, policy: edgar13f.RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: 3 * time.Second}, minTime: 900 * time.Millisecond},
		{name: "403 SEC rate threshold page", fault: &fault{match: faultTxt, times: 2, serve: htmlPage(403)}},
		{name: "HTML page with 200 for JSON", fault: &fault{match: faultList, times: 2, serve: htmlPage(200)}},
		{name: "HTML page with 200 for submission text", fault: &fault{match: faultTxt, times: 1, serve: htmlPage(200)}},
		{name: "HTML page with 200 for cover XML", filings: true, fault: &fault{match: faultCover, times: 1, serve: htmlPage(200)}},
		{name: "500 burst", fault: &fault{match: faultList, times: 3, serve: status(500)}},
		{name: "503 burst", fault: &fault{match: faultTxt, times: 4, serve: status(503)}},
		{name: "503 without end", fault: &fault{match: faultTxt, serve: status(503)}, fails: wantFetchError(503, nil)},
		{name: "connection reset mid-body", fault: &fault{match: faultTxt, times: 2, serve: resetMidBody}},
		{name: "truncated gzip body", fault: &fault{match: faultList, times: 2, serve: truncatedGzip}},
		{name: "slower than the deadline", fault: &fault{match: faultTxt, serve: stall}, deadline: 500 * time.Millisecond,
			fails: wantIs(context.DeadlineExceeded)},
		{name: "malformed XML in submission text", fault: &fault{match: faultTxt, serve: edit(brokenXML)}, fails: wantParseError(faultTxt)},
		{name: "malformed cover XML", filings: true, fault: &fault{match: faultCover, serve: edit(brokenXML)}, fails: wantParseError(faultCover)},
		{name: "submissions JSON missing a column", fault: &fault{match: faultList, serve: edit(missing)}, fails: wantParseError(faultList)},
		{name: "submissions JSON arrays of unequal length", fault: &fault{match: faultList, serve: edit(unequal)}, fails: wantParseError(faultList)},
		{name: "submissions JSON cut short", fault: &fault{match: faultList, serve: edit(func(b []byte) []byte { return b[:len(b)/2] })},
			fails: wantParseError(faultList)},
		{name: "404 for one filing document", fault: &fault{match: faultTxt, serve: status(404)}, fails: wantFetchError(404, edgar13f.ErrNotFound)},
		{name: "404 for the filing list", fault: &fault{match: faultList, serve: status(404)}, fails: wantIs(edgar13f.ErrUnknownCIK)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newFakeEDGAR(t, tt.fault)
			var opts []edgar13f.ClientOption
			if tt.policy != (edgar13f.RetryPolicy{}) {
				opts = append(opts, edgar13f.WithRetryPolicy(tt.policy))
			}
			c := e.client(t, "", opts...)
			query := func(ctx context.Context) (any, error) {
				if tt.filings {
					return c.Filings(ctx, faultCIK, faultAsOf, edgar13f.ForPeriod(faultPeriod))
				}
				return c.Holdings(ctx, faultCIK, faultPeriod, faultAsOf)
			}
			var want any = wantSnap
			if tt.filings {
				want = wantFilings
			}
			deadline := tt.deadline
			if deadline == 0 {
				deadline = 20 * time.Second
			}
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			start := time.Now()
			got, err := query(ctx)
			elapsed := time.Since(start)
			cancel()
			if elapsed > deadline+time.Second {
				t.Errorf("call took %v, deadline %v", elapsed, deadline)
			}
			if tt.fails == nil {
				if err != nil {
					t.Fatalf("call failed: %v", err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("answer under fault (-want +got):\n%s", diff)
				}
				if elapsed < tt.minTime {
					t.Errorf("call took %v, want at least %v (Retry-After)", elapsed, tt.minTime)
				}
				if n := e.count(tt.fault.match); n != tt.fault.times+1 {
					t.Errorf("%d requests for %s, want %d", n, tt.fault.match, tt.fault.times+1)
				}
			} else {
				if msg := tt.fails(err); msg != "" {
					t.Fatalf("call returned %v; %s", err, msg)
				}
				t.Logf("error: %v", err)
			}
			e.setFaults()
			got, err = query(context.Background())
			if err != nil {
				t.Fatalf("after the fault cleared: %v", err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("answer after the fault cleared (-want +got):\n%s", diff)
			}
		})
	}
}

// multiGB is the size a hostile server claims or streams.
const multiGB = 5 << 30

// streamZeros writes up to n bytes of filler (as gzip when gz) until the
// client goes away.
func streamZeros(n int64, declare, gz bool) func(http.ResponseWriter, *http.Request, []byte) {
	return func(w http.ResponseWriter, r *http.Request, _ []byte) {
		if declare {
			w.Header().Set("Content-Length", strconv.FormatInt(n, 10))
		}
		var out io.Writer = w
		if gz {
			w.Header().Set("Content-Encoding", "gzip")
			zw := gzip.NewWriter(w)
			defer zw.Close()
			out = zw
		}
		w.WriteHeader(http.StatusOK)
		chunk := bytes.Repeat([]byte(" "), 64<<10)
		for sent := int64(0); sent < n; sent += int64(len(chunk)) {
			if _, err := out.Write(chunk); err != nil || r.Context().Err() != nil {
				return
			}
		}
	}
}

// bigFS is a file system holding one file of a given size made of spaces.
type bigFS struct {
	name string
	size int64
}

func (b bigFS) Open(name string) (fs.File, error) {
	if name != b.name {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return &bigFile{bigFS: b}, nil
}

type bigFile struct {
	bigFS
	off int64
}

func (f *bigFile) Stat() (fs.FileInfo, error) { return bigInfo{f.bigFS}, nil }
func (f *bigFile) Close() error               { return nil }
func (f *bigFile) Read(p []byte) (int, error) {
	if f.off >= f.size {
		return 0, io.EOF
	}
	n := int(min(int64(len(p)), f.size-f.off))
	for i := range p[:n] {
		p[i] = ' '
	}
	f.off += int64(n)
	return n, nil
}

type bigInfo struct{ bigFS }

func (i bigInfo) Name() string     { return filepath.Base(i.name) }
func (i bigInfo) Size() int64      { return i.size }
func (bigInfo) Mode() fs.FileMode  { return 0o444 }
func (bigInfo) ModTime() time.Time { return time.Time{} }
func (bigInfo) IsDir() bool        { return false }
func (bigInfo) Sys() any           { return nil }

// billionLaughs is an XML document whose entities would expand to about 3 GB.
const billionLaughs = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lollollollollollollollollollol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
`

// inXML puts hostile XML in place of the first element named tag of an XML
// document (inside a submission text file or alone).
func inXML(tag, hostile string) func([]byte) []byte {
	return func(b []byte) []byte {
		open := []byte("<" + tag)
		i := bytes.Index(b, open)
		if i < 0 {
			panic("no <" + tag + "> in document")
		}
		return slices.Concat(b[:i], []byte(hostile), b[i:])
	}
}

// TestHostileDocuments feeds documents built to exhaust memory or time; each
// is refused with a clear error (or read correctly) in bounded memory and
// time, and nothing of it stays in the cache.
func TestHostileDocuments(t *testing.T) {
	wantSnap, wantFilings := faultAnswers(t)
	deep := "<edgarSubmission>" + strings.Repeat("<a>", 200_000) + strings.Repeat("</a>", 200_000) + "</edgarSubmission>"
	deepTable := strings.Repeat("<infoTable>", 200_000)
	laughsCover := billionLaughs + "<edgarSubmission><headerData><submissionType>&lol9;</submissionType></headerData></edgarSubmission>"
	laughsRow := "<infoTable><nameOfIssuer>&lol9;</nameOfIssuer></infoTable>"
	tests := []struct {
		name     string
		filings  bool
		fault    *fault
		maxAlloc int64 // bytes allocated by the whole call
		fails    func(error) string
		requests int // requests for the faulted path, 0 = not checked
	}{
		{name: "multi-GB filing list, no length", fault: &fault{match: faultList, serve: streamZeros(multiGB, false, false)},
			maxAlloc: 400 << 20, fails: wantIs(edgar13f.ErrTooLarge), requests: 1}, // a 64 MiB limit read by doubling buffers
		{name: "multi-GB cover, gzip bomb", filings: true, fault: &fault{match: faultCover, serve: streamZeros(multiGB, false, true)},
			maxAlloc: 128 << 20, fails: wantIs(edgar13f.ErrTooLarge), requests: 1}, // 16 MiB limit
		{name: "multi-GB submission text, declared", fault: &fault{match: faultTxt, serve: streamZeros(multiGB, true, false)},
			maxAlloc: 20 << 20, fails: wantIs(edgar13f.ErrTooLarge), requests: 1},
		{name: "billion laughs cover", filings: true, fault: &fault{match: faultCover, serve: replace([]byte(laughsCover))},
			maxAlloc: 20 << 20, fails: wantParseError(faultCover)},
		{name: "billion laughs in submission text", fault: &fault{match: faultTxt, serve: edit(inXML("infoTable", laughsRow))},
			maxAlloc: 20 << 20, fails: wantParseError(faultTxt)},
		{name: "deeply nested cover", filings: true, fault: &fault{match: faultCover, serve: replace([]byte(deep))},
			maxAlloc: 200 << 20, fails: wantParseError(faultCover)},
		{name: "deeply nested information table", fault: &fault{match: faultTxt, serve: edit(inXML("infoTable", deepTable))},
			maxAlloc: 200 << 20, fails: wantParseError(faultTxt)},
		{name: "invalid UTF-8 in filing list", fault: &fault{match: faultList, serve: edit(func(b []byte) []byte {
			return bytes.Replace(b, []byte("TIMELINE"), []byte("TIME\xff\xfeLINE"), 1)
		})}, maxAlloc: 20 << 20}, // the entity name is not part of any answer
		{name: "invalid UTF-8 in information table", fault: &fault{match: faultTxt, serve: edit(func(b []byte) []byte {
			return bytes.Replace(b, []byte("<nameOfIssuer>"), []byte("<nameOfIssuer>\xff\xfe"), 1)
		})}, maxAlloc: 20 << 20, fails: wantParseError(faultTxt)},
		{name: "NUL bytes in cover", filings: true, fault: &fault{match: faultCover, serve: edit(func(b []byte) []byte {
			return bytes.Replace(b, []byte("<reportType>"), []byte("<reportType>\x00\x00"), 1)
		})}, maxAlloc: 20 << 20, fails: wantParseError(faultCover)},
		{name: "NUL bytes in information table", fault: &fault{match: faultTxt, serve: edit(func(b []byte) []byte {
			return bytes.Replace(b, []byte("<nameOfIssuer>"), []byte("<nameOfIssuer>\x00"), 1)
		})}, maxAlloc: 20 << 20, fails: wantParseError(faultTxt)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newFakeEDGAR(t, tt.fault)
			c := e.client(t, "")
			query := func(ctx context.Context) (any, error) {
				if tt.filings {
					return c.Filings(ctx, faultCIK, faultAsOf, edgar13f.ForPeriod(faultPeriod))
				}
				return c.Holdings(ctx, faultCIK, faultPeriod, faultAsOf)
			}
			var want any = wantSnap
			if tt.filings {
				want = wantFilings
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			got, err := query(ctx)
			elapsed := time.Since(start)
			runtime.ReadMemStats(&after)
			alloc := int64(after.TotalAlloc - before.TotalAlloc)
			t.Logf("%v in %v, %d MiB allocated", err, elapsed.Round(time.Millisecond), alloc>>20)
			if tt.fails == nil {
				if err != nil {
					t.Fatalf("call failed: %v", err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("answer (-want +got):\n%s", diff)
				}
			} else if msg := tt.fails(err); msg != "" {
				t.Fatalf("call returned %v; %s", err, msg)
			}
			if alloc > tt.maxAlloc {
				t.Errorf("call allocated %d MiB, want at most %d MiB", alloc>>20, tt.maxAlloc>>20)
			}
			if elapsed > 10*time.Second {
				t.Errorf("call took %v", elapsed)
			}
			if n := e.count(tt.fault.match); tt.requests != 0 && n != tt.requests {
				t.Errorf("%d requests for %s, want %d (not retried)", n, tt.fault.match, tt.requests)
			}
			e.setFaults()
			got, err = query(context.Background())
			if err != nil {
				t.Fatalf("after the fault cleared: %v", err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("answer after the fault cleared (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMirrorFetcherSizeLimits checks that MirrorFetcher refuses files over
// the limit of their kind without reading them, and reads files within it.
func TestMirrorFetcherSizeLimits(t *testing.T) {
	tests := []struct {
		url     string
		size    int64
		tooBig  bool
		maxRead int64
	}{
		{"https://www.sec.gov/Archives/edgar/data/1/000000000125000001/0000000001-25-000001.txt", multiGB, true, 0},
		{"https://data.sec.gov/submissions/CIK0000000001.json", 64<<20 + 1, true, 0},
		{"https://data.sec.gov/submissions/CIK0000000001.json", 1 << 20, false, 1 << 20},
		{"https://www.sec.gov/Archives/edgar/data/1/000000000125000001/primary_doc.xml", 16<<20 + 1, true, 0},
		{"https://www.sec.gov/Archives/edgar/data/1/000000000125000001/primary_doc.xml", 16 << 20, false, 16 << 20},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(filepath.Base(tt.url), "/", tt.size), func(t *testing.T) {
			name := strings.TrimPrefix(strings.TrimPrefix(tt.url, "https://"), "/")
			f := edgar13f.NewMirrorFetcher(bigFS{name: name, size: tt.size})
			b, err := f.Fetch(context.Background(), tt.url)
			if got := errors.Is(err, edgar13f.ErrTooLarge); got != tt.tooBig {
				t.Fatalf("Fetch: %v; ErrTooLarge %v, want %v", err, got, tt.tooBig)
			}
			if int64(len(b)) != tt.maxRead {
				t.Errorf("Fetch read %d bytes, want %d", len(b), tt.maxRead)
			}
		})
	}
}

// helperEnv selects the body of TestHelperProcess in a helper process.
const helperEnv = "EDGAR13F_TEST_HELPER"

// TestHelperProcess is the body of the helper processes that other tests
// start by running the test binary again; it does nothing in a normal run.
func TestHelperProcess(t *testing.T) {
	var err error
	switch os.Getenv(helperEnv) {
	case "":
		t.Skip("helper process for other tests")
	case "crash":
		err = crashHelper()
	case "nowrites":
		err = noWritesHelper()
	case "rate":
		err = rateHelper()
	default:
		err = fmt.Errorf("unknown helper %q", os.Getenv(helperEnv))
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		os.Exit(2)
	}
	os.Exit(0)
}

// startHelper starts the test binary as a helper of the given kind, in
// directory dir ("" for the current one).
func startHelper(t *testing.T, kind, dir string, env ...string) (*exec.Cmd, *bufio.Reader, *bytes.Buffer) {
	t.Helper()
	exe, err := filepath.Abs(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), append([]string{helperEnv + "=" + kind}, env...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, bufio.NewReader(out), &stderr
}

// crashQueries are the Holdings queries of the crash test: large real
// tables and an amendment chain.
var crashQueries = []struct{ cik, period, asOf string }{
	{"1067983", "2023-09-30", "2024-05-16"},
	{"1067983", "2023-12-31", "2024-05-16"},
	{"1067983", "2022-12-31", "2023-02-15"},
	{"9000001", "2024-12-31", "2025-04-02"},
	{"9000001", "2025-03-31", "2025-05-21"},
}

func keepAll(edgar13f.Holding) bool { return false }

// crashClient returns a Client over the mirror with its disk cache in dir,
// keeping rows under a rule of its own for round n so that every round
// writes new cache entries.
func crashClient(dir string, f edgar13f.Fetcher, n int) (*edgar13f.Client, error) {
	return edgar13f.NewClient(
		edgar13f.WithFetcher(f),
		edgar13f.WithCacheDir(dir),
		edgar13f.WithClock(edgar13f.ClockFunc(func() time.Time { return fixedNow })),
		edgar13f.WithRedactionRule(fmt.Sprint("crash-", n), keepAll),
	)
}

// crashHelper answers the crash queries round after round, printing the
// number of each round it completes, until it is killed.
func crashHelper() error {
	fsys, err := edgar13f.MirrorDir(mirrorDir)
	if err != nil {
		return err
	}
	f := edgar13f.NewMirrorFetcher(fsys)
	for n := 0; ; n++ {
		c, err := crashClient(os.Getenv("EDGAR13F_CACHE"), f, n)
		if err != nil {
			return err
		}
		for _, q := range crashQueries {
			if _, err := c.Holdings(context.Background(), q.cik, date(q.period), date(q.asOf)); err != nil {
				return err
			}
		}
		fmt.Println(n)
	}
}

// TestCrashSafety kills a process in the middle of cache writes (SIGKILL),
// damages some of the entries it left, and checks that the next process
// answers every query correctly, refetching what it cannot trust.
func TestCrashSafety(t *testing.T) {
	ref, _ := newMirrorClient(t, edgar13f.WithRedactionRule("crash-ref", keepAll))
	var want []*edgar13f.Snapshot
	for _, q := range crashQueries {
		s, err := ref.Holdings(context.Background(), q.cik, date(q.period), date(q.asOf))
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, s)
	}
	dir := filepath.Join(t.TempDir(), "cache")
	for i, delay := range []time.Duration{0, 2, 5, 11, 23} {
		cmd, out, stderr := startHelper(t, "crash", "", "EDGAR13F_CACHE="+dir)
		first, err := out.ReadString('\n')
		if err != nil {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("helper %d: %v; stderr: %s", i, err, stderr)
		}
		time.Sleep(delay * time.Millisecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		rest, _ := io.ReadAll(out)
		cmd.Wait()
		rounds := strings.Fields(first + string(rest))
		last, _ := strconv.Atoi(rounds[len(rounds)-1])

		// Damage every third entry as a torn write would: cut it short.
		damaged := 0
		for j, p := range cacheEntries(t, dir) {
			if j%3 == 0 {
				fi, err := os.Stat(p)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.Truncate(p, fi.Size()/2); err != nil {
					t.Fatal(err)
				}
				damaged++
			}
		}
		fetches := 0
		for n := 0; n <= last+1; n++ {
			f := &countingFetcher{next: edgar13f.NewMirrorFetcher(mirrorFS(t))}
			c, err := crashClient(dir, f, n)
			if err != nil {
				t.Fatal(err)
			}
			for k, q := range crashQueries {
				got, err := c.Holdings(context.Background(), q.cik, date(q.period), date(q.asOf))
				if err != nil {
					t.Fatalf("helper %d, round %d, %v: %v", i, n, q, err)
				}
				if diff := cmp.Diff(want[k], got); diff != "" {
					t.Fatalf("helper %d, round %d, %v (-want +got):\n%s", i, n, q, diff)
				}
			}
			fetches += len(f.take())
		}
		t.Logf("helper %d killed after %d rounds; %d entries damaged; %d documents refetched", i, last+1, damaged, fetches)
	}
}

// cacheEntries lists the regular files of a cache directory other than
// temporary files and the lock file, in a fixed order.
func cacheEntries(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && !strings.HasPrefix(d.Name(), ".") && d.Name() != "request.lock" {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCacheDirPermissions checks the modes of what real queries write to
// the cache directory, and that NewClient refuses a cache directory that
// others can write to or that belongs to another user.
func TestCacheDirPermissions(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("unix permissions")
	}
	e := newFakeEDGAR(t)
	dir := filepath.Join(t.TempDir(), "new", "cache")
	c := e.client(t, dir)
	if _, err := c.Holdings(context.Background(), faultCIK, faultPeriod, faultAsOf); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Filings(context.Background(), faultCIK, faultAsOf); err != nil {
		t.Fatal(err)
	}
	modes := map[fs.FileMode]int{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		modes[fi.Mode()]++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for m := range modes {
		if m != fs.ModeDir|0o700 && m != 0o600 {
			t.Errorf("%d cache paths have mode %v, want drwx------ or -rw-------", modes[m], m)
		}
	}
	if modes[0o600] < 5 {
		t.Errorf("only %d files in the cache after the queries: %v", modes[0o600], modes)
	}

	tests := []struct {
		name  string
		setup func(p string) error
		want  string
	}{
		{"world-writable", func(p string) error { return os.Chmod(p, 0o777) }, "world-writable cache directory "},
		{"world-writable sticky", func(p string) error { return os.Chmod(p, 0o777|fs.ModeSticky) }, "world-writable cache directory "},
		{"owned by another user", func(p string) error { return os.Chown(p, 65534, 65534) }, "owned by uid 65534"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "cache")
			if err := os.Mkdir(p, 0o700); err != nil {
				t.Fatal(err)
			}
			want := tt.want
			if want == "owned by uid 65534" && os.Getuid() != 0 {
				p, want = "/", "owned by uid 0" // only root can give a directory away
			} else if err := tt.setup(p); err != nil {
				t.Fatal(err)
			}
			c, err := edgar13f.NewClient(edgar13f.WithCacheDir(p), edgar13f.WithUserAgent(testUserAgent))
			if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), p) {
				t.Fatalf("NewClient = %v, %v; want an error naming %s and %q", c, err, p, want)
			}
			t.Logf("refused: %v", err)
		})
	}
}

// noWritesHelper runs queries with the default cache directory against a
// mirror served in-process; with EDGAR13F_STRAY set it also writes that
// file, a planted stray write the check must catch.
func noWritesHelper() error {
	fsys, err := edgar13f.MirrorDir(os.Getenv("EDGAR13F_MIRROR"))
	if err != nil {
		return err
	}
	srv := httptest.NewServer(edgar13f.MirrorHandler(fsys))
	defer srv.Close()
	c, err := edgar13f.NewClient(
		edgar13f.WithUserAgent(testUserAgent),
		edgar13f.WithBaseURL(srv.URL),
		edgar13f.WithRequestInterval(101*time.Millisecond),
		edgar13f.WithClock(edgar13f.ClockFunc(func() time.Time { return fixedNow })),
	)
	if err != nil {
		return err
	}
	ctx := context.Background()
	if _, err := c.Holdings(ctx, faultCIK, faultPeriod, faultAsOf); err != nil {
		return err
	}
	if _, err := c.Filings(ctx, faultCIK, faultAsOf); err != nil {
		return err
	}
	if _, err := c.Diff(ctx, faultCIK, faultPeriod, date("2025-03-31"), date("2025-06-01")); err != nil {
		return err
	}
	if p := os.Getenv("EDGAR13F_STRAY"); p != "" {
		return os.WriteFile(p, []byte("stray"), 0o600)
	}
	return nil
}

// fileState is what a listing records of a path.
type fileState struct {
	mode    fs.FileMode
	size    int64
	modTime time.Time
}

// listTree records every path under root.
func listTree(t testing.TB, root string) map[string]fileState {
	t.Helper()
	out := map[string]fileState{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		st := fileState{mode: fi.Mode()}
		if !fi.IsDir() { // a directory's size and time change with its entries
			st.size, st.modTime = fi.Size(), fi.ModTime()
		}
		out[p] = st
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// changesOutside returns the sorted paths created, changed or removed
// between two listings that are not inside allowed.
func changesOutside(before, after map[string]fileState, allowed string) []string {
	var out []string
	inside := func(p string) bool { return p == allowed || strings.HasPrefix(p, allowed+string(filepath.Separator)) }
	for p, st := range after {
		if old, ok := before[p]; (!ok || old != st) && !inside(p) {
			out = append(out, p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok && !inside(p) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// isolatedEnv makes fresh HOME, XDG_* and TMPDIR directories and a
// read-only working directory under root, and returns the environment that
// points at them and the working directory.
func isolatedEnv(t testing.TB, root string) (env []string, work string) {
	t.Helper()
	vars := []string{"HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR", "TMPDIR"}
	for _, v := range vars {
		d := filepath.Join(root, strings.ToLower(v))
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		env = append(env, v+"="+d)
	}
	work = filepath.Join(root, "work")
	if err := os.Mkdir(work, 0o555); err != nil {
		t.Fatal(err)
	}
	return env, work
}

// TestNoWritesOutsideCacheDir runs the library in a helper process whose
// HOME, XDG_* and TMPDIR are fresh directories and whose working directory
// is read-only, and lists every file before and after: only the cache
// directory may change. A planted stray write must be caught.
func TestNoWritesOutsideCacheDir(t *testing.T) {
	mirror, err := filepath.Abs(mirrorDir)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		stray string // file the helper writes besides its queries, relative to root
	}{
		{"library", ""},
		{"planted stray write", "home/.edgar13f-stray"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			env, work := isolatedEnv(t, root)
			cacheDir := filepath.Join(root, "xdg_cache_home", "edgar13f")
			var want []string
			env = append(env, "EDGAR13F_MIRROR="+mirror)
			if tt.stray != "" {
				want = []string{filepath.Join(root, filepath.FromSlash(tt.stray))}
				env = append(env, "EDGAR13F_STRAY="+want[0])
			}
			before := listTree(t, root)
			cmd, out, stderr := startHelper(t, "nowrites", work, env...)
			io.Copy(io.Discard, out)
			if err := cmd.Wait(); err != nil {
				t.Fatalf("helper: %v; stderr: %s", err, stderr)
			}
			after := listTree(t, root)
			if diff := cmp.Diff(want, changesOutside(before, after, cacheDir)); diff != "" {
				t.Errorf("paths changed outside the cache directory (-want +got):\n%s", diff)
			}
			if n := len(changesOutside(before, after, filepath.Join(root, "nowhere"))); n < 10 {
				t.Errorf("only %d paths changed in all; the helper did not use the default cache directory", n)
			}
		})
	}
}
