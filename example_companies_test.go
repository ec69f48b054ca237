package edgar13f_test

import (
	"context"
	"fmt"
	"log"

	"github.com/edgar13f/edgar13f"
)

// mirrorCompanies returns the company questions of a Client reading the
// recorded EDGAR mirror in testdata, without a cache.
func mirrorCompanies() *edgar13f.Companies {
	mirror, err := edgar13f.MirrorDir("testdata/mirror")
	if err != nil {
		log.Fatal(err)
	}
	c, err := edgar13f.NewClient(
		edgar13f.WithFetcher(edgar13f.NewMirrorFetcher(mirror)),
		edgar13f.WithCache(nil), // keep the example from writing a cache
	)
	if err != nil {
		log.Fatal(err)
	}
	return c.Companies()
}

// Apple restated its fiscal 2009 revenue in a 10-K/A filed on 2010-01-25.
// Asked on the day before, the answer is the value first reported; from
// that day on, the restated value, citing both filings.
func ExampleCompanies_Facts() {
	cs := mirrorCompanies()
	for _, asOf := range []string{"2010-01-24", "2010-01-25"} {
		ff, err := cs.Facts(context.Background(), "320193", "revenue", edgar13f.MustParseDate(asOf), edgar13f.Years(1))
		if err != nil {
			log.Fatal(err)
		}
		v := ff.Values[0]
		fmt.Printf("as of %s: FY%d %s %s = %s (%s %s)\n", asOf, v.FiscalYear, ff.Tag, ff.Unit, v.Value, v.Filing.Form, v.Filing.Accession)
		fmt.Printf("  first reported %s (%s %s), restated %v\n", v.FirstReportedValue, v.FirstReported.Form, v.FirstReported.FilingDate, v.Restated)
	}
	// Output:
	// as of 2010-01-24: FY2009 us-gaap:SalesRevenueNet USD = 36537000000 (10-K 0001193125-09-214859)
	//   first reported 36537000000 (10-K 2009-10-27), restated false
	// as of 2010-01-25: FY2009 us-gaap:SalesRevenueNet USD = 42905000000 (10-K/A 0001193125-10-012091)
	//   first reported 36537000000 (10-K 2009-10-27), restated true
}

// The first words of Item 1A of Apple's 10-K for fiscal 2024, which EDGAR
// accepted on 2024-11-01. Asked the day before, the filing does not exist
// yet, and the decline says nothing about it.
func ExampleCompanies_Section() {
	cs := mirrorCompanies()
	ctx := context.Background()
	s, err := cs.Section(ctx, "320193", "0000320193-24-000123", "1A", edgar13f.MustParseDate("2024-11-01"), edgar13f.MaxChars(120))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s %s filed %s, Item %s (%s), %d characters in all\n", s.Filing.Form, s.Filing.Accession, s.Filing.FilingDate, s.Item, s.Title, s.Chars)
	fmt.Println(s.Text)
	_, err = cs.Section(ctx, "320193", "0000320193-24-000123", "1A", edgar13f.MustParseDate("2024-10-31"))
	fmt.Println(err)
	// Output:
	// 10-K 0000320193-24-000123 filed 2024-11-01, Item 1A (Risk Factors), 68366 characters in all
	// Item 1A. Risk Factors
	// The Company’s business, reputation, results of operations, financial condition and stock price
	// edgar13f: not_yet_filed: CIK 320193 had filed no filing 0000320193-24-000123 on or before 2024-10-31
}

// Search finds companies by name or ticker in EDGAR's company_tickers.json,
// best match first (exact ticker, exact name, name prefix, ...). Names and
// tickers are today's, not as of any date.
func ExampleCompanies_Search() {
	cs := mirrorCompanies()
	s, err := cs.Search(context.Background(), "apple", edgar13f.MaxResults(3))
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range s.Matches {
		fmt.Println(m.CIK, m.Name, m.Tickers, m.Rank)
	}
	// Output:
	// 0000320193 Apple Inc. [AAPL] name_prefix
	// 0001418121 Apple Hospitality REIT, Inc. [APLE] name_prefix
	// 0001134982 Apple iSports Group, Inc. [AAPI] name_prefix
}

// Filings lists the filings of any form a company had made by a date,
// newest first: Apple's 10-Ks as EDGAR listed them on 2024-11-01, the day
// its fiscal 2024 report was filed.
func ExampleCompanies_Filings() {
	cs := mirrorCompanies()
	l, err := cs.Filings(context.Background(), "320193", edgar13f.MustParseDate("2024-11-01"), edgar13f.FormType("10-K"), edgar13f.MaxResults(3))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(l.EntityName)
	for _, f := range l.Filings {
		fmt.Println(f.Accession, f.Form, f.FilingDate, f.ReportDate, f.PrimaryDocument)
	}
	// Output:
	// Apple Inc.
	// 0000320193-24-000123 10-K 2024-11-01 2024-09-28 aapl-20240928.htm
	// 0000320193-23-000106 10-K 2023-11-03 2023-09-30 aapl-20230930.htm
	// 0000320193-22-000108 10-K 2022-10-28 2022-09-24 aapl-20220924.htm
}
