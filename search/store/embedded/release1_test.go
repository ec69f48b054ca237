package embedded_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search/store"
	"github.com/edgar13f/edgar13f/search/store/embedded"
)

// release1Dir is a store written by the first release of the store (one
// shard per filing, each with its whole chunk table in filing.json, no
// manifest): the filings of release1Filings, the second one put twice.
const release1Dir = "testdata/release1"

var release1Meta = store.Meta{Model: "release1-embed", Dim: 4}

// release1Filings are the filings of the release-1 store, in the order
// they were put, with their chunks and vectors.
func release1Filings() []struct {
	f  store.Filing
	cs []store.Chunk
	vs [][]float32
} {
	var out []struct {
		f  store.Filing
		cs []store.Chunk
		vs [][]float32
	}
	words := []string{"supply chain risk", "foreign currency exchange", "export controls in china", "share repurchase program",
		"interest rate risk", "cybersecurity incident", "climate regulation", "revenue growth of services"}
	for n, i := range []int{0, 1, 2, 1, 3} {
		acc := fmt.Sprintf("%010d-%02d-%06d", 320193+i, 20+i, i+1)
		f := store.Filing{Accession: acc, CIK: fmt.Sprint(320193 + i), Ticker: fmt.Sprintf("TK%d", i), Company: fmt.Sprintf("Company %d Inc", i),
			Form: []string{"10-K", "10-Q"}[i%2], FilingDate: edgar13f.MustParseDate("2021-02-01").AddDays(200 * i),
			Period: edgar13f.MustParseDate("2020-12-31").AddDays(200 * i), FiscalYear: 2020 + i, URL: "https://www.sec.gov/" + acc + ".htm"}
		var cs []store.Chunk
		var vs [][]float32
		for j := range 6 + i {
			item := []string{"1", "1A", "7"}[j%3]
			text := fmt.Sprintf("Part %d of filing %d (put %d): %s and %s.", j, i, n, words[(i+j)%len(words)], words[(2*i+3*j)%len(words)])
			cs = append(cs, store.Chunk{ID: chunkID(acc, item, j/3), Accession: acc, Item: item, ItemTitle: "Title " + item, Index: j / 3, Tokens: 10 + j, Text: text})
			vs = append(vs, []float32{float32(i), float32(j), float32(n), 1})
		}
		out = append(out, struct {
			f  store.Filing
			cs []store.Chunk
			vs [][]float32
		}{f, cs, vs})
	}
	return out
}

// TestOpenRelease1Store opens a copy of a store written by the first
// release and checks that it answers every call as a store built afresh
// from the same Puts does: nothing lost, nothing scored differently.
func TestOpenRelease1Store(t *testing.T) {
	old := t.TempDir()
	if err := os.CopyFS(old, os.DirFS(release1Dir)); err != nil {
		t.Fatal(err)
	}
	var seen []embedded.OpenProgress
	s1, err := embedded.Open(old, embedded.Progress(func(p embedded.OpenProgress) { seen = append(seen, p) }))
	if err != nil {
		t.Fatal(err)
	}
	defer s1.Close()
	// Open made the compact copies of its vectors the store lacked, and
	// said so.
	if made, _ := filepath.Glob(filepath.Join(old, "filings", "*", "vectors.q8")); len(made) != 4 {
		t.Errorf("the release-1 store has %d compact vector copies after Open with Progress; want 4", len(made))
	}
	if len(seen) == 0 {
		t.Fatal("Open reported no progress")
	}
	// It made the term tables its filings lack and merged them into the
	// store's lexicon, and said so, after the compact copies.
	if made, _ := filepath.Glob(filepath.Join(old, "filings", "*", "terms.bin")); len(made) != 4 {
		t.Errorf("the release-1 store has %d term tables after Open with Progress; want 4", len(made))
	}
	if made, _ := filepath.Glob(filepath.Join(old, "lexicon", "*.lex")); len(made) != 1 {
		t.Errorf("the release-1 store has %d lexicon segments after Open with Progress; want 1", len(made))
	}
	stageDone := func(stage embedded.OpenStage) bool {
		for _, p := range seen {
			if p.Stage == stage && p.Done == 4 && p.Total == 4 {
				return true
			}
		}
		return false
	}
	if !stageDone(embedded.StageCompact) {
		t.Errorf("Open's progress %+v lacks the compact copies' stage at 4 of 4 filings", seen)
	}
	if last := seen[len(seen)-1]; last.Stage != embedded.StageLexicon || last.Done != 4 || last.Total != 4 {
		t.Errorf("Open's last progress report = %+v; want the term tables' stage at 4 of 4 filings", last)
	}
	s2, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	puts := release1Filings()
	for _, p := range puts {
		if err := s2.Put(ctx, p.f, p.cs, p.vs, release1Meta); err != nil {
			t.Fatal(err)
		}
	}
	var filings []embedded.OpenProgress
	for _, p := range seen {
		if p.Stage == embedded.StageFilings {
			filings = append(filings, p)
		}
	}
	if len(filings) == 0 || filings[len(filings)-1].Done != 4 || filings[len(filings)-1].Total != 4 || filings[len(filings)-1].Read != 4 {
		t.Errorf("progress of opening the release-1 store = %+v; want its filings to end at 4 of 4, read in full", seen)
	}
	same := func(what string, f func(s *embedded.Store) (any, error)) {
		t.Helper()
		a, err1 := f(s1)
		b, err2 := f(s2)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: %v, %v", what, err1, err2)
		}
		if diff := cmp.Diff(b, a); diff != "" {
			t.Errorf("%s on the release-1 store differs from a new store (-new +release 1):\n%s", what, diff)
		}
	}
	for _, asOf := range []string{"2020-01-01", "2021-02-01", "2022-01-01", "2099-01-01"} {
		d := edgar13f.MustParseDate(asOf)
		same("Filings "+asOf, func(s *embedded.Store) (any, error) { return s.Filings(ctx, d) })
		for _, f := range []store.Filter{{AsOf: d}, {AsOf: d, Ticker: "TK1"}, {AsOf: d, Item: "1A"}, {AsOf: d, Form: "10-Q"}} {
			for _, q := range []string{"supply chain risk", "interest rate", "Company 3 services"} {
				same(fmt.Sprintf("Lexical %q %+v", q, f), func(s *embedded.Store) (any, error) { return s.Lexical(ctx, q, f, 5) })
			}
			same(fmt.Sprintf("Nearest %+v", f), func(s *embedded.Store) (any, error) { return s.Nearest(ctx, []float32{1, 2, 1, 1}, f, 5) })
		}
	}
	if m, err := s1.Meta(ctx); err != nil || m != release1Meta {
		t.Errorf("Meta = %v, %v; want %v", m, err, release1Meta)
	}
	for _, p := range puts {
		for _, c := range p.cs {
			same("Chunk "+c.ID, func(s *embedded.Store) (any, error) {
				c, f, ok, err := s.Chunk(ctx, c.ID)
				return []any{c, f, ok}, err
			})
			same("ItemChunks "+p.f.Accession+" "+c.Item, func(s *embedded.Store) (any, error) { return s.ItemChunks(ctx, p.f.Accession, c.Item) })
		}
	}
	if fs, _ := s1.Filings(ctx, edgar13f.MustParseDate("2099-01-01")); len(fs) != 4 {
		t.Errorf("the release-1 store lists %d filings; want 4", len(fs))
	}
	// They are still there after its kNN queries.
	if made, _ := filepath.Glob(filepath.Join(old, "filings", "*", "vectors.q8")); len(made) != 4 {
		t.Errorf("the release-1 store has %d compact vector copies after kNN queries; want 4", len(made))
	}
}
