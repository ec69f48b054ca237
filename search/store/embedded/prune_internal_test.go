package embedded

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search/store"
)

// pruneStore fills a store with random filings: chunks of random length
// drawn from a small vocabulary with skewed frequencies, so that the
// filings' bounds differ and the best chunks are in a few of them.
func pruneStore(t *testing.T, seed uint64) (*Store, []string) {
	t.Helper()
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	r := rand.New(rand.NewPCG(seed, 7))
	word := skewedWords(r)
	filings := 30 + r.IntN(20)
	for i := range filings {
		putRandomFiling(t, s, r, word, i, 0, fmt.Sprint(i))
	}
	return s, randomQueries(r, word, 12)
}

// skewedWords returns a source of words from a small vocabulary, the
// first ones more often (Zipf-like).
func skewedWords(r *rand.Rand) func() string {
	vocab := []string{"supply", "chain", "risk", "interest", "rate", "currency", "litigation", "patent",
		"climate", "regulation", "export", "china", "pricing", "tax", "credit", "cyber", "incident", "repurchase"}
	return func() string { return vocab[min(len(vocab)-1, int(r.ExpFloat64()*4))] }
}

// putRandomFiling puts filing i (its version-th text) of 5 to 34 chunks of
// random words, whose IDs begin with idPrefix.
func putRandomFiling(t *testing.T, s *Store, r *rand.Rand, word func() string, i, version int, idPrefix string) {
	t.Helper()
	acc := fmt.Sprintf("%010d-24-%06d", i+1, i+1)
	f := store.Filing{Accession: acc, CIK: fmt.Sprint(i%5 + 1), Ticker: fmt.Sprintf("T%d", i%5), Form: "10-K",
		FilingDate: edgar13f.MustParseDate("2015-01-01").AddDays(i * 60)}
	items := []string{"1", "1A", "7"}
	var cs []store.Chunk
	for j := range 5 + r.IntN(30) {
		var words []string
		for range 3 + r.IntN(4+(i+version)%7*6) {
			words = append(words, word())
		}
		cs = append(cs, store.Chunk{ID: fmt.Sprintf("%s-%d", idPrefix, j), Accession: acc, Item: items[r.IntN(len(items))], Index: j,
			Text: strings.Join(words, " ")})
	}
	if err := s.Put(ctx, f, cs, nil, store.Meta{}); err != nil {
		t.Fatal(err)
	}
}

// randomQueries returns n queries of one to four words.
func randomQueries(r *rand.Rand, word func() string, n int) []string {
	var queries []string
	for range n {
		var q []string
		for range 1 + r.IntN(4) {
			q = append(q, word())
		}
		queries = append(queries, strings.Join(q, " "))
	}
	return queries
}

// pruneDiff runs each query with each filter three times (the first
// teaches the shards their bounds, the next two may prune) and compares
// every answer with exhaustive scoring; it returns the first difference,
// and how many shards were pruned.
func pruneDiff(t *testing.T, s *Store, queries []string) (string, int64) {
	t.Helper()
	filters := []store.Filter{
		{AsOf: edgar13f.MustParseDate("2030-01-01")},
		{AsOf: edgar13f.MustParseDate("2019-06-01")},
		{AsOf: edgar13f.MustParseDate("2030-01-01"), Ticker: "T2"},
		{AsOf: edgar13f.MustParseDate("2030-01-01"), Item: "1A"},
	}
	pruned := s.pruned.Load()
	for _, f := range filters {
		for _, k := range []int{1, 3, 10} {
			for _, q := range queries {
				s.noPrune = true
				want, err := s.Lexical(ctx, q, f, k)
				if err != nil {
					t.Fatal(err)
				}
				s.noPrune = false
				for round := range 3 {
					got, err := s.Lexical(ctx, q, f, k)
					if err != nil {
						t.Fatal(err)
					}
					if len(got) != len(want) {
						return fmt.Sprintf("%q %+v k %d round %d: %d matches, exhaustive %d", q, f, k, round, len(got), len(want)), s.pruned.Load() - pruned
					}
					for i := range got {
						if got[i].Chunk.ID != want[i].Chunk.ID || got[i].Score != want[i].Score {
							return fmt.Sprintf("%q %+v k %d round %d: match %d is %s %g, exhaustive %s %g", q, f, k, round, i,
								got[i].Chunk.ID, got[i].Score, want[i].Chunk.ID, want[i].Score), s.pruned.Load() - pruned
						}
					}
				}
			}
		}
	}
	return "", s.pruned.Load() - pruned
}

// TestPrunedLexicalIsExhaustive: BM25 that skips the filings whose score
// bound cannot reach the k-th score answers exactly as scoring every
// filing, on random stores, and does skip filings; a bound planted below
// the true one is caught.
func TestPrunedLexicalIsExhaustive(t *testing.T) {
	var total int64
	for seed := range uint64(4) {
		s, queries := pruneStore(t, seed)
		diff, pruned := pruneDiff(t, s, queries)
		if diff != "" {
			t.Errorf("seed %d: %s", seed, diff)
		}
		total += pruned
	}
	if total == 0 {
		t.Error("no shard was pruned")
	}
	t.Logf("%d shards pruned", total)

	t.Run("planted loose bound", func(t *testing.T) {
		s, queries := pruneStore(t, 99)
		s.boundFault = func(ub float64) float64 { return ub * 0.6 }
		if diff, _ := pruneDiff(t, s, queries); diff == "" {
			t.Error("a bound below the true one went unnoticed")
		} else {
			t.Logf("caught: %s", diff)
		}
	})
}
