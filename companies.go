package edgar13f

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/edgar13f/edgar13f/internal/bounds"
	"github.com/edgar13f/edgar13f/internal/tickers"
)

// This file holds the company data capability: the Companies handle, its
// options, and company search. company_filings.go lists filings of any
// form, company_facts.go answers financial facts and company_sections.go
// cuts Item sections out of 10-K and 10-Q documents. All of them read
// through the Client's one access layer.

// Companies answers point-in-time questions about any EDGAR filer: company
// search, filings of any form, annual financial facts as first reported and
// as known on a date, and the Item sections of 10-K and 10-Q reports. Get
// one with [Client.Companies]; it shares the Client's fetcher, request
// spacing and cache, and is safe for concurrent use.
//
// The rule of the 13F questions holds here too: a filing is visible on asOf
// exactly when its EDGAR filing date is on or before asOf, and nothing filed
// after asOf influences an answer. Company names and tickers are the
// exception: EDGAR publishes only current ones, so [Companies.Search] is not
// point in time.
type Companies struct {
	c *Client
}

// Companies returns the company data questions of c.
func (c *Client) Companies() *Companies { return &Companies{c: c} }

// companyState is what a Client keeps in memory for company questions.
type companyState struct {
	tickers atomic.Pointer[tickerCopy] // the decoded ticker file, once read

	mu    sync.Mutex
	facts map[string]*factsCopy // by 10-digit CIK, at most maxFactsInMemory
}

// maxFactsInMemory bounds the decoded companyfacts a Client keeps in memory.
const maxFactsInMemory = 32

// Limits of the company questions.
const (
	DefaultCompanyMatches = 5      // matches of a search when no limit is given
	MaxCompanyMatches     = 100    // the most matches a search returns
	DefaultFilings        = 10     // filings listed when no limit is given
	MaxFilings            = 100    // the most filings listed
	DefaultFactYears      = 3      // fiscal years of facts when no Years is given
	MaxFactYears          = 30     // the most fiscal years of facts
	DefaultSectionChars   = 20000  // characters of a section when no limit is given
	MaxSectionChars       = 100000 // the most characters of a section
	MaxCompanyQueryLen    = 100    // the longest search text, in characters
)

type companyOptions struct {
	limit, years, maxChars          int
	limitSet, yearsSet, maxCharsSet bool
	form                            Form
	formSet                         bool
}

// A SearchOption adjusts [Companies.Search]: [Limit].
type SearchOption interface{ applySearch(*companyOptions) }

// A CompanyFilingsOption adjusts [Companies.Filings]: [Limit] and
// [FormType].
type CompanyFilingsOption interface{ applyFilings(*companyOptions) }

// A FactsOption adjusts [Companies.Facts]: [Years].
type FactsOption interface{ applyFacts(*companyOptions) }

// A SectionOption adjusts [Companies.Section]: [MaxChars].
type SectionOption interface{ applySection(*companyOptions) }

// FormType keeps only filings of one form in [Companies.Filings], matched
// exactly but case-insensitively: "10-K" does not include "10-K/A".
func FormType(form Form) CompanyFilingsOption { return formTypeOption(form) }

type formTypeOption Form

func (f formTypeOption) applyFilings(o *companyOptions) { o.form, o.formSet = Form(f), true }

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

// companyOpts applies the options of one question of Companies.
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
func companyQuery[O any](opts []O, apply func(O, *companyOptions), cik string, asOf Date) (companyOptions, string, error) {
	o := companyOpts(opts, apply)
	id, err := parseCIK(cik)
	if err != nil {
		return o, "", err
	}
	return o, id, checkDate("asOf", asOf)
}

// checkRange declines a value set outside [lo, hi] and returns def when it
// is not set.
func checkRange(name string, v int, set bool, lo, hi, def int) (int, error) {
	if !set {
		return def, nil
	}
	if err := bounds.Check(name, v, lo, hi); err != nil {
		return 0, Decline(InvalidArgument, "%v", err)
	}
	return v, nil
}

// A CompanyMatch is one company found by [Companies.Search].
type CompanyMatch struct {
	CIK       string   // without leading zeros, as everywhere in this package
	Name      string   // EDGAR's current name of the company
	Tickers   []string // current tickers, the primary one first; may be empty
	Rank      string   // how it matched: exact_ticker, exact_name, name_prefix, name_substring or word_overlap
	SourceURL string   // the document the match comes from
}

// CompanySearch is the answer of [Companies.Search].
type CompanySearch struct {
	Query   string
	Matches []CompanyMatch // best first
	// Note says that names and tickers are current, not point in time.
	Note string
}

// SearchNote is the note of every [CompanySearch].
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
// Options: [Limit]. It declines with [InvalidArgument] for a name that
// is empty or longer than [MaxCompanyQueryLen] characters once trimmed, or a
// limit out of range.
func (cs *Companies) Search(ctx context.Context, name string, opts ...SearchOption) (*CompanySearch, error) {
	o := companyOpts(opts, SearchOption.applySearch)
	limit, err := checkRange("Limit", o.limit, o.limitSet, 1, MaxCompanyMatches, DefaultCompanyMatches)
	if err != nil {
		return nil, err
	}
	text := strings.TrimSpace(name)
	if n := utf8.RuneCountInString(text); n == 0 || n > MaxCompanyQueryLen || !utf8.ValidString(text) {
		return nil, Decline(InvalidArgument, "name must be 1 to %d characters of text", MaxCompanyQueryLen)
	}
	x, err := cs.c.tickerIndex(ctx)
	if err != nil {
		return nil, err
	}
	out := &CompanySearch{Query: text, Matches: []CompanyMatch{}, Note: SearchNote}
	for _, m := range x.Search(text, limit) {
		cik, err := parseCIK(m.CIK) // the file's CIKs are 10 digits; answers' are unpadded
		if err != nil {
			return nil, err
		}
		out.Matches = append(out.Matches, CompanyMatch{
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
func (c *Client) tickerIndex(ctx context.Context) (*tickers.Index, error) {
	now := c.clock.Now()
	if t := c.company.tickers.Load(); t != nil && fresh(t.fetched, now) {
		return t.index, nil
	}
	v, err := c.edgar.Shared(ctx, keyTickers, func() (any, error) {
		if b, ok := c.edgar.Cached(ctx, keyTickers); ok {
			if fetched, body, ok := unstamp(b); ok && fresh(fetched, now) {
				if x, err := tickers.Decode(body); err == nil {
					t := &tickerCopy{fetched: fetched, index: x}
					c.company.tickers.Store(t)
					return t, nil
				}
			}
		}
		body, err := c.edgar.Fetch(ctx, tickersURL)
		if err != nil {
			return nil, err
		}
		x, err := tickers.Decode(body)
		if err != nil {
			return nil, &ParseError{Document: tickersURL, Err: err}
		}
		t := &tickerCopy{fetched: now, index: x}
		c.edgar.Keep(ctx, keyTickers, stamp(now, body))
		c.company.tickers.Store(t)
		return t, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*tickerCopy).index, nil
}
