package onnx

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// SetupCommand is the command that installs the runtime and the weights;
// an error for a missing file names it.
const SetupCommand = "search/onnx/setup.sh"

// DirEnv is the environment variable that overrides the install directory
// (see [DefaultDir]); setup.sh reads it too.
const DirEnv = "EDGAR13F_ONNX_DIR"

// RuntimeFile is the ONNX Runtime shared library's name in the install
// directory (ONNX Runtime 1.30.0's CPU library for linux/x64).
const RuntimeFile = "libonnxruntime.so.1"

// OpenVINODir is the directory, in the install directory, of ONNX Runtime
// 1.24.1 with its OpenVINO execution provider and OpenVINO 2025.4.1's CPU
// plugin, from the PyPI wheel onnxruntime-openvino 1.24.1 (installed by
// "search/onnx/setup.sh openvino"): the [OpenVINO] backend.
const OpenVINODir = "openvino"

// OpenVINORuntimeFile is that ONNX Runtime's shared library, in the
// install directory; the files it loads are beside it ([OpenVINOFiles]).
const OpenVINORuntimeFile = OpenVINODir + "/libonnxruntime.so.1.24.1"

// openvinoFiles are the files of the OpenVINO runtime, in the install
// directory: ONNX Runtime, its OpenVINO execution provider, OpenVINO
// with its ONNX reader and CPU plugin, and oneTBB. Each finds the others
// beside it ($ORIGIN).
var openvinoFiles = []string{
	OpenVINORuntimeFile,
	OpenVINODir + "/libonnxruntime_providers_shared.so",
	OpenVINODir + "/libonnxruntime_providers_openvino.so",
	OpenVINODir + "/libopenvino.so.2541",
	OpenVINODir + "/libopenvino_onnx_frontend.so.2541",
	OpenVINODir + "/libopenvino_intel_cpu_plugin.so",
	OpenVINODir + "/libtbb.so.12",
}

// OpenVINOFiles returns the files of the OpenVINO runtime, relative to the
// install directory.
func OpenVINOFiles() []string { return slices.Clone(openvinoFiles) }

// A Pooling turns a model's last hidden states into one vector per text.
type Pooling int

// The poolings. Both are followed by scaling to length 1.
const (
	MeanPooling Pooling = iota // the mean of the token states under the attention mask
	CLSPooling                 // the state of the first token, [CLS]
)

// String returns "mean" or "cls".
func (p Pooling) String() string {
	if p == CLSPooling {
		return "cls"
	}
	return "mean"
}

// A Spec describes one model the package runs: its files in the install
// directory and how the reference implementation (sentence-transformers)
// uses it.
type Spec struct {
	Name        string  // the model's name, as [Embedder.Model] returns it
	ONNXFile    string  // the graph, in the install directory
	Tokenizer   string  // its tokenizer.json, in the install directory
	Window      int     // the most tokens read of a text, [CLS] and [SEP] included
	Dim         int     // the dimension of the vectors
	Pooling     Pooling // how token states become one vector
	QueryPrefix string  // put before a query ([Embedder.EmbedQuery]), never before a passage
	Int8        bool    // the int8 (dynamically quantised) variant of the graph
}

// bgeQueryPrefix is the instruction bge-small-en-v1.5 puts before a
// short query for retrieving passages.
const bgeQueryPrefix = "Represent this sentence for searching relevant passages: "

// specs are the models the package runs, in the order of [Models].
var specs = []Spec{
	{Name: "all-MiniLM-L6-v2", ONNXFile: "all-minilm-l6-v2.onnx", Tokenizer: "all-minilm-l6-v2-tokenizer.json", Window: 256, Dim: 384, Pooling: MeanPooling},
	{Name: "all-MiniLM-L6-v2-q", ONNXFile: "all-minilm-l6-v2-q.onnx", Tokenizer: "all-minilm-l6-v2-q-tokenizer.json", Window: 256, Dim: 384, Pooling: MeanPooling, Int8: true},
	{Name: "bge-small-en-v1.5", ONNXFile: "bge-small-en-v1.5.onnx", Tokenizer: "bge-small-en-v1.5-tokenizer.json", Window: 512, Dim: 384, Pooling: CLSPooling, QueryPrefix: bgeQueryPrefix},
	{Name: "bge-small-en-v1.5-q", ONNXFile: "bge-small-en-v1.5-q.onnx", Tokenizer: "bge-small-en-v1.5-q-tokenizer.json", Window: 512, Dim: 384, Pooling: CLSPooling, QueryPrefix: bgeQueryPrefix, Int8: true},
}

// Models returns the names of the models the package runs.
func Models() []string {
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.Name
	}
	return names
}

// Lookup returns the Spec of the named model (its name as [Models] gives
// it, in any case).
func Lookup(name string) (Spec, bool) {
	for _, s := range specs {
		if strings.EqualFold(s.Name, strings.TrimSpace(name)) {
			return s, true
		}
	}
	return Spec{}, false
}

// checksums is SHA256SUMS, the sha256 of every file setup.sh installs, in
// sha256sum's format.
//
//go:embed SHA256SUMS
var checksums []byte

// Checksums returns the sha256 (hex) that setup.sh verifies of each file
// it installs, by file name.
func Checksums() map[string]string {
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(checksums))
	for sc.Scan() {
		sum, name, ok := strings.Cut(strings.TrimSpace(sc.Text()), "  ")
		if ok && !strings.HasPrefix(sum, "#") {
			out[name] = sum
		}
	}
	return out
}

// DefaultDir returns the install directory: $EDGAR13F_ONNX_DIR when set,
// else edgar13f/onnx under the user's cache directory (on Linux
// $XDG_CACHE_HOME or ~/.cache), as setup.sh chooses it.
func DefaultDir() (string, error) {
	if d := os.Getenv(DirEnv); d != "" {
		return d, nil
	}
	c, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("edgar13f/search/onnx: no install directory: set %s (%v)", DirEnv, err)
	}
	return filepath.Join(c, "edgar13f", "onnx"), nil
}

// A MissingError reports a file of the runtime or the weights that is not
// installed. Its message names the setup command.
type MissingError struct {
	Model string // the model asked for; "" for the runtime
	Path  string // the file that is missing
	Err   error  // what os.Stat said
}

// Error names the file, the model and the command that installs it.
func (e *MissingError) Error() string {
	what := "the ONNX Runtime library"
	arg := ""
	if filepath.Base(filepath.Dir(e.Path)) == OpenVINODir {
		what, arg = "the OpenVINO runtime (ONNX Runtime with OpenVINO, for the "+string(OpenVINO)+" backend)", " "+SetupOpenVINO
	}
	if e.Model != "" {
		what = "model " + e.Model
		arg = " " + e.Model
	}
	return fmt.Sprintf("edgar13f/search/onnx: %s is not installed (%s: %v): run %s%s (it installs into $%s or the user's cache directory)",
		what, e.Path, e.Err, SetupCommand, arg, DirEnv)
}

// Unwrap returns the cause.
func (e *MissingError) Unwrap() error { return e.Err }

// need returns a *MissingError unless every file exists in dir as a
// regular file.
func need(dir, model string, files ...string) error {
	for _, f := range files {
		p := filepath.Join(dir, f)
		st, err := os.Stat(p)
		if err == nil && !st.Mode().IsRegular() {
			err = fmt.Errorf("not a regular file")
		}
		if err == nil && st.Size() == 0 {
			err = fmt.Errorf("empty file")
		}
		if err != nil {
			return &MissingError{Model: model, Path: p, Err: err}
		}
	}
	return nil
}
