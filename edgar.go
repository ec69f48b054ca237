package edgar13f

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/edgar13f/edgar13f/internal/cover"
	"github.com/edgar13f/edgar13f/internal/fulltext"
	"github.com/edgar13f/edgar13f/internal/infotable"
	"github.com/edgar13f/edgar13f/internal/submissions"
)

// This file reads EDGAR through the Client's Fetcher and Cache: filing
// lists (with their freshness rule), cover pages and information tables.
// Everything here is I/O; the rules live in pit.go, redact.go and diff.go.

const (
	submissionsBase = "https://data.sec.gov/submissions/"
	archivesBase    = "https://www.sec.gov/Archives/edgar/data/"
)

// Cache key prefixes. The version in each changes when its encoding does.
const (
	keyList  = "list/v1/"  // + 10-digit CIK: a filing list (13F entries only)
	keyPage  = "page/v1/"  // + page name: an older page of a filing list
	keyCover = "cover/v1/" // + accession: the facts of a cover page
	keyRows  = "rows/v1/"  // + rule name + "/" + accession: parsed, redacted rows
)

// listFreshAfter is how long after asOf a filing list must have been fetched
// to answer for asOf: filings accepted after hours are dated the next
// business day, and EDGAR's list can lag.
const listFreshAfter = 2

func cik10(cik string) string { return strings.Repeat("0", 10-len(cik)) + cik }

func submissionsURL(cik string) string { return submissionsBase + "CIK" + cik10(cik) + ".json" }

func folderURL(cik, accession string) string {
	return archivesBase + cik + "/" + strings.ReplaceAll(accession, "-", "") + "/"
}

// indexURL is the EDGAR index page cited for a filing (SPEC §5).
func indexURL(cik, accession string) string {
	return folderURL(cik, accession) + accession + "-index.htm"
}

// listEntry is one 13F filing of a filing list, as cached.
type listEntry struct {
	Accession       string `json:"a"`
	Form            Form   `json:"f"`
	FilingDate      Date   `json:"d"`
	Period          Date   `json:"p"` // zero when the list has no reportDate
	PrimaryDocument string `json:"doc,omitempty"`
	Size            int64  `json:"n,omitempty"` // EDGAR's size of the filing, a hint for reading it
}

func (e listEntry) listed() listedFiling {
	return listedFiling{Accession: e.Accession, Form: e.Form, FilingDate: e.FilingDate, Period: e.Period}
}

// cachedList is a filing list reduced to its 13F entries.
type cachedList struct {
	FetchedAt time.Time          `json:"fetched_at"`
	Entries   []listEntry        `json:"entries"`
	Pages     []submissions.Page `json:"pages,omitempty"`
}

// cachedPage is an older page of a filing list reduced to its 13F entries.
type cachedPage struct {
	FilingCount int         `json:"n"`
	Entries     []listEntry `json:"entries"`
}

// filingIndex holds the 13F entries of one CIK that a query needs.
type filingIndex struct {
	entries []listEntry
}

func (x *filingIndex) listed() []listedFiling {
	out := make([]listedFiling, len(x.entries))
	for i, e := range x.entries {
		out[i] = e.listed()
	}
	return out
}

// filings returns the 13F entries of cik's filing list that a question about
// filings dated from..asOf needs: the recent block, the older pages whose
// range meets [from, asOf], and, when none of those shows a 13F filed by
// asOf, every older page up to asOf (to tell unknown_cik from
// not_yet_filed). A zero from means all pages up to asOf.
func (c *Client) filings(ctx context.Context, cik string, from, asOf Date) (*filingIndex, error) {
	list, err := c.filingList(ctx, cik, asOf)
	if err != nil {
		return nil, err
	}
	x := &filingIndex{entries: slices.Clone(list.Entries)}
	loaded := make([]bool, len(list.Pages))
	load := func(want func(p submissions.Page) bool) error {
		for i, p := range list.Pages {
			if loaded[i] || !want(p) {
				continue
			}
			entries, err := c.page(ctx, p)
			if err != nil {
				return err
			}
			loaded[i] = true
			x.entries = append(x.entries, entries...)
		}
		return nil
	}
	startsBy := func(p submissions.Page) bool {
		d, ok := parseISODate(p.FilingFrom)
		return !ok || visibleOn(d, asOf)
	}
	if err := load(func(p submissions.Page) bool {
		to, ok := parseISODate(p.FilingTo)
		return startsBy(p) && (!ok || from.IsZero() || !to.Before(from))
	}); err != nil {
		return nil, err
	}
	if !knownFiler(x.listed(), asOf) {
		if err := load(startsBy); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(x.entries, func(a, b listEntry) int {
		if c := a.FilingDate.Compare(b.FilingDate); c != 0 {
			return c
		}
		return strings.Compare(a.Accession, b.Accession)
	})
	x.entries = slices.CompactFunc(x.entries, func(a, b listEntry) bool { return a.Accession == b.Accession })
	return x, nil
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
	v, err := c.shared(ctx, key, func() (any, error) {
		if l, ok := c.cachedList(ctx, key, asOf); ok {
			return l, nil // stored by a flight that ended since the lookup above
		}
		url := submissionsURL(cik)
		body, err := c.fetcher.Fetch(ctx, url)
		if isNotFound(err) {
			return nil, declinef(UnknownCIK, "EDGAR has no filer with CIK %s", cik)
		}
		if err != nil {
			return nil, err
		}
		sl, err := submissions.Decode(body)
		if err != nil {
			return nil, &ParseError{Document: url, Err: err}
		}
		l := &cachedList{FetchedAt: c.clock.Now(), Entries: entries13F(sl.Recent), Pages: sl.Pages}
		c.store(ctx, key, l)
		return l, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*cachedList), nil
}

// cachedList returns the cached filing list under key if it can answer for asOf.
func (c *Client) cachedList(ctx context.Context, key string, asOf Date) (*cachedList, bool) {
	b, err := c.cache.Get(ctx, key)
	if err != nil {
		return nil, false
	}
	var l cachedList
	if json.Unmarshal(b, &l) != nil || DateOf(l.FetchedAt.UTC()).Before(asOf.AddDays(listFreshAfter)) {
		return nil, false
	}
	return &l, true
}

// page returns the 13F entries of an older filing-list page. Pages hold only
// past filings, so a cached page is kept as long as its filing count agrees
// with the main list.
func (c *Client) page(ctx context.Context, p submissions.Page) ([]listEntry, error) {
	if strings.ContainsAny(p.Name, "/\\") || p.Name == "" || strings.Contains(p.Name, "..") {
		return nil, &ParseError{Document: "filings.files", Err: fmt.Errorf("bad page name %q", p.Name)}
	}
	key := keyPage + p.Name
	cached := func() ([]listEntry, bool) {
		b, err := c.cache.Get(ctx, key)
		if err != nil {
			return nil, false
		}
		var cp cachedPage
		if json.Unmarshal(b, &cp) != nil || cp.FilingCount != p.FilingCount {
			return nil, false
		}
		return cp.Entries, true
	}
	if entries, ok := cached(); ok {
		return entries, nil
	}
	v, err := c.shared(ctx, key, func() (any, error) {
		if entries, ok := cached(); ok {
			return entries, nil
		}
		url := submissionsBase + p.Name
		body, err := c.fetcher.Fetch(ctx, url)
		if err != nil {
			return nil, err
		}
		fs, err := submissions.DecodePage(body)
		if err != nil {
			return nil, &ParseError{Document: url, Err: err}
		}
		cp := cachedPage{FilingCount: len(fs), Entries: entries13F(fs)}
		if cp.FilingCount == p.FilingCount {
			c.store(ctx, key, cp)
		}
		return cp.Entries, nil
	})
	if err != nil {
		return nil, err
	}
	return v.([]listEntry), nil
}

// entries13F keeps the 13F filings of a list. Entries with unreadable dates
// are kept out: they cannot be placed in time, so they cannot be shown.
func entries13F(fs []submissions.Filing) []listEntry {
	var out []listEntry
	for _, f := range fs {
		form := Form(f.Form)
		if !form.is13F() {
			continue
		}
		filed, ok := parseISODate(f.FilingDate)
		if !ok {
			continue
		}
		period, _ := parseISODate(f.ReportDate)
		out = append(out, listEntry{Accession: f.Accession, Form: form, FilingDate: filed, Period: period, PrimaryDocument: f.PrimaryDocument, Size: f.Size})
	}
	return out
}

// coverRecord is what edgar13f keeps of a cover page.
type coverRecord struct {
	Period        Date          `json:"period"`
	IsAmendment   bool          `json:"is_amendment"`
	AmendmentNo   int           `json:"amendment_no"`
	AmendmentType AmendmentType `json:"amendment_type"`
	ReportType    string        `json:"report_type"`
	ManagerName   string        `json:"manager_name"`
}

func newCoverRecord(cv *cover.Cover) (coverRecord, error) {
	period, ok := parseISODate(cv.Period())
	if !ok {
		return coverRecord{}, fmt.Errorf("cover page has no valid period of report (%q)", cv.Period())
	}
	return coverRecord{
		Period:        period,
		IsAmendment:   cv.IsAmendment,
		AmendmentNo:   cv.AmendmentNo,
		AmendmentType: AmendmentType(cv.AmendmentType),
		ReportType:    cv.ReportType,
		ManagerName:   cv.ManagerName,
	}, nil
}

func (r coverRecord) facts(form Form) coverFacts {
	return coverFacts{Period: r.Period, AmendmentNo: r.AmendmentNo, Kind: kindOf(form, r.AmendmentType)}
}

// cachedCover returns the cached cover of a filing.
func (c *Client) cachedCover(ctx context.Context, accession string) (coverRecord, bool) {
	b, err := c.cache.Get(ctx, keyCover+accession)
	if err != nil {
		return coverRecord{}, false
	}
	var r coverRecord
	if json.Unmarshal(b, &r) != nil || r.Period.IsZero() {
		return coverRecord{}, false
	}
	return r, true
}

// coverPage returns the cover of a filing from the cache or its raw
// primary_doc.xml. ok is false when the filing has no XML cover (text-era
// filings before 2013).
func (c *Client) coverPage(ctx context.Context, cik string, e listEntry) (rec coverRecord, ok bool, err error) {
	if r, ok := c.cachedCover(ctx, e.Accession); ok {
		return r, true, nil
	}
	name, ok := submissions.RawCoverName(e.PrimaryDocument)
	if !ok {
		return coverRecord{}, false, nil
	}
	key := keyCover + e.Accession
	v, err := c.shared(ctx, key, func() (any, error) {
		if r, ok := c.cachedCover(ctx, e.Accession); ok {
			return r, nil
		}
		url := folderURL(cik, e.Accession) + name
		body, err := c.fetcher.Fetch(ctx, url)
		if err != nil {
			return nil, err
		}
		cv, err := cover.Parse(body)
		if err != nil {
			return nil, &ParseError{Accession: e.Accession, Document: url, Err: err}
		}
		r, err := newCoverRecord(cv)
		if err != nil {
			return nil, &ParseError{Accession: e.Accession, Document: url, Err: err}
		}
		c.store(ctx, key, r)
		return r, nil
	})
	if err != nil {
		return coverRecord{}, false, err
	}
	return v.(coverRecord), true, nil
}

// report is a holdings report read from EDGAR: its cover and its rows after
// redaction.
type report struct {
	cover coverRecord
	rows  []infotable.Row
}

// rowsKey is the cache key of a filing's rows under the Client's redaction
// rule: redacted and unredacted rows never share an entry.
func (c *Client) rowsKey(accession string) string {
	return keyRows + c.redaction.name + "/" + accession
}

// cachedRows returns a filing's cached rows.
func (c *Client) cachedRows(ctx context.Context, accession string) ([]infotable.Row, bool) {
	b, err := c.cache.Get(ctx, c.rowsKey(accession))
	if err != nil {
		return nil, false
	}
	rows, err := infotable.Decode(b)
	if err != nil {
		return nil, false
	}
	return rows, true
}

// fetchReport reads a holdings report from its complete submission text
// file, one request that holds both the cover and the information table
// whatever the table's file name. Rows are redacted while they are parsed;
// cover and rows are cached.
func (c *Client) fetchReport(ctx context.Context, cik string, accession string, size int64) (*report, error) {
	v, err := c.shared(ctx, "txt/"+accession, func() (any, error) {
		if cv, ok := c.cachedCover(ctx, accession); ok {
			if rows, ok := c.cachedRows(ctx, accession); ok {
				return &report{cover: cv, rows: rows}, nil // stored by an earlier flight
			}
		}
		url := folderURL(cik, accession) + accession + ".txt"
		body, err := fetchSized(ctx, c.fetcher, url, size)
		if err != nil {
			return nil, err
		}
		r, err := c.parseReport(body)
		if err != nil {
			return nil, &ParseError{Accession: accession, Document: url, Err: err}
		}
		c.store(ctx, keyCover+accession, r.cover)
		c.storeBytes(ctx, c.rowsKey(accession), infotable.AppendEncoded(nil, r.rows))
		return r, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*report), nil
}

func (c *Client) parseReport(body []byte) (*report, error) {
	sub, err := fulltext.Parse(body)
	if err != nil {
		return nil, err
	}
	var cv *cover.Cover
	for _, d := range sub.Documents {
		if strings.HasPrefix(strings.ToUpper(strings.TrimSpace(d.Type)), "13F-") {
			if cv, err = cover.Parse(d.Text); err != nil {
				return nil, fmt.Errorf("cover page %s: %v", d.Filename, err)
			}
			break
		}
	}
	if cv == nil {
		return nil, errors.New("no XML cover page in the submission (text filings from before 2013 are not supported)")
	}
	rec, err := newCoverRecord(cv)
	if err != nil {
		return nil, err
	}
	r := &report{cover: rec}
	table := sub.Document("INFORMATION TABLE")
	if table == nil {
		if cv.HasTotals && cv.TableEntryTotal == 0 {
			return r, nil // a report with no rows
		}
		return nil, errors.New("no INFORMATION TABLE document in the submission")
	}
	var keep func(*infotable.Row) bool
	if c.redaction.remove != nil {
		remove := memoized(c.redaction.remove)
		keep = func(row *infotable.Row) bool { return !remove(row.NameOfIssuer, row.TitleOfClass, row.CUSIP) }
	}
	if r.rows, err = infotable.Parse(table.Text, keep); err != nil {
		return nil, fmt.Errorf("information table %s: %v", table.Filename, err)
	}
	return r, nil
}

// shared runs fn once for all concurrent callers asking for the same key
// (identical fetches are made once). The caller that runs fn does so under
// its own context; if that context ends, the others are not failed by it:
// each whose own context is still live runs fn again (at most a few times).
func (c *Client) shared(ctx context.Context, key string, fn func() (any, error)) (any, error) {
	for range 3 {
		v, err, _ := c.flight.Do(key, func() (any, error) {
			v, err := fn()
			if err != nil && ctx.Err() != nil {
				return nil, &leaderEnded{ctx.Err()}
			}
			return v, err
		})
		var le *leaderEnded
		if !errors.As(err, &le) {
			return v, err
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, ctxErr
		}
	}
	return nil, fmt.Errorf("edgar13f: %s: the callers sharing this fetch kept ending", key)
}

// leaderEnded reports that the caller running a shared fetch gave up.
type leaderEnded struct{ err error }

func (e *leaderEnded) Error() string { return e.err.Error() }
func (e *leaderEnded) Unwrap() error { return e.err }

// store caches v as JSON. Cache write failures are not query failures: the
// answer is still right, only the next query will fetch again.
func (c *Client) store(ctx context.Context, key string, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	c.storeBytes(ctx, key, b)
}

func (c *Client) storeBytes(ctx context.Context, key string, b []byte) {
	_ = c.cache.Put(context.WithoutCancel(ctx), key, b)
}
