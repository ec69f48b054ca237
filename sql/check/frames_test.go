package check

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/frames"
)

// setupFrames imports the mirror's companyfacts.zip through package
// frames and opens DuckDB with the shipped frames views over the store.
func setupFrames(t *testing.T) (*frames.Store, *sql.DB, string) {
	t.Helper()
	s, err := frames.OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	zp := filepath.Join(mirrorRoot, "www.sec.gov", "Archives", "edgar", "daily-index", "xbrl", "companyfacts.zip")
	if _, err := s.ImportFile(context.Background(), zp); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("SET threads = 1"); err != nil {
		t.Fatal(err)
	}
	views, err := os.ReadFile("../frames_views.sql")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(strings.ReplaceAll(string(views), "FRAMES_DIR", filepath.ToSlash(s.Dir()))); err != nil {
		t.Fatal(err)
	}
	q, err := os.ReadFile("../frame_asof.sql")
	if err != nil {
		t.Fatal(err)
	}
	return s, db, string(q)
}

func dateOfTime(t time.Time) edgar13f.Date { return edgar13f.DateOf(t) }

// sqlFrame runs frame_asof.sql and returns its rows as frames.Company
// values.
func sqlFrame(t *testing.T, db *sql.DB, query, concept, period, unit string, asOf edgar13f.Date) []frames.Company {
	t.Helper()
	_, tags, defUnit := frames.Concept(concept)
	if unit == "" {
		unit = defUnit
	}
	asOfTime := time.Date(asOf.Year, asOf.Month, asOf.Day, 0, 0, 0, 0, time.UTC)
	rows, err := db.Query(query, asOfTime, strings.Join(tags, ","), unit, period)
	if err != nil {
		t.Fatalf("%s %s: %v", concept, period, err)
	}
	defer rows.Close()
	out := []frames.Company{}
	for rows.Next() {
		var c frames.Company
		var name sql.NullString
		var start sql.NullTime
		var end, filed, firstFiled time.Time
		if err := rows.Scan(&c.CIK, &name, &c.Tag, &start, &end, &c.Value, &c.ValueFloat, &c.Accession, &c.Form, &filed,
			&c.FirstReportedValue, &c.FirstReportedAccession, &firstFiled, &c.Restated); err != nil {
			t.Fatal(err)
		}
		c.EntityName = name.String
		if start.Valid {
			c.PeriodStart = dateOfTime(start.Time)
		}
		c.PeriodEnd, c.Filed, c.FirstReportedFiled = dateOfTime(end), dateOfTime(filed), dateOfTime(firstFiled)
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestFrameSQLEqualsGo: frame_asof.sql on DuckDB gives, company for
// company, the frame package frames gives, on the real company facts of the
// mirror, for aliases and tags, years, quarters and instants, on dates
// before and after restatements.
func TestFrameSQLEqualsGo(t *testing.T) {
	s, db, query := setupFrames(t)
	ctx := context.Background()
	n := 0
	for _, concept := range []string{"net_income", "revenue", "total_assets", "eps_diluted", "shares_outstanding", "cash",
		"operating_cash_flow", "us-gaap:Liabilities", "ifrs-full:Revenue", "ifrs-full:ProfitLoss"} {
		for _, period := range []string{"CY2009", "CY2010", "CY2019Q1", "CY2021Q3", "CY2022Q4I", "CY2023", "CY2023Q4I", "CY2024Q2"} {
			for _, asOf := range []string{"2009-12-01", "2010-02-01", "2012-06-30", "2020-03-01", "2024-11-30"} {
				d := edgar13f.MustParseDate(asOf)
				f, err := s.Frame(ctx, concept, period, d, frames.Limit(frames.MaxLimit))
				if err != nil {
					continue // a decline: unknown_concept on that date
				}
				got := sqlFrame(t, db, query, concept, period, "", d)
				if len(got) != len(f.Companies) {
					t.Errorf("%s %s %s: SQL %d companies, Go %d:\n%+v\n%+v", concept, period, asOf, len(got), len(f.Companies), got, f.Companies)
					continue
				}
				for i := range got {
					if got[i] != f.Companies[i] {
						t.Errorf("%s %s %s: SQL %+v\nGo %+v", concept, period, asOf, got[i], f.Companies[i])
					}
				}
				n += len(got)
			}
		}
	}
	if n < 100 {
		t.Errorf("only %d company values compared", n)
	}
	t.Logf("%d company values equal", n)
}
