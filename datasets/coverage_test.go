package datasets_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/datasets"
	"github.com/edgar13f/edgar13f/internal/edgartest"
	"github.com/edgar13f/edgar13f/mirror"
)

// newBulkStore returns a Client of the test mirror on a fresh cache and
// its bulk source with the windows of [from, to] imported (none when from
// is zero).
func newBulkStore(t *testing.T, from, to edgar13f.Date) (*edgar13f.Client, *datasets.Store) {
	t.Helper()
	c, err := edgar13f.NewClient(
		edgar13f.WithFetcher(mirror.NewFetcher(edgartest.MirrorFS(t))),
		edgar13f.WithCacheDir(t.TempDir()),
		edgar13f.WithClock(edgartest.Clock(func() time.Time { return edgartest.FixedNow })),
	)
	if err != nil {
		t.Fatal(err)
	}
	d := open(t, c)
	if !from.IsZero() {
		if _, err := d.Sync(context.Background(), from, to); err != nil {
			t.Fatal(err)
		}
	}
	return c, d
}

// coverageError returns the *CoverageError in err, failing the test
// when there is none.
func coverageError(t *testing.T, what string, err error) *datasets.CoverageError {
	t.Helper()
	var ce *datasets.CoverageError
	if !errors.As(err, &ce) {
		t.Fatalf("%s: %v, want a *CoverageError", what, err)
	}
	return ce
}

// TestCoverageBeforeSpan: a question whose filings may precede the
// imported windows is never answered as if the data were known (not "no
// holders, complete", not unknown_cik for a manager that had filed); it
// fails with a CoverageError naming the span, and SyncFor makes it
// answerable, equal to the per-manager answer.
func TestCoverageBeforeSpan(t *testing.T) {
	ctx := context.Background()
	c, d := newBulkStore(t, date("2023-07-01"), date("2024-05-31"))
	cov, err := d.Coverage(ctx)
	if err != nil || cov.DataFrom != date("2023-07-01") || cov.DataThrough != date("2024-05-31") {
		t.Fatalf("coverage %+v, %v", cov, err)
	}
	period, asOf := date("2022-12-31"), date("2023-03-01")
	// Per manager, Berkshire's 2022Q4 report (filed 2023-02-14) is known.
	want, err := c.Holdings(ctx, "1067983", period, asOf)
	if err != nil || want.Base.Accession != "0000950123-23-002585" {
		t.Fatalf("per-manager: %v", err)
	}
	if cov.Complete(period, asOf) {
		t.Error("Coverage.Complete before the span")
	}

	hl, err := d.Holders(ctx, "037833100", period, asOf)
	if err == nil {
		t.Errorf("holders before the imported windows: %d holders, complete %v, data through %s", hl.TotalHolders, hl.Complete, hl.DataThrough)
	}
	ce := coverageError(t, "holders", err)
	if ce.From != date("2023-01-01") || ce.Through != asOf || ce.DataFrom != cov.DataFrom || ce.DataThrough != cov.DataThrough || errors.Is(err, datasets.ErrNotImported) {
		t.Errorf("holders: %+v", ce)
	}
	snap, err := d.Holdings(ctx, "1067983", period, asOf)
	if err == nil || edgartest.Reason(err) != "" {
		t.Errorf("holdings before the imported windows: %v, %v", snap, err)
	}
	coverageError(t, "holdings", err)
	answered := true // an empty panel would be an answer: "nobody held anything"
	for r, err := range d.Panel(ctx, period, asOf) {
		if err == nil {
			t.Errorf("panel before the imported windows: a row %+v", r)
		}
		coverageError(t, "panel", err)
		answered = false
		break
	}
	if answered {
		t.Error("panel before the imported windows: answered")
	}

	// SyncFor imports the windows from the period's first filing date to
	// the span: then the answers are complete and equal the per-manager one.
	res, err := d.SyncFor(ctx, period, asOf)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range res {
		names = append(names, r.Window.Name)
	}
	if !slices.Equal(names, []string{"2023q1", "2023q2"}) {
		t.Errorf("SyncFor imported %v", names)
	}
	got, err := d.Holdings(ctx, "1067983", period, asOf)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Complete || got.DataFrom != date("2023-01-01") || got.DataThrough != date("2024-05-31") {
		t.Errorf("holdings: complete %v, data from %s through %s", got.Complete, got.DataFrom, got.DataThrough)
	}
	if diff := cmp.Diff(want, &got.Snapshot, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("(-per-manager +bulk):\n%s", diff)
	}
	hl, err = d.Holders(ctx, "037833100", period, asOf)
	if err != nil || !hl.Complete || hl.DataFrom != date("2023-01-01") || !slices.ContainsFunc(hl.Holders, func(h datasets.Holder) bool { return h.CIK == "1067983" }) {
		t.Errorf("holders after SyncFor: %+v, %v", hl, err)
	}
}

// TestCoverageRules: what each query answers around the imported span.
func TestCoverageRules(t *testing.T) {
	ctx := context.Background()
	_, d := newBulkStore(t, date("2023-07-01"), date("2024-05-31"))
	// Asked before the period ends: nothing can have been filed for it, a
	// complete answer with no holders.
	hl, err := d.Holders(ctx, "037833100", date("2023-06-30"), date("2023-06-30"))
	if err != nil || !hl.Complete || hl.TotalHolders != 0 {
		t.Errorf("holders asked on the period end: %+v, %v", hl, err)
	}
	// But whether a CIK had filed by a date before the span is unknown.
	_, err = d.Holdings(ctx, "1067983", date("2023-06-30"), date("2023-06-30"))
	coverageError(t, "holdings asked before the span", err)
	// The period's first filing date is the span's first day: complete.
	if hl, err := d.Holders(ctx, "037833100", date("2023-06-30"), date("2023-08-15")); err != nil || !hl.Complete {
		t.Errorf("holders from the span's first day: %+v, %v", hl, err)
	}
	if hl, err := d.Holders(ctx, "037833100", date("2023-09-30"), date("2024-05-15")); err != nil || !hl.Complete || hl.TotalHolders == 0 {
		t.Errorf("holders in the span: %+v, %v", hl, err)
	}
	// After the span: the answer known on data_through, not complete.
	late, err := d.Holders(ctx, "037833100", date("2023-12-31"), date("2024-08-01"))
	if err != nil || late.Complete {
		t.Fatalf("holders after the span: %+v, %v", late, err)
	}
	through, err := d.Holders(ctx, "037833100", date("2023-12-31"), date("2024-05-31"))
	if err != nil || !through.Complete {
		t.Fatalf("holders on data_through: %+v, %v", through, err)
	}
	if diff := cmp.Diff(through.Holders, late.Holders); diff != "" {
		t.Errorf("after the span (-on data_through +later):\n%s", diff)
	}
	// A CIK with no filing in the span: unknown_cik, naming the span.
	if _, err := d.Holdings(ctx, "1", date("2023-12-31"), date("2024-03-01")); edgartest.Reason(err) != edgar13f.UnknownCIK {
		t.Errorf("unknown CIK: %v", err)
	} else if want := "which cover filings from 2023-07-01 through 2024-05-31"; !strings.Contains(err.Error(), want) {
		t.Errorf("unknown CIK: %v, want the span named", err)
	}
}

// TestCoverageGap: windows imported after a gap are not read. The span is
// the windows from the first without a gap; an answer after it is the one
// known on data_through, never one with the gap's filings missing.
func TestCoverageGap(t *testing.T) {
	ctx := context.Background()
	_, d := newBulkStore(t, date("2023-10-01"), date("2023-12-31"))
	// 01jan2024-29feb2024 is left out.
	if _, err := d.Sync(ctx, date("2024-03-01"), date("2024-05-31")); err != nil {
		t.Fatal(err)
	}
	cov, err := d.Coverage(ctx)
	if err != nil || len(cov.Windows) != 2 || cov.DataFrom != date("2023-10-01") || cov.DataThrough != date("2023-12-31") {
		t.Fatalf("coverage %+v, %v", cov, err)
	}
	// Berkshire's new-holdings amendment for 2023Q3, filed 2024-05-15,
	// sits after the gap.
	late, err := d.Holdings(ctx, "1067983", date("2023-09-30"), date("2024-05-15"))
	if err != nil {
		t.Fatal(err)
	}
	through, err := d.Holdings(ctx, "1067983", date("2023-09-30"), date("2023-12-31"))
	if err != nil {
		t.Fatal(err)
	}
	if late.Complete || !through.Complete {
		t.Errorf("complete: after the gap %v, on data_through %v", late.Complete, through.Complete)
	}
	if diff := cmp.Diff(through.Sources, late.Sources); diff != "" {
		t.Errorf("sources (-on data_through +after the gap):\n%s", diff)
	}
	for r, err := range d.Panel(ctx, date("2023-09-30"), date("2024-05-15")) {
		if err != nil {
			t.Fatal(err)
		}
		if cov.DataThrough.Before(r.FilingDate) {
			t.Fatalf("panel row filed %s, after data_through", r.FilingDate)
		}
	}
	// A question whose filings begin after the gap is not complete either.
	hl, err := d.Holders(ctx, "037833100", date("2024-03-31"), date("2024-05-15"))
	if err != nil || hl.Complete || hl.TotalHolders != 0 {
		t.Errorf("holders after the gap: %+v, %v", hl, err)
	}
}

// TestCoverageNothingImported: with nothing imported every query fails
// with a CoverageError matching ErrNotImported that names what to call.
func TestCoverageNothingImported(t *testing.T) {
	ctx := context.Background()
	_, d := newBulkStore(t, edgar13f.Date{}, edgar13f.Date{})
	p, a := date("2023-09-30"), date("2024-01-01")
	_, e1 := d.Holdings(ctx, "1067983", p, a)
	_, e2 := d.Holders(ctx, "037833100", p, a)
	var e3 error
	for _, err := range d.Panel(ctx, p, a) {
		e3 = err
		break
	}
	for _, err := range []error{e1, e2, e3} {
		coverageError(t, "empty store", err)
		if !errors.Is(err, datasets.ErrNotImported) || !strings.Contains(err.Error(), "datasets.Store.SyncFor") {
			t.Errorf("empty store: %v", err)
		}
	}
	if cov, err := d.Coverage(ctx); err != nil || cov.Complete(p, a) || cov.Check(p, a) == nil {
		t.Errorf("empty coverage: %+v, %v", cov, err)
	}
}

// TestSyncForBeforeDataSets: a question about filings older than the
// Data Sets SEC publishes imports nothing and says so.
func TestSyncForBeforeDataSets(t *testing.T) {
	ctx := context.Background()
	_, d := newBulkStore(t, date("2023-07-01"), date("2023-09-30"))
	res, err := d.SyncFor(ctx, date("2010-03-31"), date("2010-05-15"))
	ce := coverageError(t, "SyncFor 2010", err)
	if len(res) != 0 || ce.PublishedFrom != date("2013-07-01") || ce.From != date("2010-04-01") || errors.Is(err, datasets.ErrNotImported) {
		t.Errorf("SyncFor 2010: %v, %+v", res, ce)
	}
	if cov, _ := d.Coverage(ctx); len(cov.Windows) != 1 {
		t.Errorf("SyncFor 2010 imported windows: %+v", cov.Windows)
	}
}

// TestImportPlan: Sync and SyncFor say which windows they are about to
// fetch, and fetch nothing when the plan is refused.
func TestImportPlan(t *testing.T) {
	ctx := context.Background()
	_, d := newBulkStore(t, edgar13f.Date{}, edgar13f.Date{})
	refused := errors.New("refused")
	var plans [][]string
	plan := datasets.ConfirmImport(func(ws []datasets.Window) error {
		var names []string
		for _, w := range ws {
			names = append(names, w.Name)
		}
		plans = append(plans, names)
		return refused
	})
	if res, err := d.SyncFor(ctx, date("2023-09-30"), date("2024-03-01"), plan); !errors.Is(err, refused) || len(res) != 0 {
		t.Errorf("SyncFor refused: %v, %v", res, err)
	}
	if res, err := d.Sync(ctx, date("2024-06-01"), date("2024-12-31"), plan); !errors.Is(err, refused) || len(res) != 0 {
		t.Errorf("Sync refused: %v, %v", res, err)
	}
	want := [][]string{{"2023q4", "01jan2024-29feb2024", "01mar2024-31may2024"}, {"01jun2024-31aug2024", "01sep2024-30nov2024", "01dec2024-28feb2025"}}
	if diff := cmp.Diff(want, plans); diff != "" {
		t.Errorf("plans (-want +got):\n%s", diff)
	}
	if cov, _ := d.Coverage(ctx); len(cov.Windows) != 0 {
		t.Errorf("imported after refusals: %+v", cov.Windows)
	}
	// Accepted, the plan is what is imported; nothing left, no plan.
	plans = nil
	accept := datasets.ConfirmImport(func(ws []datasets.Window) error { plans = append(plans, nil); return nil })
	res, err := d.SyncFor(ctx, date("2023-09-30"), date("2024-03-01"), accept)
	if err != nil || len(res) != 3 || len(plans) != 1 {
		t.Fatalf("SyncFor accepted: %d imported, %d plans, %v", len(res), len(plans), err)
	}
	if _, err := d.SyncFor(ctx, date("2023-09-30"), date("2024-03-01"), accept); err != nil || len(plans) != 1 {
		t.Errorf("warm SyncFor: %d plans, %v", len(plans), err)
	}
}

// TestDamagedWindowReimported: a part file cut short (a full disk, an
// interrupted copy) does not make the bulk source fail forever: the
// window is moved aside when the store is opened, answers rest on what is
// left (saying so), and the next SyncFor imports the window again.
func TestDamagedWindowReimported(t *testing.T) {
	ctx := context.Background()
	cache := t.TempDir()
	client := func() *datasets.Store {
		c, err := edgar13f.NewClient(edgar13f.WithFetcher(mirror.NewFetcher(edgartest.MirrorFS(t))), edgar13f.WithCacheDir(cache),
			edgar13f.WithClock(edgartest.Clock(func() time.Time { return edgartest.FixedNow })))
		if err != nil {
			t.Fatal(err)
		}
		return open(t, c)
	}
	d := client()
	period, asOf := date("2023-09-30"), date("2024-05-15")
	if _, err := d.SyncFor(ctx, period, asOf); err != nil {
		t.Fatal(err)
	}
	want, err := d.Holders(ctx, "037833100", period, asOf)
	if err != nil || !want.Complete {
		t.Fatalf("before: %+v, %v", want, err)
	}
	dir := d.Dir()
	path := filepath.Join(dir, "holdings_by_cusip", "window=01mar2024-31may2024", "part-0.parquet")
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, st.Size()-100); err != nil {
		t.Fatal(err)
	}

	d = client() // as a new process would
	got, err := d.Holders(ctx, "037833100", period, asOf)
	if err != nil || got.Complete || got.DataThrough != date("2024-02-29") {
		t.Fatalf("with the window damaged: %+v, %v", got, err)
	}
	res, err := d.SyncFor(ctx, period, asOf)
	if err != nil || len(res) != 1 || res[0].Window.Name != "01mar2024-31may2024" {
		t.Fatalf("SyncFor after damage: %v, %v", res, err)
	}
	got, err = d.Holders(ctx, "037833100", period, asOf)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after re-import (-before +after):\n%s", diff)
	}
}

// TestImportProgressLimited: a real import reports each stage when it
// begins, at whole percents and at its end, never more (the import itself
// reports every bucket it sorts).
func TestImportProgressLimited(t *testing.T) {
	_, d := newBulkStore(t, edgar13f.Date{}, edgar13f.Date{})
	type key struct{ window, stage string }
	calls := map[key][]edgar13f.Progress{}
	var order []key
	_, err := d.SyncFor(context.Background(), date("2023-09-30"), date("2024-05-15"), datasets.ReportProgress(func(p edgar13f.Progress) {
		k := key{p.Window, p.Stage}
		if calls[k] == nil {
			order = append(order, k)
		}
		calls[k] = append(calls[k], p)
	}))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for k, ps := range calls {
		n += len(ps)
		for i := 1; i < len(ps); i++ {
			a, b := ps[i-1], ps[i]
			if b.Done <= a.Done || b.Total > 0 && b.Done < b.Total && b.Done*100/b.Total == a.Done*100/a.Total {
				t.Errorf("%v: report %+v after %+v", k, b, a)
			}
		}
	}
	if len(order) != 3*5 || order[0] != (key{"2023q4", "download"}) || order[len(order)-1] != (key{"01mar2024-31may2024", "done"}) {
		t.Errorf("stages %v", order)
	}
	t.Logf("%d progress reports for 3 windows", n)
}
