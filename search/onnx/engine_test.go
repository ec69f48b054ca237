package onnx_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/mirror"
	"github.com/edgar13f/edgar13f/search"
	"github.com/edgar13f/edgar13f/search/onnx"
	"github.com/edgar13f/edgar13f/search/store/embedded"
)

// TestEngineWithLocalEmbedder: the search Engine indexes a real 10-Q of
// the repository's mirror with the local embedder, and a question in
// other words than its passage ("buying back its own stock" for a
// passage on share repurchases) finds it by vectors alone.
func TestEngineWithLocalEmbedder(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	tree, err := mirror.Dir("../../testdata/mirror")
	if err != nil {
		t.Fatal(err)
	}
	client, err := edgar13f.NewClient(edgar13f.WithFetcher(mirror.NewFetcher(tree)), edgar13f.WithCacheDir(filepath.Join(dir, "cache")))
	if err != nil {
		t.Fatal(err)
	}
	st, err := embedded.Open(filepath.Join(dir, "search"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	e, err := onnx.New("all-MiniLM-L6-v2-q")
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	engine, err := search.New(client, st, search.WithEmbedder(e))
	if err != nil {
		t.Fatal(err)
	}
	asOf := edgar13f.MustParseDate("2025-08-15")
	res, err := engine.Index(ctx, []string{"AAPL"}, asOf, search.FormType("10-Q"))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Indexed) != 1 || res.Indexed[0].Chunks == 0 {
		t.Fatalf("indexed %+v, want Apple's 10-Q", res.Indexed)
	}
	r, err := engine.Search(ctx, "how much money did Apple spend buying back its own stock", asOf, search.KNN, search.Limit(3))
	if err != nil {
		t.Fatal(err)
	}
	if r.Mode != search.KNN || len(r.Hits) == 0 {
		t.Fatalf("search: mode %s, %d hits", r.Mode, len(r.Hits))
	}
	for _, h := range r.Hits {
		if strings.Contains(strings.ToLower(h.Text), "repurchase") {
			return
		}
	}
	for _, h := range r.Hits {
		t.Logf("hit %d: Item %s chunk %d: %.200s", h.Rank, h.Item, h.ChunkIndex, h.Text)
	}
	t.Errorf("no top-3 kNN hit speaks of repurchases")
}
