package bulkstore

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/datasetzip"
)

// rowView drops the columns the XML path does not have (INFOTABLE_SK).
func rowView(rows []Row) []Row {
	out := make([]Row, len(rows))
	for i, r := range rows {
		r.SK = 0
		out[i] = r
	}
	return out
}

// TestHoldingsEqualXML: for every CIK, period and asOf (the day before, of
// and after each of the CIK's filing dates), the store's filings and rows
// resolved with the reference rule equal the rows parsed from the mirror's
// XML filings, row for row.
func TestHoldingsEqualXML(t *testing.T) {
	s := mirrorStore(t)
	want := mirrorFilings(t)
	cases, nonEmpty := 0, 0
	for cik, fs := range want {
		for _, period := range periods(fs) {
			for _, asOf := range asOfs(fs) {
				wr, wrows := expectHoldings(fs, period, asOf)
				got, err := s.Holdings(cik, period, asOf, oracleResolve)
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("cik %d period %s asOf %s", cik, period, asOf)
				if diff := cmp.Diff(wr, got.Resolution, cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("%s: resolution (-xml +store):\n%s", name, diff)
				}
				if diff := cmp.Diff(rowView(wrows), rowView(got.Rows), cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("%s: rows (-xml +store):\n%s", name, diff)
				}
				for _, f := range got.Sources {
					if f.FilingDate > asOf {
						t.Errorf("%s: source %s filed %s", name, f.Accession, f.FilingDate)
					}
				}
				cases++
				if len(wrows) > 0 {
					nonEmpty++
				}
			}
		}
	}
	t.Logf("%d (CIK, period, asOf) cases, %d with rows", cases, nonEmpty)
	if nonEmpty < 50 {
		t.Fatalf("only %d cases with rows", nonEmpty)
	}
}

// TestFilingsEqualXML compares the filing facts of every CIK.
func TestFilingsEqualXML(t *testing.T) {
	s := mirrorStore(t)
	for cik, fs := range mirrorFilings(t) {
		got, err := s.Filings(cik, civil.DayOf(2100, 1, 1))
		if err != nil {
			t.Fatal(err)
		}
		var want []Filing
		for _, f := range fs {
			want = append(want, f.Filing)
		}
		sortFiled(want)
		opts := cmpopts.IgnoreFields(Filing{}, "Window", "IsAmendment", "HasTotals", "TableEntryTotal", "TableValueTotal",
			"OtherIncludedManagers", "ConfidentialOmitted")
		if diff := cmp.Diff(want, got, opts); diff != "" {
			t.Errorf("cik %d filings (-xml +store):\n%s", cik, diff)
		}
		for _, f := range got {
			if w, _ := datasetzip.WindowOf(f.FilingDate); w.Name != f.Window {
				t.Errorf("%s filed %s sits in window %s", f.Accession, f.FilingDate, f.Window)
			}
		}
	}
}

// TestHoldersEqualXML: every holder of every CUSIP of the mirror, for
// every period and asOf, equals a brute-force answer over the XML filings.
func TestHoldersEqualXML(t *testing.T) {
	s := mirrorStore(t)
	all := mirrorFilings(t)
	// Per CUSIP: the periods of the filings holding it, and as asOf the day
	// before, of and after every filing date of those periods.
	type key struct {
		cusip  string
		period civil.Day
	}
	dates := map[civil.Day][]xmlFiling{}
	held := map[key]bool{}
	for _, fs := range all {
		for _, f := range fs {
			dates[f.Period] = append(dates[f.Period], f)
			for _, r := range f.rows {
				held[key{r.CUSIP, f.Period}] = true
			}
		}
	}
	checked := 0
	for k := range held {
		for _, asOf := range asOfs(dates[k.period]) {
			want := bruteHolders(all, k.cusip, k.period, asOf)
			got, err := s.Holders(strings.ToLower(k.cusip), k.period, asOf, oracleResolve)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(holderView(want), holderView(got), cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("Holders(%s, %s, %s) (-xml +store):\n%s", k.cusip, k.period, asOf, diff)
			}
			if len(want) > 0 {
				checked++
			}
		}
	}
	t.Logf("%d non-empty Holders answers checked", checked)
	if checked < 100 {
		t.Fatalf("only %d non-empty answers", checked)
	}
}

type holderSummary struct {
	CIK            int64
	Base           string
	Sources        []string
	PutCall, ShPrn string
	Shares, Value  int64
	Rows           []Row
}

func holderView(hs []Holder) []holderSummary {
	var out []holderSummary
	for _, h := range hs {
		v := holderSummary{CIK: h.CIK, Base: h.Base.Accession, PutCall: h.PutCall, ShPrn: h.ShPrn,
			Shares: h.Shares, Value: h.ValueUSD, Rows: rowView(h.Rows)}
		for _, f := range h.Sources {
			v.Sources = append(v.Sources, f.Accession)
		}
		out = append(out, v)
	}
	return out
}

// bruteHolders answers Holders from the XML filings, the slow way.
func bruteHolders(all map[int64][]xmlFiling, cusip string, period, asOf civil.Day) []Holder {
	var out []Holder
	for cik, fs := range all {
		r, rows := expectHoldings(fs, period, asOf)
		if r.Base == "" {
			continue
		}
		var src []Filing
		for _, acc := range append([]string{r.Base}, r.Supplements...) {
			for _, f := range fs {
				if f.Accession == acc {
					src = append(src, f.Filing)
				}
			}
		}
		var groups []*Holder
		for _, row := range rows {
			if !strings.EqualFold(row.CUSIP, cusip) {
				continue
			}
			var g *Holder
			for _, x := range groups {
				if x.PutCall == row.PutCall && x.ShPrn == row.ShPrn {
					g = x
				}
			}
			if g == nil {
				g = &Holder{CIK: cik, Base: src[0], Sources: src, PutCall: row.PutCall, ShPrn: row.ShPrn}
				groups = append(groups, g)
			}
			g.Shares += row.Shares
			g.ValueUSD += row.ValueUSD
			g.Rows = append(g.Rows, row)
		}
		for _, g := range groups {
			out = append(out, *g)
		}
	}
	sortHolders(out)
	return out
}

// TestPanelEqualXML: the panel of every period and asOf equals the
// concatenation, in CIK order, of every CIK's XML holdings.
func TestPanelEqualXML(t *testing.T) {
	s := mirrorStore(t)
	all := mirrorFilings(t)
	var ciks []int64
	dates := map[civil.Day][]xmlFiling{}
	for cik, fs := range all {
		ciks = append(ciks, cik)
		for _, f := range fs {
			dates[f.Period] = append(dates[f.Period], f)
		}
	}
	sortInts(ciks)
	checked := 0
	for period, fs := range dates {
		for _, asOf := range asOfs(fs) {
			var want []PanelRow
			for _, cik := range ciks {
				r, rows := expectHoldings(all[cik], period, asOf)
				for _, row := range rows {
					want = append(want, PanelRow{Row: row, Base: r.Base})
				}
			}
			var got []PanelRow
			for pr, err := range s.Panel(period, asOf, oracleResolve) {
				if err != nil {
					t.Fatal(err)
				}
				pr.SK = 0
				got = append(got, pr)
			}
			for i := range want {
				want[i].SK = 0
			}
			if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("Panel(%s, %s) (-xml +store):\n%s", period, asOf, diff)
			}
			if len(want) > 0 {
				checked++
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d non-empty panels", checked)
	}
}
