// Package oracle is a deliberately naive reference implementation of the
// point-in-time amendment rule (visibility, base and supplements, declines)
// for one CIK, one period and one asOf date. It reads every filing's cover
// facts up front, has no notion of lazy lookups, and is written straight
// from the rule's statement so that
// property tests can compare the real resolver against it.
//
// Dates are plain day numbers: any monotonic numbering of calendar days.
package oracle

import "sort"

// The forms in scope.
const (
	FormHR  = "13F-HR"   // FormHR is a holdings report.
	FormHRA = "13F-HR/A" // FormHRA is an amendment to a holdings report.
	FormNT  = "13F-NT"   // FormNT is a notice.
	FormNTA = "13F-NT/A" // FormNTA is an amendment to a notice.
)

// The amendment types of a cover page.
const (
	Restatement = "RESTATEMENT"  // Restatement replaces the whole report.
	NewHoldings = "NEW HOLDINGS" // NewHoldings adds rows to the report on file.
)

// The decline reasons an Answer can carry.
const (
	UnknownCIK  = "unknown_cik"   // UnknownCIK: no 13F of the four forms is visible.
	NoticeOnly  = "notice_only"   // NoticeOnly: no base, but a notice for the period is visible.
	NotYetFiled = "not_yet_filed" // NotYetFiled: no base and no notice for the period.
)

// Filing is one 13F filing with everything its filing-list entry and its
// cover page say.
type Filing struct {
	Accession string // e.g. "0000000001-25-000003"
	Form      string // FormHR, FormHRA, FormNT or FormNTA
	Filed     int    // filing date as a day number
	Period    int    // the cover's period of report as a day number
	AmendNo   int    // amendment number; 0 means none
	AmendType string // "", Restatement or NewHoldings
}

// Answer is the outcome of Resolve: either a base with its supplements, or a
// decline reason.
type Answer struct {
	Base        string   // accession of the base; "" when declined
	Supplements []string // accessions of the new-holdings supplements, in order; nil when none
	Reason      string   // "" for an answer, else UnknownCIK, NoticeOnly or NotYetFiled
}

// Resolve applies the amendment rule to filings for period as known on asOf.
func Resolve(filings []Filing, period, asOf int) Answer {
	// Visibility: a filing is visible when it was filed on or before asOf.
	var visible []Filing
	for _, f := range filings {
		if f.Filed <= asOf {
			visible = append(visible, f)
		}
	}

	// unknown_cik: no visible filing of the four forms.
	known := false
	for _, f := range visible {
		if f.Form == FormHR || f.Form == FormHRA || f.Form == FormNT || f.Form == FormNTA {
			known = true
		}
	}
	if !known {
		return Answer{Reason: UnknownCIK}
	}

	// The amendment rule: V = visible holdings reports of the period.
	var v []Filing
	for _, f := range visible {
		if (f.Form == FormHR || f.Form == FormHRA) && f.Period == period {
			if f.Form == FormHR {
				f.AmendNo = 0 // an original has no amendment number
			}
			v = append(v, f)
		}
	}
	sort.Slice(v, func(i, j int) bool {
		if v[i].Filed != v[j].Filed {
			return v[i].Filed < v[j].Filed
		}
		if v[i].AmendNo != v[j].AmendNo {
			return v[i].AmendNo < v[j].AmendNo
		}
		return v[i].Accession < v[j].Accession
	})

	// Rule 1: base = last ORIGINAL, RESTATEMENT or UNSPECIFIED.
	base := -1
	for i, f := range v {
		if kind(f) != NewHoldings {
			base = i
		}
	}
	if base < 0 {
		for _, f := range visible {
			if (f.Form == FormNT || f.Form == FormNTA) && f.Period == period {
				return Answer{Reason: NoticeOnly}
			}
		}
		return Answer{Reason: NotYetFiled}
	}

	// Rule 2: supplements = NEW HOLDINGS after base, in order.
	a := Answer{Base: v[base].Accession}
	for _, f := range v[base+1:] {
		if kind(f) == NewHoldings {
			a.Supplements = append(a.Supplements, f.Accession)
		}
	}
	return a
}

// kind returns "ORIGINAL", Restatement, NewHoldings or "UNSPECIFIED" for a
// holdings report. The form alone makes an original; an amendment whose
// type is neither Restatement nor NewHoldings is unspecified.
func kind(f Filing) string {
	switch {
	case f.Form == FormHR:
		return "ORIGINAL"
	case f.AmendType == Restatement:
		return Restatement
	case f.AmendType == NewHoldings:
		return NewHoldings
	}
	return "UNSPECIFIED"
}
