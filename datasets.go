package edgar13f

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/edgar13f/edgar13f/internal/bulkstore"
	"github.com/edgar13f/edgar13f/internal/datasetzip"
	"github.com/edgar13f/edgar13f/internal/docerr"
)

// This file opens the bulk source (SEC's Form 13F Data Sets) on a Client's
// access layer and cache directory, lists and imports its windows. The
// queries are in datasetsquery.go.

// Datasets answers from SEC's Form 13F Data Sets: every 13F filing
// republished as tab-separated tables, one zip per window of filing dates.
// Imported windows are kept as Apache Parquet files under the Client's
// cache directory, and questions about every manager at once (who held a
// security, every manager's holdings for a period) are answered from them
// point in time, by the same rules as [Client.Holdings].
//
// The store belongs to the source its zips were read from (live EDGAR, an
// HTTP mirror, a mirror tree, a named [Fetcher]) and to the Client's
// redaction rule: a store imported from a test mirror never answers a
// Client reading live EDGAR, and rows imported with redaction off are
// never served with it on. Redaction is applied while importing: removed
// rows are never stored.
//
// Every answer states DataThrough, the last filing date the imported
// windows cover without a gap from the first one, and Complete (asOf is on
// or before DataThrough). A filing dated after DataThrough is unknown to
// the bulk source: an answer for a later asOf is given from what is
// imported, never guessed, and says it is not complete.
//
// A Datasets is safe for concurrent use; imports of one store run one at
// a time, across processes too.
type Datasets struct {
	c    *Client
	once sync.Once
	st   *bulkstore.Store
	root string // the source's directory: zips being imported, the store
	err  error

	decide func([]bulkstore.Filing, Date, Date) decision // the amendment rule; nil: decideBulk (tests replace it)
}

// Datasets returns the Client's bulk source. It shares the Client's access
// layer (User-Agent, request spacing, retries) and cache directory; it needs
// a cache on disk (the default, or [WithCacheDir]). The store is opened on
// first use.
func (c *Client) Datasets() *Datasets {
	c.bulkOnce.Do(func() { c.bulk = &Datasets{c: c} })
	return c.bulk
}

// store opens the store on first use.
func (d *Datasets) store() (*bulkstore.Store, error) {
	d.once.Do(func() {
		dir := d.c.edgar.Dir()
		if dir == "" {
			d.err = errors.New(docerr.Prefix + "the Form 13F Data Sets need a cache directory on disk (see WithCacheDir)")
			return
		}
		sum := sha256.Sum256([]byte(d.c.edgar.Source()))
		d.root = filepath.Join(dir, "datasets", hex.EncodeToString(sum[:12]))
		if err := os.MkdirAll(d.root, 0o755); err != nil {
			d.err = fmt.Errorf("%s%v", docerr.Prefix, err)
			return
		}
		// The source in full, for people looking at the directory.
		_ = os.WriteFile(filepath.Join(d.root, "SOURCE"), []byte(d.c.edgar.Source()+"\n"), 0o644)
		d.st, d.err = bulkstore.Open(filepath.Join(d.root, "rule-"+d.c.redaction.name), d.c.redaction.name)
	})
	return d.st, d.err
}

// Dir returns the directory of the Parquet store, laid out for engines
// (DuckDB, Spark, Trino): filings/, holdings/ and holdings_by_cusip/, each
// with one Hive-style partition window=<name> per imported window, and
// _partitions/<name>.json, each window's commit record. An engine that
// reads only the windows with a commit record (as sql/duckdb_views.sql
// does) never sees a window half-imported. A window found damaged is
// moved aside into .quarantine/ and is no longer imported (the next Sync
// imports it again). It opens the store if needed.
func (d *Datasets) Dir() (string, error) {
	st, err := d.store()
	if err != nil {
		return "", err
	}
	return st.Dir(), nil
}

// A DatasetWindow is one zip of the Form 13F Data Sets: the filings whose
// filing date falls in [From, To].
type DatasetWindow struct {
	Name     string // e.g. "2023q4" or "01jun2025-31aug2025"
	From, To Date   // filing dates covered
	URL      string // the zip's URL; "" when not known (a window imported from a local file)
	Imported bool   // the window is in the store
}

// Coverage says which filing dates the imported windows cover.
type Coverage struct {
	Windows []DatasetWindow // imported windows, by date
	// DataFrom is the first filing date of the first imported window, and
	// DataThrough the last filing date covered without a gap from it:
	// together the span of filing dates the bulk source knows. Both are
	// zero when nothing is imported.
	DataFrom, DataThrough Date
}

// Complete reports whether an answer for period as of asOf is complete:
// something is imported and every filing date a report for the period
// can have on or before asOf (from the day after the period end through
// asOf) lies in [DataFrom, DataThrough]. A question asked on or before the
// period end is complete: nothing can have been filed for it yet.
func (c Coverage) Complete(period, asOf Date) bool {
	if c.DataFrom.IsZero() {
		return false
	}
	first := period.AddDays(1)
	return asOf.Before(first) || !first.Before(c.DataFrom) && !asOf.After(c.DataThrough)
}

// Check returns nil when the imported windows can answer a question for
// period as of asOf: completely, or, when asOf is after DataThrough, as
// the answer stood on DataThrough (Complete false). Otherwise it returns a
// [*CoverageError]: nothing is imported, or filings of the period may
// precede DataFrom (an answer missing its first filings was never true on
// any date, so it is not given).
func (c Coverage) Check(period, asOf Date) error {
	return c.check(period, asOf, false)
}

// check is Check; for a manager's holdings (manager true) asOf must also
// be on or after DataFrom, since telling a CIK that never filed from one
// whose filings precede the store takes the filings before asOf.
func (c Coverage) check(period, asOf Date, manager bool) error {
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
func needFrom(period, asOf Date) (first Date, early bool) {
	first = period.AddDays(1)
	if asOf.Before(first) {
		return asOf, true
	}
	return first, false
}

// readAsOf is the date the store is read as of for a question as of asOf:
// asOf, or DataThrough when earlier. Filings of windows imported after a
// gap are never read: the answer is the one known on DataThrough.
func (c Coverage) readAsOf(asOf Date) Date {
	if asOf.After(c.DataThrough) {
		return c.DataThrough
	}
	return asOf
}

// A CoverageError reports that the Form 13F Data Sets imported do not
// hold the first filings an answer rests on, so the bulk source gives
// none: importing the windows from From on ([Datasets.SyncFor]) makes it
// answerable, unless the Data Sets SEC publishes begin after From
// (PublishedFrom set), when only the per-manager queries
// ([Client.Holdings]) can answer. With nothing imported it matches
// [ErrNotImported].
type CoverageError struct {
	Period, AsOf Date // the question
	// From and Through bound the filing dates the answer rests on: from
	// the day after the period end (or asOf when earlier) through asOf.
	From, Through Date
	// DataFrom and DataThrough are the span imported ([Coverage]); zero
	// when nothing is imported.
	DataFrom, DataThrough Date
	// PublishedFrom, when not zero, is the first filing date of the Data
	// Sets SEC publishes, which is after From.
	PublishedFrom Date
}

// Error says what is missing and what to call.
func (e *CoverageError) Error() string {
	q := fmt.Sprintf("an answer for period %s as of %s rests on filings from %s", e.Period, e.AsOf, e.From)
	switch {
	case !e.PublishedFrom.IsZero():
		return fmt.Sprintf("edgar13f: the Form 13F Data Sets begin with filings of %s, and %s: the bulk source cannot give it (Client.Holdings reads one manager's filings from EDGAR)", e.PublishedFrom, q)
	case e.DataFrom.IsZero():
		return fmt.Sprintf("edgar13f: no Form 13F Data Sets window is imported yet; %s: import the windows it needs with Datasets.SyncFor (or a range of filing dates with Datasets.Sync)", q)
	}
	return fmt.Sprintf("edgar13f: the Form 13F Data Sets imported cover filings from %s through %s, and %s: import the windows it needs with Datasets.SyncFor", e.DataFrom, e.DataThrough, q)
}

// Is reports whether target is [ErrNotImported] and nothing is imported.
func (e *CoverageError) Is(target error) bool {
	return target == ErrNotImported && e.DataFrom.IsZero() && e.PublishedFrom.IsZero()
}

// Coverage returns the imported windows and the span they cover.
func (d *Datasets) Coverage(ctx context.Context) (Coverage, error) {
	st, err := d.store()
	if err != nil {
		return Coverage{}, err
	}
	cov, err := st.Coverage()
	if err != nil {
		return Coverage{}, err
	}
	var out Coverage
	for _, w := range cov.Windows {
		out.Windows = append(out.Windows, windowOf(w, "", true))
	}
	if len(cov.Windows) > 0 {
		out.DataFrom, out.DataThrough = dateOfDay(cov.DataFrom), dateOfDay(cov.DataThrough)
	}
	return out, nil
}

// Windows lists the windows SEC publishes, by date, each marked whether
// it is imported. The list is read from the Data Sets landing page (one
// request) and kept in the cache for a day by the Client's clock: SEC adds
// a window a few times a year, and an answer whose asOf reaches past the
// last published window must not read the page on every call.
func (d *Datasets) Windows(ctx context.Context) ([]DatasetWindow, error) {
	links, _, err := d.landing(ctx, false)
	if err != nil {
		return nil, err
	}
	return d.marked(ctx, links)
}

// marked converts the landing page's links, marking the imported windows.
func (d *Datasets) marked(ctx context.Context, links []datasetzip.Link) ([]DatasetWindow, error) {
	cov, err := d.Coverage(ctx)
	if err != nil {
		return nil, err
	}
	have := map[string]bool{}
	for _, w := range cov.Windows {
		have[w.Name] = true
	}
	out := make([]DatasetWindow, 0, len(links))
	for _, l := range links {
		out = append(out, windowOf(l.Window, l.URL, have[l.Window.Name]))
	}
	slices.SortFunc(out, func(a, b DatasetWindow) int { return a.From.Compare(b.From) })
	return out, nil
}

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
func (d *Datasets) landing(ctx context.Context, refresh bool) (links []datasetzip.Link, cached bool, err error) {
	var l landingList
	if !refresh && d.c.cachedJSON(ctx, keyLanding, &l) && fresh(l.FetchedAt, d.c.clock.Now()) {
		if links, err := l.parsed(); err == nil {
			return links, true, nil
		}
	}
	// Concurrent callers (an MCP server answering several questions) share
	// one request.
	v, err := d.c.edgar.Shared(ctx, keyLanding, func() (any, error) {
		page, err := d.c.edgar.Fetch(ctx, datasetzip.LandingPageURL)
		if err != nil {
			return nil, err
		}
		links, err := datasetzip.ParseLandingPage(page, datasetzip.LandingPageURL)
		if err != nil {
			return nil, &ParseError{Document: datasetzip.LandingPageURL, Err: err}
		}
		l := landingList{FetchedAt: d.c.clock.Now()}
		for _, k := range links {
			l.Links = append(l.Links, landingLink{Window: k.Window.Name, URL: k.URL})
		}
		d.c.keepJSON(ctx, keyLanding, l)
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

// ImportProgress is the former name of [Progress], which reports imports
// too.
//
// Deprecated: use [Progress].
type ImportProgress = Progress

// An ImportOption configures [Datasets.Import], [Datasets.ImportFile],
// [Datasets.Sync] and [Datasets.SyncFor]: [ReportProgress] and
// [ConfirmImport].
type ImportOption interface{ applyImport(*importOptions) }

type importOption func(*importOptions)

func (f importOption) applyImport(o *importOptions) { f(o) }

type importOptions struct {
	progress func(ImportProgress)
	plan     func([]DatasetWindow) error
}

// WithImportProgress is the former name of [ReportProgress] for imports.
//
// Deprecated: use [ReportProgress].
func WithImportProgress(f func(Progress)) ImportOption { return ReportProgress(f) }

// progressLimiter passes on the reports of an import that
// ReportProgress promises, and drops the others (an import reports
// every 64Ki rows and every sorted bucket).
type progressLimiter struct {
	f    func(ImportProgress)
	last ImportProgress
	sent bool
}

func (l *progressLimiter) report(p ImportProgress) {
	if l.sent && p.Window == l.last.Window && p.Index == l.last.Index && p.Stage == l.last.Stage {
		switch {
		case p.Total <= 0 || p.Done <= l.last.Done:
			return
		case p.Done < p.Total && percent(p) == percent(l.last):
			return
		}
	}
	l.last, l.sent = p, true
	l.f(p)
}

// percent is how far p's stage is, in whole percent.
func percent(p ImportProgress) int64 {
	if p.Total <= 0 {
		return 0
	}
	return p.Done * 100 / p.Total
}

// ConfirmImport has f called by [Datasets.Sync] and [Datasets.SyncFor]
// once the windows to import are known and before any of them is fetched,
// with those windows in date order (never with none). When f returns an
// error nothing is fetched and Sync returns that error: a program can say
// what is about to be downloaded (about 100 MB a window from EDGAR) and
// ask first.
func ConfirmImport(f func(windows []DatasetWindow) error) ImportOption {
	return importOption(func(o *importOptions) { o.plan = f })
}

// WithImportPlan is the former name of [ConfirmImport].
//
// Deprecated: use [ConfirmImport].
func WithImportPlan(f func(windows []DatasetWindow) error) ImportOption { return ConfirmImport(f) }

// An ImportResult describes a finished import.
type ImportResult struct {
	Window   DatasetWindow
	Filings  int   // submissions, notices included
	Rows     int64 // information-table rows stored
	Redacted int64 // rows removed by redaction
	ZipBytes int64 // size of the zip
	Bytes    int64 // bytes written to the store
}

// Import fetches one window's zip (name as in [DatasetWindow].Name, or the
// zip's file name) and imports it, replacing any earlier import of that
// window and nothing else. It finds the zip's URL on the landing page (the
// files live under more than one folder; the page is read again unless
// the list of [Datasets.Windows] is fresh and names the window), then fetches the zip
// afresh as one request through the Client's access layer, streaming it to
// a file in the cache directory, which is removed once imported.
//
// A truncated or corrupt zip, a missing table, an unknown header or a row
// with the wrong field count fails with an error naming the window, table
// and line; nothing half-imported is ever visible.
func (d *Datasets) Import(ctx context.Context, window string, opts ...ImportOption) (ImportResult, error) {
	w, err := datasetzip.ParseWindow(window)
	if err != nil {
		return ImportResult{}, declinef(InvalidArgument, "%v", err)
	}
	links, cached, err := d.landing(ctx, false)
	listed := func() int {
		return slices.IndexFunc(links, func(l datasetzip.Link) bool { return l.Window.Name == w.Name })
	}
	if err == nil && cached && listed() < 0 {
		// A window published since the list was cached: read the page again.
		links, _, err = d.landing(ctx, true)
	}
	if err != nil {
		return ImportResult{}, err
	}
	i := listed()
	if i < 0 {
		return ImportResult{}, fmt.Errorf("%swindow %s is not listed on %s", docerr.Prefix, w.Name, datasetzip.LandingPageURL)
	}
	return d.fetchAndImport(ctx, windowOf(links[i].Window, links[i].URL, false), true, 1, 1, options(opts))
}

// ImportFile imports a window zip from a local file; the window is named
// by the file's base name ("2023q4_form13f.zip").
func (d *Datasets) ImportFile(ctx context.Context, path string, opts ...ImportOption) (ImportResult, error) {
	w, err := datasetzip.ParseWindow(filepath.Base(path))
	if err != nil {
		return ImportResult{}, declinef(InvalidArgument, "%v", err)
	}
	return d.importZip(ctx, windowOf(w, "", false), path, 1, 1, options(opts))
}

// Sync imports every window SEC publishes whose filing dates overlap
// [from, to] and that is not imported yet (to zero means no upper bound),
// in date order; it returns what it imported. When the windows of the
// range are all imported it sends no request at all; otherwise it lists
// the windows as [Datasets.Windows] does (at most one request a day for
// the landing page), then fetches one zip per window.
func (d *Datasets) Sync(ctx context.Context, from, to Date, opts ...ImportOption) ([]ImportResult, error) {
	if err := checkDate("from", from); err != nil {
		return nil, err
	}
	if !to.IsZero() {
		if err := checkDate("to", to); err != nil {
			return nil, err
		}
		if to.Before(from) {
			return nil, declinef(InvalidArgument, "to %s is before from %s", to, from)
		}
	}
	return d.sync(ctx, from, to, nil, options(opts))
}

// sync is Sync. need, when not nil, is the question SyncFor imports for:
// when the windows SEC publishes begin after need.From, it fails with need
// (PublishedFrom set) and imports nothing.
func (d *Datasets) sync(ctx context.Context, from, to Date, need *CoverageError, o importOptions) ([]ImportResult, error) {
	cov, err := d.Coverage(ctx)
	if err != nil {
		return nil, err
	}
	if !to.IsZero() && coveredBy(cov, from, to) {
		return nil, nil
	}
	all, err := d.Windows(ctx)
	if err != nil {
		return nil, err
	}
	if need != nil && len(all) > 0 && all[0].From.After(need.From) {
		need.PublishedFrom = all[0].From
		return nil, need
	}
	var todo []DatasetWindow
	for _, w := range all {
		if !w.Imported && !w.To.Before(from) && (to.IsZero() || !w.From.After(to)) {
			todo = append(todo, w)
		}
	}
	if len(todo) > 0 && o.plan != nil {
		if err := o.plan(slices.Clone(todo)); err != nil {
			return nil, err
		}
	}
	var out []ImportResult
	for i, w := range todo {
		r, err := d.fetchAndImport(ctx, w, false, i+1, len(todo), o)
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}

// SyncFor imports what an answer for period as of asOf needs: the windows
// of the filing dates from the day after the period's end through asOf
// (or through today, by the Client's clock, when asOf is later), and any
// between them and the windows already imported, so that the imported
// windows have no gap and the answer is complete (or as complete as the
// windows SEC has published). When they are all imported it sends no
// request. When the Data Sets SEC publishes begin after the period's
// first filing date, no import can make the answer possible: it imports
// nothing and returns a [*CoverageError] with PublishedFrom set.
func (d *Datasets) SyncFor(ctx context.Context, period, asOf Date, opts ...ImportOption) ([]ImportResult, error) {
	if err := checkPeriodAsOf(period, asOf); err != nil {
		return nil, err
	}
	from, _ := needFrom(period, asOf)
	to := asOf
	if today := DateOf(d.c.clock.Now()); to.After(today) {
		to = today
	}
	cov, err := d.Coverage(ctx)
	if err != nil {
		return nil, err
	}
	need := &CoverageError{Period: period, AsOf: asOf, From: from, Through: asOf, DataFrom: cov.DataFrom, DataThrough: cov.DataThrough}
	if n := len(cov.Windows); n > 0 {
		if first := cov.Windows[0].From; first.Before(from) {
			from = first
		}
		if last := cov.Windows[n-1].To; last.After(to) {
			to = last
		}
	}
	if to.Before(from) {
		return nil, nil
	}
	return d.sync(ctx, from, to, need, options(opts))
}

// checkPeriodAsOf checks that the dates of a bulk question are well formed
// (whether the period is a quarter end is checked after the other
// arguments, in the precedence of the declines).
func checkPeriodAsOf(period, asOf Date) error {
	for _, x := range []struct {
		name string
		d    Date
	}{{"period", period}, {"asOf", asOf}} {
		if err := checkDate(x.name, x.d); err != nil {
			return err
		}
	}
	return nil
}

// coveredBy reports whether every filing date of [from, to] is in an
// imported window.
func coveredBy(cov Coverage, from, to Date) bool {
	day := from
	for _, w := range cov.Windows {
		if w.From.After(day) {
			break
		}
		if !w.To.Before(day) {
			day = w.To.AddDays(1)
		}
		if day.After(to) {
			return true
		}
	}
	return false
}

// options applies opts; the progress function it returns is limited as
// ReportProgress says, for one call of Import, ImportFile or Sync.
func options(opts []ImportOption) importOptions {
	var o importOptions
	for _, opt := range opts {
		if opt != nil {
			opt.applyImport(&o)
		}
	}
	if o.progress != nil {
		o.progress = (&progressLimiter{f: o.progress}).report
	}
	return o
}

// fetchAndImport downloads a window's zip into the cache directory
// (reusing a copy left by an earlier download unless refresh), imports it
// and removes it: the store is the durable form.
func (d *Datasets) fetchAndImport(ctx context.Context, w DatasetWindow, refresh bool, index, count int, o importOptions) (ImportResult, error) {
	if _, err := d.store(); err != nil {
		return ImportResult{}, err
	}
	if o.progress != nil {
		o.progress(ImportProgress{Window: w.Name, Stage: "download", Index: index, Count: count})
	}
	f, err := d.c.edgar.Download(ctx, w.URL, refresh)
	if err != nil {
		return ImportResult{}, err
	}
	if o.progress != nil {
		o.progress(ImportProgress{Window: w.Name, Stage: "download", Done: f.Size, Total: f.Size, Index: index, Count: count})
	}
	r, err := d.importZip(ctx, w, f.Path, index, count, o)
	if err == nil {
		os.Remove(f.Path)
	}
	return r, err
}

// importZip imports the zip at path as window w.
func (d *Datasets) importZip(ctx context.Context, w DatasetWindow, path string, index, count int, o importOptions) (ImportResult, error) {
	st, err := d.store()
	if err != nil {
		return ImportResult{}, err
	}
	f, err := os.Open(path)
	if err != nil {
		return ImportResult{}, fmt.Errorf("%s%v", docerr.Prefix, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return ImportResult{}, fmt.Errorf("%s%v", docerr.Prefix, err)
	}
	opt := bulkstore.Options{Redact: d.c.redaction.remove}
	if o.progress != nil {
		opt.Progress = func(p bulkstore.Progress) {
			ip := ImportProgress{Window: w.Name, Stage: p.Phase, Done: p.Rows, Total: p.TotalRows, Index: index, Count: count}
			if p.Phase == "infotable" {
				ip.Done, ip.Total = p.Bytes, p.TotalBytes
			}
			o.progress(ip)
		}
	}
	stats, err := st.Import(ctx, w.Name, f, fi.Size(), opt)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ImportResult{}, ctxErr
		}
		return ImportResult{}, fmt.Errorf("%simport %s: %w", docerr.Prefix, strings.TrimSpace(w.Name), err)
	}
	w.Imported = true
	return ImportResult{Window: w, Filings: stats.Filings, Rows: stats.Rows, Redacted: stats.Redacted,
		ZipBytes: stats.SourceSize, Bytes: stats.Bytes}, nil
}

// windowOf converts a window of package datasets.
func windowOf(w datasetzip.Window, url string, imported bool) DatasetWindow {
	return DatasetWindow{Name: w.Name, From: dateOfDay(w.From), To: dateOfDay(w.To), URL: url, Imported: imported}
}

// cikNumber parses a CIK already checked by parseCIK.
func cikNumber(cik string) int64 {
	n, _ := strconv.ParseInt(cik, 10, 64)
	return n
}
