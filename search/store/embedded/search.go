package embedded

import (
	"cmp"
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

	"github.com/edgar13f/edgar13f/search/internal/vecmath"
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
// with a *DamagedError). The shards not open yet are checked and opened on
// every CPU. The caller releases what it returns.
func (s *Store) acquire(shards []*shard) ([]*handle, error) {
	hs := make([]*handle, len(shards))
	s.cache.acquireOpen(shards, hs)
	var miss []int
	for i, h := range hs {
		if h == nil {
			miss = append(miss, i)
		}
	}
	errs := make([]error, len(shards))
	workers := min(runtime.GOMAXPROCS(0), len(miss))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := w; j < len(miss); j += workers {
				i := miss[j]
				sh := shards[i]
				verify, drops := s.cache.prepare(sh)
				var err error
				if verify {
					err = verifyShard(sh)
				}
				var h *handle
				if err == nil {
					h, err = openShard(sh)
				}
				if err == nil {
					h, err = s.cache.adopt(sh, h, drops)
				}
				hs[i], errs[i] = h, err
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err == nil {
			continue
		}
		var got []*handle
		for _, h := range hs {
			if h != nil {
				got = append(got, h)
			}
		}
		s.releaseAll(got)
		sh := shards[i]
		var d *damage
		if errors.As(err, &d) {
			if qerr := s.locked(func() error { return s.quarantineLocked(sh.name, d.reason) }); qerr != nil {
				return nil, qerr // errVanished: the query runs again on a newer view
			}
			return nil, &DamagedError{Accession: sh.rec.Filing.Accession, Reason: d.reason}
		}
		return nil, err
	}
	return hs, nil
}

func (s *Store) releaseAll(hs []*handle) { s.cache.releaseAll(hs) }

func (s *Store) lexical(v *view, terms [][]byte, f store.Filter, k int) ([]store.Match, error) {
	visible := v.visible(f)
	if len(terms) == 0 || len(visible) == 0 {
		return nil, nil
	}
	// The terms as strings, made once: the shards remember their
	// frequencies by them.
	names := make([]string, len(terms))
	for i, t := range terms {
		names[i] = string(t)
	}

	// The statistics of the visible chunks: N, their total length, and
	// each term's document frequency, summed over the visible shards in
	// integers so that the sums do not depend on the order. A shard the
	// filter leaves out counts only for them: when it remembers the
	// frequencies it is not opened. A shard the filter keeps that
	// remembers its terms' frequencies and bounds is set aside: it is
	// opened only if its bound can reach the k-th score.
	var n, length int64
	df := make([]uint64, len(terms))
	counts := make([]uint64, len(terms))
	tbs := make([]termBound, len(terms))
	var shards []*shard
	var bounded []boundedShard
	for _, sh := range visible {
		n += int64(sh.rec.Filing.Chunks)
		length += sh.rec.Length
		keep := passes(&sh.rec.Filing, f)
		if sh.knownDF(names, counts, tbs) {
			if !keep {
				for t, c := range counts {
					df[t] += c
				}
				continue
			}
			if !s.noPrune && allBound(tbs) {
				for t, c := range counts {
					df[t] += c
				}
				bounded = append(bounded, boundedShard{sh: sh, counts: slices.Clone(counts), tbs: slices.Clone(tbs)})
				continue
			}
		}
		shards = append(shards, sh)
	}
	hs, err := s.acquire(shards)
	if err != nil {
		return nil, err
	}
	held := hs
	defer func() { s.releaseAll(held) }()

	// The shards opened are read in parallel, each worker summing its own
	// frequencies.
	workers := min(runtime.GOMAXPROCS(0), len(hs))
	dfs := make([][]uint64, workers)
	todos := make([][]scored, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		dfs[w] = make([]uint64, len(terms))
		wg.Add(1)
		go func() {
			defer wg.Done()
			counts := make([]uint64, len(terms))
			var spare segment.PostingsList // reused for the lists only counted
			for i := w; i < len(hs); i += workers {
				h := hs[i]
				keep := passes(&h.sh.rec.Filing, f)
				s.dictReads.Add(1)
				dict, err := h.seg.Dictionary(textField)
				if err != nil {
					errs[w] = damageErr(h, err)
					return
				}
				var lists []postings
				for t, term := range terms {
					pl, err := dict.PostingsList(term, nil, spare)
					if err != nil {
						errs[w] = damageErr(h, err)
						return
					}
					counts[t] = pl.Count()
					dfs[w][t] += counts[t]
					if keep && counts[t] > 0 {
						lists = append(lists, postings{term: t, pl: pl})
						spare = nil
					} else {
						spare = pl
					}
				}
				if keep {
					// Its bounds are remembered once it is scored.
					todos[w] = append(todos[w], scored{h, lists, slices.Clone(counts)})
				} else {
					h.sh.rememberDF(names, counts, nil)
				}
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if n == 0 || length == 0 {
		return nil, nil
	}
	for _, d := range dfs {
		for t := range d {
			df[t] += d[t]
		}
	}
	avgdl := float64(length) / float64(n)
	idf := make([]float64, len(terms))
	for i := range terms {
		idf[i] = math.Log(1 + (float64(n)-float64(df[i])+0.5)/(float64(df[i])+0.5))
	}
	sc := &scorer{f: f, idf: idf, avgdl: avgdl, names: names}

	var todo []scored
	for _, t := range todos {
		todo = append(todo, t...)
	}
	top := newTopK(k)
	if err := sc.run(todo, top, true); err != nil {
		return nil, err
	}
	if len(bounded) == 0 {
		return top.matches(), nil
	}

	// The shards set aside, by their bound, highest first: a chunk's
	// score is a sum over the query's terms of each term's part, which
	// scorer.termMax bounds, so no chunk of a shard scores above the sum
	// of its terms' bounds. The sum is
	// raised by a relative 1e-9, far above what rounding can take from it
	// (each part and each sum is within 2^-52 relative of its exact value,
	// and the exact bound is not below the exact score). Once the k-th
	// score kept is above the bound of the next shard, it is above every
	// chunk of every shard left: they are not opened.
	for i := range bounded {
		b := &bounded[i]
		ub := 0.0
		for t := range terms {
			if b.counts[t] > 0 {
				ub += sc.termMax(t, b.tbs[t])
			}
		}
		b.ub = ub * (1 + 1e-9)
		if s.boundFault != nil {
			b.ub = s.boundFault(b.ub)
		}
	}
	slices.SortFunc(bounded, func(a, b boundedShard) int { return cmp.Compare(b.ub, a.ub) })
	batch := 4 * runtime.GOMAXPROCS(0)
	for i := 0; i < len(bounded); {
		if len(top.h) == top.k && bounded[i].ub < top.h[0].score {
			s.pruned.Add(int64(len(bounded) - i))
			break
		}
		j := min(i+batch, len(bounded))
		group := make([]*shard, 0, j-i)
		for _, b := range bounded[i:j] {
			group = append(group, b.sh)
		}
		ghs, err := s.acquire(group)
		if err != nil {
			return nil, err
		}
		held = append(held, ghs...)
		todo = todo[:0]
		for x, h := range ghs {
			s.dictReads.Add(1)
			dict, err := h.seg.Dictionary(textField)
			if err != nil {
				return nil, damageErr(h, err)
			}
			var lists []postings
			for t, term := range terms {
				if bounded[i+x].counts[t] == 0 {
					continue
				}
				pl, err := dict.PostingsList(term, nil, nil)
				if err != nil {
					return nil, damageErr(h, err)
				}
				lists = append(lists, postings{term: t, pl: pl})
			}
			todo = append(todo, scored{h, lists, nil})
		}
		if err := sc.run(todo, top, false); err != nil {
			return nil, err
		}
		i = j
	}
	return top.matches(), nil
}

// allBound reports whether every term's bound is known.
func allBound(tbs []termBound) bool {
	for _, b := range tbs {
		if !b.bound {
			return false
		}
	}
	return true
}

// A boundedShard is a shard that remembers its query terms' frequencies
// and bounds, and ub the bound of its chunks' scores.
type boundedShard struct {
	sh     *shard
	counts []uint64
	tbs    []termBound
	ub     float64
}

// scored is a shard to score: its postings of the query terms it holds
// and, when its bounds are to be remembered, each term's frequency.
type scored struct {
	h      *handle
	lists  []postings
	counts []uint64
}

// A scorer scores shards by BM25 with a query's statistics.
type scorer struct {
	f     store.Filter
	idf   []float64
	avgdl float64
	names []string
}

// lengthPart is the length part of BM25's denominator for a chunk of dl
// terms.
func (sc *scorer) lengthPart(dl int32) float64 {
	return bm25K1 * (1 - bm25B + bm25B*float64(dl)/sc.avgdl)
}

// termMax returns the most term t adds to the score of a chunk of a
// shard that knows b: idf·tf/(tf + k1·(1 − b + b·dl/avgdl)) grows with tf
// and falls with dl, so a chunk holding the term tf times scores at most
// its part at frequency min(tf, tfLevels) and the smallest length of a
// chunk holding it that often, or, above tfLevels, at the largest
// frequency and the smallest length of tfLevels.
func (sc *scorer) termMax(t int, b termBound) float64 {
	best := 0.0
	for j := range min(b.maxTF, tfLevels) {
		tf := float64(j + 1)
		best = max(best, tf/(tf+sc.lengthPart(b.minDL[j])))
	}
	if b.maxTF > tfLevels {
		tf := float64(b.maxTF)
		best = max(best, tf/(tf+sc.lengthPart(b.minDL[tfLevels-1])))
	}
	return sc.idf[t] * best
}

// run scores the chunks of todo that pass the filter into top, on every
// CPU; when learn is true each shard then remembers its terms'
// frequencies and bounds.
func (sc *scorer) run(todo []scored, top *topK, learn bool) error {
	if len(todo) == 0 {
		return nil
	}
	workers := max(1, min(runtime.GOMAXPROCS(0), len(todo)))
	tops := make([]*topK, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		tops[w] = newTopK(top.k)
		wg.Add(1)
		go func() {
			defer wg.Done()
			top := tops[w]
			var acc []float64
			var hit []bool
			var it segment.PostingsIterator
			var tbs []termBound
			if learn {
				tbs = make([]termBound, len(sc.idf))
			}
			for i := w; i < len(todo); i += workers {
				sd := todo[i]
				tab := &sd.h.tab
				nc := tab.len()
				// keepItem[i] says whether the Item names[i] passes f; nil
				// when f keeps every Item.
				var keepItem []bool
				if sc.f.Item != "" || len(sc.f.Items) > 0 {
					keepItem = make([]bool, len(tab.names))
					for i, name := range tab.names {
						keepItem[i] = sc.f.KeepsItem(name)
					}
				}
				acc = slices.Grow(acc[:0], nc)[:nc]
				hit = slices.Grow(hit[:0], nc)[:nc]
				clear(acc)
				clear(hit)
				clear(tbs)
				// Terms in sorted order, so each chunk's score is summed in
				// the same order whatever else the store holds.
				for _, l := range sd.lists {
					it = l.pl.Iterator(true, false, false, it)
					tb := termBound{bound: true}
					for j := range tb.minDL {
						tb.minDL[j] = math.MaxInt32
					}
					for {
						p, err := it.Next()
						if err != nil {
							errs[w] = damageErr(sd.h, err)
							return
						}
						if p == nil {
							break
						}
						d := p.Number()
						if d >= uint64(nc) {
							errs[w] = damageErr(sd.h, fmt.Errorf("document %d of %d", d, nc))
							return
						}
						freq, dl := p.Frequency(), tab.dlen[d]
						tb.maxTF = max(tb.maxTF, freq)
						for j := range min(freq, tfLevels) {
							tb.minDL[j] = min(tb.minDL[j], dl)
						}
						if keepItem != nil && !keepItem[tab.item[d]] {
							continue
						}
						tf := float64(freq)
						acc[d] += sc.idf[l.term] * tf / (tf + sc.lengthPart(dl))
						hit[d] = true
					}
					if tbs != nil {
						tbs[l.term] = tb
					}
				}
				if tbs != nil && sd.counts != nil {
					for t, c := range sd.counts {
						if c == 0 {
							tbs[t] = termBound{bound: true}
						}
					}
					sd.h.sh.rememberDF(sc.names, sd.counts, tbs)
				}
				for d, ok := range hit {
					if ok && top.admits(acc[d]) {
						top.offer(candidate{score: acc[d], h: sd.h, doc: d})
					}
				}
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for _, t := range tops {
		for _, c := range t.h {
			top.offer(c)
		}
	}
	return nil
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
	qn := vecmath.Norm(q)
	q64 := make([]float64, len(q))
	for i, x := range q {
		q64[i] = float64(x)
	}
	// slack bounds the error of a cosine estimated by dot32 (the rounding
	// of its products and of its eight sums of n/8 terms, each at most
	// 2^-24 relative, over terms whose magnitudes sum to at most |q|·|v|),
	// doubled; the division adds far less.
	slack := 2 * float64(len(q)/8+4) * 0x1p-24
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
				tab := &h.tab
				for d := range tab.len() {
					if !f.KeepsItem(tab.itemOf(d)) {
						continue
					}
					score := 0.0
					if qn > 0 && tab.norm[d] > 0 {
						v := h.vector(d, buf)
						if top := tops[w]; len(top.h) == top.k {
							// A float32 estimate first: when even its
							// error bound cannot reach the worst kept
							// score, the exact score cannot either.
							est := float64(dot32(q, v)) / (qn * tab.norm[d])
							if est+slack < top.h[0].score {
								continue
							}
						}
						score = vecmath.Dot(q64, v) / (qn * tab.norm[d])
					}
					if tops[w].admits(score) {
						tops[w].offer(candidate{score: score, h: h, doc: d})
					}
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

// dot32 returns the dot product of q and v in float32, summed by eight
// accumulators: an estimate, within a bound of the exact value (see
// nearest), several times cheaper than dot.
func dot32(q, v []float32) float32 {
	var s0, s1, s2, s3, s4, s5, s6, s7 float32
	n := len(v) &^ 7
	q = q[:len(v)]
	for j := 0; j < n; j += 8 {
		s0 += q[j] * v[j]
		s1 += q[j+1] * v[j+1]
		s2 += q[j+2] * v[j+2]
		s3 += q[j+3] * v[j+3]
		s4 += q[j+4] * v[j+4]
		s5 += q[j+5] * v[j+5]
		s6 += q[j+6] * v[j+6]
		s7 += q[j+7] * v[j+7]
	}
	for j := n; j < len(v); j++ {
		s0 += q[j] * v[j]
	}
	return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
}

// Chunk returns the chunk with the given ID and its filing, whatever the
// filing's date; see [store.Store.Chunk].
func (s *Store) Chunk(ctx context.Context, id string) (store.Chunk, store.Filing, bool, error) {
	var c store.Chunk
	var fl store.Filing
	found := false
	_, err := s.retry(ctx, func(v *view) ([]store.Match, error) {
		for _, sh := range v.shards {
			if !sh.mayHold(id) {
				continue
			}
			hs, err := s.acquire([]*shard{sh})
			if err != nil {
				return nil, err
			}
			h := hs[0]
			for i := range h.tab.len() {
				if string(h.tab.id(i)) == id {
					c, fl, found = h.chunk(i), sh.rec.Filing, true
					break
				}
			}
			s.releaseAll(hs)
			if found {
				return nil, nil
			}
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
		hs, err := s.acquire([]*shard{sh})
		if err != nil {
			return nil, err
		}
		defer s.releaseAll(hs)
		tab := &hs[0].tab
		// The table is sorted by Item, then Index.
		lo := sort.Search(tab.len(), func(i int) bool { return tab.itemOf(i) >= item })
		for i := lo; i < tab.len() && tab.itemOf(i) == item; i++ {
			out = append(out, hs[0].chunk(i))
		}
		return nil, nil
	})
	return out, err
}

// A candidate is a scored chunk.
type candidate struct {
	score float64
	h     *handle
	doc   int
}

// better reports whether a ranks before b: higher score, then smaller ID.
func better(a, b candidate) bool {
	return a.score > b.score || (a.score == b.score && string(a.h.tab.id(a.doc)) < string(b.h.tab.id(b.doc)))
}

// admits reports whether a candidate of this score may be kept: the heap
// is not full, or the score is not below the worst kept (a tie is decided
// by ID in offer).
func (t *topK) admits(score float64) bool {
	return len(t.h) < t.k || score >= t.h[0].score
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
