package datasets_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/datasets"
	"github.com/edgar13f/edgar13f/internal/bulkbench"
	"github.com/edgar13f/edgar13f/internal/edgartest"
	"github.com/edgar13f/edgar13f/mirror"
)

// benchDatasets returns the bulk source of a Client whose store holds the
// benchmark window (internal/bulkbench: $EDGAR13F_BENCH_ROWS rows, 3.5
// million by default), imported once through the public API and kept in
// $EDGAR13F_BENCH_DIR between runs, and the window's facts.
func benchDatasets(b *testing.B) (*datasets.Store, bulkbench.Info) {
	b.Helper()
	info, err := bulkbench.Ensure(bulkbench.Dir(), bulkbench.Rows())
	if err != nil {
		b.Fatal(err)
	}
	dir := filepath.Join(bulkbench.Dir(), "client-"+strconv.Itoa(info.Rows))
	c, err := edgar13f.NewClient(edgar13f.WithFetcher(mirror.NewFetcher(edgartest.MirrorFS(b))), edgar13f.WithCacheDir(dir))
	if err != nil {
		b.Fatal(err)
	}
	d := open(b, c)
	cov, err := d.Coverage(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	if len(cov.Windows) == 0 {
		// ImportFile names the window by the file's name.
		zip := filepath.Join(dir, bulkbench.Window+"_form13f.zip")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		os.Remove(zip)
		if err := os.Link(info.Path, zip); err != nil {
			b.Fatal(err)
		}
		defer os.Remove(zip)
		if _, err := d.ImportFile(context.Background(), zip); err != nil {
			b.Fatal(err)
		}
	}
	return d, info
}

// benchAsOf is after every filing of the benchmark window.
var benchAsOf = date("2025-09-30")

func BenchmarkHolders(b *testing.B) {
	d, info := benchDatasets(b)
	period := edgar13f.DateOf(info.Period.Time())
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		l, err := d.Holders(ctx, info.TopCUSIP, period, benchAsOf, datasets.Limit(500))
		if err != nil || len(l.Holders) == 0 {
			b.Fatal(l, err)
		}
	}
}

func BenchmarkHoldings(b *testing.B) {
	d, info := benchDatasets(b)
	period := edgar13f.DateOf(info.Period.Time())
	ctx := context.Background()
	cik := strconv.FormatInt(info.FirstCIK, 10)
	b.ReportAllocs()
	for b.Loop() {
		s, err := d.Holdings(ctx, cik, period, benchAsOf)
		if err != nil || len(s.Holdings) == 0 {
			b.Fatal(s, err)
		}
	}
}

func BenchmarkPanel(b *testing.B) {
	d, info := benchDatasets(b)
	period := edgar13f.DateOf(info.Period.Time())
	ctx := context.Background()
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		for _, err := range d.Panel(ctx, period, benchAsOf) {
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "rows/s")
}
