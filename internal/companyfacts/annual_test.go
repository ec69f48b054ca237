package companyfacts

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f/internal/civil"
)

func day(s string) civil.Day {
	d, ok := civil.ParseISO(s)
	if !ok {
		panic("not a date: " + s)
	}
	return d
}

// line prints a value the way the tables below write it.
func line(v Value) string {
	s := fmt.Sprintf("FY%d %v %s %s %s %v", v.FiscalYear, v.End, v.Value, v.Accession, v.Form, v.Filed)
	if v.Restated {
		s += fmt.Sprintf(" restated; first %s %s %s %v", v.FirstValue, v.FirstAccession, v.FirstForm, v.FirstFiled)
	} else if v.FirstAccession != v.Accession {
		s += " first " + v.FirstAccession
	}
	return s
}

func lines(a *Answer) []string {
	out := []string{a.Tag + " " + a.Unit}
	for _, v := range a.Values {
		out = append(out, line(v))
	}
	return out
}

// TestRestatements checks real restatements before and after the filing
// that restated them.
func TestRestatements(t *testing.T) {
	tests := []struct {
		name, file, concept, asOf string
		years                     int
		want                      []string
	}{
		{"Apple FY2009 revenue before its 10-K/A", "CIK0000320193", "revenue", "2010-01-24", 1, []string{
			"us-gaap:SalesRevenueNet USD",
			"FY2009 2009-09-26 36537000000 0001193125-09-214859 10-K 2009-10-27",
		}},
		{"Apple FY2009 revenue on the day of its 10-K/A", "CIK0000320193", "sales", "2010-01-25", 1, []string{
			"us-gaap:SalesRevenueNet USD",
			"FY2009 2009-09-26 42905000000 0001193125-10-012091 10-K/A 2010-01-25 restated; first 36537000000 0001193125-09-214859 10-K 2009-10-27",
		}},
		{"Apple FY2009 net income, later", "CIK0000320193", "net_income", "2011-06-30", 2, []string{
			"us-gaap:NetIncomeLoss USD",
			"FY2010 2010-09-25 14013000000 0001193125-10-238044 10-K 2010-10-27",
			"FY2009 2009-09-26 8235000000 0001193125-10-238044 10-K 2010-10-27 restated; first 5704000000 0001193125-09-214859 10-K 2009-10-27",
		}},
		{"Apple FY2010 net income: an 8-K of 2013-04-24 repeats it and does not count", "CIK0000320193", "net_income", "2013-06-30", 3, []string{
			"us-gaap:NetIncomeLoss USD",
			"FY2012 2012-09-29 41733000000 0001193125-12-444068 10-K 2012-10-31",
			"FY2011 2011-09-24 25922000000 0001193125-12-444068 10-K 2012-10-31 first 0001193125-11-282113",
			"FY2010 2010-09-25 14013000000 0001193125-12-444068 10-K 2012-10-31 first 0001193125-10-238044",
		}},
		{"Apple EPS before the 2020 4-for-1 split reached a 10-K", "CIK0000320193", "eps", "2020-10-29", 2, []string{
			"us-gaap:EarningsPerShareDiluted USD/shares",
			"FY2019 2019-09-28 11.89 0000320193-19-000119 10-K 2019-10-31",
			"FY2018 2018-09-29 11.91 0000320193-19-000119 10-K 2019-10-31 first 0000320193-18-000145",
		}},
		{"Apple EPS after the split: restated by the FY2020 10-K", "CIK0000320193", "eps_diluted", "2020-10-30", 2, []string{
			"us-gaap:EarningsPerShareDiluted USD/shares",
			"FY2020 2020-09-26 3.28 0000320193-20-000096 10-K 2020-10-30",
			"FY2019 2019-09-28 2.97 0000320193-20-000096 10-K 2020-10-30 restated; first 11.89 0000320193-19-000119 10-K 2019-10-31",
		}},
		{"NVIDIA EPS before the 2021 4-for-1 split reached a 10-K", "CIK0001045810", "eps", "2022-03-17", 1, []string{
			"us-gaap:EarningsPerShareDiluted USD/shares",
			"FY2021 2021-01-31 6.9 0001045810-21-000010 10-K 2021-02-26",
		}},
		{"NVIDIA EPS restated by the FY2022 10-K", "CIK0001045810", "eps", "2022-03-18", 2, []string{
			"us-gaap:EarningsPerShareDiluted USD/shares",
			"FY2022 2022-01-30 3.85 0001045810-22-000036 10-K 2022-03-18",
			"FY2021 2021-01-31 1.73 0001045810-22-000036 10-K 2022-03-18 restated; first 6.9 0001045810-21-000010 10-K 2021-02-26",
		}},
		{"NVIDIA EPS after the 2024 10-for-1 split: only 10-Qs since, so unchanged", "CIK0001045810", "eps", "2024-11-30", 1, []string{
			"us-gaap:EarningsPerShareDiluted USD/shares",
			"FY2024 2024-01-28 11.93 0001045810-24-000029 10-K 2024-02-21",
		}},
		{"20-F filer: ifrs-full EPS restated by the next 20-F", "CIK0001997711", "eps_basic", "2025-06-01", 2, []string{
			"ifrs-full:BasicEarningsLossPerShare USD/shares",
			"FY2024 2024-12-31 -0.94 0001997711-25-000030 20-F 2025-04-02",
			"FY2023 2023-12-31 0.11 0001997711-25-000030 20-F 2025-04-02 restated; first 0.019 0001493152-24-016772 20-F 2024-04-26",
		}},
		{"20-F/A counts; cover shares dated after the year end belong to it", "CIK0001997711", "shares_outstanding", "2025-06-01", 3, []string{
			"dei:EntityCommonStockSharesOutstanding shares",
			"FY2024 2025-04-02 31668601 0001641172-25-002932 20-F/A 2025-04-07 first 0001997711-25-000030",
			"FY2023 2024-03-28 31709747 0001493152-24-016772 20-F 2024-04-26",
		}},
	}
	facts := map[string]*Facts{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := facts[tt.file]
			if f == nil {
				f = decodeReal(t, tt.file)
				facts[tt.file] = f
			}
			a, err := f.Annual(tt.concept, day(tt.asOf), tt.years)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, lines(a)); diff != "" {
				t.Errorf("Annual(%s, %s, asOf=%s, %d) mismatch (-want +got):\n%s", tt.file, tt.concept, tt.asOf, tt.years, diff)
			}
		})
	}
}

// TestFiscalYearLabels checks the labels against the companies' own names
// for their years, over every period the real files hold.
func TestFiscalYearLabels(t *testing.T) {
	asOf := day("2026-01-01")
	for _, tt := range []struct {
		file, concept string
		want          []string // FY label and end of the newest periods
	}{
		// NVIDIA's fiscal year ends on the last Sunday of January and is
		// named for that year; fy says one less for 2011-2021.
		{"CIK0001045810", "net_income", []string{"FY2024 2024-01-28", "FY2023 2023-01-29", "FY2022 2022-01-30", "FY2021 2021-01-31",
			"FY2020 2020-01-26", "FY2019 2019-01-27", "FY2018 2018-01-28", "FY2017 2017-01-29", "FY2016 2016-01-31",
			"FY2015 2015-01-25", "FY2014 2014-01-26", "FY2013 2013-01-27", "FY2012 2012-01-29", "FY2011 2011-01-30",
			"FY2010 2010-01-31", "FY2009 2009-01-25", "FY2008 2008-01-27"}},
		// Apple's ends on the last Saturday of September.
		{"CIK0000320193", "gross_profit", []string{"FY2024 2024-09-28", "FY2023 2023-09-30", "FY2022 2022-09-24", "FY2021 2021-09-25"}},
		// Snowflake's ends on January 31.
		{"CIK0001640147", "revenue", []string{"FY2025 2025-01-31", "FY2024 2024-01-31", "FY2023 2023-01-31"}},
		// A cover-page count dated after the year end is labelled with the
		// year of the 10-K that reported it.
		{"CIK0000320193", "dei:EntityCommonStockSharesOutstanding", []string{"FY2024 2024-10-18", "FY2023 2023-10-20", "FY2022 2022-10-14"}},
		{"CIK0001045810", "dei:EntityCommonStockSharesOutstanding", []string{"FY2024 2024-02-16", "FY2023 2023-02-17", "FY2022 2022-03-11"}},
	} {
		a, err := decodeReal(t, tt.file).Annual(tt.concept, asOf, len(tt.want))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, v := range a.Values {
			got = append(got, fmt.Sprintf("FY%d %v", v.FiscalYear, v.End))
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s %s labels (-want +got):\n%s", tt.file, tt.concept, diff)
		}
	}
}

// synthetic builds a companyfacts document from "tax:Tag|unit|start|end|val|accn|form|filed" lines.
func synthetic(t *testing.T, lines ...string) *Facts {
	t.Helper()
	type tagUnits map[string][]string
	tags := map[string]tagUnits{}
	var order []string
	for _, l := range lines {
		p := strings.Split(l, "|")
		if tags[p[0]] == nil {
			tags[p[0]] = tagUnits{}
			order = append(order, p[0])
		}
		start := ""
		if p[2] != "" {
			start = fmt.Sprintf(`"start":%q,`, p[2])
		}
		tags[p[0]][p[1]] = append(tags[p[0]][p[1]], fmt.Sprintf(`{%s"end":%q,"val":%s,"accn":%q,"fy":1999,"fp":"FY","form":%q,"filed":%q}`,
			start, p[3], p[4], p[5], p[6], p[7]))
	}
	byTax := map[string][]string{}
	var taxes []string
	for _, name := range order {
		tax, local, _ := strings.Cut(name, ":")
		if byTax[tax] == nil {
			taxes = append(taxes, tax)
		}
		var units []string
		for u, fs := range tags[name] {
			units = append(units, fmt.Sprintf("%q:[%s]", u, strings.Join(fs, ",")))
		}
		byTax[tax] = append(byTax[tax], fmt.Sprintf(`%q:{"label":"x","units":{%s}}`, local, strings.Join(units, ",")))
	}
	var parts []string
	for _, tax := range taxes {
		parts = append(parts, fmt.Sprintf("%q:{%s}", tax, strings.Join(byTax[tax], ",")))
	}
	f, err := Decode([]byte(`{"cik":99,"entityName":"Test","facts":{` + strings.Join(parts, ",") + `}}`))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestAnnualRules(t *testing.T) {
	tests := []struct {
		name    string
		facts   []string
		concept string
		asOf    string
		want    []string
	}{
		{"10-Q and 8-K facts never count, even annual durations marked FY", []string{
			"us-gaap:Revenues|USD|2020-01-01|2020-12-31|100|0000000001-21-000001|10-K|2021-02-01",
			"us-gaap:Revenues|USD|2020-01-01|2020-12-31|999|0000000001-21-000002|10-Q|2021-05-01",
			"us-gaap:Revenues|USD|2020-01-01|2020-12-31|998|0000000001-21-000003|8-K|2021-06-01",
		}, "revenue", "2021-12-31", []string{"us-gaap:Revenues USD", "FY2020 2020-12-31 100 0000000001-21-000001 10-K 2021-02-01"}},
		{"durations outside 330-400 days do not count", []string{
			"us-gaap:Revenues|USD|2020-01-01|2020-12-31|100|0000000001-21-000001|10-K|2021-02-01",
			"us-gaap:Revenues|USD|2020-10-01|2020-12-31|30|0000000001-21-000001|10-K|2021-02-01",
			"us-gaap:Revenues|USD|2019-01-01|2020-12-31|190|0000000001-21-000001|10-K|2021-02-01",
			"us-gaap:Revenues|USD|2020-02-05|2020-12-26|90|0000000001-21-000001|10-K|2021-02-01",
			"us-gaap:Revenues|USD|2019-12-31|2021-02-04|91|0000000001-21-000001|10-K|2021-02-01",
			"us-gaap:Revenues|USD|2019-02-01|2020-01-31|99|0000000001-21-000001|10-K|2021-02-01",
		}, "revenue", "2021-12-31", []string{"us-gaap:Revenues USD",
			"FY2020 2020-12-31 100 0000000001-21-000001 10-K 2021-02-01",
			"FY2020 2020-01-31 99 0000000001-21-000001 10-K 2021-02-01"}},
		{"same filing date: the greater accession is as known; a 10-KT and a 40-F/A count", []string{
			"us-gaap:Assets|USD||2020-12-31|5|0000000001-21-000009|10-KT|2021-02-01",
			"us-gaap:Assets|USD||2020-12-31|6|0000000001-21-000010|40-F/A|2021-02-01",
		}, "total_assets", "2021-02-01", []string{"us-gaap:Assets USD",
			"FY2020 2020-12-31 6 0000000001-21-000010 40-F/A 2021-02-01 restated; first 5 0000000001-21-000009 10-KT 2021-02-01"}},
		{"equal numbers written differently are not a restatement", []string{
			"us-gaap:EarningsPerShareBasic|USD/shares|2020-01-01|2020-12-31|1.5|0000000001-21-000001|10-K|2021-02-01",
			"us-gaap:EarningsPerShareBasic|USD/shares|2020-01-01|2020-12-31|1.50|0000000001-22-000001|10-K|2022-02-01",
		}, "eps_basic", "2022-12-31", []string{"us-gaap:EarningsPerShareBasic USD/shares",
			"FY2020 2020-12-31 1.50 0000000001-22-000001 10-K 2022-02-01 first 0000000001-21-000001"}},
		{"a 52/53-week year ending in early January is named for the year before", []string{
			"us-gaap:Revenues|USD|2021-01-03|2022-01-01|7|0000000001-22-000001|10-K|2022-02-01",
			"us-gaap:Revenues|USD|2022-01-02|2022-12-31|8|0000000001-23-000001|10-K|2023-02-01",
		}, "revenue", "2023-12-31", []string{"us-gaap:Revenues USD",
			"FY2022 2022-12-31 8 0000000001-23-000001 10-K 2023-02-01",
			"FY2021 2022-01-01 7 0000000001-22-000001 10-K 2022-02-01"}},
		{"the tag with the latest period wins; ties go to the list order", []string{
			"us-gaap:SalesRevenueNet|USD|2019-01-01|2019-12-31|1|0000000001-20-000001|10-K|2020-02-01",
			"us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax|USD|2019-01-01|2019-12-31|2|0000000001-20-000001|10-K|2020-02-01",
			"us-gaap:Revenues|USD|2018-01-01|2018-12-31|3|0000000001-20-000001|10-K|2020-02-01",
		}, "revenue", "2020-12-31", []string{"us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax USD",
			"FY2019 2019-12-31 2 0000000001-20-000001 10-K 2020-02-01"}},
		{"IFRS: the filer's currency, latest first; USD wins ties", []string{
			"ifrs-full:Revenue|COP|2020-01-01|2020-12-31|5000|0000000001-21-000001|20-F|2021-04-01",
			"ifrs-full:Revenue|USD|2019-01-01|2019-12-31|1|0000000001-21-000001|20-F|2021-04-01",
			"ifrs-full:Revenue|pure|2021-01-01|2021-12-31|1|0000000001-22-000001|20-F|2022-04-01",
			"ifrs-full:BasicEarningsLossPerShare|COP/shares|2020-01-01|2020-12-31|12.5|0000000001-21-000001|20-F|2021-04-01",
		}, "revenue", "2022-12-31", []string{"ifrs-full:Revenue COP",
			"FY2020 2020-12-31 5000 0000000001-21-000001 20-F 2021-04-01"}},
		{"IFRS per share in currency/shares", []string{
			"ifrs-full:BasicEarningsLossPerShare|COP/shares|2020-01-01|2020-12-31|12.5|0000000001-21-000001|20-F|2021-04-01",
			"ifrs-full:BasicEarningsLossPerShare|shares|2020-01-01|2020-12-31|3|0000000001-21-000001|20-F|2021-04-01",
		}, "eps_basic", "2022-12-31", []string{"ifrs-full:BasicEarningsLossPerShare COP/shares",
			"FY2020 2020-12-31 12.5 0000000001-21-000001 20-F 2021-04-01"}},
		{"balance-sheet aliases take instants only", []string{
			"us-gaap:Assets|USD|2020-01-01|2020-12-31|1|0000000001-21-000001|10-K|2021-02-01",
			"us-gaap:Assets|USD||2020-12-31|2|0000000001-21-000001|10-K|2021-02-01",
		}, "total_assets", "2021-12-31", []string{"us-gaap:Assets USD", "FY2020 2020-12-31 2 0000000001-21-000001 10-K 2021-02-01"}},
		{"a known alias with nothing visible yet is an empty answer", []string{
			"us-gaap:Revenues|USD|2020-01-01|2020-12-31|100|0000000001-21-000001|10-K|2021-02-01",
		}, "revenue", "2021-01-31", []string{" "}},
		{"a tag used only in 10-Qs is known but has no annual values", []string{
			"us-gaap:Revenues|USD|2020-01-01|2020-12-31|100|0000000001-21-000001|10-Q|2021-02-01",
		}, "Revenues", "2021-12-31", []string{"us-gaap:Revenues "}},
		{"a bare name is looked up in us-gaap, then ifrs-full, then dei", []string{
			"ifrs-full:Assets|EUR||2020-12-31|7|0000000001-21-000001|20-F|2021-04-01",
			"dei:Assets|USD||2020-12-31|8|0000000001-21-000001|20-F|2021-04-01",
		}, "Assets", "2021-12-31", []string{"ifrs-full:Assets EUR", "FY2020 2020-12-31 7 0000000001-21-000001 20-F 2021-04-01"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := synthetic(t, tt.facts...).Annual(tt.concept, day(tt.asOf), 5)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, lines(a)); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestAliasTagHistory follows the tags real filers moved between.
func TestAliasTagHistory(t *testing.T) {
	for _, tt := range []struct{ file, concept, asOf, tag string }{
		{"CIK0000320193", "revenue", "2018-11-04", "us-gaap:SalesRevenueNet"},
		{"CIK0000320193", "revenue", "2018-11-05", "us-gaap:Revenues"},
		{"CIK0000320193", "revenue", "2019-10-31", "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"},
		// NVIDIA tagged Revenues, then only ASC 606's tag for FY2019-FY2021, then both.
		{"CIK0001045810", "revenue", "2021-06-30", "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"},
		{"CIK0001045810", "revenue", "2022-03-18", "us-gaap:Revenues"}, // tie: list order
		{"CIK0000320193", "capex", "2014-12-31", "us-gaap:PaymentsToAcquireProductiveAssets"},
		{"CIK0000320193", "capex", "2015-10-28", "us-gaap:PaymentsToAcquirePropertyPlantAndEquipment"},
		{"CIK0001045810", "capex", "2024-06-30", "us-gaap:PaymentsToAcquireProductiveAssets"},
		{"CIK0001045810", "long_term_debt", "2020-06-30", "us-gaap:LongTermDebt"},
		{"CIK0001045810", "long_term_debt", "2021-02-26", "us-gaap:LongTermDebtNoncurrent"},
		{"CIK0000320193", "shares_outstanding", "2024-12-31", "us-gaap:CommonStockSharesOutstanding"}, // dei's later date is the same fiscal year
		{"CIK0001640147", "shares_outstanding", "2025-06-30", "dei:EntityCommonStockSharesOutstanding"},
		{"CIK0001640147", "net_income", "2025-06-30", "us-gaap:NetIncomeLoss"}, // ProfitLoss too: list order
		{"CIK0001640147", "eps", "2021-06-30", "us-gaap:EarningsPerShareBasicAndDiluted"},
		{"CIK0001640147", "eps", "2022-06-30", "us-gaap:EarningsPerShareDiluted"},
		{"CIK0001997711", "net_income", "2025-06-30", "ifrs-full:ProfitLoss"},
	} {
		a, err := decodeReal(t, tt.file).Annual(tt.concept, day(tt.asOf), 1)
		if err != nil {
			t.Fatal(err)
		}
		if a.Tag != tt.tag {
			t.Errorf("Annual(%s, %s, asOf=%s).Tag = %s; want %s", tt.file, tt.concept, tt.asOf, a.Tag, tt.tag)
		}
	}
}

func TestUnknownConcept(t *testing.T) {
	f := decodeReal(t, "CIK0000320193")
	for _, tt := range []struct{ concept, asOf string }{
		{"ebitda", "2024-12-31"},
		{"us-gaap:NoSuchTag", "2024-12-31"},
		{"ifrs-full:Revenue", "2024-12-31"},
		{"Revenue Total", "2024-12-31"},
		{"US-GAAP:Revenues", "2024-12-31"},
		{"", "2024-12-31"},
		// First used in Apple's 10-Q filed 2019-01-30: unknown before.
		{"RevenueFromContractWithCustomerExcludingAssessedTax", "2019-01-29"},
	} {
		_, err := f.Annual(tt.concept, day(tt.asOf), 3)
		if !errors.Is(err, ErrUnknownConcept) {
			t.Errorf("Annual(%q, %s) error = %v; want ErrUnknownConcept", tt.concept, tt.asOf, err)
		}
	}
	a, err := f.Annual("RevenueFromContractWithCustomerExcludingAssessedTax", day("2019-01-30"), 3)
	if err != nil || a.Tag != "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax" || len(a.Values) != 0 {
		t.Errorf("known from a 10-Q, no annual value yet: %+v, %v", a, err)
	}
	for _, years := range []int{0, -1, 31} {
		if _, err := f.Annual("revenue", day("2024-12-31"), years); err == nil || errors.Is(err, ErrUnknownConcept) {
			t.Errorf("years=%d: error %v; want a range error", years, err)
		}
	}
}

// TestAnswersCiteOnlyAnnualForms runs every alias on every real file on
// many dates and checks that every value and first value comes from a
// 10-K-family filing on or before asOf.
func TestAnswersCiteOnlyAnnualForms(t *testing.T) {
	for _, name := range realFiles {
		f := decodeReal(t, name)
		for y := 2009; y <= 2026; y++ {
			asOf := civil.DayOf(y, 6, 30)
			for _, a := range aliases {
				ans, err := f.Annual(a.Name, asOf, MaxYears)
				if err != nil {
					t.Fatal(err)
				}
				for _, v := range ans.Values {
					if !AnnualForm(v.Form) || !AnnualForm(v.FirstForm) || v.Filed > asOf || v.FirstFiled > v.Filed {
						t.Errorf("%s %s asOf %v: %s", name, a.Name, asOf, line(v))
					}
				}
			}
		}
	}
}

// TestOneTagPerAnswer shows the cost of answering from one tag: NVIDIA
// reported FY2019 revenue only under ASC 606's tag, and the tag with the
// latest period (Revenues) has no FY2019 value, so that year is missing
// rather than taken from another tag.
func TestOneTagPerAnswer(t *testing.T) {
	a, err := decodeReal(t, "CIK0001045810").Annual("revenue", day("2024-06-30"), 7)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range a.Values {
		got = append(got, fmt.Sprintf("FY%d", v.FiscalYear))
	}
	want := []string{"FY2024", "FY2023", "FY2022", "FY2021", "FY2020", "FY2018", "FY2017"}
	if a.Tag != "us-gaap:Revenues" || !cmp.Equal(want, got) {
		t.Errorf("tag %s, years %v; want us-gaap:Revenues, %v", a.Tag, got, want)
	}
}

// TestConcurrentAnswers runs queries on one Facts from many goroutines
// (run with -race).
func TestConcurrentAnswers(t *testing.T) {
	f := decodeReal(t, "CIK0000320193")
	want, err := f.Annual("revenue", day("2020-01-01"), MaxYears)
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			for _, a := range aliases {
				if _, err := f.Annual(a.Name, day("2022-01-01"), MaxYears); err != nil {
					errs <- err
					return
				}
			}
			got, err := f.Annual("revenue", day("2020-01-01"), MaxYears)
			if err == nil && !cmp.Equal(want, got) {
				err = fmt.Errorf("answers differ")
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

func TestKindString(t *testing.T) {
	for k, want := range map[Kind]string{Money: "money", Balance: "balance", PerShare: "per_share", Shares: "shares", 0: "Kind(0)"} {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d).String() = %q; want %q", int(k), got, want)
		}
	}
}
