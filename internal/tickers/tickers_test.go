package tickers

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f/internal/edgartest/edgarfiles"
)

var realFile = edgarfiles.Mirror + "/www.sec.gov/files/company_tickers.json"

func realIndex(tb testing.TB) *Index {
	tb.Helper()
	b, err := os.ReadFile(realFile)
	if err != nil {
		tb.Fatal(err)
	}
	x, err := Decode(b)
	if err != nil {
		tb.Fatal(err)
	}
	return x
}

// brief is a match as the tests compare it.
type brief struct {
	Rank    string
	CIK     string
	Name    string
	Tickers string
}

func briefs(ms []Match) []brief {
	out := []brief{}
	for _, m := range ms {
		out = append(out, brief{m.Rank.String(), m.CIK, m.Name, strings.Join(m.Tickers, " ")})
	}
	return out
}

var (
	jpm   = brief{"exact_ticker", "0000019617", "JPMORGAN CHASE & CO", "JPM JPM-PC JPM-PD JPM-PJ JPM-PK JPM-PL JPM-PM AMJ AMJB"}
	apple = brief{"exact_ticker", "0000320193", "Apple Inc.", "AAPL"}
)

func with(b brief, rank string) brief { b.Rank = rank; return b }

func TestSearchRealFile(t *testing.T) {
	x := realIndex(t)
	if x.Len() != 7919 {
		t.Errorf("Len() = %d; want 7919 companies (9,610 rows)", x.Len())
	}
	tests := []struct {
		name, query string
		limit       int
		want        []brief
	}{
		{"one CIK with nine tickers is one company, primary ticker first", "JPM", 1, []brief{jpm}},
		{"a secondary ticker finds the whole company", "amj", 1, []brief{jpm}},
		{"exact ticker beats a name prefix", "AMJ", 2, []brief{jpm,
			{"name_prefix", "0001593773", "AMJ Global Technology", "KGNR"}}},
		{"ticker in lower case", "aapl", 5, []brief{apple}},
		{"class separator '.' reads as '-'", "brk.b", 1, []brief{
			{"exact_ticker", "0001067983", "BERKSHIRE HATHAWAY INC", "BRK-B BRK-A"}}},
		{"exact name ignores case and punctuation", "apple inc", 1, []brief{with(apple, "exact_name")}},
		{"exact name with '&' and a trailing period", "JPMorgan Chase & Co.", 1, []brief{with(jpm, "exact_name")}},
		{"prefix ties keep the file order; then word-start substrings", "apple", 5, []brief{
			with(apple, "name_prefix"),
			{"name_prefix", "0001418121", "Apple Hospitality REIT, Inc.", "APLE"},
			{"name_prefix", "0001134982", "Apple iSports Group, Inc.", "AAPI"},
			{"name_substring", "0000063330", "MAUI LAND & PINEAPPLE CO INC", "MLP"},
			{"name_substring", "0001710495", "PINEAPPLE EXPRESS CANNABIS Co", "PNXP"},
		}},
		{"prefix of a word", "nvid", 5, []brief{{"name_prefix", "0001045810", "NVIDIA CORP", "NVDA"}}},
		{"prefix with spaces removed", "jp morgan", 1, []brief{with(jpm, "name_prefix")}},
		{"prefix before substring", "chase", 5, []brief{
			{"name_prefix", "0001025771", "CHASE PACKAGING CORP", "WHLT"},
			with(jpm, "name_substring"),
		}},
		{"word overlap: more shared words first", "Chase JPMorgan", 2, []brief{
			with(jpm, "word_overlap"),
			{"word_overlap", "0001025771", "CHASE PACKAGING CORP", "WHLT"},
		}},
		{"word overlap ties keep the file order; legal forms do not count", "apple computer inc", 3, []brief{
			with(apple, "word_overlap"),
			{"word_overlap", "0001375365", "Super Micro Computer, Inc.", "SMCI"},
			{"word_overlap", "0001418121", "Apple Hospitality REIT, Inc.", "APLE"},
		}},
		{"only stop words and single letters: nothing to overlap", "the b co", 5, []brief{}},
		{"empty query", "  ", 5, []brief{}},
		{"punctuation only", "&.,", 5, []brief{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := briefs(x.Search(tt.query, tt.limit))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Search(%q, %d) mismatch (-want +got):\n%s", tt.query, tt.limit, diff)
			}
		})
	}
}

func TestSearchLimit(t *testing.T) {
	x := realIndex(t)
	for _, tt := range []struct{ limit, want int }{{0, DefaultLimit}, {-3, DefaultLimit}, {1, 1}, {7, 7}, {100, 100}, {1000, MaxLimit}} {
		if got := len(x.Search("inc", tt.limit)); got != tt.want {
			t.Errorf("len(Search(inc, %d)) = %d; want %d", tt.limit, got, tt.want)
		}
	}
}

// TestSearchResultsAreCopies checks that a caller changing a result cannot
// change the index.
func TestSearchResultsAreCopies(t *testing.T) {
	x := realIndex(t)
	m := x.Search("JPM", 1)
	m[0].Tickers[0] = "XXX"
	if got := x.Search("JPM", 1); len(got) != 1 || got[0].Tickers[0] != "JPM" {
		t.Fatalf("index changed through a result: %v", got)
	}
}

func TestDecodeOrderAndShapes(t *testing.T) {
	// Keys out of order, a string CIK, a repeated ticker, an empty ticker
	// and a non-numeric key: rows are taken in numeric key order.
	in := `{"10":{"cik_str":"0000000007","ticker":"SEVB","title":"Seven Co"},
		"2":{"cik_str":7,"ticker":"SEVA","title":"Seven Co"},
		"9":{"cik_str":8,"ticker":"","title":"Eight Co"},
		"11":{"cik_str":7,"ticker":"SEVA","title":"Seven Co"},
		"z":{"cik_str":9,"ticker":"NINE","title":"Seven Nine"}}`
	x, err := Decode([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	got := briefs(x.Search("seven", 5))
	want := []brief{
		{"name_prefix", "0000000007", "Seven Co", "SEVA SEVB"},
		{"name_prefix", "0000000009", "Seven Nine", "NINE"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if got := briefs(x.Search("eight", 5)); len(got) != 1 || got[0].Tickers != "" {
		t.Errorf("company without ticker: %v", got)
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, in := range []string{
		``, `[]`, `{"0":{"cik_str":-1,"ticker":"A","title":"A"}}`,
		`{"0":{"cik_str":12345678901,"ticker":"A","title":"A"}}`,
		`{"0":{"ticker":"A","title":"A"}}`, `{"0":{"cik_str":"1a","ticker":"A","title":"A"}}`,
	} {
		if _, err := Decode([]byte(in)); err == nil || !strings.HasPrefix(err.Error(), "tickers: ") {
			t.Errorf("Decode(%q) error = %v; want a tickers: error", in, err)
		}
	}
}

func BenchmarkDecode(b *testing.B) {
	data, err := os.ReadFile(realFile)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Decode(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSearch(b *testing.B) {
	x := realIndex(b)
	for b.Loop() {
		x.Search("jp morgan", DefaultLimit)
	}
}

// FuzzSearch checks, for any query, that results respect the limit, come
// in rank order, list each company once and match the query as their rank
// says.
func FuzzSearch(f *testing.F) {
	x := realIndex(f)
	for _, q := range []string{"JPM", "apple", "jp morgan", "Chase JPMorgan", "brk.b", "é", "\xff", "a'b"} {
		f.Add(q, 5)
	}
	f.Fuzz(func(t *testing.T, q string, limit int) {
		ms := x.Search(q, limit)
		want := limit
		if want < 1 {
			want = DefaultLimit
		}
		if len(ms) > min(want, MaxLimit) {
			t.Fatalf("%d results for limit %d", len(ms), limit)
		}
		seen := map[string]bool{}
		for i, m := range ms {
			if seen[m.CIK] {
				t.Fatalf("%s listed twice", m.CIK)
			}
			seen[m.CIK] = true
			if i > 0 && m.Rank < ms[i-1].Rank {
				t.Fatalf("rank %v after %v", m.Rank, ms[i-1].Rank)
			}
			if m.Rank == ExactTicker && !slices.Contains(m.Tickers, Norm(q)) {
				t.Fatalf("exact ticker %q not among %v", q, m.Tickers)
			}
			if m.Rank == NamePrefix || m.Rank == NameSubstring {
				if !strings.Contains(strings.Join(fold(m.Name), ""), strings.Join(fold(q), "")) {
					t.Fatalf("%q does not contain %q", m.Name, q)
				}
			}
		}
	})
}

func TestNorm(t *testing.T) {
	for in, want := range map[string]string{
		"aapl":     "AAPL",
		" brk.b\n": "BRK-B",
		"BF/A":     "BF-A",
		"bf b":     "BF-B",
		"RDS-A":    "RDS-A",
		"":         "",
	} {
		if got := Norm(in); got != want {
			t.Errorf("Norm(%q) = %q, want %q", in, got, want)
		}
	}
}
