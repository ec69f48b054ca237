package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/companies"
	"github.com/edgar13f/edgar13f/internal/edgartest"
	"github.com/edgar13f/edgar13f/mirror"
)

// Index indexes reports, not forms: the newest original filings of a kind
// with the amendments of those reports, never "the newest 10-K/A" alone.

// filing is a CompanyFiling of the selection tests: accession, form,
// filing date, period of report ("" for none).
func filing(acc, form, filed, period string) companies.Filing {
	f := companies.Filing{Accession: acc, Form: edgar13f.Form(form), FilingDate: day(filed)}
	if period != "" {
		f.Period = day(period)
	}
	return f
}

func TestPickReports(t *testing.T) {
	apple10K := filing("0000320193-24-000123", "10-K", "2024-11-01", "2024-09-28")
	apple10K23 := filing("0000320193-23-000106", "10-K", "2023-11-03", "2023-09-30")
	apple10KA := filing("0001193125-10-012091", "10-K/A", "2010-01-25", "2009-09-26")
	amends23 := filing("0000320193-24-000200", "10-K/A", "2024-12-02", "2023-09-30")
	amends24 := filing("0000320193-25-000001", "10-K/A", "2025-01-10", "2024-09-28")
	noPeriod := filing("0000320193-25-000002", "10-K/A", "2025-01-11", "")
	q := filing("0000320193-24-000081", "10-Q", "2024-08-02", "2024-06-29")
	qa := filing("0000320193-24-000090", "10-Q/A", "2024-09-01", "2024-06-29")
	qaOld := filing("0000320193-24-000091", "10-Q/A", "2024-09-02", "2024-03-30")
	for _, tc := range []struct {
		name                  string
		originals, amendments []companies.Filing
		want                  []companies.Filing
	}{
		{"the 10-K/A of 2010 amends an older report", []companies.Filing{apple10K}, []companies.Filing{apple10KA}, []companies.Filing{apple10K}},
		{"an amendment of the newest report", []companies.Filing{apple10K}, []companies.Filing{amends24, apple10KA}, []companies.Filing{amends24, apple10K}},
		{"an amendment of the second of two reports", []companies.Filing{apple10K, apple10K23}, []companies.Filing{amends23, apple10KA}, []companies.Filing{amends23, apple10K, apple10K23}},
		{"the amendment of the second report is not picked with one", []companies.Filing{apple10K}, []companies.Filing{amends23}, []companies.Filing{apple10K}},
		{"a lone 10-K/A", nil, []companies.Filing{amends24}, nil},
		{"a 10-Q and its 10-Q/A", []companies.Filing{q}, []companies.Filing{qaOld, qa}, []companies.Filing{qaOld, qa, q}[1:]},
		{"a lone 10-Q/A", nil, []companies.Filing{qa}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := pickReports("320193", tc.originals, tc.amendments)
			if err != nil {
				t.Fatal(err)
			}
			var g, w []string
			for _, f := range got {
				g = append(g, f.Accession)
			}
			for _, f := range tc.want {
				w = append(w, f.Accession)
			}
			if !slices.Equal(g, w) {
				t.Errorf("pickReports = %v; want %v", g, w)
			}
		})
	}
	// An amendment without a period of report may amend one of the
	// reports picked or an older one: which is unknown, so it is an error
	// naming it, never left out in silence.
	_, err := pickReports("320193", []companies.Filing{apple10K}, []companies.Filing{amends24, noPeriod})
	var ie *IndexError
	if !errors.As(err, &ie) || ie.CIK != "320193" || ie.Accession != noPeriod.Accession || ie.Form != "10-K/A" ||
		!strings.Contains(err.Error(), "no period of report") {
		t.Errorf("pickReports of an amendment without a period: %v; want an IndexError naming it", err)
	}
}

// TestIndexAmendmentWithoutPeriod: Index fails, naming the amendment, when
// the filing list gives an amendment filed since the report picked no
// period of report, before anything is read or stored; an amendment
// without a period filed before the report picked amends an older report
// and changes nothing.
func TestIndexAmendmentWithoutPeriod(t *testing.T) {
	list := listJSON(t, "9999994", "Synthetic Unperiodic Inc.", [][4]string{
		{"0009999994-24-000020", "10-K/A", "2024-04-01", ""},
		{"0009999994-24-000010", "10-K", "2024-03-01", "2023-12-31"},
		{"0009999994-23-000020", "10-K/A", "2023-04-01", ""},
		{"0009999994-23-000010", "10-K", "2023-03-01", "2022-12-31"},
	})
	c, err := edgar13f.NewClient(edgar13f.WithCache(nil), edgar13f.WithFetcher(&edgartest.CountingFetcher{Next: mirror.NewFetcher(edgartest.MirrorFS(t)),
		Files: map[string][]byte{"https://data.sec.gov/submissions/CIK0009999994.json": list}}))
	if err != nil {
		t.Fatal(err)
	}
	st := newMemStore()
	e, err := New(c, st)
	if err != nil {
		t.Fatal(err)
	}
	r := &fakeItems{fail: map[string]error{}}
	e.items = r.read
	res, err := e.Index(context.Background(), []string{"9999994"}, day("2024-12-31"))
	var ie *IndexError
	if !errors.As(err, &ie) || ie.Accession != "0009999994-24-000020" || ie.CIK != "9999994" || ie.Form != "10-K/A" {
		t.Fatalf("Index = %+v, %v; want an IndexError naming the 10-K/A without a period", res, err)
	}
	if fs, _ := st.Filings(context.Background(), lastDate); len(fs) != 0 || len(r.take()) != 0 {
		t.Errorf("stored %v before failing; want nothing read or stored", fs)
	}
	// As of the day before that amendment, the 10-K of 2024 alone: the
	// 10-K/A of 2023 was filed before it.
	res, err = e.Index(context.Background(), []string{"9999994"}, day("2024-03-31"))
	if err != nil || len(res.Indexed) != 1 || res.Indexed[0].Accession != "0009999994-24-000010" {
		t.Fatalf("Index before the amendment = %+v, %v; want the 10-K of 2024", res, err)
	}
}

// listJSON is a filing list of EDGAR's submissions API holding rows
// (accession, form, filing date, report date) and the older pages named.
func listJSON(t *testing.T, cik, name string, rows [][4]string, pages ...map[string]any) []byte {
	t.Helper()
	cols := map[string][]any{}
	for _, r := range rows {
		for i, k := range []string{"accessionNumber", "form", "filingDate", "reportDate"} {
			cols[k] = append(cols[k], r[i])
		}
		cols["acceptanceDateTime"] = append(cols["acceptanceDateTime"], "")
		cols["primaryDocument"] = append(cols["primaryDocument"], "doc.htm")
		cols["size"] = append(cols["size"], 1)
	}
	if pages == nil {
		pages = []map[string]any{}
	}
	b, err := json.Marshal(map[string]any{"cik": cik, "name": name, "fiscalYearEnd": "1231", "filings": map[string]any{"recent": cols, "files": pages}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestIndexReports indexes synthetic filing lists: the newest 10-K with its
// 10-K/A, never an amendment of an older report nor a 10-K/A alone, and the
// same for 10-Q; an older page of the list that ends before the reports
// picked is not read (it is absent here, so reading it would fail). As on
// EDGAR, whose recent block holds at least 1,000 filings when a list has
// older pages, the recent block holds more filings than one answer lists.
func TestIndexReports(t *testing.T) {
	const page = "CIK0009999991-submissions-001.json"
	var forms4 [][4]string
	for i := range companies.MaxFilings {
		forms4 = append(forms4, [4]string{fmt.Sprintf("0009999991-23-%06d", 500+i), "4", "2023-01-15", ""})
	}
	one := listJSON(t, "9999991", "Synthetic Reports Inc.", append([][4]string{
		{"0009999991-25-000001", "10-K/A", "2025-02-01", "2023-12-31"}, // after asOf
		{"0009999991-24-000050", "10-Q/A", "2024-08-01", "2023-09-30"}, // amends a 10-Q of 2023
		{"0009999991-24-000040", "10-Q/A", "2024-07-01", "2024-03-31"},
		{"0009999991-24-000030", "10-Q", "2024-05-01", "2024-03-31"},
		{"0009999991-24-000025", "10-K/A", "2024-04-01", "2022-12-31"}, // amends the 10-K of 2023
		{"0009999991-24-000020", "10-K/A", "2024-03-20", "2023-12-31"},
		{"0009999991-24-000010", "10-K", "2024-03-01", "2023-12-31"},
		{"0009999991-23-000020", "10-Q", "2023-11-01", "2023-09-30"},
		{"0009999991-23-000010", "10-K", "2023-03-01", "2022-12-31"},
	}, forms4...), map[string]any{"name": page, "filingCount": 5, "filingFrom": "2001-01-02", "filingTo": "2022-12-30"})
	lone := listJSON(t, "9999992", "Synthetic Amendments Inc.", [][4]string{
		{"0009999992-24-000020", "10-K/A", "2024-03-20", "2023-12-31"},
		{"0009999992-24-000010", "10-Q/A", "2024-03-01", "2023-09-30"},
		{"0009999992-24-000005", "8-K", "2024-02-01", ""},
	})
	fetch := &edgartest.CountingFetcher{Next: mirror.NewFetcher(edgartest.MirrorFS(t)), Files: map[string][]byte{
		"https://data.sec.gov/submissions/CIK0009999991.json": one,
		"https://data.sec.gov/submissions/CIK0009999992.json": lone,
	}}
	c, err := edgar13f.NewClient(edgar13f.WithCache(nil), edgar13f.WithFetcher(fetch))
	if err != nil {
		t.Fatal(err)
	}
	asOf := day("2024-12-31")
	for _, tc := range []struct {
		name string
		opts []IndexOption
		want []string // accession form, in Indexed order
	}{
		{"default", nil, []string{"0009999991-24-000020 10-K/A", "0009999991-24-000010 10-K"}},
		{"10-K/A names the 10-K reports", []IndexOption{FormType("10-k/a")}, []string{"0009999991-24-000020 10-K/A", "0009999991-24-000010 10-K"}},
		{"two 10-K reports", []IndexOption{Limit(2)}, []string{"0009999991-24-000025 10-K/A", "0009999991-24-000020 10-K/A", "0009999991-24-000010 10-K", "0009999991-23-000010 10-K"}},
		{"10-Q", []IndexOption{FormType("10-Q")}, []string{"0009999991-24-000040 10-Q/A", "0009999991-24-000030 10-Q"}},
		{"10-Q and 10-Q/A are one kind", []IndexOption{FormType("10-Q/A"), FormType("10-Q")}, []string{"0009999991-24-000040 10-Q/A", "0009999991-24-000030 10-Q"}},
		{"both kinds", []IndexOption{FormType("10-K"), FormType("10-Q")}, []string{"0009999991-24-000020 10-K/A", "0009999991-24-000010 10-K", "0009999991-24-000040 10-Q/A", "0009999991-24-000030 10-Q"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := New(c, newMemStore())
			if err != nil {
				t.Fatal(err)
			}
			r := &fakeItems{fail: map[string]error{}}
			e.items = r.read
			res, err := e.Index(context.Background(), []string{"9999991", "9999992"}, asOf, tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, x := range res.Indexed {
				got = append(got, fmt.Sprintf("%s %s", x.Accession, x.Form))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("indexed %q; want %q", got, tc.want)
			}
			for _, u := range fetch.Take() {
				if strings.HasSuffix(u, page) {
					t.Errorf("read %s, which ends before every report picked", u)
				}
			}
		})
	}
}

// TestIndexTooManyAmendments: when the amendments filed since the oldest
// original picked fill a whole list, some may have been cut off, so Index
// fails naming the company instead of indexing reports without them.
func TestIndexTooManyAmendments(t *testing.T) {
	rows := [][4]string{}
	for i := companies.MaxFilings; i >= 1; i-- {
		rows = append(rows, [4]string{fmt.Sprintf("0009999993-24-%06d", 100+i), "10-K/A", "2024-06-01", "2023-12-31"})
	}
	rows = append(rows, [4]string{"0009999993-24-000010", "10-K", "2024-03-01", "2023-12-31"})
	list := listJSON(t, "9999993", "Synthetic Amended Inc.", rows)
	c, err := edgar13f.NewClient(edgar13f.WithCache(nil), edgar13f.WithFetcher(&edgartest.CountingFetcher{Next: mirror.NewFetcher(edgartest.MirrorFS(t)),
		Files: map[string][]byte{"https://data.sec.gov/submissions/CIK0009999993.json": list}}))
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(c, newMemStore())
	if err != nil {
		t.Fatal(err)
	}
	r := &fakeItems{fail: map[string]error{}}
	e.items = r.read
	res, err := e.Index(context.Background(), []string{"9999993"}, day("2024-12-31"))
	if err == nil || !strings.Contains(err.Error(), "CIK 9999993") || !strings.Contains(err.Error(), "10-K/A") {
		t.Fatalf("Index = %+v, %v; want an error naming the company and its amendments", res, err)
	}
}

// TestIndexDefaultFormsMirror: with the default forms, Apple on the
// repository's mirror as of 2025-03-01 is its 10-K of 2024 alone, not
// beside the 10-K/A of 2010 (which amends the report of 2009); NVIDIA's
// is its 10-K of 2025.
func TestIndexDefaultFormsMirror(t *testing.T) {
	e, items, _ := fakeEngine(t, newMemStore())
	res, err := e.Index(context.Background(), []string{"AAPL", "NVDA"}, day("2025-03-01"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"0000320193-24-000123", "0001045810-25-000023"}
	if got := accessionsOf(res.Indexed); !slices.Equal(got, want) {
		t.Errorf("indexed %v; want %v", got, want)
	}
	if got := items.take(); !slices.Equal(got, want) {
		t.Errorf("read %v; want %v", got, want)
	}
}

// TestIndexReadsListOnce: Index lists a company's reports of every kind
// asked for, originals and amendments, from one read of its filing list
// (no cache here, so every read is a request). When the newest filings of
// any form are too many to hold the reports picked, it reads the list
// again per kind (two reads: the originals, then the amendments filed
// since), and picks the same reports.
func TestIndexReadsListOnce(t *testing.T) {
	const url = "https://data.sec.gov/submissions/CIK0009999995.json"
	rows := [][4]string{
		{"0009999995-24-000050", "10-Q/A", "2024-08-01", "2024-06-30"},
		{"0009999995-24-000040", "10-Q", "2024-07-15", "2024-06-30"},
		{"0009999995-24-000020", "10-K/A", "2024-04-01", "2023-12-31"},
		{"0009999995-24-000010", "10-K", "2024-03-01", "2023-12-31"},
		{"0009999995-23-000030", "10-K/A", "2023-06-01", "2022-12-31"},
		{"0009999995-23-000010", "10-K", "2023-03-01", "2022-12-31"},
	}
	var busy [][4]string // the same reports behind more 8-Ks than one list holds
	for i := range companies.MaxFilings + 5 {
		busy = append(busy, [4]string{fmt.Sprintf("0009999995-24-%06d", 900-i), "8-K", "2024-09-01", ""})
	}
	busy = append(busy, rows...)
	want := []string{"0009999995-24-000020", "0009999995-24-000010", "0009999995-24-000050", "0009999995-24-000040"}
	for _, tc := range []struct {
		name  string
		rows  [][4]string
		reads int
	}{
		{"reports among the newest filings", rows, 1},
		{"reports behind many 8-Ks", busy, 1 + 2*2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fetch := &edgartest.CountingFetcher{Next: mirror.NewFetcher(edgartest.MirrorFS(t)),
				Files: map[string][]byte{url: listJSON(t, "9999995", "Synthetic Busy Inc.", tc.rows)}}
			c, err := edgar13f.NewClient(edgar13f.WithCache(nil), edgar13f.WithFetcher(fetch))
			if err != nil {
				t.Fatal(err)
			}
			e, err := New(c, newMemStore())
			if err != nil {
				t.Fatal(err)
			}
			r := &fakeItems{fail: map[string]error{}}
			e.items = r.read
			res, err := e.Index(context.Background(), []string{"9999995"}, day("2024-12-31"), FormType("10-K"), FormType("10-Q"))
			if err != nil {
				t.Fatal(err)
			}
			if got := accessionsOf(res.Indexed); !slices.Equal(got, want) {
				t.Errorf("indexed %v; want %v", got, want)
			}
			n := 0
			for _, u := range fetch.Take() {
				if u == url {
					n++
				}
			}
			if n != tc.reads {
				t.Errorf("the filing list was read %d times; want %d", n, tc.reads)
			}
			if n > 1 && len(tc.rows) <= companies.MaxFilings {
				t.Errorf("read %d times although one list holds every filing", n)
			}
		})
	}
}
