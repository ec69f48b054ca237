package wire

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search"
	"github.com/edgar13f/edgar13f/search/store"
)

func TestWriteSearchShapes(t *testing.T) {
	fd := edgar13f.MustParseDate("2025-01-30")
	rd := edgar13f.MustParseDate("2024-12-31")
	hit := search.Hit{Rank: 1, ChunkID: "0123456789abcdef", Score: 0.5, Ticker: "TSLA", CIK: "1318605", Company: "Tesla, Inc.",
		Form: "10-K", Accession: "0001628280-25-003063", FilingDate: fd, Period: rd, FiscalYear: 2024, Item: "7",
		ItemTitle: "Management's Discussion", ChunkIndex: 3, Tokens: 412, Text: "regulatory \"credits\"\n| a | b |", URL: "https://www.sec.gov/x.htm"}
	f := store.Filing{Accession: hit.Accession, CIK: hit.CIK, Ticker: "TSLA", Company: hit.Company, Form: "10-K", FilingDate: fd, Period: rd, FiscalYear: 2024, Chunks: 9}
	hitJSON := map[string]any{"rank": 1.0, "chunk_id": "0123456789abcdef", "score": 0.5, "ticker": "TSLA", "cik": "1318605", "company": "Tesla, Inc.",
		"form": "10-K", "accession_number": "0001628280-25-003063", "filing_date": "2025-01-30", "report_date": "2024-12-31", "fiscal_year": 2024.0,
		"item": "7", "item_title": "Management's Discussion", "chunk_index": 3.0, "n_tokens": 412.0, "text": "regulatory \"credits\"\n| a | b |", "url": "https://www.sec.gov/x.htm"}
	filingJSON := map[string]any{"ticker": "TSLA", "cik": "1318605", "company": "Tesla, Inc.", "form": "10-K", "accession_number": "0001628280-25-003063",
		"filing_date": "2025-01-30", "report_date": "2024-12-31", "fiscal_year": 2024.0, "chunks": 9.0}

	var b bytes.Buffer
	if err := WriteSearch(&b, &search.Result{Query: "credits", AsOf: fd, Mode: search.BM25, Hits: []search.Hit{hit},
		Coverage: search.Coverage{Companies: 1, Filings: []store.Filing{f}}}); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"status": "ok", "disclaimer": SearchDisclaimer, "query": "credits", "as_of": "2025-01-30", "mode": "bm25",
		"coverage": map[string]any{"companies": 1.0, "filings_count": 1.0, "filings": []any{filingJSON}}, "hits": []any{hitJSON}}
	if diff := cmp.Diff(want, decode(t, b.Bytes())); diff != "" {
		t.Errorf("search answer (-want +got):\n%s", diff)
	}

	b.Reset()
	unranked := func() map[string]any {
		m := map[string]any{}
		for k, v := range hitJSON {
			if k != "rank" && k != "score" {
				m[k] = v
			}
		}
		return m
	}
	if err := WriteChunk(&b, &search.ChunkAnswer{Chunk: hit, Neighbors: []search.Hit{hit}}, "2025-02-01"); err != nil {
		t.Fatal(err)
	}
	want = map[string]any{"status": "ok", "disclaimer": SearchDisclaimer, "as_of": "2025-02-01", "chunk": unranked(), "neighbors": []any{unranked()}}
	if diff := cmp.Diff(want, decode(t, b.Bytes())); diff != "" {
		t.Errorf("chunk answer (-want +got):\n%s", diff)
	}

	for _, emb := range []*store.Meta{nil, {Model: "nomic-embed-text", Dim: 768}} {
		b.Reset()
		if err := WriteIndex(&b, &search.IndexResult{AsOf: fd, ChunksTotal: 9, Embedder: emb, Indexed: []search.IndexedFiling{
			{Ticker: "TSLA", CIK: "1318605", Accession: hit.Accession, Form: "10-K", FilingDate: fd, Chunks: 9}}}); err != nil {
			t.Fatal(err)
		}
		var wantEmb any
		if emb != nil {
			wantEmb = map[string]any{"model": "nomic-embed-text", "dim": 768.0}
		}
		want = map[string]any{"status": "ok", "disclaimer": SearchDisclaimer, "as_of": "2025-01-30", "chunks_total": 9.0, "embedder": wantEmb,
			"indexed": []any{map[string]any{"ticker": "TSLA", "cik": "1318605", "accession_number": hit.Accession, "form": "10-K", "filing_date": "2025-01-30", "chunks": 9.0, "reused": false, "skipped": nil}}}
		if diff := cmp.Diff(want, decode(t, b.Bytes())); diff != "" {
			t.Errorf("index answer (-want +got):\n%s", diff)
		}
	}

	// A filing indexed with no chunks says why.
	b.Reset()
	if err := WriteIndex(&b, &search.IndexResult{AsOf: fd, Indexed: []search.IndexedFiling{
		{Ticker: "", CIK: "1318605", Accession: hit.Accession, Form: "10-K", FilingDate: fd, Skipped: "no Item headings"}}}); err != nil {
		t.Fatal(err)
	}
	got := decode(t, b.Bytes())["indexed"].([]any)[0].(map[string]any)
	if got["skipped"] != "no Item headings" || got["chunks"] != 0.0 || got["ticker"] != nil {
		t.Errorf("skipped filing written as %v", got)
	}
}
