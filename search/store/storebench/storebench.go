// Package storebench measures a filing-search [store.Store] at scale: it
// fills the store with N synthetic filings of M chunks made of sentences
// sampled from real 10-K and 10-Q text, then times BM25 and kNN queries
// unfiltered, filtered by ticker and with asOf in the middle of the period
// the filings span. Any store plugs in through an open function; the
// command bench/scalebench runs it on the embedded store.
package storebench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search/store"
)

// Config says what to build and how to query it.
type Config struct {
	Filings   int    // filings to put (N)
	Chunks    int    // chunks per filing (M)
	Words     int    // words per chunk, about (default 260, 350 tokens)
	Dim       int    // vector dimension; 0 puts no vectors and skips kNN
	Companies int    // companies the filings are spread over (tickers T0000...)
	Years     int    // years the filing dates span, from 2015-01-01
	Rounds    int    // rounds of the query set
	K         int    // hits per query
	Corpus    string // a directory searched for 10-K/10-Q HTML documents
	Seed      uint64 // makes the filings, sentences and vectors
	// Puts is how many Puts run side by side while building (default 1:
	// one after another, as the published figures measure). With more,
	// the Put rate is the chunks over the build's wall time, the making
	// of the filings included, as an indexer would see it.
	Puts int
	// HeapProfile, when not nil, receives a heap profile taken after the
	// queries, after a GC, while the store is still open.
	HeapProfile io.Writer
}

// Defaults fills the zero fields of c with the figures of the published
// measurements: 500 companies, ten years, 5 rounds of 10 queries, k 10,
// 384 dimensions (Dim is left alone when negative, meaning none).
func (c Config) Defaults() Config {
	if c.Companies <= 0 {
		c.Companies = 500
	}
	if c.Years <= 0 {
		c.Years = 10
	}
	if c.Rounds <= 0 {
		c.Rounds = 5
	}
	if c.K <= 0 {
		c.K = 10
	}
	if c.Dim == 0 {
		c.Dim = 384
	}
	if c.Dim < 0 {
		c.Dim = 0
	}
	if c.Seed == 0 {
		c.Seed = 1
	}
	if c.Words <= 0 {
		c.Words = 260
	}
	if c.Puts <= 0 {
		c.Puts = 1
	}
	return c
}

// Latency is a query kind's p50 and p90 in milliseconds, and the median
// CPU time of a query (all the process's threads): on a busy machine the
// wall-clock figures include waiting for a CPU, the CPU time does not.
type Latency struct {
	P50   float64 `json:"p50_ms"`
	P90   float64 `json:"p90_ms"`
	CPU50 float64 `json:"cpu_p50_ms"`
}

// Result is what Run measured, printed as one JSON line.
type Result struct {
	Store          string  `json:"store"`
	Filings        int     `json:"filings"`
	ChunksPer      int     `json:"chunks_per_filing"`
	Chunks         int     `json:"chunks"`
	Dim            int     `json:"dim"`
	Words          int     `json:"words_per_chunk"`
	Built          bool    `json:"built"`                      // false: the store held the filings already
	PutChunksPerS  float64 `json:"put_chunks_per_s,omitempty"` // when built
	PutCPUPer1k    float64 `json:"put_cpu_ms_per_1k_chunks,omitempty"`
	PutsSideBySide int     `json:"puts_side_by_side,omitempty"` // when built with more than one
	DiskMB         float64 `json:"disk_mb,omitempty"`           // size of the store's directory, when it has one
	OpenMS         float64 `json:"open_ms"`                     // opening the filled store
	FirstQueryMS   float64 `json:"first_query_ms"`              // the first BM25 query after opening
	HeapMB         float64 `json:"heap_mb"`                     // live heap after the queries, after a GC
	HeapPeakMB     float64 `json:"heap_peak_mb"`                // the most heap in use seen while querying
	BM25           Latency `json:"bm25"`
	BM25Ticker     Latency `json:"bm25_ticker"`
	BM25AsOfMid    Latency `json:"bm25_asof_mid"`
	KNN            Latency `json:"knn,omitzero"`
	KNNTicker      Latency `json:"knn_ticker,omitzero"`
	KNNAsOfMid     Latency `json:"knn_asof_mid,omitzero"`
	GOMAXPROCS     int     `json:"gomaxprocs"`
	QueriesPerKind int     `json:"queries_per_kind"`
}

// JSON returns r as one line of JSON.
func (r Result) JSON() string {
	b, _ := json.Marshal(r)
	return string(b)
}

// Queries are the BM25 queries, of the vocabulary of the reports.
var Queries = []string{
	"supply chain disruption", "foreign currency exchange rates", "income tax credits", "export controls china",
	"competitive pressures on pricing", "intellectual property litigation", "share repurchase program",
	"interest rate risk", "cybersecurity incidents", "climate change regulation",
}

// Run fills the store that open returns (unless it already holds the N
// filings of cfg) and measures it. open is called twice: once to build,
// once to measure a store opened afresh; dir, when not "", is the
// store's directory, whose size is reported. Progress goes to log.
func Run(ctx context.Context, name string, cfg Config, open func() (store.Store, error), dir string, log io.Writer) (Result, error) {
	cfg = cfg.Defaults()
	if cfg.Filings < 1 || cfg.Chunks < 1 {
		return Result{}, errors.New("storebench: filings and chunks must be at least 1")
	}
	res := Result{Store: name, Filings: cfg.Filings, ChunksPer: cfg.Chunks, Chunks: cfg.Filings * cfg.Chunks, Dim: cfg.Dim, Words: cfg.Words,
		GOMAXPROCS: runtime.GOMAXPROCS(0)}
	sentences, err := Sentences(cfg.Corpus)
	if err != nil {
		return res, err
	}
	meta := store.Meta{}
	if cfg.Dim > 0 {
		meta = store.Meta{Model: "storebench-random", Dim: cfg.Dim}
	}
	end := edgar13f.MustParseDate("2015-01-01").AddDays(cfg.Years * 365)

	s, err := open()
	if err != nil {
		return res, err
	}
	have, err := s.Filings(ctx, end)
	if err != nil {
		s.Close()
		return res, err
	}
	if len(have) != cfg.Filings {
		if len(have) != 0 {
			s.Close()
			return res, fmt.Errorf("storebench: the store holds %d filings, not 0 or %d: use an empty directory", len(have), cfg.Filings)
		}
		res.Built = true
		build := buildOneByOne
		if cfg.Puts > 1 {
			build = buildSideBySide
			res.PutsSideBySide = cfg.Puts
		}
		putTime, putCPU, err := build(ctx, s, cfg, sentences, meta, log)
		if err != nil {
			s.Close()
			return res, err
		}
		res.PutChunksPerS = round(float64(cfg.Filings*cfg.Chunks) / putTime.Seconds())
		res.PutCPUPer1k = round(float64(putCPU) / 1e6 / float64(cfg.Filings*cfg.Chunks) * 1000)
	}
	if err := s.Close(); err != nil {
		return res, err
	}
	if dir != "" {
		n, err := dirSize(dir)
		if err != nil {
			return res, err
		}
		res.DiskMB = round(float64(n) / 1e6)
	}
	runtime.GC()

	t0 := time.Now()
	s, err = open()
	if err != nil {
		return res, err
	}
	defer s.Close()
	res.OpenMS = ms(time.Since(t0))
	all := store.Filter{AsOf: end}
	mid := store.Filter{AsOf: edgar13f.MustParseDate("2015-01-01").AddDays(cfg.Years * 365 / 2)}
	t0 = time.Now()
	if _, err := s.Lexical(ctx, Queries[0], all, cfg.K); err != nil {
		return res, err
	}
	res.FirstQueryMS = ms(time.Since(t0))

	var peak uint64
	sample := func() {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		peak = max(peak, m.HeapInuse)
	}
	ticker := func(i int) store.Filter {
		return store.Filter{AsOf: end, Ticker: Ticker((i * 37) % min(cfg.Companies, cfg.Filings))}
	}
	type kind struct {
		out    *Latency
		filter func(i int) store.Filter
	}
	kinds := []kind{{&res.BM25, func(int) store.Filter { return all }}, {&res.BM25Ticker, ticker}, {&res.BM25AsOfMid, func(int) store.Filter { return mid }}}
	for _, k := range kinds {
		var times, cpu []time.Duration
		for r := range cfg.Rounds {
			for i, q := range Queries {
				t0, c0 := time.Now(), cpuTime()
				if _, err := s.Lexical(ctx, q, k.filter(r*len(Queries)+i), cfg.K); err != nil {
					return res, err
				}
				times, cpu = append(times, time.Since(t0)), append(cpu, cpuTime()-c0)
			}
			sample()
		}
		*k.out = latency(times, cpu)
		res.QueriesPerKind = len(times)
	}
	if cfg.Dim > 0 {
		rng := rand.New(rand.NewPCG(cfg.Seed, 99))
		qs := make([][]float32, len(Queries))
		for i := range qs {
			qs[i] = randomVector(rng, cfg.Dim)
		}
		kinds := []kind{{&res.KNN, func(int) store.Filter { return all }}, {&res.KNNTicker, ticker}, {&res.KNNAsOfMid, func(int) store.Filter { return mid }}}
		for _, k := range kinds {
			var times, cpu []time.Duration
			for r := range cfg.Rounds {
				for i, q := range qs {
					t0, c0 := time.Now(), cpuTime()
					if _, err := s.Nearest(ctx, q, k.filter(r*len(qs)+i), cfg.K); err != nil {
						return res, err
					}
					times, cpu = append(times, time.Since(t0)), append(cpu, cpuTime()-c0)
				}
				sample()
			}
			*k.out = latency(times, cpu)
		}
	}
	res.HeapPeakMB = round(float64(peak) / 1e6)
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	res.HeapMB = round(float64(m.HeapInuse) / 1e6)
	if cfg.HeapProfile != nil {
		if err := pprof.Lookup("heap").WriteTo(cfg.HeapProfile, 0); err != nil {
			return res, err
		}
	}
	return res, nil
}

// buildOneByOne puts the filings of cfg one after another, and returns the
// time and the process's CPU time the Puts took (not the making of the
// filings).
func buildOneByOne(ctx context.Context, s store.Store, cfg Config, sentences []string, meta store.Meta, log io.Writer) (putTime, putCPU time.Duration, err error) {
	last := time.Now()
	for i := range cfg.Filings {
		f, cs, vs := Filing(cfg, sentences, i)
		t0, c0 := time.Now(), cpuTime()
		if err := s.Put(ctx, f, cs, vs, meta); err != nil {
			return 0, 0, err
		}
		putTime, putCPU = putTime+time.Since(t0), putCPU+cpuTime()-c0
		if time.Since(last) > 10*time.Second || i == cfg.Filings-1 {
			last = time.Now()
			fmt.Fprintf(log, "put %d of %d filings (%d chunks), %.0f chunks/s\n", i+1, cfg.Filings, (i+1)*cfg.Chunks,
				float64((i+1)*cfg.Chunks)/putTime.Seconds())
		}
	}
	return putTime, putCPU, nil
}

// buildSideBySide puts the filings of cfg with cfg.Puts Puts side by side,
// each making its filing and putting it, and returns the build's wall time
// and the process's CPU time over it. The first error stops the build.
func buildSideBySide(ctx context.Context, s store.Store, cfg Config, sentences []string, meta store.Meta, log io.Writer) (putTime, putCPU time.Duration, err error) {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(cfg.Puts)
	var (
		mu   sync.Mutex
		done int // filings put
		last = time.Now()
	)
	t0, c0 := time.Now(), cpuTime()
	for i := range cfg.Filings {
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err // a Put failed, or ctx ended: put nothing more
			}
			f, cs, vs := Filing(cfg, sentences, i)
			if err := s.Put(gctx, f, cs, vs, meta); err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			done++
			if time.Since(last) > 10*time.Second || done == cfg.Filings {
				last = time.Now()
				fmt.Fprintf(log, "put %d of %d filings (%d chunks), %d side by side, %.0f chunks/s\n", done, cfg.Filings, done*cfg.Chunks,
					cfg.Puts, float64(done*cfg.Chunks)/time.Since(t0).Seconds())
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return 0, 0, err
	}
	return time.Since(t0), cpuTime() - c0, nil
}

// Ticker returns the ticker of company c.
func Ticker(c int) string { return fmt.Sprintf("T%04d", c) }

// Filing returns synthetic filing i of cfg: company i mod Companies, filing
// dates spread evenly over the years, Chunks chunks of about 260 words of
// sentences drawn from sentences (at least one, about cfg.Words words), in
// five Items, and random vectors when cfg.Dim is not zero.
func Filing(cfg Config, sentences []string, i int) (store.Filing, []store.Chunk, [][]float32) {
	rng := rand.New(rand.NewPCG(cfg.Seed, uint64(i)))
	c := i % cfg.Companies
	acc := fmt.Sprintf("%010d-%02d-%06d", 100000+c, 15+i%10, i%1_000_000)
	days := cfg.Years * 365
	filed := edgar13f.MustParseDate("2015-01-01").AddDays(int(int64(i) * int64(days) / int64(cfg.Filings)))
	f := store.Filing{Accession: acc, CIK: fmt.Sprint(100000 + c), Ticker: Ticker(c), Company: fmt.Sprintf("Company %d Inc", c),
		Form: "10-K", FilingDate: filed, Period: filed.AddDays(-60), FiscalYear: filed.Year - 1,
		URL: "https://www.sec.gov/Archives/edgar/data/" + fmt.Sprint(100000+c) + "/" + acc + ".htm"}
	items := []string{"1", "1A", "7", "7A", "8"}
	chunks := make([]store.Chunk, cfg.Chunks)
	var vectors [][]float32
	for j := range chunks {
		var b strings.Builder
		words := 0
		for words < cfg.Words {
			s := sentences[rng.IntN(len(sentences))]
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(s)
			words += strings.Count(s, " ") + 1
		}
		item := items[j*len(items)/cfg.Chunks]
		id := fmt.Sprintf("%016x", rng.Uint64())
		chunks[j] = store.Chunk{ID: id, Accession: acc, Item: item, Index: j, Tokens: words * 4 / 3, Text: b.String()}
		if cfg.Dim > 0 {
			vectors = append(vectors, randomVector(rng, cfg.Dim))
		}
	}
	return f, chunks, vectors
}

func randomVector(rng *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for k := range v {
		v[k] = float32(rng.NormFloat64())
	}
	return v
}

// stripTags returns an HTML document's text: its tags each replaced by a
// space, entities decoded, runs of white space made one space.
func stripTags(b []byte) string {
	var out strings.Builder
	out.Grow(len(b) / 4)
	inTag := false
	for _, c := range b {
		switch {
		case c == '<':
			inTag = true
			out.WriteByte(' ')
		case c == '>' && inTag:
			inTag = false
		case !inTag:
			out.WriteByte(c)
		}
	}
	return strings.Join(strings.Fields(html.UnescapeString(out.String())), " ")
}

// Sentences returns the sentences of the 10-K and 10-Q documents (HTML
// files over 100 kB) under dir, the repository's test mirror when dir is
// "": sentences of 8 to 80 words that are mostly letters.
func Sentences(dir string) ([]string, error) {
	if dir == "" {
		var err error
		if dir, err = findMirror(); err != nil {
			return nil, err
		}
	}
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".htm") {
			return err
		}
		fi, err := d.Info()
		if err != nil || fi.Size() < 100_000 {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		text := stripTags(b)
		for _, s := range strings.SplitAfter(text, ". ") {
			s = strings.TrimSpace(s)
			n := strings.Count(s, " ") + 1
			letters := strings.Count(s, " ")
			for _, r := range s {
				if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
					letters++
				}
			}
			if n >= 8 && n <= 80 && letters*10 >= len(s)*8 {
				out = append(out, s)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) < 100 {
		return nil, fmt.Errorf("storebench: %d sentences of reports under %s; want at least 100", len(out), dir)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// findMirror returns testdata/mirror of the repository holding the working
// directory.
func findMirror() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, "testdata", "mirror")
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			if _, err := os.Stat(p); err == nil {
				return p, nil
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("storebench: no testdata/mirror above the working directory: name a corpus directory")
		}
		dir = parent
	}
}

func latency(times, cpu []time.Duration) Latency {
	slices.Sort(times)
	slices.Sort(cpu)
	return Latency{P50: ms(times[len(times)/2]), P90: ms(times[len(times)*9/10]), CPU50: ms(cpu[len(cpu)/2])}
}

func ms(d time.Duration) float64 { return round(float64(d) / 1e6) }

func round(x float64) float64 {
	switch {
	case x >= 100:
		return float64(int64(x + 0.5))
	case x >= 10:
		return float64(int64(x*10+0.5)) / 10
	}
	return float64(int64(x*100+0.5)) / 100
}

func dirSize(dir string) (int64, error) {
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
	return n, err
}
