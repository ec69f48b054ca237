package embedded

import (
	"fmt"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search/store"
)

// rememberedBytes returns what the shards of s hold of remembered
// postings and lengths, in bytes, as the budget counts them.
func rememberedBytes(s *Store) int64 {
	var n int64
	for _, sh := range s.view.Load().shards {
		sh.dfMu.Lock()
		if sh.dl != nil {
			n += int64(2 * len(sh.dl))
		}
		if sh.df != nil {
			for _, e := range sh.df {
				n += int64(4 * cap(e.post))
			}
		}
		sh.dfMu.Unlock()
	}
	return n
}

// TestRememberedPostings: once a query's terms were scored, a filing
// remembers their postings and the next query scores it without reading
// its segment, with the answer of exhaustive scoring; the budget counts
// exactly what the filings remember, gives back what they forget, and a
// store without budget remembers nothing and still answers the same.
func TestRememberedPostings(t *testing.T) {
	s, queries := pruneStore(t, 5)
	f := store.Filter{AsOf: edgar13f.MustParseDate("2030-01-01")}
	exhaustive := func(q string, k int) []store.Match {
		s.noPrune = true
		defer func() { s.noPrune = false }()
		ms, err := s.Lexical(ctx, q, f, k)
		if err != nil {
			t.Fatal(err)
		}
		return ms
	}
	same := func(what string, got, want []store.Match) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %d matches, exhaustive %d", what, len(got), len(want))
		}
		for i := range got {
			if got[i].Chunk.ID != want[i].Chunk.ID || got[i].Score != want[i].Score {
				t.Fatalf("%s: match %d is %s %g, exhaustive %s %g", what, i, got[i].Chunk.ID, got[i].Score, want[i].Chunk.ID, want[i].Score)
			}
		}
	}
	q := queries[0]
	want := exhaustive(q, 50) // every filing scored: its postings remembered
	if used := s.posts.used.Load(); used == 0 || used != rememberedBytes(s) {
		t.Fatalf("the budget counts %d bytes, the filings remember %d", used, rememberedBytes(s))
	}
	before := s.dictReads.Load()
	got, err := s.Lexical(ctx, q, f, 50)
	if err != nil {
		t.Fatal(err)
	}
	same(q, got, want)
	if n := s.dictReads.Load() - before; n != 0 {
		t.Errorf("the query again read %d shards' dictionaries; want 0 (their postings are remembered)", n)
	}

	// More distinct terms than a filing remembers: the oldest are
	// forgotten and their bytes given back.
	var terms []string
	for i := range dfMemo + 10 {
		terms = append(terms, fmt.Sprintf("supply%c%c", 'a'+i/26, 'a'+i%26))
	}
	for _, q := range []string{strings.Join(terms[:40], " "), strings.Join(terms[40:], " "), "supply chain risk", "interest rate"} {
		exhaustive(q, 10)
		if used, held := s.posts.used.Load(), rememberedBytes(s); used != held {
			t.Fatalf("after %q the budget counts %d bytes, the filings remember %d", q[:20], used, held)
		}
	}

	// No budget: nothing more is remembered; the answers stay exact.
	s2, queries2 := pruneStore(t, 6)
	s2.posts.limit = 0
	for _, q := range queries2[:4] {
		s2.noPrune = true
		want, err := s2.Lexical(ctx, q, f, 5)
		if err != nil {
			t.Fatal(err)
		}
		s2.noPrune = false
		for range 2 {
			got, err := s2.Lexical(ctx, q, f, 5)
			if err != nil {
				t.Fatal(err)
			}
			same(q, got, want)
		}
	}
	if used := s2.posts.used.Load(); used != 0 || rememberedBytes(s2) != 0 {
		t.Errorf("without budget the store remembers %d bytes (counted %d)", rememberedBytes(s2), used)
	}
}

// TestFilingWithoutTheQueryTerms: a filing that holds none of a query's
// terms, and so remembers no postings for them, answers the query again
// without being taken for damaged.
func TestFilingWithoutTheQueryTerms(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i, text := range []string{"tax credits and carryforwards", "liquidity and capital resources"} {
		acc := fmt.Sprintf("%010d-24-%06d", i+1, i+1)
		f := store.Filing{Accession: acc, CIK: fmt.Sprint(i + 1), Form: "10-K", FilingDate: edgar13f.MustParseDate("2024-02-01")}
		cs := []store.Chunk{{ID: fmt.Sprint(i), Accession: acc, Item: "7", Text: text}}
		if err := s.Put(ctx, f, cs, nil, store.Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	for round := range 3 {
		ms, err := s.Lexical(ctx, "credits", store.Filter{AsOf: edgar13f.MustParseDate("2030-01-01")}, 5)
		if err != nil || len(ms) != 1 || ms[0].Chunk.ID != "0" {
			t.Fatalf("round %d: Lexical = %v, %v; want chunk 0 alone", round, ms, err)
		}
	}
	if d, _ := s.Damaged(); len(d) != 0 {
		t.Errorf("damaged: %v", d)
	}
}
