package opensearch

import (
	"net/http"
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
// into the embedded store and into OpenSearch stores, and checks that
// every Lexical answer and every Nearest answer of the three exact
// searches (a store made with ExactNearest; a store with a graph queried
// with ExactNearest; a store of the version that kept its vectors in doc
// values) is the same on both, chunk for chunk, filing for filing and
// score for score, bit for bit: the same terms, statistics and formulas. It runs on the simulator,
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
	for range 6 * firstWindow {
		texts = append(texts, "Tariffs and export controls on semiconductors.")
	}
	var oddChunks []store.Chunk
	var oddVectors [][]float32
	// Their IDs fall as they are put: a cluster that breaks ties in the
	// order of its documents returns the last ones of the best k last.
	for i, text := range texts {
		oddChunks = append(oddChunks, store.Chunk{ID: "ff" + strconv.FormatInt(int64(1000000000000-i), 16), Accession: odd.Accession,
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
			open := func(name string, opts ...Option) *Store {
				t.Helper()
				return openDropped(t, c, "edgar13f-test-samescores-"+name+"-"+strconv.FormatInt(time.Now().UnixNano(), 36), opts...)
			}
			putAll := func(s *Store) {
				t.Helper()
				for _, p := range puts {
					if err := s.Put(ctx, p.f, p.chunks, p.vectors, meta); err != nil {
						t.Fatal(err)
					}
				}
			}
			// The three exact searches: the knn query on a store made
			// with ExactNearest (flat vectors), and the script on a store
			// with a graph queried with ExactNearest and on a store of
			// the version that kept the vectors in doc values.
			ost := open("flat", ExactNearest())
			putAll(ost)
			graph := open("graph")
			putAll(graph)
			dv := open("docvalues")
			if _, err := dv.do(ctx, "create index", http.MethodPut, "/"+dv.dataIndex(0), nil, dv.dataIndexBody(meta, 0, docValues)); err != nil {
				t.Fatal(err)
			}
			putAll(dv)
			graphExact, err := Open(c, graph.Name(), ExactNearest())
			if err != nil {
				t.Fatal(err)
			}
			exact := map[string]*Store{"flat": ost, "script on a graph": graphExact, "script on doc values": dv}
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
			for search, ost := range exact {
				for _, v := range vectors {
					for _, f := range filters {
						for _, k := range []int{1, 5, 10, 50} {
							want, err := emb.Nearest(ctx, v, f, k)
							if err != nil {
								t.Fatal(err)
							}
							got, err := ost.Nearest(ctx, v, f, k)
							if err != nil {
								t.Fatalf("%s: Nearest(%v, %+v, %d): %v", search, v, f, k, err)
							}
							if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
								t.Errorf("%s: Nearest(%v, asOf %s, ticker %q, item %q, k %d): embedded (-) and OpenSearch (+) differ:\n%s", search, v, f.AsOf, f.Ticker, f.Item, k, diff)
							}
							compared += len(want)
						}
					}
				}
			}
			if compared < 1000 {
				t.Errorf("only %d matches compared; the corpus is too small to show anything", compared)
			}
		})
	}
}
