package sections

import (
	"errors"
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParse checks that Parse never panics on any bytes and that what it
// finds keeps the documented shapes: sections in document order, each a
// piece of the text starting at its heading line, no longer than the limit
// asked for; Sections agreeing with Items. Seeds: the synthetic 10-Qs and
// 10-K, the GE fragment and small pieces.
func FuzzParse(f *testing.F) {
	for _, p := range []string{acmeDoc, betaDoc, geFragment, riverbendDoc} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, false)
	}
	f.Add([]byte(`<p>Item 1. Business</p><table><tr><td>$<td>(<td>1<td>)</table><pre>Item 2.`), false)
	f.Add([]byte("<div style='display:none'><ix:header>\x00</div><p>PART II</p><p>Item 1A. Risk Factors</p>"), true)
	f.Fuzz(func(t *testing.T, doc []byte, quarterly bool) {
		form := "10-K"
		if quarterly {
			form = "10-Q"
		}
		d, err := Parse(form, doc)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		text := d.Text()
		if !utf8.ValidString(text) && utf8.Valid(doc) {
			t.Errorf("text of valid UTF-8 is not UTF-8")
		}
		lines := strings.Split(text, "\n")
		last := -1
		for _, it := range d.Items() {
			s, err := d.Section(it, 50)
			if err != nil {
				t.Fatalf("Section(%s): %v", it, err)
			}
			if s.Line < last || s.Line >= len(lines) { // a combined heading ("Items 1 and 2") starts two sections
				t.Errorf("Section(%s) at line %d after line %d of %d", it, s.Line, last, len(lines))
			}
			last = s.Line
			if n := utf8.RuneCountInString(s.Text); n > 50 || s.Truncated != (s.Chars > 50) || !s.Truncated && n != s.Chars {
				t.Errorf("Section(%s): %d chars of %d, truncated %v", it, n, s.Chars, s.Truncated)
			}
			if !strings.HasPrefix(lines[s.Line], s.Text) && !strings.HasPrefix(s.Text, lines[s.Line]) {
				t.Errorf("Section(%s) does not start at its line", it)
			}
		}
		// Sections gives every Item whole, in the order of Items.
		secs := d.Sections()
		if len(secs) != len(d.Items()) {
			t.Errorf("Sections() has %d sections for %d items", len(secs), len(d.Items()))
		}
		for i, s := range secs {
			if i < len(d.Items()) && s.Item != d.Items()[i] || s.Truncated || s.Chars != utf8.RuneCountInString(s.Text) ||
				s.Line >= len(lines) || !strings.HasPrefix(s.Text, lines[s.Line]) {
				t.Errorf("Sections()[%d] = Item %s at line %d, %d chars, truncated %v", i, s.Item, s.Line, s.Chars, s.Truncated)
			}
		}
		if _, err := d.Section(Item{Part: "II", Number: "6"}, 0); err != nil && !errors.Is(err, ErrSectionNotFound) {
			t.Errorf("Section(II-6): %v", err)
		}
	})
}
