package companies_test

import (
	"context"
	"fmt"
	"log"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/companies"
	"github.com/edgar13f/edgar13f/mirror"
)

// mirrorCompanies returns the company questions of a Client reading the
// recorded EDGAR mirror in testdata, without a cache.
func mirrorCompanies() *companies.Companies {
	tree, err := mirror.Dir("../testdata/mirror")
	if err != nil {
		log.Fatal(err)
	}
	c, err := edgar13f.NewClient(
		edgar13f.WithFetcher(mirror.NewFetcher(tree)),
		edgar13f.WithCache(nil), // keep the example from writing a cache
	)
	if err != nil {
		log.Fatal(err)
	}
	return companies.New(c)
}

// Apple restated its fiscal 2009 revenue in a 10-K/A filed on 2010-01-25.
// Asked on the day before, the answer is the value first reported; from
// that day on, the restated value, citing both filings.
func ExampleCompanies_Facts() {
	cs := mirrorCompanies()
	for _, asOf := range []string{"2010-01-24", "2010-01-25"} {
		ff, err := cs.Facts(context.Background(), "320193", "revenue", edgar13f.MustParseDate(asOf), companies.Years(1))
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
	s, err := cs.Section(ctx, "320193", "0000320193-24-000123", "1A", edgar13f.MustParseDate("2024-11-01"), companies.MaxChars(120))
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

// Every Item of Apple's 10-K for fiscal 2024, whole, in document order:
// what a search index or a reader of the whole report takes in. Asked the
// day before EDGAR accepted it, the filing does not exist yet.
func ExampleCompanies_Sections() {
	cs := mirrorCompanies()
	ctx := context.Background()
	ss, err := cs.Sections(ctx, "320193", "0000320193-24-000123", edgar13f.MustParseDate("2024-11-01"))
	if err != nil {
		log.Fatal(err)
	}
	f := ss.Filing
	fmt.Printf("%s %s filed %s, period %s\n%s\n", f.Form, f.Accession, f.FilingDate, f.Period, f.DocumentURL)
	for _, it := range ss.Items {
		fmt.Printf("Item %-3s %6d characters  %s\n", it.Item, it.Chars, it.Title)
	}
	_, err = cs.Sections(ctx, "320193", "0000320193-24-000123", edgar13f.MustParseDate("2024-10-31"))
	fmt.Println(err)
	// Output:
	// 10-K 0000320193-24-000123 filed 2024-11-01, period 2024-09-28
	// https://www.sec.gov/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm
	// Item 1    15571 characters  Business
	// Item 1A   68366 characters  Risk Factors
	// Item 1B      40 characters  Unresolved Staff Comments
	// Item 1C    2702 characters  Cybersecurity
	// Item 2      483 characters  Properties
	// Item 3     4338 characters  Legal Proceedings
	// Item 4       47 characters  Mine Safety Disclosures
	// Item 5     2617 characters  Market for Registrant’s Common Equity, Related Stockholder Matters and Issuer Purchases of Equity Securities
	// Item 6       18 characters  [Reserved]
	// Item 7    15303 characters  Management’s Discussion and Analysis of Financial Condition and Results of Operations
	// Item 7A    3007 characters  Quantitative and Qualitative Disclosures About Market Risk
	// Item 8    60582 characters  Financial Statements and Supplementary Data
	// Item 9       98 characters  Changes in and Disagreements with Accountants on Accounting and Financial Disclosure
	// Item 9A    4463 characters  Controls and Procedures
	// Item 9B    1341 characters  Other Information
	// Item 9C      92 characters  Disclosure Regarding Foreign Jurisdictions that Prevent Inspections
	// Item 10    1030 characters  Directors, Executive Officers and Corporate Governance
	// Item 11     156 characters  Executive Compensation
	// Item 12     228 characters  Security Ownership of Certain Beneficial Owners and Management and Related Stockholder Matters
	// Item 13     207 characters  Certain Relationships and Related Transactions, and Director Independence
	// Item 14     172 characters  Principal Accountant Fees and Services
	// Item 15   12774 characters  Exhibit and Financial Statement Schedules
	// Item 16      32 characters  Form 10-K Summary
	// edgar13f: not_yet_filed: CIK 320193 had filed no filing 0000320193-24-000123 on or before 2024-10-31
}

// Search finds companies by name or ticker in EDGAR's company_tickers.json,
// best match first (exact ticker, exact name, name prefix, ...). Names and
// tickers are today's, not as of any date.
func ExampleCompanies_Search() {
	cs := mirrorCompanies()
	s, err := cs.Search(context.Background(), "apple", companies.Limit(3))
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range s.Matches {
		fmt.Println(m.CIK, m.Name, m.Tickers, m.Rank)
	}
	// Output:
	// 320193 Apple Inc. [AAPL] name_prefix
	// 1418121 Apple Hospitality REIT, Inc. [APLE] name_prefix
	// 1134982 Apple iSports Group, Inc. [AAPI] name_prefix
}

// Filings lists the filings of any form a company had made by a date,
// newest first: Apple's 10-Ks as EDGAR listed them on 2024-11-01, the day
// its fiscal 2024 report was filed.
func ExampleCompanies_Filings() {
	cs := mirrorCompanies()
	l, err := cs.Filings(context.Background(), "320193", edgar13f.MustParseDate("2024-11-01"), companies.FormType("10-K"), companies.Limit(3))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(l.EntityName)
	for _, f := range l.Filings {
		fmt.Println(f.Accession, f.Form, f.FilingDate, f.Period, f.PrimaryDocument)
	}
	// Output:
	// Apple Inc.
	// 0000320193-24-000123 10-K 2024-11-01 2024-09-28 aapl-20240928.htm
	// 0000320193-23-000106 10-K 2023-11-03 2023-09-30 aapl-20230930.htm
	// 0000320193-22-000108 10-K 2022-10-28 2022-09-24 aapl-20220924.htm
}
