// Package search is the filing search of edgar13f: 10-K and 10-Q reports
// split into Items, cut into chunks, indexed for BM25 and (with an
// embedder) vector search, and searched point in time.
//
// An [Engine] indexes filings read through an [edgar13f.Client] (so the
// Client's User-Agent, request spacing, cache and mirror apply) into a
// [store.Store]: by default the embedded store of package
// github.com/edgar13f/edgar13f/search/store/embedded, which needs no
// server; for corpora beyond one machine, the OpenSearch store of module
// github.com/edgar13f/edgar13f/search/opensearch.
//
// Every question takes an asOf date. A search never returns, counts or
// scores against a chunk of a filing made after asOf, in any mode; a chunk
// of such a filing is declined [edgar13f.NotYetFiled] and nothing of it is
// revealed.
//
// # Use
//
// [Engine.Index] fills the store: for each company (a ticker or a CIK) its
// newest reports made on or before asOf: the newest original 10-K (or of
// the report kinds asked for, such as 10-Q) with every amendment of it
// (10-K/A) made by asOf. It is idempotent per accession number and may be run again
// at any time; a filing becomes searchable only when all its chunks are
// stored. [Engine.Search] ranks chunks by [BM25], [KNN] or [Hybrid]
// (both fused, by reciprocal rank fusion unless [WithFusion] says
// otherwise) with exact filters, and states its [Coverage];
// [Engine.Chunk] returns one chunk with its neighbours, for reading a hit
// in context. Search and Chunk read only the store.
//
// Declines are [*edgar13f.DeclineError] values with the root package's
// reasons: [edgar13f.InvalidArgument] for bad input, [edgar13f.UnknownCIK],
// [edgar13f.NotYetFiled] and [edgar13f.UnknownChunk]. A store built with
// another embedder is refused with a [*store.MismatchError]; a filing that
// cannot be indexed is an [*IndexError].
//
// This package is kept out of the root package's import graph: a program
// that asks only for 13F holdings does not link a search engine.
package search

import (
	"context"
	"sync"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/companies"
	"github.com/edgar13f/edgar13f/search/store"
)

// Limits and defaults of the filing search. The limits of the query
// options ([Limit], [Span]) are with them, in options.go.
const (
	RRFConstant  = 60   // c in 1/(c+rank)
	FusionDepth  = 30   // hits of each list that fusion reads
	MaxQueryLen  = 1000 // the longest query, in characters once trimmed
	MaxCompanies = 100  // the most companies one Index call takes
	EmbedBatch   = 64   // chunks embedded per Embed call while indexing
)

// An Embedder turns texts into vectors. Implementations must return one
// vector per text, in order, all of one dimension.
type Embedder interface {
	// Model names the model; it is recorded in the store.
	Model() string
	// Embed returns the vectors of texts.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// A QueryEmbedder is an [Embedder] that embeds search queries otherwise
// than passages, as models trained with a query instruction ask
// (bge-small-en-v1.5's "Represent this sentence for searching relevant
// passages: "). The Engine embeds chunks with Embed and queries with
// EmbedQuery.
type QueryEmbedder interface {
	Embedder
	// EmbedQuery returns the vectors of texts read as search queries.
	EmbedQuery(ctx context.Context, texts []string) ([][]float32, error)
}

// An Engine indexes and searches filings. It is safe for concurrent use.
//
// [Engine.Index] reads filings through the Client and writes them to the
// store; [Engine.Search] and [Engine.Chunk] read only the store and never
// reach EDGAR. Several Engines (and processes) may share one store.
type Engine struct {
	companies *companies.Companies // the company questions of the Client
	store     store.Store
	embedder  Embedder
	fusion    Fusion     // how Hybrid merges its lists
	windows   bool       // embed chunks longer than the model's window as windows
	window    int        // the model's window in its tokens; 0: KnownModel's
	items     itemReader // reads the Items of a filing; the Client's by default

	mu  sync.Mutex
	dim int // the embedder's dimension once known

	faults faults // planted by tests only
}

// faults are switches tests use to plant the bugs their checks guard
// against; all false in a real Engine.
type faults struct {
	noAsOfFilter  bool // query the store without the asOf filter
	noAsOfCheck   bool // keep matches of filings made after asOf
	coverageAll   bool // state coverage of every stored filing, whatever its date
	noFilterCheck bool // keep matches that fail the query's filter
}

// An Option configures an [Engine].
type Option func(*Engine)

// WithEmbedder makes the Engine embed chunks and queries with e. Without
// one (or with nil), the Engine is BM25 only and declines [KNN] and
// [Hybrid].
func WithEmbedder(e Embedder) Option { return func(en *Engine) { en.embedder = e } }

// WithFusion sets the rule by which [Hybrid] merges the BM25 and kNN
// lists (default [DefaultFusion]). A Fusion naming no known rule, or with
// a weight out of 0 to 1, makes New fail.
func WithFusion(f Fusion) Option { return func(en *Engine) { en.fusion = f } }

// New returns an Engine reading EDGAR through c and keeping its index in
// st. Only [Engine.Index] uses c; an Engine that only searches an existing
// store may be given a Client that cannot reach EDGAR at all (one reading
// an empty mirror, say). It fails when c or st is nil.
func New(c *edgar13f.Client, st store.Store, opts ...Option) (*Engine, error) {
	if c == nil || st == nil {
		return nil, errNilArgs
	}
	cs := companies.New(c)
	e := &Engine{companies: cs, store: st, fusion: DefaultFusion}
	for _, o := range opts {
		if o != nil {
			o(e)
		}
	}
	if err := e.fusion.check(); err != nil {
		return nil, err
	}
	e.items = clientItems(cs)
	return e, nil
}

// An IndexedFiling is one filing an Index call stored (or found stored).
type IndexedFiling struct {
	Ticker     string // the ticker it was indexed under; see [store.Filing]
	CIK        string // without leading zeros
	Accession  string
	Form       string
	FilingDate edgar13f.Date
	Period     edgar13f.Date
	FiscalYear int // the company's own; 0 when unknown
	Chunks     int
	Reused     bool // already in the store: not fetched or embedded again
	// Skipped says why a filing of the reports asked for has no chunks (its
	// document has no Item headings, or its Items no text); such a filing
	// is not stored, so that a later Index with a better splitter reads it
	// again. "" for every stored filing.
	Skipped string
}

// An IndexResult is the answer of [Engine.Index].
type IndexResult struct {
	AsOf        edgar13f.Date
	Indexed     []IndexedFiling // per company in the order given, per report kind, newest filing first
	ChunksTotal int             // chunks of the filings in Indexed, reused ones included
	Embedder    *store.Meta     // nil when the Engine has no embedder
}

// An IndexError reports a filing Index could not read, chunk, embed or
// store, or an amendment it could not place (one the filing list gives no
// period of report, so which report it amends is unknown: then nothing is
// stored). Filings stored before it stay stored (each filing is stored
// atomically), so running Index again resumes after them.
type IndexError struct {
	CIK       string // without leading zeros
	Accession string
	Form      string
	Err       error
}

// Error names the filing and the failure.
func (e *IndexError) Error() string {
	return "search: indexing the " + e.Form + " " + e.Accession + " of CIK " + e.CIK + ": " + e.Err.Error()
}

// Unwrap returns the underlying error.
func (e *IndexError) Unwrap() error { return e.Err }

// A Hit is one chunk found by a search, with everything needed to cite it.
type Hit struct {
	Rank       int     // from 1
	ChunkID    string  // see [store.Chunk]
	Score      float64 // BM25 score, cosine similarity, or RRF score by mode
	Ticker     string  // the ticker the filing was indexed under; "" when none is known
	CIK        string  // without leading zeros
	Company    string  // EDGAR's name of the filer
	Form       string
	Accession  string
	FilingDate edgar13f.Date
	Period     edgar13f.Date // period of report
	FiscalYear int           // the company's own; 0 when unknown
	Item       string        // "1A", "7"; "I-2", "II-1A" in a 10-Q
	ItemTitle  string        // "" when the heading has no title
	ChunkIndex int           // position within the Item, from 0
	Tokens     int           // cl100k_base tokens of Text
	Text       string
	URL        string // the filing's primary document
}

// Coverage is what the store holds as of a date: the filings a search
// could return.
type Coverage struct {
	Companies int            // distinct CIKs
	Filings   []store.Filing // sorted by CIK (as a number), filing date, accession
}

// A Result is the answer of [Engine.Search].
type Result struct {
	Query    string // as asked, trimmed
	AsOf     edgar13f.Date
	Mode     Mode
	Hits     []Hit // best first; empty, never nil, when nothing matches
	Coverage Coverage
}

// A ChunkAnswer is the answer of [Engine.Chunk]: the chunk and its
// neighbours in the same Item.
type ChunkAnswer struct {
	Chunk     Hit   // Rank and Score are zero
	Neighbors []Hit // up to span before and span after, in chunk order
}
