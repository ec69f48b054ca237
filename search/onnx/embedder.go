package onnx

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/edgar13f/edgar13f/search"
	ort "github.com/yalue/onnxruntime_go"
	"golang.org/x/sys/cpu"
)

// DefaultBatch is how many texts one run of the graph takes by default.
// One: on 450-token chunks a batch of 8 was slower per chunk for every
// model (search/onnx's README has the figures), and an int8 graph
// quantises its activations with one scale for the whole batch, so in a
// batch a text's vector would move (cosine down to 0.975 for
// all-MiniLM-L6-v2-q) with the texts batched with it.
const DefaultBatch = 1

// DefaultOpenVINOBatch is how many texts one run takes by default on the
// [OpenVINO] backend: there an fp32 graph's vector of a text does not
// depend on the texts batched with it, and batches of 4 did about a
// fifth more chunks per CPU second than one text a run.
const DefaultOpenVINOBatch = 4

// A Backend is what runs an Embedder's graph.
type Backend string

// The backends. [Auto] picks one for the model and the machine.
const (
	// Auto picks OpenVINO for an fp32 model when the OpenVINO runtime is
	// installed and the CPU computes in bfloat16 (AMX-BF16 or
	// AVX512-BF16), else CPU: the fastest of the two at the fp32 graph's
	// quality.
	Auto Backend = ""
	// CPU runs the graph on ONNX Runtime's own CPU kernels (MLAS), in the
	// graph's precision.
	CPU Backend = "cpu"
	// OpenVINO runs an fp32 graph (not the int8 ones) through ONNX
	// Runtime's OpenVINO execution provider on OpenVINO's CPU plugin,
	// which computes it in bfloat16 on CPUs with AMX or AVX512-BF16 (its
	// vectors within cosine 0.9999 of the fp32 graph's), with inputs of
	// the model's full window for long texts. It needs
	// "search/onnx/setup.sh openvino".
	OpenVINO Backend = "openvino"
)

// SetupOpenVINO is the argument of [SetupCommand] that installs the
// OpenVINO runtime ([OpenVINODir]).
const SetupOpenVINO = "openvino"

// cpuHasBF16 reports whether the CPU computes in bfloat16 natively, as
// OpenVINO's CPU plugin needs to run a graph in bfloat16.
var cpuHasBF16 = cpu.X86.HasAVX512BF16 || cpu.X86.HasAMXBF16

// An Option configures [New].
type Option func(*config)

type config struct {
	dir      string
	threads  int
	batch    int
	batchSet bool
	backend  Backend
}

// WithDir sets the install directory (default [DefaultDir]).
func WithDir(dir string) Option { return func(c *config) { c.dir = dir } }

// WithThreads sets the threads ONNX Runtime uses for one run of the graph
// (default 0: ONNX Runtime's choice, one per physical core). On the
// OpenVINO backend it sets the threads of the Embedder: as many batches
// run at once, one thread each (default: one per CPU the process may use).
func WithThreads(n int) Option { return func(c *config) { c.threads = n } }

// WithBackend sets what runs the graph (default [Auto]).
func WithBackend(b Backend) Option { return func(c *config) { c.backend = b } }

// WithBatchSize sets how many texts one run of the graph takes (default
// [DefaultBatch], on the OpenVINO backend [DefaultOpenVINOBatch]; at
// least 1). Texts are batched by length, so that
// padding costs little; the vectors of an int8 graph then depend a little
// on the texts batched together.
func WithBatchSize(n int) Option { return func(c *config) { c.batch, c.batchSet = n, true } }

// An Embedder runs a sentence embedding model in-process through ONNX
// Runtime: it tokenizes each text with the model's WordPiece vocabulary,
// cut to the model's window, runs the graph, pools the token states (mean
// or [CLS], as the model was trained) and scales the vector to length 1, as
// sentence-transformers does. It implements [search.Embedder] and is safe
// for concurrent use. Nothing is downloaded: the runtime and the weights
// come from [SetupCommand].
type Embedder struct {
	spec    Spec
	tok     *Tokenizer
	backend Backend
	sess    *ort.DynamicAdvancedSession // any shape (the CPU backend's only session)
	full    *ort.DynamicAdvancedSession // OpenVINO: inputs of [batch, window] only
	batch   int
	streams int          // batches run at once: OpenVINO's streams, else 1
	mu      sync.RWMutex // held for reading by a run, for writing by Close
	closed  atomic.Bool
}

var _ search.Embedder = (*Embedder)(nil)

// The ONNX Runtime library is loaded once per process.
var (
	runtimeMu   sync.Mutex
	runtimePath string
)

// loadedRuntime returns the path of the ONNX Runtime library the process
// has loaded, or "".
func loadedRuntime() string {
	runtimeMu.Lock()
	defer runtimeMu.Unlock()
	return runtimePath
}

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
	var cfg config // batch 0: the backend's default
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.batchSet && cfg.batch < 1 {
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
	backend, lib, err := chooseBackend(cfg.dir, spec, cfg.backend)
	if err != nil {
		return nil, err
	}
	if err := need(cfg.dir, spec.Name, spec.ONNXFile, spec.Tokenizer); err != nil {
		return nil, err
	}
	tok, err := LoadTokenizer(filepath.Join(cfg.dir, spec.Tokenizer))
	if err != nil {
		return nil, fmt.Errorf("edgar13f/search/onnx: model %s: %w", spec.Name, err)
	}
	if err := loadRuntime(lib); err != nil {
		return nil, err
	}
	e := &Embedder{spec: spec, tok: tok, backend: backend, batch: cfg.batch, streams: 1}
	if backend == OpenVINO {
		if cfg.batch == 0 {
			e.batch = DefaultOpenVINOBatch
		}
		err = e.openOpenVINO(cfg.dir, cfg.threads)
	} else {
		if cfg.batch == 0 {
			e.batch = DefaultBatch
		}
		err = e.openCPU(cfg.dir, cfg.threads)
	}
	if err != nil {
		return nil, fmt.Errorf("edgar13f/search/onnx: model %s on the %s backend: %w (reinstall with %s %s)", spec.Name, backend, err, SetupCommand, spec.Name)
	}
	return e, nil
}

// chooseBackend returns the backend that runs spec's graph and the ONNX
// Runtime library the process loads for it. A process holds one ONNX
// Runtime, chosen by the first Embedder it opens: the OpenVINO runtime's
// (ONNX Runtime 1.24.1) when that Embedder runs on OpenVINO, else the CPU
// library (1.30.0) when it is installed. The OpenVINO runtime's ONNX
// Runtime also runs the CPU backend; a process that has loaded the CPU
// library runs every model on it, and refuses OpenVINO.
func chooseBackend(dir string, spec Spec, want Backend) (Backend, string, error) {
	ovLib, cpuLib := filepath.Join(dir, OpenVINORuntimeFile), filepath.Join(dir, RuntimeFile)
	ovErr, cpuErr := need(dir, "", openvinoFiles...), need(dir, "", RuntimeFile)
	loaded := loadedRuntime()
	switch want {
	case OpenVINO:
		if spec.Int8 {
			// OpenVINO did not compile the int8 graphs' subgraphs for a
			// fixed shape, and ran them slower than the CPU kernels (9
			// chunks per CPU second for all-MiniLM-L6-v2-q against 30).
			return "", "", fmt.Errorf("edgar13f/search/onnx: the %s backend runs the fp32 graphs, not %s: run %s on it, or %s on the %s backend", OpenVINO, spec.Name, strings.TrimSuffix(spec.Name, "-q"), spec.Name, CPU)
		}
		if ovErr != nil {
			return "", "", ovErr
		}
		if loaded != "" && loaded != ovLib {
			return "", "", fmt.Errorf("edgar13f/search/onnx: the %s backend needs the ONNX Runtime of %s, but this process has loaded %s (a process holds one: open an Embedder on OpenVINO first)", OpenVINO, ovLib, loaded)
		}
		return OpenVINO, ovLib, nil
	case Auto:
		if ovErr == nil && !spec.Int8 && cpuHasBF16 && (loaded == "" || loaded == ovLib) {
			return OpenVINO, ovLib, nil
		}
	case CPU:
	default:
		return "", "", fmt.Errorf("edgar13f/search/onnx: unknown backend %q: want %q, %q or %q (Auto)", want, CPU, OpenVINO, Auto)
	}
	switch {
	case loaded == ovLib && ovErr == nil, loaded == cpuLib && cpuErr == nil:
		return CPU, loaded, nil
	case cpuErr == nil:
		return CPU, cpuLib, nil
	case ovErr == nil:
		return CPU, ovLib, nil
	}
	return "", "", cpuErr
}

// The OpenVINO session pinOpenVINO keeps open for the life of the
// process.
var (
	pinMu  sync.Mutex
	pinned *ort.DynamicAdvancedSession
)

// pinOpenVINO opens, once per process, a session of a one-Relu graph on
// OpenVINO that is never closed. Without it, a session opened on OpenVINO
// after the last one was closed sometimes crashed the process (a
// segmentation fault in half the tries here, with OpenVINO 2025.4.1):
// the execution provider releases OpenVINO when its last session goes.
func pinOpenVINO() error {
	pinMu.Lock()
	defer pinMu.Unlock()
	if pinned != nil {
		return nil
	}
	so, err := ort.NewSessionOptions()
	if err != nil {
		return err
	}
	defer so.Destroy()
	if err := so.AppendExecutionProviderOpenVINO(map[string]string{"device_type": "CPU", "num_of_threads": "1"}); err != nil {
		return err
	}
	s, err := ort.NewDynamicAdvancedSessionWithONNXData(reluGraph(), []string{"x"}, []string{"y"}, so)
	if err != nil {
		return fmt.Errorf("opening OpenVINO: %w", err)
	}
	pinned = s
	return nil
}

// openCPU opens the graph on ONNX Runtime's CPU kernels.
func (e *Embedder) openCPU(dir string, threads int) error {
	so, err := ort.NewSessionOptions()
	if err != nil {
		return err
	}
	defer so.Destroy()
	if threads > 0 {
		if err := so.SetIntraOpNumThreads(threads); err != nil {
			return err
		}
	}
	if err := so.SetInterOpNumThreads(1); err != nil {
		return err
	}
	// Threads that wait by spinning take cores a busy machine needs.
	if err := so.AddSessionConfigEntry("session.intra_op.allow_spinning", "0"); err != nil {
		return err
	}
	e.sess, err = ort.NewDynamicAdvancedSession(filepath.Join(dir, e.spec.ONNXFile), modelInputs, modelOutputs, so)
	return err
}

var (
	modelInputs  = []string{"input_ids", "attention_mask", "token_type_ids"}
	modelOutputs = []string{"last_hidden_state"}
)

// openOpenVINO opens the graph, its attention mask's fill value made one
// bfloat16 holds ([patchMaskFill]), twice on OpenVINO's CPU plugin: for
// inputs of any shape, and for inputs of [batch, window] alone, which
// OpenVINO compiles for that shape and runs about a fifth faster; a batch
// whose longest text fills more than half the window is padded to it.
func (e *Embedder) openOpenVINO(dir string, threads int) error {
	graph, err := os.ReadFile(filepath.Join(dir, e.spec.ONNXFile))
	if err != nil {
		return err
	}
	if _, err := patchMaskFill(graph); err != nil {
		return err
	}
	if threads == 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	// One stream (an inference of its own, run at once with the others)
	// per thread: one thread a run did the most chunks per CPU second.
	e.streams = threads
	open := func(shape string) (*ort.DynamicAdvancedSession, error) {
		so, err := ort.NewSessionOptions()
		if err != nil {
			return nil, err
		}
		defer so.Destroy()
		// ONNX Runtime's own threads have nothing to do: OpenVINO runs the graph.
		if err := so.SetIntraOpNumThreads(1); err != nil {
			return nil, err
		}
		if err := so.SetInterOpNumThreads(1); err != nil {
			return nil, err
		}
		if err := so.AddSessionConfigEntry("session.intra_op.allow_spinning", "0"); err != nil {
			return nil, err
		}
		opts := map[string]string{"device_type": "CPU", "num_of_threads": strconv.Itoa(threads), "num_streams": strconv.Itoa(threads)}
		if cpuHasBF16 {
			opts["load_config"] = `{"CPU":{"INFERENCE_PRECISION_HINT":"bf16"}}`
		}
		if shape != "" {
			opts["reshape_input"] = shape
		}
		if err := so.AppendExecutionProviderOpenVINO(opts); err != nil {
			return nil, err
		}
		return ort.NewDynamicAdvancedSessionWithONNXData(graph, modelInputs, modelOutputs, so)
	}
	if err := pinOpenVINO(); err != nil {
		return err
	}
	if e.sess, err = open(""); err != nil {
		return err
	}
	b, w := e.batch, e.spec.Window
	e.full, err = open(fmt.Sprintf("input_ids[%d,%d],attention_mask[%d,%d],token_type_ids[%d,%d]", b, w, b, w, b, w))
	if err != nil {
		e.sess.Destroy()
	}
	return err
}

// Model returns the model's name, such as "bge-small-en-v1.5".
func (e *Embedder) Model() string { return e.spec.Name }

// Spec returns the model's description.
func (e *Embedder) Spec() Spec { return e.spec }

// Backend returns what runs the graph: [CPU] or [OpenVINO].
func (e *Embedder) Backend() Backend { return e.backend }

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
	err := e.sess.Destroy()
	if e.full != nil {
		err = errors.Join(err, e.full.Destroy())
	}
	return err
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
	batches := slices.Collect(slices.Chunk(order, e.batch))
	// Up to e.streams batches run at once (OpenVINO's streams, one
	// thread each); each writes the vectors of its own texts.
	var (
		next atomic.Int64
		wg   sync.WaitGroup
		errs = make([]error, max(1, min(e.streams, len(batches))))
	)
	for w := range errs {
		wg.Go(func() {
			for {
				k := int(next.Add(1)) - 1
				if k >= len(batches) || errs[w] != nil {
					return
				}
				if err := ctx.Err(); err != nil {
					errs[w] = err
					return
				}
				batch := batches[k]
				rows := make([][]int32, len(batch))
				for j, i := range batch {
					rows[j] = ids[i]
				}
				vs, err := e.run(ctx, rows)
				if err != nil {
					errs[w] = err
					return
				}
				for j, i := range batch {
					out[i] = vs[j]
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, err
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
	sess, real := e.sess, rows
	if e.full != nil && 2*width > e.spec.Window && n <= e.batch {
		// The session compiled for [batch, window]: pad the rows to the
		// window (masked) and the batch with copies of the first row.
		sess, width = e.full, e.spec.Window
		for len(rows) < e.batch {
			rows = append(rows, rows[0])
		}
		n = len(rows)
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
	err = sess.RunWithOptions(inputs, outputs, ro)
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
	return pool(hidden.GetData(), real, width, e.spec.Dim, e.spec.Pooling)
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
