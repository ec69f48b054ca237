package search

import (
	"context"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f/search/store/embedded"
)

// Apple's and NVIDIA's 10-Ks in the repository's mirror: real primary
// documents and filing lists.
const (
	appleDoc  = "https://www.sec.gov/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm"
	nvidiaDoc = "https://www.sec.gov/Archives/edgar/data/1045810/000104581025000023/nvda-20250126.htm"
)

// TestIndexMirror indexes real 10-Ks end to end through the Client (the
// mirror, the cache), then searches them: one request per document, none
// on a second Index, and every chunk of the right Items.
func TestIndexMirror(t *testing.T) {
	ctx := context.Background()
	c, fetch := mirrorClient(t)
	st, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	emb := HashEmbedder{Dim: 64}
	e, err := New(c, st, WithEmbedder(emb))
	if err != nil {
		t.Fatal(err)
	}
	asOf := day("2025-02-26")
	res, err := e.Index(ctx, []string{"AAPL", "NVDA"}, asOf, FormType("10-K"))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Indexed) != 2 || res.Indexed[0].Accession != "0000320193-24-000123" || res.Indexed[1].Accession != "0001045810-25-000023" {
		t.Fatalf("indexed %+v", res.Indexed)
	}
	docs := map[string]int{}
	for _, u := range fetch.Take() {
		if strings.HasSuffix(u, ".htm") {
			docs[u]++
		}
	}
	if len(docs) != 2 || docs[appleDoc] != 1 || docs[nvidiaDoc] != 1 {
		t.Errorf("document requests %v; want one for each 10-K", docs)
	}
	for _, x := range res.Indexed {
		if x.Chunks < 23 || x.Skipped != "" {
			t.Errorf("%s: %d chunks, skipped %q", x.Accession, x.Chunks, x.Skipped)
		}
	}

	// Every Item of a 10-K is there, and no chunk is over the limit.
	fs, _ := st.Filings(ctx, asOf)
	for _, f := range fs {
		items := map[string]bool{}
		for _, it := range []string{"1", "1A", "1B", "1C", "2", "3", "4", "5", "6", "7", "7A", "8", "9", "9A", "9B", "9C", "10", "11", "12", "13", "14", "15", "16"} {
			cs, _ := st.ItemChunks(ctx, f.Accession, it)
			if len(cs) > 0 {
				items[it] = true
			}
			for i, c := range cs {
				if c.Index != i || c.Tokens > 450 || c.Tokens == 0 || c.Text == "" {
					t.Errorf("%s Item %s chunk %d: index %d, %d tokens", f.Accession, it, i, c.Index, c.Tokens)
				}
			}
		}
		if len(items) < 20 {
			t.Errorf("%s: chunks of %d Items; want all", f.Accession, len(items))
		}
	}

	// The same filings again: reused, no request at all.
	res2, err := e.Index(ctx, []string{"AAPL", "NVDA"}, asOf, FormType("10-K"))
	if err != nil || !res2.Indexed[0].Reused || !res2.Indexed[1].Reused {
		t.Fatalf("second Index: %+v, %v", res2, err)
	}
	if u := fetch.Take(); len(u) != 0 {
		t.Errorf("second Index sent %v", u)
	}
	// Into a new store: read again, but the documents come from the cache.
	e2, _ := New(c, newMemStore(), WithEmbedder(emb))
	if _, err := e2.Index(ctx, []string{"AAPL", "NVDA"}, asOf, FormType("10-K")); err != nil {
		t.Fatal(err)
	}
	if u := fetch.Take(); len(u) != 0 {
		t.Errorf("Index into a new store sent %v; the documents are cached", u)
	}

	// Search: Apple's export-control risk, as of the day NVIDIA filed.
	r, err := e.Search(ctx, "export controls", asOf, Ticker("NVDA"), Item("1A"), BM25, Limit(3))
	if err != nil || len(r.Hits) != 3 {
		t.Fatalf("search: %+v, %v", r, err)
	}
	for _, h := range r.Hits {
		if h.Ticker != "NVDA" || h.Item != "1A" || h.ItemTitle != "Risk Factors" || h.FiscalYear != 2025 ||
			h.URL != nvidiaDoc || h.Company != "NVIDIA CORP" || !strings.Contains(strings.ToLower(h.Text), "export") {
			t.Errorf("hit %+v", h)
		}
	}
	if r.Coverage.Companies != 2 || len(r.Coverage.Filings) != 2 {
		t.Errorf("coverage %+v", r.Coverage)
	}
	// The day before NVIDIA filed, only Apple is there.
	r, err = e.Search(ctx, "export controls", asOf.AddDays(-1))
	if err != nil || r.Coverage.Companies != 1 || r.Coverage.Filings[0].Accession != "0000320193-24-000123" {
		t.Fatalf("search the day before: %+v, %v", r, err)
	}
	for _, h := range r.Hits {
		if h.Ticker != "AAPL" {
			t.Errorf("hit of %s the day before its filing", h.Ticker)
		}
	}
}
