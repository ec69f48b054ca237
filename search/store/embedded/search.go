package embedded

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"

	segment "github.com/blevesearch/scorch_segment_api/v2"

	"github.com/edgar13f/edgar13f/search/store"
)

// BM25 parameters: bleve's (search.BM25_k1, search.BM25_b) and Lucene's
// defaults.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// Lexical returns the best k chunks for query by BM25 among the chunks
// that pass f; see [store.Store.Lexical]. The term statistics are those of
// the filings visible on f.AsOf.
func (s *Store) Lexical(ctx context.Context, query string, f store.Filter, k int) ([]store.Match, error) {
	if err := checkQuery("Lexical", f, k); err != nil {
		return nil, err
	}
	terms := s.terms(query)
	return s.retry(ctx, func(v *view) ([]store.Match, error) { return s.lexical(v, terms, f, k) })
}

// terms returns the distinct terms of the analysed query, sorted: the
// order in which every chunk's score is summed.
func (s *Store) terms(query string) [][]byte {
	var terms [][]byte
	seen := map[string]bool{}
	for _, tok := range s.an.Analyze([]byte(query)) {
		if !seen[string(tok.Term)] {
			seen[string(tok.Term)] = true
			terms = append(terms, tok.Term)
		}
	}
	slices.SortFunc(terms, func(a, b []byte) int { return compareBytes(a, b) })
	return terms
}

func compareBytes(a, b []byte) int {
	switch {
	case string(a) < string(b):
		return -1
	case string(a) > string(b):
		return 1
	}
	return 0
}

func checkQuery(op string, f store.Filter, k int) error {
	if f.AsOf.IsZero() {
		return fmt.Errorf("edgar13f/search: %s: the filter has no asOf date", op)
	}
	if k < 1 {
		return fmt.Errorf("edgar13f/search: %s: k is %d, not at least 1", op, k)
	}
	return nil
}

// retry runs a query on the current view, again on a newer one if a shard
// it needed was replaced meanwhile.
func (s *Store) retry(ctx context.Context, query func(v *view) ([]store.Match, error)) ([]store.Match, error) {
	if err := s.enter(); err != nil {
		return nil, err
	}
	defer s.leave()
	for attempt := 0; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		v, err := s.current()
		if err != nil {
			return nil, err
		}
		ms, err := query(v)
		if errors.Is(err, fs.ErrNotExist) && attempt < 5 {
			continue
		}
		return ms, err
	}
}

// visible returns the shards of filings made on or before f.AsOf.
func (v *view) visible(f store.Filter) []*shard {
	var out []*shard
	for _, sh := range v.shards {
		if !f.AsOf.Before(sh.rec.Filing.FilingDate) {
			out = append(out, sh)
		}
	}
	return out
}

// passes reports whether a filing passes the filing-level fields of f
// (AsOf aside).
func passes(fl *store.Filing, f store.Filter) bool {
	return (f.Ticker == "" || fl.Ticker == f.Ticker) &&
		(f.CIK == "" || fl.CIK == f.CIK) &&
		(f.Form == "" || fl.Form == f.Form) &&
		(f.FiscalYear == 0 || fl.FiscalYear == f.FiscalYear)
}

// acquire opens shards, setting aside a damaged one (the query then fails
// with a *DamagedError). The caller releases what it returns.
func (s *Store) acquire(shards []*shard) ([]*handle, error) {
	hs := make([]*handle, 0, len(shards))
	for _, sh := range shards {
		h, err := s.cache.acquire(sh)
		if err != nil {
			s.releaseAll(hs)
			var d *damage
			if errors.As(err, &d) {
				if qerr := s.locked(func() error { return s.quarantineLocked(sh.name, d.reason) }); qerr != nil {
					return nil, qerr // errVanished: the query runs again on a newer view
				}
				return nil, &DamagedError{Accession: sh.rec.Filing.Accession, Reason: d.reason}
			}
			return nil, err
		}
		hs = append(hs, h)
	}
	return hs, nil
}

func (s *Store) releaseAll(hs []*handle) {
	for _, h := range hs {
		s.cache.release(h)
	}
}

func (s *Store) lexical(v *view, terms [][]byte, f store.Filter, k int) ([]store.Match, error) {
	shards := v.visible(f)
	if len(terms) == 0 || len(shards) == 0 {
		return nil, nil
	}
	hs, err := s.acquire(shards)
	if err != nil {
		return nil, err
	}
	defer s.releaseAll(hs)

	// The statistics of the visible chunks: N, their total length, and
	// each term's document frequency, summed over the visible shards in
	// integers so that the sums do not depend on the order.
	var n, length int64
	df := make([]uint64, len(terms))
	type scored struct {
		h     *handle
		lists []postings
	}
	var todo []scored
	for _, h := range hs {
		n += int64(len(h.sh.rec.Chunks))
		length += h.sh.rec.Length
		dict, err := h.seg.Dictionary(textField)
		if err != nil {
			return nil, damageErr(h, err)
		}
		keep := passes(&h.sh.rec.Filing, f)
		var lists []postings
		for i, t := range terms {
			pl, err := dict.PostingsList(t, nil, nil)
			if err != nil {
				return nil, damageErr(h, err)
			}
			df[i] += pl.Count()
			if keep && pl.Count() > 0 {
				lists = append(lists, postings{term: i, pl: pl})
			}
		}
		if len(lists) > 0 {
			todo = append(todo, scored{h, lists})
		}
	}
	if n == 0 || length == 0 {
		return nil, nil
	}
	avgdl := float64(length) / float64(n)
	idf := make([]float64, len(terms))
	for i := range terms {
		idf[i] = math.Log(1 + (float64(n)-float64(df[i])+0.5)/(float64(df[i])+0.5))
	}

	top := newTopK(k)
	var acc []float64
	var hit []bool
	for _, sc := range todo {
		chunks := sc.h.sh.rec.Chunks
		acc = slices.Grow(acc[:0], len(chunks))[:len(chunks)]
		hit = slices.Grow(hit[:0], len(chunks))[:len(chunks)]
		clear(acc)
		clear(hit)
		// Terms in sorted order, so each chunk's score is summed in the
		// same order whatever else the store holds.
		for _, l := range sc.lists {
			it := l.pl.Iterator(true, false, false, nil)
			for {
				p, err := it.Next()
				if err != nil {
					return nil, damageErr(sc.h, err)
				}
				if p == nil {
					break
				}
				d := p.Number()
				if d >= uint64(len(chunks)) {
					return nil, damageErr(sc.h, fmt.Errorf("document %d of %d", d, len(chunks)))
				}
				if !f.KeepsItem(chunks[d].Item) {
					continue
				}
				tf := float64(p.Frequency())
				dl := float64(chunks[d].Len)
				acc[d] += idf[l.term] * tf / (tf + bm25K1*(1-bm25B+bm25B*dl/avgdl))
				hit[d] = true
			}
		}
		for d, ok := range hit {
			if ok {
				top.offer(candidate{score: acc[d], id: chunks[d].ID, h: sc.h, doc: d})
			}
		}
	}
	return top.matches(), nil
}

// postings are a shard's postings of one query term.
type postings struct {
	term int
	pl   segment.PostingsList
}

// damageErr reports a segment that passed its sums but not bleve's reader.
func damageErr(h *handle, err error) error {
	return &DamagedError{Accession: h.sh.rec.Filing.Accession, Reason: fmt.Sprintf("%s: %v", fileIndex, err)}
}

// Nearest returns the k chunks whose vectors are closest to vector by
// cosine similarity among the chunks that pass f; see
// [store.Store.Nearest].
func (s *Store) Nearest(ctx context.Context, vector []float32, f store.Filter, k int) ([]store.Match, error) {
	if err := checkQuery("Nearest", f, k); err != nil {
		return nil, err
	}
	for _, x := range vector {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil, errors.New("edgar13f/search: Nearest: the query vector is not finite")
		}
	}
	return s.retry(ctx, func(v *view) ([]store.Match, error) { return s.nearest(v, vector, f, k) })
}

func (s *Store) nearest(v *view, q []float32, f store.Filter, k int) ([]store.Match, error) {
	if len(v.shards) == 0 || v.meta.Dim == 0 {
		return nil, store.ErrNoVectors
	}
	if len(q) != v.meta.Dim {
		return nil, fmt.Errorf("edgar13f/search: Nearest: the query vector has dimension %d, the store's %v", len(q), v.meta)
	}
	var shards []*shard
	for _, sh := range v.visible(f) {
		if passes(&sh.rec.Filing, f) {
			shards = append(shards, sh)
		}
	}
	hs, err := s.acquire(shards)
	if err != nil {
		return nil, err
	}
	defer s.releaseAll(hs)
	qn := norm(q)
	q64 := make([]float64, len(q))
	for i, x := range q {
		q64[i] = float64(x)
	}
	// The shards are scored in parallel, each worker keeping its own best
	// k; merged, they give the same answer as one pass, since the order
	// (score, then ID) is total.
	workers := min(runtime.GOMAXPROCS(0), len(hs))
	tops := make([]*topK, workers)
	var wg sync.WaitGroup
	for w := range workers {
		tops[w] = newTopK(k)
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]float32, len(q))
			for i := w; i < len(hs); i += workers {
				h := hs[i]
				for d, c := range h.sh.rec.Chunks {
					if !f.KeepsItem(c.Item) {
						continue
					}
					score := 0.0
					if qn > 0 && c.Norm > 0 {
						score = dot(q64, h.vector(d, buf)) / (qn * c.Norm)
					}
					tops[w].offer(candidate{score: score, id: c.ID, h: h, doc: d})
				}
			}
		}()
	}
	wg.Wait()
	top := newTopK(k)
	for _, t := range tops {
		for _, c := range t.h {
			top.offer(c)
		}
	}
	return top.matches(), nil
}

// dot returns the dot product of q and v, summed in float64 by four
// accumulators in a fixed order (so a chunk's score never depends on
// anything but the two vectors).
func dot(q []float64, v []float32) float64 {
	var s0, s1, s2, s3 float64
	n := len(v) &^ 3
	q = q[:len(v)]
	for j := 0; j < n; j += 4 {
		s0 += q[j] * float64(v[j])
		s1 += q[j+1] * float64(v[j+1])
		s2 += q[j+2] * float64(v[j+2])
		s3 += q[j+3] * float64(v[j+3])
	}
	for j := n; j < len(v); j++ {
		s0 += q[j] * float64(v[j])
	}
	return (s0 + s1) + (s2 + s3)
}

// Chunk returns the chunk with the given ID and its filing, whatever the
// filing's date; see [store.Store.Chunk].
func (s *Store) Chunk(ctx context.Context, id string) (store.Chunk, store.Filing, bool, error) {
	var c store.Chunk
	var fl store.Filing
	found := false
	_, err := s.retry(ctx, func(v *view) ([]store.Match, error) {
		for _, sh := range v.shards {
			i, ok := sh.byID[id]
			if !ok {
				continue
			}
			hs, err := s.acquire([]*shard{sh})
			if err != nil {
				return nil, err
			}
			c, fl, found = hs[0].chunk(i), sh.rec.Filing, true
			s.releaseAll(hs)
			return nil, nil
		}
		return nil, nil
	})
	return c, fl, found, err
}

// ItemChunks returns the chunks of one Item of a filing in Index order;
// see [store.Store.ItemChunks].
func (s *Store) ItemChunks(ctx context.Context, accession, item string) ([]store.Chunk, error) {
	var out []store.Chunk
	_, err := s.retry(ctx, func(v *view) ([]store.Match, error) {
		out = nil
		sh, ok := v.byAcc[accession]
		if !ok {
			return nil, nil
		}
		chunks := sh.rec.Chunks
		// The table is sorted by Item, then Index.
		lo := sort.Search(len(chunks), func(i int) bool { return chunks[i].Item >= item })
		hi := lo
		for hi < len(chunks) && chunks[hi].Item == item {
			hi++
		}
		if lo == hi {
			return nil, nil
		}
		hs, err := s.acquire([]*shard{sh})
		if err != nil {
			return nil, err
		}
		defer s.releaseAll(hs)
		for i := lo; i < hi; i++ {
			out = append(out, hs[0].chunk(i))
		}
		return nil, nil
	})
	return out, err
}

// A candidate is a scored chunk.
type candidate struct {
	score float64
	id    string
	h     *handle
	doc   int
}

// better reports whether a ranks before b: higher score, then smaller ID.
func better(a, b candidate) bool {
	return a.score > b.score || (a.score == b.score && a.id < b.id)
}

// topK keeps the k best candidates offered.
type topK struct {
	k int
	h candidateHeap // the worst kept on top
}

func newTopK(k int) *topK { return &topK{k: k} }

func (t *topK) offer(c candidate) {
	if len(t.h) < t.k {
		heap.Push(&t.h, c)
		return
	}
	if better(c, t.h[0]) {
		t.h[0] = c
		heap.Fix(&t.h, 0)
	}
}

// matches returns the kept candidates, best first, as matches.
func (t *topK) matches() []store.Match {
	cs := []candidate(t.h)
	slices.SortFunc(cs, func(a, b candidate) int {
		if better(a, b) {
			return -1
		}
		if better(b, a) {
			return 1
		}
		return 0
	})
	out := make([]store.Match, len(cs))
	for i, c := range cs {
		out[i] = store.Match{Chunk: c.h.chunk(c.doc), Filing: c.h.sh.rec.Filing, Score: c.score}
	}
	return out
}

type candidateHeap []candidate

func (h candidateHeap) Len() int           { return len(h) }
func (h candidateHeap) Less(i, j int) bool { return better(h[j], h[i]) }
func (h candidateHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *candidateHeap) Push(x any)        { *h = append(*h, x.(candidate)) }
func (h *candidateHeap) Pop() any {
	old := *h
	c := old[len(old)-1]
	*h = old[:len(old)-1]
	return c
}
