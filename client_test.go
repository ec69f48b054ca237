package edgar13f_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/edgartest"
	"github.com/edgar13f/edgar13f/mirror"
)

func date(s string) edgar13f.Date { return edgar13f.MustParseDate(s) }

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
	warm, _ := edgartest.MirrorClient(t, edgar13f.WithRedaction(false))
	cold, _ := edgartest.MirrorClient(t, edgar13f.WithRedaction(false), edgar13f.WithCache(nil))
	for _, s := range scenarios {
		name := fmt.Sprintf("%s/%s/%s/%s", s.op, s.cik, s.period, s.asOf)
		t.Run(name, func(t *testing.T) {
			for _, c := range []*edgar13f.Client{cold, warm} {
				switch s.op {
				case "Filings":
					list, err := c.Filings(ctx, s.cik, date(s.asOf))
					if s.decline != "" {
						if got := edgartest.Reason(err); string(got) != s.decline {
							t.Fatalf("SCENARIOS.md:%d: Filings(%s, %s) = %v; want decline %s", s.line, s.cik, s.asOf, err, s.decline)
						}
						return
					}
					if err != nil {
						t.Fatalf("SCENARIOS.md:%d: Filings(%s, %s): %v", s.line, s.cik, s.asOf, err)
					}
					var got []string
					for _, f := range slices.Backward(list.Filings) { // SCENARIOS.md lists oldest first
						got = append(got, f.Accession)
					}
					if diff := cmp.Diff(s.accs, got); diff != "" {
						t.Errorf("SCENARIOS.md:%d: Filings(%s, %s) mismatch (-want +got):\n%s", s.line, s.cik, s.asOf, diff)
					}
				case "Holdings":
					snap, err := c.Holdings(ctx, s.cik, date(s.period), date(s.asOf))
					if s.decline != "" {
						if got := edgartest.Reason(err); string(got) != s.decline {
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
		if date(s.asOf).Before(c.FilingDate) {
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

func TestHoldingsRequestsAreMinimal(t *testing.T) {
	const arch = "/www.sec.gov/Archives/edgar/data/"
	tests := []struct {
		name         string
		cik, period  string
		asOf         string
		wantRequests []string
	}{
		{
			name: "original only", cik: "1067983", period: "2023-09-30", asOf: "2023-11-15",
			wantRequests: []string{
				"/data.sec.gov/submissions/CIK0001067983.json",
				arch + "1067983/000095012323010898/0000950123-23-010898.txt",
			},
		},
		{
			// Three visible filings; the original is superseded by the
			// restatement and is never read.
			name: "restatement plus new holdings", cik: "1067983", period: "2023-09-30", asOf: "2024-06-01",
			wantRequests: []string{
				"/data.sec.gov/submissions/CIK0001067983.json",
				arch + "1067983/000095012324005653/0000950123-24-005653.txt",
				arch + "1067983/000095012323011029/0000950123-23-011029.txt",
			},
		},
		{
			// Two amendments on one day: both covers are needed to order
			// them by amendment number; the original before them is not.
			name: "same-day amendments", cik: "9000001", period: "2025-03-31", asOf: "2025-05-21",
			wantRequests: []string{
				"/data.sec.gov/submissions/CIK0009000001.json",
				arch + "9000001/000900000125000006/0009000001-25-000006.txt",
				arch + "9000001/000900000125000007/0009000001-25-000007.txt",
			},
		},
		{
			name: "filing on an older page", cik: "9000004", period: "2014-03-31", asOf: "2015-01-01",
			wantRequests: []string{
				"/data.sec.gov/submissions/CIK0009000004.json",
				"/data.sec.gov/submissions/CIK0009000004-submissions-001.json",
				arch + "9000004/000900000414000001/0009000004-14-000001.txt",
			},
		},
		{
			// No 13F in the recent block and no page meets the period: the
			// rule asks, in a second round, for every page up to asOf, to
			// tell unknown_cik from not_yet_filed; the page shows a 13F, so
			// the CIK is a known filer with nothing for the period.
			name: "older page tells a known filer", cik: "9000004", period: "2024-12-31", asOf: "2025-03-01",
			wantRequests: []string{
				"/data.sec.gov/submissions/CIK0009000004.json",
				"/data.sec.gov/submissions/CIK0009000004-submissions-001.json",
			},
		},
		{
			// The period's filings are all in the recent block: the older
			// page is not read.
			name: "recent block suffices", cik: "9000001", period: "2024-12-31", asOf: "2025-03-01",
			wantRequests: []string{
				"/data.sec.gov/submissions/CIK0009000001.json",
				arch + "9000001/000900000125000002/0009000001-25-000002.txt",
				arch + "9000001/000900000125000001/0009000001-25-000001.txt",
			},
		},
		{
			name: "notice needs no document", cik: "315090", period: "2024-12-31", asOf: "2025-03-01",
			wantRequests: []string{"/data.sec.gov/submissions/CIK0000315090.json"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := edgartest.NewServer(t)
			c := e.Client(t, "")
			ctx := context.Background()
			cold, coldErr := c.Holdings(ctx, tc.cik, date(tc.period), date(tc.asOf))
			got, _ := e.Requests()
			slices.Sort(got)
			want := slices.Clone(tc.wantRequests)
			slices.Sort(want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("cold Holdings(%s, %s, asOf=%s) requests mismatch (-want +got):\n%s", tc.cik, tc.period, tc.asOf, diff)
			}
			for _, ua := range e.UserAgents() {
				if ua != edgartest.UserAgent {
					t.Errorf("a request sent User-Agent %q; want %q", ua, edgartest.UserAgent)
				}
			}
			// Warm: the same question again is answered from the cache.
			e.Reset()
			warm, warmErr := c.Holdings(ctx, tc.cik, date(tc.period), date(tc.asOf))
			if p, _ := e.Requests(); len(p) != 0 {
				t.Errorf("warm Holdings made %d requests: %q", len(p), p)
			}
			if edgartest.Reason(coldErr) != edgartest.Reason(warmErr) || (coldErr == nil) != (warmErr == nil) {
				t.Fatalf("cold err %v, warm err %v", coldErr, warmErr)
			}
			if diff := cmp.Diff(cold, warm); diff != "" {
				t.Errorf("warm answer differs from cold (-cold +warm):\n%s", diff)
			}
		})
	}
}

func TestFilingListFreshness(t *testing.T) {
	now := date("2024-05-16")
	clock := edgartest.Clock(func() time.Time {
		return time.Date(now.Year, now.Month, now.Day, 12, 0, 0, 0, time.UTC)
	})
	e := edgartest.NewServer(t)
	c := e.Client(t, "", edgar13f.WithClock(clock))
	ctx := context.Background()
	countList := func() int {
		n := e.Count("/data.sec.gov/submissions/CIK0001067983.json")
		e.Reset()
		return n
	}
	q3 := date("2023-09-30")
	// Fetched on 2024-05-16: fresh for asOf up to 2024-05-14.
	for _, tc := range []struct {
		asOf string
		want int
	}{
		{"2024-05-14", 1}, // cold
		{"2024-05-14", 0}, // fetched two days after asOf: fresh
		{"2024-01-01", 0},
		{"2024-05-15", 1}, // only one day after: must refetch
		{"2024-05-15", 1}, // and again, until two days have passed
	} {
		if _, err := c.Holdings(ctx, "1067983", q3, date(tc.asOf)); err != nil {
			t.Fatal(err)
		}
		if got := countList(); got != tc.want {
			t.Errorf("asOf %s at %s: filing list fetched %d times; want %d", tc.asOf, now, got, tc.want)
		}
	}
	// On 2024-05-17 the list fetched on 2024-05-16 is still too young for
	// asOf 2024-05-15; the one fetched now is old enough from then on.
	now = date("2024-05-17")
	for _, want := range []int{1, 0} {
		if _, err := c.Holdings(ctx, "1067983", q3, date("2024-05-15")); err != nil {
			t.Fatal(err)
		}
		if got := countList(); got != want {
			t.Errorf("asOf 2024-05-15 at %s: filing list fetched %d times; want %d", now, got, want)
		}
	}
}

// TestNoUserAgentSendsNothing: a Client that would talk HTTP without a
// plausible User-Agent ("Name email@domain") is refused at once, with an
// error naming the option to set; a Client over a Fetcher needs none.
func TestNoUserAgentSendsNothing(t *testing.T) {
	e := edgartest.NewServer(t)
	for _, ua := range []string{"", "   ", "edgar13f", "Jane Quant", "Jane Quant jane@localhost", "Jane\x00 jane@example.com"} {
		_, err := edgar13f.NewClient(edgar13f.WithUserAgent(ua), edgar13f.WithBaseURL(e.URL()), edgar13f.WithCache(nil))
		if !errors.Is(err, edgar13f.ErrNoUserAgent) {
			t.Errorf("NewClient(WithUserAgent(%q)) = %v; want an error matching ErrNoUserAgent", ua, err)
			continue
		}
		if edgartest.Reason(err) != "" {
			t.Errorf("a missing User-Agent must be an error, not a decline")
		}
		if msg := err.Error(); !strings.Contains(msg, "WithUserAgent") || strings.Count(msg, "edgar13f:") != 1 {
			t.Errorf("error %q must name WithUserAgent and carry one prefix", msg)
		}
	}
	if _, err := edgar13f.NewClient(edgar13f.WithBaseURL(e.URL()), edgar13f.WithCache(nil)); !errors.Is(err, edgar13f.ErrNoUserAgent) {
		t.Errorf("NewClient without WithUserAgent = %v; want ErrNoUserAgent", err)
	}
	if p, _ := e.Requests(); len(p) != 0 {
		t.Errorf("sent %d requests without a User-Agent", len(p))
	}
	for _, ua := range []string{edgartest.UserAgent, "jane@example.com", "Jane Quant <jane.quant@mail.example.co.uk>"} {
		if _, err := edgar13f.NewClient(edgar13f.WithUserAgent(ua), edgar13f.WithBaseURL(e.URL()), edgar13f.WithCache(nil)); err != nil {
			t.Errorf("NewClient(WithUserAgent(%q)): %v", ua, err)
		}
	}
	if _, err := edgar13f.NewClient(edgar13f.WithFetcher(mirror.NewFetcher(edgartest.MirrorFS(t))), edgar13f.WithCache(nil)); err != nil {
		t.Errorf("NewClient with a Fetcher and no User-Agent: %v", err)
	}
}

func TestDeclinesFromEDGAR(t *testing.T) {
	c, f := edgartest.MirrorClient(t)
	ctx := context.Background()
	tests := []struct {
		name         string
		call         func() error
		want         edgar13f.Reason
		wantRequests int
	}{
		{"CIK unknown to EDGAR", func() error {
			_, err := c.Holdings(ctx, "1234567", date("2023-09-30"), date("2024-01-01"))
			return err
		}, edgar13f.UnknownCIK, 1},
		{"filer with no 13F yet (only a Form D)", func() error {
			_, err := c.Holdings(ctx, "9000003", date("2025-03-31"), date("2025-05-14"))
			return err
		}, edgar13f.UnknownCIK, 1},
		{"notice only", func() error {
			_, err := c.Holdings(ctx, "9000002", date("2024-12-31"), date("2025-06-01"))
			return err
		}, edgar13f.NoticeOnly, 1},
		{"only a new-holdings amendment", func() error {
			_, err := c.Holdings(ctx, "9000002", date("2025-06-30"), date("2025-09-01"))
			return err
		}, edgar13f.NotYetFiled, 2},
		{"period after asOf", func() error {
			_, err := c.Holdings(ctx, "1067983", date("2024-12-31"), date("2024-06-01"))
			return err
		}, edgar13f.NotYetFiled, 1},
		{"bad period beats unknown CIK, nothing fetched", func() error {
			_, err := c.Holdings(ctx, "1234567", date("2023-09-29"), date("2024-01-01"))
			return err
		}, edgar13f.InvalidPeriod, 0},
		{"short positions beat unknown CIK", func() error {
			_, err := c.Holdings(ctx, "1234567", date("2023-09-30"), date("2024-01-01"), edgar13f.PositionType("short"))
			return err
		}, edgar13f.UnsupportedRequest, 0},
		{"Filings of an unknown CIK", func() error {
			_, err := c.Filings(ctx, "9000003", date("2025-01-01"))
			return err
		}, edgar13f.UnknownCIK, 1},
		// The periods are read concurrently, so B's one filing is read
		// while A declines.
		{"diff: A's decline before B's", func() error {
			_, err := c.Diff(ctx, "9000002", date("2024-12-31"), date("2025-06-30"), date("2025-09-01"))
			return err
		}, edgar13f.NoticeOnly, 2},
		{"diff: B declines when A answers", func() error {
			_, err := c.Diff(ctx, "9000002", date("2025-03-31"), date("2025-06-30"), date("2025-09-01"))
			return err
		}, edgar13f.NotYetFiled, 3},
		{"diff: B not after A", func() error {
			_, err := c.Diff(ctx, "9000002", date("2025-03-31"), date("2025-03-31"), date("2025-09-01"))
			return err
		}, edgar13f.InvalidPeriod, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, f = edgartest.MirrorClient(t) // cold, so requests can be counted
			err := tc.call()
			if got := edgartest.Reason(err); got != tc.want {
				t.Fatalf("got %v; want decline %s", err, tc.want)
			}
			if n := len(f.Take()); n != tc.wantRequests {
				t.Errorf("made %d requests; want %d", n, tc.wantRequests)
			}
		})
	}
}

// TestRedactionAppliedWhileParsing uses Bull Street's real 2022Q4 report,
// which holds SPDR S&P 500 (filed with a lower-case CUSIP) and SPDR Gold.
func TestRedactionAppliedWhileParsing(t *testing.T) {
	const cik = "1790837"
	period, asOf := date("2022-12-31"), date("2023-06-01")
	ctx := context.Background()
	cacheDir := t.TempDir()
	fetcher := mirror.NewFetcher(edgartest.MirrorFS(t))
	newClient := func(opts ...edgar13f.ClientOption) *edgar13f.Client {
		c, err := edgar13f.NewClient(append([]edgar13f.ClientOption{
			edgar13f.WithFetcher(fetcher), edgar13f.WithCacheDir(cacheDir),
			edgar13f.WithClock(edgartest.Clock(func() time.Time { return edgartest.FixedNow })),
		}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	redactedCUSIPs := []string{"78462F103", "78463V107"}
	hasRedacted := func(s *edgar13f.Snapshot) bool {
		for _, h := range s.Holdings {
			if slices.Contains(redactedCUSIPs, strings.ToUpper(h.CUSIP)) {
				return true
			}
		}
		return false
	}

	on := newClient()
	snap, err := on.Holdings(ctx, cik, period, asOf)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Holdings) != 88 || hasRedacted(snap) {
		t.Fatalf("redacted answer has %d rows (redacted rows present: %v); want 88 without them", len(snap.Holdings), hasRedacted(snap))
	}
	// Nothing of the removed rows reached the cache.
	assertCacheLacks(t, cacheDir, "SPDR", "78462f103", "78463V107")

	// A query for a removed CUSIP is an ordinary, empty answer.
	snap, err = on.Holdings(ctx, cik, period, asOf, edgar13f.CUSIPs("78462F103"))
	if err != nil || len(snap.Holdings) != 0 || snap.Base.Accession != "0001790837-23-000002" {
		t.Fatalf("Holdings(CUSIPs(SPY)) = %v, %v; want an empty answer citing the filing", snap, err)
	}

	// Opting out reads the rows, cached apart.
	off := newClient(edgar13f.WithRedaction(false))
	snap, err = off.Holdings(ctx, cik, period, asOf)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Holdings) != 90 || !hasRedacted(snap) {
		t.Fatalf("unredacted answer has %d rows; want all 90", len(snap.Holdings))
	}
	// With redaction back on (same cache directory, fresh process), the
	// unredacted entries are never served.
	again := newClient()
	snap, err = again.Holdings(ctx, cik, period, asOf)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Holdings) != 88 || hasRedacted(snap) {
		t.Fatalf("after an unredacted query, a redacting client served %d rows (redacted present: %v)", len(snap.Holdings), hasRedacted(snap))
	}
	// A custom rule has its own cache entries too.
	custom := newClient(edgar13f.WithRedactionRule("no-metlife", func(h edgar13f.Holding) bool { return strings.Contains(h.NameOfIssuer, "SPDR") }))
	snap, err = custom.Holdings(ctx, cik, period, asOf)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Holdings) != 88 {
		t.Fatalf("custom rule: %d rows; want 88", len(snap.Holdings))
	}
}

// assertCacheLacks fails if any file under dir contains one of the strings.
func assertCacheLacks(t *testing.T, dir string, needles ...string) {
	t.Helper()
	n := 0
	err := fs.WalkDir(os.DirFS(dir), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		b, err := fs.ReadFile(os.DirFS(dir), path)
		if err != nil {
			return err
		}
		for _, s := range needles {
			if strings.Contains(string(b), s) {
				t.Errorf("cache file %s contains %q", path, s)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("cache directory is empty: nothing was checked")
	}
}

func TestFilingsCoverFacts(t *testing.T) {
	c, f := edgartest.MirrorClient(t)
	ctx := context.Background()
	list, err := c.Filings(ctx, "1067983", date("2024-06-01"), edgar13f.ForPeriod(date("2023-09-30")))
	if err != nil {
		t.Fatal(err)
	}
	if list.CIK != "1067983" || list.AsOf != date("2024-06-01") || list.Period != date("2023-09-30") {
		t.Errorf("Filings answer is for %s, asOf %s, period %s", list.CIK, list.AsOf, list.Period)
	}
	got := list.Filings
	want := []edgar13f.Filing{ // oldest first, reversed below
		{Accession: "0000950123-23-010898", Form: "13F-HR", FilingDate: date("2023-11-14"), Period: date("2023-09-30"),
			ReportType: "13F HOLDINGS REPORT", ManagerName: "Berkshire Hathaway Inc", Totals: edgar13f.Totals{Stated: true, Entries: 152, Value: 313257308189},
			IndexURL: "https://www.sec.gov/Archives/edgar/data/1067983/000095012323010898/0000950123-23-010898-index.htm"},
		{Accession: "0000950123-23-011029", Form: "13F-HR/A", FilingDate: date("2023-11-16"), Period: date("2023-09-30"),
			IsAmendment: true, AmendmentNo: 1, AmendmentType: edgar13f.Restatement, ReportType: "13F HOLDINGS REPORT", ManagerName: "Berkshire Hathaway Inc",
			Totals:   edgar13f.Totals{Stated: true, Entries: 152, Value: 313257308189},
			IndexURL: "https://www.sec.gov/Archives/edgar/data/1067983/000095012323011029/0000950123-23-011029-index.htm"},
		{Accession: "0000950123-24-005653", Form: "13F-HR/A", FilingDate: date("2024-05-15"), Period: date("2023-09-30"),
			IsAmendment: true, AmendmentNo: 2, AmendmentType: edgar13f.NewHoldings, ReportType: "13F HOLDINGS REPORT", ManagerName: "Berkshire Hathaway Inc",
			Totals:   edgar13f.Totals{Stated: true, Entries: 1, Value: 1695320075},
			IndexURL: "https://www.sec.gov/Archives/edgar/data/1067983/000095012324005653/0000950123-24-005653-index.htm"},
	}
	slices.Reverse(want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Filings mismatch (-want +got):\n%s", diff)
	}
	// The list's primaryDocument names the XSL rendering
	// (xslForm13F_X02/primary_doc.xml); the raw cover is read instead.
	urls := f.Take()
	for _, u := range urls {
		if strings.Contains(u, "xslForm13F") {
			t.Errorf("fetched the HTML rendering %s", u)
		}
	}
	if len(urls) != 4 {
		t.Errorf("Filings fetched %d documents; want the list and 3 covers: %q", len(urls), urls)
	}

	// A combination report keeps its report type.
	list, err = c.Filings(ctx, "1067983", date("2023-06-01"), edgar13f.ForPeriod(date("2022-12-31")))
	if err != nil || len(list.Filings) != 1 || list.Filings[0].ReportType != "13F COMBINATION REPORT" {
		t.Errorf("2022Q4 Filings = %+v, %v; want one combination report", list, err)
	}
}

// TestVisibilityUsesFilingDateNotAcceptance: Berkshire's 2025Q1 new-holdings
// amendment 0000950123-25-008361 is dated 2025-08-14 but its
// acceptanceDateTime is 2025-08-15T00:12:31Z (20:12 in New York). It is
// visible on 2025-08-14 and not the day before.
func TestVisibilityUsesFilingDateNotAcceptance(t *testing.T) {
	c, _ := edgartest.MirrorClient(t)
	ctx := context.Background()
	for asOf, want := range map[string]bool{"2025-08-13": false, "2025-08-14": true, "2025-08-15": true} {
		list, err := c.Filings(ctx, "1067983", date(asOf), edgar13f.ForPeriod(date("2025-03-31")))
		if err != nil {
			t.Fatal(err)
		}
		found := slices.ContainsFunc(list.Filings, func(f edgar13f.Filing) bool { return f.Accession == "0000950123-25-008361" })
		if found != want {
			t.Errorf("Filings(asOf=%s) lists 0000950123-25-008361: %v; want %v", asOf, found, want)
		}
	}
}

// TestTextEraFilingsHaveNoCover: Warren Buffett's 13F-HRs of 2003-2007 are
// plain-text filings; Filings lists them from EDGAR's list without asking
// for an XML cover that does not exist.
func TestTextEraFilingsHaveNoCover(t *testing.T) {
	c, f := edgartest.MirrorClient(t)
	list, err := c.Filings(context.Background(), "315090", date("2004-01-01"))
	if err != nil {
		t.Fatal(err)
	}
	got := list.Filings
	if len(got) == 0 || got[len(got)-1].Accession != "0000950150-03-000221" || got[len(got)-1].Period != date("2002-12-31") || got[len(got)-1].ReportType != "" { // oldest last
		t.Fatalf("Filings = %+v", got)
	}
	if urls := f.Take(); len(urls) != 1 {
		t.Errorf("fetched %q; want only the filing list", urls)
	}
}

func TestDiffCitesBothPeriods(t *testing.T) {
	c, _ := edgartest.MirrorClient(t, edgar13f.WithRedaction(false))
	cmpn, err := c.Diff(context.Background(), "9000001", date("2024-12-31"), date("2025-03-31"), date("2025-06-01"))
	if err != nil {
		t.Fatal(err)
	}
	var srcA, srcB []string
	for _, s := range cmpn.SourcesA {
		srcA = append(srcA, s.Accession)
	}
	for _, s := range cmpn.SourcesB {
		srcB = append(srcB, s.Accession)
	}
	if diff := cmp.Diff([]string{"0009000001-25-000003", "0009000001-25-000004"}, srcA); diff != "" {
		t.Errorf("SourcesA (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"0009000001-25-000007", "0009000001-25-000006"}, srcB); diff != "" {
		t.Errorf("SourcesB (-want +got):\n%s", diff)
	}
	if cmpn.BaseA.Accession != srcA[0] || cmpn.BaseB.Accession != srcB[0] {
		t.Errorf("bases %s, %s", cmpn.BaseA.Accession, cmpn.BaseB.Accession)
	}
	a, _ := c.Holdings(context.Background(), "9000001", date("2024-12-31"), date("2025-06-01"))
	b, _ := c.Holdings(context.Background(), "9000001", date("2025-03-31"), date("2025-06-01"))
	var sumA, sumB, dA, dB int64
	for _, h := range a.Holdings {
		sumA += h.Value
	}
	for _, h := range b.Holdings {
		sumB += h.Value
	}
	for _, ch := range cmpn.Changes {
		dA += ch.ValueA
		dB += ch.ValueB
		if ch.ValueDelta != ch.ValueB-ch.ValueA || ch.SharesDelta != ch.SharesB-ch.SharesA {
			t.Errorf("change %+v: deltas do not add up", ch)
		}
	}
	if dA != sumA || dB != sumB {
		t.Errorf("changes sum to %d / %d; holdings to %d / %d", dA, dB, sumA, sumB)
	}
}

// TestTableFileNameNeverGuessed: LTS One names its information table
// index.xml, which EDGAR's directory listing shadows. Holdings reads the
// complete submission and finds the table by its document type.
func TestTableFileNameNeverGuessed(t *testing.T) {
	c, f := edgartest.MirrorClient(t)
	snap, err := c.Holdings(context.Background(), "1894188", date("2023-09-30"), date("2023-12-31"))
	if err != nil {
		t.Fatal(err)
	}
	var sum int64
	for _, h := range snap.Holdings {
		sum += h.Value
	}
	if len(snap.Holdings) != 14 || snap.Base.Accession != "0001894188-23-000007" {
		t.Errorf("LTS One: %d rows, base %s; want 14 rows of 0001894188-23-000007", len(snap.Holdings), snap.Base.Accession)
	}
	want := []string{
		"https://data.sec.gov/submissions/CIK0001894188.json",
		"https://www.sec.gov/Archives/edgar/data/1894188/000189418823000007/0001894188-23-000007.txt",
	}
	if diff := cmp.Diff(want, f.Take()); diff != "" {
		t.Errorf("requests mismatch (-want +got):\n%s", diff)
	}
}

func TestValueUSD(t *testing.T) {
	c, _ := edgartest.MirrorClient(t)
	ctx := context.Background()
	for _, tc := range []struct {
		cik, period, cusip string
		value, dollars     int64
	}{
		// Berkshire 2022Q3, filed 2022-11-14: thousands.
		{"1067983", "2022-09-30", "037833100", 95634, 95634000},
		// Berkshire 2022Q4, filed 2023-02-14: dollars.
		{"1067983", "2022-12-31", "037833100", 133289470, 133289470},
		// MetLife 2021Q4 filed late, 2023-03-23: dollars although the period is 2021.
		{"1099219", "2021-12-31", "", -1, -1},
		// Bull Street 2022Q4 filed 2023-02-28 but still in thousands: a filer
		// error ValueUSD cannot see, so it returns the number unchanged.
		{"1790837", "2022-12-31", "", -1, -1},
	} {
		snap, err := c.Holdings(ctx, tc.cik, date(tc.period), date("2026-01-01"))
		if err != nil {
			t.Fatal(err)
		}
		h := snap.Holdings[0]
		if tc.cusip != "" {
			i := slices.IndexFunc(snap.Holdings, func(h edgar13f.Holding) bool { return h.CUSIP == tc.cusip })
			h = snap.Holdings[i]
			if h.Value != tc.value || h.ValueUSD != tc.dollars {
				t.Errorf("%s %s: Value %d ValueUSD %d; want %d %d", tc.cik, tc.period, h.Value, h.ValueUSD, tc.value, tc.dollars)
			}
			continue
		}
		if h.ValueUSD != h.Value {
			t.Errorf("%s %s filed %s: ValueUSD %d; want the filed value %d", tc.cik, tc.period, h.FilingDate, h.ValueUSD, h.Value)
		}
	}
}
