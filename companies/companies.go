// Package companies answers point-in-time questions about any EDGAR
// filer: company search, filings of any form, annual financial facts as
// first reported and as known on a date, and the Item sections of 10-K and
// 10-Q reports. Get a [Companies] with [New]; it reads EDGAR through the
// *edgar13f.Client's one access layer (fetcher, request spacing, cache) and
// answers in package edgar13f's vocabulary: [edgar13f.Date],
// [edgar13f.Form], [edgar13f.Citation], declines as
// [*edgar13f.DeclineError].
//
// The rule of the 13F questions holds here too: a filing is visible on asOf
// exactly when its EDGAR filing date is on or before asOf, and nothing filed
// after asOf influences an answer. Company names and tickers are the
// exception: EDGAR publishes only current ones, so [Companies.Search] is not
// point in time.
//
// The filing lists are read by internal/filinglist, the same cache entries
// and freshness rule package edgar13f's 13F questions read; the arguments
// are checked by internal/check, as package edgar13f checks them.
//
// Each question has its own sealed option type ([SearchOption],
// [FilingsOption], [FactsOption], [SectionOption]), so an option a question
// does not take is a compile error; [Limit] is an option of every question
// that answers "at most n".
package companies

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/access"
	"github.com/edgar13f/edgar13f/internal/amend"
	"github.com/edgar13f/edgar13f/internal/bounds"
	"github.com/edgar13f/edgar13f/internal/check"
	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/clientparts"
	"github.com/edgar13f/edgar13f/internal/freshness"
	"github.com/edgar13f/edgar13f/internal/tickers"
)

// This file holds the Companies handle, its options, and company search.
// filings.go lists filings of any form, facts.go answers financial facts
// and sections.go cuts Item sections out of 10-K and 10-Q documents. All
// of them read through the Client's one access layer.

// Companies answers the company data questions through one
// *edgar13f.Client. It is safe for concurrent use; it keeps in memory the
// decoded ticker file and the decoded company facts of recent questions,
// so share one per Client.
type Companies struct {
	p clientparts.Parts

	tickers atomic.Pointer[tickerCopy] // the decoded ticker file, once read

	mu    sync.Mutex
	facts map[string]*factsCopy // by 10-digit CIK, at most maxFactsInMemory
}

// New returns the company data questions of c: they share c's fetcher,
// request spacing and cache.
func New(c *edgar13f.Client) *Companies {
	cs := &Companies{}
	c.Parts(&cs.p)
	return cs
}

// maxFactsInMemory bounds the decoded companyfacts a Companies keeps in memory.
const maxFactsInMemory = 32

// Limits of the company questions.
const (
	DefaultMatches      = 5      // matches of a search when no limit is given
	MaxMatches          = 100    // the most matches a search returns
	DefaultFilings      = 10     // filings listed when no limit is given
	MaxFilings          = 100    // the most filings listed
	DefaultFactYears    = 3      // fiscal years of facts when no Years is given
	MaxFactYears        = 30     // the most fiscal years of facts
	DefaultSectionChars = 20000  // characters of a section when no limit is given
	MaxSectionChars     = 100000 // the most characters of a section
	MaxQueryLen         = 100    // the longest search text, in characters
)

// EDGAR's URLs of company data, and the cache keys of what is read from
// them. The version in each key changes when its encoding does.
const (
	tickersURL      = "https://www.sec.gov/files/company_tickers.json"
	companyFactsURL = "https://data.sec.gov/api/xbrl/companyfacts/"

	keyTickers  = "tickers/v1" // fetch time + company_tickers.json
	keyFacts    = "facts/v1/"  // + 10-digit CIK: fetch time + compact companyfacts
	keyDocument = "doc/v1/"    // + accession + "/" + name: a filing's document, as served
)

type companyOptions struct {
	limit, years, maxChars          int
	limitSet, yearsSet, maxCharsSet bool
	form                            edgar13f.Form
	formSet                         bool
	since                           edgar13f.Date
	sinceSet                        bool
}

// A SearchOption adjusts [Companies.Search]: [Limit].
type SearchOption interface{ applySearch(*companyOptions) }

// A FilingsOption adjusts [Companies.Filings]: [Limit], [FormType] and
// [Since].
type FilingsOption interface{ applyFilings(*companyOptions) }

// A FactsOption adjusts [Companies.Facts]: [Years].
type FactsOption interface{ applyFacts(*companyOptions) }

// A SectionOption adjusts [Companies.Section]: [MaxChars].
type SectionOption interface{ applySection(*companyOptions) }

// A LimitOption is the option [Limit] returns: an option of every question
// that answers "at most n".
type LimitOption interface {
	SearchOption
	FilingsOption
}

// Limit answers at most n items, the first n in the answer's own order:
//
//   - [Companies.Search]: matches, 1 to [MaxMatches], default
//     [DefaultMatches].
//   - [Companies.Filings]: filings, 1 to [MaxFilings], default
//     [DefaultFilings].
//
// It means what [edgar13f.Limit] means for the 13F questions. A value
// outside the range is declined with [edgar13f.InvalidArgument].
func Limit(n int) LimitOption { return limitOption(n) }

type limitOption int

func (n limitOption) applySearch(o *companyOptions)  { o.limit, o.limitSet = int(n), true }
func (n limitOption) applyFilings(o *companyOptions) { o.limit, o.limitSet = int(n), true }

// FormType keeps only filings of one form in [Companies.Filings], matched
// exactly but case-insensitively: "10-K" does not include "10-K/A".
func FormType(form edgar13f.Form) FilingsOption { return formTypeOption(form) }

type formTypeOption edgar13f.Form

func (f formTypeOption) applyFilings(o *companyOptions) { o.form, o.formSet = edgar13f.Form(f), true }

// Since keeps only filings filed on or after since in [Companies.Filings].
// Of the filing list's older pages, only those whose range meets [since,
// asOf] are read. A since after asOf is an empty answer.
func Since(since edgar13f.Date) FilingsOption { return sinceOption(since) }

type sinceOption edgar13f.Date

func (d sinceOption) applyFilings(o *companyOptions) { o.since, o.sinceSet = edgar13f.Date(d), true }

// Years sets how many fiscal periods [Companies.Facts] returns, newest
// first: 1 to [MaxFactYears], default [DefaultFactYears].
func Years(n int) FactsOption { return yearsOption(n) }

type yearsOption int

func (n yearsOption) applyFacts(o *companyOptions) { o.years, o.yearsSet = int(n), true }

// MaxChars sets the most characters of the text [Companies.Section]
// returns: 1 to [MaxSectionChars], default [DefaultSectionChars]. A longer
// section is cut at the last space or line end before the limit (when one
// lies within 200 characters of it) and marked Truncated.
func MaxChars(n int) SectionOption { return maxCharsOption(n) }

type maxCharsOption int

func (n maxCharsOption) applySection(o *companyOptions) { o.maxChars, o.maxCharsSet = int(n), true }

// companyOpts applies the options of one question.
func companyOpts[O any](opts []O, apply func(O, *companyOptions)) companyOptions {
	var o companyOptions
	for _, opt := range opts {
		if any(opt) != nil {
			apply(opt, &o)
		}
	}
	return o
}

// companyQuery applies opts (see companyOpts) and checks cik and asOf; it
// returns the options and the CIK without leading zeros.
func companyQuery[O any](opts []O, apply func(O, *companyOptions), cik string, asOf edgar13f.Date) (companyOptions, string, error) {
	o := companyOpts(opts, apply)
	id, err := parseCIK(cik)
	if err != nil {
		return o, "", err
	}
	return o, id, checkDate("asOf", asOf)
}

// parseCIK checks a CIK of 1 to 10 ASCII digits and drops leading zeros,
// as package edgar13f does.
func parseCIK(s string) (string, error) {
	cik, f := check.CIK(s)
	if f != nil {
		return "", declineOfCheck(f)
	}
	return cik, nil
}

// checkDate declines a date that names no calendar day, as package
// edgar13f does.
func checkDate(name string, d edgar13f.Date) error {
	if f := check.Day(name, check.Date{Year: d.Year, Month: d.Month, Day: d.Day}); f != nil {
		return declineOfCheck(f)
	}
	return nil
}

// declineOfCheck is a failed argument check as package edgar13f's decline.
func declineOfCheck(f *check.Failure) error {
	return edgar13f.Decline(edgar13f.Reason(f.Reason), "%s", f.Message)
}

// checkRange declines a value set outside [lo, hi] and returns def when it
// is not set.
func checkRange(name string, v int, set bool, lo, hi, def int) (int, error) {
	if !set {
		return def, nil
	}
	if err := bounds.Check(name, v, lo, hi); err != nil {
		return 0, edgar13f.Decline(edgar13f.InvalidArgument, "%v", err)
	}
	return v, nil
}

// dayOf and dateOf convert between a Date and internal days.
func dayOf(d edgar13f.Date) civil.Day { return civil.DayOf(d.Year, d.Month, d.Day) }

func dateOf(d civil.Day) edgar13f.Date {
	y, m, dd := d.Date()
	return edgar13f.Date{Year: y, Month: m, Day: dd}
}

// parseDay reads a "YYYY-MM-DD" of EDGAR's; the zero Date when it cannot.
func parseDay(s string) (edgar13f.Date, bool) {
	y, m, d, ok := civil.ParseYMD(s)
	return edgar13f.Date{Year: y, Month: m, Day: d}, ok
}

// visibleOn reports whether a filing dated filed is visible on asOf: the
// rule of every question of the module (amend.Visible).
func visibleOn(filed, asOf edgar13f.Date) bool { return amend.Visible(dayOf(filed), dayOf(asOf)) }

// A Match is one company found by [Companies.Search].
type Match struct {
	CIK       string   // without leading zeros, as everywhere in this package
	Name      string   // EDGAR's current name of the company
	Tickers   []string // current tickers, the primary one first; may be empty
	Rank      string   // how it matched: exact_ticker, exact_name, name_prefix, name_substring or word_overlap
	SourceURL string   // the document the match comes from
}

// SearchResult is the answer of [Companies.Search].
type SearchResult struct {
	Query   string
	Matches []Match // best first
	// Note says that names and tickers are current, not point in time.
	Note string
}

// SearchNote is the note of every [SearchResult].
const SearchNote = "Names and tickers are EDGAR's current ones (company_tickers.json), not as of any date: a company may have had another name or ticker, or none, in the past."

// Search returns the companies whose ticker or name best matches name,
// best first: an exact ticker ("BRK.B" finds BRK-B), then an exact name,
// a name starting with the text, a name containing it, and last names
// sharing a significant word with it (legal forms such as "Inc" and filler
// words do not count). Case and punctuation are ignored. A company with
// several tickers is one match listing them all. No match is an empty
// answer, not a decline.
//
// It reads EDGAR's current list of companies and tickers,
// https://www.sec.gov/files/company_tickers.json, and keeps it in the cache
// for a day. Names and tickers are current, not point in time.
//
// Options: [Limit]. It declines with [edgar13f.InvalidArgument] for a name that
// is empty or longer than [MaxQueryLen] characters once trimmed, or a
// limit out of range.
func (cs *Companies) Search(ctx context.Context, name string, opts ...SearchOption) (*SearchResult, error) {
	o := companyOpts(opts, SearchOption.applySearch)
	limit, err := checkRange("Limit", o.limit, o.limitSet, 1, MaxMatches, DefaultMatches)
	if err != nil {
		return nil, err
	}
	text := strings.TrimSpace(name)
	if n := utf8.RuneCountInString(text); n == 0 || n > MaxQueryLen || !utf8.ValidString(text) {
		return nil, edgar13f.Decline(edgar13f.InvalidArgument, "name must be 1 to %d characters of text", MaxQueryLen)
	}
	x, err := cs.tickerIndex(ctx)
	if err != nil {
		return nil, err
	}
	out := &SearchResult{Query: text, Matches: []Match{}, Note: SearchNote}
	for _, m := range x.Search(text, limit) {
		cik, err := parseCIK(m.CIK) // the file's CIKs are 10 digits; answers' are unpadded
		if err != nil {
			return nil, err
		}
		out.Matches = append(out.Matches, Match{
			CIK:       cik,
			Name:      m.Name,
			Tickers:   append([]string{}, m.Tickers...),
			Rank:      m.Rank.String(),
			SourceURL: tickersURL,
		})
	}
	return out, nil
}

// tickerCopy is the decoded ticker file and when it was fetched.
type tickerCopy struct {
	fetched time.Time
	index   *tickers.Index
}

// tickerIndex returns the decoded ticker file: from memory or the cache
// while it is less than a day old, else from EDGAR.
func (cs *Companies) tickerIndex(ctx context.Context) (*tickers.Index, error) {
	now := cs.p.Now()
	if t := cs.tickers.Load(); t != nil && freshness.Fresh(t.fetched, now) {
		return t.index, nil
	}
	v, err := cs.p.Access.Shared(ctx, keyTickers, func() (any, error) {
		if b, ok := cs.p.Access.Cached(ctx, keyTickers); ok {
			if fetched, body, ok := access.Unstamp(b); ok && freshness.Fresh(fetched, now) {
				if x, err := tickers.Decode(body); err == nil {
					t := &tickerCopy{fetched: fetched, index: x}
					cs.tickers.Store(t)
					return t, nil
				}
			}
		}
		body, err := cs.p.Access.Fetch(ctx, tickersURL)
		if err != nil {
			return nil, err
		}
		x, err := tickers.Decode(body)
		if err != nil {
			return nil, &edgar13f.ParseError{Document: tickersURL, Err: err}
		}
		t := &tickerCopy{fetched: now, index: x}
		cs.p.Access.Keep(ctx, keyTickers, access.Stamp(now, body))
		cs.tickers.Store(t)
		return t, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*tickerCopy).index, nil
}
