package companies_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/companies"
	"github.com/edgar13f/edgar13f/internal/edgartest"
	"github.com/edgar13f/edgar13f/mirror"
)

// Apple's 10-K for fiscal 2024 and its 10-K/A of 2010-01-25, which restated
// fiscal 2009 (and 2008, 2007) revenue.
const (
	appleCIK     = "320193"
	apple10K2024 = "0000320193-24-000123"
	apple10KA    = "0001193125-10-012091"
	apple10K2009 = "0001193125-09-214859"
	nvidiaCIK    = "1045810"
	nvidia10K    = "0001045810-25-000023"
)

func TestCompanySearch(t *testing.T) {
	c, _ := edgartest.MirrorClient(t)
	cs := companies.New(c)
	ctx := context.Background()
	for _, tc := range []struct {
		query string
		opts  []companies.SearchOption
		first string // CIK of the best match
		rank  string
		n     int
	}{
		{"AAPL", nil, "320193", "exact_ticker", 1},
		{"apple", nil, "320193", "name_prefix", 5},
		{"nvidia corp", []companies.SearchOption{companies.Limit(1)}, "1045810", "exact_name", 1},
		{"brk.b", nil, "1067983", "exact_ticker", 1},
	} {
		s, err := cs.Search(ctx, tc.query, tc.opts...)
		if err != nil {
			t.Fatalf("Search(%q): %v", tc.query, err)
		}
		if len(s.Matches) != tc.n || s.Matches[0].CIK != tc.first || s.Matches[0].Rank != tc.rank {
			t.Errorf("Search(%q) = %d matches, first %+v; want %d, %s %s", tc.query, len(s.Matches), s.Matches[0], tc.n, tc.first, tc.rank)
		}
		if s.Note != companies.SearchNote || s.Matches[0].SourceURL != "https://www.sec.gov/files/company_tickers.json" {
			t.Errorf("Search(%q): note %q, source %q", tc.query, s.Note, s.Matches[0].SourceURL)
		}
	}
	// One CIK with many tickers is one company listing them all.
	s, err := cs.Search(ctx, "JPM", companies.Limit(100))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, m := range s.Matches {
		seen[m.CIK]++
	}
	if jpm := s.Matches[0]; jpm.CIK != "19617" || len(jpm.Tickers) < 2 || jpm.Tickers[0] != "JPM" || seen[jpm.CIK] != 1 {
		t.Errorf("Search(JPM) first = %+v (seen %d times); want JPMorgan once with all its tickers, JPM first", jpm, seen[jpm.CIK])
	}
	if s, err := cs.Search(ctx, "zzqxj no such company"); err != nil || len(s.Matches) != 0 {
		t.Errorf("Search(no match) = %v, %v; want an empty answer", s, err)
	}
	for _, tc := range []struct {
		query string
		opts  []companies.SearchOption
	}{
		{"", nil},
		{"   ", nil},
		{strings.Repeat("a", 101), nil},
		{"apple", []companies.SearchOption{companies.Limit(0)}},
		{"apple", []companies.SearchOption{companies.Limit(101)}},
	} {
		if _, err := cs.Search(ctx, tc.query, tc.opts...); !errors.Is(err, edgar13f.InvalidArgument) {
			t.Errorf("Search(%q): %v; want invalid_argument", tc.query, err)
		}
	}
}

func accessions(fs []companies.Filing) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Accession + " " + string(f.Form) + " " + f.FilingDate.String()
	}
	return out
}

func TestCompanyFilings(t *testing.T) {
	c, f := edgartest.MirrorClient(t)
	cs := companies.New(c)
	ctx := context.Background()

	// Newest first, default limit 10, nothing after asOf; the recent block
	// suffices, so the older page is not read.
	l, err := cs.Filings(ctx, appleCIK, date("2024-11-01"))
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Filings) != 10 || l.EntityName != "Apple Inc." || l.CIK != appleCIK || l.FiscalYearEnd != "0927" {
		t.Fatalf("Filings = %d filings of %q, fiscal year end %q; want 10 of Apple Inc., 0927", len(l.Filings), l.EntityName, l.FiscalYearEnd)
	}
	first := l.Filings[0]
	if first.Accession != "0001140361-24-044880" && first.Accession != apple10K2024 {
		t.Errorf("first filing %s; want one of 2024-11-01", first.Accession)
	}
	for i, x := range l.Filings {
		if date("2024-11-01").Before(x.FilingDate) {
			t.Errorf("filing %s filed %s after asOf", x.Accession, x.FilingDate)
		}
		if i > 0 && l.Filings[i-1].FilingDate.Before(x.FilingDate) {
			t.Errorf("filings not newest first: %v", accessions(l.Filings))
		}
	}
	for _, u := range f.Take() {
		if strings.Contains(u, "submissions-001") {
			t.Errorf("older page read although the recent block filled the answer")
		}
	}

	// The 10-K of 2024-11-01 appears on its filing date, not the day before.
	tenK := func(asOf string) companies.Filing {
		t.Helper()
		l, err := cs.Filings(ctx, appleCIK, date(asOf), companies.FormType("10-k"), companies.Limit(1))
		if err != nil {
			t.Fatal(err)
		}
		return l.Filings[0]
	}
	if got := tenK("2024-11-01"); got.Accession != apple10K2024 || got.Period != date("2024-09-28") ||
		got.DocumentURL != "https://www.sec.gov/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm" ||
		got.IndexURL != "https://www.sec.gov/Archives/edgar/data/320193/000032019324000123/0000320193-24-000123-index.htm" {
		t.Errorf("10-K as of 2024-11-01 = %+v", got)
	}
	if got := tenK("2024-10-31"); got.Accession != "0000320193-23-000106" {
		t.Errorf("10-K as of 2024-10-31 = %s; want the one of 2023", got.Accession)
	}

	// Older pages are read when needed; the form filter is exact.
	l, err = cs.Filings(ctx, appleCIK, date("2010-06-01"), companies.FormType("10-K"))
	if err != nil {
		t.Fatal(err)
	}
	if got := accessions(l.Filings); len(got) != 1 || got[0] != apple10K2009+" 10-K 2009-10-27" {
		t.Errorf("10-K as of 2010-06-01 = %v; want only the 10-K of 2009-10-27 (not the 10-K/A)", got)
	}
	l, err = cs.Filings(ctx, appleCIK, date("2010-06-01"), companies.FormType("10-K/A"))
	if err != nil {
		t.Fatal(err)
	}
	if got := accessions(l.Filings); len(got) != 1 || got[0] != apple10KA+" 10-K/A 2010-01-25" {
		t.Errorf("10-K/A as of 2010-06-01 = %v", got)
	}
	l, err = cs.Filings(ctx, appleCIK, date("2024-12-31"), companies.Limit(100))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(l.Filings); n != 79 { // 62 recent rows, 4 of them filed in 2025, + 21 of the older page
		t.Errorf("every filing as of 2024-12-31: %d; want 79", n)
	}
	if l, err := cs.Filings(ctx, appleCIK, date("1990-01-01")); err != nil || len(l.Filings) != 0 {
		t.Errorf("Filings before any filing = %v, %v; want an empty answer", l, err)
	}

	for _, tc := range []struct {
		cik, asOf string
		opts      []companies.FilingsOption
		want      edgar13f.Reason
	}{
		{"32019x", "2024-01-01", nil, edgar13f.InvalidArgument},
		{"", "2024-01-01", nil, edgar13f.InvalidArgument},
		{appleCIK, "", nil, edgar13f.InvalidArgument},
		{appleCIK, "2024-01-01", []companies.FilingsOption{companies.Limit(0)}, edgar13f.InvalidArgument},
		{appleCIK, "2024-01-01", []companies.FilingsOption{companies.Limit(101)}, edgar13f.InvalidArgument},
		{appleCIK, "2024-01-01", []companies.FilingsOption{companies.FormType("")}, edgar13f.InvalidArgument},
		{"1234567", "2024-01-01", nil, edgar13f.UnknownCIK},
	} {
		var asOf edgar13f.Date
		if tc.asOf != "" {
			asOf = date(tc.asOf)
		}
		if _, err := cs.Filings(ctx, tc.cik, asOf, tc.opts...); edgartest.Reason(err) != tc.want {
			t.Errorf("Filings(%q, %q): %v; want %s", tc.cik, tc.asOf, err, tc.want)
		}
	}
}

// TestFilingListSharedWith13F: one filing list serves the 13F questions and
// the company questions: asked both ways, it is read once.
func TestFilingListSharedWith13F(t *testing.T) {
	c, f := edgartest.MirrorClient(t)
	ctx := context.Background()
	if _, err := c.Filings(ctx, "1067983", date("2024-06-01")); err != nil {
		t.Fatal(err)
	}
	f.Take()
	l, err := companies.New(c).Filings(ctx, "1067983", date("2024-06-01"), companies.FormType("10-Q"))
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Filings) == 0 {
		t.Errorf("Berkshire's 10-Qs as of 2024-06-01: none")
	}
	if urls := f.Take(); len(urls) != 0 {
		t.Errorf("company filings after 13F filings fetched %v; want the cached list", urls)
	}
}

func TestCompanyFacts(t *testing.T) {
	c, _ := edgartest.MirrorClient(t)
	cs := companies.New(c)
	ctx := context.Background()
	fy2009 := func(asOf string) companies.FactValue {
		t.Helper()
		ff, err := cs.Facts(ctx, appleCIK, "revenue", date(asOf), companies.Years(1))
		if err != nil {
			t.Fatal(err)
		}
		if ff.Tag != "us-gaap:SalesRevenueNet" || ff.Unit != "USD" || ff.Concept != "revenue" || len(ff.Values) != 1 {
			t.Fatalf("revenue as of %s: %+v", asOf, ff)
		}
		return ff.Values[0]
	}
	// Before the 10-K/A of 2010-01-25: the value first reported.
	for _, asOf := range []string{"2009-10-27", "2010-01-24"} {
		v := fy2009(asOf)
		if v.FiscalYear != 2009 || v.Value != "36537000000" || v.Restated || v.Filing.Accession != apple10K2009 || v.Filing.Form != "10-K" {
			t.Errorf("FY2009 revenue as of %s = %+v; want 36537000000 from the 10-K, not restated", asOf, v)
		}
	}
	// From its filing date: the restated value, citing both filings.
	v := fy2009("2010-01-25")
	if v.Value != "42905000000" || !v.Restated || v.Filing.Accession != apple10KA || v.Filing.Form != "10-K/A" ||
		v.Filing.FilingDate != date("2010-01-25") || v.FirstReportedValue != "36537000000" || v.FirstReported.Accession != apple10K2009 ||
		v.PeriodStart != date("2008-09-28") || v.PeriodEnd != date("2009-09-26") ||
		v.Filing.URL != "https://www.sec.gov/Archives/edgar/data/320193/000119312510012091/0001193125-10-012091-index.htm" {
		t.Errorf("FY2009 revenue as of 2010-01-25 = %+v", v)
	}
	// Nothing before the first 10-K with XBRL: an answer with no values.
	if ff, err := cs.Facts(ctx, appleCIK, "revenue", date("2009-01-01")); err != nil || len(ff.Values) != 0 {
		t.Errorf("revenue as of 2009-01-01 = %+v, %v; want no values", ff, err)
	}
	// Units follow the concept; years counts periods.
	ff, err := cs.Facts(ctx, appleCIK, "EPS", date("2024-12-01"), companies.Years(30))
	if err != nil {
		t.Fatal(err)
	}
	if ff.Concept != "eps_diluted" || ff.Unit != "USD/shares" || len(ff.Values) < 10 || ff.Values[0].FiscalYear != 2024 {
		t.Errorf("eps as of 2024-12-01: concept %s unit %s, %d values", ff.Concept, ff.Unit, len(ff.Values))
	}
	// NVIDIA names its year by the calendar year it ends in.
	ff, err = cs.Facts(ctx, nvidiaCIK, "us-gaap:Revenues", date("2024-03-01"), companies.Years(1))
	if err != nil {
		t.Fatal(err)
	}
	if v := ff.Values[0]; v.FiscalYear != 2024 || v.PeriodEnd != date("2024-01-28") {
		t.Errorf("NVIDIA revenues as of 2024-03-01 = %+v; want FY2024 ended 2024-01-28", v)
	}

	for _, tc := range []struct {
		cik, concept, asOf string
		opts               []companies.FactsOption
		want               edgar13f.Reason
	}{
		{"x", "revenue", "2024-01-01", nil, edgar13f.InvalidArgument},
		{appleCIK, "", "2024-01-01", nil, edgar13f.InvalidArgument},
		{appleCIK, "revenue", "", nil, edgar13f.InvalidArgument},
		{appleCIK, "revenue", "2024-01-01", []companies.FactsOption{companies.Years(0)}, edgar13f.InvalidArgument},
		{appleCIK, "revenue", "2024-01-01", []companies.FactsOption{companies.Years(31)}, edgar13f.InvalidArgument},
		{"1067983", "revenue", "2024-01-01", nil, edgar13f.UnknownCIK}, // no companyfacts in the mirror: a 404
		{appleCIK, "no_such_concept", "2024-01-01", nil, edgar13f.UnknownConcept},
		// A tag first used after asOf is not known on asOf.
		{appleCIK, "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax", "2017-01-01", nil, edgar13f.UnknownConcept},
	} {
		var asOf edgar13f.Date
		if tc.asOf != "" {
			asOf = date(tc.asOf)
		}
		_, err := cs.Facts(ctx, tc.cik, tc.concept, asOf, tc.opts...)
		if edgartest.Reason(err) != tc.want {
			t.Errorf("Facts(%q, %q, %q): %v; want %s", tc.cik, tc.concept, tc.asOf, err, tc.want)
		}
	}
	if _, err := cs.Facts(ctx, appleCIK, "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax", date("2019-06-01")); err != nil {
		t.Errorf("the ASC 606 revenue tag as of 2019-06-01: %v", err)
	}
}

// TestFactsNeverSeeTheFuture: for every asOf over fifteen years, every value
// of every alias cites a filing made on or before asOf.
func TestFactsNeverSeeTheFuture(t *testing.T) {
	c, _ := edgartest.MirrorClient(t)
	cs := companies.New(c)
	ctx := context.Background()
	concepts := []string{"revenue", "net_income", "eps_diluted", "total_assets", "shares_outstanding", "cash"}
	for _, cik := range []string{appleCIK, nvidiaCIK} {
		for d := date("2009-01-01"); d.Before(date("2025-01-01")); d = d.AddDays(37) {
			for _, concept := range concepts {
				ff, err := cs.Facts(ctx, cik, concept, d, companies.Years(30))
				if err != nil {
					t.Fatalf("%s %s %s: %v", cik, concept, d, err)
				}
				for _, v := range ff.Values {
					if d.Before(v.Filing.FilingDate) || d.Before(v.FirstReported.FilingDate) || v.Filing.FilingDate.Before(v.FirstReported.FilingDate) {
						t.Fatalf("%s %s as of %s cites %+v", cik, concept, d, v)
					}
				}
			}
		}
	}
}

// TestFactsChangeOnlyOnAnnualFilings: between two dates with no 10-K or
// 10-K/A filed after the first and by the second, every answer is the same.
func TestFactsChangeOnlyOnAnnualFilings(t *testing.T) {
	c, _ := edgartest.MirrorClient(t)
	cs := companies.New(c)
	ctx := context.Background()
	var filed []edgar13f.Date
	for _, form := range []edgar13f.Form{"10-K", "10-K/A"} {
		l, err := cs.Filings(ctx, appleCIK, date("2024-12-31"), companies.FormType(form), companies.Limit(100))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range l.Filings {
			filed = append(filed, f.FilingDate)
		}
	}
	if len(filed) < 16 {
		t.Fatalf("Apple's annual filings in the mirror: %d", len(filed))
	}
	annualBetween := func(a, b edgar13f.Date) bool {
		for _, d := range filed {
			if a.Before(d) && !b.Before(d) {
				return true
			}
		}
		return false
	}
	same, changed := 0, 0
	for _, concept := range []string{"revenue", "net_income", "eps_diluted", "total_assets"} {
		for d := date("2009-06-01"); d.Before(date("2024-12-01")); d = d.AddDays(23) {
			next := d.AddDays(23)
			a, err := cs.Facts(ctx, appleCIK, concept, d, companies.Years(30))
			if err != nil {
				t.Fatal(err)
			}
			b, err := cs.Facts(ctx, appleCIK, concept, next, companies.Years(30))
			if err != nil {
				t.Fatal(err)
			}
			a.AsOf, b.AsOf = edgar13f.Date{}, edgar13f.Date{}
			equal := fmt.Sprint(a) == fmt.Sprint(b)
			switch {
			case !annualBetween(d, next) && !equal:
				t.Errorf("%s changed between %s and %s with no annual filing between", concept, d, next)
			case equal:
				same++
			default:
				changed++
			}
		}
	}
	if same == 0 || changed == 0 {
		t.Errorf("%d unchanged and %d changed pairs: the test would prove nothing", same, changed)
	}
}

func TestCompanySection(t *testing.T) {
	c, f := edgartest.MirrorClient(t)
	cs := companies.New(c)
	ctx := context.Background()
	s, err := cs.Section(ctx, appleCIK, apple10K2024, "Item 1A", date("2024-11-01"), companies.MaxChars(300))
	if err != nil {
		t.Fatal(err)
	}
	if s.Item != "1A" || s.Title != "Risk Factors" || !s.Truncated || len([]rune(s.Text)) > 300 || len([]rune(s.Text)) < 250 || s.Chars <= 300 ||
		!strings.HasPrefix(s.Text, "Item 1A. Risk Factors\nThe Company’s business") ||
		s.Filing.Accession != apple10K2024 || s.Filing.Form != "10-K" || s.Filing.FilingDate != date("2024-11-01") ||
		s.SourceURL != "https://www.sec.gov/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm" {
		t.Errorf("Apple 1A = %+v", s)
	}
	f.Take()
	// The document is cached: a second Item costs no request; undashed
	// accessions are accepted.
	s, err = cs.Section(ctx, appleCIK, strings.ReplaceAll(apple10K2024, "-", ""), "7", date("2025-01-01"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Item != "7" || s.Truncated != (s.Chars > companies.DefaultSectionChars) || len([]rune(s.Text)) > companies.DefaultSectionChars {
		t.Errorf("Apple 7: item %s, truncated %v, %d of %d chars", s.Item, s.Truncated, len([]rune(s.Text)), s.Chars)
	}
	if urls := f.Take(); len(urls) != 0 {
		t.Errorf("second section fetched %v", urls)
	}
	// NVIDIA's 10-K of 2025-02-26 (listed by the mirror's one synthetic row).
	s, err = cs.Section(ctx, nvidiaCIK, nvidia10K, "1a", date("2025-02-26"), companies.MaxChars(100))
	if err != nil || !strings.HasPrefix(s.Text, "Item 1A. Risk Factors") {
		t.Errorf("NVIDIA 1A: %+v, %v", s, err)
	}

	for _, tc := range []struct {
		cik, acc, item, asOf string
		opts                 []companies.SectionOption
		want                 edgar13f.Reason
	}{
		{"x", apple10K2024, "1A", "2025-01-01", nil, edgar13f.InvalidArgument},
		{appleCIK, "0000320193-24-00012", "1A", "2025-01-01", nil, edgar13f.InvalidArgument},
		{appleCIK, "0000320193_24_000123", "1A", "2025-01-01", nil, edgar13f.InvalidArgument},
		{appleCIK, apple10K2024, "99", "2025-01-01", nil, edgar13f.InvalidArgument},
		{appleCIK, apple10K2024, "", "2025-01-01", nil, edgar13f.InvalidArgument},
		{appleCIK, apple10K2024, "1A", "", nil, edgar13f.InvalidArgument},
		{appleCIK, apple10K2024, "1A", "2025-01-01", []companies.SectionOption{companies.MaxChars(0)}, edgar13f.InvalidArgument},
		{appleCIK, apple10K2024, "1A", "2025-01-01", []companies.SectionOption{companies.MaxChars(100001)}, edgar13f.InvalidArgument},
		// A 10-Q item in a 10-K: known only once the filing is visible.
		{appleCIK, apple10K2024, "II-1A", "2025-01-01", nil, edgar13f.InvalidArgument},
		{appleCIK, apple10K2024, "II-1A", "2024-10-31", nil, edgar13f.NotYetFiled},
		{"1234567", apple10K2024, "1A", "2025-01-01", nil, edgar13f.UnknownCIK},
		{appleCIK, apple10K2024, "1A", "2024-10-31", nil, edgar13f.NotYetFiled},
		{appleCIK, "0000320193-99-000001", "1A", "2025-01-01", nil, edgar13f.NotYetFiled}, // not in the list
		{appleCIK, nvidia10K, "1A", "2025-03-01", nil, edgar13f.NotYetFiled},              // another filer's
		// An 8-K has no Items of a periodic report (its document is not read).
		{appleCIK, "0000320193-24-000120", "1A", "2025-01-01", nil, edgar13f.SectionNotFound},
	} {
		var asOf edgar13f.Date
		if tc.asOf != "" {
			asOf = date(tc.asOf)
		}
		if _, err := cs.Section(ctx, tc.cik, tc.acc, tc.item, asOf, tc.opts...); edgartest.Reason(err) != tc.want {
			t.Errorf("Section(%q, %q, %q, %q): %v; want %s", tc.cik, tc.acc, tc.item, tc.asOf, err, tc.want)
		}
	}
}

// TestSectionNotYetFiledSaysNothing: the decline for a filing made after
// asOf holds nothing of the filing: not its filing date, form, title or
// text; it reads as the decline for an accession that does not exist.
func TestSectionNotYetFiledSaysNothing(t *testing.T) {
	c, f := edgartest.MirrorClient(t)
	cs := companies.New(c)
	ctx := context.Background()
	_, err := cs.Section(ctx, appleCIK, apple10K2024, "1A", date("2024-10-31"))
	var d *edgar13f.DeclineError
	if !errors.As(err, &d) || d.Reason != edgar13f.NotYetFiled {
		t.Fatalf("Section before filing: %v", err)
	}
	for _, leak := range []string{"2024-11-01", "2024-09-28", "10-K", "Risk", "aapl-20240928", "Apple"} {
		if strings.Contains(d.Error(), leak) {
			t.Errorf("not_yet_filed decline %q tells %q of the filing", d.Error(), leak)
		}
	}
	_, err2 := cs.Section(ctx, appleCIK, "0000320193-24-999999", "1A", date("2024-10-31"))
	if got, want := err.Error(), strings.ReplaceAll(err2.Error(), "0000320193-24-999999", apple10K2024); got != want {
		t.Errorf("a future filing declines as %q, a missing one as %q: they must read alike", got, err2)
	}
	for _, u := range f.Take() {
		if strings.Contains(u, "Archives") {
			t.Errorf("a not-yet-filed section read %s", u)
		}
	}
}

// overlayFetcher serves some URLs from memory and the rest from the mirror.
type overlayFetcher struct {
	next  edgar13f.Fetcher
	files map[string][]byte
}

func (o overlayFetcher) Fetch(ctx context.Context, url string) ([]byte, error) {
	if b, ok := o.files[url]; ok {
		return b, nil
	}
	return o.next.Fetch(ctx, url)
}

// TestSectionCrossReferenceIndex: a 10-K laid out as a cross-reference
// index (General Electric's real fragment, served as the primary document
// of a synthetic filing) declines section_not_found, saying why.
func TestSectionCrossReferenceIndex(t *testing.T) {
	ge, err := os.ReadFile("../testdata/documents/ge-10k-cross-reference-fragment.html")
	if err != nil {
		t.Fatal(err)
	}
	list := `{"cik":"40545","name":"GENERAL ELECTRIC CO","filings":{"recent":{"accessionNumber":["0000040545-24-000010"],"filingDate":["2024-02-02"],"reportDate":["2023-12-31"],"acceptanceDateTime":[""],"form":["10-K"],"primaryDocument":["ge-20231231.htm"],"size":[1]},"files":[]}}`
	fsys := edgartest.MirrorFS(t)
	c, err := edgar13f.NewClient(edgar13f.WithCache(nil), edgar13f.WithFetcher(overlayFetcher{
		next: mirror.NewFetcher(fsys),
		files: map[string][]byte{
			"https://data.sec.gov/submissions/CIK0000040545.json":                              []byte(list),
			"https://www.sec.gov/Archives/edgar/data/40545/000004054524000010/ge-20231231.htm": ge,
		},
	}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = companies.New(c).Section(context.Background(), "40545", "0000040545-24-000010", "1A", date("2024-03-01"))
	if !errors.Is(err, edgar13f.SectionNotFound) || !strings.Contains(err.Error(), "cross-reference index") {
		t.Errorf("GE 1A: %v; want section_not_found naming the cross-reference index", err)
	}
}

// TestCompanyOverHTTP: every company question through the Client's HTTP
// path (User-Agent, spacing, disk cache) against the mirror served by an
// httptest server: cold requests as few as the question needs, warm none.
func TestCompanyOverHTTP(t *testing.T) {
	e := edgartest.NewServer(t)
	c := e.Client(t, "")
	cs := companies.New(c)
	paths := func() []string { p, _ := e.Requests(); return p }
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		ask  func() error
		cold []string
	}{
		{"search", func() error { _, err := cs.Search(ctx, "nvidia"); return err },
			[]string{"/www.sec.gov/files/company_tickers.json"}},
		{"filings", func() error { _, err := cs.Filings(ctx, appleCIK, date("2024-12-01")); return err },
			[]string{"/data.sec.gov/submissions/CIK0000320193.json"}},
		{"facts", func() error {
			_, err := cs.Facts(ctx, appleCIK, "revenue", date("2010-02-01"))
			return err
		}, []string{"/data.sec.gov/api/xbrl/companyfacts/CIK0000320193.json"}},
		{"section", func() error {
			_, err := cs.Section(ctx, appleCIK, apple10K2024, "1A", date("2024-12-01"))
			return err
		}, []string{"/www.sec.gov/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm"}},
	} {
		if err := tc.ask(); err != nil {
			t.Fatalf("%s cold: %v", tc.name, err)
		}
		for _, ua := range e.UserAgents() {
			if ua != edgartest.UserAgent {
				t.Errorf("%s: User-Agent %q", tc.name, ua)
			}
		}
		if got := paths(); fmt.Sprint(got) != fmt.Sprint(tc.cold) {
			t.Errorf("%s cold requests %v; want %v", tc.name, got, tc.cold)
		}
		e.Reset()
		if err := tc.ask(); err != nil {
			t.Fatalf("%s warm: %v", tc.name, err)
		}
		if got := paths(); len(got) != 0 {
			t.Errorf("%s warm requests %v; want none", tc.name, got)
		}
	}
	// A second Client on another cache: the facts come over HTTP again, and
	// the declines are the same as on the mirror.
	c2 := edgartest.NewServer(t).Client(t, "")
	if _, err := companies.New(c2).Facts(ctx, "1067983", "revenue", date("2024-01-01")); !errors.Is(err, edgar13f.UnknownCIK) {
		t.Errorf("facts of a CIK without companyfacts over HTTP: %v; want unknown_cik", err)
	}
}

// TestFactsFreshness: cached company facts answer for asOf only when they
// were fetched at least two days after asOf.
func TestFactsFreshness(t *testing.T) {
	now := date("2024-05-16")
	clock := edgartest.Clock(func() time.Time {
		return time.Date(now.Year, now.Month, now.Day, 12, 0, 0, 0, time.UTC)
	})
	e := edgartest.NewServer(t)
	c := e.Client(t, "", edgar13f.WithClock(clock))
	ctx := context.Background()
	for _, tc := range []struct {
		asOf string
		want int
	}{
		{"2024-05-14", 1}, // cold
		{"2024-05-14", 0}, // fetched two days after asOf
		{"2020-01-01", 0},
		{"2024-05-15", 1}, // one day after: fetched again
		{"2024-05-15", 1},
	} {
		if _, err := companies.New(c).Facts(ctx, appleCIK, "revenue", date(tc.asOf)); err != nil {
			t.Fatal(err)
		}
		if got := e.Count("/"); got != tc.want {
			t.Errorf("asOf %s: %d requests; want %d", tc.asOf, got, tc.want)
		}
		e.Reset()
	}
}
