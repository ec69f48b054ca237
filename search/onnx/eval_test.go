package onnx_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f/search"
	"github.com/edgar13f/edgar13f/search/eval"
	"github.com/edgar13f/edgar13f/search/onnx"
	"github.com/edgar13f/edgar13f/search/store/embedded"
)

var evalModels = flag.String("evalmodels", "all-MiniLM-L6-v2,bge-small-en-v1.5", "models TestRetrievalEvaluation measures, comma-separated")

// evalCacheDir is where the evaluation keeps the vectors it made:
// $EDGAR13F_EVAL_CACHE, else "eval" in the install directory of the
// runtime and weights.
func evalCacheDir(t *testing.T) string {
	if d := os.Getenv("EDGAR13F_EVAL_CACHE"); d != "" {
		return d
	}
	d, err := onnx.DefaultDir()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(d, "eval")
}

// evalEngine indexes the evaluation corpus with model (its vectors taken
// from the cache when made before) and returns the Engine, whose options
// opts add to the embedder.
func evalEngine(t *testing.T, model string, opts ...search.Option) (*search.Engine, *cachedEmbedder) {
	t.Helper()
	e, err := onnx.New(model)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	c, err := newCachedEmbedder(e, e.Spec().Dim, evalCacheDir(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	st, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	engine, res, err := eval.IndexCorpus(context.Background(), "../../testdata", st, append([]search.Option{search.WithEmbedder(c)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d filings, %d chunks; %d texts from the cache, %d embedded", model, len(res.Indexed), res.ChunksTotal, c.hits, c.made)
	return engine, c
}

func loadQueries(t *testing.T, name string) []eval.Query {
	t.Helper()
	qs, err := eval.LoadFile(filepath.Join("../eval/testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return qs
}

// TestRetrievalEvaluation runs the search's retrieval evaluation with
// real models.
func TestRetrievalEvaluation(t *testing.T) {
	if testing.Short() {
		t.Skip("embeds the evaluation corpus")
	}
	for _, model := range strings.Split(*evalModels, ",") {
		t.Run(model, func(t *testing.T) {
			engine, _ := evalEngine(t, model)
			for _, file := range []string{"reference-queries.json"} {
				qs := loadQueries(t, file)
				rep, err := eval.Run(context.Background(), engine, qs, eval.CorpusAsOf, []search.Mode{search.BM25, search.KNN, search.Hybrid})
				if err != nil {
					t.Fatal(err)
				}
				var b bytes.Buffer
				eval.WriteTable(&b, rep)
				t.Logf("%s, %s:\n%s", model, file, b.String())
			}
		})
	}
}
