package opensearch

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	osgo "github.com/opensearch-project/opensearch-go/v4"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search/store"
)

var (
	scaleFilings = flag.Int("scale.filings", 250, "BenchmarkScale: filings to put")
	scaleChunks  = flag.Int("scale.chunks", 400, "BenchmarkScale: chunks per filing")
	scaleDim     = flag.Int("scale.dim", 384, "BenchmarkScale: vector dimension (0: no vectors)")
)

// scaleSentences reads the sentences of the 10-K and 10-Q documents of
// the repository's EDGAR mirror: the text the scale benchmark's chunks
// are drawn from.
func scaleSentences(b *testing.B) []string {
	files, err := filepath.Glob("../../testdata/mirror/www.sec.gov/Archives/edgar/data/*/*/*.htm")
	if err != nil || len(files) == 0 {
		b.Fatalf("no report in the mirror: %v", err)
	}
	tags := regexp.MustCompile(`(?s)<[^>]*>|&[a-z#0-9]+;`)
	space := regexp.MustCompile(`\s+`)
	var out []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		text := space.ReplaceAllString(tags.ReplaceAllString(string(data), " "), " ")
		for _, s := range strings.SplitAfter(text, ". ") {
			if n := len(strings.Fields(s)); n >= 8 && n <= 60 {
				out = append(out, strings.TrimSpace(s))
			}
		}
	}
	return out
}

// scaleQueries are the benchmark's BM25 queries.
var scaleQueries = []string{
	"export controls China", "supply chain disruption", "interest rate risk",
	"goodwill impairment", "cybersecurity incident", "revenue recognition",
	"foreign currency exchange", "litigation and regulatory proceedings",
	"inventory write-down", "climate change regulation",
}

func p50p90(d []time.Duration) (float64, float64) {
	slices.Sort(d)
	ms := func(x time.Duration) float64 { return float64(x.Microseconds()) / 1000 }
	return ms(d[len(d)/2]), ms(d[len(d)*9/10])
}

// BenchmarkScale puts -scale.filings filings of -scale.chunks chunks (text
// sampled from the mirror's reports, -scale.dim random vectors) into a
// new store on the node at EDGAR13F_OPENSEARCH_TEST_URL, one Put after
// another, then times BM25 (10 queries, 5 rounds, k=10) unfiltered,
// filtered to one of 500 tickers and with asOf in the middle of the ten
// years the filings span, and kNN unfiltered and by ticker. It reports
// Put chunks/s and the p50 of each in ms, and prints p90 too. The store
// is dropped at the end.
func BenchmarkScale(b *testing.B) {
	addr := os.Getenv(testURLVar)
	if addr == "" {
		b.Skip(testURLVar + " is not set")
	}
	c, err := osgo.NewClient(osgo.Config{Addresses: []string{addr}})
	if err != nil {
		b.Fatal(err)
	}
	sentences := scaleSentences(b)
	rng := rand.New(rand.NewPCG(1, 2))
	ctx := context.Background()
	opts := []Option{}
	if os.Getenv("EDGAR13F_SCALE_EXACT") != "" {
		opts = append(opts, ExactNearest())
	}
	for range b.N {
		s, err := Open(c, "edgar13f-scale-"+strconv.FormatInt(time.Now().UnixNano(), 36), opts...)
		if err != nil {
			b.Fatal(err)
		}
		meta := store.Meta{}
		if *scaleDim > 0 {
			meta = store.Meta{Model: "scale-random", Dim: *scaleDim}
		}
		base := edgar13f.MustParseDate("2015-01-01")
		vector := func() []float32 {
			v := make([]float32, *scaleDim)
			for j := range v {
				v[j] = float32(rng.NormFloat64())
			}
			return v
		}
		var putTime time.Duration
		total := 0
		for i := range *scaleFilings {
			co := i % 500
			acc := fmt.Sprintf("%010d-%02d-%06d", 1000+co, 15 + i*10 / *scaleFilings, i)
			f := store.Filing{
				Accession: acc, CIK: strconv.Itoa(1000 + co), Ticker: "T" + strconv.Itoa(co),
				Company: "Company " + strconv.Itoa(co), Form: "10-K",
				FilingDate: base.AddDays(i * 3650 / *scaleFilings), FiscalYear: 2015 + i*10 / *scaleFilings,
				URL: "https://www.sec.gov/Archives/edgar/data/" + acc + ".htm",
			}
			f.Period = f.FilingDate.AddDays(-60)
			chunks := make([]store.Chunk, *scaleChunks)
			var vectors [][]float32
			for j := range chunks {
				var sb strings.Builder
				for sb.Len() < 1500 {
					sb.WriteString(sentences[rng.IntN(len(sentences))])
					sb.WriteByte(' ')
				}
				text := strings.TrimSpace(sb.String())
				item := []string{"1", "1A", "7"}[j%3]
				chunks[j] = store.Chunk{ID: chunkID(acc, item, j/3), Accession: acc, Item: item, ItemTitle: "Item " + item,
					Index: j / 3, Tokens: len(strings.Fields(text)), Text: text}
				if *scaleDim > 0 {
					vectors = append(vectors, vector())
				}
			}
			t0 := time.Now()
			if err := s.Put(ctx, f, chunks, vectors, meta); err != nil {
				b.Fatal(err)
			}
			putTime += time.Since(t0)
			total += len(chunks)
		}
		rate := float64(total) / putTime.Seconds()
		b.ReportMetric(rate, "put-chunks/s")

		mid := base.AddDays(3650 / 2)
		far := edgar13f.MustParseDate("2099-12-31")
		type series struct {
			name string
			run  func(q string, qv []float32, round int) error
		}
		all := []series{
			{"bm25", func(q string, _ []float32, _ int) error {
				_, err := s.Lexical(ctx, q, store.Filter{AsOf: far}, 10)
				return err
			}},
			{"bm25-ticker", func(q string, _ []float32, r int) error {
				_, err := s.Lexical(ctx, q, store.Filter{AsOf: far, Ticker: "T" + strconv.Itoa((r*37)%min(500, *scaleFilings))}, 10)
				return err
			}},
			{"bm25-asof-mid", func(q string, _ []float32, _ int) error {
				_, err := s.Lexical(ctx, q, store.Filter{AsOf: mid}, 10)
				return err
			}},
		}
		if *scaleDim > 0 {
			all = append(all,
				series{"knn", func(_ string, qv []float32, _ int) error {
					_, err := s.Nearest(ctx, qv, store.Filter{AsOf: far}, 10)
					return err
				}},
				series{"knn-ticker", func(_ string, qv []float32, r int) error {
					_, err := s.Nearest(ctx, qv, store.Filter{AsOf: far, Ticker: "T" + strconv.Itoa((r*37)%min(500, *scaleFilings))}, 10)
					return err
				}})
		}
		line := fmt.Sprintf("scale: %d chunks (%d filings), put %.0f chunks/s", total, *scaleFilings, rate)
		for _, se := range all {
			var d []time.Duration
			for r := range 5 {
				for qi, q := range scaleQueries {
					var qv []float32
					if *scaleDim > 0 {
						qv = vector()
					}
					t0 := time.Now()
					if err := se.run(q, qv, r*len(scaleQueries)+qi); err != nil {
						b.Fatalf("%s %q: %v", se.name, q, err)
					}
					d = append(d, time.Since(t0))
				}
			}
			p50, p90 := p50p90(d)
			b.ReportMetric(p50, se.name+"-p50-ms")
			line += fmt.Sprintf("; %s p50 %.1f ms p90 %.1f ms", se.name, p50, p90)
		}
		fmt.Println(line)
		if os.Getenv("EDGAR13F_SCALE_KEEP") == "" {
			if err := s.Drop(ctx); err != nil {
				b.Fatal(err)
			}
		}
	}
}
