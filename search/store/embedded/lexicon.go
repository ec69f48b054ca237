package embedded

import (
	"bytes"
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	index "github.com/blevesearch/bleve_index_api"
	"github.com/blevesearch/mmap-go"
	segment "github.com/blevesearch/scorch_segment_api/v2"
)

// The lexicon gives a query, for each of its terms, every filing's
// document frequency and score bounds (see termBound) without reading the
// filings' segments.
//
// Each shard holds terms.bin, its term table: every term of its segment,
// sorted, with its document frequency, its largest frequency in a chunk
// and, per frequency up to tfLevels, the smallest length of a chunk
// holding it that often. Put writes it with the shard's other files, so
// it is committed with them; it is not in SUMS but carries the size and
// CRC-32C of the index.zap it describes and a CRC-32C of its own, and a
// table that fails them is made again from the segment. A shard written
// by an earlier release has none: Open with [Progress] makes them (the
// stage [StageLexicon]).
//
// The store's lexicon/ directory holds lexicon segments, each merging the
// term tables of up to lexGroup shards: a sorted term dictionary and, per
// term, the list of (shard, document frequency, bounds). A segment names
// its shards by directory name ("<accession>.<generation>"), so an entry
// of a shard replaced or removed since no longer matches a shard of the
// view and is ignored; a segment is checked against its CRC-32C when a
// process first maps it and removed if it fails (its shards are then
// looked up as shards no segment covers). The segments are a cache: a
// shard no segment covers is counted and bounded from its own segment's
// dictionary, as before the lexicon existed. Put merges the shards no
// segment covers into a new segment once there are lexGroup of them;
// Close and Open with Progress merge all of them, and segments left with
// few live shards are merged again.
const (
	fileTerms  = "terms.bin"
	dirLexicon = "lexicon"
	termsMagic = "e13fterm"
	lexMagic   = "e13flex1"
	lexHeader  = 8 + 4 + 4 + 8 + 8 + 8
	termsHead  = 8 + 8 + 4 + 4
)

// lexGroup is the number of shards a lexicon segment merges at most.
var lexGroup = 256

// A termStat is one term of a shard's term table.
type termStat struct {
	term string
	df   uint64
	b    termBound
}

func newTermStat(term string) *termStat {
	ts := &termStat{term: term, b: termBound{bound: true}}
	for j := range ts.b.minDL {
		ts.b.minDL[j] = math.MaxInt32
	}
	return ts
}

// add counts a chunk of length dl holding the term freq times.
func (ts *termStat) add(freq uint64, dl int32) {
	ts.df++
	ts.b.maxTF = max(ts.b.maxTF, freq)
	for j := range min(freq, tfLevels) {
		ts.b.minDL[j] = min(ts.b.minDL[j], dl)
	}
}

// appendStat encodes a term's statistics (not the term).
func appendStat(b []byte, df uint64, tb *termBound) []byte {
	b = binary.AppendUvarint(b, df)
	b = binary.AppendUvarint(b, tb.maxTF)
	for j := range min(tb.maxTF, tfLevels) {
		b = binary.AppendUvarint(b, uint64(tb.minDL[j]))
	}
	return b
}

// readStat decodes what appendStat wrote; n is 0 when b is bad.
func readStat(b []byte) (df uint64, tb termBound, n int) {
	df, a := binary.Uvarint(b)
	if a <= 0 {
		return 0, tb, 0
	}
	tf, c := binary.Uvarint(b[a:])
	if c <= 0 {
		return 0, tb, 0
	}
	n = a + c
	tb = termBound{bound: true, maxTF: tf}
	for j := range tfLevels {
		tb.minDL[j] = math.MaxInt32
		if uint64(j) < tf {
			dl, d := binary.Uvarint(b[n:])
			if d <= 0 || dl > math.MaxInt32 {
				return 0, tb, 0
			}
			tb.minDL[j] = int32(dl)
			n += d
		}
	}
	return df, tb, n
}

// termsOfDocs returns the term table of a shard's analysed documents,
// dls being their lengths.
func termsOfDocs(docs []index.Document, dls []int) []termStat {
	m := map[string]*termStat{}
	for i, d := range docs {
		d.VisitFields(func(f index.Field) {
			if f.Name() != textField {
				return
			}
			for term, tf := range f.AnalyzedTokenFrequencies() {
				ts := m[term]
				if ts == nil {
					ts = newTermStat(term)
					m[term] = ts
				}
				ts.add(uint64(tf.Frequency()), int32(dls[i]))
			}
		})
	}
	out := make([]termStat, 0, len(m))
	for _, ts := range m {
		out = append(out, *ts)
	}
	slices.SortFunc(out, func(a, b termStat) int { return strings.Compare(a.term, b.term) })
	return out
}

// allTerms is the automaton that accepts every term.
type allTerms struct{}

func (allTerms) Start() int               { return 0 }
func (allTerms) IsMatch(int) bool         { return true }
func (allTerms) CanMatch(int) bool        { return true }
func (allTerms) WillAlwaysMatch(int) bool { return true }
func (allTerms) Accept(int, byte) int     { return 0 }

// termsOfSegment returns the term table of an open shard's segment.
func termsOfSegment(h *handle) (out []termStat, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = damagef("%s: %v", fileIndex, r)
		}
	}()
	dict, err := h.seg.Dictionary(textField)
	if err != nil {
		return nil, damageErr(h, err)
	}
	nc := uint64(h.tab.len())
	it := dict.AutomatonIterator(allTerms{}, nil, nil)
	var pit segment.PostingsIterator
	for {
		e, err := it.Next()
		if err != nil {
			return nil, damageErr(h, err)
		}
		if e == nil {
			break
		}
		pl, err := dict.PostingsList([]byte(e.Term), nil, nil)
		if err != nil {
			return nil, damageErr(h, err)
		}
		ts := newTermStat(e.Term)
		pit = pl.Iterator(true, false, false, pit)
		for {
			p, err := pit.Next()
			if err != nil {
				return nil, damageErr(h, err)
			}
			if p == nil {
				break
			}
			if p.Number() >= nc {
				return nil, damageErr(h, fmt.Errorf("document %d of %d", p.Number(), nc))
			}
			ts.add(p.Frequency(), h.tab.dlen[p.Number()])
		}
		out = append(out, *ts)
	}
	return out, nil
}

// encodeTerms returns terms.bin for a table describing the segment whose
// sum is zap.
func encodeTerms(stats []termStat, zap fileSum) []byte {
	b := make([]byte, termsHead, termsHead+16*len(stats))
	copy(b, termsMagic)
	binary.LittleEndian.PutUint64(b[8:], uint64(zap.size))
	binary.LittleEndian.PutUint32(b[16:], zap.crc)
	binary.LittleEndian.PutUint32(b[20:], uint32(len(stats)))
	for i := range stats {
		b = binary.AppendUvarint(b, uint64(len(stats[i].term)))
		b = append(b, stats[i].term...)
		b = appendStat(b, stats[i].df, &stats[i].b)
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

// termsBody checks terms.bin against itself and the segment's sum zap
// and returns its entries.
func termsBody(b []byte, zap fileSum) ([]byte, bool) {
	if len(b) < termsHead+4 || string(b[:8]) != termsMagic {
		return nil, false
	}
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	if crc32.Checksum(body, castagnoli) != sum ||
		binary.LittleEndian.Uint64(b[8:]) != uint64(zap.size) || binary.LittleEndian.Uint32(b[16:]) != zap.crc {
		return nil, false
	}
	return body[termsHead:], true
}

// A termCursor walks a term table's entries.
type termCursor struct {
	src  int // the shard's number in the segment being built
	rest []byte
	term []byte
	stat []byte
}

// next moves to the next term; false at the end or on a bad entry.
func (c *termCursor) next() bool {
	if len(c.rest) == 0 {
		return false
	}
	l, a := binary.Uvarint(c.rest)
	if a <= 0 || uint64(len(c.rest)-a) < l {
		return false
	}
	c.term = c.rest[a : a+int(l)]
	_, _, n := readStat(c.rest[a+int(l):])
	if n == 0 {
		return false
	}
	c.stat = c.rest[a+int(l) : a+int(l)+n]
	c.rest = c.rest[a+int(l)+n:]
	return true
}

// validTerms reports whether a term table's entries decode and are sorted.
func validTerms(body []byte) bool {
	c := termCursor{rest: body}
	var prev []byte
	for i := 0; c.next(); i++ {
		if i > 0 && bytes.Compare(prev, c.term) >= 0 {
			return false
		}
		prev = c.term
	}
	return len(c.rest) == 0
}

type cursorHeap []*termCursor

func (h cursorHeap) Len() int { return len(h) }
func (h cursorHeap) Less(i, j int) bool {
	if c := bytes.Compare(h[i].term, h[j].term); c != 0 {
		return c < 0
	}
	return h[i].src < h[j].src
}
func (h cursorHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *cursorHeap) Push(x any)   { *h = append(*h, x.(*termCursor)) }
func (h *cursorHeap) Pop() any {
	old := *h
	c := old[len(old)-1]
	*h = old[:len(old)-1]
	return c
}

// encodeLexSegment merges the term tables of named shards into a lexicon
// segment:
//
//	magic (8) | shards u32 | terms u32 | names, term ends, terms bytes: u64 lengths
//	names: per shard u16 length, name, and its index.zap's size (u64) and
//	CRC-32C (u32): a shard set aside as damaged and put again has the
//	same name, not the same segment
//	term ends: u32 per term, the end of its bytes in terms bytes
//	terms bytes
//	entry ends: u64 per term, the end of its entries
//	entries: per shard holding the term, in shard order: uvarint shard, stat
//	CRC-32C of all before
func encodeLexSegment(names []string, zaps []fileSum, bodies [][]byte) []byte {
	return assembleLex(names, zaps, mergeTerms(bodies))
}

// mergedTerms are the term dictionary and entries of a lexicon segment.
type mergedTerms struct {
	n                                   int
	termEnds, termB, entryEnds, entries []byte
}

// mergeTerms merges term tables, the i-th being shard i's.
func mergeTerms(bodies [][]byte) *mergedTerms {
	h := make(cursorHeap, 0, len(bodies))
	for i, b := range bodies {
		c := &termCursor{src: i, rest: b}
		if c.next() {
			h = append(h, c)
		}
	}
	heap.Init(&h)
	m := &mergedTerms{}
	for len(h) > 0 {
		term := h[0].term
		m.termB = append(m.termB, term...)
		m.termEnds = binary.LittleEndian.AppendUint32(m.termEnds, uint32(len(m.termB)))
		for len(h) > 0 && bytes.Equal(h[0].term, term) {
			c := h[0]
			m.entries = binary.AppendUvarint(m.entries, uint64(c.src))
			m.entries = append(m.entries, c.stat...)
			if c.next() {
				heap.Fix(&h, 0)
			} else {
				heap.Pop(&h)
			}
		}
		m.entryEnds = binary.LittleEndian.AppendUint64(m.entryEnds, uint64(len(m.entries)))
		m.n++
	}
	return m
}

// assembleLex returns the lexicon segment of named shards and their
// merged term tables.
func assembleLex(names []string, zaps []fileSum, m *mergedTerms) []byte {
	var nameB []byte
	for i, n := range names {
		nameB = binary.LittleEndian.AppendUint16(nameB, uint16(len(n)))
		nameB = append(nameB, n...)
		nameB = binary.LittleEndian.AppendUint64(nameB, uint64(zaps[i].size))
		nameB = binary.LittleEndian.AppendUint32(nameB, zaps[i].crc)
	}
	b := make([]byte, lexHeader, lexHeader+len(nameB)+len(m.termEnds)+len(m.termB)+len(m.entryEnds)+len(m.entries)+4)
	copy(b, lexMagic)
	binary.LittleEndian.PutUint32(b[8:], uint32(len(names)))
	binary.LittleEndian.PutUint32(b[12:], uint32(m.n))
	binary.LittleEndian.PutUint64(b[16:], uint64(len(nameB)))
	binary.LittleEndian.PutUint64(b[24:], uint64(len(m.termB)))
	binary.LittleEndian.PutUint64(b[32:], uint64(len(m.entries)))
	b = append(b, nameB...)
	b = append(b, m.termEnds...)
	b = append(b, m.termB...)
	b = append(b, m.entryEnds...)
	b = append(b, m.entries...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

// A lexSegment is a mapped lexicon segment.
type lexSegment struct {
	file      string
	names     []string
	zaps      []fileSum // the sum of each shard's index.zap
	nTerms    int
	termEnds  []byte
	termB     []byte
	entryEnds []byte
	entries   []byte
}

// openLexSegment maps a lexicon segment and checks it whole; a segment
// that fails is a *damage.
func openLexSegment(path string) (*lexSegment, error) {
	m, err := mapFile(path)
	if err != nil {
		return nil, err
	}
	ls, err := parseLexSegment(m)
	if err != nil {
		if m != nil {
			m.Unmap()
		}
		return nil, err
	}
	ls.file = filepath.Base(path)
	runtime.AddCleanup(ls, func(m mmap.MMap) { m.Unmap() }, m)
	return ls, nil
}

func parseLexSegment(b []byte) (*lexSegment, error) {
	if len(b) < lexHeader+4 || string(b[:8]) != lexMagic {
		return nil, damagef("not a lexicon segment")
	}
	body := b[:len(b)-4]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return nil, damagef("the lexicon segment does not match its sum")
	}
	ns := int(binary.LittleEndian.Uint32(b[8:]))
	nt := int(binary.LittleEndian.Uint32(b[12:]))
	nameLen := binary.LittleEndian.Uint64(b[16:])
	termLen := binary.LittleEndian.Uint64(b[24:])
	entLen := binary.LittleEndian.Uint64(b[32:])
	rest := body[lexHeader:]
	need := nameLen + 4*uint64(nt) + termLen + 8*uint64(nt) + entLen
	if uint64(len(rest)) != need {
		return nil, damagef("the lexicon segment's sections do not add up")
	}
	ls := &lexSegment{nTerms: nt}
	nameB := rest[:nameLen]
	rest = rest[nameLen:]
	for len(nameB) >= 2 && len(ls.names) < ns {
		l := int(binary.LittleEndian.Uint16(nameB))
		if len(nameB) < 2+l+12 {
			break
		}
		ls.names = append(ls.names, string(nameB[2:2+l]))
		ls.zaps = append(ls.zaps, fileSum{size: int64(binary.LittleEndian.Uint64(nameB[2+l:])), crc: binary.LittleEndian.Uint32(nameB[2+l+8:])})
		nameB = nameB[2+l+12:]
	}
	if len(ls.names) != ns || len(nameB) != 0 {
		return nil, damagef("the lexicon segment's names are bad")
	}
	ls.termEnds, rest = rest[:4*nt], rest[4*nt:]
	ls.termB, rest = rest[:termLen], rest[termLen:]
	ls.entryEnds, ls.entries = rest[:8*nt], rest[8*nt:]
	return ls, nil
}

func (ls *lexSegment) termAt(i int) []byte {
	start := uint32(0)
	if i > 0 {
		start = binary.LittleEndian.Uint32(ls.termEnds[4*(i-1):])
	}
	end := binary.LittleEndian.Uint32(ls.termEnds[4*i:])
	if start > end || int(end) > len(ls.termB) {
		return nil
	}
	return ls.termB[start:end]
}

// lookup returns the entries of term, nil when the segment lacks it.
func (ls *lexSegment) lookup(term []byte) []byte {
	lo, hi := 0, ls.nTerms
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if bytes.Compare(ls.termAt(m), term) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == ls.nTerms || !bytes.Equal(ls.termAt(lo), term) {
		return nil
	}
	start := uint64(0)
	if lo > 0 {
		start = binary.LittleEndian.Uint64(ls.entryEnds[8*(lo-1):])
	}
	end := binary.LittleEndian.Uint64(ls.entryEnds[8*lo:])
	if start > end || end > uint64(len(ls.entries)) {
		return nil
	}
	return ls.entries[start:end]
}

// A lexView is the lexicon as a query on one view uses it: each segment's
// shards as indexes in the view's shards (-1: not in the view, or covered
// by an earlier segment), and which shards of the view some segment
// covers. A segment's shard is the view's shard of the same name and the
// same index.zap sum.
type lexView struct {
	v       *view
	gen     int64
	segs    []*lexSegment
	slot    [][]int32
	covered []bool
	ncov    int
	// live counts, per segment, its shards in the view.
	live []int
}

// lexicon is the store's lexicon state: the segments mapped, by file
// name, and the lexView of the last view a query asked for.
type lexicon struct {
	mu   sync.Mutex
	segs map[string]*lexSegment
	cur  atomic.Pointer[lexView]
	gen  atomic.Int64 // raised when segments are made or removed
	// damaged counts the segments found damaged and removed; built
	// counts the segments made (tests).
	damaged atomic.Int64
	built   atomic.Int64
}

// lexOf returns the lexicon for v, nil when it has no segment.
func (s *Store) lexOf(v *view) *lexView {
	lx := &s.lex
	gen := lx.gen.Load()
	if cur := lx.cur.Load(); cur != nil && cur.v == v && cur.gen == gen {
		return cur
	}
	lx.mu.Lock()
	defer lx.mu.Unlock()
	if cur := lx.cur.Load(); cur != nil && cur.v == v && cur.gen == gen {
		return cur
	}
	lv := s.newLexView(v, gen)
	lx.cur.Store(lv)
	return lv
}

// newLexView lists lexicon/, maps the segments not mapped yet and places
// their shards in v. s.lex.mu is held.
func (s *Store) newLexView(v *view, gen int64) *lexView {
	lx := &s.lex
	if lx.segs == nil {
		lx.segs = map[string]*lexSegment{}
	}
	entries, _ := os.ReadDir(s.path(dirLexicon))
	var files []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".lex") {
			files = append(files, e.Name())
		}
	}
	slices.Sort(files)
	for name := range lx.segs {
		if !slices.Contains(files, name) {
			delete(lx.segs, name)
		}
	}
	at := make(map[string]int32, len(v.shards))
	for i, sh := range v.shards {
		at[sh.name] = int32(i)
	}
	lv := &lexView{v: v, gen: gen, covered: make([]bool, len(v.shards))}
	for _, name := range files {
		ls := lx.segs[name]
		if ls == nil {
			var err error
			ls, err = openLexSegment(s.path(dirLexicon, name))
			var d *damage
			if errors.As(err, &d) {
				// A cache: removed, its shards are looked up without it
				// until a segment covers them again.
				os.Remove(s.path(dirLexicon, name))
				lx.damaged.Add(1)
				continue
			}
			if err != nil {
				continue
			}
			lx.segs[name] = ls
		}
		slot := make([]int32, len(ls.names))
		live := 0
		for j, n := range ls.names {
			slot[j] = -1
			if i, ok := at[n]; ok && !lv.covered[i] && v.shards[i].sums[fileIndex] == ls.zaps[j] {
				slot[j] = i
				lv.covered[i] = true
				live++
			}
		}
		lv.segs = append(lv.segs, ls)
		lv.slot = append(lv.slot, slot)
		lv.live = append(lv.live, live)
		lv.ncov += live
	}
	return lv
}

// lexStats fills, for each term and each shard of the view a segment
// covers, its document frequency (counts[i*nt+t]) and bound (tbs[i*nt+t]);
// a covered shard without the term keeps a zero count and gets a known
// bound. It returns the segment of an entry that is bad, nil when none
// is.
func (lv *lexView) stats(terms [][]byte, counts []uint64, tbs []termBound) *lexSegment {
	nt := len(terms)
	for i, c := range lv.covered {
		if c {
			for t := range nt {
				tbs[i*nt+t] = termBound{bound: true}
			}
		}
	}
	for si, ls := range lv.segs {
		slot := lv.slot[si]
		for t, term := range terms {
			e := ls.lookup(term)
			for len(e) > 0 {
				src, a := binary.Uvarint(e)
				if a <= 0 || src >= uint64(len(slot)) {
					return ls
				}
				df, tb, n := readStat(e[a:])
				if n == 0 {
					return ls
				}
				e = e[a+n:]
				if i := slot[src]; i >= 0 {
					counts[int(i)*nt+t] = df
					tbs[int(i)*nt+t] = tb
				}
			}
		}
	}
	return nil
}

// dropLexSegment removes a segment found damaged: its shards are looked
// up without it until a segment covers them again.
func (s *Store) dropLexSegment(ls *lexSegment) {
	lx := &s.lex
	lx.mu.Lock()
	defer lx.mu.Unlock()
	delete(lx.segs, ls.file)
	os.Remove(s.path(dirLexicon, ls.file))
	lx.damaged.Add(1)
	lx.gen.Add(1)
}

// writeTermsFile writes a shard's terms.bin in dir. A shard being built
// (tmpDir "") gets it directly; a committed one through a temporary file
// in tmpDir (the store's tmp/, which Open sweeps, so a process killed
// while writing leaves nothing in the shard) renamed into place. It is not
// synced: a table a crash cut short fails its CRC and is made again (see
// makeTerms), and a Put spares a sync.
func writeTermsFile(dir string, stats []termStat, zap fileSum, tmpDir string, hook func(string)) error {
	b := encodeTerms(stats, zap)
	path := filepath.Join(dir, fileTerms)
	if tmpDir == "" {
		return os.WriteFile(path, b, 0o600)
	}
	return writeViaTemp(tmpDir, path, b, hook, "terms written")
}

// readTerms returns a shard's term table entries, false when terms.bin is
// missing or does not match the shard's segment.
func readTerms(sh *shard) ([]byte, bool) {
	b, err := os.ReadFile(filepath.Join(sh.dir, fileTerms))
	if err != nil {
		return nil, false
	}
	body, ok := termsBody(b, sh.sums[fileIndex])
	if !ok || !validTerms(body) {
		return nil, false
	}
	return body, true
}

// buildLexicon merges into new segments the shards of v no segment
// covers, and the shards of segments left with few live shards when
// there are several such segments. Unless all is true, it merges only
// full groups of lexGroup shards. Shards without a valid term table are
// left out. It is a cache: an error leaves the lexicon as it was. The
// write lock is held.
func (s *Store) buildLexicon(v *view, all bool) error {
	lv := s.lexOf(v)
	var loose []*shard
	for i, sh := range v.shards {
		if !lv.covered[i] && !sh.noTerms.Load() {
			loose = append(loose, sh)
		}
	}
	var retire []string
	var small []int
	for si := range lv.segs {
		if lv.live[si] < lexGroup/2 {
			small = append(small, si)
		}
	}
	if len(small) >= 4 || (all && len(small) >= 2) {
		for _, si := range small {
			for _, i := range lv.slot[si] {
				if i >= 0 {
					loose = append(loose, v.shards[i])
				}
			}
			retire = append(retire, lv.segs[si].file)
		}
	}
	if len(loose) == 0 || (!all && len(loose) < lexGroup) {
		return nil
	}
	if err := os.MkdirAll(s.path(dirLexicon), 0o700); err != nil {
		return err
	}
	made := false
	for start := 0; start < len(loose); start += lexGroup {
		group := loose[start:min(len(loose), start+lexGroup)]
		if !all && len(group) < lexGroup && len(retire) == 0 {
			break
		}
		var names []string
		var zaps []fileSum
		var bodies [][]byte
		for _, sh := range group {
			body, ok := readTerms(sh)
			if !ok {
				sh.noTerms.Store(true)
				continue
			}
			names = append(names, sh.name)
			zaps = append(zaps, sh.sums[fileIndex])
			bodies = append(bodies, body)
		}
		if len(names) == 0 {
			continue
		}
		b := encodeLexSegment(names, zaps, bodies)
		token := randomToken()
		tmp := s.path(dirTemp, token+".lex")
		_, err := writeSynced(tmp, func(w io.Writer) error {
			_, err := w.Write(b)
			return err
		})
		if err == nil {
			s.hook("wrote lexicon segment in " + dirTemp)
			err = os.Rename(tmp, s.path(dirLexicon, token+".lex"))
		}
		if err != nil {
			os.Remove(tmp)
			return err
		}
		made = true
		s.lex.built.Add(1)
		s.hook("wrote lexicon segment")
	}
	if made {
		if err := syncDir(s.path(dirLexicon)); err != nil {
			return err
		}
	}
	for _, f := range retire {
		if err := os.Remove(s.path(dirLexicon, f)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	if made || len(retire) > 0 {
		s.lex.gen.Add(1)
	}
	return nil
}

// termsOfShard returns the term table of a shard's segment, checked
// against its sum, without keeping the shard open (nor checking its other
// files, which the first query that opens it does).
func termsOfShard(sh *shard) (_ []termStat, err error) {
	if err := verifyFiles(sh, fileIndex); err != nil {
		return nil, err
	}
	h := &handle{sh: sh}
	if h.tab, err = readTable(sh); err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			err = damagef("%s: %v", fileIndex, r)
		}
	}()
	seg, err := zapPlugin.Open(filepath.Join(sh.dir, fileIndex))
	if err != nil {
		return nil, damagef("%s: %v", fileIndex, err)
	}
	defer seg.Close()
	h.seg = seg
	if seg.Count() != uint64(h.tab.len()) {
		return nil, damagef("%s holds %d documents, not %d", fileIndex, seg.Count(), h.tab.len())
	}
	return termsOfSegment(h)
}

// makeTerms makes the term tables the shards of v lack (a store written by
// an earlier release) or whose table does not match their segment, from
// their segments, on every CPU, reporting the stage StageLexicon.
func (s *Store) makeTerms(v *view, progress func(OpenProgress)) {
	lv := s.lexOf(v)
	var todo []*shard
	for i, sh := range v.shards {
		if lv.covered[i] {
			continue
		}
		if _, err := os.Stat(filepath.Join(sh.dir, fileTerms)); err == nil {
			if _, ok := readTerms(sh); ok {
				continue
			}
		}
		todo = append(todo, sh)
	}
	if len(todo) == 0 {
		return
	}
	eachShard(todo, StageLexicon, progress, func(sh *shard) {
		// A shard that fails is left to the query that opens it, which
		// sets it aside.
		if stats, err := termsOfShard(sh); err == nil {
			if writeTermsFile(sh.dir, stats, sh.sums[fileIndex], s.path(dirTemp), s.hook) == nil {
				sh.noTerms.Store(false)
			}
		}
	})
}
