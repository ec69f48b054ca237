package datasets

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/bulkstore"
	"github.com/edgar13f/edgar13f/internal/datasetzip"
	"github.com/edgar13f/edgar13f/internal/docerr"
	"github.com/edgar13f/edgar13f/internal/progresslimit"
)

// This file imports windows: one by name or from a file, or every window
// a range of filing dates or a question needs.

// An ImportOption configures [Store.Import], [Store.ImportFile],
// [Store.Sync] and [Store.SyncFor]: [ReportProgress] and [ConfirmImport].
type ImportOption interface{ applyImport(*importOptions) }

type importOption func(*importOptions)

func (f importOption) applyImport(o *importOptions) { f(o) }

type importOptions struct {
	progress func(edgar13f.Progress)
	plan     func([]Window) error
}

// ReportProgress has f called as an import advances, from the importing
// goroutine, with the [edgar13f.Progress] every long task of the module
// reports: when a window or stage begins ("download", "filings",
// "infotable", "sorting", "done"), each time a stage's Done reaches
// another whole percent of its Total, and when it reaches Total. So f is
// called at most about a hundred times a stage however many rows a window
// has; a stage whose Total is unknown (0) is reported once.
func ReportProgress(f func(edgar13f.Progress)) ImportOption {
	return importOption(func(o *importOptions) { o.progress = f })
}

// ConfirmImport has f called by [Store.Sync] and [Store.SyncFor] once the
// windows to import are known and before any of them is fetched, with
// those windows in date order (never with none). When f returns an error
// nothing is fetched and Sync returns that error: a program can say what
// is about to be downloaded (about 100 MB a window from EDGAR) and ask
// first.
func ConfirmImport(f func(windows []Window) error) ImportOption {
	return importOption(func(o *importOptions) { o.plan = f })
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
		o.progress = progresslimit.Limit(o.progress)
	}
	return o
}

// An ImportResult describes a finished import.
type ImportResult struct {
	Window   Window
	Filings  int   // submissions, notices included
	Rows     int64 // information-table rows stored
	Redacted int64 // rows removed by redaction
	ZipBytes int64 // size of the zip
	Bytes    int64 // bytes written to the store
}

// Import fetches one window's zip (name as in [Window].Name, or the zip's
// file name) and imports it, replacing any earlier import of that window
// and nothing else. It finds the zip's URL on the landing page (the files
// live under more than one folder; the page is read again unless the list
// of [Store.Windows] is fresh and names the window), then fetches the zip
// afresh as one request through the Client's access layer, streaming it
// to a file in the cache directory, which is removed once imported.
//
// A truncated or corrupt zip, a missing table, an unknown header or a row
// with the wrong field count fails with an error naming the window, table
// and line; nothing half-imported is ever visible.
func (s *Store) Import(ctx context.Context, window string, opts ...ImportOption) (ImportResult, error) {
	w, err := datasetzip.ParseWindow(window)
	if err != nil {
		return ImportResult{}, edgar13f.Decline(edgar13f.InvalidArgument, "%v", err)
	}
	links, cached, err := s.landing(ctx, false)
	listed := func() int {
		return slices.IndexFunc(links, func(l datasetzip.Link) bool { return l.Window.Name == w.Name })
	}
	if err == nil && cached && listed() < 0 {
		// A window published since the list was cached: read the page again.
		links, _, err = s.landing(ctx, true)
	}
	if err != nil {
		return ImportResult{}, err
	}
	i := listed()
	if i < 0 {
		return ImportResult{}, fmt.Errorf("%swindow %s is not listed on %s", docerr.Prefix, w.Name, datasetzip.LandingPageURL)
	}
	return s.fetchAndImport(ctx, windowOf(links[i].Window, links[i].URL, false), true, 1, 1, options(opts))
}

// ImportFile imports a window zip from a local file; the window is named
// by the file's base name ("2023q4_form13f.zip").
func (s *Store) ImportFile(ctx context.Context, path string, opts ...ImportOption) (ImportResult, error) {
	w, err := datasetzip.ParseWindow(filepath.Base(path))
	if err != nil {
		return ImportResult{}, edgar13f.Decline(edgar13f.InvalidArgument, "%v", err)
	}
	return s.importZip(ctx, windowOf(w, "", false), path, 1, 1, options(opts))
}

// Sync imports every window SEC publishes whose filing dates overlap
// [from, to] and that is not imported yet (to zero means no upper bound),
// in date order; it returns what it imported. When the windows of the
// range are all imported it sends no request at all; otherwise it lists
// the windows as [Store.Windows] does (at most one request a day for the
// landing page), then fetches one zip per window.
func (s *Store) Sync(ctx context.Context, from, to edgar13f.Date, opts ...ImportOption) ([]ImportResult, error) {
	if err := checkDate("from", from); err != nil {
		return nil, err
	}
	if !to.IsZero() {
		if err := checkDate("to", to); err != nil {
			return nil, err
		}
		if to.Before(from) {
			return nil, edgar13f.Decline(edgar13f.InvalidArgument, "to %s is before from %s", to, from)
		}
	}
	return s.sync(ctx, from, to, nil, options(opts))
}

// sync is Sync. need, when not nil, is the question SyncFor imports for:
// when the windows SEC publishes begin after need.From, it fails with need
// (PublishedFrom set) and imports nothing.
func (s *Store) sync(ctx context.Context, from, to edgar13f.Date, need *CoverageError, o importOptions) ([]ImportResult, error) {
	cov, err := s.Coverage(ctx)
	if err != nil {
		return nil, err
	}
	if !to.IsZero() && coveredBy(cov, from, to) {
		return nil, nil
	}
	all, err := s.Windows(ctx)
	if err != nil {
		return nil, err
	}
	if need != nil && len(all) > 0 && need.From.Before(all[0].From) {
		need.PublishedFrom = all[0].From
		return nil, need
	}
	var todo []Window
	for _, w := range all {
		if !w.Imported && !w.To.Before(from) && (to.IsZero() || !to.Before(w.From)) {
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
		r, err := s.fetchAndImport(ctx, w, false, i+1, len(todo), o)
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
func (s *Store) SyncFor(ctx context.Context, period, asOf edgar13f.Date, opts ...ImportOption) ([]ImportResult, error) {
	if err := checkPeriodAsOf(period, asOf); err != nil {
		return nil, err
	}
	from, _ := needFrom(period, asOf)
	to := asOf
	if today := edgar13f.DateOf(s.client.Now()); today.Before(to) {
		to = today
	}
	cov, err := s.Coverage(ctx)
	if err != nil {
		return nil, err
	}
	need := &CoverageError{Period: period, AsOf: asOf, From: from, Through: asOf, DataFrom: cov.DataFrom, DataThrough: cov.DataThrough}
	if n := len(cov.Windows); n > 0 {
		if first := cov.Windows[0].From; first.Before(from) {
			from = first
		}
		if last := cov.Windows[n-1].To; to.Before(last) {
			to = last
		}
	}
	if to.Before(from) {
		return nil, nil
	}
	return s.sync(ctx, from, to, need, options(opts))
}

// coveredBy reports whether every filing date of [from, to] is in an
// imported window.
func coveredBy(cov Coverage, from, to edgar13f.Date) bool {
	day := from
	for _, w := range cov.Windows {
		if day.Before(w.From) {
			break
		}
		if !w.To.Before(day) {
			day = w.To.AddDays(1)
		}
		if to.Before(day) {
			return true
		}
	}
	return false
}

// fetchAndImport downloads a window's zip into the cache directory
// (reusing a copy left by an earlier download unless refresh), imports it
// and removes it: the store is the durable form.
func (s *Store) fetchAndImport(ctx context.Context, w Window, refresh bool, index, count int, o importOptions) (ImportResult, error) {
	if o.progress != nil {
		o.progress(edgar13f.Progress{Window: w.Name, Stage: "download", Index: index, Count: count})
	}
	f, err := s.client.Access.Download(ctx, w.URL, refresh)
	if err != nil {
		return ImportResult{}, err
	}
	if o.progress != nil {
		o.progress(edgar13f.Progress{Window: w.Name, Stage: "download", Done: f.Size, Total: f.Size, Index: index, Count: count})
	}
	r, err := s.importZip(ctx, w, f.Path, index, count, o)
	if err == nil {
		os.Remove(f.Path)
	}
	return r, err
}

// importZip imports the zip at path as window w.
func (s *Store) importZip(ctx context.Context, w Window, path string, index, count int, o importOptions) (ImportResult, error) {
	f, err := os.Open(path)
	if err != nil {
		return ImportResult{}, fmt.Errorf("%s%v", docerr.Prefix, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return ImportResult{}, fmt.Errorf("%s%v", docerr.Prefix, err)
	}
	opt := bulkstore.Options{Redact: s.client.Redact}
	if o.progress != nil {
		opt.Progress = func(p bulkstore.Progress) {
			ip := edgar13f.Progress{Window: w.Name, Stage: p.Phase, Done: p.Rows, Total: p.TotalRows, Index: index, Count: count}
			if p.Phase == "infotable" {
				ip.Done, ip.Total = p.Bytes, p.TotalBytes
			}
			o.progress(ip)
		}
	}
	stats, err := s.st.Import(ctx, w.Name, f, fi.Size(), opt)
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
