package search

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/edgar13f/edgar13f/search/store"
)

// A FusionRule names how a [Hybrid] search combines its BM25 and kNN
// lists.
type FusionRule string

// Fusion rules.
const (
	// RRF is reciprocal rank fusion: a chunk scores
	// weight/([RRFConstant]+rank) for each list it is in, summed. Only
	// ranks count, so a list's confidence does not.
	RRF FusionRule = "rrf"
	// ScoreFusion normalises each list's scores to [0, 1] by its own
	// minimum and maximum over the [FusionDepth] hits read (BM25 scores
	// and cosine similarities are on unrelated scales), and sums them
	// weighted; a chunk absent from a list has 0 from it. A list whose
	// first hit stands far above the rest keeps that lead.
	ScoreFusion FusionRule = "score"
)

// A Fusion is the rule by which a [Hybrid] search merges its BM25 and kNN
// lists (the top [FusionDepth] of each), and the kNN list's share of the
// say: KNNWeight from 0 to 1, where 0.5 gives both lists equal weight
// (with [RRF], the plain reciprocal rank fusion of section 12) and 0 or 1
// leaves one list only to order the chunks (the other's only break ties
// and add chunks below).
type Fusion struct {
	Rule      FusionRule
	KNNWeight float64
}

// DefaultFusion is the fusion a [Hybrid] search uses unless [WithFusion]
// sets another: score fusion with both lists weighted equally, the rule
// that measured best over both real models of the project's retrieval
// evaluation (all-MiniLM-L6-v2 and bge-small-en-v1.5: its MRR@10 at or
// near the best of every rule tried, on the part of the questions the
// choice was made on and on the part held out of it; RRF, of any weight,
// below it). search/eval/README.md gives the figures. No rule made hybrid
// better than BM25 on every figure, so [BM25] stays the default mode.
var DefaultFusion = Fusion{Rule: ScoreFusion, KNNWeight: 0.5}

// check reports a Fusion that names no rule or a weight out of range.
func (f Fusion) check() error {
	if f.Rule != RRF && f.Rule != ScoreFusion {
		return fmt.Errorf("search: fusion rule %q is neither %q nor %q", f.Rule, RRF, ScoreFusion)
	}
	if !(f.KNNWeight >= 0 && f.KNNWeight <= 1) {
		return fmt.Errorf("search: fusion kNN weight %v is not within 0 to 1", f.KNNWeight)
	}
	return nil
}

// String names f as "rrf", "rrf knn=0.7" or "score knn=0.6".
func (f Fusion) String() string {
	if f.Rule == RRF && f.KNNWeight == 0.5 {
		return string(RRF)
	}
	return fmt.Sprintf("%s knn=%g", f.Rule, f.KNNWeight)
}

// fuse merges a BM25 list and a kNN list by f, reading the top FusionDepth
// of each. The fused list is best first, ties broken by chunk ID
// ascending. A chunk keeps the record of the first list that has it, with
// its fused score.
func (f Fusion) fuse(lex, vec []store.Match) []store.Match {
	type entry struct {
		m     store.Match
		score float64
	}
	var order []string
	byID := map[string]*entry{}
	for li, l := range [][]store.Match{lex, vec} {
		l = l[:min(len(l), FusionDepth)]
		w := 2 * (1 - f.KNNWeight) // RRF: 1 each at equal weights
		if li == 1 {
			w = 2 * f.KNNWeight
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, m := range l {
			lo, hi = min(lo, m.Score), max(hi, m.Score)
		}
		for i, m := range l {
			var s float64
			switch f.Rule {
			case ScoreFusion:
				s = 1
				if hi > lo {
					s = (m.Score - lo) / (hi - lo)
				}
				s *= w / 2
			default:
				s = w / float64(RRFConstant+i+1)
			}
			if x, ok := byID[m.Chunk.ID]; ok {
				x.score += s
				continue
			}
			byID[m.Chunk.ID] = &entry{m: m, score: s}
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

// fuse merges lex and vec by plain reciprocal rank fusion (RRF, equal
// weights).
func fuse(lex, vec []store.Match) []store.Match {
	return Fusion{Rule: RRF, KNNWeight: 0.5}.fuse(lex, vec)
}
