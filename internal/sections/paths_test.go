package sections

const (
	mirror    = "../../testdata/mirror/www.sec.gov/Archives/edgar/data/"
	appleDoc  = mirror + "320193/000032019324000123/aapl-20240928.htm"
	nvidiaDoc = mirror + "1045810/000104581025000023/nvda-20250126.htm"
)

const geFragment = "../../testdata/documents/ge-10k-cross-reference-fragment.html"

// Real 10-K and 10-Q primary documents kept gzip-compressed (see
// testdata/PROVENANCE.md); read them with readDoc.
const documents = "../../testdata/documents/"
