package benchdata

import (
	"fmt"
	"strings"
	"testing/fstest"
)

// A Filing describes the one 13F-HR filing of a benchmark mirror.
type Filing struct {
	CIK        string // without leading zeros, e.g. "9000050"
	Accession  string // dashed, e.g. "0009000050-25-000001"
	FilingDate string // YYYY-MM-DD
	Period     string // YYYY-MM-DD, a quarter end
	Rows       int    // rows of the information table (the cover's tableEntryTotal)
	ValueTotal int64  // the cover's tableValueTotal
	Size       int    // size of the complete submission in bytes, as EDGAR lists it; 0 leaves it out
}

// DefaultFiling is the filing the benchmarks use.
var DefaultFiling = Filing{CIK: "9000050", Accession: "0009000050-25-000001", FilingDate: "2025-05-15", Period: "2025-03-31"}

// SubmissionsPath returns the mirror path of f's filing list.
func (f Filing) SubmissionsPath() string {
	return fmt.Sprintf("data.sec.gov/submissions/CIK%010s.json", f.CIK)
}

// TextPath returns the mirror path of f's complete submission text file.
func (f Filing) TextPath() string {
	return "www.sec.gov/Archives/edgar/data/" + f.CIK + "/" + strings.ReplaceAll(f.Accession, "-", "") + "/" + f.Accession + ".txt"
}

// Mirror returns an EDGAR mirror tree (in the layout of edgar13f's
// mirror.Fetcher and mirror.Handler) holding f's filing list and f's complete
// submission text file, which wraps a cover page and table.
func Mirror(f Filing, table []byte) fstest.MapFS {
	txt := Submission(f, table)
	f.Size = len(txt)
	return fstest.MapFS{
		f.SubmissionsPath(): {Data: []byte(SubmissionsJSON(f))},
		f.TextPath():        {Data: txt},
	}
}

// SubmissionsJSON returns a submissions API document listing f alone.
func SubmissionsJSON(f Filing) string {
	size := ""
	if f.Size > 0 {
		size = fmt.Sprintf(`,"size":[%d]`, f.Size)
	}
	return fmt.Sprintf(`{"cik":"%010s","name":"BENCHMARK CAPITAL LP","filings":{"recent":{`+
		`"accessionNumber":[%q],"filingDate":[%q],"reportDate":[%q],"acceptanceDateTime":["%sT20:59:25.000Z"],`+
		`"form":["13F-HR"],"primaryDocument":["xslForm13F_X02/primary_doc.xml"]%s},"files":[]}}`,
		f.CIK, f.Accession, f.FilingDate, f.Period, f.FilingDate, size)
}

// Submission returns the complete submission text file of f: its header,
// an XML cover page and table as the INFORMATION TABLE document.
func Submission(f Filing, table []byte) []byte {
	compact := func(d string) string { return strings.ReplaceAll(d, "-", "") }
	mdy := func(d string) string { return d[5:7] + "-" + d[8:10] + "-" + d[0:4] }
	head := fmt.Sprintf(`<SEC-DOCUMENT>%[1]s.txt : %[2]s
<SEC-HEADER>%[1]s.hdr.sgml : %[2]s
<ACCEPTANCE-DATETIME>%[2]s165925
ACCESSION NUMBER:		%[1]s
CONFORMED SUBMISSION TYPE:	13F-HR
PUBLIC DOCUMENT COUNT:		2
CONFORMED PERIOD OF REPORT:	%[3]s
FILED AS OF DATE:		%[2]s

FILER:

	COMPANY DATA:	
		COMPANY CONFORMED NAME:			BENCHMARK CAPITAL LP
		CENTRAL INDEX KEY:			%010[4]s
</SEC-HEADER>
<DOCUMENT>
<TYPE>13F-HR
<SEQUENCE>1
<FILENAME>primary_doc.xml
<TEXT>
<XML>
<?xml version="1.0" encoding="UTF-8"?>
<edgarSubmission xmlns="http://www.sec.gov/edgar/thirteenffiler" xmlns:ns1="http://www.sec.gov/edgar/common">
  <schemaVersion>X0202</schemaVersion>
  <headerData>
    <submissionType>13F-HR</submissionType>
    <filerInfo>
      <liveTestFlag>LIVE</liveTestFlag>
      <filer><credentials><cik>%010[4]s</cik><ccc>XXXXXXXX</ccc></credentials></filer>
      <periodOfReport>%[5]s</periodOfReport>
    </filerInfo>
  </headerData>
  <formData>
    <coverPage>
      <reportCalendarOrQuarter>%[5]s</reportCalendarOrQuarter>
      <isAmendment>false</isAmendment>
      <filingManager><name>Benchmark Capital LP</name></filingManager>
      <reportType>13F HOLDINGS REPORT</reportType>
      <form13FFileNumber>028-99050</form13FFileNumber>
    </coverPage>
    <summaryPage>
      <otherIncludedManagersCount>0</otherIncludedManagersCount>
      <tableEntryTotal>%[6]d</tableEntryTotal>
      <tableValueTotal>%[7]d</tableValueTotal>
      <isConfidentialOmitted>false</isConfidentialOmitted>
    </summaryPage>
  </formData>
</edgarSubmission>
</XML>
</TEXT>
</DOCUMENT>
<DOCUMENT>
<TYPE>INFORMATION TABLE
<SEQUENCE>2
<FILENAME>infotable.xml
<TEXT>
<XML>
`, f.Accession, compact(f.FilingDate), compact(f.Period), f.CIK, mdy(f.Period), f.Rows, f.ValueTotal)
	const tail = "</XML>\n</TEXT>\n</DOCUMENT>\n</SEC-DOCUMENT>\n"
	out := make([]byte, 0, len(head)+len(table)+len(tail))
	out = append(out, head...)
	out = append(out, table...)
	return append(out, tail...)
}
