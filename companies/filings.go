package companies

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/edgarid"
	"github.com/edgar13f/edgar13f/internal/filinglist"
	"github.com/edgar13f/edgar13f/internal/submissions"
)

// This file answers Companies.Filings: the filing list of any form, read
// by internal/filinglist under the filing list's freshness rule (the cache
// entries package edgar13f's 13F questions read too).

// entry is one filing of a filing list, of any form, its dates read.
type entry struct {
	Accession       string
	Form            edgar13f.Form
	FilingDate      edgar13f.Date
	Period          edgar13f.Date // zero when the list has no reportDate
	PrimaryDocument string
}

// list is a filing list: the entity's current name and fiscal year end,
// the filings of the recent block (every form) and the older pages.
type list struct {
	Name          string
	FiscalYearEnd string
	Entries       []entry
	Pages         []submissions.Page
}

// filingList returns cik's filing list as of asOf.
func (cs *Companies) filingList(ctx context.Context, cik string, asOf edgar13f.Date) (*list, error) {
	l, err := filinglist.Read(ctx, cs.p.Access, cs.p.Now, cik, dayOf(asOf))
	if err != nil {
		return nil, listError(err)
	}
	return &list{Name: l.Name, FiscalYearEnd: l.FiscalYearEnd, Entries: entries(l.Entries), Pages: l.Pages}, nil
}

// page returns the entries of an older filing-list page.
func (cs *Companies) page(ctx context.Context, p submissions.Page) ([]entry, error) {
	es, err := filinglist.ReadPage(ctx, cs.p.Access, p)
	if err != nil {
		return nil, listError(err)
	}
	return entries(es), nil
}

// entries reads the dates of a filing list's entries.
func entries(es []filinglist.Entry) []entry {
	out := make([]entry, len(es))
	for i, e := range es {
		filed, _ := parseDay(e.FilingDate)
		period, _ := parseDay(e.Period)
		out[i] = entry{Accession: e.Accession, Form: edgar13f.Form(e.Form), FilingDate: filed, Period: period, PrimaryDocument: e.PrimaryDocument}
	}
	return out
}

// listError wraps the errors of internal/filinglist in package edgar13f's,
// as that package does.
func listError(err error) error {
	var nf *filinglist.NoFilerError
	var de *filinglist.DocumentError
	switch {
	case errors.As(err, &nf):
		return edgar13f.Decline(edgar13f.UnknownCIK, "%v", nf)
	case errors.As(err, &de):
		return &edgar13f.ParseError{Document: de.Document, Err: de.Err}
	}
	return err
}

// A Filing is one submission of any form as EDGAR's filing list gives it.
type Filing struct {
	Accession       string        // e.g. "0000320193-24-000123"
	Form            edgar13f.Form // e.g. "10-K", "8-K", "4"
	FilingDate      edgar13f.Date // EDGAR's Filing Date; it alone decides visibility
	Period          edgar13f.Date // period of report; zero when the list gives none
	PrimaryDocument string        // file name in the filing's folder; "" when the list gives none
	DocumentURL     string        // the primary document's URL; "" without one
	IndexURL        string        // the filing's EDGAR index page
}

// Citation returns the citation of f.
func (f Filing) Citation() edgar13f.Citation {
	return edgar13f.Citation{Accession: f.Accession, Form: f.Form, FilingDate: f.FilingDate, URL: f.IndexURL}
}

// A FilingList is the answer of [Companies.Filings].
type FilingList struct {
	CIK        string // without leading zeros
	EntityName string // EDGAR's current name of the filer (not as of any date)
	// FiscalYearEnd is the month and day the filer's fiscal year ends,
	// "MMDD" as EDGAR's filing list gives it ("0927" for Apple), or "" when
	// the list gives none. Like EntityName it is EDGAR's current value, not
	// as of any date: a company that changed its fiscal year shows only the
	// new one.
	FiscalYearEnd string
	AsOf          edgar13f.Date
	FormType      edgar13f.Form // the form asked for with [FormType]; "" for every form
	Filings       []Filing      // newest first: filing date, then accession, descending
}

// Filings returns the submissions of any form that cik filed on or before
// asOf, newest first (filing date, then accession number, both descending),
// at most the limit. Every page of EDGAR's filing list counts, the older
// pages too; they are read only when the newer ones do not fill the answer.
// No filing visible on asOf is an empty answer.
//
// Options: [Limit] (1 to [MaxFilings], default [DefaultFilings]),
// [FormType] and [Since]. It declines with [edgar13f.InvalidArgument]
// (malformed CIK, date, form or option) or [edgar13f.UnknownCIK] (EDGAR has
// no filing list for the CIK).
func (cs *Companies) Filings(ctx context.Context, cik string, asOf edgar13f.Date, opts ...FilingsOption) (*FilingList, error) {
	o, id, err := companyQuery(opts, FilingsOption.applyFilings, cik, asOf)
	if err != nil {
		return nil, err
	}
	limit, err := checkRange("Limit", o.limit, o.limitSet, 1, MaxFilings, DefaultFilings)
	if err != nil {
		return nil, err
	}
	form := strings.ToUpper(strings.TrimSpace(string(o.form)))
	if o.formSet && (form == "" || len(form) > 20 || strings.ContainsFunc(form, func(r rune) bool { return r < ' ' || r > '~' })) {
		return nil, edgar13f.Decline(edgar13f.InvalidArgument, "form type %q must be 1 to 20 printable ASCII characters", o.form)
	}
	if o.sinceSet {
		if err := checkDate("Since", o.since); err != nil {
			return nil, err
		}
	}
	picked, list, err := cs.companyFilings(ctx, id, asOf, o.since, form, limit)
	if err != nil {
		return nil, err
	}
	return companyFilingList(id, asOf, form, list, picked), nil
}

// companyFilingList is the answer listing picked, filings of cik's list
// of form ("" for any).
func companyFilingList(cik string, asOf edgar13f.Date, form string, list *list, picked []entry) *FilingList {
	out := &FilingList{CIK: cik, EntityName: list.Name, FiscalYearEnd: list.FiscalYearEnd, AsOf: asOf, FormType: edgar13f.Form(form), Filings: make([]Filing, len(picked))}
	for i, e := range picked {
		out.Filings[i] = filingOf(cik, e)
	}
	return out
}

// companyFilings returns cik's filings of form (any form when "") filed
// from since (zero: the first) to asOf, newest first (filing date, then
// accession, both descending), at most limit, and the filing list. The
// older pages are read, newest first, only while the answer is not full,
// and only those whose range meets [since, asOf].
func (cs *Companies) companyFilings(ctx context.Context, id string, asOf, since edgar13f.Date, form string, limit int) ([]entry, *list, error) {
	list, err := cs.filingList(ctx, id, asOf)
	if err != nil {
		return nil, nil, err
	}
	want := func(e entry) bool {
		return visibleOn(e.FilingDate, asOf) && !e.FilingDate.Before(since) && (form == "" || strings.EqualFold(string(e.Form), form))
	}
	var picked []entry
	for _, e := range list.Entries {
		if want(e) {
			picked = append(picked, e)
		}
	}
	// Older pages hold older filings: read them, newest first, while the
	// answer is not full. Pages starting after asOf or ending before since
	// cannot add anything.
	pages := slices.Clone(list.Pages)
	slices.SortFunc(pages, func(a, b submissions.Page) int { return -cmp.Compare(a.FilingTo, b.FilingTo) })
	for _, p := range pages {
		if len(picked) >= limit {
			break
		}
		if from, ok := parseDay(p.FilingFrom); ok && !visibleOn(from, asOf) {
			continue
		}
		if to, ok := parseDay(p.FilingTo); ok && !since.IsZero() && to.Before(since) {
			continue
		}
		entries, err := cs.page(ctx, p)
		if err != nil {
			return nil, nil, err
		}
		for _, e := range entries {
			if want(e) {
				picked = append(picked, e)
			}
		}
	}
	slices.SortFunc(picked, func(a, b entry) int {
		if c := b.FilingDate.Compare(a.FilingDate); c != 0 {
			return c
		}
		return strings.Compare(b.Accession, a.Accession)
	})
	picked = slices.CompactFunc(picked, func(a, b entry) bool { return a.Accession == b.Accession })
	if len(picked) > limit {
		picked = picked[:limit]
	}
	return picked, list, nil
}

// companyFiling turns a list entry of cik into a Filing.
func filingOf(cik string, e entry) Filing {
	f := Filing{
		Accession:       e.Accession,
		Form:            e.Form,
		FilingDate:      e.FilingDate,
		Period:          e.Period,
		PrimaryDocument: e.PrimaryDocument,
		IndexURL:        edgarid.IndexURL(cik, e.Accession),
	}
	if e.PrimaryDocument != "" {
		f.DocumentURL = edgarid.FolderURL(cik, e.Accession) + e.PrimaryDocument
	}
	return f
}
