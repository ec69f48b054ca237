package embedded

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search/internal/vecmath"
	"github.com/edgar13f/edgar13f/search/store"
)

// TestFilteredQueryReadsOnlyItsShards: a query filtered to one company
// needs every visible filing's term statistics but scores only that
// company's filing; once the terms were seen, it reads no other shard's
// dictionary, and its answer is the same.
func TestFilteredQueryReadsOnlyItsShards(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const filings = 6
	for i := range filings {
		acc := fmt.Sprintf("%010d-24-%06d", i+1, i+1)
		f := store.Filing{Accession: acc, CIK: fmt.Sprint(i + 1), Ticker: fmt.Sprintf("T%d", i), Form: "10-K",
			FilingDate: edgar13f.MustParseDate("2024-02-01").AddDays(i)}
		var cs []store.Chunk
		for j := range 4 {
			cs = append(cs, store.Chunk{ID: fmt.Sprintf("%d-%d", i, j), Accession: acc, Item: "1A", Index: j,
				Text: fmt.Sprintf("supply chain risk %d and interest rate risk of company %d", j, i)})
		}
		if err := s.Put(ctx, f, cs, nil, store.Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	f := store.Filter{AsOf: edgar13f.MustParseDate("2030-01-01"), Ticker: "T3"}
	first, err := s.Lexical(ctx, "supply risk", f, 3)
	if err != nil || len(first) != 3 {
		t.Fatalf("Lexical = %v, %v", first, err)
	}
	before := s.dictReads.Load()
	again, err := s.Lexical(ctx, "supply risk", f, 3)
	if err != nil {
		t.Fatal(err)
	}
	if n := s.dictReads.Load() - before; n > 1 {
		t.Errorf("the query again read %d shards' dictionaries; want at most 1 (the one it scores)", n)
	}
	// Nor does it open them: with one shard kept open, only the one it
	// scores is opened again.
	s.cache.max = 1
	s.cache.trimLocked()
	opens := s.cache.opens
	if _, err := s.Lexical(ctx, "supply risk", f, 3); err != nil {
		t.Fatal(err)
	}
	if n := s.cache.opens - opens; n > 1 {
		t.Errorf("the query opened %d shards; want at most 1 (the one it scores)", n)
	}
	for i := range first {
		if first[i].Chunk.ID != again[i].Chunk.ID || first[i].Score != again[i].Score {
			t.Errorf("match %d: %s %g, then %s %g", i, first[i].Chunk.ID, first[i].Score, again[i].Chunk.ID, again[i].Score)
		}
	}
}

// TestShardsKeepNoChunkTable: the store keeps a filing's chunk table only
// while its shard is open, so that the heap does not grow with every chunk
// stored; what it keeps per chunk otherwise is an 8-byte ID hash.
func TestShardsKeepNoChunkTable(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, OpenShards(1))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range 3 {
		acc := fmt.Sprintf("%010d-24-%06d", i+1, i+1)
		f := store.Filing{Accession: acc, CIK: fmt.Sprint(i + 1), Form: "10-K", FilingDate: edgar13f.MustParseDate("2024-02-01")}
		cs := []store.Chunk{{ID: fmt.Sprint(i), Accession: acc, Item: "7", Text: "liquidity and capital resources"}}
		if err := s.Put(ctx, f, cs, nil, store.Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	for _, reopen := range []bool{false, true} {
		if reopen {
			s.Close()
			if s, err = Open(dir, OpenShards(1)); err != nil {
				t.Fatal(err)
			}
		}
		if ms, err := s.Lexical(ctx, "liquidity", store.Filter{AsOf: edgar13f.MustParseDate("2030-01-01")}, 10); err != nil || len(ms) != 3 {
			t.Fatalf("Lexical = %d matches, %v", len(ms), err)
		}
		if n := s.cache.open(); n != 1 {
			t.Errorf("%d shards open; want 1", n)
		}
		for _, sh := range s.view.Load().shards {
			if sh.rec.Chunks != nil || len(sh.ids) != 1 {
				t.Errorf("reopened %v: shard %s keeps %d table entries and %d ID hashes; want 0 and 1", reopen, sh.name, len(sh.rec.Chunks), len(sh.ids))
			}
		}
	}
}

// TestNearestEstimateKeepsExactOrder: Nearest skips a chunk when the
// float32 estimate of its cosine, with its error bound, cannot reach the
// best k kept; the answer must be exactly the brute-force float64 one,
// also among vectors whose cosines differ by less than float32 can tell.
func TestNearestEstimateKeepsExactOrder(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const dim, filings, per = 64, 4, 60
	rng := rand.New(rand.NewPCG(5, 6))
	base := make([]float32, dim)
	for i := range base {
		base[i] = float32(rng.NormFloat64())
	}
	meta := store.Meta{Model: "m", Dim: dim}
	type vec struct {
		id string
		v  []float32
	}
	var all []vec
	for i := range filings {
		acc := fmt.Sprintf("%010d-24-%06d", i+1, i+1)
		f := store.Filing{Accession: acc, CIK: fmt.Sprint(i + 1), Form: "10-K", FilingDate: edgar13f.MustParseDate("2024-02-01")}
		var cs []store.Chunk
		var vs [][]float32
		for j := range per {
			v := slices.Clone(base)
			// Near ties: a few components moved by one or two float32 steps,
			// scaled by a power of two (the cosine does not change with it
			// in exact arithmetic, the float32 sums do).
			for range 3 {
				c := rng.IntN(dim)
				v[c] = math.Nextafter32(v[c], float32(rng.NormFloat64())*1e3)
			}
			scale := float32(math.Ldexp(1, rng.IntN(20)-10))
			for c := range v {
				v[c] *= scale
			}
			id := fmt.Sprintf("%d-%02d", i, j)
			cs = append(cs, store.Chunk{ID: id, Accession: acc, Item: "1", Index: j, Text: "x"})
			vs = append(vs, v)
			all = append(all, vec{id, v})
		}
		if err := s.Put(ctx, f, cs, vs, meta); err != nil {
			t.Fatal(err)
		}
	}
	for trial := range 20 {
		q := slices.Clone(base)
		for c := range q {
			q[c] += float32(rng.NormFloat64()) * 1e-6 * float32(trial)
		}
		q64 := make([]float64, dim)
		for i, x := range q {
			q64[i] = float64(x)
		}
		type scored struct {
			id    string
			score float64
		}
		var want []scored
		for _, a := range all {
			want = append(want, scored{a.id, vecmath.Dot(q64, a.v) / (vecmath.Norm(q) * vecmath.Norm(a.v))})
		}
		slices.SortFunc(want, func(a, b scored) int {
			if a.score != b.score {
				if a.score > b.score {
					return -1
				}
				return 1
			}
			return strings.Compare(a.id, b.id)
		})
		for _, k := range []int{1, 5, 17} {
			ms, err := s.Nearest(ctx, q, store.Filter{AsOf: edgar13f.MustParseDate("2030-01-01")}, k)
			if err != nil {
				t.Fatal(err)
			}
			for i, m := range ms {
				if m.Chunk.ID != want[i].id || m.Score != want[i].score {
					t.Fatalf("trial %d, k %d: match %d = %s %v; want %s %v", trial, k, i, m.Chunk.ID, m.Score, want[i].id, want[i].score)
				}
			}
		}
	}
}

// TestDefaultOpenShards: the shards kept open leave half the process's
// open files to the rest of it.
func TestDefaultOpenShards(t *testing.T) {
	for _, tc := range []struct {
		limit uint64
		want  int
	}{{0, DefaultOpenShards}, {1 << 20, DefaultOpenShards}, {8192, DefaultOpenShards}, {1024, 512}, {256, 128}, {50, 64}} {
		if got := defaultOpenShards(tc.limit); got != tc.want {
			t.Errorf("defaultOpenShards(%d) = %d; want %d", tc.limit, got, tc.want)
		}
	}
	if limit := openFileLimit(); limit > 0 {
		s, err := Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if s.cache.max != defaultOpenShards(limit) {
			t.Errorf("a store keeps %d shards open with %d open files allowed; want %d", s.cache.max, limit, defaultOpenShards(limit))
		}
	}
}
