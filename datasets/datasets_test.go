package datasets_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/datasets"
	"github.com/edgar13f/edgar13f/internal/edgartest"
	"github.com/edgar13f/edgar13f/mirror"
)

// bulkMirror is the test mirror's bulk source: a Client reading the mirror
// tree with a disk cache, every window imported.
type bulkMirror struct {
	c     *edgar13f.Client // per-manager answers, from the same mirror
	d     *datasets.Store
	ciks  []string
	dates map[string][]edgar13f.Date // filing dates by CIK
	lists map[string][]edgar13f.Filing
}

// newBulkMirror imports every window of the mirror through Sync.
func newBulkMirror(t *testing.T) *bulkMirror {
	t.Helper()
	fsys := edgartest.MirrorFS(t)
	c, err := edgar13f.NewClient(
		edgar13f.WithFetcher(mirror.NewFetcher(fsys)),
		edgar13f.WithCacheDir(t.TempDir()),
		edgar13f.WithClock(edgartest.Clock(func() time.Time { return edgartest.FixedNow })),
	)
	if err != nil {
		t.Fatal(err)
	}
	d := open(t, c)
	res, err := d.Sync(context.Background(), date("2013-01-01"), date("2026-12-31"))
	if err != nil {
		t.Fatal(err)
	}
	if len(res) < 50 {
		t.Fatalf("Sync imported %d windows", len(res))
	}
	m := &bulkMirror{c: c, d: d, dates: map[string][]edgar13f.Date{}, lists: map[string][]edgar13f.Filing{}}
	entries, err := os.ReadDir(filepath.Join(edgartest.MirrorDir, "data.sec.gov", "submissions"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		name, ok := strings.CutSuffix(strings.TrimPrefix(e.Name(), "CIK"), ".json")
		if !ok || strings.Contains(name, "-") {
			continue
		}
		cik := strings.TrimLeft(name, "0")
		list, err := c.Filings(context.Background(), cik, date("2026-11-01"))
		if err != nil {
			continue // not a 13F filer
		}
		m.ciks = append(m.ciks, cik)
		// Oldest first: Filings lists newest first.
		m.lists[cik] = slices.Clone(list.Filings)
		slices.Reverse(m.lists[cik])
		for _, f := range m.lists[cik] {
			m.dates[cik] = append(m.dates[cik], f.FilingDate)
		}
	}
	return m
}

// mayChange reports whether the differential asks about period on asOf.
// An answer for a period changes only with the period's own filings (and
// the manager's first), so most asOf dates repeat a case already compared
// (asking every filing date of a manager of every period of it took
// minutes under the race detector): the differential keeps the dates from
// the day before the period's first filing to 200 days after its last
// (where the filings of the next periods arriving must not change the
// answer), those around the manager's first filing, and its last date.
func (m *bulkMirror) mayChange(cik string, period, asOf edgar13f.Date) bool {
	var lo, hi, first, last edgar13f.Date
	for _, f := range m.lists[cik] {
		if f.Period == period {
			if lo.IsZero() || f.FilingDate.Before(lo) {
				lo = f.FilingDate
			}
			if hi.Before(f.FilingDate) {
				hi = f.FilingDate
			}
		}
		if first.IsZero() || f.FilingDate.Before(first) {
			first = f.FilingDate
		}
		if last.Before(f.FilingDate) {
			last = f.FilingDate
		}
	}
	within := func(d, from, to edgar13f.Date) bool { return !d.Before(from.AddDays(-1)) && !to.AddDays(1).Before(d) }
	return within(asOf, lo, hi.AddDays(200)) || within(asOf, first, first) || !asOf.Before(last.AddDays(1))
}

// periodsAndDates returns the CIK's periods and, as asOf, the day before,
// of and after each of its filing dates.
func (m *bulkMirror) periodsAndDates(t *testing.T, cik string) (periods, asOfs []edgar13f.Date) {
	list, err := m.c.Filings(context.Background(), cik, date("2026-11-01"))
	if err != nil {
		t.Fatal(err)
	}
	seenP, seenA := map[edgar13f.Date]bool{}, map[edgar13f.Date]bool{}
	for _, f := range slices.Backward(list.Filings) { // oldest first
		if !f.Period.IsZero() && f.Period.IsQuarterEnd() && !seenP[f.Period] {
			seenP[f.Period] = true
			periods = append(periods, f.Period)
		}
		for _, a := range []edgar13f.Date{f.FilingDate.AddDays(-1), f.FilingDate, f.FilingDate.AddDays(1)} {
			if !seenA[a] {
				seenA[a] = true
				asOfs = append(asOfs, a)
			}
		}
	}
	return periods, asOfs
}

// TestDatasets runs the differential test and the other checks of the
// bulk source on one store of the whole test mirror.
func TestDatasets(t *testing.T) {
	m := newBulkMirror(t)
	t.Run("Differential", func(t *testing.T) { testDifferential(t, m) })
	t.Run("HoldersMatchHoldings", func(t *testing.T) { testHoldersMatchHoldings(t, m) })
	t.Run("PanelMatchesHoldings", func(t *testing.T) { testPanelMatchesHoldings(t, m) })
	t.Run("NothingAfterAsOf", func(t *testing.T) { testNothingAfterAsOf(t, m) })
	t.Run("Declines", func(t *testing.T) { testBulkDeclines(t, m) })
}

// testDifferential: for every CIK, period and asOf (the day before, of and
// after each filing date) of the test mirror, Store.Holdings equals
// Client.Holdings row for row: accessions, rows, values, reconciliations
// and declines. A question the mirror cannot answer per manager (a
// document it does not hold) is skipped and counted.
func testDifferential(t *testing.T, m *bulkMirror) {
	ctx := context.Background()
	cov, err := m.d.Coverage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	first := cov.Windows[0].From
	cases, rows, declines, missing, later, before, matched, between := 0, 0, 0, 0, 0, 0, 0, 0
	for _, cik := range m.ciks {
		periods, asOfs := m.periodsAndDates(t, cik)
		for _, period := range periods {
			for _, asOf := range asOfs {
				if !m.mayChange(cik, period, asOf) {
					between++
					continue
				}
				name := fmt.Sprintf("cik %s period %s asOf %s", cik, period, asOf)
				if from := period.AddDays(1); from.Before(first) && !asOf.Before(from) || asOf.Before(first) {
					// The Data Sets begin with the first window: the
					// answer may rest on earlier filings, which exist only
					// per manager, and the bulk source does not give it.
					var ce *datasets.CoverageError
					if _, err := m.d.Holdings(ctx, cik, period, asOf); !errors.As(err, &ce) {
						t.Errorf("%s: before the imported span: %v, want a CoverageError", name, err)
					}
					before++
					continue
				}
				want, werr := m.c.Holdings(ctx, cik, period, asOf)
				var fe *edgar13f.FetchError
				if errors.As(werr, &fe) {
					missing++
					continue
				}
				got, gerr := m.d.Holdings(ctx, cik, period, asOf)
				if edgartest.Reason(gerr) == edgar13f.UnknownCIK && m.dates[cik][0].Before(first) {
					before++ // its only filings by asOf precede the Data Sets
					continue
				}
				cases++
				if werr != nil || gerr != nil {
					if edgartest.Reason(werr) != edgartest.Reason(gerr) || edgartest.Reason(werr) == "" {
						t.Errorf("%s: per-manager %v, bulk %v", name, werr, gerr)
					}
					declines++
					continue
				}
				if !got.Complete || got.DataThrough.Before(asOf) {
					t.Errorf("%s: complete %v through %s", name, got.Complete, got.DataThrough)
				}
				// Reconciliations included: the store tallies each table
				// before redaction, as the per-manager path counts it.
				if diff := cmp.Diff(want, &got.Snapshot, cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("%s (-per-manager +bulk):\n%s", name, diff)
				}
				for _, r := range got.Reconciliations {
					if r.Matched {
						matched++
					}
				}
				rows += len(got.Holdings)
				for _, s := range got.Sources[1:] {
					if s.FilingDate.Year != got.Base.FilingDate.Year || (s.FilingDate.Month-1)/3 != (got.Base.FilingDate.Month-1)/3 {
						later++ // a supplement filed in a later window than its base
					}
				}
			}
		}
	}
	t.Logf("%d cases (%d declines, %d rows, %d answers with a supplement in a later window, %d reconciliations matched); skipped: %d document not in the mirror, %d before the first window (coverage errors), %d outside the period's filings",
		cases, declines, rows, later, matched, missing, before, between)
	if cases-declines < 100 || declines < 20 || later == 0 {
		t.Fatalf("too few cases: %d answers, %d declines, %d later-window supplements", cases-declines, declines, later)
	}
}

// testHoldersMatchHoldings: every holder of every CUSIP held in a period
// is what the holder's per-manager Holdings says, and no manager holding
// the CUSIP is missing.
func testHoldersMatchHoldings(t *testing.T, m *bulkMirror) {
	ctx := context.Background()
	checked := 0
	for _, cik := range m.ciks {
		periods, asOfs := m.periodsAndDates(t, cik)
		for _, period := range periods {
			for _, asOf := range asOfs {
				snap, err := m.d.Holdings(ctx, cik, period, asOf)
				if err != nil {
					continue
				}
				cusips := map[string]bool{}
				for _, h := range snap.Holdings {
					cusips[strings.ToUpper(h.CUSIP)] = true
				}
				for cusip := range cusips {
					if checked > 400 {
						break
					}
					hl, err := m.d.Holders(ctx, strings.ToLower(cusip), period, asOf, datasets.Limit(500))
					if err != nil {
						t.Fatal(err)
					}
					var mine []datasets.Holder
					for _, h := range hl.Holders {
						if h.CIK == cik {
							mine = append(mine, h)
						}
					}
					want := holdersFrom(snap, cusip)
					for _, h := range mine {
						if h.ManagerName == "" {
							t.Errorf("cik %s: holder without a manager name", cik)
						}
					}
					if diff := cmp.Diff(want, mine, cmpopts.EquateEmpty(), cmpopts.IgnoreFields(datasets.Holder{}, "ManagerName")); diff != "" {
						t.Errorf("cik %s cusip %s period %s asOf %s (-holdings +holders):\n%s", cik, cusip, period, asOf, diff)
					}
					for i := 1; i < len(hl.Holders); i++ {
						if hl.Holders[i-1].ValueUSD < hl.Holders[i].ValueUSD {
							t.Errorf("holders of %s not ordered by value_usd", cusip)
						}
					}
					checked++
				}
			}
		}
	}
	t.Logf("%d (holder, CUSIP, period, asOf) checks", checked)
	if checked < 100 {
		t.Fatalf("only %d checks", checked)
	}
}

// holdersFrom groups a snapshot's rows with the CUSIP by (put/call, SH/PRN).
func holdersFrom(s *datasets.Snapshot, cusip string) []datasets.Holder {
	var out []datasets.Holder
	for _, h := range s.Holdings {
		if !strings.EqualFold(h.CUSIP, cusip) {
			continue
		}
		i := slices.IndexFunc(out, func(x datasets.Holder) bool { return x.PutCall == h.PutCall && x.ShPrn == h.ShPrn })
		if i < 0 {
			out = append(out, datasets.Holder{CIK: s.CIK, Base: s.Base, Sources: s.Sources, PutCall: h.PutCall, ShPrn: h.ShPrn})
			i = len(out) - 1
		}
		out[i].Shares += h.SharesOrPrincipal
		out[i].ValueUSD += h.ValueUSD
		out[i].Holdings = append(out[i].Holdings, h)
	}
	slices.SortStableFunc(out, func(a, b datasets.Holder) int {
		if a.ValueUSD != b.ValueUSD {
			return map[bool]int{true: -1, false: 1}[a.ValueUSD > b.ValueUSD]
		}
		return strings.Compare(string(a.PutCall), string(b.PutCall))
	})
	return out
}

// testPanelMatchesHoldings: the panel of a period is every manager's
// Holdings, in CIK order, row for row.
func testPanelMatchesHoldings(t *testing.T, m *bulkMirror) {
	ctx := context.Background()
	for _, pa := range [][2]string{{"2022-12-31", "2023-03-01"}, {"2022-12-31", "2025-01-01"}, {"2023-09-30", "2024-03-01"}, {"2024-12-31", "2025-06-30"}} {
		period, asOf := date(pa[0]), date(pa[1])
		var got []datasets.PanelRow
		for r, err := range m.d.Panel(ctx, period, asOf) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, r)
		}
		var want []datasets.PanelRow
		ciks := slices.Clone(m.ciks)
		slices.SortFunc(ciks, func(a, b string) int {
			if len(a) != len(b) {
				return len(a) - len(b)
			}
			return strings.Compare(a, b)
		})
		for _, cik := range ciks {
			snap, err := m.d.Holdings(ctx, cik, period, asOf)
			if err != nil {
				continue
			}
			for _, h := range snap.Holdings {
				want = append(want, datasets.PanelRow{CIK: cik, Base: snap.Base.Accession, Holding: h})
			}
		}
		if len(want) == 0 {
			t.Fatalf("period %s asOf %s: no rows to compare", period, asOf)
		}
		if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(datasets.PanelRow{}, "ManagerName")); diff != "" {
			t.Errorf("panel %s as of %s (-holdings +panel):\n%s", period, asOf, diff)
		}
	}
}

// testNothingAfterAsOf: for any CIK, period and asOf, no row, citation or
// holder of a bulk answer was filed after asOf.
func testNothingAfterAsOf(t *testing.T, m *bulkMirror) {
	ctx := context.Background()
	rapid.Check(t, func(rt *rapid.T) {
		cik := rapid.SampledFrom(m.ciks).Draw(rt, "cik")
		periods, _ := m.periodsAndDates(t, cik)
		period := rapid.SampledFrom(periods).Draw(rt, "period")
		// Around a filing date of the CIK, where a leak would show.
		asOf := rapid.SampledFrom(m.dates[cik]).Draw(rt, "filed").AddDays(rapid.IntRange(-2, 2).Draw(rt, "shift"))
		check := func(what string, d edgar13f.Date) {
			if asOf.Before(d) {
				rt.Fatalf("%s filed %s after asOf %s", what, d, asOf)
			}
		}
		if snap, err := m.d.Holdings(ctx, cik, period, asOf); err == nil {
			for _, s := range snap.Sources {
				check("source "+s.Accession, s.FilingDate)
			}
			for _, h := range snap.Holdings {
				check("row of "+h.Accession, h.FilingDate)
			}
			if len(snap.Holdings) > 0 {
				hl, err := m.d.Holders(ctx, snap.Holdings[0].CUSIP, period, asOf)
				if err != nil {
					rt.Fatal(err)
				}
				for _, x := range hl.Holders {
					for _, s := range x.Sources {
						check("holder source "+s.Accession, s.FilingDate)
					}
				}
			}
		}
		for r, err := range m.d.Panel(ctx, period, asOf) {
			var ce *datasets.CoverageError
			if errors.As(err, &ce) && period.AddDays(1).Before(ce.DataFrom) {
				break // filings of the period may precede the Data Sets
			}
			if err != nil {
				rt.Fatal(err)
			}
			check("panel row of "+r.Accession, r.FilingDate)
		}
	})
}

// testBulkDeclines: arguments are checked as in the per-manager queries.
func testBulkDeclines(t *testing.T, m *bulkMirror) {
	ctx := context.Background()
	p, a := date("2023-12-31"), date("2024-03-01")
	for _, tc := range []struct {
		name string
		err  error
		want edgar13f.Reason
	}{
		{"bad cusip", second(m.d.Holders(ctx, "12345", p, a)), edgar13f.InvalidArgument},
		{"max holders 0", second(m.d.Holders(ctx, "037833100", p, a, datasets.Limit(0))), edgar13f.InvalidArgument},
		{"max holders 501", second(m.d.Holders(ctx, "037833100", p, a, datasets.Limit(501))), edgar13f.InvalidArgument},
		{"holders period", second(m.d.Holders(ctx, "037833100", date("2023-12-30"), a)), edgar13f.InvalidPeriod},
		{"holdings cik", second(m.d.Holdings(ctx, "x1", p, a)), edgar13f.InvalidArgument},
		{"holdings unknown", second(m.d.Holdings(ctx, "1", p, a)), edgar13f.UnknownCIK},
	} {
		if got := edgartest.Reason(tc.err); got != tc.want {
			t.Errorf("%s: %v, want %s", tc.name, tc.err, tc.want)
		}
	}
	for _, err := range m.d.Panel(ctx, date("2023-12-30"), a) {
		if edgartest.Reason(err) != edgar13f.InvalidPeriod {
			t.Errorf("panel: %v", err)
		}
	}
	// Beyond the imported windows: answered, not complete.
	hl, err := m.d.Holders(ctx, "037833100", p, date("2030-01-01"))
	if err != nil || hl.Complete || hl.DataThrough.IsZero() {
		t.Errorf("holders after data_through: %+v, %v", hl, err)
	}
}

func second[T any](_ T, err error) error { return err }

// TestDatasetsImportOverHTTP imports windows through the Client's real HTTP
// path from an httptest server serving the mirror: one request for the
// landing page and one per window, none when the windows are in the store;
// every request names the User-Agent. A store never answers a Client
// reading another source.
func TestDatasetsImportOverHTTP(t *testing.T) {
	ctx := context.Background()
	cacheDir := t.TempDir()
	// The first answer for one zip is cut short: it is fetched again whole.
	srv := edgartest.NewServer(t, &edgartest.Fault{Match: "2023q1_form13f.zip", Times: 1, Serve: func(w http.ResponseWriter, _ *http.Request, body []byte) {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body[:len(body)/2])
	}})
	var now atomic.Int64 // the Client's clock, moved on below
	now.Store(edgartest.FixedNow.UnixNano())
	c := srv.Client(t, cacheDir, edgar13f.WithClock(edgartest.Clock(func() time.Time { return time.Unix(0, now.Load()).UTC() })))
	d := open(t, c)
	var stages []string
	res, err := d.Sync(ctx, date("2022-10-01"), date("2023-12-31"), datasets.ReportProgress(func(p edgar13f.Progress) {
		if len(stages) == 0 || stages[len(stages)-1] != p.Stage {
			stages = append(stages, p.Stage)
		}
		if p.Count != 5 || p.Index < 1 || p.Index > 5 {
			t.Errorf("progress %+v", p)
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range res {
		names = append(names, r.Window.Name)
	}
	if want := []string{"2022q4", "2023q1", "2023q2", "2023q3", "2023q4"}; !slices.Equal(names, want) {
		t.Fatalf("imported %v, want %v", names, want)
	}
	paths, _ := srv.Requests()
	if len(paths) != 7 || !strings.HasSuffix(paths[0], "/form-13f-data-sets") || srv.Count("2023q1_form13f.zip") != 2 {
		t.Fatalf("requests %v: want the landing page and 5 zips, one of them twice", paths)
	}
	for i, ua := range srv.UserAgents() {
		if ua != edgartest.UserAgent {
			t.Errorf("%s sent User-Agent %q", paths[i], ua)
		}
	}
	if !slices.Contains(stages, "download") || stages[len(stages)-1] != "done" {
		t.Errorf("progress stages %v", stages)
	}
	// Warm: nothing is fetched again.
	srv.Reset()
	if res, err := d.Sync(ctx, date("2022-10-01"), date("2023-12-31")); err != nil || len(res) != 0 {
		t.Fatalf("warm Sync: %v, %v", res, err)
	}
	snap, err := d.Holdings(ctx, "1067983", date("2022-12-31"), date("2023-03-01"))
	if err != nil {
		t.Fatal(err)
	}
	if paths, _ := srv.Requests(); len(paths) != 0 {
		t.Errorf("warm requests: %v", paths)
	}
	if !snap.Complete || snap.DataThrough != date("2023-12-31") || len(snap.Holdings) == 0 {
		t.Errorf("holdings: complete %v through %s, %d rows", snap.Complete, snap.DataThrough, len(snap.Holdings))
	}
	// The zips were removed once imported; the store holds Parquet files.
	dir := d.Dir()
	var zips []string
	filepath.WalkDir(cacheDir, func(p string, _ fs.DirEntry, _ error) error {
		if strings.HasSuffix(p, ".zip") {
			zips = append(zips, p)
		}
		return nil
	})
	parts, _ := filepath.Glob(filepath.Join(dir, "holdings", "window=*", "*.parquet"))
	if len(zips) != 0 || len(parts) != 5 {
		t.Errorf("zips left %v; %d holdings partitions", zips, len(parts))
	}

	// Another source over the same cache directory sees nothing.
	other, err := edgar13f.NewClient(edgar13f.WithFetcher(mirror.NewFetcher(edgartest.MirrorFS(t))), edgar13f.WithCacheDir(cacheDir))
	if err != nil {
		t.Fatal(err)
	}
	cov, err := open(t, other).Coverage(ctx)
	if err != nil || len(cov.Windows) != 0 {
		t.Errorf("a store of another source answered: %+v, %v", cov, err)
	}
	// Nor does the same source with redaction off.
	off, err := edgar13f.NewClient(edgar13f.WithUserAgent(edgartest.UserAgent), edgar13f.WithBaseURL(srv.URL()),
		edgar13f.WithCacheDir(cacheDir), edgar13f.WithRedaction(false))
	if err != nil {
		t.Fatal(err)
	}
	if cov, err := open(t, off).Coverage(ctx); err != nil || len(cov.Windows) != 0 {
		t.Errorf("a redacted store answered with redaction off: %+v, %v", cov, err)
	}

	// Import of one window: the landing page's list, read less than a day
	// ago, names it: one request, for its zip. A window it does not name
	// has the page read again.
	srv.Reset()
	if _, err := d.Import(ctx, "01sep2026-30nov2026"); err == nil {
		t.Error("import of a window that does not exist succeeded")
	}
	if paths, _ := srv.Requests(); len(paths) != 1 || !strings.HasSuffix(paths[0], "/form-13f-data-sets") {
		t.Errorf("import of an unlisted window: requests %v, want the landing page", paths)
	}
	srv.Reset()
	r, err := d.Import(ctx, "01jan2024-29feb2024_form13f.zip")
	if err != nil {
		t.Fatal(err)
	}
	if paths, _ := srv.Requests(); len(paths) != 1 || r.Window.URL == "" || r.Filings == 0 {
		t.Errorf("import: requests %v, %+v", paths, r)
	}

	// Past the last published window: every window is imported, the range
	// is never covered, and the landing page is read at most once a day.
	if _, err := d.Sync(ctx, date("2022-10-01"), date("2030-12-31")); err != nil {
		t.Fatal(err)
	}
	srv.Reset()
	for range 3 {
		if res, err := d.Sync(ctx, date("2022-10-01"), date("2030-12-31")); err != nil || len(res) != 0 {
			t.Fatalf("Sync past the last window: %v, %v", res, err)
		}
	}
	if paths, _ := srv.Requests(); len(paths) != 0 {
		t.Errorf("Sync past the last window, list fresh: requests %v", paths)
	}
	now.Add(int64(25 * time.Hour))
	for range 2 {
		if _, err := d.Sync(ctx, date("2022-10-01"), date("2030-12-31")); err != nil {
			t.Fatal(err)
		}
	}
	if paths, _ := srv.Requests(); len(paths) != 1 || !strings.HasSuffix(paths[0], "/form-13f-data-sets") {
		t.Errorf("Sync past the last window a day later: requests %v, want the landing page once", paths)
	}
}

// TestDatasetsImportFile imports a local zip, and refuses a truncated one
// with an error naming the window, leaving the store as it was.
func TestDatasetsImportFile(t *testing.T) {
	ctx := context.Background()
	c, err := edgar13f.NewClient(edgar13f.WithFetcher(mirror.NewFetcher(edgartest.MirrorFS(t))), edgar13f.WithCacheDir(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	d := open(t, c)
	// Nothing imported: the bulk source knows nothing, and says so.
	if _, err := d.Holdings(ctx, "1067983", date("2023-09-30"), date("2024-01-01")); !errors.Is(err, datasets.ErrNotImported) {
		t.Errorf("holdings on an empty store: %v", err)
	}
	if _, err := d.Holders(ctx, "037833100", date("2023-09-30"), date("2024-01-01")); !errors.Is(err, datasets.ErrNotImported) {
		t.Errorf("holders on an empty store: %v", err)
	}
	for _, err := range d.Panel(ctx, date("2023-09-30"), date("2024-01-01")) {
		if !errors.Is(err, datasets.ErrNotImported) {
			t.Errorf("panel on an empty store: %v", err)
		}
	}
	src := filepath.Join(edgartest.MirrorDir, "www.sec.gov/files/structureddata/data/form-13f-data-sets/2023q4_form13f.zip")
	r, err := d.ImportFile(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	if r.Window.Name != "2023q4" || r.Rows == 0 || r.ZipBytes == 0 {
		t.Errorf("import: %+v", r)
	}
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(t.TempDir(), "2024q1_form13f.zip")
	if err := os.WriteFile(cut, b[:len(b)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := d.ImportFile(ctx, cut); err == nil || !strings.Contains(err.Error(), "2024q1") {
		t.Errorf("truncated zip: %v", err)
	}
	cov, err := d.Coverage(ctx)
	if err != nil || len(cov.Windows) != 1 || cov.DataThrough != date("2023-12-31") {
		t.Errorf("coverage after a failed import: %+v, %v", cov, err)
	}
	// A decline beyond the imported windows says what it rests on.
	_, err = d.Holdings(ctx, "1067983", date("2023-12-31"), date("2024-03-01"))
	if edgartest.Reason(err) != edgar13f.NotYetFiled || !strings.Contains(err.Error(), "through 2023-12-31 only") {
		t.Errorf("decline after data_through: %v", err)
	}
	if _, err := d.ImportFile(ctx, filepath.Join(t.TempDir(), "notes.zip")); edgartest.Reason(err) != edgar13f.InvalidArgument {
		t.Errorf("bad window name: %v", err)
	}
}

// TestDatasetsWindowsShared: concurrent callers on a cold cache share one
// request for the landing page.
func TestDatasetsWindowsShared(t *testing.T) {
	srv := edgartest.NewServer(t)
	d := open(t, srv.Client(t, ""))
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			ws, err := d.Windows(context.Background())
			if err == nil && len(ws) == 0 {
				err = errors.New("no windows")
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := srv.Count("/form-13f-data-sets"); n != 1 { // the page, not a zip under .../form-13f-data-sets/
		t.Errorf("%d requests for the landing page, want 1", n)
	}
}
