package edgar13f_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/edgartest"
	"github.com/edgar13f/edgar13f/internal/fullindex"
	"github.com/edgar13f/edgar13f/internal/nameindex"
	"github.com/edgar13f/edgar13f/mirror"
)

// findNow is the clock of the find tests: in 2026 Q4, so that a cold build
// asks for the name file and the 136 quarters 1993Q1-2026Q4 (the mirror
// holds 2019Q1-2026Q3; the others are 404s).
var findNow = time.Date(2026, time.December, 1, 12, 0, 0, 0, time.UTC)

const findColdRequests = 1 + 136

// findClock is a settable test clock.
type findClock struct{ t atomic.Pointer[time.Time] }

func newFindClock(t time.Time) *findClock {
	c := &findClock{}
	c.set(t)
	return c
}

func (c *findClock) Now() time.Time  { return *c.t.Load() }
func (c *findClock) set(t time.Time) { c.t.Store(&t) }

// newFindFetcher returns a fetcher of the mirror that records the URLs
// asked for, passing the mirror's source on, so that Clients on the same
// cache share what was read through it.
func newFindFetcher(t testing.TB) *edgartest.CountingFetcher {
	t.Helper()
	return &edgartest.CountingFetcher{Next: mirror.NewFetcher(edgartest.MirrorFS(t))}
}

func newFindClient(t testing.TB, f edgar13f.Fetcher, dir string, clock edgar13f.Clock) *edgar13f.Client {
	t.Helper()
	c, err := edgar13f.NewClient(edgar13f.WithFetcher(f), edgar13f.WithCacheDir(dir), edgar13f.WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestFindManager(t *testing.T) {
	c := newFindClient(t, newFindFetcher(t), t.TempDir(), newFindClock(findNow))
	berkshire := edgar13f.Manager{CIK: "1067983", Name: "BERKSHIRE HATHAWAY INC", Has13F: true}
	tests := []struct {
		name  string
		query string
		opts  []edgar13f.FindOption
		want  []edgar13f.Manager
	}{
		{
			name:  "13F filers first, then the bank that shares the word",
			query: "berkshire",
			want: []edgar13f.Manager{
				{CIK: "9000015", Name: "BERKSHIRE CAPITAL HOLDINGS INC", Has13F: true},
				berkshire,
				{CIK: "9000011", Name: "BERKSHIRE HILLS BANCORP INC"},
			},
		},
		{name: "case and white space", query: "  Berkshire   HATHAWAY ", want: []edgar13f.Manager{berkshire}},
		{name: "former name finds the current one", query: "new bkh", want: []edgar13f.Manager{berkshire}},
		{
			name:  "shared word: 13F filers by name, then the builder",
			query: "hathaway",
			want: []edgar13f.Manager{
				berkshire,
				{CIK: "9000014", Name: "SPRUCE HATHAWAY CAPITAL LLC", Has13F: true},
				{CIK: "9000012", Name: "HATHAWAY DINWIDDIE CONSTRUCTION CO"},
			},
		},
		{name: "limit", query: "hathaway", opts: []edgar13f.FindOption{edgar13f.Limit(1)}, want: []edgar13f.Manager{berkshire}},
		{
			name:  "name of the latest 13F row, not the first name of the lookup file",
			query: "alder hathaway",
			want:  []edgar13f.Manager{{CIK: "9000014", Name: "SPRUCE HATHAWAY CAPITAL LLC", Has13F: true}},
		},
		{
			name:  "no 13F: the first name of the lookup file; two matching names, one answer",
			query: "dinwiddie construction",
			want:  []edgar13f.Manager{{CIK: "9000012", Name: "HATHAWAY DINWIDDIE CONSTRUCTION CO"}},
		},
		{
			name:  "FiledBy the day before the first 13F",
			query: "fresh start",
			opts:  []edgar13f.FindOption{edgar13f.FiledBy(edgar13f.MustParseDate("2025-05-14"))},
			want:  []edgar13f.Manager{{CIK: "9000003", Name: "FRESH START ADVISORS LP"}},
		},
		{
			name:  "FiledBy the day of the first 13F",
			query: "fresh start",
			opts:  []edgar13f.FindOption{edgar13f.FiledBy(edgar13f.MustParseDate("2025-05-15"))},
			want:  []edgar13f.Manager{{CIK: "9000003", Name: "FRESH START ADVISORS LP", Has13F: true}},
		},
		{
			name:  "FiledBy before every 13F in the mirror: all by name",
			query: "berkshire",
			opts:  []edgar13f.FindOption{edgar13f.FiledBy(edgar13f.MustParseDate("2019-02-13"))},
			want: []edgar13f.Manager{
				{CIK: "9000015", Name: "BERKSHIRE CAPITAL HOLDINGS INC"},
				{CIK: "1067983", Name: "BERKSHIRE HATHAWAY INC"},
				{CIK: "9000011", Name: "BERKSHIRE HILLS BANCORP INC"},
			},
		},
		{
			name:  "FiledBy between two first filings",
			query: "berkshire",
			opts:  []edgar13f.FindOption{edgar13f.FiledBy(edgar13f.MustParseDate("2025-08-13")), edgar13f.Limit(20)},
			want: []edgar13f.Manager{
				berkshire,
				{CIK: "9000015", Name: "BERKSHIRE CAPITAL HOLDINGS INC"},
				{CIK: "9000011", Name: "BERKSHIRE HILLS BANCORP INC"},
			},
		},
		{
			name:  "real 13F-HR/A row of 2020-03-18, day before",
			query: "macquarie",
			opts:  []edgar13f.FindOption{edgar13f.FiledBy(edgar13f.MustParseDate("2020-03-17"))},
			want:  []edgar13f.Manager{{CIK: "1418333", Name: "MACQUARIE GROUP LTD"}},
		},
		{
			name:  "real 13F-HR/A row of 2020-03-18, that day",
			query: "macquarie",
			opts:  []edgar13f.FindOption{edgar13f.FiledBy(edgar13f.MustParseDate("2020-03-18"))},
			want:  []edgar13f.Manager{{CIK: "1418333", Name: "MACQUARIE GROUP LTD", Has13F: true}},
		},
		{name: "Latin-1 name decoded", query: "LÉMAN", want: []edgar13f.Manager{{CIK: "9000013", Name: "GESTION PRIVÉE DU LÉMAN SA", Has13F: true}}},
		{
			name:  "same name: CIK in numeric order",
			query: "common name trust",
			want:  []edgar13f.Manager{{CIK: "9000020", Name: "COMMON NAME TRUST"}, {CIK: "10000021", Name: "COMMON NAME TRUST"}},
		},
		{name: "colons in a name", query: "ratio: 1:2", want: []edgar13f.Manager{{CIK: "9000017", Name: "RATIO: 1:2 FUND LP"}}},
		{
			name:  "13F-NT filer whose name fills its column",
			query: "northern lights",
			want:  []edgar13f.Manager{{CIK: "9000016", Name: "NORTHERN LIGHTS INVESTMENTS MANAGEMENT & RESEARCH PARTNERS LLC", Has13F: true}},
		},
		{name: "notice filer counts as a 13F filer", query: "buffett", want: []edgar13f.Manager{{CIK: "315090", Name: "BUFFETT WARREN E", Has13F: true}}},
		{name: "non-13F entity", query: "carbo", want: []edgar13f.Manager{{CIK: "1009672", Name: "CARBO CERAMICS INC"}}},
		{name: "no match", query: "no such manager", want: []edgar13f.Manager{}},
		{name: "no match across two names", query: "inc\nnew", want: []edgar13f.Manager{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := c.FindManager(context.Background(), tt.query, tt.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("FindManager(%q) (-want +got):\n%s", tt.query, diff)
			}
		})
	}
}

func TestFindManagerDeclines(t *testing.T) {
	f := newFindFetcher(t)
	c := newFindClient(t, f, t.TempDir(), newFindClock(findNow))
	tests := []struct {
		name  string
		query string
		opts  []edgar13f.FindOption
		msg   string
	}{
		{"too short", "ab", nil, "name must be 3 to 100 characters, not 2"},
		{"too short once trimmed", "  ab \t", nil, "name must be 3 to 100 characters, not 2"},
		{"too long", strings.Repeat("é", 101), nil, "name must be 3 to 100 characters, not 101"},
		{"not UTF-8", "ab\xff", nil, "name must be 3 to 100 characters, not 3"},
		{"invalid date", "berkshire", []edgar13f.FindOption{edgar13f.FiledBy(edgar13f.Date{2023, time.February, 30})}, "FiledBy date 2023-02-30 is not a valid date"},
		{"zero date", "berkshire", []edgar13f.FindOption{edgar13f.FiledBy(edgar13f.Date{})}, "FiledBy date 0000-00-00 is not a valid date"},
		{"limit 0", "berkshire", []edgar13f.FindOption{edgar13f.Limit(0)}, "Limit 0 is outside 1 to 20"},
		{"limit 21", "berkshire", []edgar13f.FindOption{edgar13f.Limit(21)}, "Limit 21 is outside 1 to 20"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.FindManager(context.Background(), tt.query, tt.opts...)
			var d *edgar13f.DeclineError
			if !errors.As(err, &d) || !errors.Is(err, edgar13f.InvalidArgument) {
				t.Fatalf("err = %v, want an invalid_argument decline", err)
			}
			if d.Message != tt.msg {
				t.Errorf("message = %q, want %q", d.Message, tt.msg)
			}
		})
	}
	if urls := f.Take(); len(urls) != 0 {
		t.Errorf("declines made %d requests", len(urls))
	}
}

// progressLog records progress reports.
type progressLog struct {
	mu sync.Mutex
	ps []edgar13f.Progress
}

func (l *progressLog) add(p edgar13f.Progress) {
	l.mu.Lock()
	l.ps = append(l.ps, p)
	l.mu.Unlock()
}

// summary condenses a build's reports: the first, the last and how many.
func (l *progressLog) summary() []edgar13f.Progress {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.ps) == 0 {
		return nil
	}
	return []edgar13f.Progress{l.ps[0], l.ps[len(l.ps)-1], {Stage: "count", Done: int64(len(l.ps))}}
}

func TestFindManagerColdWarm(t *testing.T) {
	f := newFindFetcher(t)
	dir := t.TempDir()
	clock := newFindClock(findNow)
	first := newFindClient(t, f, dir, clock)
	second := newFindClient(t, f, dir, clock)
	// names 0/1 and 1/1, quarters 0..136, index 0/1 and 1/1
	cold := []edgar13f.Progress{{Stage: "names", Total: 1}, {Stage: "index", Done: 1, Total: 1}, {Stage: "count", Done: 2 + 137 + 2}}
	tests := []struct {
		name     string
		c        *edgar13f.Client
		requests int
		progress []edgar13f.Progress
	}{
		{"cold", first, findColdRequests, cold},
		{"warm, same client", first, 0, nil},
		{"warm, new client on the same cache directory", second, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var log progressLog
			got, err := tt.c.FindManager(context.Background(), "bkh", edgar13f.ReportProgress(log.add))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]edgar13f.Manager{{CIK: "1067983", Name: "BERKSHIRE HATHAWAY INC", Has13F: true}}, got); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
			if n := len(f.Take()); n != tt.requests {
				t.Errorf("%d requests, want %d", n, tt.requests)
			}
			if diff := cmp.Diff(tt.progress, log.summary()); diff != "" {
				t.Errorf("progress (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFindManagerRefresh(t *testing.T) {
	f := newFindFetcher(t)
	clock := newFindClock(findNow)
	c := newFindClient(t, f, t.TempDir(), clock)
	const names = edgar13f.CIKLookupURL
	q := fullIndexURL
	tests := []struct {
		name string
		now  time.Time
		want []string // requests, sorted; nil: none
	}{
		{"a day less a minute later: all fresh", findNow.Add(24*time.Hour - time.Minute), nil},
		{"a day later: names and the current quarter", findNow.Add(24 * time.Hour), []string{names, q(2026, 4)}},
		{"last day of the quarter: the same again", time.Date(2026, 12, 31, 12, 0, 0, 0, time.UTC), []string{names, q(2026, 4)}},
		{"new quarter: only the new quarter", time.Date(2027, 1, 1, 6, 0, 0, 0, time.UTC), []string{q(2027, 1)}},
		{"two days after the quarter end: names, the last quarter (now final), the current one", time.Date(2027, 1, 2, 13, 0, 0, 0, time.UTC), []string{names, q(2026, 4), q(2027, 1)}},
		{"an hour later: nothing", time.Date(2027, 1, 2, 14, 0, 0, 0, time.UTC), nil},
		{"a day later: the final quarter stays cached", time.Date(2027, 1, 3, 14, 0, 0, 0, time.UTC), []string{names, q(2027, 1)}},
	}
	if _, err := c.FindManager(context.Background(), "berkshire"); err != nil {
		t.Fatal(err)
	}
	if n := len(f.Take()); n != findColdRequests {
		t.Fatalf("cold build made %d requests, want %d", n, findColdRequests)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock.set(tt.now)
			got, err := c.FindManager(context.Background(), "bkh")
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0].CIK != "1067983" {
				t.Errorf("answer = %v", got)
			}
			urls := f.Take()
			slices.Sort(urls)
			if diff := cmp.Diff(tt.want, urls); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
		})
	}
}

// countingTransport counts requests and the (compressed) body bytes read.
type countingTransport struct {
	requests, bytes atomic.Int64
}

func (t *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	t.requests.Add(1)
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err == nil {
		resp.Body = &countingBody{ReadCloser: resp.Body, n: &t.bytes}
	}
	return resp, err
}

type countingBody struct {
	io.ReadCloser
	n *atomic.Int64
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n.Add(int64(n))
	return n, err
}

// TestFindManagerHTTP builds the index through the Client's real HTTP path
// (User-Agent, spacing of 101ms, gzip, prefix reads) against the mirror
// served by httptest: about 14 s for the cold build.
func TestFindManagerHTTP(t *testing.T) {
	if testing.Short() {
		t.Skip("cold build over HTTP takes about 14 s")
	}
	srv := edgartest.NewServer(t)
	dir := t.TempDir()
	tr := &countingTransport{}
	newClient := func() *edgar13f.Client {
		c, err := edgar13f.NewClient(edgar13f.WithUserAgent("edgar13f tests test@example.com"), edgar13f.WithBaseURL(srv.URL()),
			edgar13f.WithCacheDir(dir), edgar13f.WithClock(newFindClock(findNow)), edgar13f.WithRequestInterval(101*time.Millisecond),
			edgar13f.WithHTTPClient(&http.Client{Transport: tr}))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	c := newClient()

	// The 2020Q1 file holds real rows after its 13F block: a prefix read
	// stops after the first of them.
	url := fullIndexURL(2020, 1)
	whole, err := os.ReadFile(filepath.Join(edgartest.MirrorDir, "www.sec.gov/Archives/edgar/full-index/2020/QTR1/form.idx"))
	if err != nil {
		t.Fatal(err)
	}
	prefix, err := c.EDGAR().FetchPrefix(context.Background(), url, fullindex.Enough)
	if err != nil {
		t.Fatal(err)
	}
	wantRows, _ := fullindex.Parse(whole)
	gotRows, err := fullindex.Parse(prefix)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantRows, gotRows); diff != "" {
		t.Errorf("prefix rows (-whole +prefix):\n%s", diff)
	}
	if len(prefix) >= len(whole)/2 {
		t.Errorf("read %d of %d bytes of %s, want less than half", len(prefix), len(whole), url)
	}
	t.Logf("%s: read %d of %d bytes (decompressed)", url, len(prefix), len(whole))
	tr.requests.Store(0)
	tr.bytes.Store(0)

	for _, step := range []struct {
		name     string
		c        *edgar13f.Client
		requests int64
	}{
		{"cold", c, findColdRequests},
		{"warm, same client", c, 0},
		{"warm, new client on the same cache directory", newClient(), 0},
	} {
		start := time.Now()
		got, err := step.c.FindManager(context.Background(), "new bkh")
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].CIK != "1067983" {
			t.Errorf("%s: answer = %v", step.name, got)
		}
		if n := tr.requests.Swap(0); n != step.requests {
			t.Errorf("%s: %d requests, want %d", step.name, n, step.requests)
		}
		t.Logf("%s: %v, %d body bytes on the wire", step.name, time.Since(start), tr.bytes.Swap(0))
	}
}

func TestFindIndexEncoding(t *testing.T) {
	c := newFindClient(t, newFindFetcher(t), t.TempDir(), newFindClock(findNow))
	x, err := c.FindIndex(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	b := x.Encode()
	y, err := nameindex.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(y.Encode(), b) || !y.NamesFetched.Equal(x.NamesFetched) || y.Last != x.Last || !slices.EqualFunc(x.Pending, y.Pending, func(a, b nameindex.Pending) bool { return a.Quarter == b.Quarter && a.Fetched.Equal(b.Fetched) }) {
		t.Errorf("decode(encode(x)) differs from x")
	}
	if a, b := x.Search("berkshire", 0, 20), y.Search("berkshire", 0, 20); !slices.Equal(a, b) || len(a) == 0 {
		t.Errorf("search after decode = %v, want %v", b, a)
	}
	for _, n := range []int{0, 10, len(b) / 2, len(b) - 1} {
		if _, err := nameindex.Decode(b[:n]); err == nil {
			t.Errorf("Decode accepted %d of %d bytes", n, len(b))
		}
	}
}

func BenchmarkFindManagerWarm(b *testing.B) {
	c := newFindClient(b, newFindFetcher(b), b.TempDir(), newFindClock(findNow))
	ctx := context.Background()
	if _, err := c.FindManager(ctx, "berkshire"); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := c.FindManager(ctx, "hathaway", edgar13f.FiledBy(edgar13f.MustParseDate("2025-08-13"))); err != nil {
			b.Fatal(err)
		}
	}
}

// fullIndexURL is the URL of EDGAR's form index of quarter n of year y.
func fullIndexURL(y, n int) string {
	return fmt.Sprintf("https://www.sec.gov/Archives/edgar/full-index/%d/QTR%d/form.idx", y, n)
}
