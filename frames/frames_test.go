package frames_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/frames"
	"github.com/edgar13f/edgar13f/internal/edgartest"
)

func date(s string) edgar13f.Date { return edgar13f.MustParseDate(s) }

// mirrorZip is the test mirror's companyfacts.zip: the real companyfacts
// of Apple, NVIDIA, Snowflake and LPA, zipped as EDGAR zips them.
var mirrorZip = filepath.Join(edgartest.MirrorDir, "www.sec.gov", "Archives", "edgar", "daily-index", "xbrl", "companyfacts.zip")

var (
	mirrorOnce  sync.Once
	mirrorStore *frames.Store
	mirrorErr   error
	mirrorDir   string
)

// mirrorFacts returns a store holding the mirror's companyfacts.zip, imported
// once for the package's tests (which only read it).
func mirrorFacts(t testing.TB) *frames.Store {
	t.Helper()
	mirrorOnce.Do(func() {
		dir, err := mkdirTemp()
		if err != nil {
			mirrorErr = err
			return
		}
		mirrorDir = dir
		mirrorStore, mirrorErr = frames.OpenDir(dir)
		if mirrorErr == nil {
			_, mirrorErr = mirrorStore.ImportFile(context.Background(), mirrorZip)
		}
	})
	if mirrorErr != nil {
		t.Fatal(mirrorErr)
	}
	return mirrorStore
}

// open opens a store of its own in a temporary directory.
func open(t testing.TB) *frames.Store {
	t.Helper()
	s, err := frames.OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func company(t *testing.T, f *frames.Frame, cik string) frames.Company {
	t.Helper()
	for _, c := range f.Companies {
		if c.CIK == cik {
			return c
		}
	}
	t.Fatalf("%s %s on %s: CIK %s not in the frame (%d companies)", f.Concept, f.Period, f.AsOf, cik, len(f.Companies))
	return frames.Company{}
}

// TestAppleFiscal2009Restatement: Apple's fiscal 2009 net income was filed
// as 5,704 million in the 10-K of 2009-10-27 and restated to 8,235 million
// by the 10-K/A of 2010-01-25 (the change in revenue recognition for the
// iPhone). The frame of CY2009 (Apple's fiscal year 2008-09-28 to
// 2009-09-26 has its midpoint in 2009) says so on each date.
func TestAppleFiscal2009Restatement(t *testing.T) {
	s := mirrorFacts(t)
	for _, tc := range []struct {
		asOf, value, accn, form, filed string
		restated                       bool
	}{
		{"2009-12-01", "5704000000", "0001193125-09-214859", "10-K", "2009-10-27", false},
		{"2010-02-01", "8235000000", "0001193125-10-012091", "10-K/A", "2010-01-25", true},
	} {
		for _, concept := range []string{"net_income", "us-gaap:NetIncomeLoss", "NetIncomeLoss"} {
			f, err := s.Frame(context.Background(), concept, "CY2009", date(tc.asOf))
			if err != nil {
				t.Fatal(err)
			}
			c := company(t, f, "0000320193")
			if c.Value != tc.value || c.Accession != tc.accn || c.Form != tc.form || c.Filed != date(tc.filed) || c.Restated != tc.restated {
				t.Errorf("%s on %s: %+v; want %s from %s %s filed %s, restated %v", concept, tc.asOf, c, tc.value, tc.form, tc.accn, tc.filed, tc.restated)
			}
			if c.FirstReportedValue != "5704000000" || c.FirstReportedAccession != "0001193125-09-214859" || c.FirstReportedFiled != date("2009-10-27") {
				t.Errorf("%s on %s: first reported %s %s %s", concept, tc.asOf, c.FirstReportedValue, c.FirstReportedAccession, c.FirstReportedFiled)
			}
			if c.Tag != "us-gaap:NetIncomeLoss" || c.PeriodStart != date("2008-09-28") || c.PeriodEnd != date("2009-09-26") || c.EntityName != "Apple Inc." {
				t.Errorf("%s on %s: %s %s..%s %q", concept, tc.asOf, c.Tag, c.PeriodStart, c.PeriodEnd, c.EntityName)
			}
			if c.ValueFloat != map[string]float64{"5704000000": 5704e6, "8235000000": 8235e6}[tc.value] {
				t.Errorf("%s on %s: float %v", concept, tc.asOf, c.ValueFloat)
			}
			if f.Unit != "USD" || !f.Complete || f.DataThrough != date("2025-05-30") {
				t.Errorf("%s on %s: unit %s, data through %s, complete %v", concept, tc.asOf, f.Unit, f.DataThrough, f.Complete)
			}
		}
	}
}

// TestNothingBeforeFirstFiling: before Apple's first XBRL filing of its
// fiscal 2009 figures (2009-10-27) no fitting fact is visible, and the
// frame does not hold Apple at all.
func TestNothingBeforeFirstFiling(t *testing.T) {
	f, err := mirrorFacts(t).Frame(context.Background(), "net_income", "CY2009", date("2009-10-26"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range f.Companies {
		if c.CIK == "0000320193" {
			t.Fatalf("Apple in the frame before its 10-K: %+v", c)
		}
		if date("2009-10-26").Before(c.Filed) || date("2009-10-26").Before(c.FirstReportedFiled) {
			t.Fatalf("a value filed after asOf: %+v", c)
		}
	}
}

// TestRealCompanies: the four real documents in one frame each: a quarter
// (Snowflake's and NVIDIA's fiscal quarters fall in calendar quarters),
// an instant, and the IFRS filer's own tag.
func TestRealCompanies(t *testing.T) {
	s := mirrorFacts(t)
	ctx := context.Background()
	f, err := s.Frame(ctx, "us-gaap:Assets", "CY2023Q4I", date("2024-11-30"))
	if err != nil {
		t.Fatal(err)
	}
	if f.TotalCompanies != 3 || len(f.Companies) != 3 {
		t.Fatalf("Assets CY2023Q4I: %d companies: %+v", f.TotalCompanies, f.Companies)
	}
	for _, c := range f.Companies {
		if !c.PeriodStart.IsZero() || c.PeriodEnd.Before(date("2023-11-16")) || date("2024-02-14").Before(c.PeriodEnd) {
			t.Errorf("instant frame: %+v", c)
		}
	}
	// Apple's balance sheet nearest 2023-12-31 is its fiscal Q1 2024,
	// ended 2023-12-30.
	if c := company(t, f, "0000320193"); c.PeriodEnd != date("2023-12-30") {
		t.Errorf("Apple assets at %s", c.PeriodEnd)
	}
	q, err := s.Frame(ctx, "revenue", "CY2023Q3", date("2024-11-30"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range q.Companies {
		if c.PeriodStart.IsZero() || c.PeriodEnd.Before(c.PeriodStart.AddDays(69)) || c.PeriodStart.AddDays(109).Before(c.PeriodEnd) {
			t.Errorf("quarter frame holds a period not of 70-110 days: %+v", c)
		}
	}
	// Apple files no fourth fiscal quarter (its 10-K gives the year), so
	// the quarter holds NVIDIA (Revenues, 2023-07-31..2023-10-29) and
	// Snowflake (RevenueFromContractWithCustomerExcludingAssessedTax,
	// 2023-08-01..2023-10-31).
	if len(q.Companies) != 2 || q.Companies[0].Value != "18120000000" || q.Companies[0].Tag != "us-gaap:Revenues" ||
		q.Companies[1].Value != "734173000" || q.Companies[1].Tag != "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax" {
		t.Errorf("revenue CY2023Q3: %+v", q.Companies)
	}
	lpa, err := s.Frame(ctx, "ifrs-full:Revenue", "CY2023", date("2024-11-30"))
	if err != nil {
		t.Fatal(err)
	}
	if len(lpa.Companies) != 1 || lpa.Companies[0].CIK != "0001997711" || lpa.Companies[0].Tag != "ifrs-full:Revenue" {
		t.Errorf("ifrs-full:Revenue CY2023: %+v", lpa.Companies)
	}
}

// TestDeclines: malformed arguments decline invalid_argument, a concept no
// company has declines unknown_concept, an empty frame is an answer.
func TestDeclines(t *testing.T) {
	s := mirrorFacts(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name            string
		concept, period string
		asOf            edgar13f.Date
		opts            []frames.Option
		want            edgar13f.Reason
	}{
		{"period", "net_income", "2023", date("2024-01-01"), nil, edgar13f.InvalidArgument},
		{"period quarter 5", "net_income", "CY2023Q5", date("2024-01-01"), nil, edgar13f.InvalidArgument},
		{"period suffix", "net_income", "CY2023Q4X", date("2024-01-01"), nil, edgar13f.InvalidArgument},
		{"period year", "net_income", "CY23", date("2024-01-01"), nil, edgar13f.InvalidArgument},
		{"date", "net_income", "CY2023", edgar13f.Date{Year: 2023, Month: 2, Day: 30}, nil, edgar13f.InvalidArgument},
		{"unit", "net_income", "CY2023", date("2024-01-01"), []frames.Option{frames.Unit("US D")}, edgar13f.InvalidArgument},
		{"empty unit", "net_income", "CY2023", date("2024-01-01"), []frames.Option{frames.Unit("")}, edgar13f.InvalidArgument},
		{"limit 0", "net_income", "CY2023", date("2024-01-01"), []frames.Option{frames.Limit(0)}, edgar13f.InvalidArgument},
		{"limit", "net_income", "CY2023", date("2024-01-01"), []frames.Option{frames.Limit(10001)}, edgar13f.InvalidArgument},
		{"order", "net_income", "CY2023", date("2024-01-01"), []frames.Option{frames.Order("value")}, edgar13f.InvalidArgument},
		{"argument before concept", "NoSuchTag", "CY2023Q9", date("2024-01-01"), nil, edgar13f.InvalidArgument},
		{"tag", "us-gaap:NoSuchTagAnywhere", "CY2023", date("2024-01-01"), nil, edgar13f.UnknownConcept},
		{"bare name is us-gaap", "BasicEarningsLossPerShare", "CY2023", date("2024-11-30"), nil, edgar13f.UnknownConcept},
		{"malformed concept", "net income!", "CY2023", date("2024-01-01"), nil, edgar13f.UnknownConcept},
		{"tag not yet used", "ifrs-full:Revenue", "CY2023", date("2023-01-01"), nil, edgar13f.UnknownConcept},
	} {
		_, err := s.Frame(ctx, tc.concept, tc.period, tc.asOf, tc.opts...)
		if got := edgartest.Reason(err); got != tc.want {
			t.Errorf("%s: %v; want %s", tc.name, err, tc.want)
		}
	}
	// An empty frame is an ordinary answer.
	f, err := s.Frame(ctx, "net_income", "CY1999", date("2024-01-01"))
	if err != nil || f.TotalCompanies != 0 || f.Companies == nil || len(f.Companies) != 0 {
		t.Errorf("CY1999: %+v, %v", f, err)
	}
	f, err = s.Frame(ctx, "net_income", "CY2023", date("2024-01-01"), frames.Unit("EUR"))
	if err != nil || len(f.Companies) != 0 || f.Unit != "EUR" {
		t.Errorf("net_income in EUR: %+v, %v", f, err)
	}
}

// TestNothingImported: a store with nothing imported fails with an error
// that says how to import, and is no decline.
func TestNothingImported(t *testing.T) {
	_, err := open(t).Frame(context.Background(), "net_income", "CY2023", date("2024-01-01"))
	var d *edgar13f.DeclineError
	if err == nil || errors.As(err, &d) || !errors.Is(err, frames.ErrNotImported) || !strings.Contains(err.Error(), "Sync") || !strings.Contains(err.Error(), "frames sync") {
		t.Fatalf("empty store: %v", err)
	}
}

// TestLimitOrder: value_desc orders by value, then CIK; limit cuts after
// ordering and says so.
func TestLimitOrder(t *testing.T) {
	s := mirrorFacts(t)
	ctx := context.Background()
	all, err := s.Frame(ctx, "total_assets", "CY2023Q4I", date("2024-11-30"), frames.Order(frames.OrderValueDesc))
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(all.Companies); i++ {
		if all.Companies[i-1].ValueFloat < all.Companies[i].ValueFloat {
			t.Fatalf("value_desc: %v before %v", all.Companies[i-1].ValueFloat, all.Companies[i].ValueFloat)
		}
	}
	cut, err := s.Frame(ctx, "total_assets", "CY2023Q4I", date("2024-11-30"), frames.Order(frames.OrderValueDesc), frames.Limit(1))
	if err != nil {
		t.Fatal(err)
	}
	if !cut.Truncated || cut.TotalCompanies != all.TotalCompanies || len(cut.Companies) != 1 || cut.Companies[0] != all.Companies[0] {
		t.Errorf("limit 1: %+v", cut)
	}
	byCIK, _ := s.Frame(ctx, "total_assets", "CY2023Q4I", date("2024-11-30"))
	for i := 1; i < len(byCIK.Companies); i++ {
		if byCIK.Companies[i-1].CIK >= byCIK.Companies[i].CIK {
			t.Fatalf("cik order: %s before %s", byCIK.Companies[i-1].CIK, byCIK.Companies[i].CIK)
		}
	}
	if byCIK.Truncated {
		t.Error("truncated without a cut")
	}
}
