package sections

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// readDoc returns a document's bytes, gunzipped when its name ends in .gz.
func readDoc(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(path, ".gz") {
		return b
	}
	z, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	b, err = io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The Items of each form, in order.
var (
	tenKItems = strings.Fields("1 1A 1B 1C 2 3 4 5 6 7 7A 8 9 9A 9B 9C 10 11 12 13 14 15 16")
	tenQItems = strings.Fields("I-1 I-2 I-3 I-4 II-1 II-1A II-2 II-3 II-4 II-5 II-6")
)

// A realReport is one real primary document and what a reader sees in it.
type realReport struct {
	name, form, path string
	// missing are the Items of the form the report has no heading for,
	// each with the reason.
	missing map[string]string
	// phrases overrides itemPhrases for this report: the phrase an Item's
	// body holds ("" for none).
	phrases map[string]string
	// minBody overrides itemMinBody for this report.
	minBody map[string]int
}

// The reports of testdata (Apple's and NVIDIA's 10-Ks sit in the mirror).
var realReports = []realReport{
	{name: "Apple 10-K 2024-11-01", form: "10-K", path: appleDoc},
	{name: "NVIDIA 10-K 2025-02-26", form: "10-K", path: nvidiaDoc,
		// Item 8 is one sentence pointing to the statements, which sit
		// under Item 15.
		phrases: map[string]string{"8": "consolidated financial statements and notes", "15": "consolidated balance sheets"},
		minBody: map[string]int{"8": 100, "15": 50000}},
	{name: "Johnson & Johnson 10-K 2025-02-13", form: "10-K", path: documents + "jnj-10-k-2025-02-13.htm.gz"},
	{name: "Tesla 10-K 2025-01-30", form: "10-K", path: documents + "tsla-10-k-2025-01-30.htm.gz"},
	{name: "Tesla 10-K/A 2025-04-30", form: "10-K/A", path: documents + "tsla-10-k-2025-04-30.htm.gz",
		missing: except(tenKItems, "10 11 12 13 14 15", "the amendment restates Part III (and Item 15) only"),
		// Part III written out, not incorporated from a proxy statement.
		phrases: map[string]string{"10": "audit committee", "11": "compensation discussion and analysis", "12": "beneficial owner",
			"13": "related person", "14": "audit fees", "15": "exhibit"},
		minBody: map[string]int{"10": 5000, "11": 20000, "12": 2000, "13": 2000, "14": 1000}},
	{name: "Walmart 10-K 2025-03-14", form: "10-K", path: documents + "wmt-10-k-2025-03-14.htm.gz"},
	{name: "Apple 10-Q 2025-08-01", form: "10-Q", path: documents + "aapl-10-q-2025-08-01.htm.gz"},
	{name: "Johnson & Johnson 10-Q 2025-07-24", form: "10-Q", path: documents + "jnj-10-q-2025-07-24.htm.gz",
		missing: map[string]string{
			"II-1A": "the report points to the 10-K's risk factors from its forward-looking statements, without an Item 1A",
			"II-3":  "omitted: nothing to report", "II-4": "omitted: nothing to report"}},
	{name: "NVIDIA 10-Q 2025-08-27", form: "10-Q", path: documents + "nvda-10-q-2025-08-27.htm.gz",
		missing: map[string]string{"II-3": "omitted: nothing to report", "II-4": "omitted: nothing to report"}},
	{name: "Tesla 10-Q 2025-07-24", form: "10-Q", path: documents + "tsla-10-q-2025-07-24.htm.gz"},
}

// except returns every item of all but those of keep, each with the reason.
func except(all []string, keep, reason string) map[string]string {
	m := map[string]string{}
	for _, it := range all {
		if !strings.Contains(" "+keep+" ", " "+it+" ") {
			m[it] = reason
		}
	}
	return m
}

// itemPhrases: a phrase (lower case) the body of an Item holds in any
// report, showing that the text is that Item's.
var itemPhrases = map[string]string{
	"1": "compet", "1A": "risk", "1C": "cybersecurity", "2": "facilit", "5": "common stock",
	"7": "liquidity", "7A": "risk", "8": "balance sheet", "9A": "disclosure controls",
	"10": "proxy statement", "11": "proxy statement", "12": "proxy statement", "13": "proxy statement",
	"14": "proxy statement", "15": "exhibit",
	"I-1": "balance sheet", "I-2": "liquidity", "I-3": "risk", "I-4": "disclosure controls",
	"II-1A": "risk", "II-6": "exhibit",
}

// itemMinBody: the fewest characters an Item's body (the text after its
// heading line) has in any report that has real content there.
var itemMinBody = map[string]int{
	"1": 10000, "1A": 20000, "7": 10000, "8": 20000, "9A": 1000,
	"I-1": 10000, "I-2": 10000, "II-1A": 500,
}

// TestRealReports checks every Item of every real report: which Items are
// found, that each section starts at its heading, holds a phrase of its
// Item, is not empty or absurdly short, holds no heading of another Item
// and does not overlap the next one.
func TestRealReports(t *testing.T) {
	for _, r := range realReports {
		t.Run(r.name, func(t *testing.T) {
			d, err := Parse(r.form, readDoc(t, r.path))
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range checkReport(d, r) {
				t.Error(p)
			}
		})
	}
}

func checkReport(d *Document, r realReport) []string {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	all := tenKItems
	if d.kind == Quarterly {
		all = tenQItems
	}
	var want []string
	for _, it := range all {
		if _, ok := r.missing[it]; !ok {
			want = append(want, it)
		}
	}
	var got []string
	for _, it := range d.Items() {
		got = append(got, it.String())
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		bad("Items() = %v, want %v", got, want)
	}
	secs := d.Sections()
	if len(secs) != len(got) {
		bad("Sections() has %d sections for %d items", len(secs), len(got))
	}
	lines := strings.Split(d.Text(), "\n")
	end := 0 // the line after the last section
	for i, s := range secs {
		it := s.Item.String()
		if i < len(got) && it != got[i] {
			bad("Sections()[%d] is Item %s, Items()[%d] is %s", i, it, i, got[i])
		}
		one, err := d.Section(s.Item, MaxMaxChars)
		if err != nil {
			bad("Section(%s): %v", it, err)
			continue
		}
		if s.Truncated || s.Chars != utf8.RuneCountInString(s.Text) || !strings.HasPrefix(s.Text, one.Text) || s.Line != one.Line {
			bad("Item %s: Sections() gives %d chars at line %d, truncated %v; Section gives %d at line %d", it, s.Chars, s.Line, s.Truncated, one.Chars, one.Line)
		}
		head, body, _ := strings.Cut(s.Text, "\n")
		if !isHeadingOf(head, s.Item) {
			bad("Item %s: text starts %.80q, not with its heading", it, head)
		}
		if s.Line < end {
			bad("Item %s starts at line %d, inside the section before (to line %d)", it, s.Line, end)
		}
		n := strings.Count(s.Text, "\n") + 1
		if s.Line+n > len(lines) || strings.Join(lines[s.Line:s.Line+n], "\n") != s.Text {
			bad("Item %s: text is not lines %d to %d of the document", it, s.Line, s.Line+n)
		}
		end = s.Line + n
		for _, l := range strings.Split(body, "\n") {
			if other, ok := headingLike(l); ok {
				bad("Item %s holds the heading %.80q of Item %s", it, l, other)
			}
			if isSignatures(l) {
				bad("Item %s runs into the signatures", it)
			}
		}
		low := strings.ToLower(body)
		phrase, ok := r.phrases[it]
		if !ok {
			phrase = itemPhrases[it]
		}
		if !strings.Contains(low, phrase) {
			bad("Item %s: body lacks %q: %.200q", it, phrase, body)
		}
		min, ok := r.minBody[it]
		if !ok {
			min = itemMinBody[it]
		}
		reserved := strings.Contains(strings.ToLower(head), "reserved")
		switch n := utf8.RuneCountInString(body); {
		case min == 0 && n == 0 && !reserved:
			bad("Item %s is a heading without text", it)
		case n < min:
			bad("Item %s: body of %d chars, want at least %d", it, n, min)
		}
	}
	return problems
}

// isHeadingOf reports whether line is a heading of item: "Item 7.",
// "ITEM 1A. | RISK FACTORS", "Item 2 — Management's ...".
func isHeadingOf(line string, item Item) bool {
	if !hasPrefixFold(line, "item ") {
		return false
	}
	rest := strings.TrimLeft(line[5:], " ")
	if !strings.HasPrefix(strings.ToUpper(rest), item.Number) {
		return false
	}
	rest = rest[len(item.Number):]
	return rest == "" || !isDigit(rest[0]) && !isLetter(rest[0])
}

// headingLike reports whether line reads as an Item heading (label and a
// capitalised title, a short line), independently of the package's rules,
// and returns the label's number.
func headingLike(line string) (string, bool) {
	if len(line) > 200 || !hasPrefixFold(line, "item ") {
		return "", false
	}
	rest := strings.TrimLeft(line[5:], " ")
	n := 0
	for n < len(rest) && isDigit(rest[n]) {
		n++
	}
	if n == 0 || n > 2 {
		return "", false
	}
	if n < len(rest) && rest[n] >= 'A' && rest[n] <= 'C' {
		n++
	}
	title := strings.TrimLeft(rest[n:], " .:|—–-")
	r, _ := utf8.DecodeRuneInString(title)
	if title == rest[n:] || !unicode.IsUpper(r) {
		return "", false
	}
	return rest[:n], true
}
