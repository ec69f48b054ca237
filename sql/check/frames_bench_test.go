package check

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/frames"
	"github.com/edgar13f/edgar13f/internal/factbench"
)

// BenchmarkFrameDuckDB answers the frame of package frames' BenchmarkFrame
// (us-gaap:NetIncomeLoss, CY2023, as of 2024-06-30) with frame_asof.sql on
// DuckDB over the same synthetic store (FRAMES_BENCH_FACTS facts, default
// 1 million), beside Store.Frame on the same files: p50 and p99 of each.
func BenchmarkFrameDuckDB(b *testing.B) {
	facts := int64(1_000_000)
	if s := os.Getenv("FRAMES_BENCH_FACTS"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			b.Fatal(err)
		}
		facts = n
	}
	dir := b.TempDir()
	zp := filepath.Join(dir, "companyfacts.zip")
	if _, err := factbench.Write(zp, facts, 1); err != nil {
		b.Fatal(err)
	}
	s, err := frames.OpenDir(filepath.Join(dir, "store"))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.ImportFile(context.Background(), zp); err != nil {
		b.Fatal(err)
	}
	db := openDuck(b)
	views, _ := os.ReadFile("../frames_views.sql")
	if _, err := db.Exec(strings.ReplaceAll(string(views), "FRAMES_DIR", filepath.ToSlash(s.Dir()))); err != nil {
		b.Fatal(err)
	}
	q, _ := os.ReadFile("../frame_asof.sql")
	asOf := time.Date(2024, 6, 30, 0, 0, 0, 0, time.UTC)
	for _, engine := range []string{"duckdb", "go"} {
		b.Run(engine, func(b *testing.B) {
			var times []time.Duration
			n := 0
			for b.Loop() {
				t0 := time.Now()
				if engine == "go" {
					f, err := s.Frame(context.Background(), "us-gaap:NetIncomeLoss", "CY2023", edgar13f.DateOf(asOf), frames.Limit(frames.MaxLimit))
					if err != nil {
						b.Fatal(err)
					}
					n = len(f.Companies)
				} else {
					rows, err := db.Query(string(q), asOf, "us-gaap:NetIncomeLoss", "USD", "CY2023")
					if err != nil {
						b.Fatal(err)
					}
					n = 0
					for rows.Next() {
						n++
					}
					rows.Close()
				}
				times = append(times, time.Since(t0))
			}
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "p99-ms")
			b.ReportMetric(float64(n), "companies")
		})
	}
}
