package companies

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/access"
	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/companyfacts"
	"github.com/edgar13f/edgar13f/internal/edgarid"
	"github.com/edgar13f/edgar13f/internal/freshness"
)

// This file answers Companies.Facts from EDGAR's XBRL company facts,
// decoded and queried by internal/companyfacts.

// A Facts is the answer of [Companies.Facts]: the annual values of
// one concept as they could have been known on AsOf.
type Facts struct {
	CIK        string // without leading zeros
	EntityName string // EDGAR's current name of the company (not as of any date)
	Concept    string // the concept asked for: an alias (synonyms resolved) or "taxonomy:Name"
	Tag        string // "taxonomy:Name" the values come from; "" when no value is visible
	Unit       string // e.g. "USD", "USD/shares", "shares", "EUR"; "" when no value is visible
	AsOf       edgar13f.Date
	Values     []FactValue // newest period first; empty when no annual value is visible on AsOf
}

// A FactValue is the value of one fiscal period: as known on asOf (the
// latest filing on or before asOf that reported it) and as first reported.
type FactValue struct {
	FiscalYear   int           // the company's own fiscal year label (Apple's year ended 2024-09-28 is 2024)
	FiscalPeriod string        // "FY"
	PeriodStart  edgar13f.Date // zero for an instant (a balance-sheet amount or share count)
	PeriodEnd    edgar13f.Date

	Value  string            // the number as filed, e.g. "394328000000" or "6.11"
	Filing edgar13f.Citation // the filing Value comes from

	FirstReportedValue string            // the value first reported for the period
	FirstReported      edgar13f.Citation // the filing that first reported it
	Restated           bool              // Value differs from FirstReportedValue
}

// Facts returns the newest annual values of concept for cik as they could
// have been known on asOf.
//
// concept is an alias, any case: revenue (synonym sales), cost_of_revenue,
// gross_profit, rd_expense, operating_income, net_income, eps_basic,
// eps_diluted (synonym eps), cash, total_assets, total_liabilities,
// stockholders_equity (synonym equity), long_term_debt, operating_cash_flow,
// capex, shares_outstanding; or an XBRL tag "taxonomy:Name" (us-gaap,
// ifrs-full, dei) or a bare "Name" (looked up in that order). An alias stands
// for an ordered list of tags, since filers changed tags over the years
// (revenue: SalesRevenueNet, then
// RevenueFromContractWithCustomerExcludingAssessedTax, among others); the
// tag whose latest visible annual period is latest is used (ties: the
// list's order) and the answer names it and its unit. Values of different
// tags are never mixed.
//
// Only facts of the 10-K family (10-K, 10-KT, 20-F, 40-F and their
// amendments) filed on or before asOf count: durations of 330 to 400 days,
// or instants for balance-sheet concepts and share counts. For each fiscal
// period, the value as known on asOf is the one of the latest visible
// filing (filing date, then accession), the first reported value the one
// of the earliest; Restated says they differ. Fiscal years are labelled by
// the company's own fiscal year, derived from the filings' periods rather
// than from the fy and fp fields (which are unreliable), and the frame
// field and the frames API are not used (they are not point in time).
//
// It reads https://data.sec.gov/api/xbrl/companyfacts/CIK##########.json
// and caches it in a compact form; the cached copy answers for asOf only if
// it was fetched at least two days after asOf, as for filing lists.
//
// Options: [Years] (1 to [MaxFactYears], default [DefaultFactYears]). It
// declines with [edgar13f.InvalidArgument] (malformed CIK, date, concept or option),
// [edgar13f.UnknownCIK] (EDGAR has no company facts for the CIK) or [edgar13f.UnknownConcept]
// (no such alias, or a tag no filing of the CIK on or before asOf used).
// No annual value visible on asOf is an answer with no values.
func (cs *Companies) Facts(ctx context.Context, cik, concept string, asOf edgar13f.Date, opts ...FactsOption) (*Facts, error) {
	o, id, err := companyQuery(opts, FactsOption.applyFacts, cik, asOf)
	if err != nil {
		return nil, err
	}
	years, err := checkRange("Years", o.years, o.yearsSet, 1, MaxFactYears, DefaultFactYears)
	if err != nil {
		return nil, err
	}
	concept = strings.TrimSpace(concept)
	if n := utf8.RuneCountInString(concept); n == 0 || n > 200 || !utf8.ValidString(concept) {
		return nil, edgar13f.Decline(edgar13f.InvalidArgument, "concept must be an alias or an XBRL tag of 1 to 200 characters")
	}
	facts, err := cs.companyFacts(ctx, id, asOf)
	if err != nil {
		return nil, err
	}
	ans, err := facts.Annual(concept, dayOf(asOf), years)
	if errors.Is(err, companyfacts.ErrUnknownConcept) {
		return nil, edgar13f.Decline(edgar13f.UnknownConcept, "%q is no alias and no tag that CIK %s used in a filing on or before %s", concept, id, asOf)
	}
	if err != nil {
		return nil, edgar13f.Decline(edgar13f.InvalidArgument, "%v", err)
	}
	out := &Facts{
		CIK: id, EntityName: facts.EntityName, Concept: ans.Concept, Tag: ans.Tag, Unit: ans.Unit,
		AsOf: asOf, Values: make([]FactValue, len(ans.Values)),
	}
	for i, v := range ans.Values {
		out.Values[i] = FactValue{
			FiscalYear:         v.FiscalYear,
			FiscalPeriod:       v.FiscalPeriod,
			PeriodStart:        periodStart(v.Start),
			PeriodEnd:          dateOf(v.End),
			Value:              v.Value,
			Filing:             factCitation(id, v.Accession, v.Form, v.Filed),
			FirstReportedValue: v.FirstValue,
			FirstReported:      factCitation(id, v.FirstAccession, v.FirstForm, v.FirstFiled),
			Restated:           v.Restated,
		}
	}
	return out, nil
}

func factCitation(cik, accession, form string, filed civil.Day) edgar13f.Citation {
	return edgar13f.Citation{Accession: accession, Form: edgar13f.Form(form), FilingDate: dateOf(filed), URL: edgarid.IndexURL(cik, accession)}
}

// periodStart is the start of a fact's period: the zero Date for an
// instant, whose start companyfacts leaves zero.
func periodStart(d civil.Day) edgar13f.Date {
	if d == 0 {
		return edgar13f.Date{}
	}
	return dateOf(d)
}

// factsCopy is a decoded companyfacts document and when it was fetched.
type factsCopy struct {
	fetched time.Time
	facts   *companyfacts.Facts
}

// companyFacts returns cik's company facts as a copy fetched at least two
// days after asOf: from memory, the cache, or EDGAR.
func (cs *Companies) companyFacts(ctx context.Context, cik string, asOf edgar13f.Date) (*companyfacts.Facts, error) {
	c10, _ := edgarid.CIK10(cik)
	key := keyFacts + c10
	st := cs
	st.mu.Lock()
	m := st.facts[key]
	st.mu.Unlock()
	if m != nil && freshness.ListAnswers(m.fetched, dayOf(asOf)) {
		return m.facts, nil
	}
	remember := func(fc *factsCopy) {
		st.mu.Lock()
		defer st.mu.Unlock()
		if st.facts == nil {
			st.facts = map[string]*factsCopy{}
		}
		if _, ok := st.facts[key]; !ok && len(st.facts) >= maxFactsInMemory {
			for k := range st.facts { // drop any one: a miss costs a cache read
				delete(st.facts, k)
				break
			}
		}
		st.facts[key] = fc
	}
	cached := func() (*factsCopy, bool) {
		b, ok := cs.p.Access.Cached(ctx, key)
		if !ok {
			return nil, false
		}
		fetched, enc, ok := access.Unstamp(b)
		if !ok || !freshness.ListAnswers(fetched, dayOf(asOf)) {
			return nil, false
		}
		f, err := companyfacts.Load(enc)
		if err != nil {
			return nil, false
		}
		return &factsCopy{fetched: fetched, facts: f}, true
	}
	if fc, ok := cached(); ok {
		remember(fc)
		return fc.facts, nil
	}
	v, err := cs.p.Access.Shared(ctx, key, func() (any, error) {
		if fc, ok := cached(); ok {
			return fc, nil
		}
		url := companyFactsURL + "CIK" + c10 + ".json"
		body, err := cs.p.Access.Fetch(ctx, url)
		if access.IsNotFound(err) {
			return nil, edgar13f.Decline(edgar13f.UnknownCIK, "EDGAR has no XBRL company facts for CIK %s", cik)
		}
		if err != nil {
			return nil, err
		}
		f, err := companyfacts.Decode(body)
		if err != nil {
			return nil, &edgar13f.ParseError{Document: url, Err: err}
		}
		now := cs.p.Now()
		cs.p.Access.Keep(ctx, key, access.Stamp(now, f.Bytes()))
		return &factsCopy{fetched: now, facts: f}, nil
	})
	if err != nil {
		return nil, err
	}
	fc := v.(*factsCopy)
	remember(fc)
	return fc.facts, nil
}
