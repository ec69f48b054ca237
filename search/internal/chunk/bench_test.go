package chunk

import (
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The Split benchmarks report throughput in MB/s of Item text, pieces/s,
// pieces per run, and the peak heap growth while splitting.

// BenchmarkCount: cl100k_base tokens of the whole text of Apple's 10-K
// (206 KB of text).
func BenchmarkCount(b *testing.B) {
	text := realItems(b, appleDoc)["whole"]
	Count("warm up") // load the ranks outside the timing
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		Count(text)
	}
}

// BenchmarkSplit: every Item of Apple's 10-K cut with the defaults.
func BenchmarkSplit(b *testing.B) {
	items := realItems(b, appleDoc)
	delete(items, "whole")
	benchSplit(b, items)
}

// BenchmarkSplitNVIDIA: every Item of NVIDIA's 10-K, a 2 MB document
// (350 KB of text; Item 1A is cut to its first 100,000 characters by
// internal/sections).
func BenchmarkSplitNVIDIA(b *testing.B) {
	items := realItems(b, nvidiaDoc)
	delete(items, "whole")
	benchSplit(b, items)
}

// BenchmarkSplit2MB: one 2 MB text, the whole text of both 10-Ks repeated,
// cut at once: the most one call holds.
func BenchmarkSplit2MB(b *testing.B) {
	one := realItems(b, appleDoc)["whole"] + "\n" + realItems(b, nvidiaDoc)["whole"]
	text := strings.Repeat(one+"\n", 2<<20/len(one)+1)[:2<<20]
	benchSplit(b, map[string]string{"2MB": text})
}

func benchSplit(b *testing.B, items map[string]string) {
	bytes := 0
	for _, text := range items {
		bytes += len(text)
	}
	Count("warm up")
	b.SetBytes(int64(bytes))
	b.ReportAllocs()
	pieces := 0
	var peak uint64
	for b.Loop() {
		b.StopTimer()
		runtime.GC()
		base := heapObjects()
		stop := peakHeap()
		b.StartTimer()
		for _, text := range items {
			pieces += len(Split(text, MaxTokens, Overlap))
		}
		b.StopTimer()
		if p := stop(); p > base {
			peak = max(peak, p-base)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(pieces)/b.Elapsed().Seconds(), "pieces/s")
	b.ReportMetric(float64(pieces)/float64(b.N), "pieces/op")
	// Heap growth over the text and the loaded ranks while splitting.
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
}

func heapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// peakHeap samples the heap (objects, live and not yet swept) every
// 100 µs until stop is called and returns the largest value seen. It reads
// runtime/metrics, which does not stop the world.
func peakHeap() (stop func() uint64) {
	var peak atomic.Uint64
	peak.Store(heapObjects())
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			if v := heapObjects(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-time.After(100 * time.Microsecond):
			}
		}
	})
	return func() uint64 {
		close(done)
		wg.Wait()
		return peak.Load()
	}
}
