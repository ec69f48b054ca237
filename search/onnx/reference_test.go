package onnx

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// The tests read the real runtime and weights that setup.sh installs
// (CI runs it first); without them they fail with the error that names
// the setup command.

// reference is testdata/reference.json, recorded by testdata/reference.py
// from the Hugging Face tokenizers library and sentence-transformers.
type reference struct {
	Models map[string]struct {
		Window       int         `json:"window"`
		Pooling      string      `json:"pooling"`
		IDs          [][]int32   `json:"ids"`
		Vectors      [][]float32 `json:"vectors"`
		QueryPrompt  string      `json:"query_prompt"`
		QueryVectors [][]float32 `json:"query_vectors"`
	} `json:"models"`
}

func loadJSON(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

func sentences(t *testing.T) []string {
	var s struct {
		Sentences []string `json:"sentences"`
	}
	loadJSON(t, "sentences.json", &s)
	return s.Sentences
}

func loadReference(t *testing.T) reference {
	var r reference
	loadJSON(t, "reference.json", &r)
	if len(r.Models) != len(specs) {
		t.Fatalf("reference.json has %d models, the package %d", len(r.Models), len(specs))
	}
	return r
}

// embedders are opened once per test binary: each holds a model in memory.
var (
	embeddersMu sync.Mutex
	embedders   = map[string]*Embedder{}
)

// embedder returns the model on ONNX Runtime's CPU kernels.
func embedder(t *testing.T, name string) *Embedder {
	t.Helper()
	return embedderOn(t, name, CPU)
}

// embedderOn returns the model on backend b.
func embedderOn(t *testing.T, name string, b Backend) *Embedder {
	t.Helper()
	embeddersMu.Lock()
	defer embeddersMu.Unlock()
	key := name + "/" + string(b)
	if e, ok := embedders[key]; ok {
		return e
	}
	e, err := New(name, WithBackend(b))
	if err != nil {
		t.Fatal(err)
	}
	if e.Backend() != b {
		t.Fatalf("%s: New with backend %q runs on %q", name, b, e.Backend())
	}
	embedders[key] = e
	return e
}

// testBackendEnv, set to "openvino" in the test process that
// TestOpenVINOBackend starts, makes the vector tests check the fp32 models
// on the OpenVINO backend instead of the CPU one: a process holds one
// ONNX Runtime, and the OpenVINO backend's is another version.
const testBackendEnv = "EDGAR13F_ONNX_TEST_BACKEND"

// backendsOf returns the backends this test process checks a model on:
// CPU for every model, or (under testBackendEnv) OpenVINO for the fp32
// models, those Auto runs on it.
func backendsOf(s Spec) []Backend {
	if os.Getenv(testBackendEnv) == string(OpenVINO) {
		if s.Int8 {
			return nil
		}
		return []Backend{OpenVINO}
	}
	return []Backend{CPU}
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, e := range embedders {
		e.Close()
	}
	os.Exit(code)
}

func cosine(a, b []float32) float64 {
	var ab, aa, bb float64
	for i := range a {
		ab += float64(a[i]) * float64(b[i])
		aa += float64(a[i]) * float64(a[i])
		bb += float64(b[i]) * float64(b[i])
	}
	return ab / math.Sqrt(aa*bb)
}

// TestTokenizerMatchesReference: for every model and text, the token ids
// equal those of the Hugging Face tokenizers library, truncation to the
// window included.
func TestTokenizerMatchesReference(t *testing.T) {
	ref := loadReference(t)
	texts := sentences(t)
	dir, err := DefaultDir()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range specs {
		r := ref.Models[s.Name]
		if r.Window != s.Window || r.Pooling != s.Pooling.String() || len(r.IDs) != len(texts) {
			t.Fatalf("%s: reference window %d pooling %s with %d texts; the package says %d %s with %d", s.Name, r.Window, r.Pooling, len(r.IDs), s.Window, s.Pooling, len(texts))
		}
		if err := need(dir, s.Name, s.Tokenizer); err != nil {
			t.Fatal(err)
		}
		tok, err := LoadTokenizer(filepath.Join(dir, s.Tokenizer))
		if err != nil {
			t.Fatal(err)
		}
		truncated := 0
		for i, text := range texts {
			got := tok.Encode(text, s.Window)
			if !slices.Equal(got, r.IDs[i]) {
				t.Errorf("%s: text %d %.60q:\n got  %v\n want %v", s.Name, i, text, got, r.IDs[i])
			}
			if len(r.IDs[i]) == s.Window {
				truncated++
			}
		}
		if truncated == 0 {
			t.Errorf("%s: no reference text reaches the window of %d tokens: truncation is untested", s.Name, s.Window)
		}
	}
}

// TestTokenizerMatchesReferenceOnReports: the token ids of 900 slices of
// three real reports' text (testdata/slices.json) equal those of the
// Hugging Face tokenizers library, for every model's tokenizer.json (an
// int8 model's is the same file as its fp32 model's).
func TestTokenizerMatchesReferenceOnReports(t *testing.T) {
	matchRecorded(t, "slices.json", 900)
}

// TestTokenizerMatchesReferenceOnUnicode: the same for 1,500 strings of
// random code points from 20 blocks, controls, marks, private use, emoji
// and characters Unicode added since the tokenizers' tables were made
// among them (testdata/unicode.json, written by gen/hfunicode.py).
func TestTokenizerMatchesReferenceOnUnicode(t *testing.T) {
	matchRecorded(t, "unicode.json", 1500)
}

// matchRecorded checks every model's tokenizer against the ids a recorded
// file holds for at least n texts, untruncated.
func matchRecorded(t *testing.T, file string, n int) {
	t.Helper()
	var ref struct {
		Texts []string             `json:"texts"`
		IDs   map[string][][]int32 `json:"ids"`
	}
	loadJSON(t, file, &ref)
	dir, err := DefaultDir()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range specs {
		want := ref.IDs[strings.TrimSuffix(s.Name, "-q")]
		if len(want) != len(ref.Texts) || len(want) < n {
			t.Fatalf("%s: %s has %d id lists for %d texts", s.Name, file, len(want), len(ref.Texts))
		}
		if err := need(dir, s.Name, s.Tokenizer); err != nil {
			t.Fatal(err)
		}
		tok, err := LoadTokenizer(filepath.Join(dir, s.Tokenizer))
		if err != nil {
			t.Fatal(err)
		}
		bad := 0
		for i, text := range ref.Texts {
			if got := tok.Encode(text, 0); !slices.Equal(got, want[i]) {
				if bad++; bad <= 5 {
					t.Errorf("%s: %s text %d %.60q:\n got  %v\n want %v", s.Name, file, i, text, got, want[i])
				}
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d of %d texts of %s tokenized otherwise than the reference", s.Name, bad, len(ref.Texts), file)
		}
	}
}

// TestVectorsMatchReference: every model's vector of every text is within
// cosine 0.999 of sentence-transformers' (both run the same graph; this
// checks the tokenizer, window, pooling and normalisation), and so are
// bge-small-en-v1.5's query vectors, made with its query prompt.
func TestVectorsMatchReference(t *testing.T) {
	ref := loadReference(t)
	texts := sentences(t)
	ctx := context.Background()
	for _, s := range specs {
		for _, b := range backendsOf(s) {
			e := embedderOn(t, s.Name, b)
			r := ref.Models[s.Name]
			check := func(what string, got, want [][]float32) {
				t.Helper()
				if len(got) != len(want) {
					t.Fatalf("%s %s: %d vectors, want %d", s.Name, what, len(got), len(want))
				}
				worst := 1.0
				for i := range got {
					if len(got[i]) != s.Dim {
						t.Fatalf("%s %s: text %d: dimension %d, want %d", s.Name, what, i, len(got[i]), s.Dim)
					}
					c := cosine(got[i], want[i])
					worst = min(worst, c)
					if c < 0.999 {
						t.Errorf("%s on %s %s: text %d %.60q: cosine %.6f to the reference, want >= 0.999", s.Name, b, what, i, texts[i], c)
					}
				}
				t.Logf("%s on %s %s: worst cosine to sentence-transformers %.6f", s.Name, b, what, worst)
			}
			got, err := e.Embed(ctx, texts)
			if err != nil {
				t.Fatal(err)
			}
			check("passages", got, r.Vectors)
			if s.QueryPrefix != r.QueryPrompt {
				t.Fatalf("%s: query prefix %q, the reference's prompt %q", s.Name, s.QueryPrefix, r.QueryPrompt)
			}
			q, err := e.EmbedQuery(ctx, texts)
			if err != nil {
				t.Fatal(err)
			}
			if s.QueryPrefix == "" {
				for i := range q {
					if !slices.Equal(q[i], got[i]) {
						t.Fatalf("%s: without a query prefix, EmbedQuery and Embed differ for text %d", s.Name, i)
					}
				}
				continue
			}
			check("queries", q, r.QueryVectors)
		}
	}
}

// TestPublishedSimilarities: all-MiniLM-L6-v2's similarity matrix of the
// three sentences sentence-transformers publishes in its README (computed
// there with the original PyTorch weights), to its four decimals; the
// int8 variant within 0.03 (its weights move one of these similarities by
// 0.025).
func TestPublishedSimilarities(t *testing.T) {
	texts := []string{"The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium."}
	published := [3][3]float64{
		{1.0000, 0.6660, 0.1046},
		{0.6660, 1.0000, 0.1411},
		{0.1046, 0.1411, 1.0000},
	}
	for _, name := range []string{"all-MiniLM-L6-v2", "all-MiniLM-L6-v2-q"} {
		s, _ := Lookup(name)
		for _, b := range backendsOf(s) {
			tol := 0.00005 + 1e-6 // half the last published decimal
			switch {
			case s.Int8:
				tol = 0.03
			case b == OpenVINO:
				tol = 0.001 // bfloat16
			}
			vs, err := embedderOn(t, name, b).Embed(context.Background(), texts)
			if err != nil {
				t.Fatal(err)
			}
			for i := range 3 {
				for j := range 3 {
					if c := cosine(vs[i], vs[j]); math.Abs(c-published[i][j]) > tol {
						t.Errorf("%s on %s: similarity[%d][%d] = %.5f, published %.4f (tolerance %g)", name, b, i, j, c, published[i][j], tol)
					}
				}
			}
		}
	}
}
