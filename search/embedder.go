package search

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// ParseEmbedderConfig returns the embedder that the configuration values
// of the example commands name (they pass the environment variables
// EDGAR13F_EMBED_URL, EDGAR13F_EMBED_MODEL and EDGAR13F_EMBED_API_KEY; the
// library itself reads no environment):
//
//   - url "" means no embedder: ParseEmbedderConfig returns nil, nil, and
//     the search is BM25 only.
//   - "http://host:port/v1" or "https://.../v1", an OpenAI-compatible base
//     URL: an [OpenAIEmbedder] for model, with apiKey when not empty.
//   - "ollama:http://host:port": an [OllamaEmbedder] for model.
//   - "hash:DIM", such as "hash:256": a [HashEmbedder] of that dimension, for
//     tests and offline demonstrations only (it is not semantic); model
//     must be empty or its own name ("hash-256").
//
// A url without a model, or one of none of these forms, is an error that
// says what to set.
func ParseEmbedderConfig(url, model, apiKey string, opts ...EmbedderOption) (Embedder, error) {
	url, model = strings.TrimSpace(url), strings.TrimSpace(model)
	switch {
	case url == "":
		return nil, nil
	case strings.HasPrefix(url, "hash:"):
		dim, err := strconv.Atoi(strings.TrimPrefix(url, "hash:"))
		if err != nil || dim < 1 || dim > maxHashDim {
			return nil, fmt.Errorf("edgar13f/search: embedder URL %q: want hash:DIM with DIM from 1 to %d", url, maxHashDim)
		}
		h := HashEmbedder{Dim: dim}
		if model != "" && model != h.Model() {
			return nil, fmt.Errorf("edgar13f/search: embedder %q makes model %q, not %q: leave the model (EDGAR13F_EMBED_MODEL) empty", url, h.Model(), model)
		}
		return h, nil
	case model == "":
		return nil, fmt.Errorf("edgar13f/search: embedder URL %q given without a model: set EDGAR13F_EMBED_MODEL (for example nomic-embed-text or text-embedding-3-small)", url)
	case strings.HasPrefix(url, "ollama:"):
		if apiKey != "" {
			opts = append(opts[:len(opts):len(opts)], WithAPIKey(apiKey))
		}
		e, err := NewOllamaEmbedder(strings.TrimPrefix(url, "ollama:"), model, opts...)
		if err != nil {
			return nil, err // not a typed nil in the interface
		}
		return e, nil
	case strings.HasPrefix(url, "http://") || strings.HasPrefix(url, "https://"):
		e, err := NewOpenAIEmbedder(url, model, apiKey, opts...)
		if err != nil {
			return nil, err
		}
		return e, nil
	}
	return nil, fmt.Errorf("edgar13f/search: embedder URL %q: want an OpenAI-compatible base URL (http://host:port/v1), ollama:http://host:port, or hash:DIM", url)
}

// maxHashDim is the largest HashEmbedder dimension ParseEmbedderConfig
// accepts.
const maxHashDim = 1 << 16

// A HashEmbedder embeds texts by feature hashing, with no model and no
// server: each lower-cased word (a run of letters and digits) and each pair
// of neighbouring words adds ±1 to one of Dim components chosen by its
// FNV-1a hash, and the vector is scaled to length 1. A text without words
// has the vector of one feature of its own, the same for all of them: never
// the zero vector, which has no direction (an Engine refuses it).
//
// It is deterministic and fast, and texts that share words are near, but
// it is not semantic: "revenue" and "sales" are as far apart as any two
// words. It is meant for tests and offline demonstrations, never for real
// retrieval.
type HashEmbedder struct {
	Dim int // dimension of the vectors; must be positive
}

// Model returns "hash-<Dim>".
func (h HashEmbedder) Model() string { return "hash-" + strconv.Itoa(h.Dim) }

// Embed returns the vector of each text. It fails only when Dim is not
// positive, or when ctx has ended.
func (h HashEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if h.Dim < 1 {
		return nil, errors.New("edgar13f/search: HashEmbedder.Dim must be positive")
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if i%256 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		out[i] = h.vector(t)
	}
	return out, nil
}

func (h HashEmbedder) vector(text string) []float32 {
	acc := make([]float64, h.Dim)
	add := func(feature string) {
		f := fnv.New64a()
		f.Write([]byte(feature))
		sum := f.Sum64()
		sign := 1.0
		if sum>>63 == 1 {
			sign = -1
		}
		acc[(sum&(1<<63-1))%uint64(h.Dim)] += sign
	}
	prev := ""
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		add(w)
		if prev != "" {
			add(prev + " " + w)
		}
		prev = w
	}
	if prev == "" {
		add("") // no words: the empty text's feature, never the zero vector
	}
	var norm float64
	for _, x := range acc {
		norm += x * x
	}
	v := make([]float32, h.Dim)
	if norm == 0 {
		return v
	}
	norm = math.Sqrt(norm)
	for i, x := range acc {
		v[i] = float32(x / norm)
	}
	return v
}

var (
	_ Embedder = (*OpenAIEmbedder)(nil)
	_ Embedder = (*OllamaEmbedder)(nil)
	_ Embedder = HashEmbedder{}
)
