package fulltext

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f/internal/edgartest/edgarfiles"
)

var (
	mirror  = edgarfiles.Mirror + "/www.sec.gov/Archives/edgar/data/"
	metlife = mirror + "1099219/000114036123013281/0001140361-23-013281.txt"
	actiam  = mirror + "1619124/000161912421000002/0001619124-21-000002.txt"
	bull    = mirror + "1790837/000179083723000002/0001790837-23-000002.txt"
	ltsOne  = mirror + "1894188/000189418823000007/0001894188-23-000007.txt"
	acorn   = edgarfiles.Documents + "/acorn-creek-13f-hr-2024q4-0001951757-25-000093.nc"
)

// facts is what the tests assert about a parsed submission.
type facts struct {
	Accession, Type, PeriodOfReport, FiledAsOf, AcceptanceDateTime string
	Documents                                                      []docFacts
}

// docFacts is what the tests assert about one document: its header lines,
// whether Text begins with an XML declaration, the first element name and
// the last end tag of Text.
type docFacts struct {
	Type, Sequence, Filename, Description string
	Declaration                           bool
	Root, End                             string
}

func factsOf(s *Submission) facts {
	f := facts{s.Accession, s.Type, s.PeriodOfReport, s.FiledAsOf, s.AcceptanceDateTime, nil}
	for _, d := range s.Documents {
		text := d.Text
		df := docFacts{Type: d.Type, Sequence: d.Sequence, Filename: d.Filename, Description: d.Description}
		if bytes.HasPrefix(text, []byte("<?xml")) {
			df.Declaration = true
			text = text[bytes.Index(text, []byte("?>"))+2:]
		}
		text = bytes.TrimSpace(text)
		if bytes.HasPrefix(text, []byte("<")) {
			df.Root = string(text[1:bytes.IndexAny(text, " >\r\n")])
		}
		if i := bytes.LastIndex(text, []byte("</")); i >= 0 {
			df.End = string(text[i:])
		}
		f.Documents = append(f.Documents, df)
	}
	return f
}

func cover(decl bool) docFacts {
	return docFacts{Type: "13F-HR", Sequence: "1", Filename: "primary_doc.xml",
		Declaration: decl, Root: "edgarSubmission", End: "</edgarSubmission>"}
}

func table(name, root string) docFacts {
	return docFacts{Type: "INFORMATION TABLE", Sequence: "2", Filename: name,
		Declaration: true, Root: root, End: "</" + root + ">"}
}

var realFacts = map[string]facts{
	metlife: {"0001140361-23-013281", "13F-HR", "2021-12-31", "2023-03-23", "20230323112745",
		[]docFacts{cover(true), table("informationtable.xml", "informationTable")}},
	actiam: {"0001619124-21-000002", "13F-HR", "2020-12-31", "2021-02-12", "20210212100642",
		[]docFacts{cover(true), table("Q4202013FHOLDINGSACTIAMNV.xml", "ns1:informationTable")}},
	bull: {"0001790837-23-000002", "13F-HR", "2022-12-31", "2023-02-28", "20230228132848",
		[]docFacts{cover(true), func() docFacts {
			d := table("BSA13FDec2022.xml", "ns1:informationTable")
			d.Description = "BSA 13F 12-31-2022"
			return d
		}()}},
	ltsOne: {"0001894188-23-000007", "13F-HR", "2023-09-30", "2023-11-14", "20231114093854",
		[]docFacts{cover(true), table("index.xml", "ns1:informationTable")}},
	acorn: {"0001951757-25-000093", "13F-HR", "2024-12-31", "2025-01-22", "",
		[]docFacts{cover(true), table("F_13F_AcornCreek_Q42024.xml", "ns1:informationTable")}},
}

func read(t testing.TB, file string) []byte {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestParseReal(t *testing.T) {
	var files []string
	for file := range realFacts {
		files = append(files, file)
	}
	slices.Sort(files)
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			want, ok := realFacts[file]
			if !ok {
				t.Fatalf("no expectations for %s", file)
			}
			s, err := Parse(read(t, file))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if diff := cmp.Diff(want, factsOf(s)); diff != "" {
				t.Errorf("Parse mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestLineBreaks parses real submissions with their line breaks converted
// and expects the same facts and, line breaks aside, the same texts.
func TestLineBreaks(t *testing.T) {
	lf := func(b []byte) []byte {
		return bytes.ReplaceAll(bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")), []byte("\r"), []byte("\n"))
	}
	tests := []struct {
		name string
		file string
		conv func([]byte) []byte
	}{
		{"MetLife CRLF", metlife, func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")) }},
		{"Bull Street CR", bull, func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n"), []byte("\r")) }},
		{"Acorn Creek LF", acorn, lf},
		{"Acorn Creek CRLF", acorn, func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\r"), []byte("\r\n")) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			orig, err := Parse(read(t, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			got, err := Parse(tt.conv(read(t, tt.file)))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if diff := cmp.Diff(realFacts[tt.file], factsOf(got)); diff != "" {
				t.Errorf("Parse mismatch (-want +got):\n%s", diff)
			}
			for i := range orig.Documents {
				if diff := cmp.Diff(string(lf(orig.Documents[i].Text)), string(lf(got.Documents[i].Text))); diff != "" {
					t.Errorf("document %d text mismatch (-want +got):\n%s", i+1, diff)
				}
			}
		})
	}
}

func TestTextAliasesInput(t *testing.T) {
	data := read(t, bull)
	s, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	clear(data)
	for i, d := range s.Documents {
		if len(d.Text) == 0 || cap(d.Text) != len(d.Text) {
			t.Errorf("document %d: len %d cap %d, want equal and non-zero", i+1, len(d.Text), cap(d.Text))
		}
		if n := len(bytes.Trim(d.Text, "\x00")); n != 0 {
			t.Errorf("document %d: %d bytes of Text not shared with the input", i+1, n)
		}
	}
}

func TestDocument(t *testing.T) {
	s, err := Parse(read(t, ltsOne))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		typ  string
		want string // Filename of the document found, "" for nil
	}{
		{"INFORMATION TABLE", "index.xml"},
		{" information table\t", "index.xml"},
		{"13f-hr", "primary_doc.xml"},
		{"EX-99", ""},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.typ, func(t *testing.T) {
			got := ""
			if d := s.Document(tt.typ); d != nil {
				got = d.Filename
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Document(%q) mismatch (-want +got):\n%s", tt.typ, diff)
			}
		})
	}
}

// synthetic is a small submission with one plain-text document, one
// document without <TEXT> and one XML document.
const synthetic = "\ufeff\n<SEC-DOCUMENT>x.txt : 20240101\n<SEC-HEADER>x.hdr.sgml : 20240101\n" +
	"ACCESSION NUMBER:\t\t000000004224000001\nCONFORMED SUBMISSION TYPE:\t13F-NT\n" +
	"PUBLIC DOCUMENT COUNT:\t\t3\nFILER:\n\tCOMPANY DATA:\t\n\t\tCOMPANY CONFORMED NAME:\t\t\tX: Y LLC\n</SEC-HEADER>\n" +
	"<DOCUMENT>\n<TYPE>TEXT\n<SEQUENCE>1\n<FILENAME>a.txt\n<TEXT>\n  indented\nline two\n</TEXT>\n</DOCUMENT>\n" +
	"<DOCUMENT>\n<TYPE>GRAPHIC\n<SEQUENCE>2\n<FILENAME>b.gif\n</DOCUMENT>\n" +
	"<DOCUMENT>\n<TYPE>13F-NT\n<SEQUENCE>3\n<FILENAME>primary_doc.xml\n<DESCRIPTION> cover \n<TEXT>\n<XML>\n\n<edgarSubmission/>\n</XML>\n</TEXT>\n</DOCUMENT>\n" +
	"</SEC-DOCUMENT>\n"

func TestParseSynthetic(t *testing.T) {
	got, err := Parse([]byte(synthetic))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	// Texts are compared as strings so that a nil Text differs from an empty one.
	type doc struct {
		Type, Sequence, Filename, Description string
		Text                                  *string
	}
	str := func(s string) *string { return &s }
	var docs []doc
	for _, d := range got.Documents {
		var text *string
		if d.Text != nil {
			text = str(string(d.Text))
		}
		docs = append(docs, doc{d.Type, d.Sequence, d.Filename, d.Description, text})
	}
	wantDocs := []doc{
		{"TEXT", "1", "a.txt", "", str("  indented\nline two\n")},
		{"GRAPHIC", "2", "b.gif", "", nil},
		{"13F-NT", "3", "primary_doc.xml", "cover", str("<edgarSubmission/>\n")},
	}
	if diff := cmp.Diff(wantDocs, docs); diff != "" {
		t.Errorf("documents mismatch (-want +got):\n%s", diff)
	}
	got.Documents = nil
	want := &Submission{Accession: "0000000042-24-000001", Type: "13F-NT"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("header mismatch (-want +got):\n%s", diff)
	}
}

func TestParseErrors(t *testing.T) {
	real := string(read(t, metlife))
	cut := func(s, old string) string {
		if !strings.Contains(s, old) {
			t.Fatalf("%q not in input", old)
		}
		return strings.Replace(s, old, "", 1)
	}
	tests := []struct {
		name  string
		input string
		want  string
	}{
		{"empty", "", "fulltext: empty input"},
		{"white space", " \r\n\t", "fulltext: empty input"},
		{"HTML page", "<!DOCTYPE html>\n<html><head><title>SEC.gov | Request Rate Threshold Exceeded</title>",
			`fulltext: not a complete submission: starts with "<!DOCTYPE html>\n<htm"`},
		{"XML document", `<?xml version="1.0"?><edgarSubmission/>`,
			`fulltext: not a complete submission: starts with "<?xml version=\"1.0\"?"`},
		{"truncated body", real[:strings.LastIndex(real, "</infoTable>")], "fulltext: document 2 has no </DOCUMENT>"},
		{"first document unterminated", cut(real, "</XML>\n</TEXT>\n</DOCUMENT>\n"),
			"fulltext: document 1 has no </DOCUMENT>"},
		{"no </XML>", cut(real, "</XML>"), "fulltext: document 1: no </XML>"},
		{"no </TEXT>", cut(real, "</TEXT>"), "fulltext: document 1: no </TEXT>"},
		{"header only", real[:strings.Index(real, "<DOCUMENT>")], "fulltext: no <DOCUMENT> in submission"},
		{"no accession number", cut(real, "ACCESSION NUMBER:\t\t0001140361-23-013281\n"),
			"fulltext: header has no accession number"},
		{"no submission type", cut(real, "CONFORMED SUBMISSION TYPE:\t13F-HR\n"),
			"fulltext: header has no submission type"},
		{"malformed accession number", strings.Replace(real, "0001140361-23-013281\n", "1140361-23-13281\n", 1),
			`fulltext: malformed accession number "1140361-23-13281"`},
		{"impossible period", strings.Replace(real, "20211231", "20210231", 1),
			`fulltext: period of report: "20210231" is not a YYYYMMDD date`},
		{"malformed filing date", strings.Replace(string(read(t, acorn)), "<FILING-DATE>20250122", "<FILING-DATE>2025-01-22", 1),
			`fulltext: filed as of date: "2025-01-22" is not a YYYYMMDD date`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse([]byte(tt.input))
			if err == nil {
				t.Fatalf("Parse = %+v, want error %q", factsOf(s), tt.want)
			}
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("error mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMissingOptionalHeader removes the header lines that may be absent.
func TestMissingOptionalHeader(t *testing.T) {
	tests := []struct {
		name   string
		file   string
		remove []string
		want   facts
	}{
		{"txt", metlife, []string{"<ACCEPTANCE-DATETIME>20230323112745\n", "CONFORMED PERIOD OF REPORT:\t20211231\n", "FILED AS OF DATE:\t\t20230323\n"},
			facts{Accession: "0001140361-23-013281", Type: "13F-HR"}},
		{"nc", acorn, []string{"<PERIOD>20241231\r", "<FILING-DATE>20250122\r"},
			facts{Accession: "0001951757-25-000093", Type: "13F-HR"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := read(t, tt.file)
			for _, r := range tt.remove {
				if !bytes.Contains(data, []byte(r)) {
					t.Fatalf("%q not in input", r)
				}
				data = bytes.Replace(data, []byte(r), nil, 1)
			}
			s, err := Parse(data)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			got := factsOf(s)
			got.Documents = nil
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Parse mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func BenchmarkParse(b *testing.B) {
	files, err := filepath.Glob(mirror + "*/*/*.txt")
	if err != nil || len(files) == 0 {
		b.Fatal("no submissions", err)
	}
	var data []byte
	for _, f := range files {
		if d := read(b, f); len(d) > len(data) {
			data = d
		}
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

// TestParseEveryMirrorSubmission parses every complete submission in the
// mirror (the real ones above and the containers built around real covers
// and tables): each has a 13F cover document and, for holdings reports, an
// information table.
func TestParseEveryMirrorSubmission(t *testing.T) {
	files, err := filepath.Glob(mirror + "*/*/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 20 {
		t.Fatalf("only %d submissions found under %s", len(files), mirror)
	}
	for _, file := range files {
		s, err := Parse(read(t, file))
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		if !strings.HasPrefix(filepath.Base(file), s.Accession+".txt") {
			t.Errorf("%s: accession %s", file, s.Accession)
		}
		if d := s.Document(s.Type); d == nil || !bytes.Contains(d.Text, []byte("edgarSubmission")) {
			t.Errorf("%s: no %s cover document", file, s.Type)
		}
		if strings.HasPrefix(s.Type, "13F-HR") && s.Document("INFORMATION TABLE") == nil {
			t.Errorf("%s: no INFORMATION TABLE", file)
		}
	}
}
