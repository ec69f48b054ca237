package search

import (
	"context"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/edgar13f/edgar13f/search/internal/chunk"
	"github.com/edgar13f/edgar13f/search/store"
)

func TestKnownModel(t *testing.T) {
	for name, want := range map[string]int{
		"all-MiniLM-L6-v2": 256, "sentence-transformers/all-MiniLM-L6-v2": 256, "all-minilm-l6-v2-q": 256,
		"BAAI/bge-small-en-v1.5": 512, "bge-small-en-v1.5:latest": 512, " bge-small-en-v1.5-q ": 512,
	} {
		m, ok := KnownModel(name)
		if !ok || m.Window != want {
			t.Errorf("KnownModel(%q) = %+v, %v; want window %d", name, m, ok, want)
		}
		if strings.Contains(strings.ToLower(name), "bge") != (m.QueryPrefix != "") {
			t.Errorf("KnownModel(%q): query prefix %q", name, m.QueryPrefix)
		}
	}
	for _, name := range []string{"", "text-embedding-3-small", "nomic-embed-text", "all-minilm-l6-v2-x"} {
		if m, ok := KnownModel(name); ok {
			t.Errorf("KnownModel(%q) = %+v; want unknown", name, m)
		}
	}
}

// recordingEmbedder records the texts it embeds.
type recordingEmbedder struct {
	hashEmbedder
	mu    sync.Mutex
	texts []string
}

func (r *recordingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	r.mu.Lock()
	r.texts = append(r.texts, texts...)
	r.mu.Unlock()
	return r.hashEmbedder.Embed(ctx, texts)
}

// TestKnownQueryPrefix: an embedder that does not embed queries apart
// (an HTTP one) serving a model known to want a query instruction gets
// queries with it, and passages without.
func TestKnownQueryPrefix(t *testing.T) {
	st := newMemStore()
	emb := &recordingEmbedder{hashEmbedder: hashEmbedder{model: "BAAI/bge-small-en-v1.5", dim: 64}}
	putSynth(t, st, &emb.hashEmbedder, threeFilings()...)
	if _, err := newTestEngine(t, st, WithEmbedder(emb)).Search(context.Background(), "export controls", day("2024-06-30"), KNN); err != nil {
		t.Fatal(err)
	}
	want := "Represent this sentence for searching relevant passages: export controls"
	if len(emb.texts) != 1 || emb.texts[0] != want {
		t.Errorf("query embedded as %q; want %q", emb.texts, want)
	}
}

// TestWindowsEmbedLongChunks: with WithWindows, a chunk longer than the
// model's window is embedded as windows that each fit it, and its vector
// is their mean scaled to length 1; a chunk that fits is embedded whole.
// Without it, every chunk is embedded whole.
func TestWindowsEmbedLongChunks(t *testing.T) {
	var long strings.Builder
	for i := range 40 {
		long.WriteString("Sentence number " + strings.Repeat("x", i%7+1) + " speaks of revenue and of supply. ")
	}
	short := "A short chunk about tariffs."
	chunks := []store.Chunk{{Text: long.String()}, {Text: short}}
	if chunk.Count(long.String()) < 200 {
		t.Fatalf("long chunk of %d tokens", chunk.Count(long.String()))
	}
	ctx := context.Background()

	emb := &recordingEmbedder{hashEmbedder: hashEmbedder{model: "m", dim: 32}}
	e := newTestEngine(t, newMemStore(), WithEmbedder(emb), WithWindows(64))
	got, err := e.embedChunks(ctx, chunks, store.Meta{Model: "m", Dim: 32})
	if err != nil {
		t.Fatal(err)
	}
	limit := (64 - 2) * 9 / 10
	if len(emb.texts) < 5 || emb.texts[len(emb.texts)-1] != short {
		t.Fatalf("embedded %d texts, last %q; want the long chunk's windows, then the short chunk", len(emb.texts), emb.texts[len(emb.texts)-1])
	}
	windows := emb.texts[:len(emb.texts)-1]
	for _, w := range windows {
		if n := chunk.Count(w); n > limit {
			t.Errorf("a window of %d tokens; want at most %d", n, limit)
		}
	}
	wv, _ := emb.hashEmbedder.Embed(ctx, windows)
	mean := make([]float64, 32)
	for _, v := range wv {
		for j, x := range v {
			mean[j] += float64(x)
		}
	}
	var n float64
	for _, x := range mean {
		n += x * x
	}
	for j := range mean {
		if d := math.Abs(mean[j]/math.Sqrt(n) - float64(got[0][j])); d > 1e-6 {
			t.Fatalf("long chunk's vector [%d] = %v; want the windows' mean %v", j, got[0][j], mean[j]/math.Sqrt(n))
		}
	}
	sv, _ := emb.hashEmbedder.Embed(ctx, []string{short})
	for j := range sv[0] {
		if sv[0][j] != got[1][j] {
			t.Fatalf("short chunk's vector differs from its own embedding")
		}
	}

	// The window from the table of known models, and no windowing without
	// the option.
	emb = &recordingEmbedder{hashEmbedder: hashEmbedder{model: "all-MiniLM-L6-v2", dim: 32}}
	if w := newTestEngine(t, newMemStore(), WithEmbedder(emb), WithWindows(0)).windowTokens(); w != (256-2)*9/10 {
		t.Errorf("window of all-MiniLM-L6-v2: %d cl100k tokens", w)
	}
	e = newTestEngine(t, newMemStore(), WithEmbedder(emb))
	if _, err := e.embedChunks(ctx, chunks, store.Meta{Model: "all-MiniLM-L6-v2", Dim: 32}); err != nil {
		t.Fatal(err)
	}
	if len(emb.texts) != 2 || emb.texts[0] != long.String() {
		t.Errorf("without WithWindows: %d texts embedded; want the 2 chunks whole", len(emb.texts))
	}
}

// TestDefaultModeFollowsTheMeasurement: without a mode, Search ranks by
// BM25, also with an embedder, unless the embedder's model is one on
// which hybrid measured better (ModelInfo.Hybrid).
func TestDefaultModeFollowsTheMeasurement(t *testing.T) {
	knownModels["hybrid-earned-test"] = ModelInfo{Window: 256, Hybrid: true}
	defer delete(knownModels, "hybrid-earned-test")
	for model, want := range map[string]Mode{"hybrid-earned-test": Hybrid, "all-MiniLM-L6-v2": BM25, "bge-small-en-v1.5": BM25, "test-embed": BM25} {
		st := newMemStore()
		emb := &hashEmbedder{model: model, dim: 16}
		putSynth(t, st, emb, threeFilings()...)
		r, err := newTestEngine(t, st, WithEmbedder(emb)).Search(context.Background(), "export controls", day("2024-06-30"))
		if err != nil {
			t.Fatal(err)
		}
		if r.Mode != want {
			t.Errorf("%s: default mode %s; want %s", model, r.Mode, want)
		}
	}
}
