package check

import (
	"archive/zip"
	"context"
	"database/sql"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/edgar13f/edgar13f/internal/bulkbench"
	"github.com/edgar13f/edgar13f/internal/bulkstore"
	"github.com/edgar13f/edgar13f/internal/datasetzip"
)

// The DuckDB anchors of the bulk store's benchmarks (bench/datasets.sh runs
// both): the same generated full-size window, the same store directory.

// benchRule is the rule name the library's benchmarks import under.
const benchRule = "test-rule"

func openDuck(b *testing.B) *sql.DB {
	b.Helper()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		b.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	b.Cleanup(func() { db.Close() })
	return db
}

// BenchmarkDuckDBCSVToParquet times DuckDB's read_csv -> COPY ... TO
// parquet of the window's tables (extracted from the zip beforehand, not
// timed): the anchor for the library's import.
func BenchmarkDuckDBCSVToParquet(b *testing.B) {
	info, err := bulkbench.Ensure(bulkbench.Dir(), bulkbench.Rows())
	if err != nil {
		b.Fatal(err)
	}
	// Named after the zip, so a TSV extracted from another generation of
	// the window is never reused.
	tsv := filepath.Join(bulkbench.Dir(), strings.TrimSuffix(filepath.Base(info.Path), ".zip")+"-tsv")
	if _, err := os.Stat(filepath.Join(tsv, "INFOTABLE.tsv")); err != nil {
		if err := extract(info.Path, tsv); err != nil {
			b.Fatal(err)
		}
	}
	db := openDuck(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out := b.TempDir()
		start := time.Now()
		for _, t := range []string{datasetzip.Submission, datasetzip.CoverPage, datasetzip.SummaryPage, datasetzip.InfoTable} {
			q := "COPY (SELECT * FROM read_csv('" + filepath.ToSlash(filepath.Join(tsv, t+".tsv")) +
				"', delim = '\t', header = true, quote = '\"', escape = '\"')) TO '" +
				filepath.ToSlash(filepath.Join(out, t+".parquet")) + "' (FORMAT parquet)"
			if _, err := db.Exec(q); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(time.Since(start).Seconds(), "s")
	}
}

func extract(zipPath, dir string) error {
	zr, err := zip.OpenReader(zipPath)
	if err != nil {
		return err
	}
	defer zr.Close()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range zr.File {
		if !strings.HasSuffix(f.Name, ".tsv") {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return err
		}
		out, err := os.Create(filepath.Join(dir, filepath.Base(f.Name)))
		if err != nil {
			rc.Close()
			return err
		}
		_, err = io.Copy(out, rc)
		rc.Close()
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// BenchmarkDuckDBHolders runs the shipped holders_asof.sql for the most
// held CUSIP on the warm store the library's BenchmarkHolders uses.
func BenchmarkDuckDBHolders(b *testing.B) {
	info, err := bulkbench.Ensure(bulkbench.Dir(), bulkbench.Rows())
	if err != nil {
		b.Fatal(err)
	}
	dir := bulkbench.StoreDir(info.Rows)
	s, err := bulkstore.Open(dir, benchRule)
	if err != nil {
		b.Fatal(err)
	}
	if c, _ := s.Coverage(); len(c.Windows) == 0 {
		f, err := os.Open(info.Path)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		if _, err := s.Import(context.Background(), bulkbench.Window, f, info.ZipBytes,
			bulkstore.Options{Redact: func(string, string, string) bool { return false }}); err != nil {
			b.Fatal(err)
		}
	}
	db := openDuck(b)
	views, err := os.ReadFile("../duckdb_views.sql")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := db.Exec(strings.ReplaceAll(string(views), "STORE_DIR", filepath.ToSlash(dir))); err != nil {
		b.Fatal(err)
	}
	q, err := os.ReadFile("../holders_asof.sql")
	if err != nil {
		b.Fatal(err)
	}
	stmt, err := db.Prepare(string(q))
	if err != nil {
		b.Fatal(err)
	}
	defer stmt.Close()
	run := func() int {
		rows, err := stmt.Query("2025-09-30", info.Period.String(), info.TopCUSIP)
		if err != nil {
			b.Fatal(err)
		}
		defer rows.Close()
		n := 0
		for rows.Next() {
			n++
		}
		return n
	}
	run() // warm up
	b.ResetTimer()
	var n int
	for i := 0; i < b.N; i++ {
		n = run()
	}
	b.ReportMetric(float64(n), "holders")
}
