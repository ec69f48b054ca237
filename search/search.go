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
// This package is kept out of the root package's import graph: a program
// that asks only for 13F holdings does not link a search engine.
package search

import (
	"context"
	"errors"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search/store"
)

// A Mode is a way of ranking chunks.
type Mode string

// The search modes.
const (
	BM25   Mode = "bm25"   // lexical: BM25 over English-analysed text
	KNN    Mode = "knn"    // vectors: cosine similarity to the query's embedding
	Hybrid Mode = "hybrid" // reciprocal rank fusion of both lists
)

// Limits and defaults of the filing search.
const (
	DefaultK                 = 10 // hits when no K is given
	MaxK                     = 50 // the most hits
	RRFConstant              = 60 // c in 1/(c+rank)
	FusionDepth              = 30 // hits of each list that fusion reads
	DefaultFilingsPerCompany = 1
	MaxFilingsPerCompany     = 20
	MaxSpan                  = 5 // neighbours on each side in Chunk
)

// An Embedder turns texts into vectors. Implementations must return one
// vector per text, in order, all of one dimension.
type Embedder interface {
	// Model names the model; it is recorded in the store.
	Model() string
	// Embed returns the vectors of texts.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// An Engine indexes and searches filings. It is safe for concurrent use.
type Engine struct {
	client   *edgar13f.Client
	store    store.Store
	embedder Embedder
}

// An Option configures an [Engine].
type Option func(*Engine)

// WithEmbedder makes the Engine embed chunks and queries with e. Without
// one, the Engine is BM25 only and declines [KNN] and [Hybrid].
func WithEmbedder(e Embedder) Option { return func(en *Engine) { en.embedder = e } }

// New returns an Engine reading EDGAR through c and keeping its index in st.
func New(c *edgar13f.Client, st store.Store, opts ...Option) (*Engine, error) {
	e := &Engine{client: c, store: st}
	for _, o := range opts {
		o(e)
	}
	return e, nil
}

// Progress reports how far an [Engine.Index] has come.
type Progress struct {
	Company     string // ticker or CIK being indexed
	Accession   string // filing being indexed, "" while listing filings
	Filings     int    // filings done so far
	FilingsPlan int    // filings planned so far (grows as companies are listed)
	Chunks      int    // chunks stored so far
}

// An IndexOption adjusts [Engine.Index].
type IndexOption func(*indexOptions)

type indexOptions struct {
	forms    []string
	perForm  int
	progress func(Progress)
}

// Forms sets the forms to index (default "10-K" and "10-K/A").
func Forms(forms ...string) IndexOption { return func(o *indexOptions) { o.forms = forms } }

// FilingsPerCompany sets how many of the newest filings of each form are
// indexed per company (1 to [MaxFilingsPerCompany], default 1).
func FilingsPerCompany(n int) IndexOption { return func(o *indexOptions) { o.perForm = n } }

// IndexProgress makes Index call f as filings are indexed.
func IndexProgress(f func(Progress)) IndexOption { return func(o *indexOptions) { o.progress = f } }

// An IndexedFiling is one filing an Index call stored (or found stored).
type IndexedFiling struct {
	Ticker     string
	CIK        string
	Accession  string
	Form       string
	FilingDate edgar13f.Date
	Chunks     int
	Reused     bool // already in the store: not fetched or embedded again
}

// An IndexResult is the answer of [Engine.Index].
type IndexResult struct {
	AsOf        edgar13f.Date
	Indexed     []IndexedFiling
	ChunksTotal int
	Embedder    *store.Meta // nil when the Engine has no embedder
}

// Index indexes, for each company (a ticker or a CIK), the newest filings
// of each form made on or before asOf.
func (e *Engine) Index(ctx context.Context, companies []string, asOf edgar13f.Date, opts ...IndexOption) (*IndexResult, error) {
	return nil, errors.New("search: Index not implemented yet")
}

// A SearchOption narrows or shapes [Engine.Search].
type SearchOption func(*searchOptions)

type searchOptions struct {
	filter store.Filter
	mode   Mode
	k      int
	kSet   bool
}

// Ticker keeps chunks of the company indexed under ticker.
func Ticker(ticker string) SearchOption { return func(o *searchOptions) { o.filter.Ticker = ticker } }

// CIK keeps chunks of the company with that CIK.
func CIK(cik string) SearchOption { return func(o *searchOptions) { o.filter.CIK = cik } }

// Form keeps chunks of filings of that form (exact: "10-K" is not "10-K/A").
func Form(form string) SearchOption { return func(o *searchOptions) { o.filter.Form = form } }

// Item keeps chunks of that Item ("1A", "7", "I-2", "II-1A").
func Item(item string) SearchOption { return func(o *searchOptions) { o.filter.Item = item } }

// FiscalYear keeps chunks of reports of that fiscal year (the company's own).
func FiscalYear(y int) SearchOption { return func(o *searchOptions) { o.filter.FiscalYear = y } }

// WithMode sets the ranking (default [Hybrid] with an embedder, else [BM25]).
func WithMode(m Mode) SearchOption { return func(o *searchOptions) { o.mode = m } }

// K sets the number of hits (1 to [MaxK], default [DefaultK]).
func K(k int) SearchOption { return func(o *searchOptions) { o.k, o.kSet = k, true } }

// A Hit is one chunk found by a search, with everything needed to cite it.
type Hit struct {
	Rank       int     // from 1
	ChunkID    string  // see [store.Chunk]
	Score      float64 // BM25 score, cosine similarity, or RRF score by mode
	Ticker     string
	CIK        string
	Company    string
	Form       string
	Accession  string
	FilingDate edgar13f.Date
	ReportDate edgar13f.Date
	FiscalYear int
	Item       string
	ItemTitle  string
	ChunkIndex int
	Tokens     int
	Text       string
	URL        string // the filing's primary document
}

// Coverage is what the store holds as of a date: the filings a search
// could return.
type Coverage struct {
	Companies int            // distinct CIKs
	Filings   []store.Filing // sorted by CIK, filing date, accession
}

// A Result is the answer of [Engine.Search].
type Result struct {
	Query    string
	AsOf     edgar13f.Date
	Mode     Mode
	Hits     []Hit
	Coverage Coverage
}

// Search returns the chunks that best answer query among the filings made
// on or before asOf.
func (e *Engine) Search(ctx context.Context, query string, asOf edgar13f.Date, opts ...SearchOption) (*Result, error) {
	return nil, errors.New("search: Search not implemented yet")
}

// A ChunkAnswer is the answer of [Engine.Chunk]: the chunk and its
// neighbours in the same Item.
type ChunkAnswer struct {
	Chunk     Hit   // Rank and Score are zero
	Neighbors []Hit // up to span before and span after, in chunk order
}

// Chunk returns the chunk id with up to span (0 to [MaxSpan]) neighbours on
// each side in the same Item. A chunk of a filing made after asOf declines
// [edgar13f.NotYetFiled] and reveals nothing of it; an unknown id declines
// [edgar13f.UnknownChunk].
func (e *Engine) Chunk(ctx context.Context, id string, asOf edgar13f.Date, span int) (*ChunkAnswer, error) {
	return nil, errors.New("search: Chunk not implemented yet")
}
