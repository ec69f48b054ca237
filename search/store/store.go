// Package store defines what the filing search keeps and how it asks for it:
// the [Store] interface, its records ([Filing], [Chunk]) and the [Filter]
// every query carries. The embedded store (package
// github.com/edgar13f/edgar13f/search/store/embedded, the default) and the
// OpenSearch store (module github.com/edgar13f/edgar13f/search/opensearch)
// implement it; package storetest holds the conformance tests both pass.
//
// Point in time is part of the contract, not a convenience: a Store never
// returns a chunk of a filing whose FilingDate is after Filter.AsOf, and a
// lexical query scores only against the chunks visible on AsOf, so that a
// filing made later changes neither which chunks come back nor their order.
package store

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/edgar13f/edgar13f"
)

// A Filing is one indexed filing: the facts every hit of it cites.
type Filing struct {
	Accession  string        // dashed, e.g. "0000320193-24-000123"
	CIK        string        // without leading zeros
	Ticker     string        // the ticker it was indexed under ("" when indexed by CIK and none is known)
	Company    string        // EDGAR's name of the filer
	Form       string        // "10-K", "10-K/A", "10-Q", ...
	FilingDate edgar13f.Date // EDGAR's Filing Date; it alone decides visibility
	Period     edgar13f.Date // period of report
	FiscalYear int           // the company's own fiscal year of the report
	URL        string        // the primary document's URL
	Chunks     int           // number of chunks stored for the filing
}

// A Chunk is a piece of one Item of a filing, at most the chunker's token
// limit long.
type Chunk struct {
	ID        string // hex sha1(accession|item|index), first 16 characters
	Accession string // the filing it belongs to
	Item      string // "1A", "7" in a 10-K; "I-2", "II-1A" in a 10-Q
	ItemTitle string // the Item heading's title, "" when none
	Index     int    // position within the Item, from 0
	Tokens    int    // cl100k_base tokens in Text
	Text      string
}

// ValidateChunks checks the chunks of one Put of the filing with accession
// number accession: every chunk has an ID, no ID appears twice, and every
// chunk belongs to that filing. The error names the first chunk at fault; a
// store wraps it in the error of the Put it refuses.
func ValidateChunks(accession string, chunks []Chunk) error {
	seen := make(map[string]bool, len(chunks))
	for i, c := range chunks {
		switch {
		case c.ID == "":
			return fmt.Errorf("chunk %d has no id", i)
		case seen[c.ID]:
			return fmt.Errorf("chunk id %s appears twice", c.ID)
		case c.Accession != accession:
			return fmt.Errorf("chunk %s belongs to accession %s", c.ID, c.Accession)
		}
		seen[c.ID] = true
	}
	return nil
}

// A Filter narrows a query. AsOf is required; every other field is exact
// and ignored when zero.
type Filter struct {
	AsOf   edgar13f.Date // only filings with FilingDate on or before AsOf
	Ticker string        // upper case
	CIK    string        // without leading zeros
	Form   string        // exact, as stored ("10-K" does not include "10-K/A")
	Item   string        // exact, as stored
	// Items, when not empty, keeps chunks whose Item is one of these
	// (exact, as stored): an Item argument that names an Item of a 10-K
	// and one of a 10-Q ("1A" is "1A" in a 10-K and "II-1A" in a 10-Q)
	// keeps the chunks of both. With Item set as well, both apply.
	Items      []string
	FiscalYear int
}

// KeepsItem reports whether a chunk of the Item item passes f's Item and
// Items filters.
func (f Filter) KeepsItem(item string) bool {
	return (f.Item == "" || item == f.Item) && (len(f.Items) == 0 || slices.Contains(f.Items, item))
}

// A Match is a chunk found by a query, with its filing and score.
type Match struct {
	Chunk  Chunk
	Filing Filing
	Score  float64
}

// Meta is what a store records about the embeddings it holds: the model
// that made its vectors and their dimension. The zero Meta is a store
// without vectors (BM25 only).
type Meta struct {
	Model string
	Dim   int
}

// String returns "model (dim N)", or "no embedder".
func (m Meta) String() string {
	if m.Model == "" && m.Dim == 0 {
		return "no embedder"
	}
	return fmt.Sprintf("%s (dim %d)", m.Model, m.Dim)
}

// A Store keeps indexed filings and answers queries over them. It is safe
// for concurrent use. A store may fail a read that Puts kept overlapping
// (OpenSearch's writers, or Puts replacing the filings an embedded store's
// read needs, for about two seconds) with an error matching [ErrBusy]
// rather than answer from a mix of versions; the read can be tried again.
type Store interface {
	// Meta returns the embedder recorded in the store, or the zero Meta
	// when the store holds no filing yet or was built without vectors.
	// Use [Compatible] to check an embedder against it.
	Meta(ctx context.Context) (Meta, error)

	// Put stores a filing's chunks, replacing exactly the chunks the store
	// held for that accession, atomically: a query sees either none of the
	// new chunks or all of them, also after a crash at any point.
	// vectors is nil, or holds one vector per chunk made by the embedder
	// meta names. A store holding filings of another Meta refuses with a
	// [*MismatchError].
	Put(ctx context.Context, f Filing, chunks []Chunk, vectors [][]float32, meta Meta) error

	// Filings returns the stored filings with FilingDate on or before asOf,
	// sorted by CIK (as a number), filing date and accession.
	Filings(ctx context.Context, asOf edgar13f.Date) ([]Filing, error)

	// Lexical returns the best k chunks for query by BM25 (English
	// analysis: lower case, stop words, stemming) among the chunks that
	// pass f, best first, ties by chunk ID. A chunk's BM25 document is
	// [LexicalText]: its filing's company name and its Item title as well
	// as its text. Term statistics count only the chunks of filings
	// visible on f.AsOf. The score is BM25 as package storetest's case
	// BM25Scores states it: bleve's "en" analysis, each distinct query
	// term once, idf = ln(1 + (N − df + 0.5)/(df + 0.5)) and Lucene's
	// idf·tf/(tf + k1·(1 − b + b·dl/avgdl)), k1 1.2, b 0.75, so that every
	// store scores a query alike.
	Lexical(ctx context.Context, query string, f Filter, k int) ([]Match, error)

	// Nearest returns the k chunks closest to vector (cosine similarity)
	// among the chunks that pass f, best first, ties by chunk ID. A store
	// without vectors (an empty store included) returns [ErrNoVectors].
	Nearest(ctx context.Context, vector []float32, f Filter, k int) ([]Match, error)

	// Chunk returns the chunk with the given ID and its filing, whatever
	// the filing's date (the caller applies asOf), or ok false.
	Chunk(ctx context.Context, id string) (c Chunk, f Filing, ok bool, err error)

	// ItemChunks returns the chunks of one Item of a filing in Index order.
	ItemChunks(ctx context.Context, accession, item string) ([]Chunk, error)

	// Close releases the store.
	Close() error
}

// LexicalText returns what a store scores a chunk by for [Store.Lexical]:
// the company name of its filing, its Item title and its text, one a line.
// A report calls itself "the Company" and rarely repeats its own name or
// the Item's heading, while a question names both ("Apple risks related
// to suppliers"); the reference retrieval system scores the same three
// fields (a multi_match over text, item title and company). Only the
// scoring uses it: a match returns the chunk's Text unchanged.
func LexicalText(f Filing, c Chunk) string {
	return f.Company + "\n" + c.ItemTitle + "\n" + c.Text
}

// ErrBusy is matched (with errors.Is) by the error of a read that Puts
// kept overlapping: nothing is answered from a mix of versions, and the
// read can be tried again once the writes settle.
var ErrBusy = errors.New("edgar13f/search: the store was being written throughout the read; try again")

// ErrNoVectors is returned by [Store.Nearest] for a store built without an
// embedder.
var ErrNoVectors = errors.New("edgar13f/search: the store holds no vectors (it was built without an embedder)")

// A MismatchError reports a store built with one embedder used with another.
type MismatchError struct {
	Stored, Given Meta
}

// Error names both embedders.
func (e *MismatchError) Error() string {
	return fmt.Sprintf("edgar13f/search: the store was built with embedder %s, not %s: use the same embedder, or index into a new store", e.Stored, e.Given)
}

// Compatible reports an error when a store recording stored may not take
// vectors of given: nil when the store is empty (stored is zero and it
// holds no filing) or when both are equal.
func Compatible(stored, given Meta, empty bool) error {
	if empty || stored == given {
		return nil
	}
	return &MismatchError{Stored: stored, Given: given}
}
