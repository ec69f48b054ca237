package infotable

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParseXMLFeatures checks, for both parsers, the XML features the fast
// parser decodes itself.
func TestParseXMLFeatures(t *testing.T) {
	name := func(s string) []Row { return []Row{with(func(r *Row) { r.NameOfIssuer = s })} }
	runParseCases(t, []parseCase{
		{name: "predefined entities", doc: table(row("nameOfIssuer", "A&amp;B &lt;C&gt; &quot;D&quot; &apos;E&apos;")), want: name(`A&B <C> "D" 'E'`)},
		{name: "character references", doc: table(row("nameOfIssuer", "&#65;&#x42;&#x00043;&#xe9;&#x1F600;")), want: name("ABCé😀")},
		{name: "surrogate reference", doc: table(row("nameOfIssuer", "X&#xD800;")), want: name("X\uFFFD")},
		{name: "cdata", doc: table(row("nameOfIssuer", "<![CDATA[A & <B>]]>")), want: name("A & <B>")},
		{name: "comment and pi split text", doc: table(row("nameOfIssuer", "A <!-- c -->B<?p x?> C")), want: name("A B C")},
		{name: "line ends", doc: table(row("nameOfIssuer", "\r\nA\r\nB\rC\r\r\nD&#13;E\r")), want: name("A\nB\nC\n\nD\rE")},
		{name: "nested element text ignored", doc: table(row("nameOfIssuer", "A<b>x</b>B<c/>C")), want: name("ABC")},
		{name: "attributes ignored", doc: table(`<infoTable a="1" b = '&lt;2>'>` + row()[len("<infoTable>"):]), want: []Row{baseRow}},
		{name: "self-closing optional fields", doc: table(row("putCall", "", "otherManager", "", "Sole", "")), want: []Row{with(func(r *Row) { r.VotingSole = 0 })}},
		{name: "latin1 declaration", doc: "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><informationTable>" + row("nameOfIssuer", "CAF\xc9 \x80") + "</informationTable>", want: name("CAFÉ €")},
		{name: "windows-1252 declaration", doc: "<?xml version='1.0' encoding='windows-1252'?><informationTable>" + row("nameOfIssuer", "\x93Q\x94") + "</informationTable>", want: name("“Q”")},
		{name: "unknown entity", doc: table(row("nameOfIssuer", "A&nbsp;B")), wantErr: "invalid character entity &nbsp;"},
		{name: "reference out of range", doc: table(row("nameOfIssuer", "&#x110000;")), wantErr: "invalid character entity"},
		{name: "illegal character reference", doc: table(row("nameOfIssuer", "&#1;")), wantErr: "illegal character code U+0001"},
		{name: "raw cdata end", doc: table(row("nameOfIssuer", "A]]>B")), wantErr: "unescaped ]]> not in CDATA section"},
		{name: "invalid utf-8", doc: table(row("nameOfIssuer", "A\xffB")), wantErr: "invalid UTF-8"},
		{name: "mismatched end tag", doc: "<informationTable><a></b></informationTable>", wantErr: "element <a> closed by </b>"},
		{name: "prefix mismatch", doc: "<informationTable><x:a></y:a></informationTable>", wantErr: "element <a> in space x closed by </a> in space y"},
		{name: "bad comment", doc: "<informationTable><!-- a -- b --></informationTable>", wantErr: `invalid sequence "--" not allowed in comments`},
		{name: "unquoted attribute", doc: "<informationTable a=1></informationTable>", wantErr: "unquoted or missing attribute value"},
		{name: "xml version 1.1", doc: `<?xml version="1.1"?><informationTable/>`, wantErr: `unsupported version "1.1"`},
		{name: "unknown encoding", doc: `<?xml version="1.0" encoding="x-nonesuch"?><informationTable/>`, wantErr: `opening charset "x-nonesuch"`},
		{name: "unclosed root", doc: "<informationTable>" + row(), wantErr: "unexpected EOF"},
		{name: "text after root", doc: "<informationTable/>\n tail &amp; <!-- c -->", want: []Row{}},
	})
}

// TestParseFastDeclines checks that the fast parser leaves documents with
// a directive or a non-ASCII name to the reference, and that Parse still
// reads them.
func TestParseFastDeclines(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		want      []Row
	}{
		{"doctype", "<!DOCTYPE informationTable>" + table(row()), []Row{baseRow}},
		{"non-ascii element name", table(row()[:len(row())-len("</infoTable>")] + "<é>x</é></infoTable>"), []Row{baseRow}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := parseFast([]byte(tc.doc), nil); !errors.Is(err, errUnsupported) {
				t.Errorf("parseFast error = %v, want errUnsupported", err)
			}
			got, err := Parse([]byte(tc.doc), nil)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
		})
	}
}
