package companies_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/companies"
	"github.com/edgar13f/edgar13f/internal/edgartest"
	"github.com/edgar13f/edgar13f/mirror"
)

// rewritingFetcher reads the mirror, with some documents served as given
// (nil: not found) and the filing list's rows of some accessions without
// their primary document, as EDGAR lists some filings.
type rewritingFetcher struct {
	next       edgar13f.Fetcher
	serve      map[string][]byte // by URL suffix
	noPrimary  map[string]bool   // accessions whose rows name no primary document
	editedURLs []string
}

func (f *rewritingFetcher) Fetch(ctx context.Context, url string) ([]byte, error) {
	for suffix, b := range f.serve {
		if strings.HasSuffix(url, suffix) {
			if b == nil {
				return nil, &edgar13f.FetchError{URL: url, StatusCode: 404, Attempts: 1, Err: edgar13f.ErrNotFound}
			}
			return b, nil
		}
	}
	b, err := f.next.Fetch(ctx, url)
	if err != nil || !strings.Contains(url, "/submissions/CIK") {
		return b, err
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	cols := doc // an older page holds the columns at its top
	if fl, ok := doc["filings"].(map[string]any); ok {
		cols = fl["recent"].(map[string]any)
	}
	for i, acc := range cols["accessionNumber"].([]any) {
		if f.noPrimary[acc.(string)] {
			cols["primaryDocument"].([]any)[i] = ""
			f.editedURLs = append(f.editedURLs, url)
		}
	}
	return json.Marshal(doc)
}

// folderIndex is an index.json of a filing folder listing names, in
// EDGAR's form.
func folderIndex(names ...string) []byte {
	type item struct {
		Name string `json:"name"`
		Type string `json:"type"`
		Size string `json:"size"`
	}
	var idx struct {
		Directory struct {
			Item []item `json:"item"`
		} `json:"directory"`
	}
	for _, n := range names {
		idx.Directory.Item = append(idx.Directory.Item, item{Name: n, Type: "text.gif"})
	}
	b, _ := json.Marshal(idx)
	return b
}

// TestSectionWithoutPrimaryDocument: a filing whose row in the filing list
// names no primary document is read through its folder's index.json (one
// more request, cached like the document); when index.json cannot tell the
// primary document, or cannot be read, the error names the filing-list
// page that lists the filing and index.json.
func TestSectionWithoutPrimaryDocument(t *testing.T) {
	const folder = "/Archives/edgar/data/320193/000032019324000123/"
	apple2024 := folderIndex("0000320193-24-000123-index-headers.html", "0000320193-24-000123-index.html", "0000320193-24-000123.txt",
		"0000320193-24-000123-xbrl.zip", "a10-kexhibit4109282024.htm", "a10-kexhibit2119282024.htm", "a10-kexhibit3119282024.htm",
		"aapl-20240928.htm", "aapl-20240928.xsd", "aapl-20240928_cal.xml", "aapl-20240928_htm.xml", "FilingSummary.xml",
		"Financial_Report.xlsx", "R1.htm", "R2.htm")
	newClient := func(t *testing.T, serve map[string][]byte) (*companies.Companies, *edgartest.CountingFetcher, *rewritingFetcher) {
		rf := &rewritingFetcher{next: mirror.NewFetcher(edgartest.MirrorFS(t)), serve: serve,
			noPrimary: map[string]bool{apple10K2024: true, "0001193125-09-214859": true}}
		f := &edgartest.CountingFetcher{Next: rf}
		c, err := edgar13f.NewClient(edgar13f.WithFetcher(f), edgar13f.WithCache(edgartest.NewMemCache()),
			edgar13f.WithClock(edgartest.Clock(func() time.Time { return edgartest.FixedNow })))
		if err != nil {
			t.Fatal(err)
		}
		return companies.New(c), f, rf
	}
	ctx := context.Background()
	const list = "https://data.sec.gov/submissions/CIK0000320193.json"

	t.Run("index.json names it", func(t *testing.T) {
		cs, f, rf := newClient(t, map[string][]byte{folder + "index.json": apple2024})
		s, err := cs.Section(ctx, appleCIK, apple10K2024, "1A", date("2024-11-01"), companies.MaxChars(300))
		if err != nil {
			t.Fatal(err)
		}
		if len(rf.editedURLs) == 0 {
			t.Fatal("the filing list's row kept its primary document")
		}
		if s.SourceURL != "https://www.sec.gov"+folder+"aapl-20240928.htm" || !strings.HasPrefix(s.Text, "Item 1A. Risk Factors\nThe Company’s business") {
			t.Errorf("section %+v", s)
		}
		want := []string{list, "https://www.sec.gov" + folder + "index.json", "https://www.sec.gov" + folder + "aapl-20240928.htm"}
		if got := f.Take(); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("requests %v, want %v", got, want)
		}
		if _, err := cs.Section(ctx, appleCIK, apple10K2024, "7", date("2025-01-01")); err != nil {
			t.Fatal(err)
		}
		if got := f.Take(); len(got) != 0 {
			t.Errorf("a second section fetched %v", got)
		}
	})

	t.Run("index.json cannot tell", func(t *testing.T) {
		cs, _, _ := newClient(t, map[string][]byte{folder + "index.json": folderIndex("0000320193-24-000123.txt", "annual.htm", "report.htm", "ex21.htm")})
		_, err := cs.Section(ctx, appleCIK, apple10K2024, "1A", date("2024-11-01"))
		var pe *edgar13f.ParseError
		if !errors.As(err, &pe) || pe.Document != "https://www.sec.gov"+folder+"index.json" ||
			!strings.Contains(err.Error(), list+" names no primary document") || !strings.Contains(err.Error(), "annual.htm, report.htm") {
			t.Errorf("error %v; want a ParseError naming the filing list, index.json and the candidates", err)
		}
	})

	t.Run("no index.json", func(t *testing.T) {
		cs, _, _ := newClient(t, map[string][]byte{folder + "index.json": nil})
		_, err := cs.Section(ctx, appleCIK, apple10K2024, "1A", date("2024-11-01"))
		if !errors.Is(err, edgar13f.ErrNotFound) || !strings.Contains(err.Error(), list+" names no primary document") ||
			!strings.Contains(err.Error(), folder+"index.json") {
			t.Errorf("error %v; want not found, naming the filing list and index.json", err)
		}
	})

	// Apple's 10-K of 2009 is listed on an older page of the filing list
	// (the mirror holds no index.json for it): the error names that page.
	t.Run("older page", func(t *testing.T) {
		cs, _, _ := newClient(t, nil)
		_, err := cs.Section(ctx, appleCIK, "0001193125-09-214859", "7", date("2010-01-01"))
		page := "https://data.sec.gov/submissions/CIK0000320193-submissions-001.json"
		if !errors.Is(err, edgar13f.ErrNotFound) || !strings.Contains(err.Error(), page+" names no primary document") ||
			!strings.Contains(err.Error(), "/Archives/edgar/data/320193/000119312509214859/index.json") {
			t.Errorf("error %v; want not found, naming %s and index.json", err, page)
		}
	})
}
