package companies_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/companies"
	"github.com/edgar13f/edgar13f/internal/edgartest"
)

// submissionsJSON is a filing list (or, with page, an older page) of
// EDGAR's submissions API holding rows (accession, form, filing date).
func submissionsJSON(t *testing.T, rows [][3]string, page bool, files ...map[string]any) []byte {
	t.Helper()
	cols := map[string][]any{}
	for _, r := range rows {
		for i, k := range []string{"accessionNumber", "form", "filingDate"} {
			cols[k] = append(cols[k], r[i])
		}
		for _, k := range []string{"reportDate", "acceptanceDateTime", "primaryDocument"} {
			cols[k] = append(cols[k], "")
		}
		cols["size"] = append(cols["size"], 1)
	}
	v := any(cols)
	if !page {
		if files == nil {
			files = []map[string]any{}
		}
		v = map[string]any{"cik": "9999993", "name": "Synthetic Since Inc.", "filings": map[string]any{"recent": cols, "files": files}}
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFilingsSince: Since keeps the filings made on or after a date, and of
// the older pages reads only those whose range meets [since, asOf].
func TestFilingsSince(t *testing.T) {
	const pageName = "CIK0009999993-submissions-001.json"
	pageURL := "https://data.sec.gov/submissions/" + pageName
	files := map[string][]byte{
		"https://data.sec.gov/submissions/CIK0009999993.json": submissionsJSON(t, [][3]string{
			{"0009999993-25-000001", "10-K/A", "2025-02-01"}, // after asOf
			{"0009999993-24-000020", "10-K/A", "2024-03-20"},
			{"0009999993-24-000010", "10-K", "2024-03-01"},
			{"0009999993-23-000010", "10-K/A", "2023-03-01"},
		}, false, map[string]any{"name": pageName, "filingCount": 1, "filingFrom": "2001-01-02", "filingTo": "2022-12-30"}),
		pageURL: submissionsJSON(t, [][3]string{{"0009999993-22-000010", "10-K/A", "2022-06-01"}}, true),
	}
	fetch := &edgartest.CountingFetcher{Files: files} // no Next: any other URL is not found
	c, err := edgar13f.NewClient(edgar13f.WithCache(nil), edgar13f.WithFetcher(fetch))
	if err != nil {
		t.Fatal(err)
	}
	cs := companies.New(c)
	asOf := date("2024-12-31")
	for _, tc := range []struct {
		name     string
		since    string
		want     []string
		readPage bool
	}{
		{"since after the page", "2024-03-10", []string{"0009999993-24-000020"}, false},
		{"since on a filing date", "2023-03-01", []string{"0009999993-24-000020", "0009999993-23-000010"}, false},
		{"since inside the page", "2022-01-01", []string{"0009999993-24-000020", "0009999993-23-000010", "0009999993-22-000010"}, true},
		{"since after asOf", "2025-01-01", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := cs.Filings(context.Background(), "9999993", asOf, companies.FormType("10-k/a"), companies.Since(date(tc.since)), companies.Limit(companies.MaxFilings))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range l.Filings {
				got = append(got, f.Accession)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("Filings since %s = %q; want %q", tc.since, got, tc.want)
			}
			read := slices.ContainsFunc(fetch.Take(), func(u string) bool { return strings.HasSuffix(u, pageName) })
			if read != tc.readPage {
				t.Errorf("read the older page: %v; want %v", read, tc.readPage)
			}
		})
	}
	if _, err := cs.Filings(context.Background(), "9999993", asOf, companies.Since(edgar13f.Date{Year: 2024, Month: 2, Day: 30})); edgartest.Reason(err) != edgar13f.InvalidArgument {
		t.Errorf("Since(2024-02-30): %v; want invalid_argument", err)
	}
}
