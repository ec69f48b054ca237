package embedded

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"

	"github.com/blevesearch/mmap-go"

	"github.com/edgar13f/edgar13f/search/internal/vecmath"
	"github.com/edgar13f/edgar13f/search/store"
)

// Nearest scans a compact copy of each shard's vectors, one byte per
// component, and scores exactly, in float64 from the float32 vectors,
// only the chunks whose cosine may reach the k-th best kept. The answer is
// the one exhaustive float scoring gives: same chunks, order and scores.
//
// A vector v is stored as s·a + r: a an integer in [-127, 127] per
// component (the code), s = max|v_i|/127 its scale, r what rounding left.
// A query q is quantised the same way, q = t·b + p. Then
//
//	q·v = s·t·(a·b) + t·(b·r) + p·v
//	|q·v − s·t·(a·b)| ≤ t·|b|·|r| + |p|·|v|   (Cauchy–Schwarz)
//
// so the cosine q·v/(|q|·|v|) lies within
//
//	(t/|q|)·α·(a·b) ± ((t·|b|/|q|)·β + |p|/|q|)
//
// where α = s/|v| and β ≥ |r|/|v| are kept per vector (β rounded up).
// a·b is an exact integer sum. The estimate and its bound are computed
// in float64; a margin of 1e-9 plus 2^-22 of their size covers α's
// rounding to float32, the float64 rounding of the estimate and that of
// the exact score itself (each far below it). A chunk is scored exactly
// unless the estimate plus the bound and the margin is below the k-th
// exact score kept, which then no exact score of that chunk can reach.

// fileCompact is the compact copy of a shard's vectors. It is derived
// from vectors.f32 and is not listed in SUMS: like the manifest it is a
// cache, never the truth. It records the size and CRC-32C of the
// vectors.f32 it was made from and ends with its own CRC-32C; one that
// does not match is made again from the vectors (as for a shard written
// before it existed: its first kNN query makes it, and writes it beside
// the shard's files for the next).
//
//	0   8  magic "e13fq8v1"
//	8   4  dimension
//	12  4  number of vectors n
//	16  8  size of vectors.f32
//	24  4  CRC-32C of vectors.f32
//	28  4  zero
//	32  4n α of each vector, float32
//	    4n β of each vector, float32
//	    n·dim codes, each a+128 (an unsigned byte)
//	    4  CRC-32C of all the above
//
// All numbers little-endian.
const (
	fileCompact   = "vectors.q8"
	compactMagic  = "e13fq8v1"
	compactHeader = 32

	// maxCompactDim is the largest dimension the compact scan takes: a
	// sum of dim products of at most 255·127 must fit an int32. Larger
	// vectors are scored exactly, all of them.
	maxCompactDim = 1 << 16
)

// A compact is a shard's compact vectors, mapped or in memory.
type compact struct {
	dim   int
	alpha []float32
	beta  []float32
	codes []byte
	m     mmap.MMap // the mapping, when mapped
}

func (c *compact) close() {
	if c != nil && c.m != nil {
		c.m.Unmap()
		c.m = nil
	}
}

// quantize writes the code of v (offset by 128) into code and returns its
// α = s/|v| and β ≥ |v − s·a|/|v|, for vn = norm(v). A vector of norm 0
// has α = β = 0.
func quantize(v []float32, vn float64, code []byte) (alpha, beta float32) {
	// The largest magnitude, by the bits: finite floats without their
	// sign order as their bits do.
	var mb uint32
	for _, x := range v {
		mb = max(mb, math.Float32bits(x)&0x7fffffff)
	}
	m := math.Float32frombits(mb)
	if m == 0 || vn == 0 {
		for j := range code[:len(v)] {
			code[j] = 128
		}
		return 0, 0
	}
	s := m / 127
	if s == 0 { // m is among the smallest subnormals
		s = math.SmallestNonzeroFloat32
	}
	s64 := float64(s)
	inv := 1 / s64 // any rounding of x/s makes a valid code: r keeps the rest
	var e2 float64
	for j, x := range v {
		a := min(127, max(-127, math.RoundToEven(float64(x)*inv)))
		code[j] = byte(int(a) + 128)
		// Exact: x has 24 significant bits, s·a at most 31, and they
		// differ by little.
		r := float64(x) - s64*a
		e2 += r * r
	}
	// The sum of squares, its root and the division each round by at
	// most 2^-52 relative per term: 1e-6 more covers any dimension below
	// 10^9.
	return float32(s64 / vn), roundUp32(math.Sqrt(e2) / vn * (1 + 1e-6))
}

// roundUp32 returns the least float32 not below x ≥ 0.
func roundUp32(x float64) float32 {
	f := float32(x)
	if float64(f) < x {
		f = math.Nextafter32(f, float32(math.Inf(1)))
	}
	return f
}

// A queryCode is a query vector quantised for the compact scan.
type queryCode struct {
	b    []int8  // its code, b
	b16  []int16 // the same, widened (for the AVX2 kernel)
	sumB int64   // Σ b_j: a·b = Σ (a_j+128)·b_j − 128·Σ b_j
	k    float64 // t/|q|: the estimate is k·α·(a·b)
	kb   float64 // t·|b|/|q|: the bound is kb·β + c
	c    float64 // |p|/|q|
}

// quantizeQuery returns the code of q, of norm qn > 0.
func quantizeQuery(q []float32, qn float64) *queryCode {
	qc := &queryCode{b: make([]int8, len(q)), b16: make([]int16, len(q))}
	m := 0.0
	for _, x := range q {
		m = max(m, math.Abs(float64(x)))
	}
	t := m / 127
	var e2 float64
	var bb int64
	for j, x := range q {
		b := min(127, max(-127, math.RoundToEven(float64(x)/t)))
		qc.b[j], qc.b16[j] = int8(b), int16(b)
		qc.sumB += int64(b)
		bb += int64(b) * int64(b)
		r := float64(x) - t*b
		e2 += r * r
	}
	qc.k = t / qn
	qc.kb = t * math.Sqrt(float64(bb)) / qn
	qc.c = math.Sqrt(e2) / qn * (1 + 1e-6)
	return qc
}

// estimate returns the estimated cosine of the query to vector d of c,
// whose code's product with the query's is raw (as dots gives it), and
// the bound of the estimate's error.
func (qc *queryCode) estimate(c *compact, d int, raw int32) (est, bound float64) {
	est = qc.k * float64(c.alpha[d]) * float64(int64(raw)-128*qc.sumB)
	return est, qc.kb*float64(c.beta[d]) + qc.c
}

// below reports whether a cosine estimated as est within bound is sure to
// be scored below kth: the estimate, the bound and the margin for
// rounding (see fileCompact) are below it.
func below(est, bound, kth float64) bool {
	return est+bound+1e-9+0x1p-22*(math.Abs(est)+bound) < kth
}

// dots sets out[i] to Σ_j codes[i·dim+j]·b_j for each i < len(out), on
// the fastest kernel of the machine.
func (qc *queryCode) dots(codes []byte, out []int32) { qc.dotsWith(kernel, codes, out) }

// dotsWith is dots on the given kernel, which the machine must run.
func (qc *queryCode) dotsWith(kn int, codes []byte, out []int32) {
	dim := len(qc.b)
	if len(codes) < len(out)*dim {
		panic("embedded: dots: codes too short")
	}
	if dim == 0 || len(out) == 0 {
		clear(out)
		return
	}
	switch kn {
	case kernelVNNI:
		dotsVNNI(qc.b, codes, out)
	case kernelAVX2:
		dotsAVX2(qc.b16, codes, out)
	default:
		dotsGo(qc.b, codes, out)
	}
}

// dotsGo is dots in Go, the reference for the assembly kernels.
func dotsGo(b []int8, codes []byte, out []int32) {
	dim := len(b)
	for i := range out {
		c := codes[i*dim : (i+1)*dim]
		var s0, s1, s2, s3 int32
		j := 0
		for ; j+4 <= dim; j += 4 {
			s0 += int32(c[j]) * int32(b[j])
			s1 += int32(c[j+1]) * int32(b[j+1])
			s2 += int32(c[j+2]) * int32(b[j+2])
			s3 += int32(c[j+3]) * int32(b[j+3])
		}
		for ; j < dim; j++ {
			s0 += int32(c[j]) * int32(b[j])
		}
		out[i] = s0 + s1 + s2 + s3
	}
}

// The kernels dots may use.
const (
	kernelGo = iota
	kernelAVX2
	kernelVNNI
)

// compactOf returns the compact vectors of an open shard, mapping them
// from its vectors.q8 or, when that is missing or does not match, making
// them from its vectors and writing the file for next time (kept in
// memory when it cannot be written). nil means the shard's vectors are
// scored without it (a dimension above maxCompactDim).
func (s *Store) compactOf(h *handle) *compact {
	h.compactOnce.Do(func() {
		dim := h.sh.rec.Meta.Dim
		if dim == 0 || dim > maxCompactDim {
			return
		}
		path := filepath.Join(h.sh.dir, fileCompact)
		if c := s.mapCompact(h, path); c != nil {
			h.compact = c
			return
		}
		b := makeCompact(h, s.quantFault)
		s.compactMade.Add(1)
		// Written under the write lock, while the shard is still whole in
		// filings/: a Put removes a replaced shard, and Open removes an
		// older generation, under that lock, so no file lands in a
		// directory being removed.
		err := s.locked(func() error {
			if _, err := os.Stat(filepath.Join(h.sh.dir, fileSums)); err != nil {
				return err
			}
			return writeCompact(s.path(dirTemp), path, b, s.hook)
		})
		if err == nil {
			if c := s.mapCompact(h, path); c != nil {
				h.compact = c
				return
			}
		}
		c, _ := parseCompact(b, h.sh)
		h.compact = c
	})
	return h.compact
}

// mapCompact maps and checks the compact vectors of a shard, or returns
// nil. Their CRC is checked the first time this process maps them.
func (s *Store) mapCompact(h *handle, path string) *compact {
	m, err := mapFile(path)
	if err != nil || m == nil {
		return nil
	}
	if !h.sh.compactChecked.Load() {
		n := len(m) - 4
		if n < compactHeader || crc32.Checksum(m[:n], castagnoli) != binary.LittleEndian.Uint32(m[n:]) {
			m.Unmap()
			return nil
		}
	}
	c, err := parseCompact(m, h.sh)
	if err != nil {
		m.Unmap()
		return nil
	}
	h.sh.compactChecked.Store(true)
	c.m = m
	return c
}

// parseCompact reads the compact vectors in b, checking that they were
// made from the shard's vectors; the CRC is not checked. The floats are
// views of b when the machine allows it.
func parseCompact(b []byte, sh *shard) (*compact, error) {
	dim, n := sh.rec.Meta.Dim, sh.rec.Filing.Chunks
	if len(b) < compactHeader || !compactMatches(b[:compactHeader], int64(len(b)), sh) {
		return nil, errors.New("the compact vectors do not match the shard")
	}
	floats := func(p []byte) []float32 {
		if f := floatsOf(p); f != nil || len(p) == 0 {
			return f
		}
		f := make([]float32, len(p)/4)
		for i := range f {
			f[i] = math.Float32frombits(binary.LittleEndian.Uint32(p[4*i:]))
		}
		return f
	}
	off := compactHeader
	c := &compact{dim: dim}
	c.alpha = floats(b[off : off+4*n])
	off += 4 * n
	c.beta = floats(b[off : off+4*n])
	off += 4 * n
	c.codes = b[off : off+n*dim]
	return c, nil
}

// compactMatches reports whether a compact vectors file of size bytes
// whose header is head was made from the shard's vectors. Its CRC is not
// checked.
func compactMatches(head []byte, size int64, sh *shard) bool {
	dim, n := sh.rec.Meta.Dim, sh.rec.Filing.Chunks
	src := sh.sums[fileVectors]
	return size == int64(compactHeader+8*n+n*dim+4) && len(head) >= compactHeader && string(head[:8]) == compactMagic &&
		binary.LittleEndian.Uint32(head[8:]) == uint32(dim) && binary.LittleEndian.Uint32(head[12:]) == uint32(n) &&
		binary.LittleEndian.Uint64(head[16:]) == uint64(src.size) && binary.LittleEndian.Uint32(head[24:]) == src.crc
}

// needsCompact reports whether the shard should have a compact copy of its
// vectors and its vectors.q8 is missing or was not made from them, as far
// as its size and header tell (its CRC is checked when it is first mapped).
func needsCompact(sh *shard) bool {
	if dim := sh.rec.Meta.Dim; dim == 0 || dim > maxCompactDim {
		return false
	}
	f, err := os.Open(filepath.Join(sh.dir, fileCompact))
	if err != nil {
		return true
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return true
	}
	head := make([]byte, compactHeader)
	if _, err := io.ReadFull(f, head); err != nil {
		return true
	}
	return !compactMatches(head, fi.Size(), sh)
}

// makeCompacts makes the compact copies of the vectors of the shards of v
// that lack one (see needsCompact) as compactOf does, on every CPU,
// reporting its progress to progress. A shard that cannot be opened (set
// aside as damaged, or replaced meanwhile) is passed over: the query that
// needs it meets the same. No lock is held; compactOf takes the write
// lock to write each copy.
func (s *Store) makeCompacts(v *view, progress func(OpenProgress)) {
	var todo []*shard
	for _, sh := range v.shards {
		if needsCompact(sh) {
			todo = append(todo, sh)
		}
	}
	if len(todo) == 0 {
		return
	}
	eachShard(todo, StageCompact, progress, func(sh *shard) {
		if hs, err := s.acquire([]*shard{sh}); err == nil {
			s.compactOf(hs[0])
			s.releaseAll(hs)
		}
	})
}

// eachShard runs f on every shard of todo (none empty), on every CPU,
// reporting stage's progress to progress when it begins, at every whole
// percent and when it ends.
func eachShard(todo []*shard, stage OpenStage, progress func(OpenProgress), f func(*shard)) {
	var mu sync.Mutex
	p := OpenProgress{Stage: stage, Total: len(todo)}
	every := max(1, len(todo)/100)
	progress(p)
	next := make(chan *shard)
	workers := min(runtime.GOMAXPROCS(0), len(todo))
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for sh := range next {
				f(sh)
				mu.Lock()
				p.Done++
				if p.Done%every == 0 && p.Done < p.Total {
					progress(p)
				}
				mu.Unlock()
			}
		}()
	}
	for _, sh := range todo {
		next <- sh
	}
	close(next)
	wg.Wait()
	progress(p)
}

// makeCompact returns the content of the compact vectors file of an open
// shard. fault, when not nil, changes each vector's code, α and β
// (tests).
func makeCompact(h *handle, fault func(code []byte, alpha, beta *float32)) []byte {
	dim, n := h.sh.rec.Meta.Dim, h.tab.len()
	vecs := make([][]float32, n)
	buf := make([]float32, dim)
	for i := range vecs {
		// A view of the mapping, or a copy of what buf decoded.
		vecs[i] = h.vector(i, buf)
		if h.floats == nil {
			vecs[i] = slices.Clone(vecs[i])
		}
	}
	return encodeCompact(vecs, h.tab.norm, dim, h.sh.sums[fileVectors], fault)
}

// encodeCompact returns the content of the compact vectors file of
// vectors of norms norms, made from a vectors.f32 of sum src.
func encodeCompact(vecs [][]float32, norms []float64, dim int, src fileSum, fault func(code []byte, alpha, beta *float32)) []byte {
	n := len(vecs)
	b := make([]byte, compactHeader+8*n+n*dim+4)
	copy(b, compactMagic)
	binary.LittleEndian.PutUint32(b[8:], uint32(dim))
	binary.LittleEndian.PutUint32(b[12:], uint32(n))
	binary.LittleEndian.PutUint64(b[16:], uint64(src.size))
	binary.LittleEndian.PutUint32(b[24:], src.crc)
	codes := b[compactHeader+8*n:]
	for i, v := range vecs {
		code := codes[i*dim : (i+1)*dim]
		alpha, beta := quantize(v, norms[i], code)
		if fault != nil {
			fault(code, &alpha, &beta)
		}
		binary.LittleEndian.PutUint32(b[compactHeader+4*i:], math.Float32bits(alpha))
		binary.LittleEndian.PutUint32(b[compactHeader+4*n+4*i:], math.Float32bits(beta))
	}
	end := len(b) - 4
	binary.LittleEndian.PutUint32(b[end:], crc32.Checksum(b[:end], castagnoli))
	return b
}

// writeCompact writes a shard's compact vectors file beside its files,
// through a temporary file in tmpDir (see writeViaTemp). It is not
// synced: a file lost or cut short by a crash fails its CRC and is made
// again.
func writeCompact(tmpDir, path string, b []byte, hook func(string)) error {
	return writeViaTemp(tmpDir, path, b, hook, "compact written")
}

// writeCompactSynced writes the compact vectors file of a shard being
// built.
func writeCompactSynced(dir string, vectors [][]float32, norms []float64, dim int, src fileSum) error {
	if dim == 0 || dim > maxCompactDim {
		return nil
	}
	b := encodeCompact(vectors, norms, dim, src, nil)
	_, err := writeSynced(filepath.Join(dir, fileCompact), func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
	return err
}

// Nearest returns the k chunks whose vectors are closest to vector by
// cosine similarity among the chunks that pass f; see
// [store.Store.Nearest].
func (s *Store) Nearest(ctx context.Context, vector []float32, f store.Filter, k int) ([]store.Match, error) {
	if err := checkQuery("Nearest", f, k); err != nil {
		return nil, err
	}
	for _, x := range vector {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil, errors.New("edgar13f/search: Nearest: the query vector is not finite")
		}
	}
	return s.retry(ctx, func(v *view) ([]store.Match, error) { return s.nearest(v, vector, f, k) })
}

func (s *Store) nearest(v *view, q []float32, f store.Filter, k int) ([]store.Match, error) {
	if len(v.shards) == 0 || v.meta.Dim == 0 {
		return nil, store.ErrNoVectors
	}
	if len(q) != v.meta.Dim {
		return nil, fmt.Errorf("edgar13f/search: Nearest: the query vector has dimension %d, the store's %v", len(q), v.meta)
	}
	var shards []*shard
	for _, sh := range v.visible(f) {
		if passes(&sh.rec.Filing, f) {
			shards = append(shards, sh)
		}
	}
	hs, err := s.acquire(shards)
	if err != nil {
		return nil, err
	}
	defer s.releaseAll(hs)
	qn := vecmath.Norm(q)
	q64 := make([]float64, len(q))
	for i, x := range q {
		q64[i] = float64(x)
	}
	var qc *queryCode
	if qn > 0 && !s.noCompact {
		qc = quantizeQuery(q, qn)
	}
	// The shards are scored in parallel, each worker keeping its own best
	// k; merged, they give the same answer as one pass, since the order
	// (score, then ID) is total.
	workers := min(runtime.GOMAXPROCS(0), len(hs))
	tops := make([]*topK, workers)
	exact := make([]int64, workers)
	var wg sync.WaitGroup
	for w := range workers {
		tops[w] = newTopK(k)
		wg.Add(1)
		go func() {
			defer wg.Done()
			top := tops[w]
			buf := make([]float32, len(q))
			var dots []int32
			var keepItem []bool
			for i := w; i < len(hs); i += workers {
				h := hs[i]
				tab := &h.tab
				n := tab.len()
				keepItem = keepItem[:0]
				if f.Item != "" || len(f.Items) > 0 {
					for _, name := range tab.names {
						keepItem = append(keepItem, f.KeepsItem(name))
					}
				}
				var c *compact
				if qc != nil {
					c = s.compactOf(h)
				}
				if c != nil {
					dots = slices.Grow(dots[:0], n)[:n]
					qc.dots(c.codes, dots)
				}
				for d := range n {
					if len(keepItem) > 0 && !keepItem[tab.item[d]] {
						continue
					}
					score := 0.0
					if qn > 0 && tab.norm[d] > 0 {
						if c != nil && len(top.h) == top.k {
							est, bound := qc.estimate(c, d, dots[d])
							if s.knnBoundFault != nil {
								bound = s.knnBoundFault(bound)
							}
							if below(est, bound, top.h[0].score) {
								continue
							}
						}
						exact[w]++
						score = vecmath.Dot(q64, h.vector(d, buf)) / (qn * tab.norm[d])
					}
					if top.admits(score) {
						top.offer(candidate{score: score, h: h, doc: d})
					}
				}
			}
		}()
	}
	wg.Wait()
	top := newTopK(k)
	for w, t := range tops {
		s.knnExact.Add(exact[w])
		for _, c := range t.h {
			top.offer(c)
		}
	}
	return top.matches(s)
}
