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
	"github.com/edgar13f/edgar13f/internal/datasets"
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
// does) never sees a window half-imported. It opens the store if needed.
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
	// DataThrough is the last filing date covered without a gap from the
	// first imported window; zero when nothing is imported.
	DataThrough Date
}

// Complete reports whether an answer as of asOf is complete: something is
// imported and asOf is on or before DataThrough.
func (c Coverage) Complete(asOf Date) bool {
	return !c.DataThrough.IsZero() && !asOf.After(c.DataThrough)
}

// Coverage returns the imported windows and the data-through date.
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
		out.DataThrough = dateFromDS(cov.DataThrough)
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
func (d *Datasets) marked(ctx context.Context, links []datasets.Link) ([]DatasetWindow, error) {
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
func (d *Datasets) landing(ctx context.Context, refresh bool) (links []datasets.Link, cached bool, err error) {
	var l landingList
	if !refresh && d.c.cachedJSON(ctx, keyLanding, &l) && fresh(l.FetchedAt, d.c.clock.Now()) {
		if links, err := l.parsed(); err == nil {
			return links, true, nil
		}
	}
	// Concurrent callers (an MCP server answering several questions) share
	// one request.
	v, err := d.c.edgar.Shared(ctx, keyLanding, func() (any, error) {
		page, err := d.c.edgar.Fetch(ctx, datasets.LandingPageURL)
		if err != nil {
			return nil, err
		}
		links, err := datasets.ParseLandingPage(page, datasets.LandingPageURL)
		if err != nil {
			return nil, &ParseError{Document: datasets.LandingPageURL, Err: err}
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
	return v.([]datasets.Link), false, nil
}

// parsed returns the cached list's links.
func (l landingList) parsed() ([]datasets.Link, error) {
	out := make([]datasets.Link, 0, len(l.Links))
	for _, k := range l.Links {
		w, err := datasets.ParseWindow(k.Window)
		if err != nil {
			return nil, err
		}
		out = append(out, datasets.Link{Window: w, URL: k.URL})
	}
	return out, nil
}

// An ImportProgress reports how far an import has come.
type ImportProgress struct {
	Window string // window being imported
	// Stage is "download" (fetching the zip), then the import's stages:
	// "filings", "infotable" (reading the zip), "sorting" (writing the
	// Parquet files) and "done".
	Stage string
	// Done and Total count bytes in the stages "download" and
	// "infotable", rows in the others; Total is 0 when unknown.
	Done, Total int64
	// Index and Count place the window among those a Sync imports
	// (1-based); both are 1 for a single import.
	Index, Count int
}

// An ImportOption configures [Datasets.Import], [Datasets.ImportFile] and
// [Datasets.Sync].
type ImportOption func(*importOptions)

type importOptions struct {
	progress func(ImportProgress)
}

// WithImportProgress has f called as an import advances (from the
// importing goroutine, every 64Ki rows and at each stage change).
func WithImportProgress(f func(ImportProgress)) ImportOption {
	return func(o *importOptions) { o.progress = f }
}

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
	w, err := datasets.ParseWindow(window)
	if err != nil {
		return ImportResult{}, declinef(InvalidArgument, "%v", err)
	}
	links, cached, err := d.landing(ctx, false)
	listed := func() int {
		return slices.IndexFunc(links, func(l datasets.Link) bool { return l.Window.Name == w.Name })
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
		return ImportResult{}, fmt.Errorf("%swindow %s is not listed on %s", docerr.Prefix, w.Name, datasets.LandingPageURL)
	}
	return d.fetchAndImport(ctx, windowOf(links[i].Window, links[i].URL, false), true, 1, 1, options(opts))
}

// ImportFile imports a window zip from a local file; the window is named
// by the file's base name ("2023q4_form13f.zip").
func (d *Datasets) ImportFile(ctx context.Context, path string, opts ...ImportOption) (ImportResult, error) {
	w, err := datasets.ParseWindow(filepath.Base(path))
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
	var todo []DatasetWindow
	for _, w := range all {
		if !w.Imported && !w.To.Before(from) && (to.IsZero() || !w.From.After(to)) {
			todo = append(todo, w)
		}
	}
	o := options(opts)
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
// from the period's end through asOf (or through today, by the Client's
// clock, when asOf is later), and any between them and the windows already
// imported, so that the imported windows have no gap and DataThrough
// covers the answer. When they are all imported it sends no request.
func (d *Datasets) SyncFor(ctx context.Context, period, asOf Date, opts ...ImportOption) ([]ImportResult, error) {
	if err := checkPeriodAsOf(period, asOf); err != nil {
		return nil, err
	}
	from, to := period, asOf
	if today := DateOf(d.c.clock.Now()); to.After(today) {
		to = today
	}
	cov, err := d.Coverage(ctx)
	if err != nil {
		return nil, err
	}
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
	return d.Sync(ctx, from, to, opts...)
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

func options(opts []ImportOption) importOptions {
	var o importOptions
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
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
func windowOf(w datasets.Window, url string, imported bool) DatasetWindow {
	return DatasetWindow{Name: w.Name, From: dateFromDS(w.From), To: dateFromDS(w.To), URL: url, Imported: imported}
}

// dateFromDS and dateToDS convert between the package's Date and the day
// numbers of package datasets.
func dateFromDS(d datasets.Date) Date { return DateOf(d.Time()) }

func dateToDS(d Date) datasets.Date { return datasets.DateOf(d.Year, d.Month, d.Day) }

// cikNumber parses a CIK already checked by parseCIK.
func cikNumber(cik string) int64 {
	n, _ := strconv.ParseInt(cik, 10, 64)
	return n
}
