package onnx

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestMissingFilesNameSetup: an install directory without the runtime, or
// with the runtime but without a model's weights, is a *MissingError whose
// message names the setup command and the model, never a download.
func TestMissingFilesNameSetup(t *testing.T) {
	empty := t.TempDir()
	_, err := New("bge-small-en-v1.5", WithDir(empty))
	var me *MissingError
	if !errors.As(err, &me) || me.Path != filepath.Join(empty, RuntimeFile) || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("New in an empty directory: %v, want a *MissingError for the runtime", err)
	}
	if !strings.Contains(err.Error(), SetupCommand) {
		t.Errorf("error %q does not name %s", err, SetupCommand)
	}

	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, RuntimeFile), []byte("not loaded before the weights are found"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = New("bge-small-en-v1.5-q", WithDir(dir))
	if !errors.As(err, &me) || me.Model != "bge-small-en-v1.5-q" || me.Path != filepath.Join(dir, "bge-small-en-v1.5-q.onnx") {
		t.Fatalf("New without weights: %v, want a *MissingError for the graph", err)
	}
	if msg := err.Error(); !strings.Contains(msg, SetupCommand+" bge-small-en-v1.5-q") {
		t.Errorf("error %q does not name %s bge-small-en-v1.5-q", msg, SetupCommand)
	}
}

// TestDefaultDir: EDGAR13F_ONNX_DIR overrides the user's cache directory.
func TestDefaultDir(t *testing.T) {
	t.Setenv(DirEnv, "/opt/models")
	if d, err := DefaultDir(); err != nil || d != "/opt/models" {
		t.Errorf("DefaultDir with %s set = %q, %v", DirEnv, d, err)
	}
	t.Setenv(DirEnv, "")
	t.Setenv("XDG_CACHE_HOME", "/var/cache/u")
	if d, err := DefaultDir(); err != nil || d != "/var/cache/u/edgar13f/onnx" {
		t.Errorf("DefaultDir = %q, %v, want /var/cache/u/edgar13f/onnx", d, err)
	}
}

// TestUnknownModelAndOptions: New refuses a model it does not run, a
// batch size below 1 and negative threads.
func TestUnknownModelAndOptions(t *testing.T) {
	if _, err := New("nomic-embed-text", WithDir(t.TempDir())); err == nil || !strings.Contains(err.Error(), "bge-small-en-v1.5") {
		t.Errorf("unknown model: %v, want an error listing the models", err)
	}
	if _, err := New("all-MiniLM-L6-v2", WithBatchSize(0), WithDir(t.TempDir())); err == nil {
		t.Error("batch size 0 accepted")
	}
	if _, err := New("all-MiniLM-L6-v2", WithThreads(-1), WithDir(t.TempDir())); err == nil {
		t.Error("-1 threads accepted")
	}
	if s, ok := Lookup("BGE-small-en-v1.5"); !ok || s.Window != 512 || s.Pooling != CLSPooling {
		t.Errorf("Lookup is not case-insensitive or has the wrong spec: %+v %v", s, ok)
	}
}

// TestChecksumsCoverEveryFile: SHA256SUMS, which setup.sh verifies, lists
// the runtime, both files of every model, the onnxruntime-openvino wheel
// and every file of the OpenVINO runtime.
func TestChecksumsCoverEveryFile(t *testing.T) {
	sums := Checksums()
	files := []string{RuntimeFile, openvinoWheel}
	for _, s := range specs {
		files = append(files, s.ONNXFile, s.Tokenizer)
	}
	files = append(files, OpenVINOFiles()...)
	for _, f := range files {
		if len(sums[f]) != 64 {
			t.Errorf("SHA256SUMS: %s has sum %q", f, sums[f])
		}
	}
	if len(sums) != len(files) {
		t.Errorf("SHA256SUMS lists %d files, the package uses %d", len(sums), len(files))
	}
}

// TestBatchingDoesNotChangeVectors: an fp32 graph's vector of a text does
// not depend on the texts batched with it (the padding of shorter texts is
// masked out of the attention and the mean): within cosine 0.99999 on the
// CPU backend, 0.9999 on OpenVINO (bfloat16, a batch padded to the
// window).
func TestBatchingDoesNotChangeVectors(t *testing.T) {
	texts := sentences(t)
	ctx := context.Background()
	for _, s := range specs {
		if s.Int8 {
			continue
		}
		for _, b := range backendsOf(s) {
			var vs [2][][]float32
			for k, size := range []int{1, 8} {
				e, err := New(s.Name, WithBatchSize(size), WithBackend(b))
				if err != nil {
					t.Fatal(err)
				}
				vs[k], err = e.Embed(ctx, texts)
				e.Close()
				if err != nil {
					t.Fatal(err)
				}
			}
			// In bfloat16, OpenVINO's kernels for another shape round a
			// little otherwise.
			want := 0.99999
			if b == OpenVINO {
				want = 0.9999
			}
			for i := range texts {
				if c := cosine(vs[0][i], vs[1][i]); c < want {
					t.Errorf("%s on %s: text %d alone and in a batch of 8: cosine %.7f", s.Name, b, i, c)
				}
			}
		}
	}
}

// TestAutoBackend: by default an fp32 model runs on OpenVINO when its
// runtime is installed, the CPU computes in bfloat16 and the process has
// loaded the OpenVINO runtime's ONNX Runtime (as in the test process
// TestOpenVINOBackend starts) or none, and on the CPU kernels in a
// process that has loaded the CPU library; an int8 model always runs on
// the CPU kernels.
func TestAutoBackend(t *testing.T) {
	wantFP32 := CPU
	if os.Getenv(testBackendEnv) == string(OpenVINO) {
		embedderOn(t, "bge-small-en-v1.5", OpenVINO) // the process loads the OpenVINO runtime
		if cpuHasBF16 {
			wantFP32 = OpenVINO
		}
	} else {
		embedder(t, "all-MiniLM-L6-v2-q") // the process loads the CPU library
	}
	for _, c := range []struct {
		model string
		want  Backend
	}{{"all-MiniLM-L6-v2", wantFP32}, {"all-MiniLM-L6-v2-q", CPU}} {
		e, err := New(c.model)
		if err != nil {
			t.Fatal(err)
		}
		if got := e.Backend(); got != c.want {
			t.Errorf("%s: default backend %q, want %q", c.model, got, c.want)
		}
		e.Close()
	}
	if _, err := New("all-MiniLM-L6-v2", WithBackend("gpu")); err == nil || !strings.Contains(err.Error(), "unknown backend") {
		t.Errorf("backend gpu: %v, want unknown backend", err)
	}
	if _, err := New("all-MiniLM-L6-v2-q", WithBackend(OpenVINO)); err == nil || !strings.Contains(err.Error(), "fp32 graphs") {
		t.Errorf("an int8 graph on OpenVINO: %v, want it refused", err)
	}
}

// TestOpenVINOBackend runs the vector tests on the OpenVINO backend, in a
// test process of its own (a process holds one ONNX Runtime, and this
// one's is the CPU library): every fp32 model's passage and query vectors
// within cosine 0.999 of sentence-transformers', alone and in batches
// alike, all-MiniLM-L6-v2's published similarities within 0.001, and Auto
// choosing OpenVINO there.
func TestOpenVINOBackend(t *testing.T) {
	if os.Getenv(testBackendEnv) != "" {
		return // this is the test process it started
	}
	dir, err := DefaultDir()
	if err != nil {
		t.Fatal(err)
	}
	if err := need(dir, "", openvinoFiles...); err != nil {
		t.Fatal(err) // names "search/onnx/setup.sh openvino"
	}
	cmd := exec.Command(os.Args[0], "-test.count=1", "-test.v",
		"-test.run", "^(TestAutoBackend|TestBatchingDoesNotChangeVectors|TestVectorsMatchReference|TestPublishedSimilarities)$")
	cmd.Env = append(os.Environ(), testBackendEnv+"="+string(OpenVINO))
	out, err := cmd.CombinedOutput()
	t.Logf("the OpenVINO test process:\n%s", out)
	if err != nil {
		t.Fatalf("the OpenVINO test process: %v", err)
	}
	for _, want := range []string{
		"--- PASS: TestAutoBackend", "--- PASS: TestBatchingDoesNotChangeVectors",
		"--- PASS: TestVectorsMatchReference", "--- PASS: TestPublishedSimilarities",
		"all-MiniLM-L6-v2 on openvino passages", "bge-small-en-v1.5 on openvino passages", "bge-small-en-v1.5 on openvino queries",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the OpenVINO test process did not report %q", want)
		}
	}
}

// TestOpenVINOMissing: the OpenVINO backend without its runtime is a
// *MissingError that names "search/onnx/setup.sh openvino"; Auto then
// chooses the CPU kernels and library.
func TestOpenVINOMissing(t *testing.T) {
	installed, err := DefaultDir()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range []string{RuntimeFile, "all-minilm-l6-v2.onnx", "all-minilm-l6-v2-tokenizer.json"} {
		if err := os.Symlink(filepath.Join(installed, f), filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	_, err = New("all-MiniLM-L6-v2", WithDir(dir), WithBackend(OpenVINO))
	var me *MissingError
	if !errors.As(err, &me) || me.Path != filepath.Join(dir, OpenVINORuntimeFile) {
		t.Fatalf("the OpenVINO backend without its runtime: %v, want a *MissingError for %s", err, OpenVINORuntimeFile)
	}
	if !strings.Contains(err.Error(), SetupCommand+" "+SetupOpenVINO) {
		t.Errorf("error %q does not name %s %s", err, SetupCommand, SetupOpenVINO)
	}
	spec, _ := Lookup("all-MiniLM-L6-v2")
	if b, lib, err := chooseBackend(dir, spec, Auto); err != nil || b != CPU || lib != filepath.Join(dir, RuntimeFile) {
		t.Errorf("Auto without the OpenVINO runtime: %q %s %v, want %q and the CPU library", b, lib, err, CPU)
	}
}

// TestMaskFillPatch: in each graph, the attention mask's fill value
// (float32's lowest) is the one constant patchMaskFill rewrites, to
// -1e9, four bytes and nothing else; a second pass finds nothing.
func TestMaskFillPatch(t *testing.T) {
	dir, err := DefaultDir()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range specs {
		orig, err := os.ReadFile(filepath.Join(dir, s.ONNXFile))
		if err != nil {
			t.Fatal(err)
		}
		g := slices.Clone(orig)
		n, err := patchMaskFill(g)
		if err != nil || n != 1 {
			t.Errorf("%s: patchMaskFill = %d, %v; want 1 constant", s.Name, n, err)
			continue
		}
		var diff []int
		for i := range g {
			if g[i] != orig[i] {
				diff = append(diff, i)
			}
		}
		if len(diff) == 0 || diff[len(diff)-1]-diff[0] >= 4 {
			t.Errorf("%s: bytes changed at %v, want within one float", s.Name, diff)
		} else {
			found := false // a float holding every changed byte, float32's lowest made maskFill
			for at := max(diff[len(diff)-1]-3, 0); at <= diff[0]; at++ {
				was := math.Float32frombits(binary.LittleEndian.Uint32(orig[at:]))
				now := math.Float32frombits(binary.LittleEndian.Uint32(g[at:]))
				found = found || (was == -math.MaxFloat32 && now == maskFill)
			}
			if !found {
				t.Errorf("%s: the changed bytes are not float32's lowest made %g", s.Name, float32(maskFill))
			}
		}
		if n, err := patchMaskFill(g); err != nil || n != 0 {
			t.Errorf("%s: second patchMaskFill = %d, %v; want 0", s.Name, n, err)
		}
	}
	if _, err := patchMaskFill([]byte{0x3a, 0xff}); err == nil {
		t.Error("patchMaskFill of a torn graph: no error")
	}
}

// TestCancelledContext: Embed returns the context's error.
func TestCancelledContext(t *testing.T) {
	e := embedder(t, "all-MiniLM-L6-v2-q")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Embed(ctx, []string{"a", "b"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Embed with a cancelled context: %v", err)
	}
}

// TestClose: a closed Embedder refuses work; Close twice is harmless.
func TestClose(t *testing.T) {
	e, err := New("all-MiniLM-L6-v2-q")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := e.Embed(context.Background(), []string{"x"}); !errors.Is(err, ErrClosed) {
		t.Errorf("Embed after Close: %v", err)
	}
}
