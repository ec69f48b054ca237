package embedded_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f/search/store"
	"github.com/edgar13f/edgar13f/search/store/embedded"
)

// openCounting opens the store in dir and returns how many filings' records
// Open read in full (not described by the manifest).
func openCounting(t *testing.T, dir string) (*embedded.Store, int) {
	t.Helper()
	read := -1
	s, err := embedded.Open(dir, embedded.Progress(func(p embedded.OpenProgress) {
		if p.Stage == embedded.StageFilings && p.Done == p.Total {
			read = p.Read
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	return s, read
}

// TestManifest: a store closed after its Puts opens from its manifest
// without reading any filing's record in full, and answers as it did; a
// manifest that is lost, damaged or stale (a filing put again by a process
// that never closed the store) costs reading those records, never a
// filing or a wrong answer.
func TestManifest(t *testing.T) {
	dir := t.TempDir()
	s, err := embedded.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		f, cs, vs := damageFiling(i)
		if err := s.Put(ctx, f, cs, vs, damageMeta); err != nil {
			t.Fatal(err)
		}
	}
	answers := func(s *embedded.Store) []any {
		t.Helper()
		fs, err1 := s.Filings(ctx, asOfAll.AsOf)
		lex, err2 := s.Lexical(ctx, "supply risk filing 2", asOfAll, 10)
		knn, err3 := s.Nearest(ctx, []float32{1, 2, 1}, store.Filter{AsOf: asOfAll.AsOf, Ticker: ""}, 4)
		_, cs, _ := damageFiling(2)
		c, f, ok, err4 := s.Chunk(ctx, cs[1].ID)
		ic, err5 := s.ItemChunks(ctx, f.Accession, "1")
		for _, err := range []error{err1, err2, err3, err4, err5} {
			if err != nil {
				t.Fatal(err)
			}
		}
		return []any{fs, lex, knn, c, f, ok, ic}
	}
	want := answers(s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	check := func(what string, wantRead int) {
		t.Helper()
		s, read := openCounting(t, dir)
		defer s.Close()
		if read != wantRead {
			t.Errorf("%s: Open read %d records in full; want %d", what, read, wantRead)
		}
		if diff := cmp.Diff(want, answers(s)); diff != "" {
			t.Errorf("%s: answers differ (-before +now):\n%s", what, diff)
		}
	}
	check("after Close", 0)
	check("opened again", 0)

	if err := os.Remove(filepath.Join(dir, "manifest.bin")); err != nil {
		t.Fatal(err)
	}
	check("without a manifest", 3)
	check("with the manifest written again", 0)

	b, err := os.ReadFile(filepath.Join(dir, "manifest.bin"))
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 1
	if err := os.WriteFile(filepath.Join(dir, "manifest.bin"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	check("with a damaged manifest", 3)

	// A filing put again by a store that is not closed: the manifest
	// describes its former shard, not the new one.
	s, read := openCounting(t, dir)
	if read != 0 {
		t.Errorf("Open read %d records; want 0", read)
	}
	f, cs, vs := damageFiling(1)
	cs[0].Text = "replaced text of the first part"
	if err := s.Put(ctx, f, cs, vs, damageMeta); err != nil {
		t.Fatal(err)
	}
	want = answers(s)
	s2, read := openCounting(t, dir)
	if read != 1 {
		t.Errorf("Open after a Put of a store not closed read %d records in full; want 1", read)
	}
	if diff := cmp.Diff(want, answers(s2)); diff != "" {
		t.Errorf("answers differ (-putting store +another):\n%s", diff)
	}
	s2.Close()
	s.Close()
	check("after both closed", 0)
}
