package onnx

import (
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/edgar13f/edgar13f/search/internal/chunk"
)

// benchChunks returns n chunks of the search package's size (450 cl100k
// tokens, 60 of overlap) cut from the text of a real 10-K in the
// repository, each of at least 400 tokens.
func benchChunks(b *testing.B, n int) []string {
	b.Helper()
	f, err := os.Open("../../testdata/documents/tsla-10-k-2025-01-30.htm.gz")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		b.Fatal(err)
	}
	text := regexp.MustCompile(`(?is)<(script|style)\b.*?</(script|style)>`).ReplaceAllString(string(raw), " ")
	text = regexp.MustCompile(`(?s)<[^>]*>`).ReplaceAllString(text, " ")
	text = html.UnescapeString(text)
	text = strings.Join(strings.Fields(text), " ")
	var out []string
	for _, p := range chunk.Split(text, chunk.MaxTokens, chunk.Overlap) {
		if p.Tokens >= 400 {
			out = append(out, p.Text)
		}
		if len(out) == n {
			return out
		}
	}
	b.Fatalf("only %d chunks of 400 tokens or more", len(out))
	return nil
}

// cpuTime is the CPU time the process has used, every thread's.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchBackend is the backend the benchmarks run the models on: one per
// process, since a process holds one ONNX Runtime.
var benchBackend = flag.String("backend", string(CPU), "the backend the benchmarks run on: cpu or openvino")

// BenchmarkEmbed450 measures chunks/s embedding 450-token chunks, per
// model and batch size (the figures of README.md), and chunks per CPU
// second, which other work on a busy machine disturbs less, on the
// backend -backend names:
//
//	go test -run '^$' -bench Embed450 -benchtime 2x .
//	go test -run '^$' -bench Embed450 -benchtime 2x . -backend openvino
func BenchmarkEmbed450(b *testing.B) {
	const n = 32
	texts := benchChunks(b, n)
	ctx := context.Background()
	backend := Backend(*benchBackend)
	batches := []int{1, 8}
	if backend == OpenVINO {
		batches = []int{1, DefaultOpenVINOBatch, 8}
	}
	for _, s := range specs {
		if s.Int8 && backend == OpenVINO {
			continue // it runs the fp32 graphs only
		}
		for _, batch := range batches {
			b.Run(fmt.Sprintf("%s/%s/batch=%d", s.Name, backend, batch), func(b *testing.B) {
				e, err := New(s.Name, WithBatchSize(batch), WithBackend(backend))
				if err != nil {
					b.Fatal(err)
				}
				defer e.Close()
				var pieces int
				for _, t := range texts {
					pieces += len(e.tok.Encode(t, 0)) - 2
				}
				if _, err := e.Embed(ctx, texts[:2]); err != nil { // warm up
					b.Fatal(err)
				}
				cpu0 := cpuTime(b)
				b.ResetTimer()
				for b.Loop() {
					if _, err := e.Embed(ctx, texts); err != nil {
						b.Fatal(err)
					}
				}
				cpu := cpuTime(b) - cpu0
				b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "chunks/s")
				b.ReportMetric(float64(n*b.N)/cpu.Seconds(), "chunks/cpu-s")
				b.ReportMetric(float64(pieces)/n, "wordpieces/chunk")
			})
		}
	}
}

// BenchmarkEmbed450Threads measures, per model, 450-token chunks embedded
// by one Embedder of 1 or 2 threads, and by two Embedders of one thread
// each side by side (half the chunks each), on the backend -backend
// names: how the 2 cores are best spent (README.md, "Throughput"):
//
//	go test -run '^$' -bench Embed450Threads/all-MiniLM-L6-v2-q -benchtime 2x .
func BenchmarkEmbed450Threads(b *testing.B) {
	const n = 32
	texts := benchChunks(b, n)
	ctx := context.Background()
	backend := Backend(*benchBackend)
	for _, s := range specs {
		if s.Int8 && backend == OpenVINO {
			continue // it runs the fp32 graphs only
		}
		for _, c := range []struct {
			name             string
			threads, runners int
		}{{"threads=1", 1, 1}, {"threads=2", 2, 1}, {"2x1thread", 1, 2}} {
			b.Run(s.Name+"/"+string(backend)+"/"+c.name, func(b *testing.B) {
				es := make([]*Embedder, c.runners)
				for i := range es {
					e, err := New(s.Name, WithThreads(c.threads), WithBackend(backend))
					if err != nil {
						b.Fatal(err)
					}
					defer e.Close()
					if _, err := e.Embed(ctx, texts[:2]); err != nil { // warm up
						b.Fatal(err)
					}
					es[i] = e
				}
				per := n / len(es)
				cpu0 := cpuTime(b)
				b.ResetTimer()
				for b.Loop() {
					errs := make(chan error, len(es))
					for i, e := range es {
						go func() {
							_, err := e.Embed(ctx, texts[i*per:(i+1)*per])
							errs <- err
						}()
					}
					for range es {
						if err := <-errs; err != nil {
							b.Fatal(err)
						}
					}
				}
				cpu := cpuTime(b) - cpu0
				b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "chunks/s")
				b.ReportMetric(float64(n*b.N)/cpu.Seconds(), "chunks/cpu-s")
			})
		}
	}
}

// BenchmarkTokenize450 measures the Go tokenizer alone on 450-token
// chunks, cut to all-MiniLM-L6-v2's window: its share of a chunk's
// embedding time.
//
//	go test -run '^$' -bench Tokenize450 .
func BenchmarkTokenize450(b *testing.B) {
	texts := benchChunks(b, 32)
	dir, err := DefaultDir()
	if err != nil {
		b.Fatal(err)
	}
	s, _ := Lookup("all-MiniLM-L6-v2")
	tok, err := LoadTokenizer(filepath.Join(dir, s.Tokenizer))
	if err != nil {
		b.Skip(err)
	}
	c0 := cpuTime(b)
	b.ResetTimer()
	for b.Loop() {
		for _, t := range texts {
			tok.Encode(t, s.Window)
		}
	}
	b.ReportMetric(float64(len(texts)*b.N)/b.Elapsed().Seconds(), "chunks/s")
	b.ReportMetric(float64((cpuTime(b)-c0).Microseconds())/float64(len(texts)*b.N), "cpu-us/chunk")
}
