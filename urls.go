package edgar13f

import "github.com/edgar13f/edgar13f/internal/edgarid"

// EDGAR's URLs, one home each.

const (
	submissionsBase = "https://data.sec.gov/submissions/"
	cikLookupURL    = "https://www.sec.gov/Archives/edgar/cik-lookup-data.txt"
	fullIndexBase   = "https://www.sec.gov/Archives/edgar/full-index/"
	tickersURL      = "https://www.sec.gov/files/company_tickers.json"
	companyFactsURL = "https://data.sec.gov/api/xbrl/companyfacts/"
)

// factsURL is the XBRL company facts of a CIK.
func factsURL(cik string) string { return companyFactsURL + "CIK" + cik10(cik) + ".json" }

// cik10 is a CIK (without leading zeros) as EDGAR writes it in file names.
func cik10(cik string) string {
	s, _ := edgarid.CIK10(cik)
	return s
}

// submissionsURL is the filing list of a CIK.
func submissionsURL(cik string) string { return submissionsBase + "CIK" + cik10(cik) + ".json" }

// folderURL is the folder of a filing, ending in "/".
func folderURL(cik, accession string) string { return edgarid.FolderURL(cik, accession) }

// indexURL is the EDGAR index page cited for a filing.
func indexURL(cik, accession string) string { return edgarid.IndexURL(cik, accession) }
