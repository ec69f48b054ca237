package embedded

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search/store"
)

// lexStore fills the store in dir with random filings of a skewed
// vocabulary (as pruneStore does), puts some of them again with other
// chunks, and returns the queries to ask.
func lexStore(t *testing.T, dir string, seed uint64, filings int) []string {
	t.Helper()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 11))
	word := skewedWords(r)
	put := func(i, version int) { putRandomFiling(t, s, r, word, i, version, fmt.Sprintf("%d-%d", i, version)) }
	for i := range filings {
		put(i, 0)
	}
	// Replacements: their older entries in the lexicon are stale.
	for v := 1; v <= 3; v++ {
		for i := 0; i < filings; i += 3 + v {
			put(i, v)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return randomQueries(r, word, 10)
}

func lexFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, dirLexicon, "*.lex"))
	return files
}

// TestLexiconExact: BM25 with the statistics and bounds of the lexicon
// (segments merged by Put and Close, entries of replaced filings among
// them) answers exactly as scoring every filing from its own segment,
// for every filter; a bound planted below the true one is caught.
func TestLexiconExact(t *testing.T) {
	defer SetLexGroup(6)()
	for seed := range uint64(3) {
		dir := t.TempDir()
		queries := lexStore(t, dir, seed, 40)
		if len(lexFiles(t, dir)) < 2 {
			t.Fatalf("seed %d: %d lexicon segments; want Put and Close to have made several", seed, len(lexFiles(t, dir)))
		}
		s, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		lq := s.lexQueries.Load()
		diff, pruned := pruneDiff(t, s, queries)
		if diff != "" {
			t.Errorf("seed %d: %s", seed, diff)
		}
		if s.lexQueries.Load() == lq {
			t.Errorf("seed %d: no query took its statistics from the lexicon", seed)
		}
		if pruned == 0 {
			t.Errorf("seed %d: no shard was pruned", seed)
		}
		s.boundFault = func(ub float64) float64 { return ub * 0.6 }
		if diff, _ := pruneDiff(t, s, queries); diff == "" {
			t.Errorf("seed %d: a bound below the true one went unnoticed", seed)
		}
		s.Close()
	}
}

// TestLexiconReadsNoDictionaries: a query's first use of its terms reads
// the dictionaries of only the filings it scores (the lexicon gives every
// filing's frequencies and bounds), not of every visible filing as
// before the lexicon.
func TestLexiconReadsNoDictionaries(t *testing.T) {
	defer SetLexGroup(8)()
	dir := t.TempDir()
	lexStore(t, dir, 5, 60)
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	f := store.Filter{AsOf: edgar13f.MustParseDate("2030-01-01")}
	for _, q := range []string{"litigation patent", "repurchase cyber", "climate regulation export"} {
		reads, pruned := s.dictReads.Load(), s.pruned.Load()
		if _, err := s.Lexical(ctx, q, f, 3); err != nil {
			t.Fatal(err)
		}
		reads, pruned = s.dictReads.Load()-reads, s.pruned.Load()-pruned
		t.Logf("%q: %d dictionaries read, %d filings pruned of 60", q, reads, pruned)
		if reads+pruned > 60 || pruned == 0 {
			t.Errorf("%q, the terms' first use: %d of 60 filings' dictionaries read, %d pruned; want only those scored read", q, reads, pruned)
		}
	}
}

// TestTermTablesMatchSegments: the term table Put writes (from the
// analysed chunks) equals the one made from the shard's segment (as Open
// makes it for a store of an earlier release).
func TestTermTablesMatchSegments(t *testing.T) {
	dir := t.TempDir()
	lexStore(t, dir, 7, 12)
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	v, _ := s.current()
	for _, sh := range v.shards {
		body, ok := readTerms(sh)
		if !ok {
			t.Fatalf("%s: no valid term table", sh.name)
		}
		stats, err := termsOfShard(sh)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := termsBody(encodeTerms(stats, sh.sums[fileIndex]), sh.sums[fileIndex])
		if len(stats) == 0 || string(want) != string(body) {
			t.Errorf("%s: the term table Put wrote differs from its segment's (%d terms)", sh.name, len(stats))
		}
	}
}

// flipByte changes the byte in the middle of a file.
func flipByte(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0x5a
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestLexiconDamaged: a damaged lexicon segment is found, removed and
// made again, and a damaged term table is left out of the lexicon and
// made again by Open with Progress; every answer meanwhile is exact.
func TestLexiconDamaged(t *testing.T) {
	defer SetLexGroup(8)()
	dir := t.TempDir()
	queries := lexStore(t, dir, 3, 30)
	files := lexFiles(t, dir)
	if len(files) == 0 {
		t.Fatal("no lexicon segment")
	}
	flipByte(t, files[0])

	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if diff, _ := pruneDiff(t, s, queries); diff != "" {
		t.Errorf("with a damaged lexicon segment: %s", diff)
	}
	if s.lex.damaged.Load() != 1 {
		t.Errorf("%d damaged lexicon segments found; want 1", s.lex.damaged.Load())
	}
	if slices.Contains(lexFiles(t, dir), files[0]) {
		t.Error("the damaged lexicon segment is still there")
	}
	if err := s.Close(); err != nil { // merges what no segment covers
		t.Fatal(err)
	}
	if n := len(lexFiles(t, dir)); n != len(files) {
		t.Errorf("%d lexicon segments after Close; want the damaged one made again, %d", n, len(files))
	}

	// A damaged term table: the lexicon made again leaves its filing out.
	if err := os.RemoveAll(filepath.Join(dir, dirLexicon)); err != nil {
		t.Fatal(err)
	}
	shards, _ := filepath.Glob(filepath.Join(dir, dirFilings, "*", fileTerms))
	flipByte(t, shards[len(shards)/2])
	bad := filepath.Base(filepath.Dir(shards[len(shards)/2]))
	s, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := s.current()
	lv := s.lexOf(v)
	for i, sh := range v.shards {
		if lv.covered[i] != (sh.name != bad) {
			t.Errorf("%s: covered by the lexicon %v; want only the filing with a damaged term table left out", sh.name, lv.covered[i])
		}
	}
	if diff, _ := pruneDiff(t, s, queries); diff != "" {
		t.Errorf("with a damaged term table: %s", diff)
	}
	s.Close()

	var seen []OpenProgress
	s, err = Open(dir, Progress(func(p OpenProgress) { seen = append(seen, p) }))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if last := seen[len(seen)-1]; last.Stage != StageLexicon || last.Done != 1 || last.Total != 1 {
		t.Errorf("Open's last progress = %+v; want the term tables' stage at 1 of 1", last)
	}
	v, _ = s.current()
	lv = s.lexOf(v)
	if lv.ncov != len(v.shards) {
		t.Errorf("after Open with Progress the lexicon covers %d of %d filings", lv.ncov, len(v.shards))
	}
	if diff, _ := pruneDiff(t, s, queries); diff != "" {
		t.Errorf("after the term table was made again: %s", diff)
	}
}

// TestLexiconFilingPutAgainAfterDamage: a filing set aside as damaged and
// put again gets a shard of the same name; the lexicon's entries of the
// damaged one do not count for it.
func TestLexiconFilingPutAgainAfterDamage(t *testing.T) {
	defer SetLexGroup(4)()
	dir := t.TempDir()
	queries := lexStore(t, dir, 9, 20)
	acc := fmt.Sprintf("%010d-24-%06d", 2, 2)
	name := acc + ".1"
	flipByte(t, filepath.Join(dir, dirFilings, name, fileText))
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Check(ctx); err == nil {
		t.Fatal("Check found no damage")
	}
	var cs []store.Chunk
	for j := range 12 {
		cs = append(cs, store.Chunk{ID: fmt.Sprintf("again-%d", j), Accession: acc, Item: "1", Index: j,
			Text: strings.Repeat("litigation patent ", 1+j%4) + "export"})
	}
	f := store.Filing{Accession: acc, CIK: "2", Ticker: "T1", Form: "10-K", FilingDate: edgar13f.MustParseDate("2015-03-02")}
	if err := s.Put(ctx, f, cs, nil, store.Meta{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, dirFilings, name)); err != nil {
		t.Fatalf("the filing put again is not %s: %v", name, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	queries = append(queries, "litigation patent", "export litigation", "patent")
	if diff, _ := pruneDiff(t, s, queries); diff != "" {
		t.Error(diff)
	}
}

const termsCrashEnv = "EMBEDDED_TERMS_CRASH_DIR"

// TestTermsCrashHelper is the process TestTermsKilledLeavesNothing kills:
// it makes the store's missing term tables and stops for good once the
// first is written, before its rename.
func TestTermsCrashHelper(t *testing.T) {
	stopAtStep(t, termsCrashEnv, "TestTermsKilledLeavesNothing", "terms written", func(s *Store) error {
		s.makeTerms(s.view.Load(), func(OpenProgress) {})
		return nil
	}, "no term table was made")
}

// TestTermsKilledLeavesNothing kills a process while it writes a
// committed shard's term table (as Open with Progress does for a store of
// an earlier release), and checks that nothing of it is left in the
// shard's directory, that the next Open sweeps its temporary file, and
// that Open with Progress then makes every table.
func TestTermsKilledLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	lexStore(t, dir, 5, 6)
	tables, _ := filepath.Glob(filepath.Join(dir, dirFilings, "*", fileTerms))
	if len(tables) == 0 {
		t.Fatal("no term tables")
	}
	for _, p := range tables {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	// As in a store of an earlier release: no lexicon segment covers them.
	if err := os.RemoveAll(filepath.Join(dir, dirLexicon)); err != nil {
		t.Fatal(err)
	}
	killAtStep(t, "TestTermsCrashHelper", termsCrashEnv, dir, tables, fileTerms)
	var stages []string
	s, err := Open(dir, Progress(func(p OpenProgress) { stages = append(stages, p.String()) }))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if left, _ := os.ReadDir(filepath.Join(dir, dirTemp)); len(left) != 0 {
		t.Errorf("Open left %d entries in %s", len(left), dirTemp)
	}
	for _, tp := range tables {
		if _, err := os.Stat(tp); err != nil {
			t.Errorf("Open with Progress did not make %s again: %v (stages %q)", tp, err, stages)
		}
	}
}
