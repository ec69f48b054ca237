package onnx

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/edgar13f/edgar13f/search"
	ort "github.com/yalue/onnxruntime_go"
)

// DefaultBatch is how many texts one run of the graph takes by default.
// One: on 450-token chunks a batch of 8 was slower per chunk for every
// model (search/onnx's README has the figures), and an int8 graph
// quantises its activations with one scale for the whole batch, so in a
// batch a text's vector would move (cosine down to 0.975 for
// all-MiniLM-L6-v2-q) with the texts batched with it.
const DefaultBatch = 1

// An Option configures [New].
type Option func(*config)

type config struct {
	dir     string
	threads int
	batch   int
}

// WithDir sets the install directory (default [DefaultDir]).
func WithDir(dir string) Option { return func(c *config) { c.dir = dir } }

// WithThreads sets the threads ONNX Runtime uses for one run of the graph
// (default 0: ONNX Runtime's choice, one per physical core).
func WithThreads(n int) Option { return func(c *config) { c.threads = n } }

// WithBatchSize sets how many texts one run of the graph takes (default
// [DefaultBatch]; at least 1). Texts are batched by length, so that
// padding costs little; the vectors of an int8 graph then depend a little
// on the texts batched together.
func WithBatchSize(n int) Option { return func(c *config) { c.batch = n } }

// An Embedder runs a sentence embedding model in-process through ONNX
// Runtime: it tokenizes each text with the model's WordPiece vocabulary,
// cut to the model's window, runs the graph, pools the token states (mean
// or [CLS], as the model was trained) and scales the vector to length 1, as
// sentence-transformers does. It implements [search.Embedder] and is safe
// for concurrent use. Nothing is downloaded: the runtime and the weights
// come from [SetupCommand].
type Embedder struct {
	spec   Spec
	tok    *Tokenizer
	sess   *ort.DynamicAdvancedSession
	batch  int
	mu     sync.RWMutex // held for reading by a run, for writing by Close
	closed atomic.Bool
}

var _ search.Embedder = (*Embedder)(nil)

// The ONNX Runtime library is loaded once per process.
var (
	runtimeMu   sync.Mutex
	runtimePath string
)

// loadRuntime loads the shared library at path, once; a second path is an
// error, since a process holds one ONNX Runtime.
func loadRuntime(path string) error {
	runtimeMu.Lock()
	defer runtimeMu.Unlock()
	if ort.IsInitialized() {
		if path != runtimePath {
			return fmt.Errorf("edgar13f/search/onnx: ONNX Runtime is already loaded from %s, not %s", runtimePath, path)
		}
		return nil
	}
	ort.SetSharedLibraryPath(path)
	if err := ort.InitializeEnvironment(ort.WithLogLevelError()); err != nil {
		return fmt.Errorf("edgar13f/search/onnx: loading ONNX Runtime from %s: %w (reinstall with %s)", path, err, SetupCommand)
	}
	runtimePath = path
	return nil
}

// New returns an Embedder for the named model (one of [Models]), with its
// runtime and weights read from the install directory. A missing file is a
// [*MissingError] that names [SetupCommand]. Close the Embedder when done.
func New(model string, opts ...Option) (*Embedder, error) {
	spec, ok := Lookup(model)
	if !ok {
		return nil, fmt.Errorf("edgar13f/search/onnx: unknown model %q: want one of %v", model, Models())
	}
	cfg := config{batch: DefaultBatch}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.batch < 1 {
		return nil, fmt.Errorf("edgar13f/search/onnx: batch size %d: want at least 1", cfg.batch)
	}
	if cfg.threads < 0 {
		return nil, fmt.Errorf("edgar13f/search/onnx: %d threads: want 0 (the runtime's choice) or more", cfg.threads)
	}
	if cfg.dir == "" {
		d, err := DefaultDir()
		if err != nil {
			return nil, err
		}
		cfg.dir = d
	}
	if err := need(cfg.dir, "", RuntimeFile); err != nil {
		return nil, err
	}
	if err := need(cfg.dir, spec.Name, spec.ONNXFile, spec.Tokenizer); err != nil {
		return nil, err
	}
	tok, err := LoadTokenizer(filepath.Join(cfg.dir, spec.Tokenizer))
	if err != nil {
		return nil, fmt.Errorf("edgar13f/search/onnx: model %s: %w", spec.Name, err)
	}
	if err := loadRuntime(filepath.Join(cfg.dir, RuntimeFile)); err != nil {
		return nil, err
	}
	so, err := ort.NewSessionOptions()
	if err != nil {
		return nil, fmt.Errorf("edgar13f/search/onnx: %w", err)
	}
	defer so.Destroy()
	if cfg.threads > 0 {
		if err := so.SetIntraOpNumThreads(cfg.threads); err != nil {
			return nil, fmt.Errorf("edgar13f/search/onnx: %w", err)
		}
	}
	if err := so.SetInterOpNumThreads(1); err != nil {
		return nil, fmt.Errorf("edgar13f/search/onnx: %w", err)
	}
	// Threads that wait by spinning take cores a busy machine needs.
	if err := so.AddSessionConfigEntry("session.intra_op.allow_spinning", "0"); err != nil {
		return nil, fmt.Errorf("edgar13f/search/onnx: %w", err)
	}
	sess, err := ort.NewDynamicAdvancedSession(filepath.Join(cfg.dir, spec.ONNXFile),
		[]string{"input_ids", "attention_mask", "token_type_ids"}, []string{"last_hidden_state"}, so)
	if err != nil {
		return nil, fmt.Errorf("edgar13f/search/onnx: model %s: %w (reinstall with %s %s)", spec.Name, err, SetupCommand, spec.Name)
	}
	return &Embedder{spec: spec, tok: tok, sess: sess, batch: cfg.batch}, nil
}

// Model returns the model's name, such as "bge-small-en-v1.5".
func (e *Embedder) Model() string { return e.spec.Name }

// Spec returns the model's description.
func (e *Embedder) Spec() Spec { return e.spec }

// Tokenizer returns the model's tokenizer.
func (e *Embedder) Tokenizer() *Tokenizer { return e.tok }

// ErrClosed is returned by an Embedder used after Close.
var ErrClosed = errors.New("edgar13f/search/onnx: embedder closed")

// Close frees the model. It waits for runs under way.
func (e *Embedder) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed.Swap(true) {
		return nil
	}
	return e.sess.Destroy()
}

// Embed returns the vector of each text, as a passage (a document's
// chunk): without the model's query prefix. Of a text longer than the
// model's window only the first Window tokens are read. It fails when ctx
// ends (a run under way is stopped).
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return e.embed(ctx, texts, "")
}

// EmbedQuery returns the vector of each text as a search query: with the
// model's query prefix, when it has one (bge-small-en-v1.5's "Represent
// this sentence for searching relevant passages: "); otherwise as Embed.
func (e *Embedder) EmbedQuery(ctx context.Context, texts []string) ([][]float32, error) {
	return e.embed(ctx, texts, e.spec.QueryPrefix)
}

func (e *Embedder) embed(ctx context.Context, texts []string, prefix string) ([][]float32, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.closed.Load() {
		return nil, ErrClosed
	}
	ids := make([][]int32, len(texts))
	for i, t := range texts {
		ids[i] = e.tok.Encode(prefix+t, e.spec.Window)
	}
	// Longest first, so each batch pads little.
	order := make([]int, len(texts))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return len(ids[b]) - len(ids[a]) })
	out := make([][]float32, len(texts))
	for batch := range slices.Chunk(order, e.batch) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rows := make([][]int32, len(batch))
		for j, i := range batch {
			rows[j] = ids[i]
		}
		vs, err := e.run(ctx, rows)
		if err != nil {
			return nil, err
		}
		for j, i := range batch {
			out[i] = vs[j]
		}
	}
	return out, nil
}

// run embeds one batch of token id rows.
func (e *Embedder) run(ctx context.Context, rows [][]int32) ([][]float32, error) {
	n, width := len(rows), 0
	for _, r := range rows {
		width = max(width, len(r))
	}
	idData := make([]int64, n*width)
	maskData := make([]int64, n*width)
	typeData := make([]int64, n*width)
	for j, r := range rows {
		for k, id := range r {
			idData[j*width+k] = int64(id)
			maskData[j*width+k] = 1
		}
	}
	shape := ort.NewShape(int64(n), int64(width))
	var inputs []ort.Value
	defer func() {
		for _, v := range inputs {
			v.Destroy()
		}
	}()
	for _, d := range [][]int64{idData, maskData, typeData} {
		t, err := ort.NewTensor(shape, d)
		if err != nil {
			return nil, fmt.Errorf("edgar13f/search/onnx: %w", err)
		}
		inputs = append(inputs, t)
	}
	ro, err := ort.NewRunOptions()
	if err != nil {
		return nil, fmt.Errorf("edgar13f/search/onnx: %w", err)
	}
	defer ro.Destroy()
	stop := context.AfterFunc(ctx, func() { ro.Terminate() })
	outputs := []ort.Value{nil}
	err = e.sess.RunWithOptions(inputs, outputs, ro)
	stop()
	if outputs[0] != nil {
		defer outputs[0].Destroy()
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, fmt.Errorf("edgar13f/search/onnx: model %s: %w", e.spec.Name, err)
	}
	hidden, ok := outputs[0].(*ort.Tensor[float32])
	if !ok {
		return nil, fmt.Errorf("edgar13f/search/onnx: model %s: last_hidden_state is %T, not float32", e.spec.Name, outputs[0])
	}
	s := hidden.GetShape()
	if len(s) != 3 || s[0] != int64(n) || s[1] != int64(width) || s[2] != int64(e.spec.Dim) {
		return nil, fmt.Errorf("edgar13f/search/onnx: model %s: last_hidden_state of shape %v, want [%d %d %d]", e.spec.Name, s, n, width, e.spec.Dim)
	}
	return pool(hidden.GetData(), rows, width, e.spec.Dim, e.spec.Pooling)
}

// pool turns the hidden states ([row][token][dim], rows padded to width)
// into one vector of length 1 per row.
func pool(h []float32, rows [][]int32, width, dim int, p Pooling) ([][]float32, error) {
	out := make([][]float32, len(rows))
	acc := make([]float64, dim)
	for j, r := range rows {
		clear(acc)
		base := j * width * dim
		switch p {
		case CLSPooling:
			for d := range dim {
				acc[d] = float64(h[base+d])
			}
		default: // MeanPooling: the mean over the real tokens
			for k := range r {
				off := base + k*dim
				for d := range dim {
					acc[d] += float64(h[off+d])
				}
			}
			for d := range acc {
				acc[d] /= float64(len(r))
			}
		}
		var norm float64
		for _, x := range acc {
			norm += x * x
		}
		norm = math.Sqrt(norm)
		if norm == 0 || math.IsNaN(norm) || math.IsInf(norm, 0) {
			return nil, fmt.Errorf("edgar13f/search/onnx: a vector of length %v: the graph's output is unusable", norm)
		}
		v := make([]float32, dim)
		for d, x := range acc {
			v[d] = float32(x / norm)
		}
		out[j] = v
	}
	return out, nil
}
