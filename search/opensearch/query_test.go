package opensearch

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search/store"
)

const lexicalQuery = "export controls and the Company's exports zebra"

var lexicalFilter = store.Filter{AsOf: edgar13f.MustParseDate("2024-12-31"), Ticker: "AAPL"}

// path returns the value at a path of nested JSON objects.
func path(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// TestLexical: the query is analysed in Go (bleve's en analyzer, the
// embedded store's), each distinct term once, in sorted order; the
// statistics are counted over the chunks visible on asOf (committed, filed
// by asOf, the other filters not applied); the script ranks by BM25 from
// them, with a term missing from the visible chunks left out; the scores
// are BM25 computed in Go from the same statistics and the chunks' terms
// (not the cluster's float); the matches come with their filings.
func TestLexical(t *testing.T) {
	s, r := newReplay(t, "lexical")
	ms, err := s.Lexical(ctx, lexicalQuery, lexicalFilter, 2)
	if err != nil {
		t.Fatal(err)
	}
	chunks := appleChunks()
	f := apple()
	f.Chunks = 3
	idf := func(df float64) float64 { return math.Log(1 + (1200-df+0.5)/(df+0.5)) }
	// N 1200 chunks of 180 terms on average; compani in 900, control in
	// 30, export in 12. Chunk 1 ("appl inc risk factor compani subject
	// export control trade restrict") holds each once among 10 terms,
	// chunk 0 compani alone among 13.
	part := func(df, dl float64) float64 { return idf(df) / (1 + 1.2*(0.25+0.75*dl/180)) }
	want := []store.Match{
		{Chunk: chunks[1], Filing: f, Score: part(900, 10) + part(30, 10) + part(12, 10)},
		{Chunk: chunks[0], Filing: f, Score: part(900, 13)},
	}
	if diff := cmp.Diff(want, ms, cmpopts.EquateApprox(1e-12, 0)); diff != "" {
		t.Errorf("Lexical mismatch (-want +got):\n%s", diff)
	}

	hidden := []any{map[string]any{"terms": map[string]any{"gen": []any{"0000789019-24-000099.x9"}}}}
	visible := []any{
		map[string]any{"term": map[string]any{"kind": "chunk"}},
		map[string]any{"range": map[string]any{"filing_date": map[string]any{"lte": "2024-12-31"}}},
	}
	stats := r.sent(2)
	if diff := cmp.Diff(visible, path(stats, "query", "bool", "filter")); diff != "" {
		t.Errorf("statistics filter mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(hidden, path(stats, "query", "bool", "must_not")); diff != "" {
		t.Errorf("statistics must_not mismatch (-want +got):\n%s", diff)
	}
	if stats["track_total_hits"] != true || stats["size"] != 0.0 {
		t.Errorf("statistics search = %v; want an exact count and no hits", stats)
	}
	if got := path(stats, "aggs", "df", "filters", "filters", "t3"); !cmp.Equal(got, map[string]any{"term": map[string]any{"lexical": "zebra"}}) {
		t.Errorf("df of the fourth term = %v", got)
	}

	score := r.sent(3)
	bq := path(score, "query", "bool")
	if diff := cmp.Diff(append(visible, map[string]any{"term": map[string]any{"ticker": "AAPL"}}), path(bq, "filter")); diff != "" {
		t.Errorf("scoring filter mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(hidden, path(bq, "must_not")); diff != "" {
		t.Errorf("scoring must_not mismatch (-want +got):\n%s", diff)
	}
	// One clause a term that a visible chunk holds, in sorted order: a
	// term query (scored by the term's frequency) and BM25's part of it.
	var clauses []any
	for _, tc := range []struct {
		term string
		df   float64
	}{{"compani", 900}, {"control", 30}, {"export", 12}} {
		clauses = append(clauses, map[string]any{"script_score": map[string]any{
			"query": map[string]any{"term": map[string]any{"lexical": tc.term}},
			"script": map[string]any{
				"source": termScript,
				"params": map[string]any{"w": idf(tc.df), "k1": 1.2, "b": 0.75, "avgdl": 180.0},
			},
		}})
	}
	if diff := cmp.Diff(clauses, path(bq, "should")); diff != "" {
		t.Errorf("scoring clauses mismatch (-want +got):\n%s", diff)
	}
	if w := idf(12); math.Abs(w-4.5652) > 1e-4 {
		t.Errorf("weight of export = %g; want ln(96.08) = 4.5652", w)
	}
	if !strings.Contains(termScript, "_score") || !strings.Contains(termScript, "doc['lexical.length']") {
		t.Errorf("script = %q; want _score (the term's frequency) and lexical.length", termScript)
	}
	if score["sort"] != nil {
		t.Errorf("sort = %v; want none (by score)", score["sort"])
	}
	if score["size"] != 2.0+firstWindow {
		t.Errorf("size = %v; want k + %d", score["size"], firstWindow)
	}
}

// TestLexicalRetry: a query during which a generation was hidden (a Put
// began) runs again with the new hidden list, and answers from that run.
func TestLexicalRetry(t *testing.T) {
	s, r := newReplay(t, "lexical_retry")
	ms, err := s.Lexical(ctx, lexicalQuery, lexicalFilter, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 {
		t.Fatalf("Lexical = %d matches; want 2", len(ms))
	}
	want := []any{map[string]any{"terms": map[string]any{"gen": []any{"0000789019-24-000099.x9", "0001318605-25-000007.n4"}}}}
	for _, i := range []int{6, 7} {
		b := r.sent(i)
		got := path(b, "query", "bool", "must_not")
		if got == nil {
			got = path(b, "query", "script_score", "query", "bool", "must_not")
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("exchange %d: must_not of the second run mismatch (-want +got):\n%s", i, diff)
		}
	}
}

// TestLexicalNothing: a query of stop words only (without a request: the
// query is analysed in Go), an empty query and an empty store match
// nothing; an asOf or k out of range is an error.
func TestLexicalNothing(t *testing.T) {
	s, _ := newReplay(t, "lexical_stopwords")
	if ms, err := s.Lexical(ctx, "the of and", lexicalFilter, 5); err != nil || len(ms) != 0 {
		t.Errorf("Lexical(stop words) = %v, %v; want nothing", ms, err)
	}
	s, _ = newReplay(t, "lexical_empty")
	if ms, err := s.Lexical(ctx, "export", lexicalFilter, 5); err != nil || len(ms) != 0 {
		t.Errorf("Lexical on an empty store = %v, %v; want nothing", ms, err)
	}
	s, _ = newReplay(t, "empty")
	for _, tc := range []struct {
		f store.Filter
		k int
	}{{store.Filter{}, 5}, {lexicalFilter, 0}, {lexicalFilter, 10001}} {
		if _, err := s.Lexical(ctx, "export", tc.f, tc.k); err == nil {
			t.Errorf("Lexical(%+v, k=%d): no error", tc.f, tc.k)
		}
		if _, err := s.Nearest(ctx, []float32{1, 0, 0}, tc.f, tc.k); err == nil {
			t.Errorf("Nearest(%+v, k=%d): no error", tc.f, tc.k)
		}
	}
}

// TestNearest: the knn query carries the visibility filter and the
// query's filters inside it (efficient filtering), asks for at least
// NearestCandidates neighbours and k + firstWindow chunks with their
// vectors, and keeps the best k by the cosine computed in Go from them (the
// embedded store's), ties by chunk ID.
func TestNearest(t *testing.T) {
	s, r := newReplay(t, "nearest", NearestCandidates(50))
	f := store.Filter{AsOf: edgar13f.MustParseDate("2024-12-31"), CIK: "320193", Form: "10-K", Item: "1A", FiscalYear: 2024}
	ms, err := s.Nearest(ctx, []float32{0.5, -0.25, 1}, f, 3)
	if err != nil {
		t.Fatal(err)
	}
	checkNearest(t, ms)
	knn := path(r.sent(2), "query", "knn", "vector")
	if knn == nil {
		t.Fatalf("no knn query on the vector field: %v", r.sent(2))
	}
	if diff := cmp.Diff([]any{0.5, -0.25, 1.0}, path(knn, "vector")); diff != "" || path(knn, "k") != 50.0 {
		t.Errorf("knn = %v; want the vector and k = max(3, 50)", knn)
	}
	wantFilter := []any{
		map[string]any{"term": map[string]any{"kind": "chunk"}},
		map[string]any{"range": map[string]any{"filing_date": map[string]any{"lte": "2024-12-31"}}},
		map[string]any{"term": map[string]any{"cik": "320193"}},
		map[string]any{"term": map[string]any{"form": "10-K"}},
		map[string]any{"term": map[string]any{"item": "1A"}},
		map[string]any{"term": map[string]any{"fiscal_year": 2024.0}},
		map[string]any{"exists": map[string]any{"field": "vector"}},
	}
	if diff := cmp.Diff(wantFilter, path(knn, "filter", "bool", "filter")); diff != "" {
		t.Errorf("knn filter mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]any{map[string]any{"terms": map[string]any{"gen": []any{"0000789019-24-000099.x9"}}}}, path(knn, "filter", "bool", "must_not")); diff != "" {
		t.Errorf("knn must_not mismatch (-want +got):\n%s", diff)
	}
	if b := r.sent(2); b["size"] != 3.0+firstWindow || !cmp.Equal(b["sort"], []any{map[string]any{"_score": "desc"}, map[string]any{"chunk_id": "asc"}}) {
		t.Errorf("size %v, sort %v; want k + %d and score, then chunk id", b["size"], b["sort"], firstWindow)
	}
	// A hit sorted by _score carries its score; track_scores would make
	// the fetch phase run the graph search again.
	if v, ok := r.sent(2)["track_scores"]; ok {
		t.Errorf("track_scores = %v; want it left out", v)
	}
}

// checkNearest checks the matches of the nearest conversations.
func checkNearest(t *testing.T, ms []store.Match) {
	t.Helper()
	chunks := appleChunks()
	want := []struct {
		id    string
		score float64
	}{{chunks[0].ID, 1}, {chunks[2].ID, 1}, {chunks[1].ID, -1}}
	if len(ms) != len(want) {
		t.Fatalf("Nearest = %d matches; want %d", len(ms), len(want))
	}
	for i, w := range want {
		if ms[i].Chunk.ID != w.id || ms[i].Score != w.score {
			t.Errorf("match %d = %s %g; want %s %g", i, ms[i].Chunk.ID, ms[i].Score, w.id, w.score)
		}
	}
	if ms[0].Filing.Accession != apple().Accession || ms[0].Filing.Chunks != 3 {
		t.Errorf("filing of the first match = %+v", ms[0].Filing)
	}
}

// TestNearestExact: with ExactNearest the search is a script_score of
// 1 + cosineSimilarity over the filtered chunks, 1 taken off.
func TestNearestExact(t *testing.T) {
	s, r := newReplay(t, "nearest_exact", ExactNearest())
	ms, err := s.Nearest(ctx, []float32{0.5, -0.25, 1}, store.Filter{AsOf: edgar13f.MustParseDate("2024-12-31")}, 3)
	if err != nil {
		t.Fatal(err)
	}
	checkNearest(t, ms)
	ss := path(r.sent(2), "query", "script_score")
	if path(ss, "script", "source") != exactScript || !cmp.Equal(path(ss, "script", "params"), map[string]any{"field": "vector", "query_value": []any{0.5, -0.25, 1.0}}) {
		t.Errorf("script_score = %v", ss)
	}
	if f, _ := path(ss, "query", "bool", "filter").([]any); len(f) != 3 || !cmp.Equal(f[2], map[string]any{"exists": map[string]any{"field": "vector"}}) {
		t.Errorf("exact filter = %v; want visibility and chunks with a vector", f)
	}
}

// TestNearestNoVectors: a store without an embedder, and an empty store,
// answer ErrNoVectors; a vector of another dimension is an error; a zero
// vector matches nothing, without a search.
func TestNearestNoVectors(t *testing.T) {
	s, _ := newReplay(t, "nearest_novectors")
	all := store.Filter{AsOf: edgar13f.MustParseDate("2024-12-31")}
	if _, err := s.Nearest(ctx, []float32{1, 0, 0}, all, 5); !errors.Is(err, store.ErrNoVectors) {
		t.Errorf("Nearest on a store without vectors = %v; want ErrNoVectors", err)
	}
	s, _ = newReplay(t, "lexical_empty")
	if _, err := s.Nearest(ctx, []float32{1, 0, 0}, all, 5); !errors.Is(err, store.ErrNoVectors) {
		t.Errorf("Nearest on an empty store = %v; want ErrNoVectors", err)
	}
	s, _ = newReplay(t, "nearest_zero")
	if ms, err := s.Nearest(ctx, []float32{0, 0, 0}, all, 5); err != nil || len(ms) != 0 {
		t.Errorf("Nearest(zero vector) = %v, %v; want no match", ms, err)
	}
	s, _ = newReplay(t, "nearest_dim")
	if _, err := s.Nearest(ctx, []float32{1, 0}, all, 5); err == nil || !strings.Contains(err.Error(), "dimension 2") {
		t.Errorf("Nearest with a vector of dimension 2 = %v; want an error naming it", err)
	}
}

// TestChunk: a visible chunk comes with its filing, whatever its date; an
// id no visible chunk has is not found, without an error.
func TestChunk(t *testing.T) {
	s, r := newReplay(t, "chunk")
	c, f, ok, err := s.Chunk(ctx, "41f0aaa0f9ec2aa2")
	wantF := apple()
	wantF.Chunks = 3
	if err != nil || !ok || !cmp.Equal(c, appleChunks()[1]) || !cmp.Equal(f, wantF) {
		t.Errorf("Chunk = %+v, %+v, %v, %v", c, f, ok, err)
	}
	if _, _, ok, err := s.Chunk(ctx, "0123456789abcdef"); ok || err != nil {
		t.Errorf("Chunk(unknown) = %v, %v; want not found", ok, err)
	}
	q := path(r.sent(2), "query", "bool")
	if diff := cmp.Diff([]any{map[string]any{"term": map[string]any{"kind": "chunk"}}, map[string]any{"term": map[string]any{"chunk_id": "41f0aaa0f9ec2aa2"}}}, path(q, "filter")); diff != "" || path(q, "must_not") == nil {
		t.Errorf("Chunk query = %v; want the id, no date, hidden generations excluded", q)
	}
}

// TestItemChunks: the chunks of an Item come in chunk order, page after
// page (search_after).
func TestItemChunks(t *testing.T) {
	s, r := newReplay(t, "item_chunks", func(o *options) { o.pageSize = 2 })
	cs, err := s.ItemChunks(ctx, apple().Accession, "1A")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cs {
		got = append(got, c.Text)
	}
	if diff := cmp.Diff([]string{"first", "second", "third"}, got); diff != "" {
		t.Errorf("ItemChunks mismatch (-want +got):\n%s", diff)
	}
	if after := r.sent(3)["search_after"]; !cmp.Equal(after, []any{1.0}) {
		t.Errorf("search_after = %v; want [1]", after)
	}
}

// TestFilings: the filings visible on asOf, paged, sorted by CIK as a
// number (320193 before 1318605), filing date and accession.
func TestFilings(t *testing.T) {
	s, r := newReplay(t, "filings", func(o *options) { o.pageSize = 2 })
	fs, err := s.Filings(ctx, edgar13f.MustParseDate("2024-12-31"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range fs {
		got = append(got, f.CIK+" "+f.FilingDate.String()+" "+f.Accession)
	}
	want := []string{
		"320193 2023-11-03 0000320193-23-000106",
		"320193 2024-11-01 0000320193-24-000123",
		"1318605 2024-01-29 0001318605-24-000011",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Filings mismatch (-want +got):\n%s", diff)
	}
	if fs[0].Chunks != 4 || fs[0].Company != "Company 320193" || fs[0].Period.String() != "2023-01-01" {
		t.Errorf("first filing = %+v", fs[0])
	}
	if diff := cmp.Diff([]any{map[string]any{"term": map[string]any{"kind": "filing"}}, map[string]any{"range": map[string]any{"filing_date": map[string]any{"lte": "2024-12-31"}}}}, path(r.sent(2), "query", "bool", "filter")); diff != "" {
		t.Errorf("Filings filter mismatch (-want +got):\n%s", diff)
	}
	if _, err := s.Filings(ctx, edgar13f.Date{}); err == nil {
		t.Error("Filings without asOf: no error")
	}
}

// TestMeta: the embedder once sealed; the zero Meta before any commit and
// for a store never written.
func TestMeta(t *testing.T) {
	s, _ := newReplay(t, "meta")
	for i, want := range []store.Meta{meta3, {}, {}} {
		if m, err := s.Meta(ctx); err != nil || m != want {
			t.Errorf("Meta %d = %v, %v; want %v", i, m, err, want)
		}
	}
}

// TestDrop: Drop deletes the state index and the data index of every
// epoch.
func TestDrop(t *testing.T) {
	s, _ := newReplay(t, "drop")
	if err := s.Drop(ctx); err != nil {
		t.Fatal(err)
	}
}
