// Package check runs the shipped SQL (sql/*.sql) on a real DuckDB over the
// bulk store that the library's public API (package datasets) builds from
// the test mirror's Data Sets windows, and checks every answer equals the
// library's answer (datasets.Store.Panel, Holders and Holdings). It is a
// separate module so that DuckDB and cgo stay out of the library's own
// module.
package check

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	_ "github.com/duckdb/duckdb-go/v2"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/datasets"
	"github.com/edgar13f/edgar13f/internal/bulkstore"
	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/mirror"
)

const mirrorRoot = "../../testdata/mirror"

// setup imports every window of the mirror through the public API into a
// new cache directory and opens DuckDB with the shipped views over the
// store.
func setup(t *testing.T) (*datasets.Store, *sql.DB) {
	t.Helper()
	fsys, err := mirror.Dir(mirrorRoot)
	if err != nil {
		t.Fatal(err)
	}
	c, err := edgar13f.NewClient(edgar13f.WithFetcher(mirror.NewFetcher(fsys)), edgar13f.WithCacheDir(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	d, err := datasets.Open(c)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := d.Sync(context.Background(), edgar13f.MustParseDate("2013-01-01"), edgar13f.Date{}); err != nil || len(res) == 0 {
		t.Fatalf("sync: %d windows, %v", len(res), err)
	}
	dir := d.Dir()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("SET threads = 1"); err != nil { // tiny tables: threads only cost
		t.Fatal(err)
	}
	views, err := os.ReadFile("../duckdb_views.sql")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(strings.ReplaceAll(string(views), "STORE_DIR", filepath.ToSlash(dir))); err != nil {
		t.Fatal(err)
	}
	return d, db
}

// storeTables are the store's tables, and the names of the views over them.
var storeTables = []string{bulkstore.FilingsTable, bulkstore.HoldingsTable, bulkstore.ByCUSIPTable}

// materialize copies the three views into DuckDB tables of the same names:
// the answers are the same (the tables hold what the views read from the
// Parquet files), and thousands of queries no longer re-read 150 files
// each. Tests run their first cases on the Parquet views, the rest on the
// tables.
func materialize(t *testing.T, db *sql.DB) {
	t.Helper()
	for _, v := range storeTables {
		for _, q := range []string{
			"CREATE TABLE " + v + "_t AS SELECT * FROM " + v,
			"DROP VIEW " + v,
			"ALTER TABLE " + v + "_t RENAME TO " + v,
		} {
			if _, err := db.Exec(q); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// onParquet is the number of cases run on the Parquet views before
// materialize.
const onParquet = 25

func query(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// cases returns every period of the store with, as asOf, the day before,
// of and after every filing date of that period.
func cases(t *testing.T, db *sql.DB) map[civil.Day][]civil.Day {
	t.Helper()
	rows, err := db.Query(`SELECT DISTINCT period, filing_date FROM filings`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[civil.Day][]civil.Day{}
	for rows.Next() {
		var p, f time.Time
		if err := rows.Scan(&p, &f); err != nil {
			t.Fatal(err)
		}
		pd, fd := day(p), day(f)
		out[pd] = append(out[pd], fd-1, fd, fd+1)
	}
	for p, ds := range out {
		slices.Sort(ds)
		out[p] = slices.Compact(ds)
	}
	return out
}

func day(t time.Time) civil.Day { return civil.DayOf(t.Year(), t.Month(), t.Day()) }

func sqlDate(d civil.Day) string { return d.String() }

// pub converts a date to the library's.
func pub(d civil.Day) edgar13f.Date { return edgar13f.MustParseDate(d.String()) }

// TestHoldingsSQL: holdings_asof.sql for every manager (the panel) equals
// the Go panel, row for row, for every period and asOf of the corpus.
func TestHoldingsSQL(t *testing.T) {
	d, db := setup(t)
	q := query(t, "holdings_asof.sql")
	n, rowsSeen := 0, 0
	for period, asOfs := range cases(t, db) {
		for _, asOf := range asOfs {
			if n == onParquet {
				materialize(t, db)
			}
			var want []string
			for pr, err := range d.Panel(context.Background(), pub(period), pub(asOf)) {
				if err != nil {
					t.Fatal(err)
				}
				want = append(want, fmt.Sprintf("%s %s %s %s %s|%s|%s|%s %d %d %d %s %s %s %s %d %d %d",
					pr.CIK, pr.Base, pr.Accession, pr.FilingDate, pr.NameOfIssuer, pr.TitleOfClass, pr.CUSIP, pr.FIGI,
					pr.Value, pr.ValueUSD, pr.SharesOrPrincipal, pr.ShPrn, pr.PutCall, pr.InvestmentDiscretion, pr.OtherManager,
					pr.VotingSole, pr.VotingShared, pr.VotingNone))
			}
			rows, err := db.Query(q, sqlDate(asOf), sqlDate(period), nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for rows.Next() {
				var (
					cik, value, valueUSD, shares, vs, vsh, vn, rank int64
					rowNo                                           int32
					base, acc, issuer, class, cusip, figi           string
					shPrn, putCall, disc, other                     string
					filed                                           time.Time
				)
				if err := rows.Scan(&cik, &base, &acc, &filed, &rank, &rowNo, &issuer, &class, &cusip, &figi, &value, &valueUSD,
					&shares, &shPrn, &putCall, &disc, &other, &vs, &vsh, &vn); err != nil {
					t.Fatal(err)
				}
				_ = rowNo // the order of the rows is compared; the library does not expose row_no
				got = append(got, fmt.Sprintf("%d %s %s %s %s|%s|%s|%s %d %d %d %s %s %s %s %d %d %d",
					cik, base, acc, day(filed), issuer, class, cusip, figi, value, valueUSD, shares, shPrn, putCall, disc, other, vs, vsh, vn))
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			rows.Close()
			if !slices.Equal(got, want) {
				t.Fatalf("holdings_asof.sql(%s, %s): %d rows, Go panel %d rows\nfirst difference: %s", asOf, period, len(got), len(want), firstDiff(got, want))
			}
			n++
			rowsSeen += len(want)
		}
	}
	t.Logf("%d (period, asOf) panels, %d rows, equal", n, rowsSeen)
	if rowsSeen == 0 {
		t.Fatal("no rows compared")
	}
	// One manager: the cik parameter.
	rows, err := db.Query(`SELECT count(*) FROM (`+strings.TrimSuffix(strings.TrimSpace(q), ";")+`)`, "2025-11-13", "2024-12-31", 9000001)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var count int
	for rows.Next() {
		rows.Scan(&count)
	}
	h, err := d.Holdings(context.Background(), "9000001", edgar13f.MustParseDate("2024-12-31"), edgar13f.MustParseDate("2025-11-13"))
	if err != nil || count != len(h.Holdings) || count == 0 {
		t.Fatalf("cik 9000001: SQL %d rows, Go %v (%v)", count, h, err)
	}
}

func firstDiff(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("\n sql %s\n  go %s", a[i], b[i])
		}
	}
	return "one is a prefix of the other"
}

// TestHoldersSQL: holders_asof.sql equals datasets.Store.Holders for every CUSIP,
// period and asOf of the corpus.
func TestHoldersSQL(t *testing.T) {
	d, db := setup(t)
	q := query(t, "holders_asof.sql")
	all := cases(t, db)
	rows, err := db.Query(`SELECT DISTINCT cusip, period FROM holdings`)
	if err != nil {
		t.Fatal(err)
	}
	type key struct {
		cusip  string
		period civil.Day
	}
	var keys []key
	for rows.Next() {
		var c string
		var p time.Time
		rows.Scan(&c, &p)
		keys = append(keys, key{c, day(p)})
	}
	rows.Close()
	n, runs := 0, 0
	var stmt *sql.Stmt
	defer func() {
		if stmt != nil {
			stmt.Close()
		}
	}()
	for _, k := range keys {
		for _, asOf := range all[k.period] {
			if runs == onParquet {
				materialize(t, db)
			}
			runs++
			hl, err := d.Holders(context.Background(), k.cusip, pub(k.period), pub(asOf), datasets.Limit(datasets.MaxHolders))
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, h := range hl.Holders {
				want = append(want, fmt.Sprintf("%s %s %s %s %d %s %s %d %d %d", h.CIK, h.ManagerName, h.Base.Accession,
					h.Base.FilingDate, len(h.Sources), h.PutCall, h.ShPrn, h.Shares, h.ValueUSD, len(h.Holdings)))
			}
			if runs == onParquet+1 || stmt == nil {
				if stmt != nil {
					stmt.Close()
				}
				if stmt, err = db.Prepare(q); err != nil {
					t.Fatal(err)
				}
			}
			rows, err := stmt.Query(sqlDate(asOf), sqlDate(k.period), strings.ToLower(k.cusip))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for rows.Next() {
				var (
					cik, sources, shares, value, count int64
					name, base, putCall, shPrn         string
					filed                              time.Time
				)
				if err := rows.Scan(&cik, &name, &base, &filed, &sources, &putCall, &shPrn, &shares, &value, &count); err != nil {
					t.Fatal(err)
				}
				got = append(got, fmt.Sprintf("%d %s %s %s %d %s %s %d %d %d", cik, name, base, day(filed), sources, putCall, shPrn, shares, value, count))
			}
			rows.Close()
			if !slices.Equal(got, want) {
				t.Fatalf("holders_asof.sql(%s, %s, %s):\n sql %q\n  go %q", asOf, k.period, k.cusip, got, want)
			}
			if len(want) > 0 {
				n++
			}
		}
	}
	t.Logf("%d Holders answers equal, %d of them non-empty", runs, n)
	if n == 0 {
		t.Fatal("nothing compared")
	}
}
