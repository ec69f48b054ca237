package search

import (
	"strings"

	"github.com/edgar13f/edgar13f/search/internal/chunk"
)

// A ModelInfo is what the Engine knows of an embedding model besides its
// vectors: the most tokens of a text it reads (its window, in its own
// tokens, [CLS] and [SEP] included), the instruction it wants before a
// search query ("" for none), and whether [Hybrid] is the default mode
// with it: true only for a model with which hybrid measured at least as
// good as BM25 and kNN on hit@1, hit@5 and MRR@10, and better than BM25 on
// MRR@10, unfiltered and ticker-filtered, on the project's retrieval
// evaluation (search/eval/README.md).
type ModelInfo struct {
	Window      int
	QueryPrefix string
	Hybrid      bool
}

// knownModels are the models whose window and query prefix the Engine
// knows by name, as sentence-transformers configures them. Keys are
// lower case, without an organisation ("BAAI/") or an int8 suffix.
var knownModels = map[string]ModelInfo{
	"all-minilm-l6-v2":  {Window: 256},
	"all-minilm-l12-v2": {Window: 256},
	"all-mpnet-base-v2": {Window: 384},
	"bge-small-en-v1.5": {Window: 512, QueryPrefix: "Represent this sentence for searching relevant passages: "},
	"bge-base-en-v1.5":  {Window: 512, QueryPrefix: "Represent this sentence for searching relevant passages: "},
	"bge-large-en-v1.5": {Window: 512, QueryPrefix: "Represent this sentence for searching relevant passages: "},
}

// KnownModel returns what the Engine knows of the embedding model named
// name: "all-MiniLM-L6-v2", "sentence-transformers/all-MiniLM-L6-v2",
// "BAAI/bge-small-en-v1.5", an int8 variant ("bge-small-en-v1.5-q") or a
// tag (":latest") name the same model. Names are case-insensitive.
func KnownModel(name string) (ModelInfo, bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	if i := strings.LastIndexByte(n, '/'); i >= 0 {
		n = n[i+1:]
	}
	if i := strings.IndexByte(n, ':'); i >= 0 {
		n = n[:i]
	}
	if m, ok := knownModels[n]; ok {
		return m, true
	}
	m, ok := knownModels[strings.TrimSuffix(n, "-q")]
	return m, ok
}

// WithWindows makes the Engine embed a chunk longer than its embedding
// model's window as windows: the chunk is cut (at paragraphs and
// sentences, as chunks are) into pieces that fit the window, each piece
// is embedded, and the chunk's vector is the mean of theirs, of length 1.
// Without it a model reads only a chunk's first Window tokens
// (all-MiniLM-L6-v2: 256, about half of a 450-token chunk). window is the
// model's window in its own tokens; 0 takes it from [KnownModel] by the
// embedder's model name (a model not known is then embedded whole).
func WithWindows(window int) Option {
	return func(en *Engine) { en.windows, en.window = true, window }
}

// windowTokens returns the most cl100k_base tokens of a window of the
// Engine's model, 0 for no windowing. WordPiece cuts the text of filings
// into about 4% more tokens than cl100k_base; a tenth is kept spare, and
// [CLS] and [SEP].
func (e *Engine) windowTokens() int {
	if !e.windows || e.embedder == nil {
		return 0
	}
	w := e.window
	if w == 0 {
		m, _ := KnownModel(e.embedder.Model())
		w = m.Window
	}
	if w <= 0 {
		return 0
	}
	return max((w-2)*9/10, chunk.MinMaxTokens)
}

// windowOverlap is the overlap of neighbouring windows, in cl100k_base
// tokens.
const windowOverlap = 30

// windowed returns the texts to embed for texts (a window of each, or the
// text whole when it fits) and, for each text, the range of its windows
// in them.
func windowed(texts []string, max int) (pieces []string, spans [][2]int) {
	for _, t := range texts {
		start := len(pieces)
		if max > 0 && chunk.Count(t) > max {
			for _, p := range chunk.Split(t, max, min(windowOverlap, max/2)) {
				pieces = append(pieces, p.Text)
			}
		}
		if len(pieces) == start {
			pieces = append(pieces, t)
		}
		spans = append(spans, [2]int{start, len(pieces)})
	}
	return pieces, spans
}
