package infotable

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const (
	ns   = `xmlns="http://www.sec.gov/edgar/document/thirteenf/informationtable"`
	omit = "\x00omit"
)

// rowElems are the infoTable children in schema order with default texts.
var rowElems = []struct{ name, text string }{
	{"nameOfIssuer", "APPLE INC"},
	{"titleOfClass", "COM"},
	{"cusip", "037833100"},
	{"figi", omit},
	{"value", "1000"},
	{"sshPrnamt", "10"},
	{"sshPrnamtType", "SH"},
	{"putCall", omit},
	{"investmentDiscretion", "SOLE"},
	{"otherManager", omit},
	{"Sole", "10"},
	{"Shared", "0"},
	{"None", "0"},
}

// baseRow is what row() with no overrides parses to.
var baseRow = Row{NameOfIssuer: "APPLE INC", TitleOfClass: "COM", CUSIP: "037833100", Value: 1000, Shares: 10,
	ShPrn: "SH", InvestmentDiscretion: "SOLE", VotingSole: 10}

// row returns an infoTable element with the default texts, replaced by the
// name/text pairs in kv; text omit leaves the element out. Texts are
// inserted verbatim.
func row(kv ...string) string {
	over := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		over[kv[i]] = kv[i+1]
	}
	var b strings.Builder
	b.WriteString("<infoTable>")
	for _, e := range rowElems {
		switch e.name {
		case "sshPrnamt":
			b.WriteString("<shrsOrPrnAmt>")
		case "Sole":
			b.WriteString("<votingAuthority>")
		}
		text, ok := over[e.name]
		if !ok {
			text = e.text
		}
		if text != omit {
			b.WriteString("<" + e.name + ">" + text + "</" + e.name + ">")
		}
		switch e.name {
		case "sshPrnamtType":
			b.WriteString("</shrsOrPrnAmt>")
		case "None":
			b.WriteString("</votingAuthority>")
		}
	}
	b.WriteString("</infoTable>")
	return b.String()
}

// table returns a default-namespace information table holding rows.
func table(rows ...string) string {
	return `<?xml version="1.0" encoding="UTF-8"?>` + "\n<informationTable " + ns + ">\n" + strings.Join(rows, "\n") + "\n</informationTable>\n"
}

// with returns baseRow changed by f.
func with(f func(r *Row)) Row {
	r := baseRow
	f(&r)
	return r
}

type parseCase struct {
	name    string
	doc     string
	want    []Row
	wantErr string // substring of the error; "" for success
}

// parsers are the two implementations every parse case runs against.
var parsers = []struct {
	name  string
	parse func([]byte, func(*Row) bool) ([]Row, error)
}{{"Parse", Parse}, {"ParseReference", ParseReference}}

func runParseCases(t *testing.T, cases []parseCase) {
	t.Helper()
	for _, tc := range cases {
		for _, p := range parsers {
			t.Run(tc.name+"/"+p.name, func(t *testing.T) {
				runParseCase(t, tc, p.parse)
			})
		}
	}
}

func runParseCase(t *testing.T, tc parseCase, parse func([]byte, func(*Row) bool) ([]Row, error)) {
	t.Helper()
	got, err := parse([]byte(tc.doc), nil)
	if tc.wantErr != "" {
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Fatalf("error = %v, want one containing %q", err, tc.wantErr)
		}
		if got != nil {
			t.Errorf("%d rows returned with an error", len(got))
		}
		return
	}
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	if diff := cmp.Diff(tc.want, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}

func TestParsePrefixStyles(t *testing.T) {
	apple := []Row{baseRow}
	appleOM := []Row{with(func(r *Row) { r.OtherManager = "4" })}
	runParseCases(t, []parseCase{
		{name: "default ns no declaration", want: appleOM, doc: `<informationTable xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ` + ns + `>
  <infoTable>
    <nameOfIssuer>APPLE INC</nameOfIssuer>
    <titleOfClass>COM</titleOfClass>
    <cusip>037833100</cusip>
    <value>1000</value>
    <shrsOrPrnAmt>
      <sshPrnamt>10</sshPrnamt>
      <sshPrnamtType>SH</sshPrnamtType>
    </shrsOrPrnAmt>
    <investmentDiscretion>SOLE</investmentDiscretion>
    <otherManager>4</otherManager>
    <votingAuthority>
      <Sole>10</Sole>
      <Shared>0</Shared>
      <None>0</None>
    </votingAuthority>
  </infoTable>
</informationTable>`},
		{name: "default ns plus unused n1", want: apple, doc: `<?xml version="1.0" ?><informationTable xsi:schemaLocation="http://www.sec.gov/edgar/document/thirteenf/informationtable eis_13FDocument.xsd" ` + ns + ` xmlns:n1="http://www.sec.gov/edgar/document/thirteenf/informationtable" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
` + row() + `
</informationTable>`},
		{name: "ns1 prefix tab indented", want: apple, doc: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<ns1:informationTable xmlns:ns1="http://www.sec.gov/edgar/document/thirteenf/informationtable">
	<ns1:infoTable>
		<ns1:nameOfIssuer>APPLE INC</ns1:nameOfIssuer>
		<ns1:titleOfClass>COM</ns1:titleOfClass>
		<ns1:cusip>037833100</ns1:cusip>
		<ns1:value>1000</ns1:value>
		<ns1:shrsOrPrnAmt>
			<ns1:sshPrnamt>10</ns1:sshPrnamt>
			<ns1:sshPrnamtType>SH</ns1:sshPrnamtType>
		</ns1:shrsOrPrnAmt>
		<ns1:investmentDiscretion>SOLE</ns1:investmentDiscretion>
		<ns1:votingAuthority>
			<ns1:Sole>10</ns1:Sole>
			<ns1:Shared>0</ns1:Shared>
			<ns1:None>0</ns1:None>
		</ns1:votingAuthority>
	</ns1:infoTable>
</ns1:informationTable>`},
		{name: "lower-case utf-8 declaration", want: apple, doc: `<?xml version="1.0" encoding="utf-8"?>
<informationTable xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ` + ns + `>
    ` + row() + `
</informationTable>`},
		{name: "no white space", want: []Row{baseRow, baseRow}, doc: `<informationTable ` + ns + `>` + row() + row() + `</informationTable>`},
		{name: "blank line before declaration", want: apple, doc: "\n\n  \t" + table(row())},
		{name: "BOM", want: apple, doc: "\ufeff" + table(row())},
		{name: "newline then BOM", want: apple, doc: "\r\n\ufeff" + table(row())},
		{name: "CR line breaks", want: apple, doc: strings.ReplaceAll(table(row()), "\n", "\r")},
	})
}

func TestParseEncodings(t *testing.T) {
	decl := func(enc string) string { return `<?xml version="1.0" encoding="` + enc + `"?>` }
	body := func(name string) string {
		return `<informationTable ` + ns + `>` + row("nameOfIssuer", name) + `</informationTable>`
	}
	named := func(s string) []Row { return []Row{with(func(r *Row) { r.NameOfIssuer = s })} }
	runParseCases(t, []parseCase{
		{name: "ISO-8859-1", doc: decl("ISO-8859-1") + body("SOCI\xe9T\xe9 G\xe9N\xe9RALE"), want: named("SOCIéTé GéNéRALE")},
		{name: "latin1 label", doc: decl("latin1") + body("CAF\xc9"), want: named("CAFÉ")},
		{name: "windows-1252", doc: decl("windows-1252") + body("MOODY\x92S CORP"), want: named("MOODY’S CORP")},
		{name: "ISO-8859-1 with windows-1252 byte", doc: decl("iso-8859-1") + body("\x93A\x94 \x80"), want: named("“A” €")},
		{name: "US-ASCII", doc: decl("US-ASCII") + body("AT&amp;T INC"), want: named("AT&T INC")},
		{name: "UTF-8 non-ASCII", doc: decl("UTF-8") + body("NESTLÉ"), want: named("NESTLÉ")},
		{name: "utf8 label", doc: decl("utf8") + body("NESTLÉ"), want: named("NESTLÉ")},
		{name: "Shift_JIS", doc: decl("Shift_JIS") + body("\x83\x5c\x83\x6e"), want: named("ソハ")},
		{name: "unknown encoding", doc: decl("x-no-such-charset") + body("X"), wantErr: `infotable: xml: opening charset "x-no-such-charset"`},
		{name: "invalid UTF-8 undeclared", doc: body("SOCI\xe9T\xe9"), wantErr: "invalid UTF-8"},
	})
}

func TestParseFields(t *testing.T) {
	one := func(f func(r *Row)) []Row { return []Row{with(f)} }
	runParseCases(t, []parseCase{
		{name: "Put", doc: table(row("putCall", "Put")), want: one(func(r *Row) { r.PutCall = "PUT" })},
		{name: "PUT", doc: table(row("putCall", "PUT")), want: one(func(r *Row) { r.PutCall = "PUT" })},
		{name: "put padded", doc: table(row("putCall", " put\n")), want: one(func(r *Row) { r.PutCall = "PUT" })},
		{name: "Call", doc: table(row("putCall", "Call")), want: one(func(r *Row) { r.PutCall = "CALL" })},
		{name: "CALL", doc: table(row("putCall", "CALL")), want: one(func(r *Row) { r.PutCall = "CALL" })},
		{name: "cAlL", doc: table(row("putCall", "cAlL")), want: one(func(r *Row) { r.PutCall = "CALL" })},
		{name: "empty putCall", doc: table(row("putCall", "")), want: []Row{baseRow}},
		{name: "blank putCall", doc: table(row("putCall", "  ")), want: []Row{baseRow}},
		{name: "self-closing putCall", doc: table(strings.Replace(row(), "</investmentDiscretion>", "</investmentDiscretion><putCall/>", 1)), want: []Row{baseRow}},
		{name: "bad putCall", doc: table(row(), row("putCall", "Straddle")), wantErr: `infotable: row 2: putCall "Straddle" is neither Put nor Call`},
		{name: "sh lower", doc: table(row("sshPrnamtType", "sh")), want: []Row{baseRow}},
		{name: "Prn", doc: table(row("sshPrnamtType", "Prn")), want: one(func(r *Row) { r.ShPrn = "PRN" })},
		{name: "bad sshPrnamtType", doc: table(row("sshPrnamtType", "SHS")), wantErr: `infotable: row 1: sshPrnamtType "SHS" is neither SH nor PRN`},
		{name: "discretion upper-cased", doc: table(row("investmentDiscretion", " dfnd ")), want: one(func(r *Row) { r.InvestmentDiscretion = "DFND" })},
		{name: "figi and otherManager", doc: table(row("figi", "BBG000B9XRY4", "otherManager", " 1,2,4,11 ")),
			want: one(func(r *Row) { r.FIGI = "BBG000B9XRY4"; r.OtherManager = "1,2,4,11" })},
		{name: "missing optional elements", doc: table(row("titleOfClass", omit, "investmentDiscretion", omit, "Sole", omit, "Shared", omit, "None", omit)),
			want: one(func(r *Row) { r.TitleOfClass = ""; r.InvestmentDiscretion = ""; r.VotingSole = 0 })},
		{name: "empty voting children", doc: table(row("Sole", "", "Shared", " ", "None", "\n")), want: one(func(r *Row) { r.VotingSole = 0 })},
		{name: "no votingAuthority", doc: table(strings.Replace(row(), "<votingAuthority><Sole>10</Sole><Shared>0</Shared><None>0</None></votingAuthority>", "", 1)),
			want: one(func(r *Row) { r.VotingSole = 0 })},
		{name: "voting numbers", doc: table(row("Sole", "1", "Shared", "2,000", "None", "3.5")), want: one(func(r *Row) { r.VotingSole, r.VotingShared, r.VotingNone = 1, 2000, 4 })},
		{name: "lower-case CUSIP kept", doc: table(row("cusip", "78462f103")), want: one(func(r *Row) { r.CUSIP = "78462f103" })},
		{name: "entities", doc: table(row("nameOfIssuer", "FLOOR &amp; DECOR", "titleOfClass", "CL &apos;A&apos; &#233;&#x41;")),
			want: one(func(r *Row) { r.NameOfIssuer = "FLOOR & DECOR"; r.TitleOfClass = "CL 'A' éA" })},
		{name: "CDATA", doc: table(row("nameOfIssuer", "<![CDATA[ AT&T INC ]]>", "titleOfClass", "CL<![CDATA[ <A> ]]>")),
			want: one(func(r *Row) { r.NameOfIssuer = "AT&T INC"; r.TitleOfClass = "CL <A>" })},
		{name: "inner white space kept", doc: table(row("nameOfIssuer", "\n\t  BERKSHIRE  HATHAWAY\tINC \n")),
			want: one(func(r *Row) { r.NameOfIssuer = "BERKSHIRE  HATHAWAY\tINC" })},
		{name: "comment inside text", doc: table(row("nameOfIssuer", "APPLE<!-- x --> INC")), want: []Row{baseRow}},
		{name: "unknown elements ignored", doc: table(
			strings.NewReplacer("<cusip>", "<extra>7</extra><cusip>", "<Sole>", "<Other>9</Other><Sole>", "<sshPrnamt>", "<note><value>5</value></note><sshPrnamt>").Replace(row()),
			"<summary><infoTable><value>1</value></infoTable></summary>"),
			want: []Row{baseRow}},
		{name: "element inside field text ignored", doc: table(row("nameOfIssuer", "APPLE <b>X</b>INC")), want: []Row{baseRow}},
		{name: "comments and processing instructions", doc: "<!-- c -->" + table("<?pi x?>"+row()+"<!-- c -->"), want: []Row{baseRow}},
		{name: "empty table", doc: `<informationTable ` + ns + `/>`, want: []Row{}},
		{name: "empty table with white space", doc: table("\n  \n"), want: []Row{}},
		{name: "duplicate field", doc: table(strings.Replace(row(), "<value>", "<cusip>1</cusip><value>", 1)), wantErr: "infotable: row 1: cusip given twice"},
	})
}

func TestParseNumbers(t *testing.T) {
	value := func(n int64) []Row { return []Row{with(func(r *Row) { r.Value = n })} }
	runParseCases(t, []parseCase{
		{name: "thousands separators", doc: table(row("value", "1,234,567")), want: value(1234567)},
		{name: "decimal zero fraction", doc: table(row("value", "1234.00")), want: value(1234)},
		{name: "half rounds up", doc: table(row("value", "10.5")), want: value(11)},
		{name: "below half rounds down", doc: table(row("value", "10.49")), want: value(10)},
		{name: "surrounding white space", doc: table(row("value", "\n\t 42 \n")), want: value(42)},
		{name: "shares with comma and decimal", doc: table(row("sshPrnamt", "1,000.50")), want: []Row{with(func(r *Row) { r.Shares = 1001 })}},
		{name: "negative", doc: table(row("value", "-5")), wantErr: `infotable: row 1: value: negative number "-5"`},
		{name: "garbage", doc: table(row("sshPrnamt", "ten")), wantErr: `infotable: row 1: sshPrnamt: "ten" is not a number`},
		{name: "overflow", doc: table(row("Shared", "9223372036854775808")), wantErr: `infotable: row 1: Shared: number "9223372036854775808" is out of range`},
		{name: "empty value", doc: table(row("value", " ")), wantErr: "infotable: row 1: missing value"},
		{name: "empty sshPrnamt", doc: table(row("sshPrnamt", "")), wantErr: "infotable: row 1: missing sshPrnamt"},
	})
}

func TestParseNumber(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    int64
		wantErr string
	}{
		{in: "0", want: 0},
		{in: "007", want: 7},
		{in: "1,234,567", want: 1234567},
		{in: "123,456", want: 123456},
		{in: "1234.00", want: 1234},
		{in: "1234.", want: 1234},
		{in: ".5", want: 1},
		{in: ".4999", want: 0},
		{in: "10.5", want: 11},
		{in: "10.4999999", want: 10},
		{in: "2.50", want: 3},
		{in: "1,000.9", want: 1001},
		{in: "9223372036854775807", want: 9223372036854775807},
		{in: "9,223,372,036,854,775,807.4", want: 9223372036854775807},
		{in: "9223372036854775807.5", wantErr: `number "9223372036854775807.5" is out of range`},
		{in: "9223372036854775808", wantErr: `number "9223372036854775808" is out of range`},
		{in: "99999999999999999999", wantErr: `number "99999999999999999999" is out of range`},
		{in: "-1", wantErr: `negative number "-1"`},
		{in: "-0", wantErr: `negative number "-0"`},
		{in: "+1", wantErr: `"+1" is not a number`},
		{in: "", wantErr: `"" is not a number`},
		{in: ".", wantErr: `"." is not a number`},
		{in: ",", wantErr: `"," is not a number`},
		{in: "1,23", wantErr: `"1,23" is not a number`},
		{in: "1234,567", wantErr: `"1234,567" is not a number`},
		{in: ",123", wantErr: `",123" is not a number`},
		{in: "1,234,", wantErr: `"1,234," is not a number`},
		{in: "1.2.3", wantErr: `"1.2.3" is not a number`},
		{in: "1.5,0", wantErr: `"1.5,0" is not a number`},
		{in: "1e5", wantErr: `"1e5" is not a number`},
		{in: "1 000", wantErr: `"1 000" is not a number`},
		{in: "１２", wantErr: `"１２" is not a number`},
		{in: "N/A", wantErr: `"N/A" is not a number`},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := parseNumber(tc.in)
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if got != tc.want || gotErr != tc.wantErr {
				t.Errorf("parseNumber(%q) = %d, %q; want %d, %q", tc.in, got, gotErr, tc.want, tc.wantErr)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	nested := func(n int) string {
		return table(strings.Replace(row(), "<cusip>", strings.Repeat("<x>", n)+strings.Repeat("</x>", n)+"<cusip>", 1))
	}
	runParseCases(t, []parseCase{
		{name: "empty input", doc: "", wantErr: "infotable: empty document"},
		{name: "white space only", doc: " \n\t\ufeff\n", wantErr: "infotable: empty document"},
		{name: "text only", doc: "Not Found", wantErr: "infotable: no root element"},
		{name: "HTML page", doc: "<!DOCTYPE html>\n<html><head><title>Not Found</title></head><body><p>Not Found</p></body></html>",
			wantErr: "infotable: root element is <html>, want <informationTable>"},
		{name: "cover page", doc: `<?xml version="1.0" encoding="UTF-8"?><edgarSubmission xmlns="http://www.sec.gov/edgar/thirteenffiler"><headerData/></edgarSubmission>`,
			wantErr: "infotable: root element is <edgarSubmission>, want <informationTable>"},
		{name: "infoTable as root", doc: row(), wantErr: "infotable: root element is <infoTable>, want <informationTable>"},
		{name: "second root", doc: table(row()) + "<informationTable/>", wantErr: "infotable: element <informationTable> after the root element"},
		{name: "truncated", doc: strings.TrimSuffix(table(row(), row()), "</informationTable>\n")[:200], wantErr: "unexpected EOF"},
		{name: "mismatched tags", doc: table(strings.Replace(row(), "</cusip>", "</value>", 1)), wantErr: "infotable: XML syntax error"},
		{name: "undefined entity", doc: table(row("nameOfIssuer", "A&nbsp;B")), wantErr: "infotable: XML syntax error"},
		{name: "missing nameOfIssuer", doc: table(row(), row("nameOfIssuer", omit)), wantErr: "infotable: row 2: missing nameOfIssuer"},
		{name: "missing cusip", doc: table(row(), row(), row("cusip", omit)), wantErr: "infotable: row 3: missing cusip"},
		{name: "missing value", doc: table(row("value", omit)), wantErr: "infotable: row 1: missing value"},
		{name: "missing sshPrnamt", doc: table(row("sshPrnamt", omit)), wantErr: "infotable: row 1: missing sshPrnamt"},
		{name: "missing sshPrnamtType", doc: table(row("sshPrnamtType", omit)), wantErr: "infotable: row 1: missing sshPrnamtType"},
		{name: "depth 64 accepted", doc: nested(62), want: []Row{baseRow}},
		{name: "depth 65 rejected", doc: nested(63), wantErr: "infotable: elements nested deeper than 64"},
		{name: "deep nesting rejected", doc: table(strings.Repeat("<x>", 100000)), wantErr: "infotable: elements nested deeper than 64"},
	})
}

func TestParseKeep(t *testing.T) {
	doc := table(row("nameOfIssuer", "A", "value", "1"), row("nameOfIssuer", "B", "value", "2"),
		row("nameOfIssuer", "C", "value", "3"), row("nameOfIssuer", "D", "value", "4"), row("nameOfIssuer", "E", "value", "5"))
	named := func(name string, v int64) Row { return with(func(r *Row) { r.NameOfIssuer, r.Value = name, v }) }
	for _, tc := range []struct {
		name string
		drop string // names of the rows keep declines
		want []Row
	}{
		{name: "nil keep", drop: "", want: []Row{named("A", 1), named("B", 2), named("C", 3), named("D", 4), named("E", 5)}},
		{name: "drop B and D", drop: "BD", want: []Row{named("A", 1), named("C", 3), named("E", 5)}},
		{name: "drop first and last", drop: "AE", want: []Row{named("B", 2), named("C", 3), named("D", 4)}},
		{name: "drop all", drop: "ABCDE", want: []Row{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var seen []Row
			var keep func(*Row) bool
			if tc.drop != "" {
				keep = func(r *Row) bool {
					seen = append(seen, *r)
					return !strings.Contains(tc.drop, r.NameOfIssuer)
				}
			}
			got, err := Parse([]byte(doc), keep)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
			// Dropped rows must not linger in the spare capacity either.
			for _, r := range got[:cap(got)] {
				if r.NameOfIssuer != "" && strings.Contains(tc.drop, r.NameOfIssuer) {
					t.Errorf("dropped row %q found in result backing array", r.NameOfIssuer)
				}
			}
			// keep sees every row, complete, in document order.
			if tc.drop != "" {
				if diff := cmp.Diff([]Row{named("A", 1), named("B", 2), named("C", 3), named("D", 4), named("E", 5)}, seen); diff != "" {
					t.Errorf("rows passed to keep (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(table(row(), row("putCall", "Put", "value", "1,234.5"))))
	f.Add([]byte(table()))
	f.Add([]byte(`<?xml version="1.0" encoding="ISO-8859-1"?><informationTable>` + row("nameOfIssuer", "\xe9") + `</informationTable>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, err := Parse(data, nil)
		if err != nil {
			return
		}
		got, err := Decode(AppendEncoded(nil, rows, Tally{}))
		if err != nil {
			t.Fatalf("Decode: %v", err)
		}
		if diff := cmp.Diff(rows, got); diff != "" {
			t.Errorf("round trip (-parsed +decoded):\n%s", diff)
		}
	})
}
