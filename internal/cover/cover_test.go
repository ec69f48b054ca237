package cover

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f/internal/edgartest/edgarfiles"
)

var (
	mirror = edgarfiles.Mirror + "/www.sec.gov/Archives/edgar/data/"
	docs   = edgarfiles.Documents + "/"
)

// berkshire returns the cover of a Berkshire Hathaway 13F with the facts
// common to all of its filings filled in.
func berkshire(c Cover) Cover {
	c.CIK = "0001067983"
	c.ManagerName = "Berkshire Hathaway Inc"
	c.HasTotals = true
	return c
}

// holdings returns an original 13F-HR holdings report cover with the given
// facts.
func holdings(cik, name, period, signed string, entries, value int64) Cover {
	return Cover{
		SubmissionType:          "13F-HR",
		CIK:                     cik,
		PeriodOfReport:          period,
		ReportCalendarOrQuarter: period,
		ReportType:              "13F HOLDINGS REPORT",
		ManagerName:             name,
		SignatureDate:           signed,
		HasTotals:               true,
		TableEntryTotal:         entries,
		TableValueTotal:         value,
	}
}

// firstXML returns the first <XML> block of a complete submission text file.
func firstXML(t *testing.T, data []byte) []byte {
	t.Helper()
	i := bytes.Index(data, []byte("<XML>"))
	j := bytes.Index(data, []byte("</XML>"))
	if i < 0 || j < i {
		t.Fatal("no <XML> block")
	}
	return data[i+len("<XML>") : j]
}

func TestParseReal(t *testing.T) {
	metlife := Cover{
		SubmissionType: "13F-HR", CIK: "0001099219",
		PeriodOfReport: "2021-12-31", ReportCalendarOrQuarter: "2021-12-31",
		ReportType: "13F COMBINATION REPORT", ManagerName: "METLIFE INC",
		SignatureDate: "2023-03-22", HasTotals: true, TableEntryTotal: 6, TableValueTotal: 11019796,
	}
	notice := Cover{
		SubmissionType: "13F-NT", CIK: "0123456789",
		PeriodOfReport: "2021-12-31", ReportCalendarOrQuarter: "2021-12-31",
		ReportType: "13F NOTICE", ManagerName: "BIG FUND TRUST inc", SignatureDate: "2021-11-01",
	}
	noticeAmendment := notice
	noticeAmendment.SubmissionType = "13F-NT/A"
	noticeAmendment.IsAmendment = true
	noticeAmendment.AmendmentNo = 12
	noticeAmendment.SignatureDate = "2021-11-09"
	combination := func(c Cover) Cover { c.ReportType = "13F COMBINATION REPORT"; return c }

	tests := []struct {
		file     string
		embedded bool // the cover is the first <XML> block of a .txt
		want     Cover
	}{
		{file: mirror + "1067983/000095012322012275/primary_doc.xml", want: berkshire(Cover{
			SubmissionType: "13F-HR", PeriodOfReport: "2022-09-30", ReportCalendarOrQuarter: "2022-09-30",
			ReportType: "13F COMBINATION REPORT", SignatureDate: "2022-11-14",
			TableEntryTotal: 179, TableValueTotal: 296096640, OtherIncludedManagers: 14,
		})},
		{file: mirror + "1067983/000095012323002585/primary_doc.xml", want: berkshire(Cover{
			SubmissionType: "13F-HR", PeriodOfReport: "2022-12-31", ReportCalendarOrQuarter: "2022-12-31",
			ReportType: "13F COMBINATION REPORT", SignatureDate: "2023-02-14",
			TableEntryTotal: 172, TableValueTotal: 299007622119, OtherIncludedManagers: 14,
		})},
		{file: mirror + "1067983/000095012323010898/primary_doc.xml", want: berkshire(Cover{
			SubmissionType: "13F-HR", PeriodOfReport: "2023-09-30", ReportCalendarOrQuarter: "2023-09-30",
			ReportType: "13F HOLDINGS REPORT", SignatureDate: "2023-11-14",
			TableEntryTotal: 152, TableValueTotal: 313257308189, ConfidentialOmitted: true, OtherIncludedManagers: 14,
		})},
		{file: mirror + "1067983/000095012323011029/primary_doc.xml", want: berkshire(Cover{
			SubmissionType: "13F-HR/A", PeriodOfReport: "2023-09-30", ReportCalendarOrQuarter: "2023-09-30",
			IsAmendment: true, AmendmentNo: 1, AmendmentType: "RESTATEMENT",
			ReportType: "13F HOLDINGS REPORT", SignatureDate: "2023-11-16",
			TableEntryTotal: 152, TableValueTotal: 313257308189, ConfidentialOmitted: true, OtherIncludedManagers: 14,
		})},
		{file: mirror + "1067983/000095012324005653/primary_doc.xml", want: berkshire(Cover{
			SubmissionType: "13F-HR/A", PeriodOfReport: "2023-09-30", ReportCalendarOrQuarter: "2023-09-30",
			IsAmendment: true, AmendmentNo: 2, AmendmentType: "NEW HOLDINGS",
			ReportType: "13F HOLDINGS REPORT", SignatureDate: "2024-05-15",
			TableEntryTotal: 1, TableValueTotal: 1695320075, OtherIncludedManagers: 2,
		})},
		{file: mirror + "1067983/000095012324002518/primary_doc.xml", want: berkshire(Cover{
			SubmissionType: "13F-HR", PeriodOfReport: "2023-12-31", ReportCalendarOrQuarter: "2023-12-31",
			ReportType: "13F HOLDINGS REPORT", SignatureDate: "2024-02-14",
			TableEntryTotal: 138, TableValueTotal: 347358074461, ConfidentialOmitted: true, OtherIncludedManagers: 14,
		})},
		{file: mirror + "1067983/000095012324005664/primary_doc.xml", want: berkshire(Cover{
			SubmissionType: "13F-HR/A", PeriodOfReport: "2023-12-31", ReportCalendarOrQuarter: "2023-12-31",
			IsAmendment: true, AmendmentNo: 1, AmendmentType: "NEW HOLDINGS",
			ReportType: "13F HOLDINGS REPORT", SignatureDate: "2024-05-15",
			TableEntryTotal: 1, TableValueTotal: 4542600000, OtherIncludedManagers: 2,
		})},
		{file: mirror + "1029160/000090266426003507/primary_doc.xml",
			want: holdings("0001029160", "SOROS FUND MANAGEMENT LLC", "2026-06-30", "2026-08-14", 266, 8143628824)},
		{file: docs + "bard-2021q3-com-cover.xml",
			want: holdings("0001850858", "Bard Financial Services, Inc.", "2021-09-30", "2021-10-15", 278, 1129298)},
		{file: docs + "abacus-wealth-13f-hr-2020q4-primary_doc.xml",
			want: holdings("0001978011", "Abacus Wealth Partners, LLC", "2020-12-31", "2023-05-31", 92, 114663960)},
		{file: docs + "metlife-13f-combination-2021q4-primary_doc.xml", want: metlife},
		{file: docs + "everhart-financial-13f-hr-2020q4-primary_doc.xml",
			want: holdings("0001852858", "Everhart Financial Group, Inc.", "2020-12-31", "2021-03-26", 80, 108376)},
		{file: docs + "accurate-investment-13f-hr-2018q3-primary_doc.xml",
			want: holdings("0001607863", "ACCURATE INVESTMENT SOLUTIONS, INC.", "2018-09-30", "2018-10-05", 392, 144410)},
		{file: docs + "point72-13f-hr-combination-2025q3-primary_doc.xml",
			want: combination(holdings("0001603466", "Point72 Asset Management, L.P.", "2025-09-30", "2025-11-14", 2263, 59757433234))},
		{file: docs + "Sample_13F-NT.xml", want: notice},
		{file: docs + "Sample_13F-NTA.xml", want: noticeAmendment},
		{file: mirror + "1099219/000114036123013281/0001140361-23-013281.txt", embedded: true, want: metlife},
		{file: mirror + "1619124/000161912421000002/0001619124-21-000002.txt", embedded: true,
			want: holdings("0001619124", "ACTIAM N.V.", "2020-12-31", "2021-02-12", 5, 732158)},
		{file: mirror + "1790837/000179083723000002/0001790837-23-000002.txt", embedded: true,
			want: holdings("0001790837", "Bull Street Advisors, LLC", "2022-12-31", "2022-12-31", 90, 192767)},
		{file: mirror + "1894188/000189418823000007/0001894188-23-000007.txt", embedded: true,
			want: holdings("0001894188", "LTS One Management LP", "2023-09-30", "2023-11-14", 14, 454926000)},
		{file: docs + "acorn-creek-13f-hr-2024q4-0001951757-25-000093.nc", embedded: true,
			want: holdings("0001994827", "ACORN CREEK CAPITAL LLC", "2024-12-31", "2025-01-22", 77, 194611845)},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.file), func(t *testing.T) {
			data, err := os.ReadFile(tt.file)
			if err != nil {
				t.Fatal(err)
			}
			if tt.embedded {
				data = firstXML(t, data)
			}
			got, err := Parse(data)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if diff := cmp.Diff(&tt.want, got); diff != "" {
				t.Errorf("Parse mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// synthetic returns a small cover page for period 03-31-2024 with the given
// coverPage content and summaryPage element.
func synthetic(coverPage, summary string) string {
	return `<?xml version="1.0" encoding="UTF-8"?>
<edgarSubmission xmlns="http://www.sec.gov/edgar/thirteenffiler" xmlns:com="http://www.sec.gov/edgar/common">
<headerData><submissionType>13F-HR/A</submissionType><filerInfo><filer><credentials><cik>0000000042</cik></credentials></filer>
<periodOfReport>03-31-2024</periodOfReport></filerInfo></headerData>
<formData><coverPage>` + coverPage + `</coverPage>
<signatureBlock><name>A Signer</name><signatureDate>04-15-2024</signatureDate></signatureBlock>` + summary + `</formData></edgarSubmission>`
}

func TestParseSynthetic(t *testing.T) {
	base := Cover{SubmissionType: "13F-HR/A", CIK: "0000000042", PeriodOfReport: "2024-03-31", SignatureDate: "2024-04-15"}
	with := func(f func(*Cover)) Cover { c := base; f(&c); return c }
	tests := []struct {
		name string
		doc  string
		want Cover
	}{
		{
			name: "empty summary elements are absent",
			doc:  synthetic(``, `<summaryPage><otherIncludedManagersCount/><tableEntryTotal/><tableValueTotal/><isConfidentialOmitted/></summaryPage>`),
			want: base,
		},
		{
			name: "entry total without value total",
			doc:  synthetic(``, `<summaryPage><tableEntryTotal>5</tableEntryTotal><tableValueTotal> </tableValueTotal></summaryPage>`),
			want: base,
		},
		{
			name: "totals with commas",
			doc:  synthetic(``, `<summaryPage><otherIncludedManagersCount>1,024</otherIncludedManagersCount><tableEntryTotal>1,234</tableEntryTotal><tableValueTotal> 12,345,678,901 </tableValueTotal></summaryPage>`),
			want: with(func(c *Cover) {
				c.OtherIncludedManagers, c.HasTotals, c.TableEntryTotal, c.TableValueTotal = 1024, true, 1234, 12345678901
			}),
		},
		{
			name: "amendment type in mixed case",
			doc: synthetic(`<isAmendment>TRUE</isAmendment><amendmentNo>2</amendmentNo><amendmentInfo><amendmentType> new
  Holdings </amendmentType></amendmentInfo>`, ``),
			want: with(func(c *Cover) { c.IsAmendment, c.AmendmentNo, c.AmendmentType = true, 2, "NEW HOLDINGS" }),
		},
		{
			name: "amendment without amendment type",
			doc:  synthetic(`<isAmendment>Y</isAmendment><amendmentNo>3</amendmentNo><amendmentInfo><amendmentType/></amendmentInfo>`, ``),
			want: with(func(c *Cover) { c.IsAmendment, c.AmendmentNo = true, 3 }),
		},
		{
			name: "empty amendment number and boolean",
			doc:  synthetic(`<isAmendment></isAmendment><amendmentNo/>`, `<summaryPage><isConfidentialOmitted>1</isConfidentialOmitted></summaryPage>`),
			want: with(func(c *Cover) { c.ConfidentialOmitted = true }),
		},
		{
			name: "single-digit dates",
			doc: strings.Replace(synthetic(`<reportCalendarOrQuarter>3-31-2024</reportCalendarOrQuarter>`, ``),
				"04-15-2024", "4-5-2024", 1),
			want: with(func(c *Cover) { c.ReportCalendarOrQuarter, c.SignatureDate = "2024-03-31", "2024-04-05" }),
		},
		{
			name: "malformed signature date is dropped",
			doc:  strings.Replace(synthetic(``, ``), "04-15-2024", "2024-04-15", 1),
			want: with(func(c *Cover) { c.SignatureDate = "" }),
		},
		{
			name: "manager name only from filingManager",
			doc: synthetic(`<otherManagersInfo><otherManager><name>Other LLC</name></otherManager></otherManagersInfo>
<filingManager><name>  Real Manager LP </name><address><com:city>X</com:city></address></filingManager>
<reportType> 13F NOTICE </reportType>`, ``),
			want: with(func(c *Cover) { c.ManagerName, c.ReportType = "Real Manager LP", "13F NOTICE" }),
		},
		{
			name: "byte order mark and leading white space",
			doc:  "\ufeff\n  " + synthetic(``, ``),
			want: base,
		},
		{
			name: "windows-1252",
			doc: strings.Replace(synthetic("<filingManager><name>Soci\xe9t\xe9 d\x92Or</name></filingManager>", ``),
				"UTF-8", "windows-1252", 1),
			want: with(func(c *Cover) { c.ManagerName = "Société d’Or" }),
		},
		{
			name: "no prefix declaration, foreign prefixes",
			doc: `<ns9:edgarSubmission xmlns:ns9="urn:x"><ns9:headerData><ns9:submissionType>13F-NT</ns9:submissionType></ns9:headerData>
<ns9:formData><ns9:coverPage><ns9:reportCalendarOrQuarter>12-31-2023</ns9:reportCalendarOrQuarter></ns9:coverPage></ns9:formData></ns9:edgarSubmission>`,
			want: Cover{SubmissionType: "13F-NT", ReportCalendarOrQuarter: "2023-12-31"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.doc))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if diff := cmp.Diff(&tt.want, got); diff != "" {
				t.Errorf("Parse mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want string
	}{
		{"empty", " \n", "cover: empty document"},
		{"information table", `<?xml version="1.0"?><informationTable xmlns="http://www.sec.gov/edgar/document/thirteenf/informationtable"/>`,
			`cover: root element is "informationTable", not edgarSubmission`},
		{"html error page", "<!DOCTYPE html>\n<html><body>Request Rate Threshold Exceeded</body></html>",
			`cover: root element is "html", not edgarSubmission`},
		{"plain text", "not xml at all", "cover: no edgarSubmission element"},
		{"truncated", synthetic(``, ``)[:300], "cover: XML syntax error on line 4: unexpected EOF"},
		{"second root", synthetic(``, ``) + "<edgarSubmission/>", "cover: content after the root element"},
		{"impossible period date", synthetic(`<reportCalendarOrQuarter>02-30-2024</reportCalendarOrQuarter>`, ``),
			`cover: reportCalendarOrQuarter: "02-30-2024" is not a valid date`},
		{"ISO period date", strings.Replace(synthetic(``, ``), "03-31-2024", "2024-03-31", 1),
			`cover: periodOfReport: "2024-03-31" is not an MM-DD-YYYY date`},
		{"bad boolean", synthetic(`<isAmendment>maybe</isAmendment>`, ``), `cover: isAmendment: "maybe" is not a boolean`},
		{"bad number", synthetic(``, `<summaryPage><tableEntryTotal>12a</tableEntryTotal><tableValueTotal>1</tableValueTotal></summaryPage>`),
			`cover: tableEntryTotal: "12a" is not a non-negative integer`},
		{"negative number", synthetic(`<amendmentNo>-1</amendmentNo>`, ``), `cover: amendmentNo: "-1" is not a non-negative integer`},
		{"unknown encoding", strings.Replace(synthetic(``, ``), "UTF-8", "EBCDIC", 1),
			`cover: xml: opening charset "EBCDIC": unsupported charset: "EBCDIC"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.doc))
			if err == nil {
				t.Fatalf("Parse = %+v, want error %q", got, tt.want)
			}
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("error mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPeriod(t *testing.T) {
	tests := []struct {
		name string
		c    Cover
		want string
	}{
		{"both", Cover{ReportCalendarOrQuarter: "2024-03-31", PeriodOfReport: "2023-12-31"}, "2024-03-31"},
		{"header only", Cover{PeriodOfReport: "2023-12-31"}, "2023-12-31"},
		{"neither", Cover{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.c.Period()); diff != "" {
				t.Errorf("Period mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
