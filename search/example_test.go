package search_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/mirror"
	"github.com/edgar13f/edgar13f/search"
	"github.com/edgar13f/edgar13f/search/store/embedded"
)

// This example indexes the 10-Ks of Apple and NVIDIA from the repository's
// EDGAR mirror into the embedded store, then asks the same question on two
// dates: the day before NVIDIA filed its 10-K for fiscal 2025, the filing
// is not there; on its filing date, it is. Reading EDGAR itself instead of
// the mirror only takes another Client (edgar13f.WithUserAgent).
func Example() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "edgar13f-search-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	tree, err := mirror.Dir("../testdata/mirror")
	if err != nil {
		log.Fatal(err)
	}
	client, err := edgar13f.NewClient(edgar13f.WithFetcher(mirror.NewFetcher(tree)), edgar13f.WithCacheDir(filepath.Join(dir, "cache")))
	if err != nil {
		log.Fatal(err)
	}
	st, err := embedded.Open(filepath.Join(dir, "search"))
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	engine, err := search.New(client, st) // no embedder: BM25 only
	if err != nil {
		log.Fatal(err)
	}

	asOf := edgar13f.MustParseDate("2025-02-26")
	res, err := engine.Index(ctx, []string{"AAPL", "NVDA"}, asOf, search.FormType("10-K"))
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range res.Indexed {
		fmt.Printf("indexed %s %s %s filed %s, fiscal %d, %d chunks\n", f.Ticker, f.Form, f.Accession, f.FilingDate, f.FiscalYear, f.Chunks)
	}

	for _, day := range []edgar13f.Date{asOf.AddDays(-1), asOf} {
		r, err := engine.Search(ctx, "export controls China", day, search.Item("1A"), search.Limit(2))
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("as of %s (%s): %d companies, %d filings\n", day, r.Mode, r.Coverage.Companies, len(r.Coverage.Filings))
		for _, h := range r.Hits {
			fmt.Printf("  %d. %s %s Item %s (%s) chunk %d\n", h.Rank, h.Ticker, h.Accession, h.Item, h.ItemTitle, h.ChunkIndex)
		}
	}

	// A hit read in context, and the same chunk asked for too early.
	r, err := engine.Search(ctx, "export controls China", asOf, search.Ticker("NVDA"), search.Limit(1))
	if err != nil {
		log.Fatal(err)
	}
	id := r.Hits[0].ChunkID
	c, err := engine.Chunk(ctx, id, asOf, search.Span(1))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("chunk %d of Item %s with %d neighbours\n", c.Chunk.ChunkIndex, c.Chunk.Item, len(c.Neighbors))
	_, err = engine.Chunk(ctx, id, asOf.AddDays(-1), search.Span(1))
	fmt.Println("the day before:", errors.Is(err, edgar13f.NotYetFiled))

	// Output:
	// indexed AAPL 10-K 0000320193-24-000123 filed 2024-11-01, fiscal 2024, 128 chunks
	// indexed NVDA 10-K 0001045810-25-000023 filed 2025-02-26, fiscal 2025, 205 chunks
	// as of 2025-02-25 (bm25): 1 companies, 1 filings
	//   1. AAPL 0000320193-24-000123 Item 1A (Risk Factors) chunk 2
	//   2. AAPL 0000320193-24-000123 Item 1A (Risk Factors) chunk 23
	// as of 2025-02-26 (bm25): 2 companies, 2 filings
	//   1. NVDA 0001045810-25-000023 Item 1A (Risk Factors) chunk 39
	//   2. NVDA 0001045810-25-000023 Item 1A (Risk Factors) chunk 46
	// chunk 39 of Item 1A with 2 neighbours
	// the day before: true
}
