package infotable

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f/internal/edgartest/edgarfiles"
)

// seedRows is how many rows of a real table a fuzz seed keeps.
const seedRows = 3

// rowEnd matches the end tag of a row, whatever its prefix.
var rowEnd = regexp.MustCompile(`</([A-Za-z0-9_.-]+:)?infoTable\s*>`)

// shortTable returns the first n rows of a real table, closed again, so
// that fuzz seeds stay small.
func shortTable(data []byte, n int) []byte {
	ends := rowEnd.FindAllIndex(data, n+1)
	if len(ends) <= n {
		return data
	}
	root := data[bytes.LastIndex(data, []byte("</")):]
	out := append([]byte{}, data[:ends[n-1][1]]...)
	return append(append(out, '\n'), root...)
}

// realTableFiles lists the information tables (.xml) in testdata.
func realTableFiles(tb testing.TB) []string {
	tb.Helper()
	var files []string
	err := filepath.WalkDir(edgarfiles.Testdata, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".xml" {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if rowEnd.Match(data) && !bytes.Contains(data, []byte("<SEC-DOCUMENT>")) {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	if len(files) < 10 {
		tb.Fatalf("found %d real tables in testdata, want at least 10", len(files))
	}
	return files
}

// syntheticSeeds exercise the XML features both parsers must agree on.
var syntheticSeeds = []string{
	table(row()),
	table(row("nameOfIssuer", "AT&amp;T &lt;NEW&gt; &quot;A&quot; &apos;B&apos; &#65;&#x42;&#x1F600;")),
	table(row("nameOfIssuer", "<![CDATA[A & B <C>]]> tail")),
	table(row("nameOfIssuer", "AB<!-- comment -->CD<?pi data?>EF")),
	table(row("nameOfIssuer", " \r\n\tX\r\nY\rZ \t")),
	table(row("nameOfIssuer", "A<x>hidden</x>B")),
	table(row("value", " 1,234.50 ", "Sole", "", "putCall", "call", "sshPrnamtType", "prn")),
	table(row("investmentDiscretion", "dfnd", "otherManager", " 1,4 ")),
	table(row(), row("cusip", "G6693N103"), row("putCall", "Put")),
	`<ns1:informationTable xmlns:ns1="urn:x"><ns1:infoTable a="1" b='2'><ns1:nameOfIssuer x="&amp;">N</ns1:nameOfIssuer><ns1:cusip>C</ns1:cusip><ns1:value>1</ns1:value><ns1:shrsOrPrnAmt><ns1:sshPrnamt>2</ns1:sshPrnamt><ns1:sshPrnamtType>SH</ns1:sshPrnamtType></ns1:shrsOrPrnAmt></ns1:infoTable></ns1:informationTable>`,
	`<informationTable><infoTable><nameOfIssuer/><cusip>C</cusip><value>1</value><shrsOrPrnAmt><sshPrnamt>2</sshPrnamt><sshPrnamtType>SH</sshPrnamtType></shrsOrPrnAmt><votingAuthority><Sole/><None>3</None></votingAuthority></infoTable></informationTable>`,
	"\xef\xbb\xbf  <?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><informationTable>" + strings.ReplaceAll(row("nameOfIssuer", "CAF\xc9 \xa3"), "<infoTable>", "<infoTable >") + "</informationTable>",
	`<?xml version="1.0" encoding="windows-1252"?>` + "<informationTable>" + row("nameOfIssuer", "\x93Q\x94") + "</informationTable>",
	`<!DOCTYPE informationTable><informationTable>` + row() + `</informationTable>`,
	"<informationTable/>",
	"<informationTable></informationTable><!-- after -->\n",
}

// FuzzParseDifferential holds Parse to ParseReference: for every input the
// reference accepts, Parse returns exactly the same rows, with and without
// a keep function that drops rows; parseFast either agrees or declines with
// errUnsupported. Where the reference rejects an input, so must Parse.
// The two share the rules that turn elements into rows (rowBuilder), so
// what this compares is their reading of XML; the row rules themselves are
// held to values written out by hand in TestParseFields and the other
// table tests, for both parsers.
func FuzzParseDifferential(f *testing.F) {
	for _, path := range realTableFiles(f) {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(shortTable(data, seedRows))
	}
	for _, s := range syntheticSeeds {
		f.Add([]byte(s))
	}
	dropSome := func(r *Row) bool { return r.Value%3 != 0 && !strings.Contains(r.NameOfIssuer, "A") }
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, keep := range []func(*Row) bool{nil, dropSome} {
			want, wantErr := ParseReference(data, keep)
			got, err := Parse(data, keep)
			if wantErr != nil {
				if err == nil || err.Error() != wantErr.Error() {
					t.Fatalf("Parse error = %v, want %v", err, wantErr)
				}
				continue
			}
			if err != nil {
				t.Fatalf("Parse: %v; ParseReference accepted the input", err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("Parse rows differ from ParseReference (-want +got):\n%s", diff)
			}
			fast, err := parseFast(data, keep)
			if errors.Is(err, errUnsupported) {
				continue
			}
			if err != nil {
				t.Fatalf("parseFast: %v; ParseReference accepted the input", err)
			}
			if diff := cmp.Diff(want, fast); diff != "" {
				t.Fatalf("parseFast rows differ from ParseReference (-want +got):\n%s", diff)
			}
		}
	})
}

// TestParseFastOnRealTables requires the fast parser itself (no fallback)
// to read every real table in testdata exactly as the reference does.
func TestParseFastOnRealTables(t *testing.T) {
	for _, path := range realTableFiles(t) {
		t.Run(filepath.Base(filepath.Dir(path))+"/"+filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want, err := ParseReference(data, nil)
			if err != nil {
				t.Fatalf("ParseReference: %v", err)
			}
			got, err := parseFast(data, nil)
			if err != nil {
				t.Fatalf("parseFast: %v", err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("rows (-reference +fast):\n%s", diff)
			}
		})
	}
}
