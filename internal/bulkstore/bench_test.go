//go:build unix

package bulkstore

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/edgar13f/edgar13f/internal/bulkbench"
	"github.com/edgar13f/edgar13f/internal/civil"
)

// The benchmarks run on a generated full-size window (3.5 million
// INFOTABLE rows) written once under $EDGAR13F_BENCH_DIR (default: the
// system temp dir); EDGAR13F_BENCH_ROWS changes its size. bench/datasets.sh
// runs them with DuckDB's figures beside them.

func benchWindow(b *testing.B) bulkbench.Info {
	b.Helper()
	info, err := bulkbench.Ensure(bulkbench.Dir(), bulkbench.Rows())
	if err != nil {
		b.Fatal(err)
	}
	return info
}

// peakHeap samples the heap (objects, live and not yet swept) every
// millisecond until stop is called and returns the largest value seen. It
// reads runtime/metrics, which does not stop the world.
func peakHeap() (stop func() uint64) {
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	return func() uint64 {
		close(done)
		wg.Wait()
		return peak.Load()
	}
}

// cpuTime returns the process's user plus system CPU time: on a shared
// machine it is steadier than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func dirSize(dir string) int64 {
	var n int64
	filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			n += fi.Size()
		}
		return nil
	})
	return n
}

// BenchmarkImportFullWindow imports the full-size window into a new store.
func BenchmarkImportFullWindow(b *testing.B) {
	info := benchWindow(b)
	f, err := os.Open(info.Path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	runtime.GC()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dir := b.TempDir()
		s, err := Open(dir, testRule)
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		stop := peakHeap()
		cpu0 := cpuTime()
		start := time.Now()
		phases := map[string]time.Duration{}
		last, lastPhase := start, ""
		st, err := s.Import(context.Background(), bulkbench.Window, f, info.ZipBytes, Options{Redact: noRedact, Progress: func(p Progress) {
			if p.Phase != lastPhase {
				now := time.Now()
				phases[lastPhase] += now.Sub(last)
				last, lastPhase = now, p.Phase
			}
		}})
		peak := stop()
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
		b.ReportMetric(float64(st.Rows)/1e6, "Mrows")
		b.ReportMetric(float64(dirSize(dir))/(1<<20), "store-MB")
		b.ReportMetric(float64(info.ZipBytes)/(1<<20), "zip-MB")
		b.ReportMetric((cpuTime() - cpu0).Seconds(), "cpu-s")
		b.ReportMetric(phases["infotable"].Seconds(), "read-s")
		b.ReportMetric(phases["sorting"].Seconds(), "sort-write-s")
	}
}

// warmStore returns a store holding the full-size window, imported once
// into the bench directory and reused by later runs.
func warmStore(b *testing.B) (*Store, bulkbench.Info) {
	b.Helper()
	info := benchWindow(b)
	dir := bulkbench.StoreDir(info.Rows)
	s, err := Open(dir, testRule)
	if err != nil {
		b.Fatal(err)
	}
	if c, _ := s.Coverage(); len(c.Windows) == 0 {
		f, err := os.Open(info.Path)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		if _, err := s.Import(context.Background(), bulkbench.Window, f, info.ZipBytes, Options{Redact: noRedact}); err != nil {
			b.Fatal(err)
		}
	}
	return s, info
}

// BenchmarkHolders looks up the most held CUSIP of the full-size window
// for its main period on a warm store (files opened, filings cached).
func BenchmarkHolders(b *testing.B) {
	s, info := warmStore(b)
	asOf := civil.DayOf(2025, 9, 30)
	if _, err := s.Holders(info.TopCUSIP, info.Period, asOf, oracleResolve); err != nil { // warm up
		b.Fatal(err)
	}
	runtime.GC()
	b.ReportAllocs()
	b.ResetTimer()
	var rows int
	for i := 0; i < b.N; i++ {
		hs, err := s.Holders(info.TopCUSIP, info.Period, asOf, oracleResolve)
		if err != nil {
			b.Fatal(err)
		}
		rows = 0
		for _, h := range hs {
			rows += len(h.Rows)
		}
	}
	b.ReportMetric(float64(rows), "rows")
}

// BenchmarkPanel streams the full-size window's main period.
func BenchmarkPanel(b *testing.B) {
	s, info := warmStore(b)
	asOf := civil.DayOf(2025, 9, 30)
	runtime.GC()
	b.ReportAllocs()
	b.ResetTimer()
	var n int
	var peak uint64
	for i := 0; i < b.N; i++ {
		stop := peakHeap()
		n = 0
		for _, err := range s.Panel(info.Period, asOf, oracleResolve) {
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		peak = max(peak, stop())
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mrows/s")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
}
