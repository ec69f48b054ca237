package edgar13f

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/edgar13f/edgar13f/internal/access"
	"github.com/edgar13f/edgar13f/internal/amend"
	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/submissions"
)

// This file reads EDGAR's filing lists (data.sec.gov/submissions) through
// the Client's access layer, under the filing list's freshness rule.

// listEntry is one filing of a filing list, of any form, as cached.
type listEntry struct {
	Accession       string `json:"a"`
	Form            Form   `json:"f"`
	FilingDate      Date   `json:"d"`
	Period          Date   `json:"p,omitzero"` // zero when the list has no reportDate
	PrimaryDocument string `json:"doc,omitempty"`
	Size            int64  `json:"n,omitempty"` // EDGAR's size of the filing, a hint for reading it
}

func (e listEntry) listed() listedFiling {
	return listedFiling{Accession: e.Accession, Form: e.Form, FilingDate: e.FilingDate, Period: e.Period}
}

// cachedList is a filing list: the entity's name, the filings of the
// recent block (every form: 13F questions and company questions share it)
// and the older pages.
type cachedList struct {
	FetchedAt     time.Time          `json:"fetched_at"`
	Name          string             `json:"name,omitempty"`
	FiscalYearEnd string             `json:"fye,omitempty"` // "MMDD", current
	Entries       []listEntry        `json:"entries"`
	Pages         []submissions.Page `json:"pages,omitempty"`
}

// cachedPage is an older page of a filing list (every form).
type cachedPage struct {
	FilingCount int         `json:"n"`
	Entries     []listEntry `json:"entries"`
}

// filingIndex holds the 13F entries of one CIK that a 13F query needs:
// those of the recent block and of the older pages read so far, sorted by
// filing date and accession, without duplicates.
type filingIndex struct {
	entries []listEntry
	pages   []submissions.Page // the list's older pages
	read    []bool             // which of pages are read
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
// entries.
func (c *Client) readPages(ctx context.Context, x *filingIndex, idx []int) error {
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

func (x *filingIndex) sort() {
	slices.SortFunc(x.entries, func(a, b listEntry) int {
		if c := a.FilingDate.Compare(b.FilingDate); c != 0 {
			return c
		}
		return strings.Compare(a.Accession, b.Accession)
	})
	x.entries = slices.CompactFunc(x.entries, func(a, b listEntry) bool { return a.Accession == b.Accession })
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

// filingList returns cik's filing list, from the cache when the cached copy
// was fetched at least two days after asOf, else from EDGAR.
func (c *Client) filingList(ctx context.Context, cik string, asOf Date) (*cachedList, error) {
	key := keyList + cik10(cik)
	if l, ok := c.cachedList(ctx, key, asOf); ok {
		return l, nil
	} else if err := ctx.Err(); err != nil {
		return nil, err
	}
	v, err := c.edgar.Shared(ctx, key, func() (any, error) {
		if l, ok := c.cachedList(ctx, key, asOf); ok {
			return l, nil // stored by a flight that ended since the lookup above
		}
		url := submissionsURL(cik)
		body, err := c.edgar.Fetch(ctx, url)
		if access.IsNotFound(err) {
			return nil, Decline(UnknownCIK, "EDGAR has no filer with CIK %s", cik)
		}
		if err != nil {
			return nil, err
		}
		sl, err := submissions.Decode(body)
		if err != nil {
			return nil, &ParseError{Document: url, Err: err}
		}
		l := &cachedList{FetchedAt: c.clock.Now(), Name: sl.Name, FiscalYearEnd: sl.FiscalYearEnd, Entries: listEntries(sl.Recent), Pages: sl.Pages}
		c.keepJSON(ctx, key, l)
		return l, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*cachedList), nil
}

// cachedList returns the cached filing list under key if it can answer for asOf.
func (c *Client) cachedList(ctx context.Context, key string, asOf Date) (*cachedList, bool) {
	var l cachedList
	if !c.cachedJSON(ctx, key, &l) || !listAnswers(l.FetchedAt, asOf) {
		return nil, false
	}
	return &l, true
}

// page returns the entries of an older filing-list page. Pages hold only
// past filings, so a cached page is kept as long as its filing count agrees
// with the main list.
func (c *Client) page(ctx context.Context, p submissions.Page) ([]listEntry, error) {
	if strings.ContainsAny(p.Name, "/\\") || p.Name == "" || strings.Contains(p.Name, "..") {
		return nil, &ParseError{Document: "filings.files", Err: fmt.Errorf("bad page name %q", p.Name)}
	}
	key := keyPage + p.Name
	cached := func() ([]listEntry, bool) {
		var cp cachedPage
		if !c.cachedJSON(ctx, key, &cp) || cp.FilingCount != p.FilingCount {
			return nil, false
		}
		return cp.Entries, true
	}
	if entries, ok := cached(); ok {
		return entries, nil
	}
	v, err := c.edgar.Shared(ctx, key, func() (any, error) {
		if entries, ok := cached(); ok {
			return entries, nil
		}
		url := submissionsBase + p.Name
		body, err := c.edgar.Fetch(ctx, url)
		if err != nil {
			return nil, err
		}
		fs, err := submissions.DecodePage(body)
		if err != nil {
			return nil, &ParseError{Document: url, Err: err}
		}
		cp := cachedPage{FilingCount: len(fs), Entries: listEntries(fs)}
		if cp.FilingCount == p.FilingCount {
			c.keepJSON(ctx, key, cp)
		}
		return cp.Entries, nil
	})
	if err != nil {
		return nil, err
	}
	return v.([]listEntry), nil
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

// listEntries keeps the filings of a list. Entries with unreadable dates
// are kept out: they cannot be placed in time, so they cannot be shown.
func listEntries(fs []submissions.Filing) []listEntry {
	out := make([]listEntry, 0, len(fs))
	for _, f := range fs {
		form := Form(f.Form)
		filed, ok := parseISODate(f.FilingDate)
		if !ok {
			continue
		}
		period, _ := parseISODate(f.ReportDate)
		out = append(out, listEntry{Accession: f.Accession, Form: form, FilingDate: filed, Period: period, PrimaryDocument: f.PrimaryDocument, Size: f.Size})
	}
	return out
}
