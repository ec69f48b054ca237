package main

import (
	"encoding/json"
	"hash/fnv"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/examples/internal/testkit"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
)

// searchTools are the filing search tools; their answers and declines
// carry the search disclaimer.
var searchTools = map[string]bool{"index_filings": true, "search_filings": true, "get_chunk": true}

// The mirror's two 10-Ks: Apple's (filed 2024-11-01) and NVIDIA's (filed
// 2025-02-26).
const (
	appleAccession  = "0000320193-24-000123"
	nvidiaAccession = "0001045810-25-000023"
)

// callSearch calls a filing search tool.
func callSearch(t *testing.T, s *mcp.ClientSession, tool, args string) result {
	t.Helper()
	return callTool(t, s, tool, args, wire.SearchDisclaimer)
}

// hitKeys are the members of every hit (SPEC section 12); a chunk has the
// same without rank and score.
var hitKeys = []string{"accession_number", "chunk_id", "chunk_index", "cik", "company", "filing_date", "fiscal_year", "form", "item", "item_title",
	"n_tokens", "rank", "report_date", "score", "text", "ticker", "url"}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// hits returns the hits of a search_filings answer.
func hits(t *testing.T, r result) []map[string]any {
	t.Helper()
	if r.isError || r.obj["status"] != "ok" {
		t.Fatalf("search_filings answered %v", r.obj)
	}
	var out []map[string]any
	for _, h := range r.obj["hits"].([]any) {
		out = append(out, h.(map[string]any))
	}
	return out
}

// coverage returns the accessions of a search answer's coverage.
func coverage(r result) []string {
	var out []string
	c := r.obj["coverage"].(map[string]any)
	for _, f := range c["filings"].([]any) {
		out = append(out, f.(map[string]any)["accession_number"].(string))
	}
	return out
}

// indexed summarises an index_filings answer: accession -> reused.
func indexed(t *testing.T, r result) map[string]bool {
	t.Helper()
	if r.isError || r.obj["status"] != "ok" {
		t.Fatalf("index_filings answered %v", r.obj)
	}
	out := map[string]bool{}
	total := 0.0
	for _, x := range r.obj["indexed"].([]any) {
		f := x.(map[string]any)
		out[f["accession_number"].(string)] = f["reused"].(bool)
		if f["chunks"].(float64) < 23 || f["skipped"] != nil {
			t.Errorf("filing %v: a 10-K has at least one chunk per Item and is not skipped", f)
		}
		total += f["chunks"].(float64)
	}
	if r.obj["chunks_total"] != total {
		t.Errorf("chunks_total %v, want the sum %v", r.obj["chunks_total"], total)
	}
	return out
}

// TestSearchToolsBM25 indexes the mirror's 10-Ks through the server with no
// embedder configured, then searches and reads chunks point in time.
func TestSearchToolsBM25(t *testing.T) { searchToolsBM25(t) }

// TestSearchToolsBM25OpenSearch runs the same on the OpenSearch store.
func TestSearchToolsBM25OpenSearch(t *testing.T) { searchToolsBM25(t, testkit.OpenSearchEnv(t)...) }

func searchToolsBM25(t *testing.T, storeEnv ...string) {
	s := testkit.Connect(t, command(t, append([]string{"EDGAR13F_FIXTURE_DIR=" + mirror}, storeEnv...)...))

	// Before anything is indexed: an empty answer, not a failure.
	r := callSearch(t, s, "search_filings", `{"query":"export controls","as_of":"2025-03-01"}`)
	if h := hits(t, r); len(h) != 0 || len(coverage(r)) != 0 || r.obj["mode"] != "bm25" {
		t.Fatalf("empty store answered %v", r.obj)
	}

	r = callSearch(t, s, "index_filings", `{"tickers":["AAPL","1045810"],"as_of":"2025-03-01","forms":["10-K"]}`)
	if diff := cmp.Diff(map[string]bool{appleAccession: false, nvidiaAccession: false}, indexed(t, r)); diff != "" {
		t.Errorf("indexed (-want +got):\n%s", diff)
	}
	if r.obj["embedder"] != nil {
		t.Errorf("embedder %v, want null", r.obj["embedder"])
	}
	// The ticker of a company given by CIK is its current primary one.
	for _, x := range r.obj["indexed"].([]any) {
		f := x.(map[string]any)
		if want := map[string]string{appleAccession: "AAPL", nvidiaAccession: "NVDA"}[f["accession_number"].(string)]; f["ticker"] != want {
			t.Errorf("%v indexed under ticker %v, want %s", f["accession_number"], f["ticker"], want)
		}
	}
	// Again: nothing is read again.
	r = callSearch(t, s, "index_filings", `{"tickers":["aapl","NVDA"],"as_of":"2025-03-01","forms":["10-K"],"filings":1}`)
	if diff := cmp.Diff(map[string]bool{appleAccession: true, nvidiaAccession: true}, indexed(t, r)); diff != "" {
		t.Errorf("indexed again (-want +got):\n%s", diff)
	}

	// On NVIDIA's filing date its 10-K answers; the day before, the same
	// question sees Apple's alone, in the hits and in the coverage.
	const q = `"query":"export controls on shipments of data center products to China"`
	on := callSearch(t, s, "search_filings", `{`+q+`,"as_of":"2025-02-26","k":5}`)
	onHits := hits(t, on)
	if len(onHits) != 5 || onHits[0]["ticker"] != "NVDA" || onHits[0]["accession_number"] != nvidiaAccession {
		t.Fatalf("first hit on 2025-02-26: %v", onHits)
	}
	if diff := cmp.Diff(hitKeys, keys(onHits[0])); diff != "" {
		t.Errorf("hit members (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{appleAccession, nvidiaAccession}, coverage(on)); diff != "" {
		t.Errorf("coverage on 2025-02-26 (-want +got):\n%s", diff)
	}
	before := callSearch(t, s, "search_filings", `{`+q+`,"as_of":"2025-02-25","k":50}`)
	for _, h := range hits(t, before) {
		if h["accession_number"] != appleAccession || h["filing_date"].(string) > "2025-02-25" {
			t.Fatalf("hit of a filing made after as_of: %v", h)
		}
	}
	if diff := cmp.Diff([]string{appleAccession}, coverage(before)); diff != "" {
		t.Errorf("coverage on 2025-02-25 (-want +got):\n%s", diff)
	}
	for i, h := range onHits {
		if h["rank"] != float64(i+1) {
			t.Errorf("hit %d has rank %v", i, h["rank"])
		}
	}

	// Filters are exact.
	f := callSearch(t, s, "search_filings", `{"query":"risks","as_of":"2025-03-01","ticker":"aapl","item":"Item 1a","form":"10-K","fiscal_year":2024,"cik":"320193","mode":"bm25","k":3}`)
	for _, h := range hits(t, f) {
		if h["ticker"] != "AAPL" || h["item"] != "1A" || h["fiscal_year"] != 2024.0 {
			t.Errorf("filtered hit %v", h)
		}
	}
	if len(hits(t, f)) != 3 {
		t.Errorf("filtered search: %d hits, want 3", len(hits(t, f)))
	}

	// get_chunk: the hit with its neighbours; nothing of it before its filing.
	id := onHits[0]["chunk_id"].(string)
	c := callSearch(t, s, "get_chunk", `{"chunk_id":"`+id+`","as_of":"2025-02-26","span":2}`)
	if c.obj["status"] != "ok" || c.obj["chunk"].(map[string]any)["chunk_id"] != id {
		t.Fatalf("get_chunk answered %v", c.obj)
	}
	chunk := c.obj["chunk"].(map[string]any)
	wantChunkKeys := slices.DeleteFunc(slices.Clone(hitKeys), func(k string) bool { return k == "rank" || k == "score" })
	if diff := cmp.Diff(wantChunkKeys, keys(chunk)); diff != "" {
		t.Errorf("chunk members (-want +got):\n%s", diff)
	}
	idx := chunk["chunk_index"].(float64)
	ns := c.obj["neighbors"].([]any)
	if len(ns) == 0 || len(ns) > 4 {
		t.Errorf("%d neighbours with span 2", len(ns))
	}
	for _, n := range ns {
		n := n.(map[string]any)
		if n["item"] != chunk["item"] || n["accession_number"] != nvidiaAccession || math.Abs(n["chunk_index"].(float64)-idx) > 2 || n["chunk_index"] == idx {
			t.Errorf("neighbour %v of chunk %v", n["chunk_index"], idx)
		}
	}
	early := callSearch(t, s, "get_chunk", `{"chunk_id":"`+id+`","as_of":"2025-02-25"}`)
	checkResult(t, early, "", edgar13f.NotYetFiled, 4)
	for _, leak := range []string{nvidiaAccession, "2025-02-26", "NVIDIA", "10-K", "1045810"} {
		if strings.Contains(early.obj["message"].(string), leak) {
			t.Errorf("not_yet_filed message %q tells %q of the filing", early.obj["message"], leak)
		}
	}

	// No embedder: knn and hybrid decline, saying what to set.
	for _, mode := range []string{"knn", "hybrid"} {
		r := callSearch(t, s, "search_filings", `{"query":"export","as_of":"2025-03-01","mode":"`+mode+`"}`)
		checkResult(t, r, "", edgar13f.InvalidArgument, 4)
		if m := r.obj["message"].(string); !strings.Contains(m, "EDGAR13F_EMBED_URL") {
			t.Errorf("%s decline %q does not say to set EDGAR13F_EMBED_URL", mode, m)
		}
	}
}

// TestSearchToolDeclines checks that every bad argument of the search
// tools is an invalid_argument decline naming it, never a protocol error,
// and the other declines.
func TestSearchToolDeclines(t *testing.T) {
	s := testkit.Connect(t, command(t, "EDGAR13F_FIXTURE_DIR="+mirror))
	const asOf = `"as_of":"2025-03-01"`
	ia := edgar13f.InvalidArgument
	tests := []struct {
		name, tool, args string
		decline          edgar13f.Reason
		names            string // the message names this
	}{
		{"index_no_tickers", "index_filings", `{` + asOf + `}`, ia, "tickers"},
		{"index_tickers_string", "index_filings", `{"tickers":"AAPL",` + asOf + `}`, ia, "tickers"},
		{"index_tickers_empty", "index_filings", `{"tickers":[],` + asOf + `}`, ia, "tickers"},
		{"index_tickers_number", "index_filings", `{"tickers":[320193],` + asOf + `}`, ia, "tickers"},
		{"index_ticker_unknown", "index_filings", `{"tickers":["AAPL","ZZZZQ"],` + asOf + `}`, ia, "ZZZZQ"},
		{"index_ticker_malformed", "index_filings", `{"tickers":["$$"],` + asOf + `}`, ia, "$$"},
		{"index_unknown_cik", "index_filings", `{"tickers":["1234567"],` + asOf + `}`, edgar13f.UnknownCIK, "1234567"},
		{"index_no_as_of", "index_filings", `{"tickers":["AAPL"]}`, ia, "as_of"},
		{"index_bad_as_of", "index_filings", `{"tickers":["AAPL"],"as_of":"2025-02-30"}`, ia, "as_of"},
		{"index_forms_string", "index_filings", `{"tickers":["AAPL"],` + asOf + `,"forms":"10-K"}`, ia, "forms"},
		{"index_forms_empty", "index_filings", `{"tickers":["AAPL"],` + asOf + `,"forms":[]}`, ia, "forms"},
		{"index_form_8k", "index_filings", `{"tickers":["AAPL"],` + asOf + `,"forms":["8-K"]}`, ia, "8-K"},
		{"index_filings_zero", "index_filings", `{"tickers":["AAPL"],` + asOf + `,"filings":0}`, ia, "filings"},
		{"index_filings_range", "index_filings", `{"tickers":["AAPL"],` + asOf + `,"filings":21}`, ia, "filings"},
		{"index_filings_float", "index_filings", `{"tickers":["AAPL"],` + asOf + `,"filings":1.0}`, ia, "filings"},
		{"index_filings_string", "index_filings", `{"tickers":["AAPL"],` + asOf + `,"filings":"1"}`, ia, "filings"},
		{"index_unknown_argument", "index_filings", `{"tickers":["AAPL"],` + asOf + `,"ticker":"AAPL"}`, ia, "ticker"},
		{"search_no_query", "search_filings", `{` + asOf + `}`, ia, "query"},
		{"search_query_number", "search_filings", `{"query":7,` + asOf + `}`, ia, "query"},
		{"search_query_blank", "search_filings", `{"query":"   ",` + asOf + `}`, ia, "query"},
		{"search_no_as_of", "search_filings", `{"query":"x"}`, ia, "as_of"},
		{"search_k_zero", "search_filings", `{"query":"x",` + asOf + `,"k":0}`, ia, "k"},
		{"search_k_range", "search_filings", `{"query":"x",` + asOf + `,"k":51}`, ia, "k"},
		{"search_k_string", "search_filings", `{"query":"x",` + asOf + `,"k":"5"}`, ia, "k"},
		{"search_k_true", "search_filings", `{"query":"x",` + asOf + `,"k":true}`, ia, "k"},
		{"search_fiscal_year_string", "search_filings", `{"query":"x",` + asOf + `,"fiscal_year":"2024"}`, ia, "fiscal_year"},
		{"search_fiscal_year_range", "search_filings", `{"query":"x",` + asOf + `,"fiscal_year":24}`, ia, "fiscal year"},
		{"search_mode_unknown", "search_filings", `{"query":"x",` + asOf + `,"mode":"semantic"}`, ia, "mode"},
		{"search_mode_number", "search_filings", `{"query":"x",` + asOf + `,"mode":1}`, ia, "mode"},
		{"search_item_bad", "search_filings", `{"query":"x",` + asOf + `,"item":"99"}`, ia, "item"},
		{"search_cik_bad", "search_filings", `{"query":"x",` + asOf + `,"cik":"12a"}`, ia, "CIK"},
		{"search_ticker_array", "search_filings", `{"query":"x",` + asOf + `,"ticker":["AAPL"]}`, ia, "ticker"},
		{"search_form_bad", "search_filings", `{"query":"x",` + asOf + `,"form":"13F-HR"}`, ia, "form"},
		{"search_unknown_argument", "search_filings", `{"query":"x",` + asOf + `,"limit":5}`, ia, "limit"},
		{"chunk_no_id", "get_chunk", `{` + asOf + `}`, ia, "chunk_id"},
		{"chunk_bad_id", "get_chunk", `{"chunk_id":"xyz",` + asOf + `}`, ia, "xyz"},
		{"chunk_id_number", "get_chunk", `{"chunk_id":1234567890123456,` + asOf + `}`, ia, "chunk_id"},
		{"chunk_span_range", "get_chunk", `{"chunk_id":"0123456789abcdef",` + asOf + `,"span":6}`, ia, "span"},
		{"chunk_span_negative", "get_chunk", `{"chunk_id":"0123456789abcdef",` + asOf + `,"span":-1}`, ia, "span"},
		{"chunk_unknown", "get_chunk", `{"chunk_id":"0123456789abcdef",` + asOf + `}`, edgar13f.UnknownChunk, "0123456789abcdef"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := callSearch(t, s, tt.tool, tt.args)
			checkResult(t, r, tt.name, tt.decline, 4)
			if m, _ := r.obj["message"].(string); !strings.Contains(m, tt.names) {
				t.Errorf("message %q does not name %q", m, tt.names)
			}
		})
	}
}

// embedServer is an OpenAI-compatible /v1/embeddings server whose vectors
// hash words into dim components, deterministic and not semantic; it
// counts the texts it embedded.
func embedServer(t *testing.T, dim int) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var texts atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if r.URL.Path != "/v1/embeddings" || json.NewDecoder(r.Body).Decode(&req) != nil || req.Model != "test-embed" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		texts.Add(int64(len(req.Input)))
		type item struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		out := struct {
			Object string `json:"object"`
			Model  string `json:"model"`
			Data   []item `json:"data"`
		}{Object: "list", Model: req.Model}
		for i, in := range req.Input {
			v := make([]float32, dim)
			for _, word := range strings.Fields(strings.ToLower(in)) {
				h := fnv.New32a()
				h.Write([]byte(strings.Trim(word, ".,;:()\"'")))
				v[h.Sum32()%uint32(dim)]++
			}
			v[0] += 0.5 // never the zero vector
			out.Data = append(out.Data, item{Index: i, Embedding: v})
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(out)
	}))
	t.Cleanup(srv.Close)
	return srv, &texts
}

// TestSearchToolsWithEmbedder configures an OpenAI-compatible embedder
// (an httptest server): chunks are embedded while indexing, the answer
// names the model and dimension, and knn, hybrid and bm25 (the default) answer.
func TestSearchToolsWithEmbedder(t *testing.T) { searchToolsWithEmbedder(t) }

// TestSearchToolsWithEmbedderOpenSearch runs the same on the OpenSearch
// store.
func TestSearchToolsWithEmbedderOpenSearch(t *testing.T) {
	searchToolsWithEmbedder(t, testkit.OpenSearchEnv(t)...)
}

func searchToolsWithEmbedder(t *testing.T, storeEnv ...string) {
	srv, texts := embedServer(t, 32)
	s := testkit.Connect(t, command(t, append([]string{"EDGAR13F_FIXTURE_DIR=" + mirror, "EDGAR13F_EMBED_URL=" + srv.URL + "/v1", "EDGAR13F_EMBED_MODEL=test-embed"}, storeEnv...)...))

	r := callSearch(t, s, "index_filings", `{"tickers":["AAPL","NVDA"],"as_of":"2025-03-01","forms":["10-K"]}`)
	indexed(t, r)
	if diff := cmp.Diff(map[string]any{"model": "test-embed", "dim": 32.0}, r.obj["embedder"]); diff != "" {
		t.Errorf("embedder (-want +got):\n%s", diff)
	}
	if n := texts.Load(); float64(n) < r.obj["chunks_total"].(float64) {
		t.Errorf("the embedder saw %d texts for %v chunks", n, r.obj["chunks_total"])
	}

	const q = `"query":"export controls China","as_of":"2025-02-25"`
	for _, mode := range []string{"", "knn", "hybrid", "bm25"} {
		args := `{` + q + `}`
		want := "bm25"
		if mode != "" {
			args, want = `{`+q+`,"mode":"`+mode+`"}`, mode
		}
		before := texts.Load()
		r := callSearch(t, s, "search_filings", args)
		h := hits(t, r)
		if r.obj["mode"] != want || len(h) != 10 {
			t.Fatalf("mode %q: answered mode %v with %d hits", mode, r.obj["mode"], len(h))
		}
		// Point in time in every mode: NVIDIA's 10-K was filed 2025-02-26.
		for _, x := range h {
			if x["accession_number"] != appleAccession {
				t.Errorf("mode %s: hit of %v on 2025-02-25", want, x["accession_number"])
			}
		}
		if embedded := texts.Load() - before; (want == "bm25") != (embedded == 0) {
			t.Errorf("mode %s embedded %d texts", want, embedded)
		}
	}
}

// TestSearchEmbedderSettings: a wrong embedder setting stops the server at
// start, saying what to set.
func TestSearchEmbedderSettings(t *testing.T) {
	tests := []struct {
		name, want string
		env        []string
	}{
		{"url without model", "given without a model: set EDGAR13F_EMBED_MODEL", []string{"EDGAR13F_EMBED_URL=http://127.0.0.1:1/v1"}},
		{"unknown url form", "want an OpenAI-compatible base URL", []string{"EDGAR13F_EMBED_URL=ftp://example.com", "EDGAR13F_EMBED_MODEL=m"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := testkit.Run(t, command(t, append(tt.env, "EDGAR13F_FIXTURE_DIR="+mirror)...))
			if code != 2 || stdout != "" || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 naming %s", code, stdout, stderr, tt.want)
			}
		})
	}
}
