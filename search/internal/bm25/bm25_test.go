package bm25

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestTerms(t *testing.T) {
	got := Terms("The Company's exports: we would export 12% more, about which our suppliers' know.")
	want := []string{"compani", "export", "export", "12", "supplier", "know"} // "more" is a stop word too
	if !slices.Equal(got, want) {
		t.Errorf("Terms = %q; want %q (bleve's en: possessives, its stop words, Porter)", got, want)
	}
	if got := QueryTerms("exports export controls EXPORTED the"); !slices.Equal(got, []string{"control", "export"}) {
		t.Errorf("QueryTerms = %q; want the distinct terms, sorted", got)
	}
}

func TestWire(t *testing.T) {
	long := strings.Repeat("a", MaxTermBytes+1)
	for _, tc := range []struct {
		term   string
		hashed bool
	}{
		{"export", false},
		{strings.Repeat("é", MaxTermBytes/2), false},
		{long, true},
		{"a\u2028b", true}, // a Java whitespace
		{"a\u00a0b", false},
	} {
		w := Wire(tc.term)
		if (w != tc.term) != tc.hashed || strings.ContainsFunc(w, javaWhitespace) || len(w) > MaxTermBytes {
			t.Errorf("Wire(%q) = %q; want hashed %v, no whitespace, at most %d bytes", tc.term, w, tc.hashed, MaxTermBytes)
		}
	}
	if Wire(long) == Wire(long+"a") || Wire(long) != Wire(strings.Clone(long)) {
		t.Error("Wire does not keep long terms distinct, or is not a function of the term")
	}
}

func TestPart(t *testing.T) {
	// N 10, df 1: idf ln(1 + 9.5/1.5); tf 2 of dl 8 where avgdl is 8.
	idf := IDF(10, 1)
	if want := math.Log(1 + 9.5/1.5); idf != want {
		t.Errorf("IDF = %v; want %v", idf, want)
	}
	if got, want := Part(idf, 2, 8, 8), idf*2/(2+1.2); math.Abs(got-want) > 1e-15 {
		t.Errorf("Part = %v; want %v", got, want)
	}
}
