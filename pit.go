package edgar13f

import (
	"cmp"
	"slices"
)

// This file holds the point-in-time rules as pure functions: no I/O, no
// clock, no callback. The amendment rule (decide) is given the filing list
// and the covers read so far and says which covers it needs next or what
// its answer is; holdings.go does the reading.

// reportKind is the role of a holdings report in the amendment rule.
type reportKind int

const (
	kindOriginal    reportKind = iota + 1 // 13F-HR
	kindRestatement                       // 13F-HR/A, amendmentType RESTATEMENT
	kindNewHoldings                       // 13F-HR/A, amendmentType NEW HOLDINGS
	kindUnspecified                       // 13F-HR/A whose cover has no amendment type
)

func (k reportKind) String() string {
	switch k {
	case kindOriginal:
		return "ORIGINAL"
	case kindRestatement:
		return "RESTATEMENT"
	case kindNewHoldings:
		return "NEW HOLDINGS"
	case kindUnspecified:
		return "UNSPECIFIED"
	}
	return "UNKNOWN"
}

// replacesReport reports whether a filing of kind k becomes the base: an
// original or a restatement, with an unspecified amendment counting as a
// restatement.
func (k reportKind) replacesReport() bool {
	return k == kindOriginal || k == kindRestatement || k == kindUnspecified
}

// kindOf classifies a holdings report from its form and its cover's
// amendment type. Only the form decides whether a filing is an original.
func kindOf(form Form, t AmendmentType) reportKind {
	if form == Form13FHR {
		return kindOriginal
	}
	switch t {
	case Restatement:
		return kindRestatement
	case NewHoldings:
		return kindNewHoldings
	}
	return kindUnspecified
}

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

// visibleOn reports whether a filing with filing date filed is visible on
// asOf: filed on or before asOf, by calendar date. It is the one place the
// point-in-time comparison is made.
func visibleOn(filed, asOf Date) bool { return !filed.After(asOf) }

// knownFiler reports whether any 13F of the four forms is visible on asOf.
func knownFiler(filings []listedFiling, asOf Date) bool {
	for _, f := range filings {
		if f.Form.is13F() && visibleOn(f.FilingDate, asOf) {
			return true
		}
	}
	return false
}

// compareV orders holdings reports for the amendment rule: by filing date, then
// amendment number with none first, then accession.
func compareV(a, b classified) int {
	if c := a.FilingDate.Compare(b.FilingDate); c != 0 {
		return c
	}
	if c := cmp.Compare(a.AmendmentNo, b.AmendmentNo); c != 0 {
		return c
	}
	return cmp.Compare(a.Accession, b.Accession)
}

// candidateGroups returns the visible holdings reports that may belong to
// period (the list says so, or the list does not know), grouped by filing
// date, latest date first. The amendment rule reads them group by group.
func candidateGroups(filings []listedFiling, period, asOf Date) [][]listedFiling {
	var cands []listedFiling
	for _, f := range filings {
		if f.Form.isHoldingsReport() && visibleOn(f.FilingDate, asOf) &&
			(f.Period == period || f.Period.IsZero()) {
			cands = append(cands, f)
		}
	}
	slices.SortStableFunc(cands, func(a, b listedFiling) int { return b.FilingDate.Compare(a.FilingDate) })
	var groups [][]listedFiling
	for start := 0; start < len(cands); {
		end := start
		for end < len(cands) && cands[end].FilingDate == cands[start].FilingDate {
			end++
		}
		groups = append(groups, cands[start:end])
		start = end
	}
	return groups
}

// A decision is what the amendment rule concludes from the covers it has
// been given: either it needs the covers of more holdings reports first
// (need, the uncovered filings of the next filing-date group it reaches),
// or it is final: a resolution, or a decline in err.
type decision struct {
	need []listedFiling
	res  resolution
	err  error
}

// decide applies the amendment rule for one CIK's filings, a period and
// asOf, and the declines that follow from the filing list (unknown_cik,
// notice_only, not_yet_filed). covers holds the cover facts read so far, by
// accession.
//
// The rule walks the visible holdings reports of the period from the
// latest filing date backwards, one filing-date group at a time, and stops
// at the base: it asks for the covers of a group only when it reaches that
// group, so covers of filings before the base are never needed. A filing
// whose list period is unknown is asked for to learn its period; a filing
// whose cover names another period is not part of the period. The caller
// reads the covers asked for and calls decide again; each call asks only for
// covers not yet given, so the exchange ends.
func decide(filings []listedFiling, period, asOf Date, covers map[string]coverFacts) decision {
	if !knownFiler(filings, asOf) {
		return decision{err: Decline(UnknownCIK, "no 13F filing was filed on or before %s", asOf)}
	}
	var supplements []classified // collected newest first
	for _, cands := range candidateGroups(filings, period, asOf) {
		var need []listedFiling
		for _, f := range cands {
			if _, ok := covers[f.Accession]; !ok {
				need = append(need, f)
			}
		}
		if len(need) > 0 {
			return decision{need: need}
		}
		group := make([]classified, 0, len(cands))
		for _, f := range cands {
			facts := covers[f.Accession]
			if facts.Period != period {
				continue
			}
			if facts.Kind == kindOriginal {
				facts.AmendmentNo = 0
			}
			group = append(group, classified{f, facts})
		}
		slices.SortFunc(group, compareV)
		for i := len(group) - 1; i >= 0; i-- {
			g := group[i]
			if g.Kind.replacesReport() {
				slices.Reverse(supplements)
				return decision{res: resolution{Base: g, Supplements: supplements}}
			}
			supplements = append(supplements, g)
		}
	}

	for _, f := range filings {
		if f.Form.isNotice() && visibleOn(f.FilingDate, asOf) && f.Period == period {
			return decision{err: Decline(NoticeOnly, "only a 13F notice (%s, filed %s) is on file for period %s as of %s; the holdings are reported by other managers",
				f.Accession, f.FilingDate, period, asOf)}
		}
	}
	if len(supplements) > 0 {
		return decision{err: Decline(NotYetFiled, "no original or restated 13F holdings report for period %s was filed on or before %s (only new-holdings amendments)", period, asOf)}
	}
	return decision{err: Decline(NotYetFiled, "no 13F holdings report for period %s was filed on or before %s", period, asOf)}
}
