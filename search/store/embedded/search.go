package embedded

import (
	"cmp"
	"container/heap"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	segment "github.com/blevesearch/scorch_segment_api/v2"

	"github.com/edgar13f/edgar13f/internal/sleep"
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
// it needed was replaced meanwhile: at once, then after a pause that
// doubles each time (a random part of it, so that queries that collided
// do not collide again), to let the Puts that keep replacing shards
// finish. When Puts overlap every attempt, it fails with an error
// matching store.ErrBusy, as the OpenSearch store does. (Five attempts
// without a pause were too few: three writers replacing filings without
// a break failed one query in a hundred under the race detector.)
func (s *Store) retry(ctx context.Context, query func(v *view) ([]store.Match, error)) ([]store.Match, error) {
	if err := s.enter(); err != nil {
		return nil, err
	}
	defer s.leave()
	var pause time.Duration
	for attempt := 1; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		v, err := s.current()
		if err != nil {
			return nil, err
		}
		ms, err := query(v)
		if !errors.Is(err, fs.ErrNotExist) {
			return ms, err
		}
		if attempt == maxAttempts {
			return nil, fmt.Errorf("edgar13f/search/store/embedded: %d reads in a row found a filing replaced meanwhile (%w): %w", attempt, err, store.ErrBusy)
		}
		if pause > 0 {
			if err := sleep.For(ctx, pause/2+rand.N(pause/2+1)); err != nil {
				return nil, err
			}
		}
		pause = min(max(2*pause, firstPause), longestPause)
	}
}

// The attempts of retry and its pauses between them (about two seconds in
// all).
const (
	maxAttempts  = 20
	firstPause   = time.Millisecond
	longestPause = 128 * time.Millisecond
)

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
	eager := s.keepDetails()
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
					err = verifyScanned(sh)
				}
				var h *handle
				if err == nil {
					h, err = openShard(sh, eager)
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
		return nil, s.shardFailed(shards[i], err)
	}
	return hs, nil
}

// keepDetails reports whether a shard opened reads the rest of its chunk
// table and its texts at once (see handle.details): when every filing of
// the store fits in the open-shard cache, so that the heap can hold them
// all (about 40 MB at a million chunks) and an answer from any of them
// costs no reading: a store of 2,500 filings answers one ticker in 1.6 ms
// (5 to 17 ms on a loaded machine when each answer read them). A larger
// store reads them when a query answers from the shard: at 10 million
// chunks, a query of common terms opens thousands.
func (s *Store) keepDetails() bool {
	v := s.view.Load()
	return v != nil && len(v.shards) <= s.cache.max
}

// shardFailed returns the error of a query that could not read sh: a
// damaged shard is set aside (quarantined) and reported as a
// *DamagedError.
func (s *Store) shardFailed(sh *shard, err error) error {
	var d *damage
	if errors.As(err, &d) {
		if qerr := s.locked(func() error { return s.quarantineLocked(sh.name, d.reason) }); qerr != nil {
			return qerr // errVanished: the query runs again on a newer view
		}
		return &DamagedError{Accession: sh.rec.Filing.Accession, Reason: d.reason}
	}
	return err
}

// detailsOf returns the rest of the chunk table of an open shard (see
// handle.details), a failure as shardFailed reports it.
func (s *Store) detailsOf(h *handle) (*tableDetail, error) {
	d, err := h.details()
	if err != nil {
		return nil, s.shardFailed(h.sh, err)
	}
	return d, nil
}

func (s *Store) releaseAll(hs []*handle) { s.cache.releaseAll(hs) }

func (s *Store) lexical(v *view, terms [][]byte, f store.Filter, k int) ([]store.Match, error) {
	if len(terms) == 0 {
		return nil, nil
	}
	nt := len(terms)
	// The terms as strings, made once, and as the store's numbers for
	// them, by which the shards remember their frequencies.
	names := make([]string, nt)
	for i, t := range terms {
		names[i] = string(t)
	}

	// The statistics of the visible chunks: N, their total length, and
	// each term's document frequency, summed over the visible shards in
	// integers so that the sums do not depend on the order. N and the
	// length come from the records. A shard a lexicon segment covers
	// takes its frequencies and bounds from there; another from its
	// memo, else from its segment's dictionary. A shard the filter leaves
	// out counts only for the frequencies. A shard the filter keeps whose
	// frequencies and bounds are known is set aside: it is scored only if
	// its bound can reach the k-th score, from its remembered postings
	// when it has them.
	var n, length int64
	nvis := 0
	for _, sh := range v.shards {
		if !f.AsOf.Before(sh.rec.Filing.FilingDate) {
			n += int64(sh.rec.Filing.Chunks)
			length += sh.rec.Length
			nvis++
		}
	}
	if nvis == 0 {
		return nil, nil
	}
	ids := s.termIDs.of(names)
	sc := &scorer{f: f, names: names, ids: ids, budget: s.posts}
	if n > 0 && length > 0 {
		sc.avgdl = float64(length) / float64(n)
	}
	prune := !s.noPrune && sc.avgdl > 0
	var lv *lexView
	var lexCounts []uint64
	var lexBounds []termBound
	if prune {
		if lv = s.lexOf(v); lv.ncov == 0 {
			lv = nil
		} else {
			lexCounts = make([]uint64, nt*len(v.shards))
			lexBounds = make([]termBound, nt*len(v.shards))
			if bad := lv.stats(terms, lexCounts, lexBounds); bad != nil {
				// A segment with a bad entry passed its sum: this query
				// goes without the lexicon, which is made again.
				s.dropLexSegment(bad)
				lv = nil
			} else {
				s.lexQueries.Add(1)
			}
		}
	}
	df := make([]uint64, nt)
	counts := make([]uint64, nt)
	tbs := make([]termBound, nt)
	posts := make([][]uint32, nt)
	var shards []*shard
	bs := &boundedSet{nt: nt, shards: make([]boundedShard, 0, nvis), counts: make([]uint64, 0, nt*nvis),
		posts: make([][]uint32, 0, nt*nvis), best: make([]float64, 0, nt*nvis)}
	for vi, sh := range v.shards {
		if f.AsOf.Before(sh.rec.Filing.FilingDate) {
			continue
		}
		keep := passes(&sh.rec.Filing, f)
		if lv != nil && lv.covered[vi] {
			lc, lb := lexCounts[vi*nt:(vi+1)*nt], lexBounds[vi*nt:(vi+1)*nt]
			holds := false
			for t, c := range lc {
				df[t] += c
				holds = holds || c > 0
			}
			if keep && holds { // else no chunk of it holds a query term
				sh.knownPosts(ids, lc, posts)
				bs.add(sh, lc, posts, lb, sc)
			}
			continue
		}
		if sh.knownDF(ids, counts, tbs, posts) {
			if !keep {
				for t, c := range counts {
					df[t] += c
				}
				continue
			}
			if prune && allBound(tbs) {
				holds := false
				for t, c := range counts {
					df[t] += c
					holds = holds || c > 0
				}
				if holds { // else no chunk of it holds a query term
					bs.add(sh, counts, posts, tbs, sc)
				}
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
		dfs[w] = make([]uint64, nt)
		wg.Add(1)
		go func() {
			defer wg.Done()
			counts := make([]uint64, nt)
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
					h.sh.rememberDF(ids, counts, nil, nil, nil, nil, false)
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
	sc.idf = make([]float64, nt)
	for i := range terms {
		sc.idf[i] = math.Log(1 + (float64(n)-float64(df[i])+0.5)/(float64(df[i])+0.5))
	}
	sc.keepItems = f.Item != "" || len(f.Items) > 0

	var todo []scored
	for _, t := range todos {
		todo = append(todo, t...)
	}
	top := newLexTop(k)
	if err := sc.run(todo, top, true); err != nil {
		return nil, err
	}
	if len(bs.shards) == 0 {
		return s.lexMatches(top, &held)
	}

	// The shards set aside, by their bound, highest first: a chunk's
	// score is a sum over the query's terms of each term's part, which
	// scorer.termBest bounds (times the term's idf), so no chunk of a shard scores above the sum
	// of its terms' bounds. The sum is raised by a relative 1e-9, far
	// above what rounding can take from it (each part and each sum is
	// within 2^-52 relative of its exact value, and the exact bound is not
	// below the exact score). The workers take the shards in that order
	// and share the highest k-th score any of them keeps, which is not
	// above the k-th score of the answer: once it is above the bound of
	// the next shard, it is above every chunk of every shard left, and
	// they are not opened. A chunk scoring below it is not kept.
	for i := range bs.shards {
		b := &bs.shards[i]
		ub := 0.0
		for t := range nt {
			if bs.counts[b.at+t] > 0 {
				ub += sc.idf[t] * bs.best[b.at+t]
			}
		}
		b.ub = ub * (1 + 1e-9)
		if s.boundFault != nil {
			b.ub = s.boundFault(b.ub)
		}
	}
	slices.SortFunc(bs.shards, func(a, b boundedShard) int { return cmp.Compare(b.ub, a.ub) })
	if top.full() {
		sc.raise(top.min())
	}
	workers = min(runtime.GOMAXPROCS(0), len(bs.shards))
	lws := make([]*lexWorker, workers)
	errs = make([]error, workers)
	var next, scoredN atomic.Int64
	for w := range workers {
		lws[w] = sc.newWorker(s, k)
		lws[w].bare = true
		wg.Add(1)
		go func() {
			defer wg.Done()
			lw := lws[w]
			for {
				i := int(next.Add(1) - 1)
				if i >= len(bs.shards) {
					return
				}
				b := bs.shards[i]
				if b.ub < sc.threshold() {
					return // and every shard after it
				}
				scoredN.Add(1)
				if err := lw.scoreBounded(b, bs); err != nil {
					errs[w] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	s.pruned.Add(int64(len(bs.shards)) - scoredN.Load())
	for _, lw := range lws {
		top.merge(lw.top)
	}
	return s.lexMatches(top, &held)
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

// A boundedSet is the shards of a query that remember its terms'
// frequencies and bounds: per shard and term (at+t), the frequency, the
// remembered postings (nil when not remembered) and the term's bound
// before its idf (scorer.termBest).
type boundedSet struct {
	nt     int
	shards []boundedShard
	counts []uint64
	posts  [][]uint32
	best   []float64
}

// A boundedShard is a shard of a boundedSet, its entries from at, and ub
// the bound of its chunks' scores.
type boundedShard struct {
	sh *shard
	at int
	ub float64
}

func (bs *boundedSet) add(sh *shard, counts []uint64, posts [][]uint32, tbs []termBound, sc *scorer) {
	bs.shards = append(bs.shards, boundedShard{sh: sh, at: len(bs.counts)})
	bs.counts = append(bs.counts, counts...)
	bs.posts = append(bs.posts, posts...)
	for t, b := range tbs {
		best := 0.0
		if counts[t] > 0 {
			best = sc.termBest(b)
		}
		bs.best = append(bs.best, best)
	}
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
	f         store.Filter
	idf       []float64
	avgdl     float64
	names     []string
	ids       []uint64 // the terms' numbers in the store (termIDs)
	keepItems bool     // the filter names Items
	budget    *postBudget
	// thr holds the bits of the highest k-th score a worker keeps (scores
	// are positive, so their bits order as they do).
	thr atomic.Uint64
}

// lengthPart is the length part of BM25's denominator for a chunk of dl
// terms.
func (sc *scorer) lengthPart(dl int32) float64 {
	return bm25K1 * (1 - bm25B + bm25B*float64(dl)/sc.avgdl)
}

// termBest returns the most a term a shard knows b of adds to the score of
// a chunk of the shard, before its idf: tf/(tf + k1·(1 − b + b·dl/avgdl))
// grows with tf and falls with dl, so a chunk holding the term tf times
// scores at most its part at frequency min(tf, tfLevels) and the smallest
// length of a chunk holding it that often, or, above tfLevels, at the
// largest frequency and the smallest length of tfLevels.
func (sc *scorer) termBest(b termBound) float64 {
	best := 0.0
	for j := range min(b.maxTF, tfLevels) {
		tf := float64(j + 1)
		best = max(best, tf/(tf+sc.lengthPart(b.minDL[j])))
	}
	if b.maxTF > tfLevels {
		tf := float64(b.maxTF)
		best = max(best, tf/(tf+sc.lengthPart(b.minDL[tfLevels-1])))
	}
	return best
}

// threshold returns the highest k-th score a worker keeps, 0 before one
// keeps k.
func (sc *scorer) threshold() float64 { return math.Float64frombits(sc.thr.Load()) }

// raise makes score the threshold if it is higher.
func (sc *scorer) raise(score float64) {
	for {
		old := sc.thr.Load()
		if score <= math.Float64frombits(old) || sc.thr.CompareAndSwap(old, math.Float64bits(score)) {
			return
		}
	}
}

// A lexWorker scores shards on one goroutine into its own best k.
type lexWorker struct {
	s    *Store
	sc   *scorer
	top  *lexTop
	acc  []float64
	hit  []bool
	it   segment.PostingsIterator
	tbs  []termBound
	post [][]uint32
	// bare, in a worker scoring the shards set aside by their bounds,
	// makes the chunks it keeps carry no handle: each shard is released
	// once scored, so a query scoring thousands of filings holds open only
	// those it is scoring (lexMatches opens the answers' again).
	bare bool
	// docs lists the chunks hit, in the order first hit; minor and order
	// serve scorePosts.
	docs  []int
	minor []bool
	order []int
}

func (sc *scorer) newWorker(s *Store, k int) *lexWorker {
	return &lexWorker{s: s, sc: sc, top: newLexTop(k), tbs: make([]termBound, len(sc.idf)), post: make([][]uint32, len(sc.idf)), minor: make([]bool, len(sc.idf))}
}

// open acquires a shard for the query; the caller releases it.
func (lw *lexWorker) open(sh *shard) (*handle, error) {
	hs, err := lw.s.acquire([]*shard{sh})
	if err != nil {
		return nil, err
	}
	return hs[0], nil
}

// reset readies the accumulators for a shard of nc chunks.
func (lw *lexWorker) reset(nc int) {
	lw.acc = slices.Grow(lw.acc[:0], nc)[:nc]
	lw.hit = slices.Grow(lw.hit[:0], nc)[:nc]
	clear(lw.acc)
	clear(lw.hit)
	lw.docs = lw.docs[:0]
}

// keepItem returns whether each Item of h passes the filter, nil when it
// keeps every Item.
func (lw *lexWorker) keepItem(h *handle) []bool {
	if !lw.sc.keepItems {
		return nil
	}
	keep := make([]bool, len(h.tab.names))
	for i, name := range h.tab.names {
		keep[i] = lw.sc.f.KeepsItem(name)
	}
	return keep
}

// offer offers the chunks scored into the worker's best k; h is the
// shard's handle, nil when it is not open.
func (lw *lexWorker) offer(sh *shard, h *handle) error {
	top := lw.top
	thr := lw.sc.threshold()
	if lw.bare {
		h = nil
	}
	for _, d := range lw.docs {
		if !lw.hit[d] || lw.acc[d] < thr || !top.admits(lw.acc[d]) {
			continue
		}
		top.offer(lexCand{score: lw.acc[d], sh: sh, doc: d, h: h})
	}
	if top.full() {
		lw.sc.raise(top.min())
	}
	return nil
}

// scoreBounded scores a shard of bs: from its remembered postings when it
// has every term's, else from its segment (remembering them).
func (lw *lexWorker) scoreBounded(b boundedShard, bs *boundedSet) error {
	counts := bs.counts[b.at : b.at+bs.nt]
	posts := bs.posts[b.at : b.at+bs.nt]
	cached := true
	for t, c := range counts {
		if c > 0 && posts[t] == nil {
			cached = false
		}
	}
	sh := b.sh
	var h *handle
	if !cached || lw.sc.keepItems {
		var err error
		if h, err = lw.open(sh); err != nil {
			return err
		}
		defer lw.s.releaseAll([]*handle{h})
	}
	if cached {
		return lw.scorePosts(sh, h, posts, bs.best[b.at:b.at+bs.nt])
	}
	lw.s.dictReads.Add(1)
	dict, err := h.seg.Dictionary(textField)
	if err != nil {
		return damageErr(h, err)
	}
	var lists []postings
	for t, term := range lw.sc.names {
		if counts[t] == 0 {
			continue
		}
		pl, err := dict.PostingsList([]byte(term), nil, nil)
		if err != nil {
			return damageErr(h, err)
		}
		lists = append(lists, postings{term: t, pl: pl})
	}
	return lw.scoreLists(scored{h, lists, slices.Clone(counts)}, false)
}

// scorePosts scores a shard from its remembered postings, in the order of
// the terms, as scoreLists does from its segment. h is nil when the filter
// keeps every Item; best is each term's bound before its idf (termBest).
//
// Within the shard, the terms whose bounds, lowest first, sum (raised as
// a shard's bound is) below the threshold cannot make a chunk reach it
// alone: only the chunks holding one of the other terms are scored (by
// every term, in the terms' order, so each score is the one scoreLists
// gives).
func (lw *lexWorker) scorePosts(sh *shard, h *handle, posts [][]uint32, best []float64) error {
	nc := sh.rec.Filing.Chunks
	dls := sh.lengths()
	if len(dls) != nc && slices.ContainsFunc(posts, func(p []uint32) bool { return len(p) > 0 }) {
		return &DamagedError{Accession: sh.rec.Filing.Accession, Reason: fmt.Sprintf("%s: %d lengths remembered for %d chunks", fileIndex, len(dls), nc)}
	}
	lw.reset(nc)
	var keepItem []bool
	if h != nil {
		keepItem = lw.keepItem(h)
	}
	sc := lw.sc
	clear(lw.minor)
	if thr := sc.threshold(); thr > 0 {
		// The terms by bound, lowest first: each is minor while the sum
		// stays below the threshold.
		lw.order = lw.order[:0]
		for t, post := range posts {
			if post != nil {
				lw.order = append(lw.order, t)
			}
		}
		slices.SortFunc(lw.order, func(a, b int) int { return cmp.Compare(sc.idf[a]*best[a], sc.idf[b]*best[b]) })
		sum, minors := 0.0, 0
		for _, t := range lw.order {
			next := sum + sc.idf[t]*best[t]
			if next*(1+1e-9) >= thr {
				break
			}
			sum = next
			lw.minor[t] = true
			minors++
		}
		if minors == len(lw.order) {
			return nil // no chunk can reach the threshold
		}
		if minors > 0 {
			// The candidates: the chunks holding a term that is not minor.
			for t, post := range posts {
				if lw.minor[t] {
					continue
				}
				for _, p := range post {
					d, _ := unpackPosting(p)
					if d >= nc {
						return lw.badPosting(sh, d, nc)
					}
					if !lw.hit[d] {
						lw.hit[d] = true
						lw.docs = append(lw.docs, d)
					}
				}
			}
		}
	}
	if len(lw.docs) > 0 {
		for t, post := range posts {
			idf := sc.idf[t]
			for _, p := range post {
				d, freq := unpackPosting(p)
				if d >= nc {
					return lw.badPosting(sh, d, nc)
				}
				if !lw.hit[d] || (keepItem != nil && !keepItem[h.tab.item[d]]) {
					continue
				}
				tf := float64(freq)
				lw.acc[d] += idf * tf / (tf + sc.lengthPart(int32(dls[d])))
			}
		}
		if keepItem != nil {
			for _, d := range lw.docs {
				lw.hit[d] = keepItem[h.tab.item[d]]
			}
		}
		return lw.offer(sh, h)
	}
	for t, post := range posts {
		idf := sc.idf[t]
		for _, p := range post {
			d, freq := unpackPosting(p)
			if d >= nc {
				return lw.badPosting(sh, d, nc)
			}
			if keepItem != nil && !keepItem[h.tab.item[d]] {
				continue
			}
			tf := float64(freq)
			lw.acc[d] += idf * tf / (tf + sc.lengthPart(int32(dls[d])))
			if !lw.hit[d] {
				lw.hit[d] = true
				lw.docs = append(lw.docs, d)
			}
		}
	}
	return lw.offer(sh, h)
}

func (lw *lexWorker) badPosting(sh *shard, d, nc int) error {
	return &DamagedError{Accession: sh.rec.Filing.Accession, Reason: fmt.Sprintf("%s: document %d of %d", fileIndex, d, nc)}
}

// scoreLists scores an open shard from its segment's postings; when learn
// is true the shard then remembers its terms' frequencies and bounds.
// Either way it remembers the postings it decoded, if the store's budget
// has room.
func (lw *lexWorker) scoreLists(sd scored, learn bool) error {
	sc := lw.sc
	tab := &sd.h.tab
	nc := tab.len()
	keepItem := lw.keepItem(sd.h)
	lw.reset(nc)
	clear(lw.tbs)
	clear(lw.post)
	keepPosts := sc.budget != nil && sc.budget.used.Load() < sc.budget.limit
	// Terms in sorted order, so each chunk's score is summed in the same
	// order whatever else the store holds.
	for _, l := range sd.lists {
		lw.it = l.pl.Iterator(true, false, false, lw.it)
		tb := termBound{bound: true}
		for j := range tb.minDL {
			tb.minDL[j] = math.MaxInt32
		}
		var post []uint32
		if keepPosts {
			post = make([]uint32, 0, l.pl.Count())
		}
		for {
			p, err := lw.it.Next()
			if err != nil {
				return damageErr(sd.h, err)
			}
			if p == nil {
				break
			}
			d := p.Number()
			if d >= uint64(nc) {
				return damageErr(sd.h, fmt.Errorf("document %d of %d", d, nc))
			}
			freq, dl := p.Frequency(), tab.dlen[d]
			tb.maxTF = max(tb.maxTF, freq)
			for j := range min(freq, tfLevels) {
				tb.minDL[j] = min(tb.minDL[j], dl)
			}
			if post != nil {
				if x, ok := packPosting(d, freq); ok {
					post = append(post, x)
				} else {
					post = nil
					keepPosts = false
				}
			}
			if keepItem != nil && !keepItem[tab.item[d]] {
				continue
			}
			tf := float64(freq)
			lw.acc[d] += sc.idf[l.term] * tf / (tf + sc.lengthPart(dl))
			if !lw.hit[d] {
				lw.hit[d] = true
				lw.docs = append(lw.docs, int(d))
			}
		}
		lw.tbs[l.term] = tb
		lw.post[l.term] = post
	}
	if sd.counts != nil {
		if learn {
			for t, c := range sd.counts {
				if c == 0 {
					lw.tbs[t] = termBound{bound: true}
				}
			}
			sd.h.sh.rememberDF(sc.ids, sd.counts, lw.tbs, lw.post, tab.dlen, sc.budget, false)
		} else {
			// A shard scored by its bound knows its terms' frequencies
			// and bounds already, from the lexicon or its memo.
			sd.h.sh.rememberDF(sc.ids, sd.counts, nil, lw.post, tab.dlen, sc.budget, true)
		}
	}
	return lw.offer(sd.h.sh, sd.h)
}

// run scores the chunks of todo that pass the filter into top, on every
// CPU; when learn is true each shard then remembers its terms'
// frequencies and bounds.
func (sc *scorer) run(todo []scored, top *lexTop, learn bool) error {
	if len(todo) == 0 {
		return nil
	}
	workers := max(1, min(runtime.GOMAXPROCS(0), len(todo)))
	lws := make([]*lexWorker, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		lws[w] = sc.newWorker(nil, top.k)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(todo); i += workers {
				if err := lws[w].scoreLists(todo[i], learn); err != nil {
					errs[w] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for _, lw := range lws {
		top.merge(lw.top)
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
			d, err := s.detailsOf(h)
			if err != nil {
				s.releaseAll(hs)
				return nil, err
			}
			for i := range h.tab.len() {
				if string(d.id(i)) == id {
					c, fl, found = h.chunk(d, i), sh.rec.Filing, true
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
		if lo == tab.len() || tab.itemOf(lo) != item {
			return nil, nil
		}
		d, err := s.detailsOf(hs[0])
		if err != nil {
			return nil, err
		}
		for i := lo; i < tab.len() && tab.itemOf(i) == item; i++ {
			out = append(out, hs[0].chunk(d, i))
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
	return a.score > b.score || (a.score == b.score && string(a.h.id(a.doc)) < string(b.h.id(b.doc)))
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

// matches returns the kept candidates, best first, as matches. It reads
// the detail of their shards' tables (see handle.details) before it
// orders them: a tie is decided by ID.
func (t *topK) matches(s *Store) ([]store.Match, error) {
	cs := []candidate(t.h)
	for _, c := range cs {
		if _, err := s.detailsOf(c.h); err != nil {
			return nil, err
		}
	}
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
		d, _ := c.h.details() // read above
		out[i] = store.Match{Chunk: c.h.chunk(d, c.doc), Filing: c.h.sh.rec.Filing, Score: c.score}
	}
	return out, nil
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
