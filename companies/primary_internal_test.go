package companies

import (
	"slices"
	"testing"
)

// TestChoosePrimary: the primary document is chosen from a folder's file
// names only on evidence; otherwise none is, and the candidates are named.
func TestChoosePrimary(t *testing.T) {
	// The folder of a real 8-K (0001213900-24-004875, CIK 1648960; the
	// index.json under /work/shared/edgar/index): its primary document
	// holds the form in its name, its exhibits "ex".
	eightK := []string{"0001213900-24-004875-index-headers.html", "0001213900-24-004875-index.html", "0001213900-24-004875.txt",
		"0001213900-24-004875-xbrl.zip", "dats-20240116.xsd", "dats-20240116_def.xml", "dats-20240116_lab.xml", "dats-20240116_pre.xml",
		"ea191807-8k_datchat.htm", "ea191807-8k_datchat_htm.xml", "ea191807ex1-1_datchat.htm", "ea191807ex5-1_datchat.htm",
		"ea191807ex99-1_datchat.htm", "ea191807ex99-2_datchat.htm", "ea191807ex99-3_datchat.htm", "ex5-1_001.jpg", "ex99-1_001.jpg",
		"ex99-2_001.jpg", "ex99-3_001.jpg", "FilingSummary.xml", "Financial_Report.xlsx", "MetaLinks.json", "R1.htm", "report.css", "Show.js"}
	tests := []struct {
		name, accession, form string
		names                 []string
		want                  string
		candidates            []string
	}{
		{"8-K by its form", "0001213900-24-004875", "8-K", eightK, "ea191807-8k_datchat.htm", nil},
		{"named after the inline XBRL schema", "0000320193-24-000123", "10-K",
			[]string{"0000320193-24-000123.txt", "a10-kexhibit2119282024.htm", "aapl-20240928.htm", "aapl-20240928.xsd", "R2.htm"}, "aapl-20240928.htm", nil},
		{"schema first, then form", "0000000001-24-000001", "10-K",
			[]string{"form10-k.htm", "abc-20241231.htm", "abc-20241231.xsd"}, "abc-20241231.htm", nil},
		{"amendment by its form", "0000000001-24-000001", "10-K/A", []string{"d10ka.htm", "dex231.htm", "d10k.htm"}, "", []string{"d10ka.htm", "d10k.htm"}},
		{"an old text filing", "0000000001-99-000001", "10-Q", []string{"0000000001-99-000001.txt", "q10q.txt", "ex27.txt"}, "q10q.txt", nil},
		{"no evidence", "0000000001-24-000001", "10-K", []string{"annual.htm", "report.htm"}, "", []string{"annual.htm", "report.htm"}},
		{"one document without evidence", "0000000001-24-000001", "10-K", []string{"annual.htm", "ex13.htm"}, "", []string{"annual.htm"}},
		{"nothing but EDGAR's own", "0000000001-24-000001", "10-K", []string{"0000000001-24-000001.txt", "0000000001-24-000001-index.html"}, "", nil},
		{"names that lead elsewhere", "0000000001-24-000001", "10-K", []string{"../10-k.htm", "a/10-k.htm"}, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, candidates := choosePrimary(tt.accession, tt.form, tt.names)
			if got != tt.want || !slices.Equal(candidates, tt.candidates) {
				t.Errorf("choosePrimary = %q, %q; want %q, %q", got, candidates, tt.want, tt.candidates)
			}
		})
	}
}
