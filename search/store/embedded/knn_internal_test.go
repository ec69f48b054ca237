package embedded

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search/internal/vecmath"
	"github.com/edgar13f/edgar13f/search/store"
)

// TestDotsKernels: each assembly kernel the machine runs gives exactly
// dotsGo's sums, on random codes and queries of every dimension up to
// 200 and some larger, multiples of the vector width or not, extremes
// included.
func TestDotsKernels(t *testing.T) {
	ks := kernels()
	if len(ks) == 1 {
		t.Logf("no assembly kernel on this machine (kernel %d)", kernel)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	dims := []int{}
	for d := 1; d <= 200; d++ {
		dims = append(dims, d)
	}
	dims = append(dims, 255, 256, 257, 383, 384, 385, 448, 1000, 1024, 1536)
	for _, dim := range dims {
		for _, n := range []int{0, 1, 2, 7} {
			qc := &queryCode{b: make([]int8, dim), b16: make([]int16, dim)}
			codes := make([]byte, n*dim)
			for j := range qc.b {
				switch rng.IntN(8) {
				case 0:
					qc.b[j] = -128
				case 1:
					qc.b[j] = 127
				default:
					qc.b[j] = int8(rng.IntN(256) - 128)
				}
				qc.b16[j] = int16(qc.b[j])
			}
			for j := range codes {
				switch rng.IntN(8) {
				case 0:
					codes[j] = 255
				case 1:
					codes[j] = 0
				default:
					codes[j] = byte(rng.IntN(256))
				}
			}
			want := make([]int32, n)
			dotsGo(qc.b, codes, want)
			for i := range want {
				var s int64
				for j := range dim {
					s += int64(codes[i*dim+j]) * int64(qc.b[j])
				}
				if int64(want[i]) != s {
					t.Fatalf("dotsGo dim %d vector %d = %d; want %d", dim, i, want[i], s)
				}
			}
			for _, kn := range ks {
				got := make([]int32, n+1)
				got[n] = 12345 // must not be written
				// The codes at the end of their slice: a kernel reading past
				// it would read what follows.
				qc.dotsWith(kn, codes, got[:n])
				if !slices.Equal(got[:n], want) || got[n] != 12345 {
					t.Fatalf("kernel %d, dim %d, %d vectors: %v; want %v", kn, dim, n, got, want)
				}
			}
		}
	}
}

// adversarialVectors returns a query q and vectors whose compact codes are
// all the same while their exact cosines to q differ by almost the whole
// error bound: each vector's rounding error points along q (q is ±127 in
// every component, so its own code is exact and Cauchy–Schwarz is almost
// tight). Their true cosines rise with their index.
func adversarialVectors(rng *rand.Rand, dim, n int) ([]float32, [][]float32) {
	q := make([]float32, dim)
	for i := range q {
		q[i] = 127
		if rng.IntN(2) == 0 {
			q[i] = -127
		}
	}
	return q, adversarialFamily(q, n, 0.27, 0.45)
}

// adversarialFamily returns n vectors of codes ±100 or ±101 along q (one
// component ±127), each component of vector j at 100 plus a fraction
// rising from lo to hi with j: below one half the codes are 100 and the
// rounding errors point along q, above it they are 101 and point against
// it (codes made by truncation instead of rounding would all be 100).
func adversarialFamily(q []float32, n int, lo, hi float64) [][]float32 {
	const s = 1.0 / 128
	var vs [][]float32
	for j := range n {
		frac := lo + (hi-lo)*float64(j)/float64(n)
		v := make([]float32, len(q))
		v[0] = float32(127 * s * math.Copysign(1, float64(q[0]))) // the largest: code ±127, no error
		for i := 1; i < len(q); i++ {
			v[i] = float32(s * math.Copysign(100+frac, float64(q[i])))
		}
		vs = append(vs, v)
	}
	return vs
}

// queryErrorFamily returns a query whose code is not exact and n vectors
// whose codes are (no rounding error) with the same product with the
// query's code, while their exact cosines rise with their index along
// the query's own rounding error.
func queryErrorFamily(dim, n int) ([]float32, [][]float32) {
	q := make([]float32, dim)
	q[0] = 127 // the largest: the query's scale is 1
	pairs := (dim - 1) / 2
	for p := range pairs {
		q[1+2*p] = 50.45 // code 50, error +0.45
		q[2+2*p] = 49.55 // code 50, error −0.45
	}
	const s = 1.0 / 128
	var vs [][]float32
	for j := range n {
		v := make([]float32, dim)
		v[0] = 127 * s
		for p := range pairs {
			v[1+2*p] = float32(s * float64(60+j))
			v[2+2*p] = float32(s * float64(60-j))
		}
		if dim%2 == 0 {
			v[dim-1] = 60 * s
		}
		vs = append(vs, v)
	}
	return q, vs
}

// TestCompactBound: for random vectors (of every scale, with spikes,
// subnormal, zero) and adversarial ones, and random and aligned queries,
// the exact cosine lies within the compact estimate's bound, and the test
// finds a bound made half as wide, or codes one step off, wrong.
func TestCompactBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	type vq struct {
		qs [][]float32
		vs [][]float32
	}
	var cases []vq
	for _, dim := range []int{1, 3, 37, 64, 384} {
		var c vq
		for range 60 {
			v := make([]float32, dim)
			scale := math.Ldexp(1, rng.IntN(60)-30)
			for i := range v {
				v[i] = float32(rng.NormFloat64() * scale)
			}
			switch rng.IntN(6) {
			case 0:
				v[rng.IntN(dim)] *= 1000 // a spike
			case 1:
				for i := range v {
					v[i] = float32(rng.NormFloat64()) * 1e-42 // subnormal
				}
			case 2:
				clear(v)
			}
			c.vs = append(c.vs, v)
			q := slices.Clone(v) // aligned
			for i := range q {
				q[i] += float32(rng.NormFloat64() * scale * 0.01)
			}
			c.qs = append(c.qs, q)
			r := make([]float32, dim)
			for i := range r {
				r[i] = float32(rng.NormFloat64())
			}
			c.qs = append(c.qs, r)
		}
		cases = append(cases, c)
		if dim > 2 {
			q, vs := adversarialVectors(rng, dim, 20)
			cases = append(cases, vq{[][]float32{q}, append(vs, adversarialFamily(q, 20, 0.55, 0.95)...)})
			q, vs = queryErrorFamily(dim, 20)
			cases = append(cases, vq{[][]float32{q}, vs})
		}
	}
	// violations counts the pairs whose exact cosine is outside the
	// estimate's bound, for a compact copy made with fault.
	violations := func(fault func(code []byte, alpha, beta *float32)) (bad int, total int) {
		for _, c := range cases {
			dim := len(c.vs[0])
			norms := make([]float64, len(c.vs))
			for i, v := range c.vs {
				norms[i] = vecmath.Norm(v)
			}
			b := encodeCompact(c.vs, norms, dim, fileSum{}, fault)
			sh := &shard{rec: record{Meta: store.Meta{Dim: dim}, Filing: store.Filing{Chunks: len(c.vs)}}, sums: map[string]fileSum{}}
			cp, err := parseCompact(b, sh)
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range c.qs {
				qn := vecmath.Norm(q)
				if qn == 0 {
					continue
				}
				q64 := make([]float64, dim)
				for i, x := range q {
					q64[i] = float64(x)
				}
				qc := quantizeQuery(q, qn)
				dots := make([]int32, len(c.vs))
				qc.dots(cp.codes, dots)
				for d, v := range c.vs {
					if norms[d] == 0 {
						continue
					}
					total++
					exact := vecmath.Dot(q64, v) / (qn * norms[d])
					est, bound := qc.estimate(cp, d, dots[d])
					// exact is at most est+bound (below never drops it) and,
					// by the same bound, at least est−bound.
					if below(est, bound, exact) || below(-est, bound, -exact) {
						bad++
					}
				}
			}
		}
		return bad, total
	}
	if bad, total := violations(nil); bad != 0 || total < 1000 {
		t.Fatalf("%d of %d cosines outside their bound", bad, total)
	}
	if bad, _ := violations(func(_ []byte, _, beta *float32) { *beta /= 2 }); bad == 0 {
		t.Error("a bound half as wide went unnoticed")
	}
	if bad, _ := violations(stepTowardZero); bad == 0 {
		t.Error("codes one step off went unnoticed")
	}
	if bad, _ := violations(truncated); bad == 0 {
		t.Error("codes truncated went unnoticed")
	}
}

// stepTowardZero moves every code one step toward zero, keeping α and β:
// a wrong quantization.
func stepTowardZero(code []byte, _, _ *float32) {
	for j, c := range code {
		switch {
		case c > 128:
			code[j]--
		case c < 128:
			code[j]++
		}
	}
}

// truncated makes the codes of magnitude 101 (the adversarial family's
// components rounded up) 100, as truncation would have, keeping α and β:
// a wrong quantization.
func truncated(code []byte, _, _ *float32) {
	for j, c := range code {
		switch c {
		case 128 + 101:
			code[j]--
		case 128 - 101:
			code[j]++
		}
	}
}

// knnCase is a store of vectors for the exactness tests and the answers
// exhaustive float scoring gives.
type knnCase struct {
	dir     string
	meta    store.Meta
	queries [][]float32
	vecs    map[string][]float32 // by chunk ID
	items   map[string]string    // by chunk ID
	chunks  int
}

// newKNNCase puts filings of random vectors, near ties (one float32 step
// apart, scaled by powers of two), an adversarial family (the same codes,
// exact cosines spread across the bound, in rising order in the shard) and
// vectors of norm 0 into a store in a new directory.
func newKNNCase(t *testing.T, dim int) *knnCase {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	kc := &knnCase{dir: dir, meta: store.Meta{Model: "m", Dim: dim}, vecs: map[string][]float32{}, items: map[string]string{}}
	rng := rand.New(rand.NewPCG(uint64(dim), 7))
	advQ, adv := adversarialVectors(rng, dim, 40)
	errQ, errVecs := queryErrorFamily(dim, 40)
	base := make([]float32, dim)
	for i := range base {
		base[i] = float32(rng.NormFloat64())
	}
	for i := range 6 {
		acc := fmt.Sprintf("%010d-24-%06d", i+1, i+1)
		f := store.Filing{Accession: acc, CIK: fmt.Sprint(i + 1), Ticker: fmt.Sprintf("T%d", i%3), Form: "10-K", FilingDate: edgar13f.MustParseDate("2024-02-01").AddDays(i)}
		var cs []store.Chunk
		var vs [][]float32
		add := func(item string, v []float32) {
			id := fmt.Sprintf("%d-%03d", i, len(cs))
			cs = append(cs, store.Chunk{ID: id, Accession: acc, Item: item, Index: len(cs), Text: "x"})
			vs = append(vs, v)
			kc.vecs[id], kc.items[id] = v, item
		}
		switch i {
		case 0:
			for _, v := range adv {
				add("1", v)
			}
		case 1:
			for range 60 {
				v := slices.Clone(base)
				for range 3 {
					c := rng.IntN(dim)
					v[c] = math.Nextafter32(v[c], float32(rng.NormFloat64())*1e3)
				}
				scale := float32(math.Ldexp(1, rng.IntN(20)-10))
				for c := range v {
					v[c] *= scale
				}
				add("1A", v)
			}
			add("1A", make([]float32, dim))
		case 2:
			for _, v := range adversarialFamily(advQ, 40, 0.55, 0.95) {
				add("7", v)
			}
		case 3:
			for _, v := range errVecs {
				add("1", v)
			}
		default:
			for j := range 80 {
				v := make([]float32, dim)
				for c := range v {
					v[c] = float32(rng.NormFloat64())
				}
				add([]string{"1", "1A", "7"}[j%3], v)
			}
		}
		if err := s.Put(ctx, f, cs, vs, kc.meta); err != nil {
			t.Fatal(err)
		}
		kc.chunks += len(cs)
	}
	kc.queries = append(kc.queries, advQ, errQ, base)
	for trial := range 8 {
		q := slices.Clone(base)
		for c := range q {
			q[c] += float32(rng.NormFloat64()) * 1e-6 * float32(trial)
		}
		kc.queries = append(kc.queries, q)
		r := make([]float32, dim)
		for c := range r {
			r[c] = float32(rng.NormFloat64())
		}
		kc.queries = append(kc.queries, r)
	}
	kc.queries = append(kc.queries, make([]float32, dim)) // norm 0: every score 0
	return kc
}

// want returns what exhaustive float scoring answers: the k best chunks
// passing items (nil: all), by score then ID.
func (kc *knnCase) want(q []float32, k int, item string) []store.Match {
	q64 := make([]float64, len(q))
	for i, x := range q {
		q64[i] = float64(x)
	}
	qn := vecmath.Norm(q)
	var all []store.Match
	for id, v := range kc.vecs {
		if item != "" && kc.items[id] != item {
			continue
		}
		score := 0.0
		if vn := vecmath.Norm(v); qn > 0 && vn > 0 {
			score = vecmath.Dot(q64, v) / (qn * vn)
		}
		all = append(all, store.Match{Chunk: store.Chunk{ID: id}, Score: score})
	}
	slices.SortFunc(all, func(a, b store.Match) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), strings.Compare(a.Chunk.ID, b.Chunk.ID))
	})
	return all[:min(k, len(all))]
}

// mismatches runs every query of kc on s with k 1, 5, 17 and 100, with
// and without an Item filter, and returns how many answers differ from
// exhaustive float scoring (and the first difference).
func (kc *knnCase) mismatches(t *testing.T, s *Store) (int, string) {
	bad, first := 0, ""
	for qi, q := range kc.queries {
		for _, k := range []int{1, 5, 17, 100} {
			for _, item := range []string{"", "1"} {
				f := store.Filter{AsOf: edgar13f.MustParseDate("2030-01-01"), Item: item}
				got, err := s.Nearest(ctx, q, f, k)
				if err != nil {
					t.Fatal(err)
				}
				want := kc.want(q, k, item)
				same := len(got) == len(want)
				for i := 0; same && i < len(got); i++ {
					same = got[i].Chunk.ID == want[i].Chunk.ID && got[i].Score == want[i].Score
				}
				if !same {
					if bad == 0 {
						first = fmt.Sprintf("query %d, k %d, item %q: got %v; want %v", qi, k, item, brief(got), brief(want))
					}
					bad++
				}
			}
		}
	}
	return bad, first
}

func brief(ms []store.Match) []string {
	var out []string
	for _, m := range ms {
		out = append(out, fmt.Sprintf("%s:%.17g", m.Chunk.ID, m.Score))
	}
	if len(out) > 6 {
		out = append(out[:6], "…")
	}
	return out
}

// TestNearestCompactExact: kNN through the compact copies answers exactly
// as exhaustive float scoring does (the same chunks, order and scores), on
// random vectors, near ties and an adversarial family whose exact cosines
// spread across their bound, in dimensions that are and are not multiples
// of the kernels' width, while it scores exactly only a small part of the
// chunks. The same test finds a bound half as wide, and a wrong
// quantization (codes one step toward zero, or β halved), wrong.
func TestNearestCompactExact(t *testing.T) {
	for _, dim := range []int{64, 37, 384} {
		t.Run(fmt.Sprint(dim), func(t *testing.T) {
			kc := newKNNCase(t, dim)
			s, err := Open(kc.dir)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if bad, first := kc.mismatches(t, s); bad > 0 {
				t.Fatalf("%d answers differ from exhaustive scoring; first: %s", bad, first)
			}
			if n := s.compactMade.Load(); n != 0 {
				t.Errorf("made %d compact copies; want 0 (Put writes them)", n)
			}
			queries := int64(len(kc.queries)-1) * 8 // the zero query reads none
			if exact := s.knnExact.Load(); exact > queries*int64(kc.chunks)/2 {
				t.Errorf("scored %d chunks exactly in %d queries of %d chunks: the compact scan skips too few", exact, queries, kc.chunks)
			}

			// Planted faults: each must change some answer.
			faults := []struct {
				name  string
				bound func(float64) float64
				quant func(code []byte, alpha, beta *float32)
			}{
				{"bound half as wide", func(b float64) float64 { return b / 2 }, nil},
				{"codes one step toward zero", nil, stepTowardZero},
				{"beta halved", nil, func(_ []byte, _, beta *float32) { *beta /= 2 }},
				{"codes truncated", nil, truncated},
			}
			for _, fault := range faults {
				// The compact copies are made again, with the fault.
				copies, _ := filepath.Glob(filepath.Join(kc.dir, dirFilings, "*", fileCompact))
				if len(copies) != 6 {
					t.Fatalf("%d compact copies; want 6", len(copies))
				}
				for _, p := range copies {
					if err := os.Remove(p); err != nil {
						t.Fatal(err)
					}
				}
				fs, err := Open(kc.dir)
				if err != nil {
					t.Fatal(err)
				}
				fs.knnBoundFault, fs.quantFault = fault.bound, fault.quant
				if bad, _ := kc.mismatches(t, fs); bad == 0 {
					t.Errorf("%s: no answer changed", fault.name)
				}
				if n := fs.compactMade.Load(); n != 6 {
					t.Errorf("%s: made %d compact copies; want 6", fault.name, n)
				}
				fs.Close()
			}
		})
	}
}

// TestCompactMadeAgain: a shard without its compact copy (a store written
// before it existed), with a damaged one, a truncated one or one made from
// other vectors, answers kNN exactly; the copy is made again once and
// written, so the next process maps it.
func TestCompactMadeAgain(t *testing.T) {
	kc := newKNNCase(t, 37)
	copies, _ := filepath.Glob(filepath.Join(kc.dir, dirFilings, "*", fileCompact))
	slices.Sort(copies)
	if len(copies) != 6 {
		t.Fatalf("%d compact copies; want 6", len(copies))
	}
	other, err := os.ReadFile(copies[4])
	if err != nil {
		t.Fatal(err)
	}
	damage := []func(p string) error{
		os.Remove,
		func(p string) error { // one bit flipped
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			b[len(b)/2] ^= 4
			return os.WriteFile(p, b, 0o600)
		},
		func(p string) error { return os.Truncate(p, 100) },
		func(p string) error { return os.WriteFile(p, other, 0o600) }, // another shard's: its header does not match
	}
	for i, d := range damage {
		if err := d(copies[i]); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(kc.dir)
	if err != nil {
		t.Fatal(err)
	}
	if bad, first := kc.mismatches(t, s); bad > 0 {
		t.Fatalf("%d answers differ from exhaustive scoring; first: %s", bad, first)
	}
	if n := s.compactMade.Load(); n != int64(len(damage)) {
		t.Errorf("made %d compact copies; want %d", n, len(damage))
	}
	if dmg, _ := s.Damaged(); len(dmg) != 0 {
		t.Errorf("Damaged = %v; want none (a compact copy is a cache)", dmg)
	}
	s.Close()
	s, err = Open(kc.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if bad, first := kc.mismatches(t, s); bad > 0 {
		t.Fatalf("again: %d answers differ; first: %s", bad, first)
	}
	if n := s.compactMade.Load(); n != 0 {
		t.Errorf("the next process made %d compact copies; want 0", n)
	}
	left, _ := filepath.Glob(filepath.Join(kc.dir, dirFilings, "*", "*.tmp"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

const compactCrashEnv = "EMBEDDED_COMPACT_CRASH_DIR"

// TestCompactCrashHelper is the process TestCompactKilledLeavesNothing
// kills: it asks a kNN question of the store in $EMBEDDED_COMPACT_CRASH_DIR,
// whose compact copies are missing, and stops once a copy is written but
// not yet in place, printing "step", until it is killed.
func TestCompactCrashHelper(t *testing.T) {
	stopAtStep(t, compactCrashEnv, "TestCompactKilledLeavesNothing", "compact written", func(s *Store) error {
		q := make([]float32, 37)
		q[0] = 1
		_, err := s.Nearest(ctx, q, store.Filter{AsOf: edgar13f.MustParseDate("2030-01-01")}, 5)
		return err
	}, "no copy was made")
}

// TestCompactKilledLeavesNothing kills a process while it writes a
// shard's compact copy, and checks that nothing of that copy is left in
// the shard's directory, that the next Open sweeps its temporary file,
// and that the answers are exact.
func TestCompactKilledLeavesNothing(t *testing.T) {
	kc := newKNNCase(t, 37)
	copies, _ := filepath.Glob(filepath.Join(kc.dir, dirFilings, "*", fileCompact))
	for _, c := range copies {
		if err := os.Remove(c); err != nil {
			t.Fatal(err)
		}
	}
	killAtStep(t, "TestCompactCrashHelper", compactCrashEnv, kc.dir, copies, fileCompact)
	s, err := Open(kc.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if left, _ := os.ReadDir(filepath.Join(kc.dir, dirTemp)); len(left) != 0 {
		t.Errorf("Open left %d entries in %s", len(left), dirTemp)
	}
	if bad, first := kc.mismatches(t, s); bad > 0 {
		t.Fatalf("%d answers differ from exhaustive scoring; first: %s", bad, first)
	}
}

// TestOpenMakesCompactCopies: Open with Progress makes the compact copies
// a store lacks (removed, cut short, or another shard's), reporting that
// stage up to all of them, so that the first kNN query makes none; a copy
// lost after Open is still made again by the query that needs it.
func TestOpenMakesCompactCopies(t *testing.T) {
	kc := newKNNCase(t, 37)
	copies, _ := filepath.Glob(filepath.Join(kc.dir, dirFilings, "*", fileCompact))
	slices.Sort(copies)
	if len(copies) != 6 {
		t.Fatalf("%d compact copies; want 6", len(copies))
	}
	other, err := os.ReadFile(copies[5])
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range copies[:3] {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Truncate(copies[3], 100); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(copies[4], other, 0o600); err != nil {
		t.Fatal(err)
	}
	var seen []OpenProgress
	s, err := Open(kc.dir, OpenShards(2), Progress(func(p OpenProgress) { seen = append(seen, p) }))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var stage []OpenProgress
	for _, p := range seen {
		if p.Stage == StageCompact {
			stage = append(stage, p)
		}
	}
	if len(stage) == 0 || stage[len(stage)-1].Done != 5 || stage[len(stage)-1].Total != 5 {
		t.Fatalf("progress of Open = %+v; want the compact copies' stage to end at 5 of 5 filings", seen)
	}
	if stage[0].Done != 0 {
		t.Errorf("the compact copies' stage starts at %+v; want it reported before the first copy is made", stage[0])
	}
	last := stage[len(stage)-1].String()
	if !strings.Contains(last, "one-byte copies") || !strings.Contains(last, "5 of 5 filings") {
		t.Errorf("the stage reads %q; want it to say what is made, 5 of 5 filings", last)
	}
	t.Logf("opening: %s", last)
	if n := s.compactMade.Load(); n != 5 {
		t.Errorf("Open made %d compact copies; want 5", n)
	}
	for _, p := range copies {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("no compact copy after Open: %v", err)
		}
	}
	if bad, first := kc.mismatches(t, s); bad > 0 {
		t.Fatalf("%d answers differ from exhaustive scoring; first: %s", bad, first)
	}
	if n := s.compactMade.Load(); n != 5 {
		t.Errorf("the kNN queries after Open made %d compact copies; want none", n-5)
	}

	// Lost after Open: the shards not kept open have theirs made again.
	q := make([]float32, 37)
	q[0], q[1] = 1, -2
	nearest := func() {
		t.Helper()
		if _, err := s.Nearest(ctx, q, store.Filter{AsOf: edgar13f.MustParseDate("2030-01-01")}, 5); err != nil {
			t.Fatal(err)
		}
	}
	nearest() // the shards kept open have their copies loaded
	for _, p := range copies {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	kept := int64(s.cache.open())
	nearest()
	if n := s.compactMade.Load() - 5; n != 6-kept {
		t.Errorf("after the copies were lost, the query made %d; want %d (the shards not kept open)", n, 6-kept)
	}
	if got, _ := filepath.Glob(filepath.Join(kc.dir, dirFilings, "*", fileCompact)); int64(len(got)) != 6-kept {
		t.Errorf("%d compact copies on disk; want %d", len(got), 6-kept)
	}
	if bad, first := kc.mismatches(t, s); bad > 0 {
		t.Fatalf("after the copies were lost, %d answers differ; first: %s", bad, first)
	}

	// Without Progress, Open leaves them to the queries.
	s2, err := Open(kc.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if n := s2.compactMade.Load(); n != 0 {
		t.Errorf("Open without Progress made %d compact copies; want none", n)
	}
}
