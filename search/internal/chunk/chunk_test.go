package chunk

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"unicode"

	"github.com/edgar13f/edgar13f/internal/edgartest/edgarfiles"
	"github.com/edgar13f/edgar13f/internal/sections"
	"pgregory.net/rapid"
)

var (
	mirror    = edgarfiles.Mirror + "/www.sec.gov/Archives/edgar/data/"
	appleDoc  = mirror + "320193/000032019324000123/aapl-20240928.htm"
	nvidiaDoc = mirror + "1045810/000104581025000023/nvda-20250126.htm"
)

// TestID pins the chunk id format against sha1sum:
// echo -n "0000320193-24-000123|1A|0" | sha1sum.
func TestID(t *testing.T) {
	for _, tc := range []struct {
		index int
		want  string
	}{{0, "443fff79f7fd412b"}, {1, "41f0aaa0f9ec2aa2"}} {
		if got := ID("0000320193-24-000123", "1A", tc.index); got != tc.want {
			t.Errorf("ID(\"0000320193-24-000123\", \"1A\", %d) = %q; want %q", tc.index, got, tc.want)
		}
	}
}

// checkPieces checks what Split promises of pieces cut from text with the
// limits max and overlap, and reports the first broken promise.
func checkPieces(text string, max, overlap int, pieces []Piece) error {
	own := 0 // where the next piece's own text may start
	for k, p := range pieces {
		if p.Index != k {
			return fmt.Errorf("piece %d has Index %d", k, p.Index)
		}
		if p.Start < 0 || p.End > len(text) || p.Start >= p.End || text[p.Start:p.End] != p.Text {
			return fmt.Errorf("piece %d: Text is not text[%d:%d]", k, p.Start, p.End)
		}
		if n := Count(p.Text); n != p.Tokens {
			return fmt.Errorf("piece %d: Tokens = %d; Count(Text) = %d", k, p.Tokens, n)
		}
		if p.Tokens > max {
			return fmt.Errorf("piece %d has %d tokens; the limit is %d:\n%s", k, p.Tokens, max, p.Text)
		}
		if strings.TrimSpace(p.Text) != p.Text {
			return fmt.Errorf("piece %d starts or ends with white space: %q", k, p.Text)
		}
		ownStart := p.Start + p.Overlap
		if k == 0 && p.Overlap != 0 {
			return fmt.Errorf("first piece has overlap %d", p.Overlap)
		}
		// Only white space between one piece's own text and the next's.
		if gap := text[own:ownStart]; strings.TrimSpace(gap) != "" {
			return fmt.Errorf("piece %d skips %q", k, gap)
		}
		if isSpaceAt(text, ownStart) {
			return fmt.Errorf("piece %d: own text starts with white space", k)
		}
		if p.Overlap > 0 {
			prev := pieces[k-1]
			rep := strings.TrimRightFunc(p.Text[:p.Overlap], unicode.IsSpace)
			if p.Start < prev.Start+prev.Overlap || p.Start+len(rep) != prev.End {
				return fmt.Errorf("piece %d: overlap %q is not the end of piece %d's own text", k, rep, k-1)
			}
			if n := Count(rep); n > overlap {
				return fmt.Errorf("piece %d: overlap of %d tokens; the most is %d: %q", k, n, overlap, rep)
			}
			// A table row that fits the limit is repeated whole or not at all.
			ls := strings.LastIndexByte(text[:p.Start], '\n') + 1
			le := strings.IndexByte(text[p.Start:], '\n')
			if le < 0 {
				le = len(text)
			} else {
				le += p.Start
			}
			if a, b := trim(text, ls, le); a < p.Start && isRow(text[a:b]) && Count(text[a:b]) <= max {
				return fmt.Errorf("piece %d: overlap %q starts inside the row %q", k, rep, text[a:b])
			}
		}
		own = p.End
	}
	if rest := text[own:]; strings.TrimSpace(rest) != "" {
		return fmt.Errorf("the pieces leave out the end %q", rest)
	}
	// A line that fits the limit lies whole in one piece's own text.
	at := 0
	for _, line := range strings.SplitAfter(text, "\n") {
		a, b := trim(text, at, at+len(line))
		at += len(line)
		if a == b || Count(text[a:b]) > max {
			continue
		}
		whole := false
		for _, p := range pieces {
			if p.Start+p.Overlap <= a && b <= p.End {
				whole = true
				break
			}
		}
		if !whole {
			return fmt.Errorf("line %q (%d tokens) is cut", text[a:b], Count(text[a:b]))
		}
	}
	return nil
}

// genText draws text of the kinds an Item holds: prose lines of
// sentences (some longer than any limit), headings, bullets, table rows
// (some with long cells), blank and indented lines, and lines of
// arbitrary characters.
func genText(t *rapid.T) string {
	words := rapid.SampledFrom([]string{
		"the", "Company", "net", "sales", "increased", "during", "2024", "U.S.", "Inc.", "No.",
		"$1,234.5", "(4)%", "iPhone", "café", "お誕生日", "risk", "“quoted”", "e.g.", "don't",
		"—", "a", "of", "to", "and", "tariffs", "export", "controls", "China", "12.5%", "|",
	})
	longWord := rapid.StringMatching(`[A-Za-z0-9+/=]{40,900}`)
	word := func() string {
		if rapid.IntRange(0, 60).Draw(t, "long") == 0 {
			return longWord.Draw(t, "longword")
		}
		return words.Draw(t, "word")
	}
	sentence := func() string {
		n := rapid.IntRange(1, 30).Draw(t, "words")
		ws := []string{strings.ToUpper(word()[:1]) + "x"}
		for range n {
			ws = append(ws, word())
		}
		return strings.Join(ws, " ") + rapid.SampledFrom([]string{".", "!", "?", ".”", ";", ""}).Draw(t, "end")
	}
	var lines []string
	for range rapid.IntRange(0, 30).Draw(t, "lines") {
		var line string
		switch rapid.IntRange(0, 9).Draw(t, "kind") {
		case 0, 1, 2:
			var ss []string
			for range rapid.IntRange(1, 12).Draw(t, "sentences") {
				ss = append(ss, sentence())
			}
			line = strings.Join(ss, rapid.SampledFrom([]string{" ", "  ", " \t"}).Draw(t, "sep"))
		case 3:
			line = strings.Join(strings.Fields(sentence())[:1], " ")
		case 4:
			line = "•" + sentence()
		case 5, 6:
			var cells []string
			for range rapid.IntRange(2, 40).Draw(t, "cells") {
				if rapid.IntRange(0, 10).Draw(t, "longcell") == 0 {
					cells = append(cells, sentence())
				} else {
					cells = append(cells, word())
				}
			}
			line = strings.Join(cells, " | ")
		case 7:
			line = rapid.SampledFrom([]string{"", " ", "\t", "  \u00a0"}).Draw(t, "blank")
		case 8:
			line = rapid.String().Draw(t, "any")
		case 9:
			line = "   " + sentence() + "  "
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, rapid.SampledFrom([]string{"\n", "\n", "\n\n", "\r\n"}).Draw(t, "nl"))
}

// TestSplitProperties: on random texts and limits, every piece keeps the
// limit, overlap included; pieces are in order and their own texts cover
// every non-space character once; overlaps are the end of the piece
// before and within their budget; lines that fit are never cut; and Split
// is deterministic.
func TestSplitProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		text := genText(t)
		max := rapid.IntRange(MinMaxTokens, 500).Draw(t, "max")
		overlap := rapid.IntRange(0, max/2).Draw(t, "overlap")
		pieces := Split(text, max, overlap)
		if err := checkPieces(text, max, overlap, pieces); err != nil {
			t.Fatal(err)
		}
		if again := Split(text, max, overlap); !reflect.DeepEqual(again, pieces) {
			t.Fatal("Split is not deterministic")
		}
	})
}

// TestSplitReal splits every Item of two real 10-Ks, and each whole
// document, with the defaults.
func TestSplitReal(t *testing.T) {
	for _, path := range []string{appleDoc, nvidiaDoc} {
		items := realItems(t, path)
		pieces, overlapTokens, overlaps := 0, 0, 0
		for item, text := range items {
			ps := Split(text, MaxTokens, Overlap)
			if err := checkPieces(text, MaxTokens, Overlap, ps); err != nil {
				t.Errorf("%s Item %s: %v", path, item, err)
			}
			pieces += len(ps)
			for _, p := range ps[min(1, len(ps)):] {
				overlapTokens += Count(strings.TrimSpace(p.Text[:p.Overlap]))
				overlaps++
			}
		}
		t.Logf("%s: %d Items, %d pieces, mean overlap %.1f tokens", path[strings.LastIndexByte(path, '/')+1:], len(items), pieces, float64(overlapTokens)/float64(overlaps))
	}
}

// realItems returns the text of every Item of a 10-K (the first 100,000
// characters of a longer one), and the whole document's text as "whole".
func realItems(tb testing.TB, path string) map[string]string {
	tb.Helper()
	doc, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	d, err := sections.Parse("10-K", doc)
	if err != nil {
		tb.Fatal(err)
	}
	out := map[string]string{}
	for _, it := range d.Items() {
		s, err := d.Section(it, sections.MaxMaxChars)
		if err != nil {
			tb.Fatal(err)
		}
		out[it.String()] = s.Text // cut to 100,000 characters where longer
	}
	out["whole"] = d.Text()
	return out
}

func TestSplitEmpty(t *testing.T) {
	for _, text := range []string{"", " ", "\n\n \t\n"} {
		if got := Split(text, MaxTokens, Overlap); len(got) != 0 {
			t.Errorf("Split(%q) = %v; want no pieces", text, got)
		}
	}
}

func TestSplitPanics(t *testing.T) {
	for _, tc := range []struct{ max, overlap int }{{15, 0}, {100, -1}, {100, 51}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Split(max=%d, overlap=%d) did not panic", tc.max, tc.overlap)
				}
			}()
			Split("x", tc.max, tc.overlap)
		}()
	}
}

// TestSplitPacksLines: short lines share a piece; the overlap is whole
// lines from the end of the piece before.
func TestSplitPacksLines(t *testing.T) {
	// Each line "Line N is here." is 5 tokens, its line break included
	// (".\n" is one token).
	var lines []string
	for i := range 20 {
		lines = append(lines, fmt.Sprintf("Line %c is here.", 'A'+i))
	}
	text := strings.Join(lines, "\n")
	pieces := Split(text, 30, 12)
	if err := checkPieces(text, 30, 12, pieces); err != nil {
		t.Fatal(err)
	}
	if got, want := pieces[0].Text, strings.Join(lines[:6], "\n"); got != want {
		t.Errorf("piece 0 = %q; want %q", got, want)
	}
	// The overlap is the last two lines of piece 0 (10 tokens), not a
	// fragment of a third.
	if got, want := pieces[1].Text[:pieces[1].Overlap], lines[4]+"\n"+lines[5]+"\n"; got != want {
		t.Errorf("piece 1 overlap = %q; want %q", got, want)
	}
}

// TestSplitPacksByExactCount: the estimate counts the "\n " between two
// lines as 2 tokens, but the space joins the next word (" Line"); the
// exact count lets the sixth line in.
func TestSplitPacksByExactCount(t *testing.T) {
	var lines []string
	for i := range 20 {
		lines = append(lines, fmt.Sprintf("Line %c is here", 'A'+i)) // 4 tokens
	}
	text := strings.Join(lines, "\n ")
	if n := Count(strings.Join(lines[:6], "\n ")); n != 29 {
		t.Fatalf("six lines are %d tokens; the test assumes 29", n)
	}
	pieces := Split(text, 29, 12)
	if err := checkPieces(text, 29, 12, pieces); err != nil {
		t.Fatal(err)
	}
	if got, want := pieces[0].Text, strings.Join(lines[:6], "\n "); got != want {
		t.Errorf("piece 0 = %q; want %q", got, want)
	}
}

// TestSplitRowOverlap: a row longer than the overlap is not repeated in
// part: the piece after it has no overlap.
func TestSplitRowOverlap(t *testing.T) {
	text := strings.Join([]string{
		"Americas | $167,045 | 3% | $162,560", // 16 tokens
		"Europe | 101,328 | 7% | 94,294",      // 15 tokens
		"Greater China | 66,952 | (8)% | 72,559",
	}, "\n")
	pieces := Split(text, 34, 12)
	if err := checkPieces(text, 34, 12, pieces); err != nil {
		t.Fatal(err)
	}
	if len(pieces) != 2 || pieces[1].Overlap != 0 {
		t.Errorf("pieces = %+v; want 2, the second without overlap", pieces)
	}
}

// TestSplitLongParagraph: a paragraph over the limit is cut between
// sentences; abbreviations end no sentence.
func TestSplitLongParagraph(t *testing.T) {
	var ss []string
	for i := range 12 {
		ss = append(ss, fmt.Sprintf("Sentence %d says the U.S. dollar moved against the euro, No. %d.", i, i))
	}
	text := "Heading\n" + strings.Join(ss, " ")
	pieces := Split(text, 80, 25)
	if err := checkPieces(text, 80, 25, pieces); err != nil {
		t.Fatal(err)
	}
	if len(pieces) < 4 {
		t.Fatalf("%d pieces; want the paragraph cut", len(pieces))
	}
	for _, p := range pieces {
		own := p.Text[p.Overlap:]
		if !strings.HasPrefix(own, "Sentence ") && !strings.HasPrefix(own, "Heading") {
			t.Errorf("piece %d starts inside a sentence: %q", p.Index, own)
		}
		if !strings.HasSuffix(p.Text, ".") {
			t.Errorf("piece %d ends inside a sentence: %q", p.Index, p.Text)
		}
		if ov := p.Text[:p.Overlap]; ov != "" && !strings.HasPrefix(ov, "Sentence ") {
			t.Errorf("piece %d: overlap %q does not start a sentence", p.Index, ov)
		}
	}
}

// TestSplitLongRow: a table row over the limit is cut between cells, each
// part starting with its "|"; shorter rows are never cut.
func TestSplitLongRow(t *testing.T) {
	var cells []string
	for i := range 40 {
		cells = append(cells, fmt.Sprintf("Cell %d holds $%d,000", i, i))
	}
	short := "Total | $1 | $2 | $3"
	text := short + "\n" + strings.Join(cells, " | ") + "\n" + short
	pieces := Split(text, 50, 10)
	if err := checkPieces(text, 50, 10, pieces); err != nil {
		t.Fatal(err)
	}
	for _, p := range pieces[1:] {
		if own := p.Text[p.Overlap:]; !strings.HasPrefix(own, "| Cell ") && own != short {
			t.Errorf("piece %d does not start at a cell: %q", p.Index, own)
		}
	}
	for _, p := range pieces {
		if !strings.HasSuffix(p.Text, ",000") && !strings.HasSuffix(p.Text, short) {
			t.Errorf("piece %d does not end at a cell: %q", p.Index, p.Text)
		}
	}
}

// TestSplitLongWord: a word longer than the limit is cut between tokens
// at character boundaries; the pieces stay valid UTF-8.
func TestSplitLongWord(t *testing.T) {
	text := "Before " + strings.Repeat("お誕生日", 200) + " after."
	pieces := Split(text, 40, 8)
	if err := checkPieces(text, 40, 8, pieces); err != nil {
		t.Fatal(err)
	}
	for _, p := range pieces {
		if !strings.ContainsRune(p.Text, 'お') && !strings.Contains(p.Text, "after") {
			t.Errorf("piece %d: %q", p.Index, p.Text)
		}
		if strings.ToValidUTF8(p.Text, "?") != p.Text {
			t.Errorf("piece %d is not valid UTF-8", p.Index)
		}
	}
}

// TestSplitBigFirstLine: a line that fits only without the full overlap
// keeps its place whole behind a shorter overlap.
func TestSplitBigFirstLine(t *testing.T) {
	big := strings.TrimSpace(strings.Repeat("The Company sells phones. ", 20)) // 100 tokens
	if n := Count(big); n != 100 {
		t.Fatalf("Count(big) = %d; the test assumes 100", n)
	}
	text := "A short first line is here.\n" + big
	pieces := Split(text, 105, 20)
	if err := checkPieces(text, 105, 20, pieces); err != nil {
		t.Fatal(err)
	}
	if len(pieces) != 2 || pieces[1].Text[pieces[1].Overlap:] != big {
		t.Fatalf("pieces = %+v; want the big line whole in the second", pieces)
	}
}

func TestSentenceStarts(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"One. Two! Three? Four", []string{"Two! Three? Four", "Three? Four", "Four"}},
		{"The U.S. dollar rose. Apple Inc. sells. No. 5 is it.", []string{"Apple Inc. sells. No. 5 is it.", "No. 5 is it."}},
		{"It said “yes.” Then 2024 came. (Next) one.", []string{"Then 2024 came. (Next) one.", "(Next) one."}},
		{"Rates rose 2.5 percent. e.g. lower case. J. Smith left.", []string{"J. Smith left."}},
		{"no boundary here.", nil},
	} {
		var got []string
		for _, at := range sentenceStarts(tc.line, nil) {
			got = append(got, tc.line[at:])
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("sentenceStarts(%q) = %q; want %q", tc.line, got, tc.want)
		}
	}
}

func ExampleSplit() {
	text := strings.Join([]string{
		"Segment Operating Performance",
		"The following table shows net sales by reportable segment (dollars in millions):",
		"2024 | Change | 2023",
		"Americas | $167,045 | 3% | $162,560",
		"Europe | 101,328 | 7% | 94,294",
		"Greater China | 66,952 | (8)% | 72,559",
	}, "\n")
	for _, p := range Split(text, 48, 20) {
		fmt.Printf("piece %d, %d tokens, repeating %q:\n%s\n\n", p.Index, p.Tokens, p.Text[:p.Overlap], p.Text[p.Overlap:])
	}
	// Output:
	// piece 0, 45 tokens, repeating "":
	// Segment Operating Performance
	// The following table shows net sales by reportable segment (dollars in millions):
	// 2024 | Change | 2023
	// Americas | $167,045 | 3% | $162,560
	//
	// piece 1, 32 tokens, repeating "Americas | $167,045 | 3% | $162,560\n":
	// Europe | 101,328 | 7% | 94,294
	//
	// piece 2, 32 tokens, repeating "Europe | 101,328 | 7% | 94,294\n":
	// Greater China | 66,952 | (8)% | 72,559
}
