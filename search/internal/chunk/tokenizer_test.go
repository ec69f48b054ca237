package chunk

import (
	"bufio"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestCountKnown checks counts published with tiktoken: its own tests
// (test_encoding.py: "hello world", "rer", "'rer", "today\n \n", " \x850",
// "👍") and OpenAI's "How to count tokens with tiktoken" notebook ("tiktoken
// is great!", "antidisestablishmentarianism", "2 + 2 = 4", "お誕生日おめでとう").
func TestCountKnown(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int
	}{
		{"", 0},
		{"hello world", 2},
		{"tiktoken is great!", 6},
		{"antidisestablishmentarianism", 6},
		{"2 + 2 = 4", 7},
		{"お誕生日おめでとう", 9},
		{"rer", 1},
		{"'rer", 2},
		{"today\n ", 3},
		{"today\n \n", 2},
		{"today\n  \n", 2},
		{" \u00850", 4},
		{"👍", 3},
	} {
		if got := Count(tc.text); got != tc.want {
			t.Errorf("Count(%q) = %d; want %d", tc.text, got, tc.want)
		}
	}
}

// TestTokensGolden compares the tokens of every text in
// testdata/cl100k.jsonl with the ids tiktoken gave (see gen_cl100k.js):
// edge cases of the pattern, 1,500 random texts, and lines and blocks of
// lines of real reports.
func TestTokensGolden(t *testing.T) {
	f, err := os.Open("testdata/cl100k.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := cl100k()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var tc struct {
			Text string
			IDs  []uint32
		}
		if err := json.Unmarshal(sc.Bytes(), &tc); err != nil {
			t.Fatal(err)
		}
		n++
		if got := Count(tc.Text); got != len(tc.IDs) {
			t.Errorf("Count(%q) = %d; want %d", tc.Text, got, len(tc.IDs))
			continue
		}
		var ids []uint32
		prev := 0
		for _, end := range tokenEnds(tc.Text, nil) {
			ids = append(ids, r[tc.Text[prev:end]])
			prev = end
		}
		if !slices.Equal(ids, tc.IDs) {
			t.Errorf("tokens of %q = %v; want %v", tc.Text, ids, tc.IDs)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 1700 {
		t.Fatalf("read %d texts from testdata/cl100k.jsonl; want at least 1700", n)
	}
}

// TestCountInvalidUTF8: invalid bytes count as U+FFFD.
func TestCountInvalidUTF8(t *testing.T) {
	if got, want := Count("ab\xffcd"), Count("ab\uFFFDcd"); got != want {
		t.Errorf("Count(%q) = %d; want %d, as for U+FFFD", "ab\xffcd", got, want)
	}
}

// TestTokenEndsCover: token ends are increasing, one per token, and the
// last is the text's end.
func TestTokenEndsCover(t *testing.T) {
	for _, s := range []string{"hello world", "お誕生日おめでとう", "a\n\n  b", strings.Repeat("-", 500)} {
		ends := tokenEnds(s, nil)
		if len(ends) != Count(s) || ends[len(ends)-1] != len(s) || !slices.IsSorted(ends) {
			t.Errorf("tokenEnds(%q) = %v", s, ends)
		}
	}
}
