package datasets

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/amend"
	"github.com/edgar13f/edgar13f/internal/bulkstore"
	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/clientparts"
	"github.com/edgar13f/edgar13f/internal/datasetzip"
	"github.com/edgar13f/edgar13f/internal/docerr"
)

// This file opens the store on a Client's access layer and cache
// directory and says what it covers; import.go imports windows and
// query.go answers from them.

// A Store is the Form 13F Data Sets imported under a Client's cache
// directory, answering point in time by the rules of [edgar13f.Client]:
// every 13F filing of the imported windows, kept as Apache Parquet files.
//
// A Store belongs to the source its zips were read from (live EDGAR, an
// HTTP mirror, a mirror tree, a named [edgar13f.Fetcher]) and to the
// Client's redaction rule: a store imported from a test mirror never
// answers a Client reading live EDGAR, and rows imported with redaction
// off are never served with it on. Redaction is applied while importing:
// removed rows are never stored.
//
// A Store is safe for concurrent use by multiple goroutines; imports run
// one at a time, across processes too. Several Stores opened on Clients
// of the same cache directory and source share one store on disk.
type Store struct {
	client clientparts.Parts // the Client's access layer, clock and redaction rule
	st     *bulkstore.Store
	root   string // the source's directory: zips being imported, the store

	// resolve is the amendment rule the queries apply: resolveCovered,
	// or a broken rule a test plants.
	resolve func(fs []amend.Filing, period, asOf civil.Day) (int, []int, error)
}

// Open opens the Form 13F Data Sets store of c, creating it if needed,
// and finishes an import a crash interrupted. The store shares c's access
// layer (User-Agent, request spacing, retries) and lives under c's cache
// directory, so c needs a cache on disk (the default, or
// [edgar13f.WithCacheDir]).
func Open(c *edgar13f.Client) (*Store, error) {
	if c == nil {
		return nil, errors.New(docerr.Prefix + "datasets.Open: nil Client")
	}
	var lent clientparts.Parts
	c.Parts(&lent)
	dir := lent.Access.Dir()
	if dir == "" {
		return nil, errors.New(docerr.Prefix + "the Form 13F Data Sets need a cache directory on disk (see edgar13f.WithCacheDir)")
	}
	sum := sha256.Sum256([]byte(lent.Access.Source()))
	root := filepath.Join(dir, "datasets", hex.EncodeToString(sum[:12]))
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("%s%v", docerr.Prefix, err)
	}
	// The source in full, for people looking at the directory.
	_ = os.WriteFile(filepath.Join(root, "SOURCE"), []byte(lent.Access.Source()+"\n"), 0o644)
	st, err := bulkstore.Open(filepath.Join(root, "rule-"+lent.Rule), lent.Rule)
	if err != nil {
		return nil, fmt.Errorf("%s%w", docerr.Prefix, err)
	}
	return &Store{client: lent, st: st, root: root, resolve: resolveCovered}, nil
}

// Dir returns the directory of the Parquet store, laid out for engines
// (DuckDB, Spark, Trino): filings/, holdings/ and holdings_by_cusip/, each
// with one Hive-style partition window=<name> per imported window, and
// _partitions/<name>.json, each window's commit record. An engine that
// reads only the windows with a commit record (as sql/duckdb_views.sql
// does) never sees a window half-imported. A window found damaged is
// moved aside into .quarantine/ and is no longer imported (the next Sync
// imports it again).
func (s *Store) Dir() string { return s.st.Dir() }

// A Window is one zip of the Form 13F Data Sets: the filings whose filing
// date falls in [From, To].
type Window struct {
	Name     string        // e.g. "2023q4" or "01jun2025-31aug2025"
	From, To edgar13f.Date // filing dates covered
	URL      string        // the zip's URL; "" when not known (a window imported from a local file)
	Imported bool          // the window is in the store
}

// Coverage says which filing dates the imported windows cover.
type Coverage struct {
	Windows []Window // imported windows, by date
	// DataFrom is the first filing date of the first imported window, and
	// DataThrough the last filing date covered without a gap from it:
	// together the span of filing dates the bulk source knows. Both are
	// zero when nothing is imported.
	DataFrom, DataThrough edgar13f.Date
}

// Complete reports whether an answer for period as of asOf is complete:
// something is imported and every filing date a report for the period
// can have on or before asOf (from the day after the period end through
// asOf) lies in [DataFrom, DataThrough]. A question asked on or before the
// period end is complete: nothing can have been filed for it yet.
func (c Coverage) Complete(period, asOf edgar13f.Date) bool {
	if c.DataFrom.IsZero() {
		return false
	}
	first := period.AddDays(1)
	return asOf.Before(first) || !first.Before(c.DataFrom) && !c.DataThrough.Before(asOf)
}

// Check returns nil when the imported windows can answer a question for
// period as of asOf: completely, or, when asOf is after DataThrough, as
// the answer stood on DataThrough (Complete false). Otherwise it returns a
// [*CoverageError]: nothing is imported, or filings of the period may
// precede DataFrom (an answer missing its first filings was never true on
// any date, so it is not given).
func (c Coverage) Check(period, asOf edgar13f.Date) error {
	return c.check(period, asOf, false)
}

// check is Check; for a manager's holdings (manager true) asOf must also
// be on or after DataFrom, since telling a CIK that never filed from one
// whose filings precede the store takes the filings before asOf.
func (c Coverage) check(period, asOf edgar13f.Date, manager bool) error {
	first, early := needFrom(period, asOf)
	e := &CoverageError{Period: period, AsOf: asOf, From: first, Through: asOf, DataFrom: c.DataFrom, DataThrough: c.DataThrough}
	switch {
	case c.DataFrom.IsZero():
		return e
	case early && !manager:
		return nil // nothing can have been filed for the period by asOf
	case first.Before(c.DataFrom):
		return e
	}
	return nil
}

// needFrom returns the first filing date an answer for period as of asOf
// rests on: the day after the period end, or asOf when earlier (early).
func needFrom(period, asOf edgar13f.Date) (first edgar13f.Date, early bool) {
	first = period.AddDays(1)
	if asOf.Before(first) {
		return asOf, true
	}
	return first, false
}

// readAsOf is the date the store is read as of for a question as of asOf:
// asOf, or DataThrough when earlier. Filings of windows imported after a
// gap are never read: the answer is the one known on DataThrough.
func (c Coverage) readAsOf(asOf edgar13f.Date) edgar13f.Date {
	if c.DataThrough.Before(asOf) {
		return c.DataThrough
	}
	return asOf
}

// A CoverageError reports that the Form 13F Data Sets imported do not
// hold the first filings an answer rests on, so the bulk source gives
// none: importing the windows from From on ([Store.SyncFor]) makes it
// answerable, unless the Data Sets SEC publishes begin after From
// (PublishedFrom set), when only the per-manager queries
// ([edgar13f.Client.Holdings]) can answer. With nothing imported it
// matches [ErrNotImported].
type CoverageError struct {
	Period, AsOf edgar13f.Date // the question
	// From and Through bound the filing dates the answer rests on: from
	// the day after the period end (or asOf when earlier) through asOf.
	From, Through edgar13f.Date
	// DataFrom and DataThrough are the span imported ([Coverage]); zero
	// when nothing is imported.
	DataFrom, DataThrough edgar13f.Date
	// PublishedFrom, when not zero, is the first filing date of the Data
	// Sets SEC publishes, which is after From.
	PublishedFrom edgar13f.Date
}

// Error says what is missing and what to call.
func (e *CoverageError) Error() string {
	q := fmt.Sprintf("an answer for period %s as of %s rests on filings from %s", e.Period, e.AsOf, e.From)
	switch {
	case !e.PublishedFrom.IsZero():
		return fmt.Sprintf("edgar13f: the Form 13F Data Sets begin with filings of %s, and %s: the bulk source cannot give it (Client.Holdings reads one manager's filings from EDGAR)", e.PublishedFrom, q)
	case e.DataFrom.IsZero():
		return fmt.Sprintf("edgar13f: no Form 13F Data Sets window is imported yet; %s: import the windows it needs with datasets.Store.SyncFor (or a range of filing dates with datasets.Store.Sync)", q)
	}
	return fmt.Sprintf("edgar13f: the Form 13F Data Sets imported cover filings from %s through %s, and %s: import the windows it needs with datasets.Store.SyncFor", e.DataFrom, e.DataThrough, q)
}

// Is reports whether target is [ErrNotImported] and nothing is imported.
func (e *CoverageError) Is(target error) bool {
	return target == ErrNotImported && e.DataFrom.IsZero() && e.PublishedFrom.IsZero()
}

// ErrNotImported is matched (with [errors.Is]) by the [*CoverageError] of
// the queries of a [Store] when no window is imported: the bulk source
// knows nothing yet. [Store.SyncFor] imports what a question needs,
// [Store.Sync] a range of filing dates.
var ErrNotImported = errors.New("edgar13f: no Form 13F Data Sets window is imported yet (import with datasets.Store.SyncFor or datasets.Store.Sync)")

// Coverage returns the imported windows and the span they cover.
func (s *Store) Coverage(ctx context.Context) (Coverage, error) {
	cov, err := s.st.Coverage()
	if err != nil {
		return Coverage{}, err
	}
	var out Coverage
	for _, w := range cov.Windows {
		out.Windows = append(out.Windows, windowOf(w, "", true))
	}
	if len(cov.Windows) > 0 {
		out.DataFrom, out.DataThrough = dateOf(cov.DataFrom), dateOf(cov.DataThrough)
	}
	return out, nil
}

// Windows lists the windows SEC publishes, by date, each marked whether
// it is imported. The list is read from the Data Sets landing page (one
// request) and kept in the cache for a day by the Client's clock: SEC adds
// a window a few times a year, and an answer whose asOf reaches past the
// last published window must not read the page on every call.
func (s *Store) Windows(ctx context.Context) ([]Window, error) {
	links, _, err := s.landing(ctx, false)
	if err != nil {
		return nil, err
	}
	return s.marked(ctx, links)
}

// marked converts the landing page's links, marking the imported windows.
func (s *Store) marked(ctx context.Context, links []datasetzip.Link) ([]Window, error) {
	cov, err := s.Coverage(ctx)
	if err != nil {
		return nil, err
	}
	have := map[string]bool{}
	for _, w := range cov.Windows {
		have[w.Name] = true
	}
	out := make([]Window, 0, len(links))
	for _, l := range links {
		out = append(out, windowOf(l.Window, l.URL, have[l.Window.Name]))
	}
	slices.SortFunc(out, func(a, b Window) int { return a.From.Compare(b.From) })
	return out, nil
}

// keyLanding is the cache key of the landing page's list of windows (the
// access layer places it under the source it was read from); the version
// changes when its encoding does.
const keyLanding = "datasets/landing/v1"

// landingFreshFor is how long a cached list of windows answers.
const landingFreshFor = 24 * time.Hour

// landingList is the landing page's list of windows as cached.
type landingList struct {
	FetchedAt time.Time     `json:"fetched_at"`
	Links     []landingLink `json:"links"`
}

type landingLink struct {
	Window string `json:"window"`
	URL    string `json:"url"`
}

// landing returns the windows the landing page lists: the cached list when
// it is fresh (fetched less than a day ago by the Client's clock) and
// refresh is false, else the page read afresh. cached says which.
func (s *Store) landing(ctx context.Context, refresh bool) (links []datasetzip.Link, cached bool, err error) {
	if !refresh {
		var l landingList
		if b, ok := s.client.Access.Cached(ctx, keyLanding); ok && json.Unmarshal(b, &l) == nil &&
			s.client.Now().Sub(l.FetchedAt) < landingFreshFor {
			if links, err := l.parsed(); err == nil {
				return links, true, nil
			}
		}
	}
	// Concurrent callers (an MCP server answering several questions) share
	// one request.
	v, err := s.client.Access.Shared(ctx, keyLanding, func() (any, error) {
		page, err := s.client.Access.Fetch(ctx, datasetzip.LandingPageURL)
		if err != nil {
			return nil, err
		}
		links, err := datasetzip.ParseLandingPage(page, datasetzip.LandingPageURL)
		if err != nil {
			return nil, &edgar13f.ParseError{Document: datasetzip.LandingPageURL, Err: err}
		}
		l := landingList{FetchedAt: s.client.Now()}
		for _, k := range links {
			l.Links = append(l.Links, landingLink{Window: k.Window.Name, URL: k.URL})
		}
		if b, err := json.Marshal(l); err == nil {
			s.client.Access.Keep(ctx, keyLanding, b)
		}
		return links, nil
	})
	if err != nil {
		return nil, false, err
	}
	return v.([]datasetzip.Link), false, nil
}

// parsed returns the cached list's links.
func (l landingList) parsed() ([]datasetzip.Link, error) {
	out := make([]datasetzip.Link, 0, len(l.Links))
	for _, k := range l.Links {
		w, err := datasetzip.ParseWindow(k.Window)
		if err != nil {
			return nil, err
		}
		out = append(out, datasetzip.Link{Window: w, URL: k.URL})
	}
	return out, nil
}

// windowOf converts a window of package datasetzip.
func windowOf(w datasetzip.Window, url string, imported bool) Window {
	return Window{Name: w.Name, From: dateOf(w.From), To: dateOf(w.To), URL: url, Imported: imported}
}
