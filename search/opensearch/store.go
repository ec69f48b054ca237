// Package opensearch keeps the filing search's chunks in an OpenSearch 2.x
// cluster (2.10 or later): a [store.Store] for corpora beyond one machine,
// behind the same interface as the embedded store, and held to the same
// conformance cases (package storetest).
//
// It is its own Go module, so that the edgar13f library does not depend on
// the OpenSearch client.
//
// # Indices
//
// A Store named N keeps a small state index N-state (one document, see
// below) and a data index N-data-E, where E is the store's epoch (0 unless
// the embedder changed before any filing was committed). The data index
// holds one document per chunk and one per filing, with this mapping:
// lexical holds the terms of a chunk's [store.LexicalText] (its company,
// Item title and text) as the embedded store analyses them (bleve's "en"
// analyzer, run in Go: Unicode words, possessives, lower case, English stop
// words, Porter stemming), one space apart, indexed with a whitespace
// tokenizer, and carries a token_count sub-field lexical.length, their
// number; text, the chunk as a match returns it, is kept but not indexed;
// accession, cik, ticker, form, item, item_title and chunk_id are keywords;
// fiscal_year, chunk_index, tokens and chunks integers; filing_date and
// report_date dates; and, when the store has an embedder, vector is a
// knn_vector of its dimension, indexed as an HNSW graph by the lucene
// engine with the cosinesimil space, unless the store was made by
// [ExactNearest] (then the faiss engine keeps it in its flat format and
// never builds a graph). The lucene engine is the one valid choice on every OpenSearch 2.x
// from 2.4 on: it filters inside the graph search (efficient k-NN
// filtering), switches to exact search when the filter leaves few chunks,
// and supports cosinesimil; nmslib only filters after the search (and is
// deprecated), faiss filters since 2.9 but has cosinesimil only since 2.13.
// The mapping's _meta records the embedder (model and dimension); the state
// document records it too, and a Put of another embedder is refused with a
// [*store.MismatchError].
//
// # Consistency
//
// Put writes a filing's chunks and its filing document under a new
// generation id (the accession and a random suffix), with the _bulk API,
// without a refresh: the commit lists the generation as unrefreshed in the
// state document, and a query that finds the list not empty refreshes the
// data index before it searches (a Put refreshes once the list is 64 long).
// The data index has no scheduled refresh (refresh_interval -1): it is
// refreshed only when the store needs it, so a bulk load writes a few large
// segments instead of one a second. Visibility is decided by the state
// document alone: it lists the hidden generations, and every query excludes
// them with a must_not terms filter. A generation is hidden from before its
// first document is written (so that a crash leaves it hidden for good)
// until its commit, a single compare-and-set of the state document
// (if_seq_no and if_primary_term) that un-hides the new generation and
// hides the one it replaces, in one write: no query sees both or neither.
// The replaced generation is then deleted (delete_by_query, refresh=true)
// and only then removed from the hidden list.
//
// A query reads the state document (a realtime GET), runs its searches
// with that hidden list, and reads the state again; if a generation was
// hidden in between (a Put began or committed), the searches may have seen
// a generation half-written or half-deleted, and the query runs again. So
// a query answers from one consistent set of committed filings, also when
// it takes several searches (Lexical reads term statistics, then scores).
//
// Concurrent Puts of one accession: the later one takes over; the earlier
// one's commit is refused with an error, and its chunks are deleted. A Put
// killed half-way, or whose bulk call got no answer (the cluster may still
// carry it out), leaves its generation hidden (and its documents in the
// data index) for good; nothing of it is ever visible.
//
// # BM25 point in time
//
// OpenSearch computes BM25 term statistics per shard over every document
// of the index, whatever a query filters; filings made after asOf would
// change the scores of earlier ones. Lexical therefore does not use
// OpenSearch's similarity: it analyses the query in Go as the embedded
// store does (its distinct terms, sorted), counts, over the chunks visible
// on asOf only (the committed chunks of filings made by asOf, before the
// query's other filters), the chunks, each term's document frequency (a
// filters aggregation) and the sum of their lengths (a sum aggregation of
// lexical.length), ranks the matching chunks by BM25 (k1 1.2, b 0.75, idf
// ln(1 + (N - df + 0.5) / (df + 0.5)), Lucene's idf·tf/(tf + k1·(1 − b +
// b·dl/avgdl))) with one script_score clause a term, over a term query
// that the lexical field's similarity scores by the term's frequency, and
// computes the returned chunks' scores again in Go, in double precision,
// as the embedded store does, asking for more chunks when the cluster's
// float scores leave the best k in doubt. The scores depend only on the
// chunks visible on asOf, exactly: a filing made later changes neither
// which chunks come back nor their order nor their scores; and they are
// the embedded store's, bit for bit.
//
// # Nearest
//
// Nearest runs a knn query on the HNSW graph with the visibility filter and
// the query's filters inside it, asking each shard for at least
// [NearestCandidates] neighbours (100 by default) and keeping the best k by
// score, ties by chunk ID. Lucene searches exactly, not in the graph,
// whenever a segment has no more chunks passing the filter than that;
// beyond it, the answer is approximate (a chunk of the true k best may be
// missed), and an HNSW graph that also holds later filings' chunks may
// answer differently than one that does not, though it never returns a
// chunk of a filing made after asOf. [ExactNearest] makes every Nearest an
// exact search, point in time and deterministic at any size: a store whose
// data index it creates keeps its vectors in the faiss engine's flat
// format, without a graph, and a knn query there scores every chunk that
// passes the filter; on a store with a graph it runs a script_score over
// those chunks. Every Nearest on a store without a graph is exact. Scores
// are cosine similarities, computed in Go from the returned chunks'
// vectors as the embedded store computes them (the cluster's float scores
// only rank), asking for more chunks when those leave the best k in doubt
// (the exact searches).
//
// A zero vector has no direction: a chunk whose vector is zero is stored
// without one (Nearest never returns it), and Nearest of a zero vector
// returns no match.
package opensearch

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"time"

	osgo "github.com/opensearch-project/opensearch-go/v4"

	"github.com/edgar13f/edgar13f/search/store"
)

// A Store keeps the filing search's chunks in an OpenSearch cluster. It is
// safe for concurrent use, also by several processes sharing the indices.
type Store struct {
	client *osgo.Client
	name   string
	opts   options

	mu sync.Mutex
	// ensured holds the data indices known to exist, by epoch, with the
	// layout of their vectors.
	ensured map[int]vectorLayout
	// neverBuilds holds the flat data indices whose setting was seen to
	// keep the faiss engine from building a graph (see checkFlat).
	neverBuilds map[string]bool
}

var _ store.Store = (*Store)(nil)

// An Option configures a [Store].
type Option func(*options)

type options struct {
	shards      int // 0: the cluster's default
	replicas    int
	replicasSet bool
	candidates  int
	exact       bool
	backoff     func(attempt int) time.Duration
	nonce       func() string
	bulkBytes   int
	pageSize    int
}

// Shards sets the number of primary shards of the data index the Store
// creates (default: the cluster's, 1 on OpenSearch 2.x). A node searches
// a query's shards side by side, each on a search thread of its own:
// one shard per core a query may use makes large stores answer faster
// (see the README's "Shards and cores").
func Shards(n int) Option { return func(o *options) { o.shards = n } }

// Replicas sets the number of replicas of the indices the Store creates
// (default: the cluster's, 1). A single-node cluster needs 0 for a green
// index; the Store works either way.
func Replicas(n int) Option { return func(o *options) { o.replicas, o.replicasSet = n, true } }

// NearestCandidates sets how many neighbours each shard's HNSW search looks
// for at least (default 100); a segment with no more chunks passing the
// filter is searched exactly.
func NearestCandidates(n int) Option { return func(o *options) { o.candidates = n } }

// ExactNearest makes Nearest an exact search over every chunk passing the
// filter instead of an HNSW search: point in time and deterministic at any
// size.
//
// A data index the Store creates with this option (on the store's first
// Put) keeps the vectors without an HNSW graph, in the faiss engine's flat
// format (index.knn.advanced.approximate_threshold -1, so the engine never
// builds its graph; the setting needs OpenSearch 2.18 or later, and must
// not be changed): a knn query then scores every chunk passing its filter,
// in Java with SIMD instructions. Without the graph Puts run about twice as
// fast (see the README's Figures). A store keeps the layout its first Put
// gave it, and Nearest on a store without a graph is exact whatever the
// options of the Store that queries it. On a store with a graph this
// option makes Nearest exact too, with a script_score of the k-NN plugin's
// cosineSimilarity (slower: Painless reads each vector from doc values).
func ExactNearest() Option { return func(o *options) { o.exact = true } }

// validName is what the Store accepts as a name: its indices are named
// after it.
var validName = regexp.MustCompile(`^[a-z0-9][a-z0-9_.-]{0,199}$`)

// Open returns the store named name on the cluster client talks to. It
// sends nothing: the indices are created by the first Put. The caller keeps
// ownership of client; Close does not close it.
func Open(client *osgo.Client, name string, opts ...Option) (*Store, error) {
	if client == nil {
		return nil, errors.New("edgar13f/search/opensearch: Open: nil client")
	}
	if !validName.MatchString(name) {
		return nil, fmt.Errorf("edgar13f/search/opensearch: Open: store name %q: want lower case letters, digits, '.', '_' or '-', starting with a letter or digit, at most 200 characters", name)
	}
	o := options{candidates: 100, backoff: defaultBackoff, nonce: randomNonce, bulkBytes: 4 << 20, pageSize: 1000}
	for _, opt := range opts {
		opt(&o)
	}
	if o.candidates < 1 || o.candidates > 10000 {
		return nil, fmt.Errorf("edgar13f/search/opensearch: Open: NearestCandidates(%d): want 1 to 10000", o.candidates)
	}
	if o.shards < 0 || o.replicas < 0 {
		return nil, errors.New("edgar13f/search/opensearch: Open: negative shards or replicas")
	}
	return &Store{client: client, name: name, opts: o, ensured: map[int]vectorLayout{}, neverBuilds: map[string]bool{}}, nil
}

func randomNonce() string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return hex.EncodeToString(b[:])
}

// Name returns the store's name.
func (s *Store) Name() string { return s.name }

func (s *Store) stateIndex() string { return s.name + "-state" }

func (s *Store) dataIndex(epoch int) string { return s.name + "-data-" + strconv.Itoa(epoch) }

// Close releases the store. It does not close the client given to Open.
func (s *Store) Close() error { return nil }

// Drop deletes the store's indices and everything in them.
func (s *Store) Drop(ctx context.Context) error {
	st, err := s.readState(ctx)
	if err != nil {
		return err
	}
	names := s.stateIndex()
	for e := 0; e <= st.Epoch; e++ {
		names += "," + s.dataIndex(e)
	}
	_, err = s.do(ctx, "delete indices", http.MethodDelete, "/"+names, url.Values{"ignore_unavailable": {"true"}}, nil)
	if err == nil {
		s.forgetDataIndices()
	}
	return err
}

// forgetDataIndices forgets the data indices the Store knew to exist: the
// next Put makes its index again (or finds it and reads its _meta).
func (s *Store) forgetDataIndices() {
	s.mu.Lock()
	s.ensured = map[int]vectorLayout{}
	s.mu.Unlock()
}

// Meta returns the embedder recorded in the store, or the zero Meta while
// no filing has been committed.
func (s *Store) Meta(ctx context.Context) (store.Meta, error) {
	st, err := s.readState(ctx)
	if err != nil || !st.Sealed {
		return store.Meta{}, err
	}
	return st.meta(), nil
}

// The state document.

// stateFormat is the version of the state document's layout.
const stateFormat = 1

// noGraphFormat is the format of the state document of a store whose
// vectors are kept in doc values, without an HNSW graph (docValues, made
// by ExactNearest before flatFormat): stateFormat's layout with no_graph
// set. A version of the store that knows only format 1 would query such a
// store's graph, which is not there, and would drop no_graph when it
// writes the state: it refuses the store instead.
const noGraphFormat = 2

// flatFormat is the format of the state document of a store whose vectors
// are kept in the faiss engine's flat format, without a graph
// (flatVectors, made by ExactNearest): no_graph and flat set. A version
// that knows only formats 1 and 2 would search it with the script of
// format 2, which does not read that field: it refuses the store instead.
const flatFormat = 3

// state is the store's state document: the embedder, the epoch (which
// data index is current), whether a filing was ever committed, the hidden
// generations and who is writing which accession.
type state struct {
	Format int    `json:"format"`
	Epoch  int    `json:"epoch"`
	Model  string `json:"model"`
	Dim    int    `json:"dim"`
	// Sealed is set by the first commit: from then on the embedder is
	// fixed.
	Sealed bool `json:"sealed"`
	// Hides counts the times a generation was added to Hidden; a query
	// that sees it change runs again.
	Hides  int64       `json:"hides"`
	Hidden []hiddenGen `json:"hidden"`
	Locks  []lock      `json:"locks"`
	// Unrefreshed are the generations committed (accession and
	// generation) since the data index was last known to be refreshed: a
	// Put does not refresh, so their documents may not be searchable yet.
	// A query that sees any refreshes the data index first, and then
	// clears the list (if the state is unchanged), as does a Put that
	// finds it maxUnrefreshed long.
	Unrefreshed []lock `json:"unrefreshed,omitempty"`
	// NoGraph and Flat are set by the first commit: the layout of the
	// data index's vectors (see layoutOf). NoGraph says it has no HNSW
	// graph, so Nearest searches exactly; Flat, that the vectors are in
	// the faiss engine's flat format, searched by a knn query.
	NoGraph bool `json:"no_graph,omitempty"`
	Flat    bool `json:"flat,omitempty"`

	exists           bool
	seqNo, primaryTm int64
}

// format is the format the state document's layout has: flatFormat or
// noGraphFormat for a store without an HNSW graph, else stateFormat; 0
// for a combination no format has.
func (st *state) format() int {
	switch {
	case st.Flat && st.NoGraph:
		return flatFormat
	case st.Flat:
		return 0
	case st.NoGraph:
		return noGraphFormat
	default:
		return stateFormat
	}
}

// layout is the layout of the vectors of the data index st describes.
func (st *state) layout() (vectorLayout, error) {
	return layoutOf(st.Dim, st.NoGraph, st.Flat)
}

// setLayout records the layout of the data index's vectors.
func (st *state) setLayout(l vectorLayout) {
	st.NoGraph, st.Flat = l.noGraph(), l == flatVectors
}

// A hiddenGen is a generation queries must not see. Done says that no
// document of it will be written any more: once its documents are deleted,
// it may leave the list.
type hiddenGen struct {
	Gen  string `json:"gen"`
	Done bool   `json:"done,omitempty"`
}

// A lock names the generation whose Put may commit an accession.
type lock struct {
	Accession string `json:"accession"`
	Gen       string `json:"gen"`
}

func (st *state) meta() store.Meta { return store.Meta{Model: st.Model, Dim: st.Dim} }

// hiddenGens returns the generations queries exclude.
func (st *state) hiddenGens() []string {
	out := make([]string, len(st.Hidden))
	for i, h := range st.Hidden {
		out[i] = h.Gen
	}
	return out
}

func (st *state) hide(gen string, done bool) {
	for i, h := range st.Hidden {
		if h.Gen == gen {
			st.Hidden[i].Done = st.Hidden[i].Done || done
			return
		}
	}
	st.Hidden = append(st.Hidden, hiddenGen{Gen: gen, Done: done})
}

func (st *state) hidden(gen string) bool {
	return slices.ContainsFunc(st.Hidden, func(h hiddenGen) bool { return h.Gen == gen })
}

func (st *state) unhide(gen string) {
	for i, h := range st.Hidden {
		if h.Gen == gen {
			st.Hidden = append(st.Hidden[:i], st.Hidden[i+1:]...)
			return
		}
	}
}

func (st *state) lockOf(accession string) string {
	for _, l := range st.Locks {
		if l.Accession == accession {
			return l.Gen
		}
	}
	return ""
}

func (st *state) setLock(accession, gen string) {
	for i, l := range st.Locks {
		if l.Accession == accession {
			st.Locks[i].Gen = gen
			return
		}
	}
	st.Locks = append(st.Locks, lock{Accession: accession, Gen: gen})
}

func (st *state) unlock(accession, gen string) {
	for i, l := range st.Locks {
		if l.Accession == accession && l.Gen == gen {
			st.Locks = append(st.Locks[:i], st.Locks[i+1:]...)
			return
		}
	}
}

// getResponse is the answer of GET /index/_doc/id.
type getResponse struct {
	Found       bool            `json:"found"`
	SeqNo       int64           `json:"_seq_no"`
	PrimaryTerm int64           `json:"_primary_term"`
	Source      json.RawMessage `json:"_source"`
}

// readState reads the state document (a realtime GET: it sees every
// acknowledged write). A store never written has a zero state.
func (s *Store) readState(ctx context.Context) (*state, error) {
	data, err := s.do(ctx, "read state", http.MethodGet, "/"+s.stateIndex()+"/_doc/state", nil, nil)
	if isStatus(err, http.StatusNotFound, "") {
		return &state{}, nil // no state index (index_not_found_exception) or no document (found: false)
	}
	if err != nil {
		return nil, err
	}
	var g getResponse
	if err := json.Unmarshal(data, &g); err != nil {
		return nil, fmt.Errorf("edgar13f/search/opensearch: read state: %w", err)
	}
	if !g.Found {
		return &state{}, nil
	}
	st := &state{}
	if err := json.Unmarshal(g.Source, st); err != nil {
		return nil, fmt.Errorf("edgar13f/search/opensearch: read state: %w", err)
	}
	if f := st.format(); f == 0 || st.Format != f {
		return nil, fmt.Errorf("edgar13f/search/opensearch: the state document of %s has format %d; this version reads formats %d, %d (no_graph) and %d (no_graph and flat)", s.stateIndex(), st.Format, stateFormat, noGraphFormat, flatFormat)
	}
	st.exists, st.seqNo, st.primaryTm = true, g.SeqNo, g.PrimaryTerm
	return st, nil
}

// writeState writes st if the state document is still the one st was read
// from; ok is false when another writer came first.
func (s *Store) writeState(ctx context.Context, st *state) (ok bool, err error) {
	st.Format = st.format()
	if st.Hidden == nil {
		st.Hidden = []hiddenGen{}
	}
	if st.Locks == nil {
		st.Locks = []lock{}
	}
	if !st.exists {
		if err := s.ensureStateIndex(ctx); err != nil {
			return false, err
		}
		_, err := s.do(ctx, "create state", http.MethodPut, "/"+s.stateIndex()+"/_create/state", nil, st)
		if isStatus(err, http.StatusConflict, "") {
			return false, nil
		}
		return err == nil, err
	}
	q := url.Values{
		"if_seq_no":       {strconv.FormatInt(st.seqNo, 10)},
		"if_primary_term": {strconv.FormatInt(st.primaryTm, 10)},
	}
	_, err = s.do(ctx, "write state", http.MethodPut, "/"+s.stateIndex()+"/_doc/state", q, st)
	if isStatus(err, http.StatusConflict, "") {
		return false, nil
	}
	return err == nil, err
}

// maxCAS bounds the attempts of a compare-and-set of the state document.
const maxCAS = 100

// update applies change to the state document by compare-and-set, reading
// it again when another writer came first. change returns an error to
// leave the document as it is; skip (with a nil error) when there is
// nothing to write.
func (s *Store) update(ctx context.Context, change func(st *state) (skip bool, err error)) (*state, error) {
	for range maxCAS {
		st, err := s.readState(ctx)
		if err != nil {
			return nil, err
		}
		skip, err := change(st)
		if err != nil || skip {
			return st, err
		}
		ok, err := s.writeState(ctx, st)
		if err != nil {
			return nil, err
		}
		if ok {
			return st, nil
		}
	}
	return nil, fmt.Errorf("edgar13f/search/opensearch: the state document of %s changed %d times while it was being updated", s.stateIndex(), maxCAS)
}

// ensureStateIndex creates the state index: one shard, and a mapping that
// indexes nothing (the document is only ever read by id).
func (s *Store) ensureStateIndex(ctx context.Context) error {
	settings := map[string]any{"number_of_shards": 1}
	if s.opts.replicasSet {
		settings["number_of_replicas"] = s.opts.replicas
	}
	body := map[string]any{
		"settings": map[string]any{"index": settings},
		"mappings": map[string]any{"enabled": false},
	}
	_, err := s.do(ctx, "create state index", http.MethodPut, "/"+s.stateIndex(), nil, body)
	if isStatus(err, http.StatusBadRequest, "resource_already_exists_exception") {
		return nil
	}
	return err
}
