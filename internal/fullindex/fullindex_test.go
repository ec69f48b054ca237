package fullindex

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f/internal/edgarid"
	"github.com/google/go-cmp/cmp"
)

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// header is the header of a real quarterly form.idx (2021 QTR1 excerpt).
const header = "Description:           Master Index of EDGAR Dissemination Feed by Form Type\n" +
	"Last Data Received:    March 31, 2021\n" +
	"Comments:              webmaster@sec.gov\n" +
	"Anonymous FTP:         ftp://ftp.sec.gov/edgar/\n\n\n\n\n" +
	"Form Type   Company Name                                                  CIK         Date Filed  File Name\n" +
	"---------------------------------------------------------------------------------------------------------------------------------------------\n"

// row lays out one fixed-width row.
func row(form, company, cik, date, file string) string {
	pad := func(s string, n int) string {
		if len(s) >= n {
			return s
		}
		return s + strings.Repeat(" ", n-len(s))
	}
	return pad(form, 12) + pad(company, 62) + pad(cik, 12) + pad(date, 12) + file + "\n"
}

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want []Row
	}{
		{
			name: "real daily form index, two 13F rows",
			in:   readTestdata(t, "daily-form.20200318-head.idx"),
			want: []Row{
				{Form: "13F-HR", Company: "Global Strategic Investment Solutions, LLC", CIK: 1760076, Date: "2020-03-18", Accession: "0001760076-20-000004"},
				{Form: "13F-HR/A", Company: "MACQUARIE GROUP LTD", CIK: 1418333, Date: "2020-03-18", Accession: "0000950123-20-002922"},
			},
		},
		{name: "real quarterly excerpt without 13F rows", in: readTestdata(t, "quarterly-form-2021QTR1-excerpt.idx")},
		{name: "real empty index", in: readTestdata(t, "empty-master-form-20250329.idx")},
		{
			name: "all four forms, name filling its column, name overflowing it, Latin-1, CRLF",
			in: []byte(header +
				row("10-K", "BERKSHIRE HILLS BANCORP INC", "9000011", "2021-02-26", "edgar/data/9000011/0009000011-21-000001.txt") +
				row("13F-HR", "BERKSHIRE HATHAWAY INC", "1067983", "2021-02-16", "edgar/data/1067983/0000950123-21-002786.txt") +
				row("13F-HR/A", "BERKSHIRE HATHAWAY INC", "1067983", "2021-02-16", "edgar/data/1067983/0000950123-21-002781.txt") +
				"13F-NT      NORTHERN LIGHTS INVESTMENTS MANAGEMENT & RESEARCH PARTNERS LLC9000016     2021-03-01  edgar/data/9000016/0009000016-21-000001.txt\r\n" +
				"13F-NT      UNITED PLANNERS' FINANCIAL SERVICES OF AMERICA A LIMITED PARTNER  820694      2021-02-24  edgar/data/820694/9999999997-21-003146.txt\n" +
				row("13F-NT/A", "GESTION PRIV\xc9E DU L\xc9MAN SA", "9000013", "2021-03-02", "edgar/data/9000013/odd-name.txt") +
				row("13FCONP", "LATER FORM", "1", "2021-03-02", "edgar/data/1/0000000001-21-000001.txt") +
				row("13F-HR", "OUT OF ORDER, NOT READ", "2", "2021-03-02", "edgar/data/2/0000000002-21-000001.txt")),
			want: []Row{
				{Form: "13F-HR", Company: "BERKSHIRE HATHAWAY INC", CIK: 1067983, Date: "2021-02-16", Accession: "0000950123-21-002786"},
				{Form: "13F-HR/A", Company: "BERKSHIRE HATHAWAY INC", CIK: 1067983, Date: "2021-02-16", Accession: "0000950123-21-002781"},
				{Form: "13F-NT", Company: "NORTHERN LIGHTS INVESTMENTS MANAGEMENT & RESEARCH PARTNERS LLC", CIK: 9000016, Date: "2021-03-01", Accession: "0009000016-21-000001"},
				{Form: "13F-NT", Company: "UNITED PLANNERS' FINANCIAL SERVICES OF AMERICA A LIMITED PARTNER", CIK: 820694, Date: "2021-02-24", Accession: "9999999997-21-003146"},
				{Form: "13F-NT/A", Company: "GESTION PRIVÉE DU LÉMAN SA", CIK: 9000013, Date: "2021-03-02"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Parse (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"no header", "13F-HR      X   1   2021-01-01  f\n", "fullindex: no column header and dashed line"},
		{"bad CIK", header + row("13F-HR", "X", "12345678901", "2021-01-01", "f"), "fullindex: row 1: CIK \"12345678901\" is not 1 to 10 digits"},
		{"bad date", header + row("13F-HR", "X", "1", "2021/01/01", "f"), "fullindex: row 1: date \"2021/01/01\" is neither YYYY-MM-DD nor YYYYMMDD"},
		{"too few fields", header + "13F-HR      X 1\n", "fullindex: row 1: fewer than five fields"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in))
			if err == nil || err.Error() != tt.want {
				t.Fatalf("Parse error = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestEnough(t *testing.T) {
	daily := readTestdata(t, "daily-form.20200318-head.idx")
	first13F := bytes.Index(daily, []byte("\n13F-HR      ")) + 1
	after := bytes.Index(daily, []byte("\n15-12B/A")) + 1
	endAfter := after + bytes.IndexByte(daily[after:], '\n') + 1
	tests := []struct {
		name   string
		prefix []byte
		want   bool
	}{
		{"header only", []byte(header), false},
		{"header cut in the dashes", []byte(header[:len(header)-20]), false},
		{"rows before the 13F block", daily[:first13F], false},
		{"inside the 13F block", daily[:after], false},
		{"first row after the block, incomplete", daily[:endAfter-1], false},
		{"first row after the block, complete", daily[:endAfter], true},
		{"whole file", daily, true},
		{"real empty index", readTestdata(t, "empty-master-form-20250329.idx"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Enough(tt.prefix); got != tt.want {
				t.Errorf("Enough = %v, want %v", got, tt.want)
			}
		})
	}
	// A prefix that Enough accepts parses to the rows of the whole file.
	whole, err := Parse(daily)
	if err != nil {
		t.Fatal(err)
	}
	part, err := Parse(daily[:endAfter])
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(whole, part); diff != "" {
		t.Errorf("prefix rows differ (-whole +prefix):\n%s", diff)
	}
}

func FuzzParse(f *testing.F) {
	for _, name := range []string{"daily-form.20200318-head.idx", "quarterly-form-2021QTR1-excerpt.idx", "empty-master-form-20250329.idx"} {
		f.Add(readTestdata(f, name))
	}
	f.Add([]byte(header + row("13F-HR", "A", "1", "20200101", "edgar/data/1/0000000001-20-000001.txt")))
	f.Fuzz(func(t *testing.T, b []byte) {
		rows, err := Parse(b)
		if err != nil {
			return
		}
		for _, r := range rows {
			if !edgarid.Is13F(r.Form) || r.Company == "" || len(r.Date) != 10 {
				t.Fatalf("bad row %+v", r)
			}
		}
		if Enough(b) {
			// Cutting after the line Enough accepted changes nothing.
			end := bytes.LastIndexByte(b, '\n') + 1
			again, err := Parse(b[:end])
			if err != nil || !cmp.Equal(rows, again) {
				t.Fatalf("prefix parse differs: %v", err)
			}
		}
	})
}
