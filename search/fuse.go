package search

import (
	"cmp"
	"slices"

	"github.com/edgar13f/edgar13f/search/store"
)

// fuse merges ranked lists by reciprocal rank fusion: a chunk scores
// 1/(RRFConstant+rank) for each list it is in at rank 1 to FusionDepth,
// summed over the lists in the order given (so the sum, and the answer,
// never depend on map order). The fused list is best first, ties broken by
// chunk ID ascending. A chunk keeps the record of the first list that has
// it.
func fuse(lists ...[]store.Match) []store.Match {
	type entry struct {
		m     store.Match
		score float64
	}
	var order []string
	byID := map[string]*entry{}
	for _, l := range lists {
		for i, m := range l[:min(len(l), FusionDepth)] {
			w := 1 / float64(RRFConstant+i+1)
			if x, ok := byID[m.Chunk.ID]; ok {
				x.score += w
				continue
			}
			byID[m.Chunk.ID] = &entry{m: m, score: w}
			order = append(order, m.Chunk.ID)
		}
	}
	out := make([]store.Match, len(order))
	for i, id := range order {
		x := byID[id]
		x.m.Score = x.score
		out[i] = x.m
	}
	slices.SortFunc(out, func(a, b store.Match) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Chunk.ID, b.Chunk.ID)
	})
	return out
}
