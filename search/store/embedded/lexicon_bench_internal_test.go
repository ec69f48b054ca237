package embedded

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search/store"
)

// BenchmarkLexiconStats measures what a BM25 query spends on its
// statistics and bounds at 25,000 filings (10 million chunks of 400),
// from lexicon segments of 256 filings each: three terms looked up in
// every segment, every filing's frequency and bound decoded. The term
// tables are synthetic: 4,000 terms a filing drawn from 20,000 with a
// skew, so that common terms are in nearly every filing.
func BenchmarkLexiconStats(b *testing.B) {
	const filings, vocab, perFiling = 25_000, 20_000, 4_000
	dir := b.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, dirLexicon), 0o700); err != nil {
		b.Fatal(err)
	}
	s := &Store{dir: dir}
	term := func(i int) string { return "t" + strconv.Itoa(i) }
	rng := rand.New(rand.NewPCG(1, 2))
	// 256 filings' tables, merged once, make every segment (under other
	// names): the lookups cost the same.
	var bodies [][]byte
	for range lexGroup {
		seen := map[int]bool{}
		var stats []termStat
		for len(stats) < perFiling {
			x := min(vocab-1, int(rng.ExpFloat64()*vocab/8))
			if seen[x] {
				continue
			}
			seen[x] = true
			ts := newTermStat(term(x))
			ts.df, ts.b.maxTF = uint64(1+rng.IntN(400)), uint64(1+rng.IntN(4))
			for j := range ts.b.maxTF {
				ts.b.minDL[j] = int32(100 + 20*int(j) + rng.IntN(20))
			}
			stats = append(stats, *ts)
		}
		slices.SortFunc(stats, func(a, b termStat) int { return strings.Compare(a.term, b.term) })
		body, _ := termsBody(encodeTerms(stats, fileSum{}), fileSum{})
		bodies = append(bodies, body)
	}
	merged := mergeTerms(bodies)
	var shards []*shard
	for start := 0; start < filings; start += lexGroup {
		var names []string
		var zaps []fileSum
		for i := start; i < min(filings, start+lexGroup); i++ {
			name := shardName(fmt.Sprintf("%010d-24-%06d", i+1, i+1), 1)
			zap := fileSum{size: int64(i), crc: uint32(i)}
			sh := &shard{name: name, sums: map[string]fileSum{fileIndex: zap}}
			sh.rec.Filing.FilingDate = edgar13f.MustParseDate("2015-01-01").AddDays(i % 3650)
			sh.rec.Filing.Chunks = 400
			shards = append(shards, sh)
			names, zaps = append(names, name), append(zaps, zap)
		}
		m := *merged
		if len(names) < lexGroup {
			// The last segment's entries name only its filings.
			var short [][]byte
			short = append(short, bodies[:len(names)]...)
			m = *mergeTerms(short)
		}
		seg := assembleLex(names, zaps, &m)
		if err := os.WriteFile(filepath.Join(dir, dirLexicon, fmt.Sprintf("%06d.lex", start)), seg, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	v := &view{shards: shards}
	t0 := time.Now()
	lv := s.newLexView(v, 0)
	firstView := time.Since(t0)
	if lv.ncov != filings {
		b.Fatalf("the lexicon covers %d of %d filings", lv.ncov, filings)
	}
	queries := [][][]byte{{[]byte(term(1)), []byte(term(2)), []byte(term(3))}, {[]byte(term(50)), []byte(term(900)), []byte(term(4000))}}
	nt := 3
	counts := make([]uint64, nt*filings)
	tbs := make([]termBound, nt*filings)
	f := store.Filter{AsOf: edgar13f.MustParseDate("2030-01-01")}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		clear(counts)
		if bad := lv.stats(queries[i%len(queries)], counts, tbs); bad != nil {
			b.Fatal("bad entry")
		}
		df := make([]uint64, nt)
		for vi, sh := range v.shards {
			if !f.AsOf.Before(sh.rec.Filing.FilingDate) {
				for t := range nt {
					df[t] += counts[vi*nt+t]
				}
			}
		}
		if df[0] == 0 {
			b.Fatal("no document frequency")
		}
	}
	b.ReportMetric(float64(firstView.Microseconds())/1000, "first-view-ms")
}
