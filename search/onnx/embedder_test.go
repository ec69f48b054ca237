package onnx

import (
	"context"
	"errors"
	"os"
	"path/filepath"
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
// the runtime and both files of every model.
func TestChecksumsCoverEveryFile(t *testing.T) {
	sums := Checksums()
	files := []string{RuntimeFile}
	for _, s := range specs {
		files = append(files, s.ONNXFile, s.Tokenizer)
	}
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
// masked out of the attention and the mean).
func TestBatchingDoesNotChangeVectors(t *testing.T) {
	texts := sentences(t)
	ctx := context.Background()
	for _, s := range specs {
		if s.Int8 {
			continue
		}
		batched, err := New(s.Name, WithBatchSize(8))
		if err != nil {
			t.Fatal(err)
		}
		all, err := batched.Embed(ctx, texts)
		batched.Close()
		if err != nil {
			t.Fatal(err)
		}
		one, err := embedder(t, s.Name).Embed(ctx, texts) // one text per run
		if err != nil {
			t.Fatal(err)
		}
		for i := range texts {
			if c := cosine(one[i], all[i]); c < 0.99999 {
				t.Errorf("%s: text %d alone and in a batch of 8: cosine %.7f", s.Name, i, c)
			}
		}
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
