package main

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f/examples/internal/testkit"
)

// TestSearchSameOnBothStores indexes the mirror's 10-Ks into the embedded
// store and into the OpenSearch store (EDGAR13F_OPENSEARCH_URL) through
// two servers with the same hashing embedder, and checks that every search
// tool gives the same answer on both, member for member, scores included:
// index_filings, get_chunk and the bm25, knn and hybrid modes (both stores
// compute BM25 and cosine similarity alike, to the last bit). It does so
// for both layouts of the OpenSearch store's vectors: the HNSW graph, and
// none (EDGAR13F_OPENSEARCH_EXACT=on: flat vectors, kNN compared with
// every chunk).
func TestSearchSameOnBothStores(t *testing.T) {
	for _, layout := range []struct {
		name string
		env  []string
	}{
		{"hnsw", nil},
		{"exact", []string{"EDGAR13F_OPENSEARCH_EXACT=on"}},
	} {
		t.Run(layout.name, func(t *testing.T) {
			testSearchSameOnBothStores(t, layout.env)
		})
	}
}

func testSearchSameOnBothStores(t *testing.T, layout []string) {
	base := []string{"EDGAR13F_FIXTURE_DIR=" + mirror, "EDGAR13F_EMBED_URL=hash:64"}
	emb := testkit.Connect(t, command(t, base...))
	cluster := testkit.OpenSearchEnv(t)
	ops := testkit.Connect(t, command(t, append(append(base, cluster...), layout...)...))
	engine := "lucene" // the HNSW graph
	if len(layout) > 0 {
		engine = "faiss" // flat vectors, never a graph
	}
	defer checkEngine(t, cluster, engine)

	calls := []struct{ tool, args string }{
		{"search_filings", `{"query":"export controls","as_of":"2025-03-01"}`},
		{"index_filings", `{"tickers":["AAPL","1045810"],"as_of":"2025-03-01","forms":["10-K"]}`},
		{"index_filings", `{"tickers":["aapl","NVDA"],"as_of":"2025-03-01","forms":["10-K"],"filings":1}`},
		{"search_filings", `{"query":"export controls on shipments of data center products to China","as_of":"2025-02-26","k":10}`},
		{"search_filings", `{"query":"export controls on shipments of data center products to China","as_of":"2025-02-25","k":10}`},
		{"search_filings", `{"query":"risks","as_of":"2025-03-01","ticker":"aapl","item":"Item 1a","form":"10-K","fiscal_year":2024,"cik":"320193","mode":"bm25","k":3}`},
		{"search_filings", `{"query":"supply chain concentration in Asia","as_of":"2025-03-01","mode":"knn","k":10}`},
		{"search_filings", `{"query":"gross margin","as_of":"2025-03-01","ticker":"NVDA","mode":"knn","k":5}`},
		{"search_filings", `{"query":"supply chain risks","as_of":"2025-03-01","mode":"bm25","k":50}`},
		{"search_filings", `{"query":"export controls on data center products","as_of":"2025-03-01","mode":"hybrid","k":10}`},
		{"search_filings", `{"query":"zzzqqq nothingmatches","as_of":"2025-03-01"}`},
	}
	for _, c := range calls {
		want := callSearch(t, emb, c.tool, c.args)
		got := callSearch(t, ops, c.tool, c.args)
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(result{})); diff != "" {
			t.Errorf("%s(%s): embedded (-) and OpenSearch (+) answer differently:\n%s", c.tool, c.args, diff)
		}
		if c.tool != "search_filings" || want.obj["status"] != "ok" {
			continue
		}
		// get_chunk of each hit, with neighbours, before and on its filing date.
		for _, h := range hits(t, want) {
			for _, asOf := range []string{"2025-02-25", "2025-03-01"} {
				args := `{"chunk_id":"` + h["chunk_id"].(string) + `","as_of":"` + asOf + `","span":2}`
				w, g := callSearch(t, emb, "get_chunk", args), callSearch(t, ops, "get_chunk", args)
				if diff := cmp.Diff(w, g, cmp.AllowUnexported(result{})); diff != "" {
					t.Errorf("get_chunk(%s): embedded (-) and OpenSearch (+) answer differently:\n%s", args, diff)
				}
			}
		}
	}
}

// TestSearchClusterDown: with EDGAR13F_OPENSEARCH_URL naming a port nothing
// listens on, every search tool fails with a message naming the cluster
// and the operation, never an empty answer.
func TestSearchClusterDown(t *testing.T) {
	url := testkit.RefusedURL(t)
	s := testkit.Connect(t, command(t, "EDGAR13F_FIXTURE_DIR="+mirror, "EDGAR13F_OPENSEARCH_URL="+url))
	for _, c := range []struct{ tool, args, op string }{
		{"search_filings", `{"query":"export controls","as_of":"2025-03-01"}`, "list filings"},
		{"get_chunk", `{"chunk_id":"0123456789abcdef","as_of":"2025-03-01"}`, "read chunk"},
		{"index_filings", `{"tickers":["AAPL"],"as_of":"2025-03-01","forms":["10-K"]}`, "the OpenSearch cluster"},
	} {
		r := callSearch(t, s, c.tool, c.args)
		if r.obj["status"] == "ok" {
			t.Errorf("%s with the cluster down answered %v", c.tool, r.obj)
			continue
		}
		m, _ := r.obj["message"].(string)
		for _, want := range []string{"OpenSearch cluster " + url, c.op} {
			if !strings.Contains(m, want) {
				t.Errorf("%s with the cluster down: message %q does not say %q", c.tool, m, want)
			}
		}
	}
}

// checkEngine checks that the data indices the test's programs made on
// the cluster (the EDGAR13F_OPENSEARCH_URL and _INDEX of env) keep their
// vectors with the k-NN engine want: lucene (an HNSW graph) or faiss (flat
// vectors, without a graph).
func checkEngine(t *testing.T, env []string, want string) {
	t.Helper()
	var addr, prefix string
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "EDGAR13F_OPENSEARCH_URL":
			addr = v
		case "EDGAR13F_OPENSEARCH_INDEX":
			prefix = v
		}
	}
	resp, err := http.Get(addr + "/" + prefix + "-*-data-*/_mapping")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]struct {
		Mappings struct {
			Properties map[string]map[string]any `json:"properties"`
		} `json:"mappings"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("mappings of %s-*-data-*: %s, %v", prefix, resp.Status, err)
	}
	if len(m) == 0 {
		t.Fatalf("no data index under %s", prefix)
	}
	for name, ix := range m {
		method, _ := ix.Mappings.Properties["vector"]["method"].(map[string]any)
		if method["engine"] != want {
			t.Errorf("%s: vector %v; want the engine %s", name, ix.Mappings.Properties["vector"], want)
		}
	}
}
