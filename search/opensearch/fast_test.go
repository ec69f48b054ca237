package opensearch

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	osgo "github.com/opensearch-project/opensearch-go/v4"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search/internal/vecmath"
	"github.com/edgar13f/edgar13f/search/store"
)

// eachCluster runs test on the simulator, and on the real node at
// EDGAR13F_OPENSEARCH_TEST_URL when one is set, with a new store of its
// own (no replica, dropped at the end).
func eachCluster(t *testing.T, opts []Option, test func(t *testing.T, s *Store)) {
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
			s, err := Open(c, "edgar13f-test-fast-"+strconv.FormatInt(time.Now().UnixNano(), 36), append([]Option{Replicas(0)}, opts...)...)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				if err := s.Drop(ctx); err != nil {
					t.Errorf("Drop: %v", err)
				}
			})
			test(t, s)
		})
	}
}

// TestVectorNotInStoredSource checks that a chunk's vector is indexed but
// not kept in the stored _source (which every fetch decompresses and
// every merge copies), and that Nearest, HNSW and exact, still scores its
// matches by the vectors that were put, bit for bit.
func TestVectorNotInStoredSource(t *testing.T) {
	meta := store.Meta{Model: "test-embed", Dim: 3}
	for _, exact := range []bool{false, true} {
		var opts []Option
		if exact {
			opts = append(opts, ExactNearest())
		}
		t.Run(fmt.Sprintf("exact=%v", exact), func(t *testing.T) {
			eachCluster(t, opts, func(t *testing.T, s *Store) {
				f, chunks, vectors := apple(), appleChunks(), appleVectors()
				if err := s.Put(ctx, f, chunks, vectors, meta); err != nil {
					t.Fatal(err)
				}
				if _, err := s.Filings(ctx, f.FilingDate); err != nil { // refreshes
					t.Fatal(err)
				}
				data, err := s.do(ctx, "search", http.MethodPost, "/"+s.dataIndex(0)+"/_search", nil,
					map[string]any{"size": 10, "query": term("kind", kindChunk)})
				if err != nil {
					t.Fatal(err)
				}
				var r struct {
					Hits struct {
						Hits []struct {
							Source map[string]any `json:"_source"`
						} `json:"hits"`
					} `json:"hits"`
				}
				if err := json.Unmarshal(data, &r); err != nil {
					t.Fatal(err)
				}
				if len(r.Hits.Hits) != len(chunks) {
					t.Fatalf("%d chunk documents; want %d", len(r.Hits.Hits), len(chunks))
				}
				for _, h := range r.Hits.Hits {
					if v, ok := h.Source["vector"]; ok {
						t.Errorf("chunk %v: the stored _source holds the vector %v", h.Source["chunk_id"], v)
					}
				}
				q := []float32{0.25, -0.5, 1}
				ms, err := s.Nearest(ctx, q, store.Filter{AsOf: f.FilingDate}, 5)
				if err != nil {
					t.Fatal(err)
				}
				q64 := []float64{0.25, -0.5, 1}
				var want []float64
				var got []float64
				for _, i := range []int{2, 0} { // the second chunk's vector is zero: never returned
					want = append(want, vecmath.Cosine(q64, vecmath.Norm(q), vectors[i], vecmath.Norm(vectors[i])))
				}
				var ids []string
				for _, m := range ms {
					got, ids = append(got, m.Score), append(ids, m.Chunk.ID)
				}
				if !slices.Equal(want, got) || !slices.Equal(ids, []string{chunks[2].ID, chunks[0].ID}) {
					t.Errorf("Nearest = %v scored %v; want %v scored %v", ids, got, []string{chunks[2].ID, chunks[0].ID}, want)
				}
			})
		})
	}
}

// TestLexicalStatisticsVisitMatchesOnly checks that Lexical's searches
// visit the visible filing documents and the chunks that hold a query
// term, not every visible chunk: on the simulator, which counts the
// documents each search's query matched.
func TestLexicalStatisticsVisitMatchesOnly(t *testing.T) {
	c, fake := fakeClient(t)
	s, err := Open(c, "t")
	if err != nil {
		t.Fatal(err)
	}
	const filings, perFiling = 3, 40
	for i := range filings {
		f := apple()
		f.Accession = fmt.Sprintf("0000320193-2%d-000123", i)
		f.FilingDate = edgar13f.MustParseDate("2020-11-01").AddDays(365 * i)
		var chunks []store.Chunk
		for j := range perFiling {
			text := "Net sales increased compared to the prior year."
			if j == 7 {
				text = "A zebra crossed the loading dock."
			}
			chunks = append(chunks, store.Chunk{ID: chunkID(f.Accession, "7", j), Accession: f.Accession, Item: "7", Index: j, Tokens: 9, Text: text})
		}
		if err := s.Put(ctx, f, chunks, nil, store.Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Filings(ctx, edgar13f.MustParseDate("2030-01-01")); err != nil { // refreshes
		t.Fatal(err)
	}
	fake.mu.Lock()
	fake.matched = nil
	fake.mu.Unlock()
	ms, err := s.Lexical(ctx, "zebra", store.Filter{AsOf: edgar13f.MustParseDate("2030-01-01")}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != filings {
		t.Fatalf("Lexical(zebra) = %d matches; want %d", len(ms), filings)
	}
	fake.mu.Lock()
	matched := slices.Clone(fake.matched)
	fake.mu.Unlock()
	// The filing documents and the one zebra chunk of each filing.
	if len(matched) == 0 || slices.Max(matched) > 2*filings {
		t.Errorf("Lexical's searches matched %v documents; want at most %d each (the filings and the chunks that hold the term), not the %d visible chunks", matched, 2*filings, filings*perFiling)
	}
}

// TestLexicalRefusesIndexWithoutLengths checks that Lexical on a data
// index whose filing documents do not hold their chunks' lengths (one
// made before format 5) fails with an error that says so, rather than
// answering from wrong statistics or with nothing.
func TestLexicalRefusesIndexWithoutLengths(t *testing.T) {
	c, fake := fakeClient(t)
	s, err := Open(c, "t")
	if err != nil {
		t.Fatal(err)
	}
	f := apple()
	if err := s.Put(ctx, f, appleChunks(), nil, store.Meta{}); err != nil {
		t.Fatal(err)
	}
	if ms, err := s.Lexical(ctx, "export controls", store.Filter{AsOf: f.FilingDate}, 5); err != nil || len(ms) != 1 {
		t.Fatalf("Lexical = %d matches, %v; want 1", len(ms), err)
	}
	// The filing document as an earlier version wrote it.
	fake.mu.Lock()
	ix := fake.indices[s.dataIndex(0)]
	n := 0
	for _, d := range ix.docs {
		if d.src["kind"] == kindFiling {
			delete(d.src, "lexical_length")
			n++
		}
	}
	fake.mu.Unlock()
	if n != 1 {
		t.Fatalf("%d filing documents; want 1", n)
	}
	ms, err := s.Lexical(ctx, "export controls", store.Filter{AsOf: f.FilingDate}, 5)
	if err == nil || !strings.Contains(err.Error(), "earlier version") {
		t.Errorf("Lexical on an index without the filings' lengths = %d matches, error %v; want an error that says the index is of an earlier version", len(ms), err)
	}
}
