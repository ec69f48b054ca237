package sections

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestToText(t *testing.T) {
	for _, tc := range []struct{ name, html, want string }{
		{"blocks end lines", `<div>a</div><div>b<br/>c</div><p>d</p>e`, "a\nb\nc\nd\ne"},
		{"inline elements join", `<div>Net <span>sales</span><b>!</b></div>`, "Net sales!"},
		{"white space collapsed", "<p>  a \n\t b&#160;&#160;c\u2003d </p>", "a b c d"},
		{"entities decoded", `<p>Management&#8217;s &amp; &quot;x&quot; &lt;y&gt; &#x2014;</p>`, "Management’s & \"x\" <y> —"},
		{"ix:header dropped", `<div style="display:none"><ix:header><ix:hidden>false</ix:hidden></ix:header></div><p>kept</p>`, "kept"},
		{"ix:header dropped without a hidden div", `<ix:header><ix:resources>ctx</ix:resources></ix:header><p>kept</p>`, "kept"},
		{"hidden elements dropped", `<div style="DISPLAY: none"><div>x</div><div>y</div></div><p>kept</p><span style="display:none">z</span>`, "kept\nz"},
		{"script and style dropped", `<style>p{}</style><script>var x</script><p>kept</p>`, "kept"},
		{"table row", `<table><tr><td>a</td><td></td><td/><td>b</td><td> </td><td>c</td></tr></table>`, "a | b | c"},
		{"dollar and parentheses join their number", `<table><tr><td>Net</td><td>$</td><td>1,234</td><td>(</td><td>56</td><td>)</td><td>41.2</td><td>%</td></tr></table>`, "Net | $1,234 | (56) | 41.2%"},
		{"cell with blocks", `<table><tr><td><p>a</p><p>b</p></td><td>c</td></tr></table>`, "a b | c"},
		{"nested table joins its cell", `<table><tr><td>x<table><tr><td>a</td><td>b</td></tr></table></td><td>c</td></tr></table>`, "x a | b | c"},
		{"row outside a table", `<tr><td>Item 1A.</td><td>Risk Factors</td></tr><tr><td>Item 2.</td></tr>`, "Item 1A. | Risk Factors\nItem 2."},
		{"pre keeps lines", "<pre>a  b\nc\n\nd</pre>e", "a b\nc\nd\ne"},
		{"zero width dropped", "<p>a\u200bb\u00adc</p>", "abc"},
		{"upper-case tags", `<P>a<BR>b</P><TABLE><TR><TD>c</TD><TD>d</TD></TR></TABLE>`, "a\nb\nc | d"},
	} {
		got, _ := toText([]byte(tc.html))
		if got != tc.want {
			t.Errorf("%s: toText(%q) = %q, want %q", tc.name, tc.html, got, tc.want)
		}
	}
}

func TestToTextFlags(t *testing.T) {
	_, lines := toText([]byte(`<table><tr><td><a href="#i1">Item 1.</a></td><td>Business</td></tr></table>` +
		`<p><a href="https://example.com/">Item 2.</a></p><hr style="page-break-after:always"/><p>x</p>` +
		`<div style="break-before:page">y</div>` +
		`<div style="page-break-after: always"><div>z</div><div>w</div></div><p>v</p>`))
	want := []uint8{flagLink | flagRow, 0, flagBreak, flagBreak, 0, 0, flagBreak}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d", len(lines), len(want))
	}
	for i, l := range lines {
		if l.flags != want[i] {
			t.Errorf("line %d flags %b, want %b", i, l.flags, want[i])
		}
	}
}

func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		name string
		doc  string
		want string
	}{
		{"UTF-8 undeclared", "<p>Caf\xc3\xa9</p>", "Café"},
		{"Windows-1252 undeclared", "<p>Caf\xe9 \x93x\x94 \x96</p>", "Café “x” –"},
		{"declared ISO-8859-1 meta", `<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"><p>Caf` + "\xe9</p>", "Café"},
		{"declared in the XML declaration", `<?xml version="1.0" encoding="windows-1252"?><p>` + "\x92</p>", "’"},
		{"declared ASCII holding UTF-8", `<?xml version='1.0' encoding='ASCII'?><p>` + "\xe2\x80\x99</p>", "’"},
		{"byte-order mark", "\xef\xbb\xbf<p>\xc3\xa9</p>", "é"},
	} {
		got, _ := toText([]byte(tc.doc))
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestFurniture(t *testing.T) {
	page := func(body, n string) string {
		return `<p>` + body + `</p><div style="text-align:center">Acme | Form 10-K | ` + n + `</div><hr style="page-break-after:always"/>`
	}
	const cut = "The third page ends in the middle of a sentence that the next page"
	doc := page("One.", "1") + `<div>Table of Contents</div>` + page("Two", "2") + page(cut, "3") + page("goes on with.", "4") + `<p>Item 5</p>`
	got, _ := dropFurniture(toText([]byte(doc)))
	// The footers go; "Table of Contents" stays (it is no link); the
	// sentence cut by the page break is one line again.
	want := "One.\nTable of Contents\nTwo\n" + cut + " goes on with.\nItem 5"
	if got != want {
		t.Errorf("dropFurniture:\n%s\nwant\n%s", got, want)
	}
	// Two footers are not enough to call a line a running footer.
	got, _ = dropFurniture(toText([]byte(page("one", "1") + page("two", "2"))))
	if want := "one\nAcme | Form 10-K | 1\ntwo\nAcme | Form 10-K | 2"; got != want {
		t.Errorf("dropFurniture, two pages: %q, want %q", got, want)
	}
}

func TestSectionLimits(t *testing.T) {
	d := parseFile(t, "10-K", appleDoc, opts{})
	full, err := d.Section(Item{Number: "1A"}, MaxMaxChars)
	if err != nil {
		t.Fatal(err)
	}
	if full.Truncated || utf8.RuneCountInString(full.Text) != full.Chars {
		t.Fatalf("Item 1A: truncated %v, %d chars of %d", full.Truncated, utf8.RuneCountInString(full.Text), full.Chars)
	}
	def, err := d.Section(Item{Number: "1A"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if n := utf8.RuneCountInString(def.Text); !def.Truncated || n > DefaultMaxChars || n < DefaultMaxChars-200 || !strings.HasPrefix(full.Text, def.Text) {
		t.Errorf("Item 1A, default limit: truncated %v, %d chars", def.Truncated, n)
	}
	if def.Chars != full.Chars || def.Title != "Risk Factors" {
		t.Errorf("Item 1A, default limit: Chars %d Title %q", def.Chars, def.Title)
	}
	one, err := d.Section(Item{Number: "1A"}, 1)
	if err != nil || one.Text != "I" || !one.Truncated {
		t.Errorf("Section(1A, 1) = %+v, %v", one, err)
	}
	short, err := d.Section(Item{Number: "1B"}, 0)
	if err != nil || short.Truncated || short.Text != "Item 1B. Unresolved Staff Comments\nNone." {
		t.Errorf("Section(1B) = %+v, %v", short, err)
	}
	for _, n := range []int{-1, MaxMaxChars + 1} {
		if _, err := d.Section(Item{Number: "1A"}, n); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("Section(1A, %d) error %v, want ErrInvalidArgument", n, err)
		}
	}
}

func TestSectionNotFound(t *testing.T) {
	acme := parseFile(t, "10-Q", acmeDoc, opts{})
	// A 10-Q's Part matters: I-2 and II-2 are different sections.
	s1, err1 := acme.Section(Item{Part: "I", Number: "2"}, 0)
	s2, err2 := acme.Section(Item{Part: "II", Number: "2"}, 0)
	if err1 != nil || err2 != nil || s1.Title == s2.Title {
		t.Errorf("I-2 %q (%v), II-2 %q (%v)", s1.Title, err1, s2.Title, err2)
	}
	beta := parseFile(t, "10-Q", betaDoc, opts{})
	_, err := beta.Section(Item{Part: "II", Number: "2"}, 0)
	var nf *NotFoundError
	if !errors.As(err, &nf) || nf.Reason != ReasonAbsent || len(nf.Found) != 7 {
		t.Fatalf("Beta II-2: %v, want ReasonAbsent listing 7 items", err)
	}
	want := "sections: item II-2 not found in this 10-Q; it has items I-1, I-2, I-3, I-4, II-1, II-1A, II-6"
	if err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	empty, err := Parse("10-K", []byte("<p>Nothing here.</p>"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := empty.Section(Item{Number: "7"}, 0); !errors.As(err, &nf) || nf.Reason != ReasonNoHeadings {
		t.Errorf("no headings: %v", err)
	}
	if _, err := Parse("8-K", nil); !errors.Is(err, ErrSectionNotFound) {
		t.Errorf("Parse(8-K) error %v", err)
	}
}

// TestHeadingRules: the line rules on small documents.
func TestHeadingRules(t *testing.T) {
	for _, tc := range []struct {
		name, form, html string
		want             string // "item=title" of the sections found, in order
	}{
		{"heading and text on one line",
			"10-K", `<p>Item 3. Legal Proceedings</p><p>None.</p><p>ITEM 4. MINE SAFETY DISCLOSURES Not applicable.</p><p>Item 5. Market for Registrant’s Common Equity, Related Stockholder Matters and Issuer Purchases of Equity Securities Our common stock trades on the Nasdaq Global Select Market under the symbol ACME, and we have never paid a dividend on it.</p>`,
			"3=Legal Proceedings 4=MINE SAFETY DISCLOSURES Not applicable. 5=Market for Registrant’s Common Equity, Related Stockholder Matters and Issuer Purchases of Equity Securities"},
		{"cross-references at the start of a line",
			"10-K", `<p>Item 7. Management's Discussion</p><p>Item 1A of this Form 10-K lists risks.</p><p>Item 8 below holds the statements.</p><p>Item 1A. Risk Factors in our prior report are unchanged and need no further comment here today.</p><p>Items 1 and 2 are combined.</p><p>Item 2.02 Results of Operations</p><p>Item 601(b)(4) of Regulation S-K</p>`,
			"7=Management's Discussion"},
		{"Part prefix and separators",
			"10-Q", `<p>Part I, Item 2 &#8212; MD&amp;A</p><p>text</p><p>PART II - ITEM 1A: RISK FACTORS</p><p>text</p><p>Item 6 | Exhibits</p>`,
			"I-2=MD&A II-1A=RISK FACTORS II-6=Exhibits"},
		{"a heading without a letter boundary is no heading",
			"10-K", `<p>Item 1Business</p><p>Itemized deductions</p><p>Item 7A. Quantitative</p>`,
			"7A=Quantitative"},
		{"combined headings",
			"10-K", `<p>Items 1 and 2. Business and Properties</p><p>We make anvils in Ohio.</p><p>Item 1A. Risk Factors</p><p>Anvils fall.</p><p>ITEMS 10, 11 &amp; 12 - DIRECTORS AND EXECUTIVE OFFICERS</p><p>See the proxy.</p><p>Items 7 and 8 of this report hold the statements.</p>`,
			"1=Business and Properties 2=Business and Properties 1A=Risk Factors 10=DIRECTORS AND EXECUTIVE OFFICERS 11=DIRECTORS AND EXECUTIVE OFFICERS 12=DIRECTORS AND EXECUTIVE OFFICERS"},
		{"unknown items end the one before",
			"10-K", `<p>Item 4. Mine Safety Disclosures</p><p>Not applicable.</p><p>Item 4A. Executive Officers</p><p>Tim Cook</p><p>Item 5. Market</p>`,
			"4=Mine Safety Disclosures 4A=Executive Officers 5=Market"},
		{"a title in sentence case or in other words of its own",
			"10-K", `<p>Item 6. Reserved</p><p>Item 7. Management’s discussion and analysis of results of operations and financial condition</p><p>Organization.</p><p>Item 7. Management’s discussion and analysis of our results appears above.</p><p>Item 12. Security Ownership of Certain Beneficial Owners and Management and Related Shareholder Matters</p><p>See the proxy.</p>`,
			"6=Reserved 7=Management’s discussion and analysis of results of operations and financial condition 12=Security Ownership of Certain Beneficial Owners and Management and Related Shareholder Matters"},
		{"a 10-Q title in other words of its own",
			"10-Q", `<p>PART II</p><p>Item 1. Legal Proceedings</p><p>None.</p><p>Item 2. Unregistered Sales of Equity Securities, Use of Proceeds, and Issuer Purchases of Equity Securities</p><p>None.</p><p>Item 2. Unregistered sales of shares to our founders are described in Note 4.</p>`,
			"II-1=Legal Proceedings II-2=Unregistered Sales of Equity Securities, Use of Proceeds, and Issuer Purchases of Equity Securities"},
		{"a page header joining the table-of-contents link and the Part",
			"10-K", `<p>Item 4. Mine Safety Disclosures</p><p>None.</p><p><a href="#toc">Table of Contents</a> PART II</p><p>Item 5. Market</p><p>table of contents | Part III</p><p>Item 10. Directors</p>`,
			"4=Mine Safety Disclosures 5=Market 10=Directors"},
		{"a Part heading of another Part ends a section",
			"10-K", `<p>Item 9C. Disclosure Regarding Foreign Jurisdictions</p><p>None.</p><p>PART III</p><p>Certain information is incorporated by reference.</p><p>Item 10. Directors</p>`,
			"9C=Disclosure Regarding Foreign Jurisdictions 10=Directors"},
	} {
		d, err := Parse(tc.form, []byte(tc.html))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range d.sections {
			got = append(got, s.item.String()+"="+s.title)
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("%s: sections %s, want %s", tc.name, g, tc.want)
		}
	}
	// The section of Item 4 ends before "Table of Contents PART II", that of
	// Item 5 before "table of contents | Part III".
	d, _ := Parse("10-K", []byte(`<p>Item 4. Mine Safety Disclosures</p><p>None.</p><p><a href="#toc">Table of Contents</a> PART II</p><p>Item 5. Market</p><p>None.</p><p>table of contents | Part III</p><p>Item 10. Directors</p>`))
	for _, tc := range []struct{ item, text string }{{"4", "Item 4. Mine Safety Disclosures\nNone."}, {"5", "Item 5. Market\nNone."}} {
		if s, err := d.Section(Item{Number: tc.item}, 0); err != nil || s.Text != tc.text {
			t.Errorf("%s = %+v, %v", tc.item, s, err)
		}
	}
	// The section of 9C ends before "PART III".
	d, _ = Parse("10-K", []byte(`<p>Item 9C. Foreign</p><p>None.</p><p>PART III</p><p>Intro.</p><p>Item 10. Directors</p>`))
	if s, err := d.Section(Item{Number: "9C"}, 0); err != nil || s.Text != "Item 9C. Foreign\nNone." {
		t.Errorf("9C = %+v, %v", s, err)
	}
}
