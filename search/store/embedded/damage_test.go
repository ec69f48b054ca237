package embedded_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search/store"
	"github.com/edgar13f/edgar13f/search/store/embedded"
)

var (
	damageMeta = store.Meta{Model: "damage-embed", Dim: 3}
	asOfAll    = store.Filter{AsOf: edgar13f.MustParseDate("2099-01-01")}
)

// damageFiling is filing i of the damage tests, with its chunks and
// vectors.
func damageFiling(i int) (store.Filing, []store.Chunk, [][]float32) {
	acc := fmt.Sprintf("%010d-24-%06d", i+1, i+1)
	f := store.Filing{Accession: acc, CIK: fmt.Sprint(i + 1), Form: "10-K", FilingDate: edgar13f.MustParseDate("2024-02-01")}
	var cs []store.Chunk
	var vs [][]float32
	for j := range 3 {
		cs = append(cs, store.Chunk{ID: chunkID(acc, "1", j), Accession: acc, Item: "1", Index: j,
			Text: fmt.Sprintf("supply chain risk number %d of filing %d", j, i)})
		vs = append(vs, []float32{1, float32(j), float32(i)})
	}
	return f, cs, vs
}

// damagedStore builds a store of three filings in dir, closes it, and
// applies damage to filing 1's shard.
func damagedStore(t *testing.T, damage func(shard string)) (dir string, acc string) {
	t.Helper()
	dir = t.TempDir()
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
	s.Close()
	f, _, _ := damageFiling(1)
	damage(filepath.Join(dir, "filings", f.Accession+".1"))
	return dir, f.Accession
}

func truncate(name string) func(string) {
	return func(shard string) {
		p := filepath.Join(shard, name)
		fi, err := os.Stat(p)
		if err != nil {
			panic(err)
		}
		if err := os.Truncate(p, fi.Size()/2); err != nil {
			panic(err)
		}
	}
}

func flip(name string) func(string) {
	return func(shard string) {
		p := filepath.Join(shard, name)
		b, err := os.ReadFile(p)
		if err != nil {
			panic(err)
		}
		b[len(b)/2] ^= 0x20
		if err := os.WriteFile(p, b, 0o600); err != nil {
			panic(err)
		}
	}
}

func remove(name string) func(string) {
	return func(shard string) {
		if err := os.Remove(filepath.Join(shard, name)); err != nil {
			panic(err)
		}
	}
}

// TestDamagedShard damages one filing's shard in each way a disk can, and
// checks that the store finds it (on Open, or on the first query that
// needs it: that query fails with a *DamagedError, never answers without
// it), sets it aside, stops listing it, reports it by Damaged, answers
// without it afterwards, and takes the filing again when it is put again.
func TestDamagedShard(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(string)
		onOpen bool // found by Open; else by the first query
	}{
		{"truncated index", truncate("index.zap"), true},
		{"truncated texts", truncate("text.bin"), true},
		{"truncated vectors", truncate("vectors.f32"), true},
		{"truncated record", truncate("filing.json"), true},
		{"truncated sums", truncate("SUMS"), true},
		{"no sums", remove("SUMS"), true},
		{"no index", remove("index.zap"), true},
		{"flipped record", flip("filing.json"), true},
		{"flipped index", flip("index.zap"), false},
		{"flipped texts", flip("text.bin"), false},
		{"flipped vectors", flip("vectors.f32"), false},
	} {
		for _, query := range []string{"Lexical", "Nearest", "Chunk", "ItemChunks", "Check"} {
			if tc.onOpen && query != "Lexical" {
				continue
			}
			t.Run(tc.name+"/"+query, func(t *testing.T) {
				dir, acc := damagedStore(t, tc.damage)
				s, err := embedded.Open(dir)
				if err != nil {
					t.Fatalf("Open: %v", err)
				}
				defer s.Close()
				if !tc.onOpen {
					if fs, _ := s.Filings(ctx, asOfAll.AsOf); len(fs) != 3 {
						t.Fatalf("Filings before the first use = %d filings; want 3", len(fs))
					}
					f, cs, vs := damageFiling(1)
					var err error
					switch query {
					case "Lexical":
						_, err = s.Lexical(ctx, "risk", asOfAll, 10)
					case "Nearest":
						_, err = s.Nearest(ctx, vs[0], asOfAll, 10)
					case "Chunk":
						_, _, _, err = s.Chunk(ctx, cs[0].ID)
					case "ItemChunks":
						_, err = s.ItemChunks(ctx, f.Accession, "1")
					case "Check":
						err = s.Check(ctx)
					}
					var de *embedded.DamagedError
					if !errors.As(err, &de) || de.Accession != acc {
						t.Fatalf("%s on the damaged store = %v; want a *DamagedError for %s", query, err, acc)
					}
				}
				d, err := s.Damaged()
				if err != nil || len(d) != 1 || d[0].Accession != acc || d[0].Reason == "" {
					t.Fatalf("Damaged = %+v, %v; want %s with a reason", d, err, acc)
				}
				t.Logf("found: %s", d[0].Reason)
				checkWithout(t, s, acc)

				// Another process opening the store sees the same.
				s2, err := embedded.Open(dir)
				if err != nil {
					t.Fatal(err)
				}
				checkWithout(t, s2, acc)
				s2.Close()

				// Indexing the filing again repairs the store.
				f, cs, vs := damageFiling(1)
				if err := s.Put(ctx, f, cs, vs, damageMeta); err != nil {
					t.Fatal(err)
				}
				if d, err := s.Damaged(); err != nil || len(d) != 0 {
					t.Errorf("Damaged after the filing was put again = %+v, %v", d, err)
				}
				ms, err := s.Lexical(ctx, "risk", asOfAll, 10)
				if err != nil || len(ms) != 9 {
					t.Errorf("Lexical after the filing was put again = %d matches, %v; want 9", len(ms), err)
				}
			})
		}
	}
}

// checkWithout checks a store that set aside the filing acc: not listed,
// not searched, its chunks unknown, the others whole.
func checkWithout(t *testing.T, s *embedded.Store, acc string) {
	t.Helper()
	fs, err := s.Filings(ctx, asOfAll.AsOf)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 2 || slices.ContainsFunc(fs, func(f store.Filing) bool { return f.Accession == acc }) {
		t.Errorf("Filings = %v; want the two others", fs)
	}
	for _, q := range []func() ([]store.Match, error){
		func() ([]store.Match, error) { return s.Lexical(ctx, "risk", asOfAll, 10) },
		func() ([]store.Match, error) { return s.Nearest(ctx, []float32{1, 1, 1}, asOfAll, 10) },
	} {
		ms, err := q()
		if err != nil || len(ms) != 6 {
			t.Errorf("query without the damaged filing = %d matches, %v; want 6", len(ms), err)
		}
		for _, m := range ms {
			if m.Chunk.Accession == acc {
				t.Errorf("match %s of the damaged filing", m.Chunk.ID)
			}
		}
	}
	_, cs, _ := damageFiling(1)
	if _, _, ok, err := s.Chunk(ctx, cs[0].ID); ok || err != nil {
		t.Errorf("Chunk of the damaged filing = ok %v, %v", ok, err)
	}
	if err := s.Check(ctx); err != nil {
		t.Errorf("Check = %v", err)
	}
}

// TestDamagedStoreRecord: a store.json that cannot be read is rebuilt
// from the shards, which record their embedder.
func TestDamagedStoreRecord(t *testing.T) {
	dir, _ := damagedStore(t, func(string) {})
	if err := os.WriteFile(filepath.Join(dir, "store.json"), []byte("{\"form"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := embedded.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if m, err := s.Meta(ctx); err != nil || m != damageMeta {
		t.Errorf("Meta = %v, %v; want %v", m, err, damageMeta)
	}
	if d, _ := s.Damaged(); len(d) != 0 {
		t.Errorf("Damaged = %v", d)
	}
	s.Close()
	s, err = embedded.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if m, err := s.Meta(ctx); err != nil || m != damageMeta {
		t.Errorf("Meta after reopening = %v, %v; want %v", m, err, damageMeta)
	}
}
