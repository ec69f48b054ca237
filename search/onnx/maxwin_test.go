package onnx_test

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/mirror"
	"github.com/edgar13f/edgar13f/search"
	"github.com/edgar13f/edgar13f/search/eval"
	"github.com/edgar13f/edgar13f/search/internal/chunk"
	"github.com/edgar13f/edgar13f/search/onnx"
	"github.com/edgar13f/edgar13f/search/store"
	"github.com/edgar13f/edgar13f/search/store/embedded"
)

var evalMaxWin = flag.Bool("evalmaxwin", false, "TestMaxWindow: measure kNN by a chunk's best window (max-sim) beside whole chunks and the mean of windows")

// windowPieces cuts text into the windows the search package embeds for
// it with search.WithWindows at max cl100k_base tokens: the rule of the
// unexported search.windowed (search/models.go), copied, for one text.
func windowPieces(text string, max int) []string {
	var pieces []string
	if max > 0 && chunk.Count(text) > max {
		for _, p := range chunk.Split(text, max, min(30, max/2)) { // 30: search's windowOverlap
			pieces = append(pieces, p.Text)
		}
	}
	if len(pieces) == 0 {
		pieces = append(pieces, text)
	}
	return pieces
}

// windowTokens is search's Engine.windowTokens for a model the Engine
// knows, with search.WithWindows(0): (window-2)*9/10 cl100k_base tokens.
func windowTokens(t *testing.T, model string) int {
	t.Helper()
	m, ok := search.KnownModel(model)
	if !ok || m.Window <= 0 {
		t.Fatalf("%s: the search package knows no window for it", model)
	}
	return max((m.Window-2)*9/10, chunk.MinMaxTokens)
}

// meanOf is the chunk vector search's embedWindows makes of its windows'
// vectors (search/index.go): the mean of the windows' unit vectors, scaled
// to length 1; one window's vector as it is.
func meanOf(vs [][]float32) []float32 {
	if len(vs) == 1 {
		return vs[0]
	}
	sum := make([]float64, len(vs[0]))
	for _, v := range vs {
		var n float64
		for _, x := range v {
			n += float64(x) * float64(x)
		}
		n = math.Sqrt(n)
		for j, x := range v {
			sum[j] += float64(x) / n
		}
	}
	var n float64
	for _, x := range sum {
		n += x * x
	}
	n = math.Sqrt(n)
	if n == 0 {
		return vs[0]
	}
	out := make([]float32, len(sum))
	for j, x := range sum {
		out[j] = float32(x / n)
	}
	return out
}

// cosine is the embedded store's score of a chunk vector v for a query q
// (store/embedded/knn.go: the dot product summed in float64 by four
// accumulators, over both norms).
func cosine(q, v []float32) float64 {
	var s0, s1, s2, s3, qq, vv float64
	n := len(v) &^ 3
	for j := 0; j < n; j += 4 {
		s0 += float64(q[j]) * float64(v[j])
		s1 += float64(q[j+1]) * float64(v[j+1])
		s2 += float64(q[j+2]) * float64(v[j+2])
		s3 += float64(q[j+3]) * float64(v[j+3])
	}
	for j := n; j < len(v); j++ {
		s0 += float64(q[j]) * float64(v[j])
	}
	for j := range v {
		qq += float64(q[j]) * float64(q[j])
		vv += float64(v[j]) * float64(v[j])
	}
	if qq == 0 || vv == 0 {
		return 0
	}
	return ((s0 + s1) + (s2 + s3)) / (math.Sqrt(qq) * math.Sqrt(vv))
}

// rescored is a store whose Nearest ranks the chunks its inner store
// keeps under the filter by another score of the query vector (a chunk's
// best window, say): the inner store decides which chunks pass the filter
// (as of, ticker), this one only their order, best first, ties by chunk
// ID as every store breaks them. Everything else is the inner store's.
type rescored struct {
	store.Store
	score func(q []float32, id string) float64
}

func (r rescored) Nearest(ctx context.Context, q []float32, f store.Filter, k int) ([]store.Match, error) {
	ms, err := r.Store.Nearest(ctx, q, f, 1<<20)
	if err != nil {
		return nil, err
	}
	for i := range ms {
		ms[i].Score = r.score(q, ms[i].Chunk.ID)
	}
	slices.SortFunc(ms, func(a, b store.Match) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Chunk.ID, b.Chunk.ID)
	})
	return ms[:min(k, len(ms))], nil
}

// recorder remembers the passages its embedder was asked for.
type recorder struct {
	*cachedEmbedder
	mu    sync.Mutex
	texts map[string]bool
}

func (r *recorder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	r.mu.Lock()
	for _, t := range texts {
		r.texts[t] = true
	}
	r.mu.Unlock()
	return r.cachedEmbedder.Embed(ctx, texts)
}

// indexWith indexes the evaluation corpus into a new embedded store with
// emb, windows or not.
func indexWith(t *testing.T, emb search.Embedder, windows bool) (store.Store, *search.IndexResult) {
	t.Helper()
	st, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	opts := []search.Option{search.WithEmbedder(emb)}
	if windows {
		opts = append(opts, search.WithWindows(0))
	}
	_, res, err := eval.IndexCorpus(context.Background(), "../../testdata", st, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return st, res
}

// engineOn returns a search-only Engine over st with emb and fusion f.
func engineOn(t *testing.T, st store.Store, emb search.Embedder, f search.Fusion) *search.Engine {
	t.Helper()
	c, err := edgar13f.NewClient(edgar13f.WithFetcher(mirror.NewFetcher(fstest.MapFS{})), edgar13f.WithCache(nil))
	if err != nil {
		t.Fatal(err)
	}
	e, err := search.New(c, st, search.WithEmbedder(emb), search.WithFusion(f))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func runEval(t *testing.T, e *search.Engine, qs []eval.Query) *eval.Report {
	t.Helper()
	rep, err := eval.Run(context.Background(), e, qs, eval.CorpusAsOf, allModes)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// sameFigures reports where two reports' figures differ ("" when equal).
func sameFigures(a, b *eval.Report) string {
	var why []string
	for i, r := range a.Rows {
		o := b.Rows[i]
		if r.Mode != o.Mode || r.Filtered != o.Filtered || r.Hit1 != o.Hit1 || r.Hit5 != o.Hit5 || r.MRR10 != o.MRR10 || !slices.Equal(r.Misses, o.Misses) {
			why = append(why, fmt.Sprintf("%s %s: %.3f / %.3f / %.3f against %.3f / %.3f / %.3f", r.Setting(), r.Mode, r.Hit1, r.Hit5, r.MRR10, o.Hit1, o.Hit5, o.MRR10))
		}
	}
	return strings.Join(why, "; ")
}

// TestMaxWindow measures kNN, and hybrid with it, when a chunk longer
// than the model's window is embedded as windows and a chunk's score is
// its best window's cosine (max-sim), beside the chunk embedded whole and
// the mean of its windows (search.WithWindows), with every fusion rule of
// TestFusionSweep, on both parts of the questions, unfiltered and
// ticker-filtered (-evalmaxwin). The store keeps one vector per chunk;
// max-sim is measured through the Engine (its filters, fusion and the
// evaluation's scoring) over a store whose Nearest reorders the chunks
// the embedded store keeps under the filter. The test first checks its
// harness: the same reordering by the whole chunk's vector gives the
// Engine's own figures on the store built without windows, and by the
// mean of the windows (cut and averaged here as the search package does)
// the Engine's own figures on the store built with search.WithWindows,
// whose passages must be exactly the windows cut here.
func TestMaxWindow(t *testing.T) {
	if !*evalMaxWin {
		t.Skip("run with -evalmaxwin (after search/onnx/setup.sh)")
	}
	ctx := context.Background()
	parts := []struct {
		name string
		qs   []eval.Query
	}{{"tuning", loadQueries(t, tuningFiles)}, {"held out", loadQueries(t, heldOutFiles)}}
	for _, model := range strings.Split(*evalModels, ",") {
		t.Run(model, func(t *testing.T) {
			o, err := onnx.New(model, onnx.WithBackend(onnx.Backend(*evalBackend)))
			if err != nil {
				t.Fatal(err)
			}
			defer o.Close()
			ce, err := newCachedEmbedder(o, o.Spec().Dim, evalCacheDir(t))
			if err != nil {
				t.Fatal(err)
			}
			defer ce.Close()
			stWhole, res := indexWith(t, ce, false)
			rec := &recorder{cachedEmbedder: ce, texts: map[string]bool{}}
			stMean, _ := indexWith(t, rec, true)

			// Every chunk of the corpus, with its text, from the store.
			q0, err := ce.EmbedQuery(ctx, []string{"revenue"})
			if err != nil {
				t.Fatal(err)
			}
			all, err := stWhole.Nearest(ctx, q0[0], store.Filter{AsOf: eval.CorpusAsOf}, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			if len(all) != res.ChunksTotal {
				t.Fatalf("the store lists %d chunks as of %s, the index made %d", len(all), eval.CorpusAsOf, res.ChunksTotal)
			}
			w := windowTokens(t, model)
			windows := map[string][]string{}
			cut := map[string]bool{}
			var many, npieces int
			for _, m := range all {
				ps := windowPieces(m.Chunk.Text, w)
				windows[m.Chunk.ID] = ps
				npieces += len(ps)
				if len(ps) > 1 {
					many++
				}
				for _, p := range ps {
					cut[p] = true
				}
			}
			delete(rec.texts, "dimension probe")
			var missing, extra int
			for p := range cut {
				if !rec.texts[p] {
					missing++
				}
			}
			for p := range rec.texts {
				if !cut[p] {
					extra++
				}
			}
			if missing > 0 || extra > 0 {
				t.Errorf("the windows cut here are not the Engine's: %d cut here and not embedded by it, %d embedded by it and not cut here", missing, extra)
			}
			t.Logf("%s: window %d cl100k tokens; %d chunks, %d of them longer than one window; %d windows (%d distinct texts)", model, w, len(all), many, npieces, len(cut))

			whole, mean, wins := map[string][]float32{}, map[string][]float32{}, map[string][][]float32{}
			made := ce.made
			for _, m := range all {
				vs, err := ce.Embed(ctx, append([]string{m.Chunk.Text}, windows[m.Chunk.ID]...))
				if err != nil {
					t.Fatal(err)
				}
				whole[m.Chunk.ID], wins[m.Chunk.ID], mean[m.Chunk.ID] = vs[0], vs[1:], meanOf(vs[1:])
			}
			t.Logf("%s: %d texts embedded for the windows (the rest from the cache)", model, ce.made-made)

			byWhole := rescored{stWhole, func(q []float32, id string) float64 { return cosine(q, whole[id]) }}
			byMean := rescored{stWhole, func(q []float32, id string) float64 { return cosine(q, mean[id]) }}
			byMax := rescored{stWhole, func(q []float32, id string) float64 {
				best := math.Inf(-1)
				for _, v := range wins[id] {
					best = max(best, cosine(q, v))
				}
				return best
			}}

			var b strings.Builder
			fmt.Fprintf(&b, "\n%s: kNN by the whole chunk, the mean of its windows, its best window (max-sim)\n", model)
			fmt.Fprintf(&b, "| fusion | part | vectors | unfiltered bm25 | knn | hybrid | ticker bm25 | knn | hybrid | earns |\n|---|---|---|---|---|---|---|---|---|---|\n")
			for _, f := range fusions() {
				for _, part := range parts {
					// The harness against the Engine's own figures.
					if why := sameFigures(runEval(t, engineOn(t, byWhole, ce, f), part.qs), runEval(t, engineOn(t, stWhole, ce, f), part.qs)); why != "" {
						t.Errorf("%s, %s part, whole chunks: the harness differs from the Engine: %s", f, part.name, why)
					}
					repMean := runEval(t, engineOn(t, byMean, ce, f), part.qs)
					if why := sameFigures(repMean, runEval(t, engineOn(t, stMean, ce, f), part.qs)); why != "" {
						t.Errorf("%s, %s part, mean of windows: the harness differs from the Engine with search.WithWindows: %s", f, part.name, why)
					}
					for _, v := range []struct {
						name string
						rep  *eval.Report
					}{
						{"whole", runEval(t, engineOn(t, byWhole, ce, f), part.qs)},
						{"mean", repMean},
						{"max", runEval(t, engineOn(t, byMax, ce, f), part.qs)},
					} {
						ok := "yes"
						if earns(v.rep) != "" {
							ok = "no"
						}
						fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", f, part.name, v.name,
							figures(v.rep, search.BM25, false), figures(v.rep, search.KNN, false), figures(v.rep, search.Hybrid, false),
							figures(v.rep, search.BM25, true), figures(v.rep, search.KNN, true), figures(v.rep, search.Hybrid, true), ok)
					}
				}
			}
			t.Log(b.String())
		})
	}
}
