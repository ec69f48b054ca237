package frames_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edgar13f/edgar13f/frames"
	"github.com/edgar13f/edgar13f/internal/factbench"
)

// benchFacts is the size of the synthetic companyfacts.zip of the
// benchmarks: FRAMES_BENCH_FACTS, or 1 million facts.
func benchFacts(b *testing.B) int64 {
	if s := os.Getenv("FRAMES_BENCH_FACTS"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 {
			b.Fatalf("FRAMES_BENCH_FACTS=%q", s)
		}
		return n
	}
	return 1_000_000
}

var (
	benchOnce sync.Once
	benchZip  string
	benchErr  error
	benchSt   factbench.Stats
)

// syntheticZip writes the benchmarks' zip once per process.
func syntheticZip(b *testing.B) (string, factbench.Stats) {
	benchOnce.Do(func() {
		var dir string
		if dir, benchErr = mkdirTemp(); benchErr != nil {
			return
		}
		benchZip = filepath.Join(dir, "companyfacts.zip")
		benchSt, benchErr = factbench.Write(benchZip, benchFacts(b), 1)
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchZip, benchSt
}

// peakHeap samples the heap in use every few milliseconds until stop is
// called, and returns the largest sample.
func peakHeap() (stop func() uint64) {
	var peak atomic.Uint64
	done := make(chan struct{})
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-ended
		return peak.Load()
	}
}

// BenchmarkImport imports the synthetic companyfacts.zip: facts/s, the
// peak heap in use, and the store's size per million facts.
func BenchmarkImport(b *testing.B) {
	zp, st := syntheticZip(b)
	ctx := context.Background()
	var peak uint64
	var stored int64
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		s, err := frames.OpenDir(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		stop := peakHeap()
		b.StartTimer()
		r, err := s.ImportFile(ctx, zp)
		if err != nil {
			b.Fatal(err)
		}
		peak = max(peak, stop())
		stored = r.Bytes
		if r.Facts != st.Facts {
			b.Fatalf("imported %d facts of %d", r.Facts, st.Facts)
		}
	}
	sec := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(st.Facts)/sec, "facts/s")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(stored)/(1<<20)/(float64(st.Facts)/1e6), "store-MiB/Mfacts")
	b.ReportMetric(float64(st.JSONBytes)/(1<<20)/(float64(st.Facts)/1e6), "json-MiB/Mfacts")
}

var (
	frameOnce  sync.Once
	frameStore *frames.Store
	frameErr   error
)

// BenchmarkFrame answers one frame (net income, CY2023 as of 2024-06-30:
// one tag of the 2,000, in every company) over the synthetic store:
// p50 and p99 of the calls.
func BenchmarkFrame(b *testing.B) {
	for _, q := range []struct{ name, concept, period string }{
		{"tag", "us-gaap:NetIncomeLoss", "CY2023"},
		{"alias", "net_income", "CY2023"},
		{"instant", "total_assets", "CY2023Q4I"},
	} {
		b.Run(q.name, func(b *testing.B) {
			zp, st := syntheticZip(b)
			frameOnce.Do(func() {
				var dir string
				if dir, frameErr = mkdirTemp(); frameErr != nil {
					return
				}
				if frameStore, frameErr = frames.OpenDir(dir); frameErr == nil {
					_, frameErr = frameStore.ImportFile(context.Background(), zp)
				}
			})
			if frameErr != nil {
				b.Fatal(frameErr)
			}
			ctx := context.Background()
			var times []time.Duration
			companies := 0
			b.ReportAllocs()
			for b.Loop() {
				t0 := time.Now()
				f, err := frameStore.Frame(ctx, q.concept, q.period, date("2024-06-30"), frames.Limit(frames.MaxLimit))
				times = append(times, time.Since(t0))
				if err != nil {
					b.Fatal(err)
				}
				companies = f.TotalCompanies
			}
			if companies == 0 {
				b.Fatal("empty frame")
			}
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "p99-ms")
			b.ReportMetric(float64(companies), "companies")
			b.ReportMetric(float64(st.Facts), "facts-in-store")
		})
	}
}
