package search

import (
	"context"
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edgar13f/edgar13f/search/store"
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
	if _, err := warm.Index(ctx, []string{"1045810"}, asOf, Forms("10-K")); err != nil {
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
			res, err := e.Index(ctx, []string{"1045810"}, asOf, Forms("10-K"))
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

func BenchmarkIndexBM25(b *testing.B) {
	benchIndex(b, func(*testing.B) store.Store { return newMemStore() })
}

func BenchmarkIndexHashEmbedder(b *testing.B) {
	benchIndex(b, func(*testing.B) store.Store { return newMemStore() }, WithEmbedder(&hashEmbedder{model: "hash-test", dim: 384}))
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
