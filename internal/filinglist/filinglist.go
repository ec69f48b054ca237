// Package filinglist reads EDGAR's filing lists (data.sec.gov/submissions,
// every form, and their older pages) through an access layer, under the
// filing list's freshness rule, and caches them. Package edgar13f (13F
// questions) and package companies (filings of any form, 10-K and 10-Q
// sections) read the very same cache entries through it, so a list
// fetched for one answers the other.
//
// Dates stay as EDGAR writes them, "YYYY-MM-DD": entries whose filing date
// cannot be read are dropped when a list is decoded. Errors are plain:
// [*NoFilerError] for a CIK EDGAR does not know, [*DocumentError] for a
// document that cannot be read; each caller wraps them in its own errors.
package filinglist

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/edgar13f/edgar13f/internal/access"
	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/edgarid"
	"github.com/edgar13f/edgar13f/internal/freshness"
	"github.com/edgar13f/edgar13f/internal/submissions"
)

// Cache key prefixes. The version in each changes when its encoding does.
const (
	keyList = "list/v3/" // + 10-digit CIK: a filing list (every form), with the fiscal year end
	keyPage = "page/v2/" // + page name: an older page of a filing list (every form)
)

// Base is the URL of the filing lists' folder: a list is Base + "CIK" +
// 10-digit CIK + ".json", an older page Base + its name.
const Base = "https://data.sec.gov/submissions/"

// URL returns the URL of cik's filing list.
func URL(cik string) string {
	c10, _ := edgarid.CIK10(cik)
	return Base + "CIK" + c10 + ".json"
}

// An Entry is one filing of a filing list, of any form, as cached.
type Entry struct {
	Accession       string `json:"a"`
	Form            string `json:"f"`
	FilingDate      string `json:"d"`           // "YYYY-MM-DD", always readable
	Period          string `json:"p,omitempty"` // "YYYY-MM-DD"; "" when the list has no reportDate
	PrimaryDocument string `json:"doc,omitempty"`
	Size            int64  `json:"n,omitempty"` // EDGAR's size of the filing, a hint for reading it
}

// A List is a filing list: the entity's name, the filings of the recent
// block (every form) and the older pages.
type List struct {
	FetchedAt     time.Time          `json:"fetched_at"`
	Name          string             `json:"name,omitempty"`
	FiscalYearEnd string             `json:"fye,omitempty"` // "MMDD", current
	Entries       []Entry            `json:"entries"`
	Pages         []submissions.Page `json:"pages,omitempty"`
}

// cachedPage is an older page of a filing list (every form).
type cachedPage struct {
	FilingCount int     `json:"n"`
	Entries     []Entry `json:"entries"`
}

// A NoFilerError says that EDGAR has no filing list for a CIK.
type NoFilerError struct{ CIK string }

func (e *NoFilerError) Error() string { return "EDGAR has no filer with CIK " + e.CIK }

// A DocumentError says that a filing-list document could not be read.
type DocumentError struct {
	Document string // the URL, or "filings.files" for a bad page name
	Err      error
}

func (e *DocumentError) Error() string { return e.Document + ": " + e.Err.Error() }

// Unwrap returns e.Err.
func (e *DocumentError) Unwrap() error { return e.Err }

// Read returns cik's filing list, from the cache when the cached copy was
// fetched at least two days after asOf (freshness.ListAnswers), else from
// EDGAR, stamped with now().
func Read(ctx context.Context, a *access.Layer, now func() time.Time, cik string, asOf civil.Day) (*List, error) {
	c10, _ := edgarid.CIK10(cik)
	key := keyList + c10
	if l, ok := cachedList(ctx, a, key, asOf); ok {
		return l, nil
	} else if err := ctx.Err(); err != nil {
		return nil, err
	}
	v, err := a.Shared(ctx, key, func() (any, error) {
		if l, ok := cachedList(ctx, a, key, asOf); ok {
			return l, nil // stored by a flight that ended since the lookup above
		}
		url := URL(cik)
		body, err := a.Fetch(ctx, url)
		if access.IsNotFound(err) {
			return nil, &NoFilerError{CIK: cik}
		}
		if err != nil {
			return nil, err
		}
		sl, err := submissions.Decode(body)
		if err != nil {
			return nil, &DocumentError{Document: url, Err: err}
		}
		l := &List{FetchedAt: now(), Name: sl.Name, FiscalYearEnd: sl.FiscalYearEnd, Entries: entries(sl.Recent), Pages: sl.Pages}
		a.KeepJSON(ctx, key, l)
		return l, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*List), nil
}

// cachedList returns the cached filing list under key if it can answer for asOf.
func cachedList(ctx context.Context, a *access.Layer, key string, asOf civil.Day) (*List, bool) {
	var l List
	if !a.CachedJSON(ctx, key, &l) || !freshness.ListAnswers(l.FetchedAt, asOf) {
		return nil, false
	}
	return &l, true
}

// PageURL returns the URL of an older page.
func PageURL(p submissions.Page) string { return Base + p.Name }

// ReadPage returns the entries of an older filing-list page. Pages hold
// only past filings, so a cached page is kept as long as its filing count
// agrees with the main list.
func ReadPage(ctx context.Context, a *access.Layer, p submissions.Page) ([]Entry, error) {
	if p.Name == "" || strings.ContainsAny(p.Name, "/\\") || strings.Contains(p.Name, "..") {
		return nil, &DocumentError{Document: "filings.files", Err: fmt.Errorf("bad page name %q", p.Name)}
	}
	key := keyPage + p.Name
	cached := func() ([]Entry, bool) {
		var cp cachedPage
		if !a.CachedJSON(ctx, key, &cp) || cp.FilingCount != p.FilingCount {
			return nil, false
		}
		return cp.Entries, true
	}
	if es, ok := cached(); ok {
		return es, nil
	}
	v, err := a.Shared(ctx, key, func() (any, error) {
		if es, ok := cached(); ok {
			return es, nil
		}
		url := PageURL(p)
		body, err := a.Fetch(ctx, url)
		if err != nil {
			return nil, err
		}
		fs, err := submissions.DecodePage(body)
		if err != nil {
			return nil, &DocumentError{Document: url, Err: err}
		}
		cp := cachedPage{FilingCount: len(fs), Entries: entries(fs)}
		if cp.FilingCount == p.FilingCount {
			a.KeepJSON(ctx, key, cp)
		}
		return cp.Entries, nil
	})
	if err != nil {
		return nil, err
	}
	return v.([]Entry), nil
}

// entries keeps the filings of a list. Entries with unreadable dates are
// kept out: they cannot be placed in time, so they cannot be shown. An
// unreadable period of report is left out.
func entries(fs []submissions.Filing) []Entry {
	out := make([]Entry, 0, len(fs))
	for _, f := range fs {
		filed, ok := civil.ParseISO(f.FilingDate)
		if !ok {
			continue
		}
		e := Entry{Accession: f.Accession, Form: f.Form, FilingDate: filed.String(), PrimaryDocument: f.PrimaryDocument, Size: f.Size}
		if p, ok := civil.ParseISO(f.ReportDate); ok {
			e.Period = p.String()
		}
		out = append(out, e)
	}
	return out
}
