package search

import (
	"context"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/edgar13f/edgar13f/search/store"
)

func scored(ids string, scores ...float64) []store.Match {
	var out []store.Match
	for i, id := range strings.Fields(ids) {
		out = append(out, store.Match{Chunk: store.Chunk{ID: id}, Score: scores[i]})
	}
	return out
}

func order(ms []store.Match) string {
	var ids []string
	for _, m := range ms {
		ids = append(ids, m.Chunk.ID)
	}
	return strings.Join(ids, " ")
}

func TestFusionRules(t *testing.T) {
	// BM25 scores on their scale, cosine similarities on theirs.
	lex := scored("a b c", 20, 10, 9)
	vec := scored("c d a", 0.9, 0.5, 0.4)

	// Equal-weight RRF is plain reciprocal rank fusion.
	if got, want := (Fusion{Rule: RRF, KNNWeight: 0.5}).fuse(lex, vec), fuse(lex, vec); order(got) != order(want) || got[0].Score != want[0].Score {
		t.Errorf("rrf at 0.5 = %s; want plain RRF %s", order(got), order(want))
	}
	// a: 1/61 + 1/63, c: 1/63 + 1/61; a and c tie and are ordered by ID.
	if got := fuse(lex, vec); order(got) != "a c b d" || math.Abs(got[0].Score-(1.0/61+1.0/63)) > 1e-15 {
		t.Errorf("rrf = %s %v", order(got), got[0].Score)
	}
	// Weighted RRF: the kNN list's say grows with its weight.
	if got := (Fusion{Rule: RRF, KNNWeight: 0.8}).fuse(lex, vec); order(got) != "c a d b" {
		t.Errorf("rrf knn=0.8 = %s; want c a d b", order(got))
	}
	// Score fusion: min-max per list. BM25: a 1, b 1/11, c 0; kNN: c 1, d 0.2, a 0.
	got := (Fusion{Rule: ScoreFusion, KNNWeight: 0.5}).fuse(lex, vec)
	want := map[string]float64{"a": 0.5, "b": 0.5 / 11, "c": 0.5, "d": 0.1}
	if order(got) != "a c d b" {
		t.Errorf("score fusion = %s; want a c d b", order(got))
	}
	for _, m := range got {
		if math.Abs(m.Score-want[m.Chunk.ID]) > 1e-12 {
			t.Errorf("score fusion: %s scores %v; want %v", m.Chunk.ID, m.Score, want[m.Chunk.ID])
		}
	}
	// A far lead in one list survives score fusion where RRF levels it:
	// kNN's e stands far above the rest, and b, second in both lists,
	// leads by RRF.
	lex2, vec2 := scored("a b c", 10, 9.99, 1), scored("e f b", 0.9, 0.2, 0.1)
	if got := fuse(lex2, vec2); order(got) != "b a e f c" {
		t.Errorf("rrf = %s; want b a e f c", order(got))
	}
	if got := (Fusion{Rule: ScoreFusion, KNNWeight: 0.5}).fuse(lex2, vec2); order(got) != "a e b f c" {
		t.Errorf("score fusion = %s; want a e b f c", order(got))
	}
	// A list of one score (or equal scores) counts each hit fully.
	if got := (Fusion{Rule: ScoreFusion, KNNWeight: 0.25}).fuse(scored("x", 3), scored("y z", 0.5, 0.5)); order(got) != "x y z" || got[0].Score != 0.75 || got[1].Score != 0.25 {
		t.Errorf("score fusion of flat lists = %s %v %v", order(got), got[0].Score, got[1].Score)
	}
	// Weight 1: kNN's order alone, BM25's chunks below.
	if got := (Fusion{Rule: ScoreFusion, KNNWeight: 1}).fuse(lex, vec); !strings.HasPrefix(order(got), "c d") {
		t.Errorf("score fusion knn=1 = %s; want c d first", order(got))
	}
}

func TestWithFusionRefusesBadRules(t *testing.T) {
	for _, f := range []Fusion{{Rule: "rank", KNNWeight: 0.5}, {Rule: RRF, KNNWeight: 1.5}, {Rule: ScoreFusion, KNNWeight: -0.1}, {Rule: RRF, KNNWeight: math.NaN()}} {
		if _, err := New(noEDGAR(t), newMemStore(), WithFusion(f)); err == nil {
			t.Errorf("New accepted fusion %+v", f)
		}
	}
	if _, err := New(noEDGAR(t), newMemStore(), WithFusion(Fusion{Rule: ScoreFusion, KNNWeight: 0.3})); err != nil {
		t.Error(err)
	}
}

// TestHybridUsesTheEnginesFusion: a Hybrid search ranks by the Engine's
// fusion rule over the store's own two lists.
func TestHybridUsesTheEnginesFusion(t *testing.T) {
	st := newMemStore()
	emb := &hashEmbedder{model: "hash-test", dim: 64}
	putSynth(t, st, emb, threeFilings()...)
	ctx := context.Background()
	asOf := day("2024-06-30")
	const q = "export controls China"
	lex, _ := st.Lexical(ctx, q, store.Filter{AsOf: asOf}, FusionDepth)
	qv, _ := emb.Embed(ctx, []string{q})
	vec, _ := st.Nearest(ctx, qv[0], store.Filter{AsOf: asOf}, FusionDepth)
	for _, f := range []Fusion{{Rule: ScoreFusion, KNNWeight: 0.3}, {Rule: RRF, KNNWeight: 0.9}} {
		want := f.fuse(lex, vec)
		r, err := newTestEngine(t, st, WithEmbedder(emb), WithFusion(f)).Search(ctx, q, asOf, Hybrid)
		if err != nil {
			t.Fatal(err)
		}
		for i, h := range r.Hits {
			if h.ChunkID != want[i].Chunk.ID || h.Score != want[i].Score {
				t.Errorf("%s: hit %d = %s %v; want %s %v", f, i, h.ChunkID, h.Score, want[i].Chunk.ID, want[i].Score)
			}
		}
	}
}

// queryEmbedder records the texts it embeds as queries.
type queryEmbedder struct {
	hashEmbedder
	mu      sync.Mutex
	queries []string
}

func (q *queryEmbedder) EmbedQuery(ctx context.Context, texts []string) ([][]float32, error) {
	q.mu.Lock()
	q.queries = append(q.queries, texts...)
	q.mu.Unlock()
	return q.Embed(ctx, texts)
}

// TestQueriesEmbeddedAsQueries: an embedder that embeds queries apart
// from passages (a model with a query instruction) gets every kNN and
// hybrid query through EmbedQuery.
func TestQueriesEmbeddedAsQueries(t *testing.T) {
	st := newMemStore()
	emb := &queryEmbedder{hashEmbedder: hashEmbedder{model: "hash-test", dim: 64}}
	putSynth(t, st, &emb.hashEmbedder, threeFilings()...)
	e := newTestEngine(t, st, WithEmbedder(emb))
	for _, m := range []Mode{KNN, Hybrid, BM25} {
		if _, err := e.Search(context.Background(), "export controls "+string(m), day("2024-06-30"), m); err != nil {
			t.Fatal(err)
		}
	}
	if want := []string{"export controls knn", "export controls hybrid"}; !slices.Equal(emb.queries, want) {
		t.Errorf("queries embedded as queries: %q; want %q", emb.queries, want)
	}
}
