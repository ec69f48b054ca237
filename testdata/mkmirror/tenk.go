package main

// tenK copies the real 10-K primary documents of shared/edgar/tenk into
// the mirror, at the archive paths of their filings, for the section tests.
func (g *gen) tenK() error {
	docs := []struct{ src, dst, what string }{
		{"tenk/aapl-20240928.htm", "www.sec.gov/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm",
			"Apple Inc. 10-K 0000320193-24-000123 (filed 2024-11-01) primary document, inline XBRL"},
		{"tenk/nvda-20250126.htm", "www.sec.gov/Archives/edgar/data/1045810/000104581025000023/nvda-20250126.htm",
			"NVIDIA Corp 10-K (filed 2025-02-26) primary document, inline XBRL; accession 0001045810-25-000023 as reported by EDGAR (the submissions excerpt in shared/edgar/xbrl ends before this filing)"},
	}
	for _, d := range docs {
		if err := g.copyShared(d.src, d.dst, d.what); err != nil {
			return err
		}
	}
	return nil
}
