package main

import (
	"encoding/csv"
	"encoding/json"
	"hash/fnv"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/edgar13f/edgar13f/examples/internal/testkit"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
)

// The mirror's two 10-Ks: Apple's (filed 2024-11-01) and NVIDIA's (filed
// 2025-02-26).
const (
	appleAccession  = "0000320193-24-000123"
	nvidiaAccession = "0001045810-25-000023"
)

// decodeJSON decodes one JSON object.
func decodeJSON(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, s)
	}
	return m
}

// searchEnv is the environment of a test's commands sharing one cache
// directory, hence one search store.
func searchEnv(t *testing.T, extra ...string) []string {
	return append([]string{"EDGAR13F_FIXTURE_DIR=" + mirror, "EDGAR13F_CACHE_DIR=" + t.TempDir()}, extra...)
}

// TestSearchCommands indexes the mirror's 10-Ks and searches them in every
// format, point in time.
func TestSearchCommands(t *testing.T) { runSearchCommands(t) }

// TestSearchCommandsOpenSearch runs the same on the OpenSearch store.
func TestSearchCommandsOpenSearch(t *testing.T) { runSearchCommands(t, testkit.OpenSearchEnv(t)...) }

func runSearchCommands(t *testing.T, storeEnv ...string) {
	env := searchEnv(t, storeEnv...)
	stdout, stderr, code := exe(t, env, "index", "AAPL", "1045810", "--as-of", "2025-03-01", "--form", "10-K", "--format", "json")
	if code != 0 || stderr != "" {
		t.Fatalf("index: exit %d, stderr %q (no progress off a terminal)", code, stderr)
	}
	idx := decodeJSON(t, stdout)
	if idx["disclaimer"] != wire.SearchDisclaimer || idx["embedder"] != nil || len(idx["indexed"].([]any)) != 2 {
		t.Fatalf("index answered %v", idx)
	}

	// Again, with --progress: every filing reused, counts on stderr.
	stdout, stderr, code = exe(t, env, "index", "aapl", "NVDA", "--as-of", "2025-03-01", "--form", "10-K", "--progress", "--format", "csv")
	rows, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if code != 0 || err != nil || len(rows) != 3 {
		t.Fatalf("index again: exit %d, %v\n%s", code, err, stdout)
	}
	for _, r := range rows[1:] {
		if r[8] != "true" || r[9] != "" {
			t.Errorf("row %v: want reused, not skipped", r)
		}
	}
	if !strings.Contains(stderr, "2 of 2 filings indexed") || !strings.Contains(stderr, "NVDA: listing filings") {
		t.Errorf("progress %q lacks the counts", stderr)
	}
	if strings.ContainsAny(stderr, "\r\033") || !strings.HasSuffix(stderr, "\n") {
		t.Errorf("progress off a terminal is not plain lines: %q", stderr)
	}

	// Read again (--reindex): the progress gives the rate and the time left.
	_, stderr, code = exe(t, env, "index", "AAPL", "--as-of", "2025-03-01", "--form", "10-K", "--reindex", "--progress")
	if code != 0 || !strings.Contains(stderr, "1 of 1 filings indexed") || !strings.Contains(stderr, " chunks/s, about ") || !strings.Contains(stderr, " left") {
		t.Errorf("reindex: exit %d, progress %q lacks chunks/s and the time left", code, stderr)
	}

	// On NVIDIA's filing date its 10-K comes first; the day before, only
	// Apple's filing is searched.
	q := []string{"search", "export", "controls", "on", "shipments", "to", "China", "--k", "5"}
	stdout, _, code = exe(t, env, append(q, "--as-of", "2025-02-26", "--format", "json")...)
	res := decodeJSON(t, stdout)
	hits := res["hits"].([]any)
	if code != 0 || len(hits) != 5 || hits[0].(map[string]any)["accession_number"] != nvidiaAccession || res["query"] != "export controls on shipments to China" {
		t.Fatalf("search on 2025-02-26: exit %d, %v", code, res)
	}
	id := hits[0].(map[string]any)["chunk_id"].(string)
	stdout, _, code = exe(t, env, append(q, "--as-of", "2025-02-25", "--format", "csv")...)
	rows, err = csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if code != 0 || err != nil || len(rows) != 6 || rows[0][0] != "rank" {
		t.Fatalf("search csv: exit %d, %v\n%s", code, err, stdout)
	}
	for _, r := range rows[1:] {
		if r[7] != appleAccession {
			t.Errorf("hit of %s on 2025-02-25", r[7])
		}
	}
	stdout, _, code = exe(t, env, append(q, "--as-of", "2025-02-25", "--format", "table", "--ticker", "aapl", "--item", "1A")...)
	if code != 0 || !strings.Contains(stdout, "mode bm25: 5 hits") || !strings.Contains(stdout, "Searched 1 filings of 1 companies: AAPL 10-K 2024-11-01") ||
		strings.Contains(stdout, nvidiaAccession) || strings.Count(stdout, "Item 1A (Risk Factors)") != 5 {
		t.Errorf("search table: exit %d\n%s", code, stdout)
	}

	// The chunk with its neighbours, in every format; nothing of it before
	// its filing.
	stdout, _, code = exe(t, env, "chunk", id, "--as-of", "2025-03-01", "--span", "2", "--format", "json")
	c := decodeJSON(t, stdout)
	if code != 0 || c["chunk"].(map[string]any)["chunk_id"] != id || len(c["neighbors"].([]any)) == 0 {
		t.Fatalf("chunk: exit %d, %v", code, c)
	}
	stdout, _, code = exe(t, env, "chunk", id, "--as-of", "2025-03-01", "--format", "csv")
	rows, err = csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if code != 0 || err != nil || len(rows) < 3 || len(rows) > 4 {
		t.Fatalf("chunk csv (span 1): exit %d, %v\n%s", code, err, stdout)
	}
	targets := 0
	for _, r := range rows[1:] {
		if r[1] == "true" {
			targets++
			if r[0] != id {
				t.Errorf("row marked as the chunk is %s, want %s", r[0], id)
			}
		}
	}
	if targets != 1 {
		t.Errorf("%d rows marked as the chunk", targets)
	}
	stdout, _, code = exe(t, env, "chunk", id, "--as-of", "2025-03-01", "--format", "table")
	if code != 0 || !strings.Contains(stdout, "(this chunk)") || !strings.Contains(stdout, nvidiaAccession) {
		t.Errorf("chunk table: exit %d\n%s", code, stdout)
	}
	stdout, stderr, code = exe(t, env, "chunk", id, "--as-of", "2025-02-25", "--format", "json")
	d := decodeJSON(t, stdout)
	if code != 3 || d["reason"] != "not_yet_filed" || d["disclaimer"] != wire.SearchDisclaimer {
		t.Errorf("chunk before its filing: exit %d, %v", code, d)
	}
	for _, leak := range []string{nvidiaAccession, "2025-02-26", "NVIDIA", "NVDA", "10-K"} {
		if strings.Contains(d["message"].(string), leak) || strings.Contains(stderr, leak) {
			t.Errorf("the decline tells %q of the filing: %s %s", leak, d["message"], stderr)
		}
	}

	// A chunk no indexed filing has.
	stdout, stderr, code = exe(t, env, "chunk", "0123456789abcdef", "--format", "json")
	if code != 3 || stdout != `{"status":"declined","disclaimer":"`+wire.SearchDisclaimer+`","reason":"unknown_chunk","message":"no indexed filing has a chunk 0123456789abcdef"}`+"\n" ||
		stderr != "edgar13f: declined (unknown_chunk): no indexed filing has a chunk 0123456789abcdef\n" {
		t.Errorf("unknown chunk: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}

	// eval prints the Markdown table, the reference beside it, and says
	// which companies are not indexed.
	stdout, _, code = exe(t, env, "eval", "../../search/eval/testdata/reference-queries.json", "--as-of", "2025-03-01")
	for _, want := range []string{"| setting | mode | queries | hit@1 | hit@5 | MRR@10 | avg ms | reference hit@1 / hit@5 / MRR@10 |",
		"| unfiltered | bm25 | 19 | ", "| 0.571 / 0.857 / 0.686 |", "| ticker filtered | bm25 | 19 | ",
		"No filing of WMT, TSLA, JNJ is indexed as of 2025-03-01"} {
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("eval: exit %d, output lacks %q:\n%s", code, want, stdout)
		}
	}
	stdout, _, code = exe(t, env, "eval", "../../search/eval/testdata/reference-queries.json", "--as-of", "2025-03-01", "--format", "json")
	ev := decodeJSON(t, stdout)
	if rows := ev["rows"].([]any); code != 0 || len(rows) != 2 || rows[0].(map[string]any)["reference"].([]any)[0] != 0.571 {
		t.Errorf("eval json: exit %d, %v", code, ev)
	}
}

func TestSearchExits(t *testing.T) {
	env := searchEnv(t)
	tests := []struct {
		name       string
		env        []string
		args       []string
		wantCode   int
		wantStdout string // exact, or a prefix when it ends in "..."
		wantStderr string
	}{
		{"no store", nil, []string{"search", "anything", "--as-of", "2025-03-01", "--format", "csv"}, 1, "",
			"edgar13f: no filing search index for these settings (filings read from the mirror tree " + mirror + ", --fixture-dir (EDGAR13F_FIXTURE_DIR)): ..."},
		{"knn without embedder", nil, []string{"search", "x", "--mode", "knn"}, 2, "", "edgar13f search: mode knn needs an embedder, and none is configured: set EDGAR13F_EMBED_URL..."},
		{"k range", nil, []string{"search", "x", "--k", "51"}, 2, "", "edgar13f search: --k must be 1 to 50, not 51\n..."},
		{"bad item", nil, []string{"search", "x", "--item", "99"}, 2, "", "edgar13f search: item \"99\" is no Item..."},
		{"bad mode", nil, []string{"search", "x", "--mode", "semantic"}, 2, "", "edgar13f search: mode \"semantic\" is none of bm25, knn, hybrid\n..."},
		{"no query", nil, []string{"search"}, 2, "", "edgar13f search: search takes one or more arguments, QUERY...; got none\n..."},
		{"bad chunk id", nil, []string{"chunk", "xyz"}, 2, "", "edgar13f chunk: chunk id \"xyz\" must be 16 hexadecimal digits\n..."},
		{"span range", nil, []string{"chunk", "0123456789abcdef", "--span", "6"}, 2, "", "edgar13f chunk: --span must be 0 to 5, not 6\n..."},
		{"index nothing", nil, []string{"index"}, 2, "", "edgar13f index: index takes one or more arguments, TICKER|CIK...; got none\n..."},
		{"index unknown ticker", nil, []string{"index", "ZZZZQ", "--as-of", "2025-03-01"}, 2, "", "edgar13f index: \"ZZZZQ\" is none of EDGAR's current tickers..."},
		{"index unknown cik", nil, []string{"index", "1234567", "--as-of", "2025-03-01", "--format", "json"}, 1, "",
			"edgar13f: the mirror tree " + mirror + " lacks this company: it has no file data.sec.gov/submissions/CIK0001234567.json ..."},
		{"index filings range", nil, []string{"index", "AAPL", "--filings", "21"}, 2, "", "edgar13f index: --filings must be 1 to 20, not 21\n..."},
		{"index empty form", nil, []string{"index", "AAPL", "--form", ""}, 2, "",
			"edgar13f index: invalid value \"\" for flag -form: empty form: give one or more, separated by commas\n..."},
		{"index blank form in list", nil, []string{"index", "AAPL", "--form", "10-K, "}, 2, "", "edgar13f index: invalid value \"10-K, \" for flag -form: empty form: ..."},
		{"index bad form", nil, []string{"index", "AAPL", "--form", "10-K,8-K"}, 2, "", "edgar13f index: form \"8-K\" has no Items..."},
		{"index bad date", nil, []string{"index", "AAPL", "--as-of", "2025-02-30"}, 2, "", "edgar13f index: --as-of must be a date YYYY-MM-DD, not \"2025-02-30\"\n..."},
		{"eval no file", nil, []string{"eval", "no-such-file.json"}, 2, "", "edgar13f eval: open no-such-file.json: no such file or directory\n..."},
		{"eval bad modes", nil, []string{"eval", "../../search/eval/testdata/reference-queries.json", "--modes", "bm25,semantic"}, 2, "",
			"edgar13f eval: --modes: \"semantic\" is none of bm25, knn, hybrid\n..."},
		{"eval knn without embedder", nil, []string{"eval", "../../search/eval/testdata/reference-queries.json", "--modes", "knn"}, 2, "",
			"edgar13f eval: mode knn needs an embedder..."},
		{"embedder without model", []string{"EDGAR13F_EMBED_URL=http://127.0.0.1:1/v1"}, []string{"search", "x"}, 2, "",
			"edgar13f search: the filing search's embedder (EDGAR13F_EMBED_URL, EDGAR13F_EMBED_MODEL): ..."},
		{"index help", nil, []string{"index", "--help"}, 0, "Usage: edgar13f index TICKER|CIK... [flags]\n...", ""},
		{"search help", nil, []string{"search", "-h"}, 0, "Usage: edgar13f search QUERY... [flags]\n...", ""},
		{"chunk help", nil, []string{"chunk", "-h"}, 0, "Usage: edgar13f chunk CHUNK_ID [flags]\n...", ""},
		{"eval help", nil, []string{"eval", "-h"}, 0, "Usage: edgar13f eval QUERY_FILE [flags]\n...", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := exe(t, append(env[:len(env):len(env)], tt.env...), tt.args...)
			if code != tt.wantCode || !match(tt.wantStdout, stdout) || !match(tt.wantStderr, stderr) {
				t.Errorf("exit %d\nstdout %q\nstderr %q\nwant exit %d\nstdout %q\nstderr %q", code, stdout, stderr, tt.wantCode, tt.wantStdout, tt.wantStderr)
			}
			if strings.HasSuffix(tt.name, "help") && !strings.Contains(stdout, "Examples:") {
				t.Errorf("help has no examples:\n%s", stdout)
			}
		})
	}
}

// TestSearchOffline: search, chunk and eval read only the store, so they
// run with no User-Agent against live EDGAR settings, sending nothing;
// index needs one.
func TestSearchOffline(t *testing.T) {
	srv, requests := testkit.MirrorServer(t, nil)
	env := []string{"EDGAR13F_CACHE_DIR=" + t.TempDir(), "EDGAR13F_BASE_URL=" + srv.URL}
	_, stderr, code := exe(t, env, "index", "AAPL", "--as-of", "2025-03-01", "--form", "10-K")
	if code != 1 || !strings.Contains(stderr, "no User-Agent for EDGAR") {
		t.Errorf("index without User-Agent: exit %d, stderr %q", code, stderr)
	}
	_, stderr, code = exe(t, env, "index", "AAPL", "--as-of", "2025-03-01", "--form", "10-K", "--user-agent", "edgar13f tests test@example.com")
	if code != 0 {
		t.Fatalf("index: exit %d, stderr %q", code, stderr)
	}
	before := requests.Load()
	stdout, stderr, code := exe(t, env, "search", "export controls", "--as-of", "2025-03-01", "--format", "json")
	if r := decodeJSON(t, stdout); code != 0 || stderr != "" || len(r["hits"].([]any)) == 0 || requests.Load() != before {
		t.Errorf("search without User-Agent: exit %d, stderr %q, %d requests, %v", code, stderr, requests.Load()-before, r)
	}
}

// TestSearchNoIndex: search, chunk and eval with settings no index was
// built with (here without the --fixture-dir of the index) create
// nothing, and say that there is no index for their settings and which
// indexes exist, with the settings each was built with.
func TestSearchNoIndex(t *testing.T) {
	cache := t.TempDir()
	for _, args := range [][]string{
		{"search", "export", "controls"},
		{"chunk", "0123456789abcdef"},
		{"eval", "../../search/eval/testdata/reference-queries.json"},
	} {
		_, stderr, code := exe(t, []string{"EDGAR13F_CACHE_DIR=" + cache}, append(args, "--as-of", "2025-03-01", "--format", "json")...)
		if want := "edgar13f: no filing search index for these settings (filings read from EDGAR itself, neither --fixture-dir (EDGAR13F_FIXTURE_DIR) nor --base-url (EDGAR13F_BASE_URL) set): " +
			filepath.Join(cache, "search", "edgar") + " does not exist; build it with the index command and the same settings; no index exists under " +
			filepath.Join(cache, "search") + "\n"; code != 1 || stderr != want {
			t.Errorf("%s with no index: exit %d, stderr %q; want 1, %q", args[0], code, stderr, want)
		}
		if ents, _ := os.ReadDir(cache); len(ents) != 0 {
			t.Fatalf("%s created %s", args[0], ents[0].Name())
		}
	}
	if _, stderr, code := exe(t, []string{"EDGAR13F_CACHE_DIR=" + cache}, "index", "AAPL", "--as-of", "2025-03-01", "--form", "10-K", "--fixture-dir", mirror); code != 0 {
		t.Fatalf("index: exit %d, stderr %q", code, stderr)
	}
	before := testkit.ListTree(t, cache)
	for _, args := range [][]string{
		{"search", "export", "controls"},
		{"chunk", "0123456789abcdef"},
		{"eval", "../../search/eval/testdata/reference-queries.json"},
	} {
		_, stderr, code := exe(t, []string{"EDGAR13F_CACHE_DIR=" + cache}, append(args, "--as-of", "2025-03-01", "--format", "json")...)
		for _, want := range []string{"edgar13f: no filing search index for these settings", ", or search one that exists: " + filepath.Join(cache, "search", "mirror-"),
			"(filings read from the mirror tree " + mirror + ", --fixture-dir (EDGAR13F_FIXTURE_DIR))\n"} {
			if code != 1 || !strings.Contains(stderr, want) {
				t.Errorf("%s without --fixture-dir: exit %d, stderr %q; want 1, %q", args[0], code, stderr, want)
			}
		}
	}
	if changed := testkit.ChangesOutside(before, testkit.ListTree(t, cache), filepath.Join(cache, "http")); len(changed) != 0 {
		t.Errorf("search, chunk and eval changed %v", changed)
	}
}

// TestSearchWithEmbedder indexes through an OpenAI-compatible embeddings
// server (httptest): search defaults to bm25, and eval measures all
// three modes.
func TestSearchWithEmbedder(t *testing.T) {
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
		var data []item
		for i, in := range req.Input {
			v := make([]float32, 16)
			v[0] = 0.5
			for _, word := range strings.Fields(strings.ToLower(in)) {
				h := fnv.New32a()
				h.Write([]byte(word))
				v[h.Sum32()%16]++
			}
			data = append(data, item{i, v})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "model": req.Model, "data": data})
	}))
	defer srv.Close()
	env := searchEnv(t, "EDGAR13F_EMBED_URL="+srv.URL+"/v1", "EDGAR13F_EMBED_MODEL=test-embed")

	stdout, _, code := exe(t, env, "index", "AAPL", "NVDA", "--as-of", "2025-03-01", "--form", "10-K", "--format", "table")
	if code != 0 || !strings.Contains(stdout, "embedder test-embed (dim 16)") {
		t.Fatalf("index: exit %d\n%s", code, stdout)
	}
	stdout, _, code = exe(t, env, "search", "export controls", "--as-of", "2025-03-01", "--format", "json")
	if r := decodeJSON(t, stdout); code != 0 || r["mode"] != "bm25" || len(r["hits"].([]any)) != 10 {
		t.Errorf("search: exit %d, %v", code, r)
	}
	stdout, _, code = exe(t, env, "eval", "../../search/eval/testdata/reference-queries.json", "--as-of", "2025-03-01", "--format", "csv")
	rows, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if code != 0 || err != nil || len(rows) != 7 {
		t.Fatalf("eval: exit %d, %v\n%s", code, err, stdout)
	}
	for i, mode := range []string{"bm25", "knn", "hybrid", "bm25", "knn", "hybrid"} {
		if rows[i+1][1] != mode {
			t.Errorf("row %d is mode %s, want %s", i+1, rows[i+1][1], mode)
		}
	}
	if texts.Load() == 0 {
		t.Error("the embedder server embedded nothing")
	}
}

// TestIndexHelpOfflineExamples runs the offline examples of "index --help"
// as written (default forms): Apple's and NVIDIA's newest 10-K reports are
// indexed, not Apple's 10-K/A of 2010, which amends its report of 2009.
func TestIndexHelpOfflineExamples(t *testing.T) {
	help, _, code := exe(t, nil, "index", "--help")
	if code != 0 {
		t.Fatalf("index --help: exit %d", code)
	}
	ran := 0
	for _, line := range strings.Split(help, "\n") {
		cmd, ok := strings.CutSuffix(strings.TrimSpace(line), "# offline")
		if !ok {
			continue
		}
		args := strings.Fields(strings.TrimPrefix(strings.TrimSpace(cmd), "edgar13f "))
		for i, a := range args {
			if a == "testdata/mirror" {
				args[i] = mirror
			}
		}
		args = append(args, "--cache-dir", t.TempDir(), "--format", "json")
		stdout, stderr, code := exe(t, nil, args...)
		if code != 0 {
			t.Errorf("%s: exit %d: %s", cmd, code, stderr)
			continue
		}
		ran++
		var got []string
		for _, x := range decodeJSON(t, stdout)["indexed"].([]any) {
			got = append(got, x.(map[string]any)["accession_number"].(string))
		}
		if strings.Join(got, " ") != appleAccession+" "+nvidiaAccession {
			t.Errorf("%s indexed %v; want Apple's and NVIDIA's 10-K", cmd, got)
		}
	}
	if ran == 0 {
		t.Errorf("index --help shows no offline example:\n%s", help)
	}
}

// TestItemNamesSectionAndSearch: section and search read Item names alike.
// On Apple's 10-K, "II-7" is Item 7 and "I-2" Item 2 (Properties) in both;
// "II-1A" (a 10-Q's risk factors) is a usage error in both when asked of a
// 10-K.
func TestItemNamesSectionAndSearch(t *testing.T) {
	env := searchEnv(t)
	if _, stderr, code := exe(t, env, "index", "AAPL", "--as-of", "2025-03-01"); code != 0 {
		t.Fatalf("index: exit %d: %s", code, stderr)
	}
	for _, tc := range []struct{ name, want string }{{"II-7", "7"}, {"I-2", "2"}, {"item 1a", "1A"}, {"II-1A", ""}} {
		stdout, stderr, code := exe(t, env, "section", "320193", appleAccession, tc.name, "--as-of", "2025-03-01", "--format", "json")
		var sectionItem string
		if code == 0 {
			sectionItem = decodeJSON(t, stdout)["item"].(string)
		}
		if sectionItem != tc.want || tc.want == "" && code != 2 {
			t.Errorf("section %s: exit %d, item %q, %s; want item %q", tc.name, code, sectionItem, stderr, tc.want)
		}
		stdout, stderr, code = exe(t, env, "search", "the", "company", "--item", tc.name, "--form", "10-K", "--as-of", "2025-03-01", "--format", "json")
		if tc.want == "" {
			if code != 2 {
				t.Errorf("search --item %s: exit %d, %s; want a usage error", tc.name, code, stderr)
			}
			continue
		}
		hits, _ := decodeJSON(t, stdout)["hits"].([]any)
		if code != 0 || len(hits) == 0 {
			t.Errorf("search --item %s: exit %d, %d hits, %s", tc.name, code, len(hits), stderr)
		}
		for _, h := range hits {
			if it := h.(map[string]any)["item"]; it != tc.want {
				t.Errorf("search --item %s: a hit of Item %v; want %s", tc.name, it, tc.want)
			}
		}
	}
}
