package embedded

import (
	"container/heap"

	"github.com/edgar13f/edgar13f/search/store"
)

// A lexCand is a chunk BM25 scored: its shard and document number, and
// the shard's handle when the query has it open (nil otherwise: a chunk
// scored from remembered postings needs its shard only if it is among the
// answers, or tied with them).
type lexCand struct {
	score float64
	sh    *shard
	doc   int
	h     *handle
}

// A lexTop keeps the candidates that may be among the best k by score
// then chunk ID, without knowing their IDs: the k best scores in a heap
// (ties among them in any order) and ties, every other candidate offered
// whose score equals the heap's lowest. The answer is among them: the
// chunks scoring above the k-th score are all in the heap, and those
// scoring it are in the heap or among ties, so only their IDs are read.
type lexTop struct {
	k    int
	h    lexHeap // the lowest score on top
	ties []lexCand
}

func newLexTop(k int) *lexTop { return &lexTop{k: k} }

// full reports whether the heap holds k candidates; min is then the k-th
// score.
func (t *lexTop) full() bool { return len(t.h) == t.k }

func (t *lexTop) min() float64 { return t.h[0].score }

// admits reports whether a candidate of this score is kept.
func (t *lexTop) admits(score float64) bool { return !t.full() || score >= t.min() }

func (t *lexTop) offer(c lexCand) {
	if !t.full() {
		heap.Push(&t.h, c)
		return
	}
	switch low := t.h[0]; {
	case c.score < low.score:
	case c.score == low.score:
		t.ties = append(t.ties, c)
	default:
		t.h[0] = c
		heap.Fix(&t.h, 0)
		if t.h[0].score == low.score {
			t.ties = append(t.ties, low)
		} else {
			t.ties = t.ties[:0]
		}
	}
}

// merge offers every candidate u keeps.
func (t *lexTop) merge(u *lexTop) {
	for _, c := range u.h {
		t.offer(c)
	}
	for _, c := range u.ties {
		t.offer(c)
	}
}

// matches opens the shards of the candidates kept that are not open yet
// (adding them to held, which the caller releases) and returns the best k
// by score, then chunk ID.
func (s *Store) lexMatches(t *lexTop, held *[]*handle) ([]store.Match, error) {
	cs := append([]lexCand(t.h), t.ties...)
	var need []*shard
	seen := map[*shard]*handle{}
	for _, c := range cs {
		if c.h != nil {
			seen[c.sh] = c.h
		}
	}
	for _, c := range cs {
		if _, ok := seen[c.sh]; !ok {
			seen[c.sh] = nil
			need = append(need, c.sh)
		}
	}
	if len(need) > 0 {
		hs, err := s.acquire(need)
		if err != nil {
			return nil, err
		}
		*held = append(*held, hs...)
		for i, sh := range need {
			seen[sh] = hs[i]
		}
	}
	top := newTopK(t.k)
	for _, c := range cs {
		top.offer(candidate{score: c.score, h: seen[c.sh], doc: c.doc})
	}
	return top.matches(s)
}

type lexHeap []lexCand

func (h lexHeap) Len() int           { return len(h) }
func (h lexHeap) Less(i, j int) bool { return h[i].score < h[j].score }
func (h lexHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *lexHeap) Push(x any)        { *h = append(*h, x.(lexCand)) }
func (h *lexHeap) Pop() any {
	old := *h
	c := old[len(old)-1]
	*h = old[:len(old)-1]
	return c
}
