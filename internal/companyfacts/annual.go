package companyfacts

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/edgar13f/edgar13f/internal/civil"
)

// Years limits: an answer holds at most MaxYears periods, DefaultYears when
// the caller asks for none.
const (
	DefaultYears = 3
	MaxYears     = 30
)

// An Answer is the annual values of one concept as known on a date.
type Answer struct {
	Concept string  // the alias (synonyms resolved), or "taxonomy:Name"
	Tag     string  // "taxonomy:Name" of the tag the values come from; "" when none is visible
	Unit    string  // e.g. "USD", "USD/shares", "shares", "EUR"; "" when no value is visible
	Values  []Value // newest period first
}

// A Value is one fiscal period's value: as known on asOf, and as first
// reported.
type Value struct {
	FiscalYear   int       // the company's fiscal year label; see [Facts.Annual]
	FiscalPeriod string    // "FY"
	Start        civil.Day // first day of the period; 0 for an instant
	End          civil.Day // last day of the period, or the instant

	Value     string    // the number as EDGAR serves it, e.g. "394328000000" or "6.11"
	Accession string    // the filing that reported Value: dashed accession number
	Form      string    // its form, e.g. "10-K/A"
	Filed     civil.Day // its filing date

	FirstValue     string // the value first reported for the period
	FirstAccession string
	FirstForm      string
	FirstFiled     civil.Day
	Restated       bool // Value differs from FirstValue (numerically)
}

// Annual returns the newest years (1 to MaxYears) annual values of concept
// as they could have been known on asOf. Nothing filed after asOf has any
// influence on the answer, including whether a tag is known at all.
//
// concept is an alias or synonym (see [Aliases]; any case), a tag
// "taxonomy:Name", or a bare "Name" looked up in us-gaap, ifrs-full and dei,
// in that order. Aliases match in any case, so a tag whose name is also an
// alias ("Cash", "Revenue", "Equity") must be written with its taxonomy
// ("us-gaap:Cash"). A concept that is none of these, or a tag no filing on or
// before asOf used, is an error wrapping [ErrUnknownConcept]. A known concept
// with no annual value visible on asOf is an answer with no values.
//
// # Which facts count
//
// A fact is visible when its filing date is on or before asOf. Only facts
// from the 10-K family count (see [AnnualForm]); facts of 10-Qs and 8-Ks
// never do, whatever their fp says. An annual value is a duration of 330
// to 400 days (end minus start) or, for balance-sheet concepts (and for
// tags that report instants), an instant.
//
// # Unit and tag
//
// Units follow the concept: an amount is read in USD or in the filer's
// currency (any three-letter upper-case unit, as ifrs-full filers report),
// a per-share amount in currency/shares, a share count in shares. A tag
// asked for by name is read in whichever of its units has the latest
// period. Among the alias's tags and their units, the one whose latest
// visible annual period is latest is used (ties: the alias's tag order, then
// USD before other currencies in alphabetical order). The answer names the
// tag and unit; values of other tags are never mixed in.
//
// # One value per period
//
// Facts are grouped by period (start, end). For each period, the value as
// known on asOf is the one of the visible fact with the greatest (filing
// date, accession number), and the first reported value the one with the
// smallest; Restated says they differ. The newest years periods by end date
// (then start) are returned.
//
// # Fiscal year
//
// fy and fp are not used (fy is the fiscal year of the filing, and some
// filers set it a year off: NVIDIA's 10-K for the year ended 2015-01-25 says
// 2014). A period's fiscal year is the calendar year in which the fiscal
// year it belongs to ends, except that a fiscal year ending in the first
// seven days of January (a 52/53-week year closing near December 31) is
// named for the year before. The fiscal year a period belongs to ends at
// the period's end, unless the period ends after the fiscal year of the
// filing that first reported it (a cover-page count of shares dated weeks
// after the balance sheet), in which case it ends at that filing's fiscal
// year end: the latest end of the filing's annual durations (or, without
// any, of its balance-sheet instants; with neither, the period's own end is
// used). So Apple's
// year ended 2024-09-28 is 2024, NVIDIA's year ended 2024-01-28 is 2024 (as
// NVIDIA names it), and a December year ended 2022-01-01 is 2021. Companies
// that name a year ending in late January or February for the year it began
// (some retailers) are labelled by the year it ended.
func (f *Facts) Annual(conceptName string, asOf civil.Day, years int) (*Answer, error) {
	if years < 1 || years > MaxYears {
		return nil, fmt.Errorf("companyfacts: years %d is not 1 to %d", years, MaxYears)
	}
	c, err := resolve(conceptName)
	if err != nil {
		return nil, err
	}
	ans := &Answer{Concept: c.name, Values: []Value{}}
	tags := c.tags
	if !c.alias {
		// A tag: the first of its candidate names that a visible filing used.
		tags = nil
		for _, name := range c.tags {
			tax, local, _ := strings.Cut(name, ":")
			if t := f.lookup(tax, local); t != nil && visible(t.firstFiled, asOf) {
				tags = []string{name}
				break
			}
		}
		if tags == nil {
			return nil, fmt.Errorf("companyfacts: %w %q: no filing on or before %s used it", ErrUnknownConcept, conceptName, asOf)
		}
		ans.Concept, ans.Tag = tags[0], tags[0]
	}
	var best *candidate
	for ti, name := range tags {
		tax, local, _ := strings.Cut(name, ":")
		t := f.lookup(tax, local)
		if t == nil || !visible(t.firstFiled, asOf) {
			continue
		}
		for ui := range t.units {
			u := &t.units[ui]
			rank, ok := unitRank(c, u.name)
			if !ok || !visible(u.firstFiled, asOf) {
				continue
			}
			periods, err := f.periods(u, c, asOf)
			if err != nil {
				return nil, err
			}
			if len(periods) == 0 {
				continue
			}
			cand := &candidate{tag: name, unit: u.name, order: [2]int{ti, rank}, periods: periods}
			if best == nil || cand.better(best) {
				best = cand
			}
		}
	}
	if best == nil {
		return ans, nil
	}
	ans.Tag, ans.Unit = best.tag, best.unit
	ps := best.periods
	slices.SortFunc(ps, func(a, b period) int {
		if c := cmp.Compare(b.end, a.end); c != 0 {
			return c
		}
		return cmp.Compare(b.start, a.start)
	})
	for _, p := range ps[:min(years, len(ps))] {
		now, first := &f.filings[p.now.filing], &f.filings[p.first.filing]
		ans.Values = append(ans.Values, Value{
			FiscalYear:   p.fiscalYear(),
			FiscalPeriod: "FY",
			Start:        p.start,
			End:          p.end,
			Value:        p.now.val,
			Accession:    now.accn,
			Form:         now.form,
			Filed:        now.filed,

			FirstValue:     p.first.val,
			FirstAccession: first.accn,
			FirstForm:      first.form,
			FirstFiled:     first.filed,
			Restated:       !SameNumber(p.now.val, p.first.val),
		})
	}
	return ans, nil
}

// visible reports whether something filed on filed is visible on asOf: the
// point-in-time rule. A zero filed (a tag or unit without facts) never is.
func visible(filed, asOf civil.Day) bool { return filed != 0 && filed <= asOf }

// candidate is one (tag, unit) an alias could answer with.
type candidate struct {
	tag, unit string
	order     [2]int // tag's place in the list, unit's rank
	periods   []period
}

// latest returns the latest fiscal year end of c's periods.
func (c *candidate) latest() civil.Day {
	var l civil.Day
	for _, p := range c.periods {
		l = max(l, p.fyEnd)
	}
	return l
}

// better reports whether c should answer rather than d.
func (c *candidate) better(d *candidate) bool {
	if a, b := c.latest(), d.latest(); a != b {
		return a > b
	}
	if c.order[0] != d.order[0] {
		return c.order[0] < d.order[0]
	}
	if c.order[1] != d.order[1] {
		return c.order[1] < d.order[1]
	}
	return c.unit < d.unit
}

// period is one (start, end) with its facts as known and as first reported.
type period struct {
	start, end civil.Day
	now, first fact
	firstF     *filing   // the filing of first
	fyEnd      civil.Day // end of the fiscal year the period belongs to
}

// fiscalYear names the fiscal year ending at p.fyEnd.
func (p *period) fiscalYear() int {
	y, m, d := p.fyEnd.Date()
	if m == time.January && d <= 7 {
		return y - 1
	}
	return y
}

// periods groups the visible annual facts of u into periods.
func (f *Facts) periods(u *unit, c concept, asOf civil.Day) ([]period, error) {
	facts, err := f.facts(u)
	if err != nil {
		return nil, err
	}
	type key struct{ start, end civil.Day }
	ix := map[key]int{}
	var out []period
	for _, x := range facts {
		fl := &f.filings[x.filing]
		if !visible(fl.filed, asOf) {
			continue
		}
		if c.alias {
			instant := c.kind == Balance || c.kind == Shares
			if instant != (x.start == 0) {
				continue
			}
		}
		k := key{x.start, x.end}
		i, ok := ix[k]
		if !ok {
			ix[k] = len(out)
			out = append(out, period{start: x.start, end: x.end, now: x, first: x, firstF: fl})
			continue
		}
		p := &out[i]
		if f.after(x, p.now) {
			p.now = x
		}
		if f.after(p.first, x) {
			p.first, p.firstF = x, fl
		}
	}
	for i := range out {
		p := &out[i]
		p.fyEnd = p.end
		if fy := p.firstF.fyEnd; fy != 0 && p.end > fy {
			p.fyEnd = fy
		}
	}
	return out, nil
}

// after reports whether fact a sorts after b: by filing date, then
// accession number, then (for facts of one filing) value text.
func (f *Facts) after(a, b fact) bool {
	fa, fb := &f.filings[a.filing], &f.filings[b.filing]
	if fa.filed != fb.filed {
		return fa.filed > fb.filed
	}
	if fa.accn != fb.accn {
		return fa.accn > fb.accn
	}
	return a.val > b.val
}

// unitRank says whether unit u fits concept c and how it ranks in ties
// (lower first).
func unitRank(c concept, u string) (int, bool) {
	if !c.alias {
		switch u {
		case "USD":
			return 0, true
		case "USD/shares":
			return 1, true
		case "shares":
			return 2, true
		}
		return 3, true
	}
	switch c.kind {
	case Money, Balance:
		if u == "USD" {
			return 0, true
		}
		return 1, isCurrency(u)
	case PerShare:
		cur, ok := strings.CutSuffix(u, "/shares")
		if cur == "USD" {
			return 0, true
		}
		return 1, ok && isCurrency(cur)
	case Shares:
		return 0, u == "shares"
	}
	return 0, false
}

// isCurrency reports whether u looks like an ISO 4217 code.
func isCurrency(u string) bool {
	if len(u) != 3 {
		return false
	}
	for i := 0; i < 3; i++ {
		if u[i] < 'A' || u[i] > 'Z' {
			return false
		}
	}
	return true
}

// SameNumber reports whether two JSON numbers are equal in value.
func SameNumber(a, b string) bool {
	if a == b {
		return true
	}
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	return err1 == nil && err2 == nil && x == y
}
