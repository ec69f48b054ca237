package edgar13f_test

import (
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/edgartest"
)

// plantedMismatch is the mirror's synthetic report whose cover counts a row
// its table lacks (testdata/SCENARIOS.md, CIK 9000003).
const plantedMismatch = "0009000003-25-000002"

// TestReconcilePlantedMismatch: a table that does not match its cover is
// reported, with the cover's totals as filed, and answered as filed (two
// rows), cold and from the cache alike.
func TestReconcilePlantedMismatch(t *testing.T) {
	warm, _ := edgartest.MirrorClient(t)
	cold, _ := edgartest.MirrorClient(t, edgar13f.WithCache(nil))
	ctx := context.Background()
	for i, c := range []*edgar13f.Client{warm, warm, cold} {
		snap, err := c.Holdings(ctx, "9000003", date("2025-06-30"), date("2025-08-14"))
		if err != nil {
			t.Fatal(err)
		}
		want := []edgar13f.Reconciliation{{
			Citation: snap.Base,
			Cover:    edgar13f.Totals{Stated: true, Entries: 3, Value: 2212450},
			Matched:  false,
		}}
		if diff := cmp.Diff(want, snap.Reconciliations); diff != "" {
			t.Errorf("answer %d: reconciliations (-want +got):\n%s", i, diff)
		}
		if snap.Base.Accession != plantedMismatch || len(snap.Holdings) != 2 {
			t.Errorf("answer %d: base %s with %d rows; want %s with its 2 rows as filed", i, snap.Base.Accession, len(snap.Holdings), plantedMismatch)
		}
	}
	// The diff reports both periods' sources.
	cmpn, err := warm.Diff(ctx, "9000003", date("2025-03-31"), date("2025-06-30"), date("2025-08-14"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cmpn.ReconciliationsA) != 1 || !cmpn.ReconciliationsA[0].Matched || len(cmpn.ReconciliationsB) != 1 || cmpn.ReconciliationsB[0].Matched {
		t.Errorf("diff reconciliations A %+v, B %+v; want A matched, B not", cmpn.ReconciliationsA, cmpn.ReconciliationsB)
	}
	// Filings states the same cover totals.
	list, err := warm.Filings(ctx, "9000003", date("2025-08-14"), edgar13f.ForPeriod(date("2025-06-30")))
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Filings) != 1 || list.Filings[0].Totals != (edgar13f.Totals{Stated: true, Entries: 3, Value: 2212450}) {
		t.Errorf("Filings = %+v", list.Filings)
	}
}

// TestReconcileRedactedTableMatches: Berkshire's 2022Q3 table holds rows
// that default redaction removes; the table is counted before redaction, so
// it matches its cover although the answer holds fewer rows.
func TestReconcileRedactedTableMatches(t *testing.T) {
	c, _ := edgartest.MirrorClient(t)
	snap, err := c.Holdings(context.Background(), "1067983", date("2022-09-30"), date("2022-11-15"))
	if err != nil {
		t.Fatal(err)
	}
	r := snap.Reconciliations
	if len(r) != 1 || !r[0].Matched || r[0].Cover != (edgar13f.Totals{Stated: true, Entries: 179, Value: 296096640}) {
		t.Fatalf("reconciliations %+v", r)
	}
	if int64(len(snap.Holdings)) >= r[0].Cover.Entries {
		t.Errorf("%d rows after redaction; want fewer than the %d the cover counts", len(snap.Holdings), r[0].Cover.Entries)
	}
}

// TestReconcileRealMirror answers, for every holdings report with a table in
// the mirror, the period as of the day it was filed, with default
// redaction, and checks that every source filing cited reconciles with its
// cover, except the planted mismatch. Every table of the mirror must be
// checked at least once.
func TestReconcileRealMirror(t *testing.T) {
	c, _ := edgartest.MirrorClient(t)
	ctx := context.Background()
	root := filepath.Join(edgartest.MirrorDir, "www.sec.gov", "Archives", "edgar", "data")
	tables := map[string]string{} // accession -> CIK
	err := fs.WalkDir(os.DirFS(root), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".txt") {
			return err
		}
		tables[strings.TrimSuffix(path.Base(p), ".txt")] = strings.Split(p, "/")[0]
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	checked := map[string]bool{}
	for acc, cik := range tables {
		list, err := c.Filings(ctx, cik, date("2026-12-31"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range list.Filings {
			if f.Accession != acc || (f.Form != edgar13f.Form13FHR && f.Form != edgar13f.Form13FHRA) {
				continue
			}
			snap, err := c.Holdings(ctx, cik, f.Period, f.FilingDate)
			if edgartest.Reason(err) == edgar13f.NotYetFiled {
				continue // a new-holdings amendment with no base: no answer cites it
			}
			if err != nil {
				t.Fatalf("Holdings(%s, %s, %s): %v", cik, f.Period, f.FilingDate, err)
			}
			for _, r := range snap.Reconciliations {
				checked[r.Accession] = true
				if r.Matched != (r.Accession != plantedMismatch) {
					t.Errorf("%s (CIK %s): matched %v, cover %+v", r.Accession, cik, r.Matched, r.Cover)
				}
			}
		}
	}
	var unchecked []string
	for acc := range tables {
		if !checked[acc] {
			unchecked = append(unchecked, acc)
		}
	}
	slices.Sort(unchecked)
	// Left out: the two notices (a cover, no table) and the new-holdings
	// amendment that no answer cites, all of CIK 9000002.
	want := []string{"0009000002-25-000001", "0009000002-25-000003", "0009000002-25-000004"}
	if diff := cmp.Diff(want, unchecked); diff != "" {
		t.Errorf("filings never checked (-want +got):\n%s", diff)
	}
	t.Logf("%d source filings reconciled", len(checked))
	if len(checked) < 15 {
		t.Errorf("only %d filings checked", len(checked))
	}
}
