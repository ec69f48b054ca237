package embedded_test

import (
	"fmt"
	"html"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/edgartest/edgarfiles"
	"github.com/edgar13f/edgar13f/search/store"
	"github.com/edgar13f/edgar13f/search/store/embedded"
)

// Benchmarks of the embedded store on synthetic filings made of real
// English: windows of Apple's 10-K text (from the test mirror) with a
// third of the words swapped for words drawn by their frequency in it,
// 400 chunks of about 260 words (350 tokens) per filing, filing dates
// spread over five years.
//
//	go test -run '^$' -bench . -benchmem ./search/store/embedded
//
// Latency benchmarks report p50-ms and p99-ms over their iterations, and
// cpu-ms/op, the process's CPU time per query (all goroutines), which a
// busy machine does not inflate as it does wall-clock latency.

const (
	benchChunks = 400 // chunks per filing
	benchWords  = 260 // words per chunk
	benchDim    = 384
)

var benchMeta = store.Meta{Model: "bench-embed", Dim: benchDim}

var (
	corpusOnce  sync.Once
	corpusWords []string // the 10-K's words in order
)

func benchCorpus(tb testing.TB) []string {
	corpusOnce.Do(func() {
		b, err := os.ReadFile(filepath.Join(edgarfiles.Mirror, "www.sec.gov", "Archives", "edgar", "data", "320193", "000032019324000123", "aapl-20240928.htm"))
		if err != nil {
			tb.Fatal(err)
		}
		text := regexp.MustCompile(`(?s)<[^>]*>`).ReplaceAllString(string(b), " ")
		text = html.UnescapeString(text)
		for _, w := range strings.Fields(text) {
			if strings.IndexFunc(w, func(r rune) bool { return r >= 'a' && r <= 'z' }) >= 0 {
				corpusWords = append(corpusWords, w)
			}
		}
	})
	return corpusWords
}

// benchFiling returns synthetic filing i with its chunks and, when dim is
// not zero, random vectors.
func benchFiling(tb testing.TB, i, dim int) (store.Filing, []store.Chunk, [][]float32) {
	words := benchCorpus(tb)
	rng := rand.New(rand.NewPCG(uint64(i), 7))
	acc := fmt.Sprintf("%010d-%02d-%06d", 1000+i%50, 20+i%5, i)
	f := store.Filing{Accession: acc, CIK: fmt.Sprint(1000 + i%50), Ticker: fmt.Sprintf("T%02d", i%50), Company: "Company", Form: "10-K",
		FilingDate: edgar13f.MustParseDate("2020-01-01").AddDays(i * 1826 / 1000 % 1826), FiscalYear: 2019 + i%5}
	chunks := make([]store.Chunk, benchChunks)
	var vectors [][]float32
	items := []string{"1", "1A", "7", "7A", "8"}
	for j := range chunks {
		start := rng.IntN(len(words) - benchWords)
		w := slices.Clone(words[start : start+benchWords])
		for k := range w {
			if rng.IntN(3) == 0 {
				w[k] = words[rng.IntN(len(words))]
			}
		}
		item := items[j*len(items)/benchChunks]
		chunks[j] = store.Chunk{ID: chunkID(acc, item, j), Accession: acc, Item: item, Index: j, Tokens: benchWords * 4 / 3, Text: strings.Join(w, " ")}
		if dim > 0 {
			v := make([]float32, dim)
			for k := range v {
				v[k] = float32(rng.NormFloat64())
			}
			vectors = append(vectors, v)
		}
	}
	return f, chunks, vectors
}

func dirSize(tb testing.TB, dir string) int64 {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			fi, err := d.Info()
			if err != nil {
				return err
			}
			n += fi.Size()
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return n
}

// BenchmarkPut puts one filing of 400 chunks per iteration, without and
// with 384-dimension vectors, and reports chunks/s and the store's size
// on disk per 1,000 chunks.
func BenchmarkPut(b *testing.B) {
	for _, dim := range []int{0, benchDim} {
		name := "bm25"
		meta := store.Meta{}
		if dim > 0 {
			name, meta = fmt.Sprintf("vectors%d", dim), benchMeta
		}
		b.Run(name, func(b *testing.B) {
			dir := b.TempDir()
			s, err := embedded.Open(dir)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			inputs := make([]func() (store.Filing, []store.Chunk, [][]float32), 8)
			for i := range inputs {
				f, c, v := benchFiling(b, i, dim)
				inputs[i] = func() (store.Filing, []store.Chunk, [][]float32) { return f, c, v }
			}
			b.ResetTimer()
			start, cpu0 := time.Now(), cpuTime()
			for i := 0; i < b.N; i++ {
				f, c, v := inputs[i%len(inputs)]()
				f.Accession = fmt.Sprintf("%010d-24-%06d", 1, i) // a new filing each time
				for j := range c {
					c[j].Accession = f.Accession
				}
				if err := s.Put(ctx, f, c, v, meta); err != nil {
					b.Fatal(err)
				}
			}
			elapsed := time.Since(start)
			b.StopTimer()
			b.ReportMetric(float64(cpuTime()-cpu0)/1e6/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(b.N*benchChunks)/elapsed.Seconds(), "chunks/s")
			b.ReportMetric(float64(dirSize(b, dir))/float64(b.N*benchChunks)*1000/1e6, "MB/1k-chunks")
		})
	}
}

// benchStores are stores built once per size for the query benchmarks.
var (
	benchStoresMu sync.Mutex
	benchStores   = map[int]*embedded.Store{}
	benchDirs     []string
)

func TestMain(m *testing.M) {
	code := m.Run()
	for _, s := range benchStores {
		s.Close()
	}
	for _, d := range benchDirs {
		os.RemoveAll(d)
	}
	os.Exit(code)
}

// benchStore returns a store of n chunks (n/400 filings) with vectors.
func benchStore(b *testing.B, n int) *embedded.Store {
	benchStoresMu.Lock()
	defer benchStoresMu.Unlock()
	if s, ok := benchStores[n]; ok {
		return s
	}
	dir, err := os.MkdirTemp("", "embedded-bench-")
	if err != nil {
		b.Fatal(err)
	}
	benchDirs = append(benchDirs, dir)
	s, err := embedded.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	for i := range n / benchChunks {
		f, c, v := benchFiling(b, i, benchDim)
		if err := s.Put(ctx, f, c, v, benchMeta); err != nil {
			b.Fatal(err)
		}
	}
	b.Logf("built a store of %d chunks in %v: %d MB on disk", n, time.Since(start).Round(time.Millisecond), dirSize(b, dir)/1e6)
	benchStores[n] = s
	return s
}

// benchQueries are two- and three-word queries of the 10-K's vocabulary.
var benchQueries = []string{
	"supply chain", "foreign currency exchange rates", "tax credits", "export controls china",
	"competitive pressures", "intellectual property litigation", "iphone net sales", "share repurchase program",
	"interest rate risk", "vendor non-trade receivables", "cybersecurity incidents", "climate regulation",
}

// latency runs query b.N times and reports p50 and p99.
func latency(b *testing.B, query func(i int) error) {
	b.Helper()
	times := make([]time.Duration, 0, b.N)
	var ms runtime.MemStats
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if err := query(i); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(t0))
	}
	cpu := cpuTime() - cpu0
	b.StopTimer()
	b.ReportMetric(float64(cpu)/1e6/float64(b.N), "cpu-ms/op")
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2])/1e6, "p50-ms")
	b.ReportMetric(float64(times[len(times)*99/100])/1e6, "p99-ms")
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapInuse)/1e6, "heap-MB")
}

// BenchmarkLexical: BM25 over 10k and 100k chunks, on all filings and on
// the filings of the first half of the period; unfiltered and by ticker.
func BenchmarkLexical(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		for _, tc := range []struct {
			name string
			f    store.Filter
		}{
			{"all", store.Filter{AsOf: edgar13f.MustParseDate("2030-01-01")}},
			{"half", store.Filter{AsOf: edgar13f.MustParseDate("2022-07-01")}},
			{"ticker", store.Filter{AsOf: edgar13f.MustParseDate("2030-01-01"), Ticker: "T07"}},
		} {
			b.Run(fmt.Sprintf("%dk/%s", n/1000, tc.name), func(b *testing.B) {
				s := benchStore(b, n)
				latency(b, func(i int) error {
					_, err := s.Lexical(ctx, benchQueries[i%len(benchQueries)], tc.f, 10)
					return err
				})
			})
		}
	}
}

// BenchmarkNearest: exact cosine kNN over 10k and 100k chunks of 384
// dimensions.
func BenchmarkNearest(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	queries := make([][]float32, 16)
	for i := range queries {
		queries[i] = make([]float32, benchDim)
		for j := range queries[i] {
			queries[i][j] = float32(rng.NormFloat64())
		}
	}
	for _, n := range []int{10_000, 100_000} {
		for _, tc := range []struct {
			name string
			f    store.Filter
		}{
			{"all", store.Filter{AsOf: edgar13f.MustParseDate("2030-01-01")}},
			{"ticker", store.Filter{AsOf: edgar13f.MustParseDate("2030-01-01"), Ticker: "T07"}},
		} {
			b.Run(fmt.Sprintf("%dk/%s", n/1000, tc.name), func(b *testing.B) {
				s := benchStore(b, n)
				latency(b, func(i int) error {
					_, err := s.Nearest(ctx, queries[i%len(queries)], tc.f, 10)
					return err
				})
			})
		}
	}
}

// BenchmarkOpen opens the 100k-chunk store and runs its first query (every
// shard's record read; every shard verified and opened).
func BenchmarkOpen(b *testing.B) {
	s := benchStore(b, 100_000)
	_ = s
	dir := benchDirs[len(benchDirs)-1]
	all := store.Filter{AsOf: edgar13f.MustParseDate("2030-01-01")}
	latency(b, func(int) error {
		s, err := embedded.Open(dir)
		if err != nil {
			return err
		}
		defer s.Close()
		_, err = s.Lexical(ctx, "supply chain", all, 10)
		return err
	})
}
