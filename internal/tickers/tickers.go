// Package tickers decodes EDGAR's list of companies and tickers,
// https://www.sec.gov/files/company_tickers.json, and searches it by ticker
// or name.
//
// The file has one row per ticker: {"0":{"cik_str":320193,"ticker":"AAPL",
// "title":"Apple Inc."},...}. A company with several tickers (share classes,
// preferred series) has several rows; [Decode] folds them into one
// [Company] whose tickers keep the file's order, so the primary ticker comes
// first. Rows are ordered by their numeric keys, which is the file's order;
// EDGAR lists large companies first.
//
// Tickers and names in the file are current ones. The file has no history,
// so a search is not point in time.
package tickers

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/edgar13f/edgar13f/internal/edgarid"
)

// Search limits: a search returns at most MaxLimit matches, DefaultLimit
// when the caller gives no limit.
const (
	DefaultLimit = 5
	MaxLimit     = 100
)

// A Company is one CIK of the file.
type Company struct {
	CIK     string   // 10 digits, zero-padded
	Name    string   // the file's title, as given
	Tickers []string // in the file's order; the first is the primary ticker
}

// A Rank says how a company matched a query. Lower ranks sort first.
type Rank int

// The ranks, best first.
const (
	ExactTicker   Rank = iota + 1 // the query is one of the company's tickers
	ExactName                     // the query is the company's name
	NamePrefix                    // the name starts with the query
	NameSubstring                 // the name contains the query
	WordOverlap                   // the name shares a significant word with the query
)

var rankNames = [...]string{"", "exact_ticker", "exact_name", "name_prefix", "name_substring", "word_overlap"}

// String returns the rank's snake_case name, e.g. "exact_ticker".
func (r Rank) String() string {
	if r < ExactTicker || r > WordOverlap {
		return "Rank(" + strconv.Itoa(int(r)) + ")"
	}
	return rankNames[r]
}

// A Match is one company found by [Index.Search] and how it matched.
type Match struct {
	Company
	Rank Rank
}

// An Index is the decoded file, ready to search. It is safe for concurrent
// use by multiple goroutines.
type Index struct {
	companies []entry
}

// entry is a company with its search keys.
type entry struct {
	Company
	pos     int      // file position of its first row
	name    string   // folded name: words joined by one space
	squeeze string   // folded name without spaces
	words   []string // distinct significant words of the folded name
	tickers []string // normalized tickers, in order
}

type row struct {
	CIK    json.RawMessage `json:"cik_str"`
	Ticker string          `json:"ticker"`
	Title  string          `json:"title"`
}

// Decode reads company_tickers.json. A row without a CIK of 1 to 10 digits
// (a JSON number or string), or an input that is not a JSON object of rows,
// is an error. Rows with an empty ticker keep the company but add no ticker.
func Decode(data []byte) (*Index, error) {
	// The file has about 10,000 rows of about 75 bytes.
	rows := make(map[string]row, len(data)/64)
	if err := json.Unmarshal(data, &rows); err != nil {
		return nil, fmt.Errorf("tickers: %v", err)
	}
	type keyed struct {
		key string
		n   int // numeric key, or -1
		row row
	}
	ordered := make([]keyed, 0, len(rows))
	for k, r := range rows {
		n, err := strconv.Atoi(k)
		if err != nil || n < 0 {
			n = -1
		}
		ordered = append(ordered, keyed{k, n, r})
	}
	// Numeric keys in numeric order, then any others by key.
	slices.SortFunc(ordered, func(a, b keyed) int {
		if (a.n < 0) != (b.n < 0) {
			if a.n < 0 {
				return 1
			}
			return -1
		}
		if c := cmp.Compare(a.n, b.n); c != 0 {
			return c
		}
		return strings.Compare(a.key, b.key)
	})
	x := &Index{companies: make([]entry, 0, len(ordered))}
	byCIK := make(map[string]int, len(ordered))
	for pos, k := range ordered {
		cik, err := parseCIK(k.row.CIK)
		if err != nil {
			return nil, fmt.Errorf("tickers: row %q: %v", k.key, err)
		}
		i, ok := byCIK[cik]
		if !ok {
			i = len(x.companies)
			byCIK[cik] = i
			x.companies = append(x.companies, newEntry(cik, k.row.Title, pos))
		}
		e := &x.companies[i]
		if t := strings.TrimSpace(k.row.Ticker); t != "" && !slices.Contains(e.Tickers, t) {
			e.Tickers = append(e.Tickers, t)
			e.tickers = append(e.tickers, Norm(t))
		}
	}
	return x, nil
}

// parseCIK reads a CIK given as a JSON number or string and returns its
// ten-digit form.
func parseCIK(raw json.RawMessage) (string, error) {
	s := string(bytes.TrimSpace(raw))
	if uq, err := strconv.Unquote(s); err == nil {
		s = strings.TrimSpace(uq)
	}
	cik, ok := edgarid.CIK10(s)
	if !ok {
		return "", fmt.Errorf("CIK %s is not 1 to 10 digits", raw)
	}
	return cik, nil
}

func newEntry(cik, title string, pos int) entry {
	words := fold(title)
	e := entry{Company: Company{CIK: cik, Name: title}, pos: pos,
		name: strings.Join(words, " "), squeeze: strings.Join(words, "")}
	for _, w := range words {
		if significant(w) && !slices.Contains(e.words, w) {
			e.words = append(e.words, w)
		}
	}
	return e
}

// Len returns the number of companies.
func (x *Index) Len() int { return len(x.companies) }

// Search returns the companies best matching query, best first, at most
// limit of them (DefaultLimit when limit < 1, MaxLimit when above it).
//
// Matching ignores case. Names are compared folded: lower-cased, with
// apostrophes dropped and every other run of characters that are not letters
// or digits read as one space, so "JPMorgan Chase & Co." equals
// "JPMORGAN CHASE & CO". Tickers are compared upper-cased with '.', '/' and
// spaces read as '-', so "BRK.B" finds BRK-B. The ranks, best first:
//
//  1. [ExactTicker]: the query is one of the company's tickers; companies
//     whose primary ticker it is come first.
//  2. [ExactName]: the folded query equals the folded name.
//  3. [NamePrefix]: the folded name starts with the folded query (or, with
//     all spaces removed from both, the name starts with the query, so
//     "jp morgan" finds JPMORGAN CHASE & CO).
//  4. [NameSubstring]: the folded name contains the folded query (or does
//     with spaces removed); matches at the start of a word come first.
//  5. [WordOverlap]: the name and the query share at least one significant
//     word (a whole folded word of two or more characters that is not a
//     legal form or filler word such as "inc", "corp", "co", "ltd", "the",
//     "of", "and", "group" or "holdings"); more shared significant words
//     come first.
//
// Within a rank (and sub-rank), companies keep the file's order, which lists
// large companies first; the CIK breaks any remaining tie. A company appears
// once, at its best rank. An empty query matches nothing.
func (x *Index) Search(query string, limit int) []Match {
	if limit < 1 {
		limit = DefaultLimit
	}
	limit = min(limit, MaxLimit)
	qt := Norm(query)
	qwords := fold(query)
	qname := strings.Join(qwords, " ")
	qsqueeze := strings.Join(qwords, "")
	var qsig []string
	for _, w := range qwords {
		if significant(w) && !slices.Contains(qsig, w) {
			qsig = append(qsig, w)
		}
	}
	type hit struct {
		e     *entry
		rank  Rank
		score int // lower is better, within a rank
	}
	var hits []hit
	for i := range x.companies {
		e := &x.companies[i]
		h := hit{e: e}
		switch {
		case qt != "" && slices.Contains(e.tickers, qt):
			h.rank = ExactTicker
			h.score = slices.Index(e.tickers, qt)
		case qname == "":
			continue
		case e.name == qname:
			h.rank = ExactName
		case strings.HasPrefix(e.name, qname):
			h.rank = NamePrefix
		case strings.HasPrefix(e.squeeze, qsqueeze):
			h.rank, h.score = NamePrefix, 1
		case strings.Contains(e.name, qname):
			h.rank, h.score = NameSubstring, 1
			if strings.Contains(" "+e.name, " "+qname) {
				h.score = 0
			}
		case strings.Contains(e.squeeze, qsqueeze):
			h.rank, h.score = NameSubstring, 2
		default:
			shared := 0
			for _, w := range qsig {
				if slices.Contains(e.words, w) {
					shared++
				}
			}
			if shared == 0 {
				continue
			}
			h.rank, h.score = WordOverlap, -shared
		}
		hits = append(hits, h)
	}
	slices.SortFunc(hits, func(a, b hit) int {
		if c := cmp.Compare(a.rank, b.rank); c != 0 {
			return c
		}
		if c := cmp.Compare(a.score, b.score); c != 0 {
			return c
		}
		if c := cmp.Compare(a.e.pos, b.e.pos); c != 0 {
			return c
		}
		return strings.Compare(a.e.CIK, b.e.CIK)
	})
	out := make([]Match, 0, min(limit, len(hits)))
	for _, h := range hits[:min(limit, len(hits))] {
		c := h.e.Company
		c.Tickers = slices.Clone(c.Tickers)
		out = append(out, Match{Company: c, Rank: h.rank})
	}
	return out
}

// fold returns the words of s: lower-cased runs of letters and digits.
// Apostrophes inside a word are dropped ("McDonald's" is "mcdonalds").
func fold(s string) []string {
	var words []string
	var w []byte
	flush := func() {
		if len(w) > 0 {
			words = append(words, string(w))
			w = w[:0]
		}
	}
	for _, r := range s {
		switch {
		case r == '\'' || r == '’':
			continue
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			w = utf8.AppendRune(w, unicode.ToLower(r))
		default:
			flush()
		}
	}
	flush()
	return words
}

// Norm writes a ticker as EDGAR does: surrounding white space removed,
// upper case, and the class separators '.', '/' and ' ' as '-' ("brk.b"
// is "BRK-B"). Tickers are compared in this form.
func Norm(t string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '.', '/', ' ':
			return '-'
		}
		return unicode.ToUpper(r)
	}, strings.TrimSpace(t))
}

// significant reports whether a folded word can make two names similar:
// it is longer than one character and not a stop word.
func significant(w string) bool { return len(w) > 1 && !stopWords[w] }

// stopWords are words too common in company names to make two names
// similar: legal forms, articles and conjunctions.
var stopWords = map[string]bool{
	"a": true, "an": true, "and": true, "the": true, "of": true, "de": true,
	"inc": true, "incorporated": true, "corp": true, "corporation": true,
	"co": true, "cos": true, "company": true, "companies": true,
	"ltd": true, "limited": true, "llc": true, "lp": true, "llp": true, "plc": true,
	"sa": true, "ag": true, "nv": true, "se": true,
	"group": true, "holding": true, "holdings": true,
}
