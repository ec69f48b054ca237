package opensearch

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"strconv"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search/store"
)

var ctx = context.Background()

// meta3 is the embedder of the recorded conversations.
var meta3 = store.Meta{Model: "test-embed", Dim: 3}

func chunkID(accession, item string, index int) string {
	sum := sha1.Sum([]byte(accession + "|" + item + "|" + strconv.Itoa(index)))
	return hex.EncodeToString(sum[:])[:16]
}

// apple is the filing of the recorded conversations.
func apple() store.Filing {
	return store.Filing{
		Accession:  "0000320193-24-000123",
		CIK:        "320193",
		Ticker:     "AAPL",
		Company:    "Apple Inc.",
		Form:       "10-K",
		FilingDate: edgar13f.MustParseDate("2024-11-01"),
		Period:     edgar13f.MustParseDate("2024-09-28"),
		FiscalYear: 2024,
		URL:        "https://www.sec.gov/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm",
	}
}

// appleChunks are three chunks of apple: two of Item 1A, one of Item 7.
func appleChunks() []store.Chunk {
	f := apple()
	mk := func(item, title string, i int, text string, tokens int) store.Chunk {
		return store.Chunk{ID: chunkID(f.Accession, item, i), Accession: f.Accession, Item: item, ItemTitle: title, Index: i, Tokens: tokens, Text: text}
	}
	return []store.Chunk{
		mk("1A", "Risk Factors", 0, "The Company's operations and performance depend significantly on global and regional economic conditions.", 17),
		mk("1A", "Risk Factors", 1, "The Company is subject to export controls and trade restrictions.", 12),
		mk("7", "Management's Discussion and Analysis of Financial Condition and Results of Operations", 0, "Total net sales increased 2% compared to 2023.", 11),
	}
}

// appleVectors are the chunks' vectors; the second is zero, so it is
// stored without one.
func appleVectors() [][]float32 {
	return [][]float32{{0.1, 0.2, 0.3}, {0, 0, 0}, {0.5, -0.25, 1}}
}
