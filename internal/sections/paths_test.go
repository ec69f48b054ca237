package sections

import "github.com/edgar13f/edgar13f/internal/edgartest/edgarfiles"

var (
	mirror    = edgarfiles.Mirror + "/www.sec.gov/Archives/edgar/data/"
	appleDoc  = mirror + "320193/000032019324000123/aapl-20240928.htm"
	nvidiaDoc = mirror + "1045810/000104581025000023/nvda-20250126.htm"
)

var geFragment = edgarfiles.Documents + "/ge-10k-cross-reference-fragment.html"

// Real 10-K and 10-Q primary documents kept gzip-compressed (see
// testdata/PROVENANCE.md); read them with readDoc.
var documents = edgarfiles.Documents + "/"
