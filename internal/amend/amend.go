// Package amend holds the amendment rule of Form 13F, the point-in-time
// rule that says which holdings reports answer for a CIK, a period and a
// date (asOf), and the declines that follow from a filing list. It is a
// pure function over plain types (forms as strings, days as civil.Day): no
// I/O, no clock, no callback. Its caller reads what the rule asks for (the
// covers of holdings reports) and asks again; package edgar13f and package
// datasets both apply this one rule, each wrapping a decline in its own
// error.
package amend

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/edgarid"
)

// NoDay stands for a day nobody states: a filing list entry without a
// report date, a cover without a period, a page without a date range. It
// equals no real day.
const NoDay = civil.MinDay - 1

// A Kind is the role of a holdings report in the amendment rule.
type Kind int

// The kinds of holdings report.
const (
	Original    Kind = iota + 1 // 13F-HR
	Restatement                 // 13F-HR/A, amendmentType RESTATEMENT
	NewHoldings                 // 13F-HR/A, amendmentType NEW HOLDINGS
	Unspecified                 // 13F-HR/A whose cover has no amendment type
)

// String names k as the cover does, ORIGINAL and UNSPECIFIED for the kinds
// a cover does not name.
func (k Kind) String() string {
	switch k {
	case Original:
		return "ORIGINAL"
	case Restatement:
		return "RESTATEMENT"
	case NewHoldings:
		return "NEW HOLDINGS"
	case Unspecified:
		return "UNSPECIFIED"
	}
	return "UNKNOWN"
}

// ReplacesReport reports whether a filing of kind k becomes the base: an
// original or a restatement, with an unspecified amendment counting as a
// restatement.
func (k Kind) ReplacesReport() bool {
	return k == Original || k == Restatement || k == Unspecified
}

// KindOf classifies a holdings report from its form and its cover's
// amendment type ("RESTATEMENT", "NEW HOLDINGS" or anything else). Only the
// form decides whether a filing is an original.
func KindOf(form, amendmentType string) Kind {
	if form == edgarid.Form13FHR {
		return Original
	}
	switch amendmentType {
	case "RESTATEMENT":
		return Restatement
	case "NEW HOLDINGS":
		return NewHoldings
	}
	return Unspecified
}

func isHoldingsReport(form string) bool {
	return form == edgarid.Form13FHR || form == edgarid.Form13FHRA
}

func isNotice(form string) bool { return form == edgarid.Form13FNT || form == edgarid.Form13FNTA }

// Listed is a filing as EDGAR's filing list shows it: no cover facts.
type Listed struct {
	Accession  string
	Form       string // any form; the rule reads the four 13F forms
	FilingDate civil.Day
	Period     civil.Day // the list's report date; NoDay when the list has none
}

// Cover is what the amendment rule needs from a holdings report's cover.
type Cover struct {
	Period      civil.Day // the cover's period of report; NoDay when none
	AmendmentNo int       // 0 when none; taken as 0 for an original
	Kind        Kind
}

// Classified is a holdings report with its cover facts.
type Classified struct {
	Listed
	Cover
}

// Resolution is the outcome of the amendment rule for one CIK, period and
// asOf: the base and the new-holdings amendments after it, in order.
type Resolution struct {
	Base        Classified
	Supplements []Classified
}

// The reasons of the declines the rule gives, as package edgar13f spells
// them.
const (
	UnknownCIK  = "unknown_cik"
	NoticeOnly  = "notice_only"
	NotYetFiled = "not_yet_filed"
)

// A Decline is the rule's refusal to answer: one of the reasons above and
// the message to give with it.
type Decline struct {
	Reason  string
	Message string
}

// A Page is an older page of a filing list, as the list's index of pages
// describes it: the range of filing dates it holds, and whether its
// filings are among those given to the rule.
type Page struct {
	From, To civil.Day // NoDay when the index does not say
	Read     bool
}

// A Decision is what the amendment rule concludes from the filings and
// covers it has been given: either it needs older pages of the filing
// list first (NeedPages, indexes of pages), or the covers of more holdings
// reports (Need, the uncovered filings of the next filing-date group it
// reaches), or it is final: a Resolution, or a Decline.
type Decision struct {
	NeedPages  []int
	Need       []Listed
	Resolution Resolution
	Decline    *Decline
}

// Visible reports whether a filing with filing date filed is visible on
// asOf: filed on or before asOf, by calendar date. It is the one place the
// point-in-time comparison is made.
func Visible(filed, asOf civil.Day) bool { return filed <= asOf }

// KnownFiler reports whether any 13F of the four forms is visible on asOf.
func KnownFiler(filings []Listed, asOf civil.Day) bool {
	for _, f := range filings {
		if edgarid.Is13F(f.Form) && Visible(f.FilingDate, asOf) {
			return true
		}
	}
	return false
}

// PagesNeeded returns the indexes, in order, of the unread pages of a
// filing list that a question about the filings dated from..asOf needs
// next, given the filings read so far: first the pages whose range meets
// [from, asOf] (from NoDay: every page up to asOf); then, when none of the
// filings read shows a 13F filed by asOf, every page up to asOf, to tell
// unknown_cik from not_yet_filed. It returns none when the filings read
// suffice. A page whose range is not known is read.
func PagesNeeded(filings []Listed, pages []Page, from, asOf civil.Day) []int {
	startsBy := func(p Page) bool { return p.From == NoDay || Visible(p.From, asOf) }
	var need []int
	for i, p := range pages {
		if !p.Read && startsBy(p) && (p.To == NoDay || from == NoDay || p.To >= from) {
			need = append(need, i)
		}
	}
	if len(need) > 0 || KnownFiler(filings, asOf) {
		return need
	}
	for i, p := range pages {
		if !p.Read && startsBy(p) {
			need = append(need, i)
		}
	}
	return need
}

// compareV orders holdings reports for the amendment rule: by filing date, then
// amendment number with none first, then accession.
func compareV(a, b Classified) int {
	if c := cmp.Compare(a.FilingDate, b.FilingDate); c != 0 {
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
func candidateGroups(filings []Listed, period, asOf civil.Day) [][]Listed {
	var cands []Listed
	for _, f := range filings {
		if isHoldingsReport(f.Form) && Visible(f.FilingDate, asOf) &&
			(f.Period == period || f.Period == NoDay) {
			cands = append(cands, f)
		}
	}
	slices.SortStableFunc(cands, func(a, b Listed) int { return cmp.Compare(b.FilingDate, a.FilingDate) })
	var groups [][]Listed
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

func decline(reason, format string, args ...any) Decision {
	return Decision{Decline: &Decline{Reason: reason, Message: fmt.Sprintf(format, args...)}}
}

// Decide applies the amendment rule for one CIK's filings, a period and
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
// reads the covers asked for and calls Decide again; each call asks only for
// covers not yet given, so the exchange ends.
//
// Before any cover, the rule asks for the older pages of the filing list
// that the period needs (PagesNeeded from period to asOf): filings holds
// the entries of the pages read, pages says which are. A caller that has
// read every page it wants passes no pages.
func Decide(filings []Listed, pages []Page, period, asOf civil.Day, covers map[string]Cover) Decision {
	if need := PagesNeeded(filings, pages, period, asOf); len(need) > 0 {
		return Decision{NeedPages: need}
	}
	if !KnownFiler(filings, asOf) {
		return decline(UnknownCIK, "no 13F filing was filed on or before %s", asOf)
	}
	var supplements []Classified // collected newest first
	for _, cands := range candidateGroups(filings, period, asOf) {
		var need []Listed
		for _, f := range cands {
			if _, ok := covers[f.Accession]; !ok {
				need = append(need, f)
			}
		}
		if len(need) > 0 {
			return Decision{Need: need}
		}
		group := make([]Classified, 0, len(cands))
		for _, f := range cands {
			facts := covers[f.Accession]
			if facts.Period != period {
				continue
			}
			if facts.Kind == Original {
				facts.AmendmentNo = 0
			}
			group = append(group, Classified{f, facts})
		}
		slices.SortFunc(group, compareV)
		for i := len(group) - 1; i >= 0; i-- {
			g := group[i]
			if g.Kind.ReplacesReport() {
				slices.Reverse(supplements)
				return Decision{Resolution: Resolution{Base: g, Supplements: supplements}}
			}
			supplements = append(supplements, g)
		}
	}

	for _, f := range filings {
		if isNotice(f.Form) && Visible(f.FilingDate, asOf) && f.Period == period {
			return decline(NoticeOnly, "only a 13F notice (%s, filed %s) is on file for period %s as of %s; the holdings are reported by other managers",
				f.Accession, f.FilingDate, period, asOf)
		}
	}
	if len(supplements) > 0 {
		return decline(NotYetFiled, "no original or restated 13F holdings report for period %s was filed on or before %s (only new-holdings amendments)", period, asOf)
	}
	return decline(NotYetFiled, "no 13F holdings report for period %s was filed on or before %s", period, asOf)
}

// A Filing is one 13F filing with its cover facts, as the Data Sets know
// it: the list's period is the cover's.
type Filing struct {
	Accession     string
	Form          string // 13F-HR, 13F-HR/A, 13F-NT or 13F-NT/A
	FilingDate    civil.Day
	Period        civil.Day // the cover's period of report
	AmendmentNo   int       // as on the cover; 0 when none
	AmendmentType string    // as on the cover: "RESTATEMENT", "NEW HOLDINGS" or ""
}

// ResolveCovered runs the amendment rule on one CIK's filings whose cover
// facts are all known: it never needs to read a cover. It returns the index
// in fs of the base and of each supplement in order, or the decline.
func ResolveCovered(fs []Filing, period, asOf civil.Day) (base int, supplements []int, d *Decline, err error) {
	listed := make([]Listed, len(fs))
	covers := make(map[string]Cover, len(fs))
	index := make(map[string]int, len(fs))
	for i, f := range fs {
		listed[i] = Listed{Accession: f.Accession, Form: f.Form, FilingDate: f.FilingDate, Period: f.Period}
		if _, dup := index[f.Accession]; !dup {
			index[f.Accession] = i
		}
		if isHoldingsReport(f.Form) {
			covers[f.Accession] = Cover{Period: f.Period, AmendmentNo: f.AmendmentNo, Kind: KindOf(f.Form, f.AmendmentType)}
		}
	}
	dec := Decide(listed, nil, period, asOf, covers)
	switch {
	case len(dec.Need) > 0 || len(dec.NeedPages) > 0: // cannot happen: every cover is given, no page
		return -1, nil, nil, errors.New("edgar13f: the amendment rule asked for a cover the Data Sets hold")
	case dec.Decline != nil:
		return -1, nil, dec.Decline, nil
	}
	supplements = make([]int, len(dec.Resolution.Supplements))
	for i, s := range dec.Resolution.Supplements {
		supplements[i] = index[s.Accession]
	}
	return index[dec.Resolution.Base.Accession], supplements, nil, nil
}
