package edgar13f

// These tests stay inside the package: they drive decide, the unexported
// adapter of the amendment rule over the package's own filing and cover
// types, against the oracle, and need no EDGAR (the tests that do are
// package edgar13f_test, on internal/edgartest).

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/edgar13f/edgar13f/internal/oracle"
	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// Timelines are written with day numbers counted from pitDayZero, so that the
// oracle (which knows no Dates) and resolve see the same calendar.
var pitDayZero = Date{2000, time.January, 1}

func pitDate(n int) Date { return pitDayZero.AddDays(n) }

func pitDay(d Date) int { return int(d.day() - pitDayZero.day()) }

// pitFiling is one generated filing: the truth (oracle.Filing) plus whether
// EDGAR's filing list omits its period, so that only the cover knows it.
type pitFiling struct {
	oracle.Filing
	NoListPeriod bool
}

// pitListed returns the filings as EDGAR's filing list shows them.
func pitListed(tl []pitFiling) []listedFiling {
	out := make([]listedFiling, len(tl))
	for i, f := range tl {
		out[i] = listedFiling{Accession: f.Accession, Form: Form(f.Form), FilingDate: pitDate(f.Filed)}
		if !f.NoListPeriod {
			out[i].Period = pitDate(f.Period)
		}
	}
	return out
}

// pitTruths returns the filings as the oracle sees them: every cover fact known.
func pitTruths(tl []pitFiling) []oracle.Filing {
	out := make([]oracle.Filing, len(tl))
	for i, f := range tl {
		out[i] = f.Filing
	}
	return out
}

// pitCovers returns the covers of the generated filings as the holdings
// code would read them, and the log of the filings asked for.
func pitCovers(tl []pitFiling) (func(listedFiling) (coverFacts, error), *[]listedFiling) {
	byAcc := make(map[string]oracle.Filing, len(tl))
	for _, f := range tl {
		byAcc[f.Accession] = f.Filing
	}
	var calls []listedFiling
	return func(l listedFiling) (coverFacts, error) {
		calls = append(calls, l)
		f, ok := byAcc[l.Accession]
		if !ok || !l.Form.isHoldingsReport() {
			return coverFacts{}, fmt.Errorf("no holdings cover for %s", l.Accession)
		}
		return coverFacts{
			Period:      pitDate(f.Period),
			AmendmentNo: f.AmendNo,
			Kind:        kindOf(l.Form, AmendmentType(f.AmendType)),
		}, nil
	}, &calls
}

// pitRule has the signature of decide, so that broken variants can stand in for it.
type pitRule func(filings []listedFiling, period, asOf Date, covers map[string]coverFacts) decision

// decideListed is decide given every filing of the list (no older page).
func decideListed(filings []listedFiling, period, asOf Date, covers map[string]coverFacts) decision {
	return decide(filings, nil, period, asOf, covers)
}

// runRule drives rule to its final decision as the holdings code does,
// reading each cover the rule asks for with coverOf.
func runRule(rule pitRule, filings []listedFiling, period, asOf Date, coverOf func(listedFiling) (coverFacts, error)) (resolution, error) {
	covers := map[string]coverFacts{}
	for {
		d := rule(filings, period, asOf, covers)
		if len(d.need) == 0 {
			return d.res, d.err
		}
		for _, f := range d.need {
			if _, ok := covers[f.Accession]; ok {
				return resolution{}, fmt.Errorf("rule asked again for the cover of %s", f.Accession)
			}
			cf, err := coverOf(f)
			if err != nil {
				return resolution{}, err
			}
			covers[f.Accession] = cf
		}
	}
}

// pitAnswer turns the rule's result into the oracle's vocabulary.
func pitAnswer(res resolution, err error) (oracle.Answer, string, error) {
	if err != nil {
		var de *DeclineError
		if !errors.As(err, &de) {
			return oracle.Answer{}, "", err
		}
		return oracle.Answer{Reason: string(de.Reason)}, de.Message, nil
	}
	a := oracle.Answer{Base: res.Base.Accession}
	for _, s := range res.Supplements {
		a.Supplements = append(a.Supplements, s.Accession)
	}
	return a, "", nil
}

// pitCase is one generated query: a timeline, a period and two asOf dates
// with no filing date in (AsOf, AsOfLater].
type pitCase struct {
	Filings   []pitFiling
	Period    int
	AsOf      int
	AsOfLater int
}

var (
	pitPeriods = []int{ // quarter ends; a case uses the first two or three
		pitDay(Date{2024, time.September, 30}),
		pitDay(Date{2024, time.December, 31}),
		pitDay(Date{2025, time.March, 31}),
		pitDay(Date{2025, time.June, 30}),
	}
	pitFirstDay = pitDay(Date{2025, time.February, 10})
	pitForms    = []string{oracle.FormHR, oracle.FormHR, oracle.FormHR, oracle.FormHRA, oracle.FormHRA, oracle.FormHRA, oracle.FormHRA, oracle.FormNT, oracle.FormNTA}
	pitTypes    = []string{oracle.Restatement, oracle.NewHoldings, oracle.NewHoldings, ""}
)

var genPITCase = rapid.Custom(func(t *rapid.T) pitCase {
	used := pitPeriods[:rapid.IntRange(2, 3).Draw(t, "periods")]
	n := rapid.IntRange(0, 12).Draw(t, "n")
	seqs := make([]int, n)
	for i := range seqs {
		seqs[i] = i + 1
	}
	seqs = rapid.Permutation(seqs).Draw(t, "accessions")
	var c pitCase
	for i := range n {
		f := pitFiling{Filing: oracle.Filing{
			Accession: fmt.Sprintf("0000000001-25-%06d", seqs[i]),
			Form:      rapid.SampledFrom(pitForms).Draw(t, "form"),
			Filed:     pitFirstDay + rapid.IntRange(0, 6).Draw(t, "filed"),
			Period:    rapid.SampledFrom(used).Draw(t, "period"),
		}}
		switch f.Form {
		case oracle.FormHRA:
			f.AmendNo = rapid.IntRange(0, 4).Draw(t, "amendNo")
			f.AmendType = rapid.SampledFrom(pitTypes).Draw(t, "amendType")
		case oracle.FormHR:
			// Only the form makes an original; stray cover fields must not matter.
			if rapid.IntRange(0, 5).Draw(t, "strayCover") == 0 {
				f.AmendNo = rapid.IntRange(1, 4).Draw(t, "amendNo")
				f.AmendType = rapid.SampledFrom(pitTypes).Draw(t, "amendType")
			}
		}
		if f.Form == oracle.FormHR || f.Form == oracle.FormHRA {
			// Notices have no cover lookup, so only holdings reports may lack a list period.
			f.NoListPeriod = rapid.IntRange(0, 3).Draw(t, "noListPeriod") == 0
		}
		c.Filings = append(c.Filings, f)
	}
	c.Period = rapid.SampledFrom(pitPeriods[:len(used)+1]).Draw(t, "queryPeriod")
	asOfs := []int{pitFirstDay - 5, pitFirstDay + 20}
	for _, f := range c.Filings {
		asOfs = append(asOfs, f.Filed-1, f.Filed, f.Filed+1)
	}
	c.AsOf = rapid.SampledFrom(asOfs).Draw(t, "asOf")
	last := c.AsOf + 30
	for _, f := range c.Filings {
		if f.Filed > c.AsOf && f.Filed-1 < last {
			last = f.Filed - 1
		}
	}
	c.AsOfLater = rapid.IntRange(c.AsOf, last).Draw(t, "asOfLater")
	return c
})

// checkPIT runs resolver r on c and returns the first property it breaks.
func checkPIT(c pitCase, r pitRule) error {
	filed := make(map[string]int, len(c.Filings))
	for _, f := range c.Filings {
		filed[f.Accession] = f.Filed
	}
	run := func(asOf int) (oracle.Answer, error) {
		coverOf, calls := pitCovers(c.Filings)
		res, err := runRule(r, pitListed(c.Filings), pitDate(c.Period), pitDate(asOf), coverOf)
		got, msg, err := pitAnswer(res, err)
		if err != nil {
			return got, fmt.Errorf("asOf %d: unexpected error: %v", asOf, err)
		}
		// 1. Same answer as the oracle.
		if diff := cmp.Diff(oracle.Resolve(pitTruths(c.Filings), c.Period, asOf), got); diff != "" {
			return got, fmt.Errorf("asOf %d: answer differs from oracle (-want +got):\n%s", asOf, diff)
		}
		// 2. No leak.
		for _, l := range *calls {
			if pitDay(l.FilingDate) > asOf {
				return got, fmt.Errorf("asOf %d: cover asked for %s filed %s", asOf, l.Accession, l.FilingDate)
			}
		}
		for _, acc := range append([]string{got.Base}, got.Supplements...) {
			if acc != "" && filed[acc] > asOf {
				return got, fmt.Errorf("asOf %d: answer cites %s filed later", asOf, acc)
			}
		}
		for acc, d := range filed {
			if d > asOf && strings.Contains(msg, acc) {
				return got, fmt.Errorf("asOf %d: decline message %q names %s filed later", asOf, msg, acc)
			}
		}
		// 3. Minimality.
		for _, l := range *calls {
			if !l.Form.isHoldingsReport() {
				return got, fmt.Errorf("asOf %d: cover asked for %s %s", asOf, l.Form, l.Accession)
			}
			if got.Base != "" && pitDay(l.FilingDate) < filed[got.Base] {
				return got, fmt.Errorf("asOf %d: cover asked for %s filed before base %s", asOf, l.Accession, got.Base)
			}
		}
		return got, nil
	}
	a, err := run(c.AsOf)
	if err != nil {
		return err
	}
	b, err := run(c.AsOfLater)
	if err != nil {
		return err
	}
	// 4. Stable between filing dates.
	if diff := cmp.Diff(a, b); diff != "" {
		return fmt.Errorf("asOf %d and %d differ with no filing between (-%d +%d):\n%s", c.AsOf, c.AsOfLater, c.AsOf, c.AsOfLater, diff)
	}
	return nil
}

func TestResolveProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		if err := checkPIT(genPITCase.Draw(t, "case"), decideListed); err != nil {
			t.Fatal(err)
		}
	})
}

// TestPITGeneratorCoverage guards the generator: the property tests mean
// little unless its timelines reach every outcome of the rule.
func TestPITGeneratorCoverage(t *testing.T) {
	seen := map[string]int{}
	for seed := range 2000 {
		c := genPITCase.Example(seed)
		a := oracle.Resolve(pitTruths(c.Filings), c.Period, c.AsOf)
		switch {
		case a.Reason != "":
			seen[a.Reason]++
		case len(a.Supplements) > 0:
			seen["base with supplements"]++
		default:
			seen["base alone"]++
		}
	}
	t.Logf("outcomes in 2000 cases: %v", seen)
	for _, want := range []string{oracle.UnknownCIK, oracle.NoticeOnly, oracle.NotYetFiled, "base with supplements", "base alone"} {
		if seen[want] < 20 {
			t.Errorf("outcome %q reached %d times in 2000 cases, want at least 20 (all: %v)", want, seen[want], seen)
		}
	}
}

// pitWithKinds runs decide on covers rewritten by edit.
func pitWithKinds(edit func(*coverFacts)) pitRule {
	return func(fs []listedFiling, period, asOf Date, covers map[string]coverFacts) decision {
		edited := make(map[string]coverFacts, len(covers))
		for acc, cf := range covers {
			edit(&cf)
			edited[acc] = cf
		}
		return decide(fs, nil, period, asOf, edited)
	}
}

func TestPropertiesCatchBrokenResolvers(t *testing.T) {
	broken := []struct {
		name string
		r    pitRule
	}{
		{"visible only before asOf", func(fs []listedFiling, p, asOf Date, covers map[string]coverFacts) decision {
			return decide(fs, nil, p, asOf.AddDays(-1), covers)
		}},
		{"visible the day after asOf", func(fs []listedFiling, p, asOf Date, covers map[string]coverFacts) decision {
			return decide(fs, nil, p, asOf.AddDays(1), covers)
		}},
		{"new holdings as restatement", pitWithKinds(func(cf *coverFacts) {
			if cf.Kind == kindNewHoldings {
				cf.Kind = kindRestatement
			}
		})},
		{"restatement ignored", pitWithKinds(func(cf *coverFacts) {
			if cf.Kind == kindRestatement {
				cf.Kind = kindNewHoldings
			}
		})},
		{"unspecified as new holdings", pitWithKinds(func(cf *coverFacts) {
			if cf.Kind == kindUnspecified {
				cf.Kind = kindNewHoldings
			}
		})},
		{"amendment number ignored", pitWithKinds(func(cf *coverFacts) { cf.AmendmentNo = 0 })},
		{"supplements before base kept", func(fs []listedFiling, p, asOf Date, covers map[string]coverFacts) decision {
			d := decide(fs, nil, p, asOf, covers)
			if len(d.need) > 0 || d.err != nil {
				return d
			}
			var before []listedFiling
			for _, f := range fs {
				if f.Form == Form13FHRA && visibleOn(f.FilingDate, asOf) && f.FilingDate.Before(d.res.Base.FilingDate) {
					before = append(before, f)
				}
			}
			var need []listedFiling
			for _, f := range before {
				if _, ok := covers[f.Accession]; !ok {
					need = append(need, f)
				}
			}
			if len(need) > 0 {
				return decision{need: need}
			}
			for _, f := range before {
				if cf := covers[f.Accession]; cf.Period == p && cf.Kind == kindNewHoldings {
					d.res.Supplements = append(d.res.Supplements, classified{f, cf})
				}
			}
			return d
		}},
	}
	for _, b := range broken {
		t.Run(b.name, func(t *testing.T) {
			for seed := range 20000 {
				if err := checkPIT(genPITCase.Example(seed), b.r); err != nil {
					t.Logf("caught at seed %d: %v", seed, err)
					return
				}
			}
			t.Errorf("no generated case catches %q", b.name)
		})
	}
}

func TestResolveTimelines(t *testing.T) {
	q4 := pitDay(Date{2024, time.December, 31})
	q1 := pitDay(Date{2025, time.March, 31})
	d := pitDay(Date{2025, time.February, 10})
	hr := func(seq, filed int) pitFiling {
		return pitFiling{Filing: oracle.Filing{Accession: pitAcc(seq), Form: oracle.FormHR, Filed: filed, Period: q4}}
	}
	hra := func(seq, filed, no int, typ AmendmentType) pitFiling {
		return pitFiling{Filing: oracle.Filing{Accession: pitAcc(seq), Form: oracle.FormHRA, Filed: filed, Period: q4, AmendNo: no, AmendType: string(typ)}}
	}
	noList := func(f pitFiling) pitFiling { f.NoListPeriod = true; return f }
	inQ1 := func(f pitFiling) pitFiling { f.Period = q1; return f }
	nt := pitFiling{Filing: oracle.Filing{Accession: pitAcc(9), Form: oracle.FormNT, Filed: d + 3, Period: q4}}

	tests := []struct {
		name    string
		filings []pitFiling
		period  int
		asOf    int
		want    oracle.Answer
		calls   []string // accessions whose covers the rule asks for, in order
	}{
		{
			name:    "same-day amendments numbered out of accession order",
			filings: []pitFiling{hr(1, d), hra(3, d+5, 2, NewHoldings), hra(2, d+5, 1, ""), hra(4, d+5, 3, NewHoldings)},
			period:  q4, asOf: d + 5,
			want:  oracle.Answer{Base: pitAcc(2), Supplements: []string{pitAcc(3), pitAcc(4)}},
			calls: []string{pitAcc(3), pitAcc(2), pitAcc(4)},
		},
		{
			name:    "same-day restatement numbered after new holdings",
			filings: []pitFiling{hr(1, d), hra(2, d+5, 2, Restatement), hra(3, d+5, 1, NewHoldings)},
			period:  q4, asOf: d + 9,
			want:  oracle.Answer{Base: pitAcc(2)},
			calls: []string{pitAcc(2), pitAcc(3)},
		},
		{
			name:    "new holdings filed before a restatement is superseded",
			filings: []pitFiling{hr(1, d), hra(2, d+1, 1, NewHoldings), hra(3, d+2, 2, Restatement), hra(4, d+3, 3, NewHoldings)},
			period:  q4, asOf: d + 3,
			want:  oracle.Answer{Base: pitAcc(3), Supplements: []string{pitAcc(4)}},
			calls: []string{pitAcc(4), pitAcc(3)},
		},
		{
			name:    "new holdings before the restatement is visible",
			filings: []pitFiling{hr(1, d), hra(2, d+1, 1, NewHoldings), hra(3, d+2, 2, Restatement)},
			period:  q4, asOf: d + 1,
			want:  oracle.Answer{Base: pitAcc(1), Supplements: []string{pitAcc(2)}},
			calls: []string{pitAcc(2), pitAcc(1)},
		},
		{
			name:    "only new holdings for the period",
			filings: []pitFiling{hra(2, d+1, 1, NewHoldings), inQ1(hr(1, d))},
			period:  q4, asOf: d + 1,
			want:  oracle.Answer{Reason: string(NotYetFiled)},
			calls: []string{pitAcc(2)},
		},
		{
			name:    "only new holdings and a notice",
			filings: []pitFiling{hra(2, d+1, 1, NewHoldings), nt},
			period:  q4, asOf: d + 3,
			want:  oracle.Answer{Reason: string(NoticeOnly)},
			calls: []string{pitAcc(2)},
		},
		{
			name:    "notice not yet visible",
			filings: []pitFiling{inQ1(hr(1, d)), nt},
			period:  q4, asOf: d + 2,
			want: oracle.Answer{Reason: string(NotYetFiled)},
		},
		{
			name:    "unknown cik before the first filing",
			filings: []pitFiling{hr(1, d), nt},
			period:  q4, asOf: d - 1,
			want: oracle.Answer{Reason: string(UnknownCIK)},
		},
		{
			name:   "unknown cik with no filings",
			period: q4, asOf: d,
			want: oracle.Answer{Reason: string(UnknownCIK)},
		},
		{
			name:    "list period zero: cover names another period",
			filings: []pitFiling{hr(1, d), noList(inQ1(hr(2, d+4)))},
			period:  q4, asOf: d + 4,
			want:  oracle.Answer{Base: pitAcc(1)},
			calls: []string{pitAcc(2), pitAcc(1)},
		},
		{
			name:    "list period zero: cover names the period",
			filings: []pitFiling{hr(1, d), noList(hra(2, d+4, 1, Restatement)), inQ1(hr(3, d+4))},
			period:  q4, asOf: d + 4,
			want:  oracle.Answer{Base: pitAcc(2)},
			calls: []string{pitAcc(2)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, oracle.Resolve(pitTruths(tt.filings), tt.period, tt.asOf)); diff != "" {
				t.Errorf("oracle.Resolve mismatch (-want +got):\n%s", diff)
			}
			coverOf, calls := pitCovers(tt.filings)
			got, _, err := pitAnswer(runRule(decideListed, pitListed(tt.filings), pitDate(tt.period), pitDate(tt.asOf), coverOf))
			if err != nil {
				t.Fatalf("decide: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("decide mismatch (-want +got):\n%s", diff)
			}
			var gotCalls []string
			for _, l := range *calls {
				gotCalls = append(gotCalls, l.Accession)
			}
			if diff := cmp.Diff(tt.calls, gotCalls); diff != "" {
				t.Errorf("covers asked for mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func pitAcc(seq int) string { return fmt.Sprintf("0000000001-25-%06d", seq) }
