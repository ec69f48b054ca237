package embedded_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search/store"
	"github.com/edgar13f/edgar13f/search/store/embedded"
)

// Open a store, put a filing's chunks, and search them as of two dates:
// before the filing was made, nothing of it is found.
func ExampleOpen() {
	dir, err := os.MkdirTemp("", "filing-search-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	s, err := embedded.Open(dir)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	ctx := context.Background()
	f := store.Filing{Accession: "0001318605-25-000014", CIK: "1318605", Ticker: "TSLA", Form: "10-K",
		FilingDate: edgar13f.MustParseDate("2025-01-30"), FiscalYear: 2024}
	chunks := []store.Chunk{
		{ID: "a1", Accession: f.Accession, Item: "7", Text: "We earned revenue from the sale of regulatory credits."},
		{ID: "a2", Accession: f.Accession, Item: "1A", Text: "Export controls could limit our supply chain."},
	}
	if err := s.Put(ctx, f, chunks, nil, store.Meta{}); err != nil {
		log.Fatal(err)
	}
	for _, asOf := range []string{"2025-01-29", "2025-01-30"} {
		ms, err := s.Lexical(ctx, "regulatory credit", store.Filter{AsOf: edgar13f.MustParseDate(asOf)}, 5)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %d matches\n", asOf, len(ms))
		for _, m := range ms {
			fmt.Printf("  %s Item %s of %s %s: %q\n", m.Chunk.ID, m.Chunk.Item, m.Filing.Ticker, m.Filing.Form, m.Chunk.Text)
		}
	}
	// Output:
	// 2025-01-29: 0 matches
	// 2025-01-30: 1 matches
	//   a1 Item 7 of TSLA 10-K: "We earned revenue from the sale of regulatory credits."
}
