package edgar13f

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/edgar13f/edgar13f/internal/submissions"
)

// This file answers Companies.Filings: the filing list of any form, read
// by filinglist.go under the filing list's freshness rule.

// A CompanyFiling is one submission of any form as EDGAR's filing list gives it.
type CompanyFiling struct {
	Accession       string // e.g. "0000320193-24-000123"
	Form            Form   // e.g. "10-K", "8-K", "4"
	FilingDate      Date   // EDGAR's Filing Date; it alone decides visibility
	Period          Date   // period of report; zero when the list gives none
	PrimaryDocument string // file name in the filing's folder; "" when the list gives none
	DocumentURL     string // the primary document's URL; "" without one
	IndexURL        string // the filing's EDGAR index page
}

// Citation returns the citation of f.
func (f CompanyFiling) Citation() Citation {
	return Citation{Accession: f.Accession, Form: f.Form, FilingDate: f.FilingDate, URL: f.IndexURL}
}

// A CompanyFilingList is the answer of [Companies.Filings].
type CompanyFilingList struct {
	CIK        string // without leading zeros
	EntityName string // EDGAR's current name of the filer (not as of any date)
	// FiscalYearEnd is the month and day the filer's fiscal year ends,
	// "MMDD" as EDGAR's filing list gives it ("0927" for Apple), or "" when
	// the list gives none. Like EntityName it is EDGAR's current value, not
	// as of any date: a company that changed its fiscal year shows only the
	// new one.
	FiscalYearEnd string
	AsOf          Date
	FormType      Form            // the form asked for with [FormType]; "" for every form
	Filings       []CompanyFiling // newest first: filing date, then accession, descending
}

// Filings returns the submissions of any form that cik filed on or before
// asOf, newest first (filing date, then accession number, both descending),
// at most the limit. Every page of EDGAR's filing list counts, the older
// pages too; they are read only when the newer ones do not fill the answer.
// No filing visible on asOf is an empty answer.
//
// Options: [Limit] (1 to [MaxFilings], default [DefaultFilings]) and
// [FormType]. It declines with [InvalidArgument] (malformed CIK, date, form
// or option) or [UnknownCIK] (EDGAR has no filing list for the CIK).
func (cs *Companies) Filings(ctx context.Context, cik string, asOf Date, opts ...CompanyFilingsOption) (*CompanyFilingList, error) {
	o, id, err := companyQuery(opts, CompanyFilingsOption.applyFilings, cik, asOf)
	if err != nil {
		return nil, err
	}
	limit, err := checkRange("Limit", o.limit, o.limitSet, 1, MaxFilings, DefaultFilings)
	if err != nil {
		return nil, err
	}
	form := strings.ToUpper(strings.TrimSpace(string(o.form)))
	if o.formSet && (form == "" || len(form) > 20 || strings.ContainsFunc(form, func(r rune) bool { return r < ' ' || r > '~' })) {
		return nil, Decline(InvalidArgument, "form type %q must be 1 to 20 printable ASCII characters", o.form)
	}
	picked, list, err := cs.c.companyFilings(ctx, id, asOf, Date{}, form, limit)
	if err != nil {
		return nil, err
	}
	return companyFilingList(id, asOf, form, list, picked), nil
}

// companyFilingList is the answer listing picked, filings of cik's list
// of form ("" for any).
func companyFilingList(cik string, asOf Date, form string, list *cachedList, picked []listEntry) *CompanyFilingList {
	out := &CompanyFilingList{CIK: cik, EntityName: list.Name, FiscalYearEnd: list.FiscalYearEnd, AsOf: asOf, FormType: Form(form), Filings: make([]CompanyFiling, len(picked))}
	for i, e := range picked {
		out.Filings[i] = companyFiling(cik, e)
	}
	return out
}

// companyFilings returns cik's filings of form (any form when "") filed
// from since (zero: the first) to asOf, newest first (filing date, then
// accession, both descending), at most limit, and the filing list. The
// older pages are read, newest first, only while the answer is not full,
// and only those whose range meets [since, asOf].
func (c *Client) companyFilings(ctx context.Context, id string, asOf, since Date, form string, limit int) ([]listEntry, *cachedList, error) {
	list, err := c.filingList(ctx, id, asOf)
	if err != nil {
		return nil, nil, err
	}
	want := func(e listEntry) bool {
		return visibleOn(e.FilingDate, asOf) && !e.FilingDate.Before(since) && (form == "" || strings.EqualFold(string(e.Form), form))
	}
	var picked []listEntry
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
		if from, ok := parseISODate(p.FilingFrom); ok && !visibleOn(from, asOf) {
			continue
		}
		if to, ok := parseISODate(p.FilingTo); ok && !since.IsZero() && to.Before(since) {
			continue
		}
		entries, err := c.page(ctx, p)
		if err != nil {
			return nil, nil, err
		}
		for _, e := range entries {
			if want(e) {
				picked = append(picked, e)
			}
		}
	}
	slices.SortFunc(picked, func(a, b listEntry) int {
		if c := b.FilingDate.Compare(a.FilingDate); c != 0 {
			return c
		}
		return strings.Compare(b.Accession, a.Accession)
	})
	picked = slices.CompactFunc(picked, func(a, b listEntry) bool { return a.Accession == b.Accession })
	if len(picked) > limit {
		picked = picked[:limit]
	}
	return picked, list, nil
}

// companyFiling turns a list entry of cik into a CompanyFiling.
func companyFiling(cik string, e listEntry) CompanyFiling {
	f := CompanyFiling{
		Accession:       e.Accession,
		Form:            e.Form,
		FilingDate:      e.FilingDate,
		Period:          e.Period,
		PrimaryDocument: e.PrimaryDocument,
		IndexURL:        indexURL(cik, e.Accession),
	}
	if e.PrimaryDocument != "" {
		f.DocumentURL = folderURL(cik, e.Accession) + e.PrimaryDocument
	}
	return f
}
