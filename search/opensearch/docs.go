package opensearch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search/internal/bm25"
	"github.com/edgar13f/edgar13f/search/store"
)

// The kinds of documents in a data index.
const (
	kindChunk  = "chunk"
	kindFiling = "filing"
)

// mappingFormat is the version of the data index's layout, in its _meta.
// Format 4 scores a term query on lexical by the term's frequency (the
// similarity tfSimilarity); format 3 indexed in lexical the terms of
// bleve's "en" analyzer, made in Go (the embedded store's), split by
// whitespace, with Lucene's BM25 similarity; format 2 indexed
// [store.LexicalText] with OpenSearch's english analyzer, and format 1
// the chunk's text alone. An index of an older format must be dropped
// and rebuilt.
const mappingFormat = 4

// tfSimilarity is the data index's similarity of the lexical field: a
// term query scores a chunk by the term's frequency in it (times the
// query's boost), so that BM25 can be computed from it (see termScript).
const tfSimilarity = "edgar13f_tf"

// termsAnalyzer is the data index's analyzer of the lexical field: its
// text is terms already analysed, one space apart (see lexicalTerms).
const termsAnalyzer = "edgar13f_terms"

// lexicalTerms returns what a chunk's lexical field holds: the terms of
// its [store.LexicalText] as the embedded store analyses it, in the form
// a whitespace tokenizer keeps ([bm25.Wire]), one space apart. Their
// number is the chunk's BM25 length.
func lexicalTerms(f store.Filing, c store.Chunk) string {
	terms := bm25.Terms(store.LexicalText(f, c))
	for i, t := range terms {
		terms[i] = bm25.Wire(t)
	}
	return strings.Join(terms, " ")
}

// sourceExcludes are the fields no answer needs back: the embedding and
// the scored copy of the text.
var sourceExcludes = []string{"lexical", "vector"}

// filingSource is the source of a filing document, and the part of a
// chunk document that copies its filing's facts (so that a match carries
// its filing, and the filters apply to chunks directly).
type filingSource struct {
	Kind       string `json:"kind"`
	Gen        string `json:"gen"`
	Accession  string `json:"accession"`
	CIK        string `json:"cik"`
	Ticker     string `json:"ticker"`
	Company    string `json:"company"`
	Form       string `json:"form"`
	FilingDate string `json:"filing_date"`
	ReportDate string `json:"report_date,omitempty"`
	FiscalYear int    `json:"fiscal_year"`
	URL        string `json:"url"`
	Chunks     int    `json:"chunks"`
}

// doc is the source of a chunk document; a filing document read into it
// has the chunk's fields zero. Every field is written, zeros included
// (chunk_index 0 must sort first).
type doc struct {
	filingSource
	ChunkID   string    `json:"chunk_id"`
	Item      string    `json:"item"`
	ItemTitle string    `json:"item_title"`
	Index     int       `json:"chunk_index"`
	Tokens    int       `json:"tokens"`
	Text      string    `json:"text"`
	Lexical   string    `json:"lexical,omitempty"`
	Vector    []float32 `json:"vector,omitempty"`
}

func filingDoc(gen string, f store.Filing) filingSource {
	d := filingSource{
		Kind: kindFiling, Gen: gen, Accession: f.Accession, CIK: f.CIK, Ticker: f.Ticker,
		Company: f.Company, Form: f.Form, FilingDate: f.FilingDate.String(),
		FiscalYear: f.FiscalYear, URL: f.URL, Chunks: f.Chunks,
	}
	if !f.Period.IsZero() {
		d.ReportDate = f.Period.String()
	}
	return d
}

func chunkDoc(gen string, f store.Filing, c store.Chunk, vector []float32) doc {
	d := doc{filingSource: filingDoc(gen, f), ChunkID: c.ID, Item: c.Item, ItemTitle: c.ItemTitle, Index: c.Index, Tokens: c.Tokens, Text: c.Text, Lexical: lexicalTerms(f, c)}
	d.Kind = kindChunk
	if !isZero(vector) {
		d.Vector = vector
	}
	return d
}

func isZero(v []float32) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// filing returns the filing a document carries.
func (d *filingSource) filing() (store.Filing, error) {
	f := store.Filing{
		Accession: d.Accession, CIK: d.CIK, Ticker: d.Ticker, Company: d.Company, Form: d.Form,
		FiscalYear: d.FiscalYear, URL: d.URL, Chunks: d.Chunks,
	}
	var err error
	if f.FilingDate, err = edgar13f.ParseDate(d.FilingDate); err != nil {
		return f, fmt.Errorf("edgar13f/search/opensearch: document of %s: filing date: %w", d.Accession, err)
	}
	if d.ReportDate != "" {
		if f.Period, err = edgar13f.ParseDate(d.ReportDate); err != nil {
			return f, fmt.Errorf("edgar13f/search/opensearch: document of %s: report date: %w", d.Accession, err)
		}
	}
	return f, nil
}

// chunk returns the chunk a chunk document carries.
func (d *doc) chunk() store.Chunk {
	return store.Chunk{ID: d.ChunkID, Accession: d.Accession, Item: d.Item, ItemTitle: d.ItemTitle, Index: d.Index, Tokens: d.Tokens, Text: d.Text}
}

// keyword is the mapping of an exact, filterable string.
var keyword = map[string]any{"type": "keyword"}

// dataIndexBody is the body that creates a data index for the embedder
// meta with the vector layout l: settings, and the mapping described in
// the package documentation.
// dynamic "strict" refuses any field not listed, so that a document of
// another layout fails loudly instead of being half indexed.
func (s *Store) dataIndexBody(meta store.Meta, epoch int, l vectorLayout) map[string]any {
	date := map[string]any{"type": "date", "format": "strict_date"}
	integer := map[string]any{"type": "integer"}
	props := map[string]any{
		"kind":        keyword,
		"gen":         keyword,
		"accession":   keyword,
		"cik":         keyword,
		"ticker":      keyword,
		"company":     keyword,
		"form":        keyword,
		"filing_date": date,
		"report_date": date,
		"fiscal_year": integer,
		"url":         map[string]any{"type": "keyword", "index": false},
		"chunks":      integer,
		"chunk_id":    keyword,
		"item":        keyword,
		"item_title": map[string]any{
			"type":   "keyword",
			"fields": map[string]any{"text": map[string]any{"type": "text", "analyzer": "english"}},
		},
		"chunk_index": integer,
		"tokens":      integer,
		// text is what a match returns; lexical is what Lexical scores.
		"text": map[string]any{"type": "text", "index": false},
		// The terms of the chunk's store.LexicalText, analysed in Go.
		"lexical": map[string]any{
			"type":       "text",
			"analyzer":   termsAnalyzer,
			"similarity": tfSimilarity,
			"fields": map[string]any{
				// The number of terms, stop words not counted: BM25's
				// document length.
				"length": map[string]any{"type": "token_count", "analyzer": termsAnalyzer, "enable_position_increments": false},
			},
		},
	}
	index := map[string]any{
		"analysis": map[string]any{"analyzer": map[string]any{
			termsAnalyzer: map[string]any{"type": "custom", "tokenizer": "whitespace"},
		}},
		"similarity": map[string]any{
			tfSimilarity: map[string]any{"type": "scripted", "script": map[string]any{"source": "return query.boost * doc.freq;"}},
		},
	}
	// No scheduled refresh: the store refreshes when a query or a Put
	// needs it (see refreshCommitted). A refresh every second made a
	// segment of about a second of Puts, and merging those rebuilt their
	// HNSW graphs again and again.
	index["refresh_interval"] = "-1"
	if s.opts.shards > 0 {
		index["number_of_shards"] = s.opts.shards
	}
	if s.opts.replicasSet {
		index["number_of_replicas"] = s.opts.replicas
	}
	_meta := map[string]any{"edgar13f_format": mappingFormat, "model": meta.Model, "dim": meta.Dim, "epoch": epoch}
	switch l {
	case flatVectors:
		// The faiss engine keeps the vectors in Lucene's flat vector
		// format and builds its graph (a native library) only for a
		// segment of at least approximate_threshold vectors: -1 never
		// builds one, and a knn query then scores every chunk passing
		// its filter, in Java with SIMD instructions. An HNSW graph
		// would cost each Put about twice the CPU of the rest of it.
		index["knn"] = true
		index[strings.TrimPrefix(approximateThreshold, "index.")] = -1
		props["vector"] = hnswVector(meta.Dim, "faiss", nil)
		_meta["no_graph"] = true
		_meta["flat"] = true
	case docValues:
		// The layout ExactNearest made before flatVectors: the exact
		// script reads the vectors from doc values. Kept so that the
		// tests can make a store of that version.
		props["vector"] = map[string]any{"type": "knn_vector", "dimension": meta.Dim}
		_meta["no_graph"] = true
	case hnswGraph:
		index["knn"] = true
		props["vector"] = hnswVector(meta.Dim, "lucene", map[string]any{"m": 16, "ef_construction": 128})
	}
	return map[string]any{
		"settings": map[string]any{"index": index},
		"mappings": map[string]any{
			"dynamic":    "strict",
			"_meta":      _meta,
			"properties": props,
		},
	}
}

// hnswVector is the mapping of a knn_vector of dim dimensions on engine's
// HNSW method, in the cosinesimil space, with the method's parameters
// (none: the engine's defaults).
func hnswVector(dim int, engine string, parameters map[string]any) map[string]any {
	method := map[string]any{"name": "hnsw", "space_type": "cosinesimil", "engine": engine}
	if parameters != nil {
		method["parameters"] = parameters
	}
	return map[string]any{"type": "knn_vector", "dimension": dim, "method": method}
}

// A vectorLayout is how a data index keeps the chunks' vectors, which
// decides how Nearest searches them.
type vectorLayout int

const (
	// noVectors: the store has no embedder.
	noVectors vectorLayout = iota
	// hnswGraph: a knn_vector on the lucene engine's HNSW graph (the
	// default). A knn query is approximate; ExactNearest scores every
	// chunk with a script instead.
	hnswGraph
	// docValues: a knn_vector without a method, kept in doc values for
	// the exact script only (ExactNearest before the flat layout; state
	// format 2). Nearest is the script's exact search.
	docValues
	// flatVectors: a knn_vector on the faiss engine whose graph is never
	// built (approximate_threshold -1): a knn query scores every chunk
	// passing its filter, exactly (ExactNearest; state format 3).
	flatVectors
)

// noGraph reports whether the layout has no HNSW graph: every Nearest on
// it is exact, whatever the options of the Store that queries it.
func (l vectorLayout) noGraph() bool { return l == docValues || l == flatVectors }

// newLayout is the layout of a data index this Store creates for meta.
func (s *Store) newLayout(meta store.Meta) vectorLayout {
	switch {
	case meta.Dim == 0:
		return noVectors
	case s.opts.exact:
		return flatVectors
	default:
		return hnswGraph
	}
}

// ensureDataIndex creates the data index of an epoch unless it exists. An
// index that exists must be one this store made for the same embedder.
// It returns the index's vector layout: as this Store creates it, or as
// its _meta says when it exists.
func (s *Store) ensureDataIndex(ctx context.Context, epoch int, meta store.Meta) (vectorLayout, error) {
	s.mu.Lock()
	layout, done := s.ensured[epoch]
	s.mu.Unlock()
	if done {
		return layout, nil
	}
	name := s.dataIndex(epoch)
	layout = s.newLayout(meta)
	_, err := s.do(ctx, "create index", http.MethodPut, "/"+name, nil, s.dataIndexBody(meta, epoch, layout))
	if isStatus(err, http.StatusBadRequest, "resource_already_exists_exception") {
		layout, err = s.checkDataIndex(ctx, name, meta)
	}
	if err != nil {
		return noVectors, err
	}
	s.mu.Lock()
	s.ensured[epoch] = layout
	s.mu.Unlock()
	return layout, nil
}

// checkDataIndex reads an existing data index's _meta, and the layout of
// its vectors.
func (s *Store) checkDataIndex(ctx context.Context, name string, meta store.Meta) (vectorLayout, error) {
	data, err := s.do(ctx, "read mapping", http.MethodGet, "/"+name+"/_mapping", nil, nil)
	if err != nil {
		return noVectors, err
	}
	var resp map[string]struct {
		Mappings struct {
			Meta struct {
				Format  int    `json:"edgar13f_format"`
				Model   string `json:"model"`
				Dim     int    `json:"dim"`
				NoGraph bool   `json:"no_graph"`
				Flat    bool   `json:"flat"`
			} `json:"_meta"`
		} `json:"mappings"`
	}
	if err := json.Unmarshal(data, &resp); err != nil {
		return noVectors, fmt.Errorf("edgar13f/search/opensearch: read mapping of %s: %w", name, err)
	}
	m, ok := resp[name]
	if !ok || m.Mappings.Meta.Format != mappingFormat {
		if ok && m.Mappings.Meta.Format > 0 {
			return noVectors, fmt.Errorf("edgar13f/search/opensearch: index %s was made by another version of this store (format %d, this one reads %d): drop the store (Store.Drop) and index again", name, m.Mappings.Meta.Format, mappingFormat)
		}
		return noVectors, fmt.Errorf("edgar13f/search/opensearch: index %s exists but was not made by this store (no edgar13f _meta of format %d in its mapping); if the cluster made it from a Put that raced a Drop, drop the store (Store.Drop) and index again", name, mappingFormat)
	}
	if got := (store.Meta{Model: m.Mappings.Meta.Model, Dim: m.Mappings.Meta.Dim}); got != meta {
		return noVectors, &store.MismatchError{Stored: got, Given: meta}
	}
	return layoutOf(meta.Dim, m.Mappings.Meta.NoGraph, m.Mappings.Meta.Flat)
}

// approximateThreshold is the index setting below which (in vectors a
// segment) the faiss engine builds no graph; -1 never builds one.
const approximateThreshold = "index.knn.advanced.approximate_threshold"

// checkFlat makes sure, once per Store and index, that the flat data
// index still has approximateThreshold -1. With any other value a cluster
// that has the faiss library builds graphs as segments are written and
// merged, and a knn query there is approximate: the store refuses to
// answer rather than call it exact.
func (s *Store) checkFlat(ctx context.Context, index string) error {
	s.mu.Lock()
	ok := s.neverBuilds[index]
	s.mu.Unlock()
	if ok {
		return nil
	}
	data, err := s.do(ctx, "read settings", http.MethodGet, "/"+index+"/_settings/"+approximateThreshold, url.Values{"flat_settings": {"true"}}, nil)
	if err != nil {
		return err
	}
	var resp map[string]struct {
		Settings map[string]string `json:"settings"`
	}
	if err := json.Unmarshal(data, &resp); err != nil {
		return fmt.Errorf("edgar13f/search/opensearch: read settings of %s: %w", index, err)
	}
	if v := resp[index].Settings[approximateThreshold]; v != "-1" {
		return fmt.Errorf("edgar13f/search/opensearch: Nearest: index %s keeps its vectors without a graph only while %s is -1; it is %q, so its knn search may be approximate: set it back to -1, and, since segments written meanwhile may hold graphs, drop the store and index again", index, approximateThreshold, v)
	}
	s.mu.Lock()
	s.neverBuilds[index] = true
	s.mu.Unlock()
	return nil
}

// layoutOf is the vector layout that a store of dimension dim whose
// _meta or state records noGraph and flat has.
func layoutOf(dim int, noGraph, flat bool) (vectorLayout, error) {
	switch {
	case dim == 0 && !noGraph && !flat:
		return noVectors, nil
	case dim == 0:
		return noVectors, fmt.Errorf("edgar13f/search/opensearch: a store without vectors records a vector layout (no_graph %v, flat %v)", noGraph, flat)
	case flat && noGraph:
		return flatVectors, nil
	case flat:
		return noVectors, errors.New("edgar13f/search/opensearch: a store records flat vectors with a graph")
	case noGraph:
		return docValues, nil
	default:
		return hnswGraph, nil
	}
}
