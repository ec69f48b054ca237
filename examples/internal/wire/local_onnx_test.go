//go:build onnx

package wire

import (
	"context"
	"testing"
)

// Built with the onnx tag (and search/onnx/setup.sh all-MiniLM-L6-v2-q
// run), local:MODEL runs the model in-process.
func TestLocalModelRunsOnnx(t *testing.T) {
	e, err := Config{EmbedModel: "local:all-MiniLM-L6-v2-q"}.Embedder()
	if err != nil {
		t.Fatal(err)
	}
	if e.Model() != "all-MiniLM-L6-v2-q" {
		t.Errorf("model %q", e.Model())
	}
	vs, err := e.Embed(context.Background(), []string{"share repurchases", "the company bought back its own stock", "rainfall in the Sahel"})
	if err != nil {
		t.Fatal(err)
	}
	cos := func(a, b []float32) (s float64) {
		for i := range a {
			s += float64(a[i]) * float64(b[i])
		}
		return s
	}
	if len(vs) != 3 || len(vs[0]) != 384 {
		t.Fatalf("%d vectors of %d dimensions; want 3 of 384", len(vs), len(vs[0]))
	}
	if near, far := cos(vs[0], vs[1]), cos(vs[0], vs[2]); near <= far {
		t.Errorf("cosine of paraphrases %.3f not above that of unrelated texts %.3f: not the model", near, far)
	}
	if _, err := (Config{EmbedModel: "local:no-such-model"}).Embedder(); err == nil {
		t.Error("an unknown local model was accepted")
	}
}
