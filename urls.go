package edgar13f

import "github.com/edgar13f/edgar13f/internal/edgarid"

// EDGAR's URLs this package reads by name, one home each (the filing
// lists' are internal/filinglist's, the company data's package companies').

const (
	cikLookupURL  = "https://www.sec.gov/Archives/edgar/cik-lookup-data.txt"
	fullIndexBase = "https://www.sec.gov/Archives/edgar/full-index/"
)

// folderURL is the folder of a filing, ending in "/".
func folderURL(cik, accession string) string { return edgarid.FolderURL(cik, accession) }

// indexURL is the EDGAR index page cited for a filing.
func indexURL(cik, accession string) string { return edgarid.IndexURL(cik, accession) }
