package opensearch

import (
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	osgo "github.com/opensearch-project/opensearch-go/v4"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search/store"
	"github.com/edgar13f/edgar13f/search/store/embedded"
	"github.com/edgar13f/edgar13f/search/store/storebench"
)

// TestScoresSameAsEmbedded puts the same filings (sentences of the
// mirror's reports, and chunks made to tie, to repeat a term, to hold a
// term longer than a Lucene token; random vectors, and vectors that tie)
// into the embedded store and into an OpenSearch store (ExactNearest), and
// checks that every Lexical and Nearest answer is the same on both, chunk
// for chunk, filing for filing and score for score, bit for bit: the same
// terms, statistics and formulas. It runs on the simulator,
// and on the real node at EDGAR13F_OPENSEARCH_TEST_URL when one is set.
func TestScoresSameAsEmbedded(t *testing.T) {
	sentences, err := storebench.Sentences("")
	if err != nil {
		t.Fatal(err)
	}
	cfg := storebench.Config{Filings: 8, Chunks: 30, Words: 60, Dim: 8, Companies: 3, Years: 2}.Defaults()
	meta := store.Meta{Model: "samescores-random", Dim: cfg.Dim}
	type putArgs struct {
		f       store.Filing
		chunks  []store.Chunk
		vectors [][]float32
	}
	var puts []putArgs
	for i := range cfg.Filings {
		f, chunks, vectors := storebench.Filing(cfg, sentences, i)
		puts = append(puts, putArgs{f, chunks, vectors})
	}
	// A filing of chunks that tie: more alike chunks than the first
	// scoring window holds, a term of 300 letters, a repeated term.
	odd := store.Filing{Accession: "0000999999-16-000001", CIK: "999999", Ticker: "ODD", Company: "Oddities Holdings Inc.",
		Form: "10-K", FilingDate: edgar13f.MustParseDate("2016-06-30"), FiscalYear: 2016}
	long := strings.Repeat("supercalifragilistic", 15)
	texts := []string{
		"Our export controls exports exported exporting export.",
		"The word " + long + " is longer than a Lucene token.",
		"Company's suppliers' export controls, about which we would have known.",
	}
	for range 3 * firstWindow {
		texts = append(texts, "Tariffs and export controls on semiconductors.")
	}
	var oddChunks []store.Chunk
	var oddVectors [][]float32
	for i, text := range texts {
		oddChunks = append(oddChunks, store.Chunk{ID: "ff" + strconv.FormatInt(int64(1000000000000+i), 16), Accession: odd.Accession,
			Item: "1A", ItemTitle: "Risk Factors", Index: i, Tokens: 10, Text: text})
		// Vectors that tie too: more alike than the first window holds.
		oddVectors = append(oddVectors, []float32{1, 2, 3, 4, 5, 6, 7, float32(i % 2)})
	}
	puts = append(puts, putArgs{odd, oddChunks, oddVectors})

	emb, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { emb.Close() })
	for _, p := range puts {
		if err := emb.Put(ctx, p.f, p.chunks, p.vectors, meta); err != nil {
			t.Fatal(err)
		}
	}

	clusters := map[string]string{}
	srv := httptest.NewServer(newFakeCluster())
	t.Cleanup(srv.Close)
	clusters["simulator"] = srv.URL
	if addr := os.Getenv(testURLVar); addr != "" {
		clusters["node"] = addr
	}
	for name, addr := range clusters {
		t.Run(name, func(t *testing.T) {
			c, err := osgo.NewClient(osgo.Config{Addresses: []string{addr}, DisableRetry: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.Close() })
			ost, err := Open(c, "edgar13f-test-samescores-"+strconv.FormatInt(time.Now().UnixNano(), 36), Replicas(0), ExactNearest())
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				if err := ost.Drop(ctx); err != nil {
					t.Errorf("Drop: %v", err)
				}
			})
			for _, p := range puts {
				if err := ost.Put(ctx, p.f, p.chunks, p.vectors, meta); err != nil {
					t.Fatal(err)
				}
			}
			queries := append(append([]string(nil), scaleQueries...),
				"export controls", "exports", long, "oddities semiconductors tariffs", "our suppliers' company would about")
			filters := []store.Filter{
				{AsOf: edgar13f.MustParseDate("2099-12-31")},
				{AsOf: edgar13f.MustParseDate("2016-01-01")},
				{AsOf: edgar13f.MustParseDate("2099-12-31"), Ticker: storebench.Ticker(1)},
				{AsOf: edgar13f.MustParseDate("2099-12-31"), Item: "1A"},
			}
			compared := 0
			for _, q := range queries {
				for _, f := range filters {
					for _, k := range []int{1, 5, 10, 50} {
						want, err := emb.Lexical(ctx, q, f, k)
						if err != nil {
							t.Fatal(err)
						}
						got, err := ost.Lexical(ctx, q, f, k)
						if err != nil {
							t.Fatalf("Lexical(%q, %+v, %d): %v", q, f, k, err)
						}
						if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
							t.Errorf("Lexical(%.40q, asOf %s, ticker %q, item %q, k %d): embedded (-) and OpenSearch (+) differ:\n%s", q, f.AsOf, f.Ticker, f.Item, k, diff)
						}
						compared += len(want)
					}
				}
			}
			// Nearest (ExactNearest), for vectors near the odd filing's and
			// others.
			vectors := [][]float32{{1, 2, 3, 4, 5, 6, 7, 0.5}, puts[0].vectors[3], {-1, 0, 1, 0, -1, 0, 1, 0}}
			for _, v := range vectors {
				for _, f := range filters {
					for _, k := range []int{1, 5, 10, 50} {
						want, err := emb.Nearest(ctx, v, f, k)
						if err != nil {
							t.Fatal(err)
						}
						got, err := ost.Nearest(ctx, v, f, k)
						if err != nil {
							t.Fatalf("Nearest(%v, %+v, %d): %v", v, f, k, err)
						}
						if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
							t.Errorf("Nearest(%v, asOf %s, ticker %q, item %q, k %d): embedded (-) and OpenSearch (+) differ:\n%s", v, f.AsOf, f.Ticker, f.Item, k, diff)
						}
						compared += len(want)
					}
				}
			}
			if compared < 1000 {
				t.Errorf("only %d matches compared; the corpus is too small to show anything", compared)
			}
		})
	}
}
