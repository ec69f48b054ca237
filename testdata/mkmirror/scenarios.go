package main

import (
	"encoding/xml"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/oracle"
)

// rec is a 13F filing as the amendment rules see it.
type rec struct {
	acc, form, filed, period string
	amendNo                  int
	kind                     string // ORIGINAL, RESTATEMENT, NEW HOLDINGS, UNSPECIFIED, NOTICE
	rows                     int
	sum                      int64
	hasTable                 bool
}

// answer is the expected result of Holdings(cik, period, asOf).
type answer struct {
	decline     string
	base        rec
	supplements []rec
}

// resolve returns the expected answer of Holdings(cik, period, asOf) for
// one filer's 13F filings (dates YYYY-MM-DD). The rule is internal/oracle's:
// the naive statement of the visibility, amendment and decline rules that
// the library's resolver is held to, so that SCENARIOS.md and the property
// tests expect the same answers.
func resolve(recs []rec, period, asOf string) answer {
	filings := make([]oracle.Filing, len(recs))
	byAcc := make(map[string]rec, len(recs))
	for i, r := range recs {
		filings[i] = oracle.Filing{Accession: r.acc, Form: r.form, Filed: dayNumber(r.filed), Period: dayNumber(r.period), AmendNo: r.amendNo}
		if r.kind == oracle.Restatement || r.kind == oracle.NewHoldings {
			filings[i].AmendType = r.kind
		}
		byAcc[r.acc] = r
	}
	o := oracle.Resolve(filings, dayNumber(period), dayNumber(asOf))
	if o.Reason != "" {
		return answer{decline: o.Reason}
	}
	a := answer{base: byAcc[o.Base]}
	for _, acc := range o.Supplements {
		a.supplements = append(a.supplements, byAcc[acc])
	}
	return a
}

// dayNumber returns the day number of a YYYY-MM-DD date the generator
// itself wrote.
func dayNumber(s string) int {
	d, ok := civil.ParseISO(s)
	if !ok {
		panic(fmt.Sprintf("mkmirror: date %q is not YYYY-MM-DD", s))
	}
	return int(d)
}

// filerScenario is one filer's section of SCENARIOS.md.
type filerScenario struct {
	cik          int
	name, story  string
	recs         []rec
	otherDates   []string // filing dates of its non-13F filings
	extraPeriods []string
	berkshire    bool
}

// tableStats returns the row count and value sum of an information table.
func tableStats(table []byte) (int, int64, bool) {
	var t struct {
		Rows []struct {
			Value int64 `xml:"value"`
		} `xml:"infoTable"`
	}
	if err := xml.Unmarshal(trimLeadingSpace(table), &t); err != nil {
		panic(fmt.Sprintf("mkmirror: information table: %v", err))
	}
	var sum int64
	for _, r := range t.Rows {
		sum += r.Value
	}
	return len(t.Rows), sum, true
}

func trimLeadingSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\n' || b[0] == '\r' || b[0] == '\t') {
		b = b[1:]
	}
	return b
}

func (g *gen) writeScenarios() error {
	var b strings.Builder
	b.WriteString(scenHeader)
	for _, f := range g.scen {
		if f.berkshire {
			continue
		}
		g.writeFiler(&b, f)
	}
	for _, f := range g.scen {
		if f.berkshire {
			g.writeBerkshire(&b, f)
		}
	}
	return g.writeIfChanged(filepath.Join(g.testdata, "SCENARIOS.md"), []byte(b.String()))
}

const scenHeader = `# Scenarios of the recorded mirror

Expected answers for the synthetic filers (CIKs 9000001-9000004) and for the
Berkshire amendment chains whose real tables are in the mirror. Written by
testdata/mkmirror from the same data it writes to the mirror; do not edit by hand.

Rules: a filing is visible on asOf when its filingDate <= asOf.
V = the visible 13F-HR and 13F-HR/A of the period sorted by (filing date,
amendment number with none first, accession). base = the last ORIGINAL or
RESTATEMENT of V (UNSPECIFIED, a 13F-HR/A without amendmentInfo, counts as a
restatement); supplements = the NEW HOLDINGS of V after base. Without a base:
notice_only if a 13F-NT/NT-A of the period is visible, else not_yet_filed; if no
13F of any of the four forms is visible at all: unknown_cik.

"rows" and "value sum" are those of base plus supplements, as filed (dollars,
except where a filing made before 2023-01-03 reports thousands). The synthetic
tables hold only ordinary stocks, so redaction removes nothing from them. "sources" lists
base then supplements. asOf dates are the day before, the day of and the day
after every filing date of the filer (13F or not).
`

func acceptedDates(f filerScenario) []string {
	seen := map[string]bool{}
	var ds []string
	add := func(d string) {
		for _, x := range []string{addDays(d, -1), d, addDays(d, 1)} {
			if !seen[x] {
				seen[x] = true
				ds = append(ds, x)
			}
		}
	}
	for _, r := range f.recs {
		add(r.filed)
	}
	for _, d := range f.otherDates {
		add(d)
	}
	sort.Strings(ds)
	return ds
}

func periodsOf(f filerScenario) []string {
	seen := map[string]bool{}
	var ps []string
	for _, r := range f.recs {
		if !seen[r.period] {
			seen[r.period] = true
			ps = append(ps, r.period)
		}
	}
	ps = append(ps, f.extraPeriods...)
	sort.Strings(ps)
	return ps
}

func (g *gen) writeFiler(b *strings.Builder, f filerScenario) {
	fmt.Fprintf(b, "\n## CIK %d %s\n\n%s\n\n", f.cik, f.name, f.story)
	b.WriteString("| filing date | accession | form | period | amendment no | kind | rows | value sum |\n|---|---|---|---|---|---|---|---|\n")
	recs := append([]rec(nil), f.recs...)
	sort.SliceStable(recs, func(i, j int) bool {
		if recs[i].filed != recs[j].filed {
			return recs[i].filed < recs[j].filed
		}
		return recs[i].acc < recs[j].acc
	})
	for _, r := range recs {
		amend := ""
		if r.amendNo > 0 {
			amend = fmt.Sprint(r.amendNo)
		}
		rows, sum := "", ""
		if r.hasTable {
			rows, sum = fmt.Sprint(r.rows), fmt.Sprint(r.sum)
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", r.filed, r.acc, r.form, r.period, amend, r.kind, rows, sum)
	}
	if len(f.otherDates) > 0 {
		fmt.Fprintf(b, "\nNon-13F filings on: %s.\n", strings.Join(f.otherDates, ", "))
	}
	dates := acceptedDates(f)
	fmt.Fprintf(b, "\n### Filings(%d, asOf)\n\n| asOf | visible 13F filings, sorted by (filing date, accession) |\n|---|---|\n", f.cik)
	for _, d := range dates {
		var vis []string
		for _, r := range recs {
			if r.filed <= d {
				vis = append(vis, r.acc)
			}
		}
		if len(vis) == 0 {
			fmt.Fprintf(b, "| %s | decline unknown_cik |\n", d)
			continue
		}
		fmt.Fprintf(b, "| %s | %d: %s |\n", d, len(vis), strings.Join(vis, ", "))
	}
	for _, p := range periodsOf(f) {
		fmt.Fprintf(b, "\n### Holdings(%d, %s, asOf)\n\n", f.cik, p)
		writeAnswers(b, f.recs, p, dates)
	}
}

func writeAnswers(b *strings.Builder, recs []rec, period string, dates []string) {
	b.WriteString("| asOf | answer | base | supplements | rows | value sum |\n|---|---|---|---|---|---|\n")
	for _, d := range dates {
		a := resolve(recs, period, d)
		if a.decline != "" {
			fmt.Fprintf(b, "| %s | decline %s | | | | |\n", d, a.decline)
			continue
		}
		var sups []string
		rows, sum, known := a.base.rows, a.base.sum, a.base.hasTable
		for _, s := range a.supplements {
			sups = append(sups, s.acc)
			rows += s.rows
			sum += s.sum
			known = known && s.hasTable
		}
		sup := "none"
		if len(sups) > 0 {
			sup = strings.Join(sups, ", ")
		}
		rs, ss := fmt.Sprint(rows), fmt.Sprint(sum)
		if !known {
			rs, ss = "n/a (no table in mirror)", "n/a"
		}
		fmt.Fprintf(b, "| %s | holdings | %s | %s | %s | %s |\n", d, a.base.acc, sup, rs, ss)
	}
}

func (g *gen) writeBerkshire(b *strings.Builder, f filerScenario) {
	fmt.Fprintf(b, "\n## CIK %d %s\n\n", f.cik, f.name)
	b.WriteString("The mirror lists all 36 Berkshire 13F filings since 2019 (none earlier, so asOf before 2019-02-14 declines unknown_cik) but holds tables only for the seven real filings; the other covers are synthetic with zero totals and have no table or .txt. Periods below are those with a real table; asOf dates are the day before, of and after each 13F filing of the period. 2022-09-30 values are in thousands. Rows and sums here are as filed, BEFORE redaction: these real tables hold rows that default redaction removes (e.g. SPDR S&P 500 ETF 78462F103), so with redaction on expect fewer rows and a smaller sum; the cited accessions are the same either way. For 2025-03-31 the NEW HOLDINGS amendment 0000950123-25-008361 has filingDate 2025-08-14 but acceptanceDateTime 2025-08-15T00:12:31Z: it is visible from 2025-08-14.\n")
	for _, p := range []string{"2022-09-30", "2022-12-31", "2023-09-30", "2023-12-31", "2025-03-31"} {
		seen := map[string]bool{}
		var dates []string
		for _, r := range f.recs {
			if r.period != p {
				continue
			}
			for _, x := range []string{addDays(r.filed, -1), r.filed, addDays(r.filed, 1)} {
				if !seen[x] {
					seen[x] = true
					dates = append(dates, x)
				}
			}
		}
		sort.Strings(dates)
		fmt.Fprintf(b, "\n### Holdings(%d, %s, asOf)\n\n", f.cik, p)
		writeAnswers(b, f.recs, p, dates)
	}
}
