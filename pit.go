package edgar13f

import (
	"github.com/edgar13f/edgar13f/internal/amend"
	"github.com/edgar13f/edgar13f/internal/civil"
)

// This file gives the amendment rule (internal/amend, a pure function: no
// I/O, no clock, no callback) this package's types. The rule is given the
// filing list and the covers read so far and says which covers it needs
// next or what its answer is; holdings.go does the reading.

// reportKind is the role of a holdings report in the amendment rule.
type reportKind = amend.Kind

const (
	kindOriginal    = amend.Original    // 13F-HR
	kindRestatement = amend.Restatement // 13F-HR/A, amendmentType RESTATEMENT
	kindNewHoldings = amend.NewHoldings // 13F-HR/A, amendmentType NEW HOLDINGS
	kindUnspecified = amend.Unspecified // 13F-HR/A whose cover has no amendment type
)

// kindOf classifies a holdings report from its form and its cover's
// amendment type. Only the form decides whether a filing is an original.
func kindOf(form Form, t AmendmentType) reportKind { return amend.KindOf(string(form), string(t)) }

// listedFiling is a filing as EDGAR's filing list shows it: no cover facts.
type listedFiling struct {
	Accession  string
	Form       Form
	FilingDate Date
	Period     Date // the list's reportDate; zero when the list has none
}

// coverFacts are what the amendment rule needs from a holdings report's cover.
type coverFacts struct {
	Period      Date // the cover's period of report
	AmendmentNo int  // 0 when none; always 0 for an original
	Kind        reportKind
}

// classified is a holdings report with its cover facts.
type classified struct {
	listedFiling
	coverFacts
}

// resolution is the outcome of the amendment rule for one CIK, period and asOf.
type resolution struct {
	Base        classified
	Supplements []classified // new-holdings amendments after Base, in order
}

// ruleDay is a Date as the rule reads it: the zero Date (no period
// stated) is amend.NoDay.
func ruleDay(d Date) civil.Day {
	if d.IsZero() {
		return amend.NoDay
	}
	return d.day()
}

func ruleDate(d civil.Day) Date {
	if d == amend.NoDay {
		return Date{}
	}
	return dateOfDay(d)
}

func ruleListed(fs []listedFiling) []amend.Listed {
	out := make([]amend.Listed, len(fs))
	for i, f := range fs {
		out[i] = amend.Listed{Accession: f.Accession, Form: string(f.Form), FilingDate: f.FilingDate.day(), Period: ruleDay(f.Period)}
	}
	return out
}

func listedOfRule(f amend.Listed) listedFiling {
	return listedFiling{Accession: f.Accession, Form: Form(f.Form), FilingDate: dateOfDay(f.FilingDate), Period: ruleDate(f.Period)}
}

func classifiedOfRule(c amend.Classified) classified {
	return classified{listedOfRule(c.Listed), coverFacts{Period: ruleDate(c.Cover.Period), AmendmentNo: c.AmendmentNo, Kind: c.Kind}}
}

// visibleOn reports whether a filing with filing date filed is visible on
// asOf: filed on or before asOf, by calendar date (amend.Visible).
func visibleOn(filed, asOf Date) bool { return amend.Visible(filed.day(), asOf.day()) }

// knownFiler reports whether any 13F of the four forms is visible on asOf.
func knownFiler(filings []listedFiling, asOf Date) bool {
	return amend.KnownFiler(ruleListed(filings), asOf.day())
}

// A decision is what the amendment rule concludes from the filings and
// covers it has been given: either it needs older pages of the filing
// list first (needPages, indexes of pages), or the covers of more holdings
// reports (need, the uncovered filings of the next filing-date group it
// reaches), or it is final: a resolution, or a decline in err.
type decision struct {
	needPages []int
	need      []listedFiling
	res       resolution
	err       error
}

// declineOfRule is the rule's decline as this package's error.
func declineOfRule(d *amend.Decline) *DeclineError {
	return Decline(Reason(d.Reason), "%s", d.Message)
}

// decide applies the amendment rule (amend.Decide) for one CIK's filings,
// a period and asOf, and the declines that follow from the filing list
// (unknown_cik, notice_only, not_yet_filed). pages are the older pages of
// the filing list, of which filings holds those read (nil: none, all
// filings are given): the rule asks for the pages the period needs before
// any cover. covers holds the cover facts read so far, by accession.
func decide(filings []listedFiling, pages []amend.Page, period, asOf Date, covers map[string]coverFacts) decision {
	rc := make(map[string]amend.Cover, len(covers))
	for acc, c := range covers {
		rc[acc] = amend.Cover{Period: ruleDay(c.Period), AmendmentNo: c.AmendmentNo, Kind: c.Kind}
	}
	d := amend.Decide(ruleListed(filings), pages, period.day(), asOf.day(), rc)
	switch {
	case len(d.NeedPages) > 0:
		return decision{needPages: d.NeedPages}
	case len(d.Need) > 0:
		need := make([]listedFiling, len(d.Need))
		for i, f := range d.Need {
			need[i] = listedOfRule(f)
		}
		return decision{need: need}
	case d.Decline != nil:
		return decision{err: declineOfRule(d.Decline)}
	}
	res := resolution{Base: classifiedOfRule(d.Resolution.Base)}
	for _, s := range d.Resolution.Supplements {
		res.Supplements = append(res.Supplements, classifiedOfRule(s))
	}
	return decision{res: res}
}
