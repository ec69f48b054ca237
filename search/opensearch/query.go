package opensearch

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/sleep"
	"github.com/edgar13f/edgar13f/search/internal/bm25"
	"github.com/edgar13f/edgar13f/search/internal/vecmath"
	"github.com/edgar13f/edgar13f/search/store"
)

// searchResponse is the answer of _search.
type searchResponse struct {
	TimedOut bool `json:"timed_out"`
	Shards   struct {
		Total      int               `json:"total"`
		Successful int               `json:"successful"`
		Failed     int               `json:"failed"`
		Failures   []json.RawMessage `json:"failures"`
	} `json:"_shards"`
	Hits struct {
		Total struct {
			Value    int64  `json:"value"`
			Relation string `json:"relation"`
		} `json:"total"`
		Hits []struct {
			ID     string  `json:"_id"`
			Score  float64 `json:"_score"`
			Source doc     `json:"_source"`
			Sort   []any   `json:"sort"`
		} `json:"hits"`
	} `json:"hits"`
	Aggregations json.RawMessage `json:"aggregations"`
}

// search runs a search. An answer from some shards only, or one cut by a
// timeout, is an error: it would silently omit chunks.
func (s *Store) search(ctx context.Context, index string, body map[string]any, r *searchResponse) error {
	data, err := s.do(ctx, "search", http.MethodPost, "/"+index+"/_search", nil, body)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, r); err != nil {
		return fmt.Errorf("edgar13f/search/opensearch: search: %w", err)
	}
	if r.Shards.Failed > 0 || r.Shards.Successful < r.Shards.Total {
		reason := "no reason given"
		if len(r.Shards.Failures) > 0 {
			var f struct {
				Reason errorCause `json:"reason"`
			}
			if json.Unmarshal(r.Shards.Failures[0], &f) == nil && f.Reason.Reason != "" {
				reason = f.Reason.Type + ": " + f.Reason.Reason
			}
		}
		return &Error{Op: "search", Status: http.StatusOK, Type: "shard_failure",
			Reason: fmt.Sprintf("%d of %d shards answered (%s)", r.Shards.Successful, r.Shards.Total, reason)}
	}
	if r.TimedOut {
		return &Error{Op: "search", Status: http.StatusOK, Type: "timed_out", Reason: "the search timed out with partial results"}
	}
	return nil
}

func term(field string, value any) map[string]any {
	return map[string]any{"term": map[string]any{field: value}}
}

// boolQuery is a bool query of filter, should (at least one must match
// when there are any) and must_not clauses.
func boolQuery(filter, should, mustNot []any) map[string]any {
	b := map[string]any{"filter": filter}
	if len(should) > 0 {
		b["should"] = should
		b["minimum_should_match"] = 1
	}
	if len(mustNot) > 0 {
		b["must_not"] = mustNot
	}
	return map[string]any{"bool": b}
}

// hiddenFilter is the must_not clause that keeps hidden generations out.
func hiddenFilter(hidden []string) []any {
	if len(hidden) == 0 {
		return nil
	}
	return []any{map[string]any{"terms": map[string]any{"gen": hidden}}}
}

// asOfFilter keeps filings made on or before asOf.
func asOfFilter(asOf edgar13f.Date) map[string]any {
	return map[string]any{"range": map[string]any{"filing_date": map[string]any{"lte": asOf.String()}}}
}

// visibleChunks are the filter clauses of the chunks visible on asOf.
func visibleChunks(asOf edgar13f.Date) []any {
	return []any{term("kind", kindChunk), asOfFilter(asOf)}
}

// filterClauses are the filter clauses of f on chunks: visibility on
// f.AsOf and the exact filters.
func filterClauses(f store.Filter) []any {
	c := visibleChunks(f.AsOf)
	if f.Ticker != "" {
		c = append(c, term("ticker", f.Ticker))
	}
	if f.CIK != "" {
		c = append(c, term("cik", f.CIK))
	}
	if f.Form != "" {
		c = append(c, term("form", f.Form))
	}
	if f.Item != "" {
		c = append(c, term("item", f.Item))
	}
	if len(f.Items) > 0 {
		c = append(c, map[string]any{"terms": map[string]any{"item": f.Items}})
	}
	if f.FiscalYear != 0 {
		c = append(c, term("fiscal_year", f.FiscalYear))
	}
	return c
}

// maxReads bounds the attempts of a query that Puts keep overlapping, and
// firstPause and longestPause the pauses between them: a read waits for a
// Put to finish rather than race it (about two seconds in all).
const (
	maxReads     = 20
	firstPause   = time.Millisecond
	longestPause = 128 * time.Millisecond
)

// read runs a query against one consistent set of committed filings: q
// gets the state (q is not called while no filing was ever committed) and
// runs its searches; if a generation was hidden while it ran, its answer
// is dropped and q runs again after a pause that doubles each time. When
// Puts overlap every attempt it fails with an error matching
// store.ErrBusy. q must start from scratch each time.
func (s *Store) read(ctx context.Context, q func(st *state, index string) error) (ran bool, err error) {
	pause := firstPause
	for attempt := range maxReads {
		if attempt > 0 {
			if err := pauseFor(ctx, pause); err != nil {
				return false, err
			}
			pause = min(2*pause, longestPause)
		}
		st, err := s.readState(ctx)
		if err != nil {
			return false, err
		}
		if !st.Sealed {
			return false, nil
		}
		if len(st.Unrefreshed) > 0 {
			if err := s.refreshCommitted(ctx, st); err != nil {
				return false, err
			}
		}
		if err := q(st, s.dataIndex(st.Epoch)); err != nil {
			return false, err
		}
		after, err := s.readState(ctx)
		if err != nil {
			return false, err
		}
		if after.Epoch == st.Epoch && after.Hides == st.Hides {
			return true, nil
		}
	}
	return false, fmt.Errorf("edgar13f/search/opensearch: %d queries in a row overlapped a Put: %w", maxReads, store.ErrBusy)
}

// pauseFor waits for a random part of d (from half to all of it, so that
// readers that collided do not collide again), or until ctx ends.
func pauseFor(ctx context.Context, d time.Duration) error {
	return sleep.For(ctx, d/2+rand.N(d/2+1))
}

// scan runs a search sorted by sortField (unique per document, so that
// search_after pages through all) and calls each for every hit.
func (s *Store) scan(ctx context.Context, index string, query map[string]any, sortField string, each func(d *doc) error) error {
	var after []any
	for {
		body := map[string]any{
			"size":             s.opts.pageSize,
			"_source":          map[string]any{"excludes": sourceExcludes},
			"query":            query,
			"sort":             []any{map[string]any{sortField: "asc"}},
			"track_total_hits": false,
		}
		if after != nil {
			body["search_after"] = after
		}
		var r searchResponse
		if err := s.search(ctx, index, body, &r); err != nil {
			return err
		}
		for i := range r.Hits.Hits {
			if err := each(&r.Hits.Hits[i].Source); err != nil {
				return err
			}
		}
		if len(r.Hits.Hits) < s.opts.pageSize {
			return nil
		}
		after = r.Hits.Hits[len(r.Hits.Hits)-1].Sort
	}
}

// Filings returns the filings made on or before asOf, sorted by CIK (as a
// number), filing date and accession.
func (s *Store) Filings(ctx context.Context, asOf edgar13f.Date) ([]store.Filing, error) {
	if asOf.IsZero() {
		return nil, errors.New("edgar13f/search/opensearch: Filings: asOf is required")
	}
	var out []store.Filing
	_, err := s.read(ctx, func(st *state, index string) error {
		out = out[:0]
		query := boolQuery([]any{term("kind", kindFiling), asOfFilter(asOf)}, nil, hiddenFilter(st.hiddenGens()))
		return s.scan(ctx, index, query, "gen", func(d *doc) error {
			f, err := d.filing()
			out = append(out, f)
			return err
		})
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b store.Filing) int {
		return cmp.Or(compareCIK(a.CIK, b.CIK), a.FilingDate.Compare(b.FilingDate), cmp.Compare(a.Accession, b.Accession))
	})
	return out, nil
}

// compareCIK orders CIKs as numbers (a CIK that is not one sorts after
// those that are, by its text).
func compareCIK(a, b string) int {
	x, errA := strconv.ParseUint(a, 10, 64)
	y, errB := strconv.ParseUint(b, 10, 64)
	switch {
	case errA == nil && errB == nil:
		return cmp.Compare(x, y)
	case errA == nil:
		return -1
	case errB == nil:
		return 1
	}
	return cmp.Compare(a, b)
}

// Chunk returns the chunk with the given ID and its filing, whatever the
// filing's date.
func (s *Store) Chunk(ctx context.Context, id string) (store.Chunk, store.Filing, bool, error) {
	var c store.Chunk
	var f store.Filing
	var ok bool
	_, err := s.read(ctx, func(st *state, index string) error {
		ok = false
		body := map[string]any{
			"size":    2,
			"_source": map[string]any{"excludes": sourceExcludes},
			"query":   boolQuery([]any{term("kind", kindChunk), term("chunk_id", id)}, nil, hiddenFilter(st.hiddenGens())),
		}
		var r searchResponse
		if err := s.search(ctx, index, body, &r); err != nil {
			return err
		}
		switch len(r.Hits.Hits) {
		case 0:
			return nil
		case 1:
		default:
			return fmt.Errorf("edgar13f/search/opensearch: Chunk(%s): %d visible chunks have that id", id, len(r.Hits.Hits))
		}
		d := &r.Hits.Hits[0].Source
		var err error
		c, ok = d.chunk(), true
		f, err = d.filing()
		return err
	})
	if err != nil {
		return store.Chunk{}, store.Filing{}, false, err
	}
	return c, f, ok, nil
}

// ItemChunks returns the chunks of one Item of a filing in Index order.
func (s *Store) ItemChunks(ctx context.Context, accession, item string) ([]store.Chunk, error) {
	var out []store.Chunk
	_, err := s.read(ctx, func(st *state, index string) error {
		out = out[:0]
		query := boolQuery([]any{term("kind", kindChunk), term("accession", accession), term("item", item)}, nil, hiddenFilter(st.hiddenGens()))
		return s.scan(ctx, index, query, "chunk_index", func(d *doc) error {
			out = append(out, d.chunk())
			return nil
		})
	})
	return out, err
}

// checkQuery checks what every ranked query needs.
func checkQuery(op string, f store.Filter, k int) error {
	if f.AsOf.IsZero() {
		return fmt.Errorf("edgar13f/search/opensearch: %s: Filter.AsOf is required", op)
	}
	if k < 1 || k > maxK {
		return fmt.Errorf("edgar13f/search/opensearch: %s: k %d: want 1 to %d", op, k, maxK)
	}
	return nil
}

// maxK is the most matches a ranked query returns (OpenSearch's
// index.max_result_window).
const maxK = 10000

// sortByScore orders hits best first, ties by chunk ID.
var sortByScore = []any{map[string]any{"_score": "desc"}, map[string]any{"chunk_id": "asc"}}

// matches turns ranked hits into matches, with score mapping the
// cluster's score to the store's.
func matches(r *searchResponse, score func(float64) float64) ([]store.Match, error) {
	out := make([]store.Match, 0, len(r.Hits.Hits))
	for i := range r.Hits.Hits {
		h := &r.Hits.Hits[i]
		f, err := h.Source.filing()
		if err != nil {
			return nil, err
		}
		out = append(out, store.Match{Chunk: h.Source.chunk(), Filing: f, Score: score(h.Score)})
	}
	return out, nil
}

// termScript is what one query term adds to a chunk's BM25 score, from
// statistics given as parameters: the term's idf (w), k1, b and the
// average length. Its query is a term query on lexical, whose score
// (_score) is the term's frequency in the chunk (the similarity
// tfSimilarity); lexical.length is the chunk's number of terms. A bool
// query sums the terms' parts: BM25 in the embedded store's form
// (bm25.Part), each part and the sum rounded to a float.
const termScript = `double tf = _score;
return params.w * tf / (tf + params.k1 * (1.0 - params.b + params.b * doc['lexical.length'].value / params.avgdl));`

// statsAggs is the aggregations part of the statistics search's answer.
type statsAggs struct {
	Length struct {
		Value float64 `json:"value"`
	} `json:"length"`
	DF struct {
		Buckets map[string]struct {
			DocCount int64 `json:"doc_count"`
		} `json:"buckets"`
	} `json:"df"`
}

// maxQueryTerms bounds the distinct terms of a lexical query.
const maxQueryTerms = 512

// Lexical returns the best k chunks for query by BM25 among the chunks
// that pass f, best first, ties by chunk ID. The term statistics count
// exactly the chunks visible on f.AsOf, and the scores are the embedded
// store's (see the package documentation).
func (s *Store) Lexical(ctx context.Context, query string, f store.Filter, k int) ([]store.Match, error) {
	if err := checkQuery("Lexical", f, k); err != nil {
		return nil, err
	}
	terms := bm25.QueryTerms(query)
	if len(terms) > maxQueryTerms {
		return nil, fmt.Errorf("edgar13f/search/opensearch: Lexical: the query has %d distinct terms; at most %d", len(terms), maxQueryTerms)
	}
	if len(terms) == 0 {
		return nil, nil // nothing but stop words: no chunk matches
	}
	var out []store.Match
	_, err := s.read(ctx, func(st *state, index string) error {
		out = nil
		hidden := hiddenFilter(st.hiddenGens())

		// The statistics of the chunks visible on asOf.
		filters := map[string]any{}
		for i, t := range terms {
			filters["t"+strconv.Itoa(i)] = term("lexical", bm25.Wire(t))
		}
		body := map[string]any{
			"size":             0,
			"track_total_hits": true,
			"query":            boolQuery(visibleChunks(f.AsOf), nil, hidden),
			"aggs": map[string]any{
				"length": map[string]any{"sum": map[string]any{"field": "lexical.length"}},
				"df":     map[string]any{"filters": map[string]any{"filters": filters}},
			},
		}
		var r searchResponse
		if err := s.search(ctx, index, body, &r); err != nil {
			return err
		}
		if r.Hits.Total.Relation != "eq" {
			return fmt.Errorf("edgar13f/search/opensearch: Lexical: the chunk count is a bound (%q), not exact", r.Hits.Total.Relation)
		}
		var aggs statsAggs
		if err := json.Unmarshal(r.Aggregations, &aggs); err != nil {
			return fmt.Errorf("edgar13f/search/opensearch: Lexical: statistics: %w", err)
		}
		sc := scorer{idf: map[string]float64{}}
		n := r.Hits.Total.Value
		var should []any
		for i, t := range terms {
			b, ok := aggs.DF.Buckets["t"+strconv.Itoa(i)]
			if !ok {
				return fmt.Errorf("edgar13f/search/opensearch: Lexical: no document frequency for term %q", t)
			}
			if b.DocCount == 0 {
				continue // no visible chunk has it
			}
			idf := bm25.IDF(n, b.DocCount)
			sc.terms = append(sc.terms, t)
			sc.idf[t] = idf
		}
		// The sum of integers is exact in a double up to 2^53.
		length := int64(aggs.Length.Value)
		if len(sc.terms) == 0 || length <= 0 {
			return nil
		}
		sc.avgdl = float64(length) / float64(n)

		// BM25 of the matching chunks that pass f: one clause a term.
		for _, t := range sc.terms {
			should = append(should, map[string]any{"script_score": map[string]any{
				"query": term("lexical", bm25.Wire(t)),
				"script": map[string]any{
					"source": termScript,
					"params": map[string]any{"w": sc.idf[t], "k1": bm25.K1, "b": bm25.B, "avgdl": sc.avgdl},
				},
			}})
		}
		scoring := boolQuery(filterClauses(f), should, hidden)
		var err error
		out, err = s.rank(ctx, index, scoring, &sc, k)
		return err
	})
	return out, err
}

// A scorer computes a chunk's BM25 score in Go, as the embedded store
// does, from the query's statistics.
type scorer struct {
	terms []string // the query's terms that a visible chunk holds, sorted
	idf   map[string]float64
	avgdl float64
	wire  map[string]string // the terms by their wire form (bm25.Wire), made on first use
}

// score returns the BM25 score of a chunk whose lexical field is lexical
// (its terms, in their wire form, one space apart): the parts of the
// query's terms it holds, summed in the terms' order.
func (sc *scorer) score(lexical string) float64 {
	if sc.wire == nil {
		sc.wire = map[string]string{}
		for _, t := range sc.terms {
			sc.wire[bm25.Wire(t)] = t
		}
	}
	tf := map[string]int64{}
	var dl int64
	for _, w := range strings.Split(lexical, " ") {
		if w == "" {
			continue
		}
		dl++
		if t, ok := sc.wire[w]; ok {
			tf[t]++
		}
	}
	score := 0.0
	for _, t := range sc.terms {
		if n := tf[t]; n > 0 {
			score += bm25.Part(sc.idf[t], n, dl, sc.avgdl)
		}
	}
	return score
}

// firstWindow is how many more chunks than k the scoring search first
// asks for.
const firstWindow = 10

// relError bounds the relative difference between a chunk's score as the
// cluster ranks it and its score computed in Go: each term's part and
// their sum are rounded to a float (2^-24 relative each), the rest is in
// double precision.
const relError = 1e-6

// rank returns the best k chunks of the scoring query by their BM25
// scores computed in Go (sc), best first, ties by chunk ID.
//
// The cluster ranks by its float scores s, within relError of the Go
// scores e: s ≥ e·(1 − relError). So a chunk whose Go score is at least
// the k-th best one's, e_k, has s ≥ τ = e_k·(1 − relError). rank asks for
// the best k + firstWindow chunks by s and scores them in Go; when the
// last of them has s below τ, no chunk outside them can be among the best
// k. Otherwise (chunks that tie, as repeated boilerplate does, or differ
// beyond a float's precision) a second search with min_score τ returns
// every chunk that can.
func (s *Store) rank(ctx context.Context, index string, query map[string]any, sc *scorer, k int) ([]store.Match, error) {
	size := min(k+firstWindow, maxK)
	body := map[string]any{
		"size":             size,
		"track_total_hits": false,
		"_source":          map[string]any{"excludes": []string{"vector"}},
		"query":            query,
	}
	var r searchResponse
	if err := s.search(ctx, index, body, &r); err != nil {
		return nil, err
	}
	ms, err := rescored(&r, sc)
	if err != nil || len(r.Hits.Hits) < size {
		return best(ms, k), err
	}
	tau := ms[k-1].Score * (1 - relError)
	last := r.Hits.Hits[len(r.Hits.Hits)-1].Score
	if last < tau {
		return best(ms, k), nil
	}
	if r, err = s.atLeast(ctx, index, body, tau, "Lexical", k); err != nil {
		return nil, err
	}
	ms, err = rescored(&r, sc)
	return best(ms, k), err
}

// atLeast runs the search of body again for every chunk the cluster
// scores at least floor (min_score floor rounded down to a float, the
// precision of the cluster's scores), up to maxK of them: when maxK or
// more chunks score that high, the best k cannot be told apart exactly,
// and op's error says so.
func (s *Store) atLeast(ctx context.Context, index string, body map[string]any, floor float64, op string, k int) (searchResponse, error) {
	m := float32(floor)
	if float64(m) > floor {
		m = math.Nextafter32(m, 0)
	}
	body["size"] = maxK
	body["min_score"] = float64(m)
	var r searchResponse
	if err := s.search(ctx, index, body, &r); err != nil {
		return searchResponse{}, err
	}
	if len(r.Hits.Hits) >= maxK {
		return searchResponse{}, fmt.Errorf("edgar13f/search/opensearch: %s: %d or more chunks score within a float's precision of the %d-th best; cannot rank them exactly", op, maxK, k)
	}
	return r, nil
}

// rescored returns the hits as matches scored by sc, best first, ties by
// chunk ID.
func rescored(r *searchResponse, sc *scorer) ([]store.Match, error) {
	ms, err := matches(r, func(x float64) float64 { return x })
	if err != nil {
		return nil, err
	}
	for i := range ms {
		ms[i].Score = sc.score(r.Hits.Hits[i].Source.Lexical)
	}
	slices.SortFunc(ms, func(a, b store.Match) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.Chunk.ID, b.Chunk.ID))
	})
	return ms, nil
}

// best returns the first k of ms.
func best(ms []store.Match, k int) []store.Match {
	return ms[:min(k, len(ms))]
}

// Nearest returns the k chunks closest to vector by cosine similarity
// among the chunks that pass f, best first, ties by chunk ID.
func (s *Store) Nearest(ctx context.Context, vector []float32, f store.Filter, k int) ([]store.Match, error) {
	if err := checkQuery("Nearest", f, k); err != nil {
		return nil, err
	}
	for _, x := range vector {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil, errors.New("edgar13f/search/opensearch: Nearest: the vector is not finite")
		}
	}
	var out []store.Match
	ran, err := s.read(ctx, func(st *state, index string) error {
		out = nil
		if st.Dim == 0 {
			return store.ErrNoVectors
		}
		if len(vector) != st.Dim {
			return fmt.Errorf("edgar13f/search/opensearch: Nearest: the vector has dimension %d; the store's embedder %s has %d", len(vector), st.meta(), st.Dim)
		}
		if isZero(vector) {
			return nil
		}
		layout, err := st.layout()
		if err != nil {
			return err
		}
		if layout == flatVectors {
			if err := s.checkFlat(ctx, index); err != nil {
				return err
			}
		}
		out, err = s.nearest(ctx, index, vector, f, k, s.searchOf(layout), st.hiddenGens())
		return err
	})
	if err == nil && !ran {
		return nil, store.ErrNoVectors // no filing was ever committed
	}
	return out, err
}

// A nearestSearch is how Nearest asks the cluster for the closest chunks.
type nearestSearch int

const (
	// graphSearch is a knn query on the HNSW graph: approximate.
	graphSearch nearestSearch = iota
	// scriptSearch is a script_score with the k-NN plugin's
	// cosineSimilarity over every chunk passing the filter: exact, slow
	// (Painless reads each vector from doc values). It scores 1 + cos.
	scriptSearch
	// flatSearch is a knn query on vectors without a graph: the k-NN
	// plugin scores every chunk passing the filter, exactly. It scores
	// Lucene's (1 + cos) / 2.
	flatSearch
)

// searchOf is how this Store searches a data index of layout l.
func (s *Store) searchOf(l vectorLayout) nearestSearch {
	switch {
	case l == flatVectors:
		return flatSearch
	case l == docValues || s.opts.exact:
		return scriptSearch
	default:
		return graphSearch
	}
}

// exactWindow is how many more chunks than k an exact search first asks
// for: its float scores rank within cosError of the Go cosines, so one
// more chunk shows whether the best k are known (unless chunks tie), and
// every chunk fetched costs its source (the vector with it).
const exactWindow = 2

// window is how many more chunks than k the search first asks for: the
// HNSW search's best k + firstWindow are rescored in Go.
func (ns nearestSearch) window() int {
	if ns.exact() {
		return exactWindow
	}
	return firstWindow
}

// exact reports whether the search scores every chunk passing the filter.
func (ns nearestSearch) exact() bool { return ns != graphSearch }

// score is the cluster's score of a chunk whose cosine similarity is c.
func (ns nearestSearch) score(c float64) float64 {
	if ns == scriptSearch {
		return 1 + c
	}
	return (1 + c) / 2
}

// nearest returns the best k chunks by cosine similarity computed in Go,
// as the embedded store computes it (vecmath), from the vectors of the
// chunks the cluster returns: the cluster computes in floats, so its
// scores may tie or swap chunks whose similarities differ by less than
// its rounding. It asks for k + ns.window() chunks. An exact search
// scores a chunk from its cosine computed within cosError of the Go
// cosine, so a chunk whose Go cosine is at least the k-th best one's,
// c_k, scores at least ns.score(c_k − cosError); when the last chunk
// returned scores below that, no other chunk can be among the best k,
// else a second search with that min_score returns every chunk that can.
// The HNSW search is approximate anyway: its best k + firstWindow are
// rescored.
func (s *Store) nearest(ctx context.Context, index string, vector []float32, f store.Filter, k int, ns nearestSearch, hidden []string) ([]store.Match, error) {
	q := make([]float64, len(vector))
	for i, x := range vector {
		q[i] = float64(x)
	}
	qn := vecmath.Norm(vector)
	size := min(k+ns.window(), maxK)
	var r searchResponse
	if err := s.search(ctx, index, s.nearestBody(vector, f, size, ns, hidden), &r); err != nil {
		return nil, err
	}
	ms, err := cosines(&r, q, qn)
	if err != nil || !ns.exact() || len(r.Hits.Hits) < size {
		return best(ms, k), err
	}
	floor := ns.score(ms[k-1].Score - cosError(len(vector)))
	if r.Hits.Hits[len(r.Hits.Hits)-1].Score < floor {
		return best(ms, k), nil
	}
	// A knn query returns at most its k chunks a segment: ask for maxK.
	if r, err = s.atLeast(ctx, index, s.nearestBody(vector, f, maxK, ns, hidden), floor, "Nearest", k); err != nil {
		return nil, err
	}
	ms, err = cosines(&r, q, qn)
	return best(ms, k), err
}

// cosError bounds the difference between the cosine similarity of two
// vectors of dim dimensions computed in floats (products, sums, norms and
// 1 + the cosine each rounded to a float, 2^-24 relative, in any order of
// summation; the faiss engine's normalising of both vectors first moves
// their direction by a few roundings more) and computed in Go, with a
// factor of two to spare.
func cosError(dim int) float64 {
	return 2 * float64(dim+8) * 0x1p-24
}

// cosines returns the hits as matches scored by their vectors' cosine
// similarity to q (of length qn), best first, ties by chunk ID.
func cosines(r *searchResponse, q []float64, qn float64) ([]store.Match, error) {
	ms, err := matches(r, func(x float64) float64 { return x })
	if err != nil {
		return nil, err
	}
	for i := range ms {
		v := r.Hits.Hits[i].Source.Vector
		if len(v) != len(q) {
			return nil, fmt.Errorf("edgar13f/search/opensearch: Nearest: chunk %s has a vector of dimension %d, not %d", ms[i].Chunk.ID, len(v), len(q))
		}
		ms[i].Score = vecmath.Cosine(q, qn, v, vecmath.Norm(v))
	}
	slices.SortFunc(ms, func(a, b store.Match) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.Chunk.ID, b.Chunk.ID))
	})
	return ms, nil
}

// exactScript scores a chunk by 1 + the cosine similarity of its vector
// to the query's (the k-NN plugin's Painless function).
const exactScript = `1.0 + cosineSimilarity(params.query_value, doc[params.field])`

// nearestBody is the search of Nearest for the best size chunks.
func (s *Store) nearestBody(vector []float32, f store.Filter, size int, ns nearestSearch, hidden []string) map[string]any {
	filter := append(filterClauses(f), map[string]any{"exists": map[string]any{"field": "vector"}})
	var query map[string]any
	switch ns {
	case scriptSearch:
		query = map[string]any{"script_score": map[string]any{
			"query": boolQuery(filter, nil, hiddenFilter(hidden)),
			"script": map[string]any{
				"source": exactScript,
				"params": map[string]any{"field": "vector", "query_value": vector},
			},
		}}
	case flatSearch:
		// Each segment's best size chunks include the best size of all.
		query = map[string]any{"knn": map[string]any{"vector": map[string]any{
			"vector": vector,
			"k":      size,
			"filter": boolQuery(filter, nil, hiddenFilter(hidden)),
		}}}
	default:
		query = map[string]any{"knn": map[string]any{"vector": map[string]any{
			"vector": vector,
			"k":      max(size, s.opts.candidates),
			"filter": boolQuery(filter, nil, hiddenFilter(hidden)),
		}}}
	}
	// No track_scores: a hit sorted by _score carries its score anyway,
	// and with track_scores the fetch phase computes the scores again,
	// which for a knn query runs the graph search a second time (a third
	// of the query's time at 100k chunks).
	return map[string]any{
		"size":             size,
		"track_total_hits": false,
		"_source":          map[string]any{"excludes": []string{"lexical"}},
		"query":            query,
		"sort":             sortByScore,
	}
}
