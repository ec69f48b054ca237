package edgar13f_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f"
)

const mirrorDir = "testdata/mirror"

// testUserAgent identifies the tests; they never reach sec.gov.
const testUserAgent = "edgar13f tests test@example.com"

// fixedNow is late enough that every cached filing list in the mirror counts
// as fresh for every asOf the tests ask about.
var fixedNow = time.Date(2026, time.December, 1, 12, 0, 0, 0, time.UTC)

func mirrorFS(t testing.TB) fs.FS {
	t.Helper()
	fsys, err := edgar13f.MirrorDir(mirrorDir)
	if err != nil {
		t.Fatal(err)
	}
	return fsys
}

// countingFetcher wraps a Fetcher and records every URL fetched.
type countingFetcher struct {
	next edgar13f.Fetcher
	mu   sync.Mutex
	urls []string
}

func (f *countingFetcher) Fetch(ctx context.Context, url string) ([]byte, error) {
	f.mu.Lock()
	f.urls = append(f.urls, url)
	f.mu.Unlock()
	return f.next.Fetch(ctx, url)
}

func (f *countingFetcher) take() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	u := f.urls
	f.urls = nil
	return u
}

// memCache is an in-memory Cache.
type memCache struct {
	mu sync.Mutex
	m  map[string][]byte
}

func newMemCache() *memCache { return &memCache{m: map[string][]byte{}} }

func (c *memCache) Get(_ context.Context, key string) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.m[key]
	if !ok {
		return nil, edgar13f.ErrCacheMiss
	}
	return slices.Clone(b), nil
}

func (c *memCache) Put(_ context.Context, key string, data []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[key] = slices.Clone(data)
	return nil
}

// newMirrorClient returns a Client reading the recorded mirror directly, and
// the fetcher that counts its requests.
func newMirrorClient(t testing.TB, opts ...edgar13f.ClientOption) (*edgar13f.Client, *countingFetcher) {
	t.Helper()
	f := &countingFetcher{next: edgar13f.NewMirrorFetcher(mirrorFS(t))}
	all := append([]edgar13f.ClientOption{
		edgar13f.WithFetcher(f),
		edgar13f.WithCache(newMemCache()),
		edgar13f.WithClock(edgar13f.ClockFunc(func() time.Time { return fixedNow })),
	}, opts...)
	c, err := edgar13f.NewClient(all...)
	if err != nil {
		t.Fatal(err)
	}
	return c, f
}

// httpMirror serves the recorded mirror over HTTP and records every request.
type httpMirror struct {
	srv      *httptest.Server
	mu       sync.Mutex
	requests []*http.Request
}

func (m *httpMirror) paths() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for _, r := range m.requests {
		out = append(out, r.URL.Path)
	}
	return out
}

func (m *httpMirror) reset() {
	m.mu.Lock()
	m.requests = nil
	m.mu.Unlock()
}

// newHTTPClient returns a Client that goes through the real HTTP fetcher
// (User-Agent, spacing, retries) to an httptest server serving the mirror,
// with a disk cache in a temporary directory.
func newHTTPClient(t testing.TB, opts ...edgar13f.ClientOption) (*edgar13f.Client, *httpMirror) {
	t.Helper()
	m := &httpMirror{}
	h := edgar13f.MirrorHandler(mirrorFS(t))
	m.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.mu.Lock()
		m.requests = append(m.requests, r.Clone(context.Background()))
		m.mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(m.srv.Close)
	all := append([]edgar13f.ClientOption{
		edgar13f.WithUserAgent(testUserAgent),
		edgar13f.WithBaseURL(m.srv.URL),
		edgar13f.WithCacheDir(t.TempDir()),
		edgar13f.WithRequestInterval(101 * time.Millisecond),
		edgar13f.WithClock(edgar13f.ClockFunc(func() time.Time { return fixedNow })),
	}, opts...)
	c, err := edgar13f.NewClient(all...)
	if err != nil {
		t.Fatal(err)
	}
	return c, m
}

func date(s string) edgar13f.Date { return edgar13f.MustParseDate(s) }

func reasonOf(err error) edgar13f.Reason {
	var d *edgar13f.DeclineError
	if errors.As(err, &d) {
		return d.Reason
	}
	return ""
}

// scenario is one expectation of testdata/SCENARIOS.md.
type scenario struct {
	line     int
	op       string // "Filings" or "Holdings"
	cik      string
	period   string // Holdings only
	asOf     string
	decline  string   // reason, or "" for an answer
	accs     []string // Filings: visible accessions in order
	base     string
	supps    []string
	rows     int // -1 when the mirror has no table
	valueSum int64
}

var headingRE = regexp.MustCompile(`^### (Filings|Holdings)\((\d+)(?:, (\d{4}-\d{2}-\d{2}))?, asOf\)$`)

// readScenarios parses the expectation tables of testdata/SCENARIOS.md.
// They were computed by the mirror generator from its own data, apart from
// the library's code.
func readScenarios(t *testing.T) []scenario {
	t.Helper()
	f, err := os.Open("testdata/SCENARIOS.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []scenario
	var op, cik, period string
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if m := headingRE.FindStringSubmatch(line); m != nil {
			op, cik, period = m[1], m[2], m[3]
			continue
		}
		if strings.HasPrefix(line, "#") {
			op = ""
			continue
		}
		if op == "" || !strings.HasPrefix(line, "| 2") && !strings.HasPrefix(line, "| 1") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		s := scenario{line: n, op: op, cik: cik, period: period, asOf: cells[0], rows: -1}
		answer := cells[1]
		if r, ok := strings.CutPrefix(answer, "decline "); ok {
			s.decline = r
			out = append(out, s)
			continue
		}
		switch op {
		case "Filings":
			_, list, _ := strings.Cut(answer, ": ")
			s.accs = strings.Split(list, ", ")
		case "Holdings":
			s.base = cells[2]
			if cells[3] != "none" {
				s.supps = strings.Split(cells[3], ", ")
			}
			if r, err := strconv.Atoi(cells[4]); err == nil {
				s.rows = r
				if s.valueSum, err = strconv.ParseInt(cells[5], 10, 64); err != nil {
					t.Fatalf("SCENARIOS.md:%d: value sum %q", n, cells[5])
				}
			}
		}
		out = append(out, s)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestScenarios checks every expectation of testdata/SCENARIOS.md: each
// synthetic and real (Berkshire) timeline asked the day before, the day of
// and the day after every filing, with the exact accessions, row counts and
// value sums. Redaction is off so that rows are counted as filed.
func TestScenarios(t *testing.T) {
	scenarios := readScenarios(t)
	if len(scenarios) < 150 {
		t.Fatalf("read only %d scenarios from SCENARIOS.md", len(scenarios))
	}
	ctx := context.Background()
	// One client with a shared cache, one without: both must agree with the
	// expectations, so warm answers equal cold ones.
	warm, _ := newMirrorClient(t, edgar13f.WithRedaction(false))
	cold, _ := newMirrorClient(t, edgar13f.WithRedaction(false), edgar13f.WithCache(nil))
	for _, s := range scenarios {
		name := fmt.Sprintf("%s/%s/%s/%s", s.op, s.cik, s.period, s.asOf)
		t.Run(name, func(t *testing.T) {
			for _, c := range []*edgar13f.Client{cold, warm} {
				switch s.op {
				case "Filings":
					fs, err := c.Filings(ctx, s.cik, date(s.asOf))
					if s.decline != "" {
						if got := reasonOf(err); string(got) != s.decline {
							t.Fatalf("SCENARIOS.md:%d: Filings(%s, %s) = %v; want decline %s", s.line, s.cik, s.asOf, err, s.decline)
						}
						return
					}
					if err != nil {
						t.Fatalf("SCENARIOS.md:%d: Filings(%s, %s): %v", s.line, s.cik, s.asOf, err)
					}
					var got []string
					for _, f := range fs {
						got = append(got, f.Accession)
					}
					if diff := cmp.Diff(s.accs, got); diff != "" {
						t.Errorf("SCENARIOS.md:%d: Filings(%s, %s) mismatch (-want +got):\n%s", s.line, s.cik, s.asOf, diff)
					}
				case "Holdings":
					snap, err := c.Holdings(ctx, s.cik, date(s.period), date(s.asOf))
					if s.decline != "" {
						if got := reasonOf(err); string(got) != s.decline {
							t.Fatalf("SCENARIOS.md:%d: Holdings(%s, %s, asOf=%s) = %v; want decline %s", s.line, s.cik, s.period, s.asOf, err, s.decline)
						}
						return
					}
					if s.rows < 0 {
						// The mirror has no table for this filing: the answer
						// must fail for want of the document, not decline.
						if !errors.Is(err, edgar13f.ErrNotFound) {
							t.Fatalf("SCENARIOS.md:%d: Holdings(%s, %s, asOf=%s) = %v; want a not-found error", s.line, s.cik, s.period, s.asOf, err)
						}
						return
					}
					if err != nil {
						t.Fatalf("SCENARIOS.md:%d: Holdings(%s, %s, asOf=%s): %v", s.line, s.cik, s.period, s.asOf, err)
					}
					checkSnapshot(t, s, snap)
				}
			}
		})
	}
}

func checkSnapshot(t *testing.T, s scenario, snap *edgar13f.Snapshot) {
	t.Helper()
	var sources []string
	for _, c := range snap.Sources {
		sources = append(sources, c.Accession)
	}
	want := append([]string{s.base}, s.supps...)
	if diff := cmp.Diff(want, sources); diff != "" {
		t.Errorf("SCENARIOS.md:%d: Holdings(%s, %s, asOf=%s) sources mismatch (-want +got):\n%s", s.line, s.cik, s.period, s.asOf, diff)
	}
	if snap.Base.Accession != s.base {
		t.Errorf("SCENARIOS.md:%d: base = %s; want %s", s.line, snap.Base.Accession, s.base)
	}
	var sum int64
	inSources := map[string]edgar13f.Citation{}
	for _, c := range snap.Sources {
		inSources[c.Accession] = c
		if c.FilingDate.After(date(s.asOf)) {
			t.Errorf("SCENARIOS.md:%d: LEAK: source %s filed %s after asOf %s", s.line, c.Accession, c.FilingDate, s.asOf)
		}
		wantURL := fmt.Sprintf("https://www.sec.gov/Archives/edgar/data/%s/%s/%s-index.htm", s.cik, strings.ReplaceAll(c.Accession, "-", ""), c.Accession)
		if c.URL != wantURL {
			t.Errorf("citation URL = %s; want %s", c.URL, wantURL)
		}
	}
	lastSource := -1
	for _, h := range snap.Holdings {
		sum += h.Value
		c, ok := inSources[h.Accession]
		if !ok {
			t.Fatalf("SCENARIOS.md:%d: row cites %s, not a source", s.line, h.Accession)
		}
		if h.FilingDate != c.FilingDate {
			t.Errorf("row filing date %s; its source's is %s", h.FilingDate, c.FilingDate)
		}
		i := slices.Index(sources, h.Accession)
		if i < lastSource {
			t.Errorf("SCENARIOS.md:%d: rows are not in source order (base first)", s.line)
		}
		lastSource = i
	}
	if len(snap.Holdings) != s.rows || sum != s.valueSum {
		t.Errorf("SCENARIOS.md:%d: Holdings(%s, %s, asOf=%s) = %d rows summing %d; want %d rows summing %d",
			s.line, s.cik, s.period, s.asOf, len(snap.Holdings), sum, s.rows, s.valueSum)
	}
	if snap.CIK != strings.TrimLeft(s.cik, "0") || snap.Period != date(s.period) || snap.AsOf != date(s.asOf) {
		t.Errorf("snapshot echo: cik=%s period=%s asOf=%s", snap.CIK, snap.Period, snap.AsOf)
	}
}
