package search

import (
	"slices"
	"time"

	"github.com/edgar13f/edgar13f"
)

// This file holds the options of the questions an Engine answers. They
// follow the strategy of the root package's query options: each question
// has its own option type, a sealed interface named after it
// ([SearchOption] for [Engine.Search], [IndexOption] for [Engine.Index],
// [ChunkOption] for [Engine.Chunk]),
// so an option a question does not take is a compile error, never silently
// ignored. An option both questions take returns an interface joining
// their types ([LimitOption], [FormTypeOption]). Options are checked when
// the question runs: a value out of range is declined with
// [edgar13f.InvalidArgument] by the question, never at the option's
// construction. How an [Engine] is built ([Option], [WithEmbedder]) and
// how an embedder is built ([EmbedderOption]) are set up by functions
// named With..., as the root package's ClientOption.

// Limits of the query options; a [Limit] outside its range is declined
// with [edgar13f.InvalidArgument].
const (
	DefaultHits    = 10 // hits [Engine.Search] returns without [Limit]
	MaxHits        = 50 // largest [Limit] of [Engine.Search]
	DefaultFilings = 1  // original filings of each report kind [Engine.Index] reads per company without [Limit]
	MaxFilings     = 20 // largest [Limit] of [Engine.Index]
	DefaultSpan    = 1  // neighbours on each side [Engine.Chunk] returns without [Span]
	MaxSpan        = 5  // largest [Span]
)

type searchOptions struct {
	ticker, cik, item          string
	tickerSet, cikSet, itemSet bool
	form                       edgar13f.Form
	formSet                    bool
	fiscalYear                 int
	fySet                      bool
	mode                       Mode
	modeSet                    bool
	limit                      int
	limitSet                   bool
}

// A SearchOption narrows or shapes [Engine.Search]: [Ticker], [CIK],
// [FormType], [Item], [FiscalYear], a [Mode] and [Limit].
type SearchOption interface{ applySearch(*searchOptions) }

type searchOption func(*searchOptions)

func (f searchOption) applySearch(o *searchOptions) { f(o) }

// Ticker keeps chunks of the company indexed under ticker (case and the
// class separator ignored: "brk.b" is "BRK-B").
func Ticker(ticker string) SearchOption {
	return searchOption(func(o *searchOptions) { o.ticker, o.tickerSet = ticker, true })
}

// CIK keeps chunks of the company with that CIK (1 to 10 digits, leading
// zeros optional).
func CIK(cik string) SearchOption {
	return searchOption(func(o *searchOptions) { o.cik, o.cikSet = cik, true })
}

// Item keeps chunks of that Item, named as [edgar13f.Companies.Section]
// names Items: "7", "Item 7", "1A", "I-2", "II-1A", case-insensitive. The
// name keeps, of each form, the Item it names in that form: in a 10-K a
// Part-qualified name is the Item of that Part ("II-7" is Item 7, "I-2"
// Item 2, Properties); in a 10-Q a name without Part is the Item when only
// one Part has it ("1A" is "II-1A"). So "1A" keeps the risk factors of
// 10-Ks and 10-Qs alike. With [FormType], a name that no report of that
// form can have ("7" of a 10-Q) declines [edgar13f.InvalidArgument];
// without, so does a name of neither form.
func Item(item string) SearchOption {
	return searchOption(func(o *searchOptions) { o.item, o.itemSet = item, true })
}

// FiscalYear keeps chunks of reports of that fiscal year (the company's
// own, named as in [edgar13f.Companies.Facts]: for the calendar year in
// which it ends).
func FiscalYear(y int) SearchOption {
	return searchOption(func(o *searchOptions) { o.fiscalYear, o.fySet = y, true })
}

// A Mode is a way of ranking chunks. A Mode is itself the [SearchOption]
// that asks [Engine.Search] for it: Search(ctx, q, asOf, search.BM25), or
// search.Mode(s) for a mode named by a string (case-insensitive; a name
// that is none of the modes is declined by Search with
// [edgar13f.InvalidArgument]). Without one, Search ranks by [BM25], or
// by [Hybrid] when the Engine's embedder serves a model on which hybrid
// measured better than both BM25 and kNN ([ModelInfo].Hybrid; on the
// project's evaluation no model has yet, see search/eval/README.md).
type Mode string

// The search modes.
const (
	BM25   Mode = "bm25"   // lexical: BM25 over English-analysed text
	KNN    Mode = "knn"    // vectors: cosine similarity to the query's embedding
	Hybrid Mode = "hybrid" // both lists fused by the Engine's [Fusion]
)

func (m Mode) applySearch(o *searchOptions) { o.mode, o.modeSet = m, true }

// An IndexOption adjusts [Engine.Index]: [FormType], [Limit], [Reindex]
// and [ReportProgress].
type IndexOption interface{ applyIndex(*indexOptions) }

type indexOption func(*indexOptions)

func (f indexOption) applyIndex(o *indexOptions) { f(o) }

type indexOptions struct {
	forms    []edgar13f.Form
	limit    int
	limitSet bool
	reindex  bool
	progress func(Progress)
	now      func() time.Time // the clock of Progress's rates; time.Now unless a test sets it
}

// A LimitOption is the option [Limit] returns: an option of both
// questions that answer "at most n".
type LimitOption interface {
	SearchOption
	IndexOption
}

// Limit answers at most n items, each question with its own range and
// default:
//
//   - [Engine.Search]: hits, 1 to [MaxHits], default [DefaultHits].
//   - [Engine.Index]: the n newest original filings of each report kind
//     per company, each with its amendments, 1 to [MaxFilings], default
//     [DefaultFilings].
//
// A value outside the range is declined with [edgar13f.InvalidArgument].
// The root package's [edgar13f.Limit] has the same meaning for its
// questions.
func Limit(n int) LimitOption { return limitOption(n) }

type limitOption int

func (n limitOption) applySearch(o *searchOptions) { o.limit, o.limitSet = int(n), true }
func (n limitOption) applyIndex(o *indexOptions)   { o.limit, o.limitSet = int(n), true }

// A FormTypeOption is the option [FormType] returns: an option of
// [Engine.Search] and [Engine.Index].
type FormTypeOption interface {
	SearchOption
	IndexOption
}

// FormType names a form: one with 10-K or 10-Q Items ("10-K", "10-K/A",
// "10-KT", "10-Q", ...), case-insensitive; any other is declined with
// [edgar13f.InvalidArgument] by the question given it.
//
//   - [Engine.Search] keeps chunks of filings of that form, exactly ("10-K"
//     is not "10-K/A"). Given more than once, the last one filters, as the
//     root package's [edgar13f.FormType] does.
//   - [Engine.Index] indexes reports of that kind: its original filings
//     with their amendments (see [Engine.Index]); an amendment form
//     ("10-K/A") names the same kind as its original ("10-K"). Each
//     FormType given adds a kind, so FormType("10-K"), FormType("10-Q")
//     indexes both; without any, Index reads 10-K reports.
func FormType(form edgar13f.Form) FormTypeOption { return formTypeOption(form) }

type formTypeOption edgar13f.Form

func (f formTypeOption) applySearch(o *searchOptions) {
	o.form, o.formSet = edgar13f.Form(f), true
}

func (f formTypeOption) applyIndex(o *indexOptions) {
	o.forms = append(slices.Clip(o.forms), edgar13f.Form(f))
}

// Reindex makes Index read, chunk and store again the filings the store
// already holds, replacing exactly their chunks (after a change of the
// splitter or the chunker, say). The filing's document still comes from
// the Client's cache when it holds it.
func Reindex() IndexOption { return indexOption(func(o *indexOptions) { o.reindex = true }) }

// Progress reports how far an [Engine.Index] has come, to the function
// given with [ReportProgress]. It names the company and filing under way
// and counts chunks, which the root package's [edgar13f.Progress] (a stage
// with Done of Total) has no field for, so Index reports this shape.
type Progress struct {
	Company     string // ticker or CIK being indexed
	Accession   string // filing being indexed, "" while listing filings
	Filings     int    // filings done so far
	FilingsPlan int    // filings planned so far (grows as companies are listed, all before the first filing is read)
	Chunks      int    // chunks stored so far

	// Rate and time left, from the filings read so far (0 until one has
	// been read and stored; a filing the store held already counts in
	// neither):
	Elapsed         time.Duration // since the first filing began to be read
	ChunksPerSecond float64       // chunks fetched, embedded and stored per second spent reading filings
	Left            time.Duration // the filings planned and not yet done, at the time per filing read so far
}

// ReportProgress makes Index call f as filings are listed and indexed,
// from the goroutine that called Index: once per company listed, then
// before and after each filing.
func ReportProgress(f func(Progress)) IndexOption {
	return indexOption(func(o *indexOptions) { o.progress = f })
}

// A ChunkOption adjusts [Engine.Chunk]: [Span].
type ChunkOption interface{ applyChunk(*chunkOptions) }

type chunkOptions struct{ span int }

// Span makes [Engine.Chunk] return up to n neighbours of the chunk on each
// side in the same Item, 0 to [MaxSpan] (default [DefaultSpan]); a value
// outside the range is declined with [edgar13f.InvalidArgument] by Chunk.
// Given more than once, the last one counts.
func Span(n int) ChunkOption { return spanOption(n) }

type spanOption int

func (n spanOption) applyChunk(o *chunkOptions) { o.span = int(n) }
