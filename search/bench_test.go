package search

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edgar13f/edgar13f/search/store"
	"github.com/edgar13f/edgar13f/search/store/embedded"
)

// The benchmarks index NVIDIA's 10-K for fiscal 2025 (a 2.1 MB primary
// document) from the mirror, its document already in the Client's cache,
// so that they time the engine (parse, chunk, embed, store) rather than the
// mirror. Run:
//
//	go test -run '^$' -bench Index -benchmem ./search/

// benchIndex indexes NVIDIA's 10-K into a new store per iteration and
// reports chunks per second and the peak heap of one Index.
func benchIndex(b *testing.B, open func(b *testing.B) store.Store, opts ...Option) {
	ctx := context.Background()
	c, _ := mirrorClient(b)
	asOf := day("2025-02-26")
	warm, err := New(c, newMemStore())
	if err != nil {
		b.Fatal(err)
	}
	if _, err := warm.Index(ctx, []string{"1045810"}, asOf, FormType("10-K")); err != nil {
		b.Fatal(err)
	}
	chunks := 0
	var peak heapPeaks
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		st := open(b)
		e, err := New(c, st, opts...)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		index := func() {
			res, err := e.Index(ctx, []string{"1045810"}, asOf, FormType("10-K"))
			if err != nil {
				b.Fatal(err)
			}
			chunks += res.ChunksTotal
		}
		if i == 0 {
			peak = peakHeap(index)
		} else {
			index()
		}
		b.StopTimer()
		st.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(chunks)/b.Elapsed().Seconds(), "chunks/s")
	b.ReportMetric(float64(peak.held)/1e6, "peak-heap-MB")
	b.ReportMetric(float64(peak.live)/1e6, "peak-live-MB")
}

// openEmbeddedB opens an embedded store in a new temporary directory.
func openEmbeddedB(b *testing.B) store.Store {
	s, err := embedded.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkIndexBM25 indexes into the embedded store without embedder.
func BenchmarkIndexBM25(b *testing.B) { benchIndex(b, openEmbeddedB) }

// BenchmarkIndexHTTPEmbedder indexes into the embedded store, embedding
// through an OpenAI-compatible /v1/embeddings server on the loopback
// (httptest) that answers with hashed 384-dimensional vectors: the cost of
// the engine's batching, the wire format and the store's vectors, not of a
// model.
func BenchmarkIndexHTTPEmbedder(b *testing.B) {
	srv := httptest.NewServer(embeddingsHandler(384))
	defer srv.Close()
	emb, err := NewOpenAIEmbedder(srv.URL+"/v1", "hash-384", "", WithEmbedHTTPClient(srv.Client()))
	if err != nil {
		b.Fatal(err)
	}
	benchIndex(b, openEmbeddedB, WithEmbedder(emb))
}

// embeddingsHandler serves POST /v1/embeddings in OpenAI's format with
// HashEmbedder's vectors.
func embeddingsHandler(dim int) http.Handler {
	h := HashEmbedder{Dim: dim}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" || json.NewDecoder(r.Body).Decode(&req) != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		vs, _ := h.Embed(r.Context(), req.Input)
		type datum struct {
			Object    string    `json:"object"`
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		resp := struct {
			Object string  `json:"object"`
			Model  string  `json:"model"`
			Data   []datum `json:"data"`
		}{Object: "list", Model: req.Model}
		for i, v := range vs {
			resp.Data = append(resp.Data, datum{Object: "embedding", Index: i, Embedding: v})
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(resp)
	})
}

// heapPeaks holds what peakHeap measured, above the heap before the call.
type heapPeaks struct {
	held uint64 // highest heap held, garbage not yet collected included
	live uint64 // highest live heap seen by a collection during the call
}

func heapNow() (held, live uint64) {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Uint64()
}

// peakHeap runs f once and returns the highest heap sizes sampled while it
// ran, above the heap after a collection before it.
func peakHeap(f func()) heapPeaks {
	runtime.GC()
	baseHeld, baseLive := heapNow()
	var peakHeld, peakLive atomic.Uint64
	sample := func() {
		held, live := heapNow()
		if held > peakHeld.Load() {
			peakHeld.Store(held)
		}
		if live > peakLive.Load() {
			peakLive.Store(live)
		}
	}
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(100 * time.Microsecond)
		defer t.Stop()
		for {
			sample()
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	f()
	sample()
	close(stop)
	<-done
	var p heapPeaks
	if h := peakHeld.Load(); h > baseHeld {
		p.held = h - baseHeld
	}
	if l := peakLive.Load(); l > baseLive {
		p.live = l - baseLive
	}
	return p
}

// BenchmarkSearch searches Apple's and NVIDIA's 10-Ks (333 chunks) in the
// embedded store, per mode, with HashEmbedder's 384-dimensional vectors
// computed in process: the engine's and the store's cost per question.
func BenchmarkSearch(b *testing.B) {
	ctx := context.Background()
	c, _ := mirrorClient(b)
	st := openEmbeddedB(b)
	defer st.Close()
	e, err := New(c, st, WithEmbedder(HashEmbedder{Dim: 384}))
	if err != nil {
		b.Fatal(err)
	}
	asOf := day("2025-02-26")
	if _, err := e.Index(ctx, []string{"AAPL", "NVDA"}, asOf, FormType("10-K")); err != nil {
		b.Fatal(err)
	}
	for _, m := range []Mode{BM25, KNN, Hybrid} {
		b.Run(string(m), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := e.Search(ctx, "export controls to China and data center revenue", asOf, m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
