package edgar13f

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/edgar13f/edgar13f/internal/amend"
	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/filinglist"
	"github.com/edgar13f/edgar13f/internal/submissions"
)

// This file reads EDGAR's filing lists (data.sec.gov/submissions) through
// internal/filinglist (the cache entries and freshness rule package
// companies reads too) and keeps the 13F entries a question needs.

// listEntry is one filing of a filing list, of any form.
type listEntry struct {
	Accession       string
	Form            Form
	FilingDate      Date
	Period          Date // zero when the list has no reportDate
	PrimaryDocument string
	Size            int64 // EDGAR's size of the filing, a hint for reading it
}

func (e listEntry) listed() listedFiling {
	return listedFiling{Accession: e.Accession, Form: e.Form, FilingDate: e.FilingDate, Period: e.Period}
}

// cachedList is a filing list as this package reads it: the entity's
// name, the filings of the recent block (every form) and the older pages.
type cachedList struct {
	Name          string
	FiscalYearEnd string // "MMDD", current
	Entries       []listEntry
	Pages         []submissions.Page
}

// filingIndex holds the 13F entries of one CIK that a 13F query needs:
// those of the recent block and of the older pages read so far, sorted by
// filing date and accession, without duplicates.
type filingIndex struct {
	entries []listEntry
	sizes   map[string]int64   // EDGAR's size of each entry's filing, by accession
	pages   []submissions.Page // the list's older pages
	read    []bool             // which of pages are read
	// shared says that goroutines read the index together (the two
	// periods of a Diff): it holds every page they need, and no page may
	// be read into it (readPages fails instead of racing).
	shared bool
}

func (x *filingIndex) listed() []listedFiling {
	out := make([]listedFiling, len(x.entries))
	for i, e := range x.entries {
		out[i] = e.listed()
	}
	return out
}

// rulePages returns the older pages as the amendment rule reads them.
func (x *filingIndex) rulePages() []amend.Page {
	day := func(s string) civil.Day {
		if d, ok := civil.ParseISO(s); ok {
			return d
		}
		return amend.NoDay
	}
	out := make([]amend.Page, len(x.pages))
	for i, p := range x.pages {
		out[i] = amend.Page{From: day(p.FilingFrom), To: day(p.FilingTo), Read: x.read[i]}
	}
	return out
}

// index returns the 13F entries of cik's filing list as of asOf: the
// recent block, no older page read yet.
func (c *Client) index(ctx context.Context, cik string, asOf Date) (*filingIndex, error) {
	list, err := c.filingList(ctx, cik, asOf)
	if err != nil {
		return nil, err
	}
	x := &filingIndex{entries: only13F(list.Entries), pages: list.Pages, read: make([]bool, len(list.Pages))}
	x.sort()
	return x, nil
}

// readPages reads the older pages at idx, in order, and adds their 13F
// entries. It fails, reading nothing, when x is shared.
func (c *Client) readPages(ctx context.Context, x *filingIndex, idx []int) error {
	if x.shared && len(idx) > 0 {
		return fmt.Errorf("edgar13f: internal error: the rule asks for %d older filing-list pages of an index shared by goroutines", len(idx))
	}
	for _, i := range idx {
		entries, err := c.page(ctx, x.pages[i])
		if err != nil {
			return err
		}
		x.read[i] = true
		x.entries = append(x.entries, only13F(entries)...)
	}
	x.sort()
	return nil
}

// sort orders the entries by filing date and accession, drops duplicate
// accessions and indexes the entries' sizes.
func (x *filingIndex) sort() {
	slices.SortFunc(x.entries, func(a, b listEntry) int {
		if c := a.FilingDate.Compare(b.FilingDate); c != 0 {
			return c
		}
		return strings.Compare(a.Accession, b.Accession)
	})
	x.entries = slices.CompactFunc(x.entries, func(a, b listEntry) bool { return a.Accession == b.Accession })
	x.sizes = make(map[string]int64, len(x.entries))
	for _, e := range x.entries {
		x.sizes[e.Accession] = e.Size
	}
}

// filings returns the 13F entries of cik's filing list that a question about
// filings dated from..asOf needs, reading the older pages the rule asks for
// (amend.PagesNeeded) round by round: those whose range meets [from, asOf],
// then, when none of those shows a 13F filed by asOf, every older page up to
// asOf (to tell unknown_cik from not_yet_filed). A zero from means all pages
// up to asOf.
func (c *Client) filings(ctx context.Context, cik string, from, asOf Date) (*filingIndex, error) {
	x, err := c.index(ctx, cik, asOf)
	if err != nil {
		return nil, err
	}
	for {
		need := amend.PagesNeeded(ruleListed(x.listed()), x.rulePages(), ruleDay(from), asOf.day())
		if len(need) == 0 {
			return x, nil
		}
		if err := c.readPages(ctx, x, need); err != nil {
			return nil, err
		}
	}
}

// filingList returns cik's filing list as of asOf (internal/filinglist:
// the cache entry and freshness rule package companies shares), its
// entries as this package keeps them.
func (c *Client) filingList(ctx context.Context, cik string, asOf Date) (*cachedList, error) {
	l, err := filinglist.Read(ctx, c.edgar, c.clock.Now, cik, asOf.day())
	if err != nil {
		return nil, listError(err)
	}
	return &cachedList{Name: l.Name, FiscalYearEnd: l.FiscalYearEnd, Entries: listEntries(l.Entries), Pages: l.Pages}, nil
}

// page returns the entries of an older filing-list page.
func (c *Client) page(ctx context.Context, p submissions.Page) ([]listEntry, error) {
	es, err := filinglist.ReadPage(ctx, c.edgar, p)
	if err != nil {
		return nil, listError(err)
	}
	return listEntries(es), nil
}

// listError wraps the errors of internal/filinglist in this package's.
func listError(err error) error {
	var nf *filinglist.NoFilerError
	var de *filinglist.DocumentError
	switch {
	case errors.As(err, &nf):
		return Decline(UnknownCIK, "%v", nf)
	case errors.As(err, &de):
		return &ParseError{Document: de.Document, Err: de.Err}
	}
	return err
}

// only13F returns the 13F entries of es, in a new slice.
func only13F(es []listEntry) []listEntry {
	var out []listEntry
	for _, e := range es {
		if e.Form.is13F() {
			out = append(out, e)
		}
	}
	return out
}

// listEntries returns the entries of a filing list as this package keeps
// them (internal/filinglist keeps only entries with readable filing dates).
func listEntries(es []filinglist.Entry) []listEntry {
	out := make([]listEntry, len(es))
	for i, e := range es {
		filed, _ := parseISODate(e.FilingDate)
		period, _ := parseISODate(e.Period)
		out[i] = listEntry{Accession: e.Accession, Form: Form(e.Form), FilingDate: filed, Period: period, PrimaryDocument: e.PrimaryDocument, Size: e.Size}
	}
	return out
}
