package search

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/bounds"
	"github.com/edgar13f/edgar13f/internal/check"
	"github.com/edgar13f/edgar13f/internal/edgarid"
	"github.com/edgar13f/edgar13f/internal/sections"
	"github.com/edgar13f/edgar13f/internal/tickers"
	"github.com/edgar13f/edgar13f/search/store"
)

// This file answers questions from the store alone: Search and Chunk.

// Fiscal years a FiscalYear filter may name.
const (
	minFiscalYear = 1990
	maxFiscalYear = 2200
)

// errLeak reports a store that returned what its filter excludes. The
// message names neither the chunk nor its filing: a chunk of a filing made
// after asOf must not show through an error either.
var errLeak = errors.New("search: the store returned chunks its query's filter excludes (of a filing made after asOf, or of another company, form, item or fiscal year); no answer is given: this is a bug in the store")

// Search returns the chunks that best answer query among the filings made
// on or before asOf, best first, at most [Limit] of them (default
// [DefaultHits]).
//
// Modes (a [Mode] option): [BM25] ranks by BM25 over English-analysed text;
// [KNN] by cosine similarity of the chunk's vector to the query's
// embedding; [Hybrid] fuses the top [FusionDepth] of both by the Engine's
// [Fusion] (by default reciprocal rank fusion, 1/([RRFConstant]+rank)
// summed). The default is BM25, or Hybrid when the embedder's model is
// one on which hybrid measured better ([ModelInfo].Hybrid). Equal scores are ordered by chunk
// ID, so the same question on the same store always gets the same answer.
//
// Point in time: only chunks of filings with a filing date on or before
// asOf are ranked, counted in BM25's term statistics, returned or listed
// in the Coverage; the answer equals the one of a store that never held
// any later filing. Should the store return a chunk of a later filing (or
// one its filter excludes), Search fails rather than answer with it.
//
// Filters ([Ticker], [CIK], [FormType], [Item], [FiscalYear]) are exact. It
// declines [edgar13f.InvalidArgument] for a query that is empty or longer
// than [MaxQueryLen] characters once trimmed, a malformed filter, a Limit
// out of range, an unknown mode, a zero asOf, and for [KNN] or [Hybrid] on an
// Engine without embedder. A query embedding of another model or
// dimension than the store's vectors is refused with a
// [*store.MismatchError]. Search never reaches EDGAR.
func (e *Engine) Search(ctx context.Context, query string, asOf edgar13f.Date, opts ...SearchOption) (*Result, error) {
	var o searchOptions
	for _, opt := range opts {
		if opt != nil {
			opt.applySearch(&o)
		}
	}
	q := strings.TrimSpace(query)
	if n := utf8.RuneCountInString(q); n == 0 || n > MaxQueryLen || !utf8.ValidString(q) {
		return nil, decline(edgar13f.InvalidArgument, "the query must be 1 to %d characters of text", MaxQueryLen)
	}
	if err := checkAsOf(asOf); err != nil {
		return nil, err
	}
	f, err := o.filter(asOf)
	if err != nil {
		return nil, err
	}
	k := DefaultHits
	if o.limitSet {
		if err := bounds.Check("Limit", o.limit, 1, MaxHits); err != nil {
			return nil, decline(edgar13f.InvalidArgument, "%v hits", err)
		}
		k = o.limit
	}
	mode, err := e.mode(o)
	if err != nil {
		return nil, err
	}

	cov, err := e.coverage(ctx, asOf)
	if err != nil {
		return nil, err
	}
	res := &Result{Query: q, AsOf: asOf, Mode: mode, Hits: []Hit{}, Coverage: cov}
	if len(cov.Filings) == 0 {
		// Nothing is visible: the answer is empty whatever the store holds
		// for later dates (its embedder included).
		return res, nil
	}
	if e.faults.noAsOfFilter {
		f.AsOf = lastDate
	}
	var matches []store.Match
	switch mode {
	case BM25:
		matches, err = e.store.Lexical(ctx, q, f, k)
	case KNN:
		matches, err = e.nearest(ctx, q, f, k)
	case Hybrid:
		var lex, vec []store.Match
		if lex, err = e.store.Lexical(ctx, q, f, FusionDepth); err != nil {
			return nil, err
		}
		if vec, err = e.nearest(ctx, q, f, FusionDepth); err != nil {
			return nil, err
		}
		if err = e.checkMatches(lex, f, asOf); err != nil {
			return nil, err
		}
		if err = e.checkMatches(vec, f, asOf); err != nil {
			return nil, err
		}
		matches = e.fusion.fuse(lex, vec)
	}
	if err != nil {
		return nil, err
	}
	if err := e.checkMatches(matches, f, asOf); err != nil {
		return nil, err
	}
	for i, m := range matches[:min(k, len(matches))] {
		h := hit(m.Chunk, m.Filing)
		h.Rank, h.Score = i+1, m.Score
		res.Hits = append(res.Hits, h)
	}
	return res, nil
}

// mode returns the mode asked for, or the default, and declines a mode the
// Engine cannot serve.
func (e *Engine) mode(o searchOptions) (Mode, error) {
	if !o.modeSet {
		if e.embedder != nil {
			if m, ok := KnownModel(e.embedder.Model()); ok && m.Hybrid {
				return Hybrid, nil
			}
		}
		return BM25, nil
	}
	m := Mode(strings.ToLower(strings.TrimSpace(string(o.mode))))
	switch m {
	case BM25:
	case KNN, Hybrid:
		if e.embedder == nil {
			return "", decline(edgar13f.InvalidArgument, "mode %s needs an embedder, and none is configured: set EDGAR13F_EMBED_URL and EDGAR13F_EMBED_MODEL, or EDGAR13F_EMBED_MODEL=local:MODEL alone, for the example programs (CLI, MCP server, HTTP API), or pass search.WithEmbedder to search.New; mode bm25 needs none", m)
		}
	default:
		return "", decline(edgar13f.InvalidArgument, "mode %q is none of bm25, knn, hybrid", o.mode)
	}
	return m, nil
}

// filter checks the filter options and returns the store's filter.
func (o searchOptions) filter(asOf edgar13f.Date) (store.Filter, error) {
	f := store.Filter{AsOf: asOf}
	if o.tickerSet {
		if !isTicker(strings.TrimSpace(o.ticker)) {
			return f, decline(edgar13f.InvalidArgument, "ticker %q must be 1 to 10 letters, digits, '.' or '-', starting with a letter", o.ticker)
		}
		f.Ticker = tickers.Norm(o.ticker)
	}
	if o.cikSet {
		cik, fail := check.TrimmedCIK(o.cik)
		if fail != nil {
			return f, declineOfCheck(fail)
		}
		f.CIK = cik
	}
	if o.formSet {
		form, err := checkForm(string(o.form))
		if err != nil {
			return f, err
		}
		f.Form = form
	}
	if o.itemSet {
		items, err := itemNames(o.item, f.Form)
		if err != nil {
			return f, err
		}
		if len(items) == 1 {
			f.Item = items[0]
		} else {
			f.Items = items
		}
	}
	if o.fySet {
		if err := bounds.Check("fiscal year", o.fiscalYear, minFiscalYear, maxFiscalYear); err != nil {
			return f, decline(edgar13f.InvalidArgument, "%v", err)
		}
		f.FiscalYear = o.fiscalYear
	}
	return f, nil
}

// itemNames returns the Items, as stored, that an Item filter keeps: the
// Item arg names in a 10-K ("7") and the one it names in a 10-Q ("I-2"),
// read in the one vocabulary of Item names ([sections.ItemsNamed]) that
// Companies.Section reads too; with a form filter, only the Item it names
// in that form. It declines an argument that names no Item of the form
// (of neither form without one).
func itemNames(arg, form string) ([]string, error) {
	if form != "" {
		it, err := sections.ParseItem(form, arg)
		if err != nil {
			return nil, decline(edgar13f.InvalidArgument, "item %q for a %s: %s", arg, form, strings.TrimPrefix(err.Error(), "sections: "))
		}
		return []string{it.String()}, nil
	}
	a, aOK, q, qOK, err := sections.ItemsNamed(arg)
	if err != nil {
		return nil, decline(edgar13f.InvalidArgument, "%s", sections.NoItemMessage(arg))
	}
	var out []string
	if aOK {
		out = append(out, a.String())
	}
	if qOK {
		out = append(out, q.String())
	}
	return out, nil
}

// nearest embeds the query and asks the store for its nearest chunks. A
// store whose vectors come from another model or dimension (or that has
// none) is refused.
func (e *Engine) nearest(ctx context.Context, q string, f store.Filter, k int) ([]store.Match, error) {
	stored, err := e.store.Meta(ctx)
	if err != nil {
		return nil, err
	}
	v, err := e.embedQuery(ctx, q)
	if err != nil {
		return nil, err
	}
	if given := (store.Meta{Model: e.embedder.Model(), Dim: len(v[0])}); given != stored {
		return nil, &store.MismatchError{Stored: stored, Given: given}
	}
	return e.store.Nearest(ctx, v[0], f, k)
}

// checkMatches fails when the store returned a chunk the filter excludes:
// above all one of a filing made after asOf.
func (e *Engine) checkMatches(ms []store.Match, f store.Filter, asOf edgar13f.Date) error {
	for _, m := range ms {
		fl := m.Filing
		late := asOf.Before(fl.FilingDate)
		if late && !e.faults.noAsOfCheck {
			return errLeak
		}
		if e.faults.noFilterCheck {
			continue
		}
		if m.Chunk.Accession != fl.Accession ||
			f.Ticker != "" && fl.Ticker != f.Ticker ||
			f.CIK != "" && fl.CIK != f.CIK ||
			f.Form != "" && fl.Form != f.Form ||
			!f.KeepsItem(m.Chunk.Item) ||
			f.FiscalYear != 0 && fl.FiscalYear != f.FiscalYear {
			return errLeak
		}
	}
	return nil
}

// coverage returns the filings the store holds as of asOf.
func (e *Engine) coverage(ctx context.Context, asOf edgar13f.Date) (Coverage, error) {
	at := asOf
	if e.faults.coverageAll {
		at = lastDate
	}
	fs, err := e.store.Filings(ctx, at)
	if err != nil {
		return Coverage{}, err
	}
	cov := Coverage{Filings: make([]store.Filing, 0, len(fs))}
	ciks := map[string]bool{}
	for _, f := range fs {
		if at.Before(f.FilingDate) {
			return Coverage{}, errors.New("search: the store listed a filing made after asOf; no answer is given: this is a bug in the store")
		}
		cov.Filings = append(cov.Filings, f)
		ciks[f.CIK] = true
	}
	slices.SortFunc(cov.Filings, func(a, b store.Filing) int {
		return cmp.Or(cmp.Compare(cikNum(a.CIK), cikNum(b.CIK)), cmp.Compare(a.CIK, b.CIK),
			a.FilingDate.Compare(b.FilingDate), cmp.Compare(a.Accession, b.Accession))
	})
	cov.Companies = len(ciks)
	return cov, nil
}

// cikNum is a CIK's number, for sorting "320193" before "1045810".
func cikNum(cik string) uint64 {
	n, _ := edgarid.ParseCIK(cik)
	return n
}

// hit is the Hit of chunk c of filing f, without rank and score.
func hit(c store.Chunk, f store.Filing) Hit {
	return Hit{
		ChunkID: c.ID, Ticker: f.Ticker, CIK: f.CIK, Company: f.Company, Form: f.Form,
		Accession: f.Accession, FilingDate: f.FilingDate, Period: f.Period,
		FiscalYear: f.FiscalYear, Item: c.Item, ItemTitle: c.ItemTitle, ChunkIndex: c.Index,
		Tokens: c.Tokens, Text: c.Text, URL: f.URL,
	}
}

// Chunk returns the chunk id with its neighbours in the same Item, up to
// [Span] (default [DefaultSpan]) on each side, in chunk order. A chunk of
// a filing made after asOf declines [edgar13f.NotYetFiled] and reveals
// nothing of it (the message names only the id and asOf); an unknown id
// declines [edgar13f.UnknownChunk]; a malformed id (not 16 hex digits), a
// Span out of range or a zero asOf declines [edgar13f.InvalidArgument].
// Chunk never reaches EDGAR.
func (e *Engine) Chunk(ctx context.Context, id string, asOf edgar13f.Date, opts ...ChunkOption) (*ChunkAnswer, error) {
	o := chunkOptions{span: DefaultSpan}
	for _, opt := range opts {
		if opt != nil {
			opt.applyChunk(&o)
		}
	}
	cid := strings.ToLower(strings.TrimSpace(id))
	if len(cid) != 16 || strings.Trim(cid, "0123456789abcdef") != "" {
		return nil, decline(edgar13f.InvalidArgument, "chunk id %q must be 16 hexadecimal digits", id)
	}
	if err := checkAsOf(asOf); err != nil {
		return nil, err
	}
	span := o.span
	if err := bounds.Check("span", span, 0, MaxSpan); err != nil {
		return nil, decline(edgar13f.InvalidArgument, "%v", err)
	}
	c, f, ok, err := e.store.Chunk(ctx, cid)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, decline(edgar13f.UnknownChunk, "no indexed filing has a chunk %s", cid)
	}
	if asOf.Before(f.FilingDate) && !e.faults.noAsOfCheck {
		return nil, decline(edgar13f.NotYetFiled, "chunk %s is of no filing made on or before %s", cid, asOf)
	}
	out := &ChunkAnswer{Chunk: hit(c, f), Neighbors: []Hit{}}
	if span == 0 {
		return out, nil
	}
	all, err := e.store.ItemChunks(ctx, c.Accession, c.Item)
	if err != nil {
		return nil, err
	}
	for _, n := range all {
		if n.Index != c.Index && n.Index >= c.Index-span && n.Index <= c.Index+span {
			if n.Accession != c.Accession || n.Item != c.Item {
				return nil, fmt.Errorf("search: the store returned chunk %s of another Item as a neighbour of %s", n.ID, cid)
			}
			out.Neighbors = append(out.Neighbors, hit(n, f))
		}
	}
	slices.SortFunc(out.Neighbors, func(a, b Hit) int { return cmp.Compare(a.ChunkIndex, b.ChunkIndex) })
	return out, nil
}
