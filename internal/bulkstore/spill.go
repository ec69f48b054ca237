package bulkstore

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unsafe"

	"github.com/edgar13f/edgar13f/internal/datasetzip"
	"github.com/edgar13f/edgar13f/internal/infotable"
)

// A spill is a set of bucket files of encoded rows on disk: the external
// sort that keeps an import's memory flat. Rows are routed to buckets of
// consecutive key ranges; each bucket is later read back whole, sorted and
// written out, so the output is globally sorted while at most one bucket
// is in memory.
type spill struct {
	files []*os.File
	ws    []*bufio.Writer
	rows  []int
}

// newSpill creates n bucket files, each written through a buffer of
// bufSize bytes.
func newSpill(dir, prefix string, n, bufSize int) (*spill, error) {
	s := &spill{}
	for i := 0; i < n; i++ {
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("%s-%04d.bin", prefix, i)))
		if err != nil {
			s.close()
			return nil, err
		}
		s.files = append(s.files, f)
		s.ws = append(s.ws, bufio.NewWriterSize(f, bufSize))
		s.rows = append(s.rows, 0)
	}
	return s, nil
}

// add appends one encoded record (with its length prefix) to bucket b.
func (s *spill) add(b int, rec []byte) error {
	s.rows[b]++
	_, err := s.ws[b].Write(rec)
	return err
}

// flush writes out every bucket's buffer and drops the buffers: once the
// spill is written, they would only hold memory.
func (s *spill) flush() error {
	for b := range s.ws {
		if err := s.flushBucket(b); err != nil {
			return err
		}
	}
	return nil
}

func (s *spill) flushBucket(b int) error {
	if s.ws[b] == nil {
		return nil
	}
	err := s.ws[b].Flush()
	s.ws[b] = nil
	return err
}

// read returns the bytes of bucket b, in buf when it is large enough.
func (s *spill) read(b int, buf []byte) ([]byte, error) {
	if err := s.flushBucket(b); err != nil {
		return nil, err
	}
	f := s.files[b]
	size, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, err
	}
	if int64(cap(buf)) < size {
		buf = make([]byte, size)
	}
	buf = buf[:size]
	if _, err := f.ReadAt(buf, 0); err != nil {
		return nil, err
	}
	return buf, nil
}

// drop removes bucket b's file once it has been used.
func (s *spill) drop(b int) {
	s.files[b].Close()
	os.Remove(s.files[b].Name())
	s.files[b] = nil
}

func (s *spill) close() {
	for i, f := range s.files {
		if f != nil {
			f.Close()
			os.Remove(f.Name())
			s.files[i] = nil
		}
	}
}

// A record is one information-table row as it travels through the spill:
//
//	uvarint length of the rest
//	uvarint ord (rank of the row's filing in filing order), uvarint row_no,
//	uvarint infotable_sk, 5 strings (issuer, class, CUSIP, FIGI, other
//	manager: uvarint length + bytes), uvarint value, uvarint shares,
//	byte flags (bit 0: PRN; bits 1-2: 0 none, 1 PUT, 2 CALL),
//	string discretion, 3 uvarint voting columns.

func appendStr(b, s []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// encode appends rec to dst, length-prefixed.
func encode(dst []byte, ord, rowNo int, r *datasetzip.InfoRow) []byte {
	var body [32]byte
	b := body[:0]
	b = binary.AppendUvarint(b, uint64(ord))
	b = binary.AppendUvarint(b, uint64(rowNo))
	b = binary.AppendUvarint(b, uint64(r.SK))
	start := len(dst)
	dst = append(dst, 0, 0, 0, 0, 0) // room for the length prefix (max 5 bytes)
	dst = append(dst, b...)
	dst = appendStr(dst, r.NameOfIssuer)
	dst = appendStr(dst, r.TitleOfClass)
	dst = appendStr(dst, r.CUSIP)
	dst = appendStr(dst, r.FIGI)
	dst = appendStr(dst, r.OtherManager)
	dst = binary.AppendUvarint(dst, uint64(r.Value))
	dst = binary.AppendUvarint(dst, uint64(r.Shares))
	var fl byte
	if r.ShPrn == "PRN" {
		fl |= 1
	}
	switch r.PutCall {
	case "PUT":
		fl |= 2
	case "CALL":
		fl |= 4
	}
	dst = append(dst, fl)
	dst = appendStr(dst, []byte(r.InvestmentDiscretion))
	dst = binary.AppendUvarint(dst, uint64(r.VotingSole))
	dst = binary.AppendUvarint(dst, uint64(r.VotingShared))
	dst = binary.AppendUvarint(dst, uint64(r.VotingNone))
	// Move the body left over the unused part of the prefix.
	n := len(dst) - start - 5
	var pre [binary.MaxVarintLen64]byte
	p := binary.PutUvarint(pre[:], uint64(n))
	copy(dst[start:], pre[:p])
	copy(dst[start+p:], dst[start+5:])
	return dst[:start+p+n]
}

var errSpill = errors.New("bulkstore: corrupt spill record")

// decoder reads records from a bucket's bytes.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errSpill
		d.b = nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

// str returns the next string as a view of the bucket's bytes (no copy):
// valid while the bucket's bytes are, which is until the bucket's rows are
// written (the Parquet writer copies what it keeps).
func (d *decoder) str() string {
	n := d.uvarint()
	if uint64(len(d.b)) < n {
		d.err = errSpill
		d.b = nil
		return ""
	}
	s := d.b[:n]
	d.b = d.b[n:]
	if n == 0 {
		return ""
	}
	return unsafe.String(&s[0], len(s))
}

// next splits off the next record (without its length prefix).
func (d *decoder) next() (rec, raw []byte, ok bool) {
	if len(d.b) == 0 || d.err != nil {
		return nil, nil, false
	}
	all := d.b
	n := d.uvarint()
	if d.err != nil || uint64(len(d.b)) < n {
		d.err = errSpill
		return nil, nil, false
	}
	rec = d.b[:n]
	d.b = d.b[n:]
	return rec, all[:len(all)-len(d.b)], true
}

// shPrn and putCall decode the flags byte.
var putCalls = [3]string{"", "PUT", "CALL"}

// decodeRow fills row from one record body; the filing-level columns come
// from filings (indexed by ord). It returns the record's ord.
func decodeRow(rec []byte, row *Row, filings []Filing) (int, error) {
	d := decoder{b: rec}
	ord := int(d.uvarint())
	row.RowNo = int32(d.uvarint())
	row.SK = int64(d.uvarint())
	row.NameOfIssuer = d.str()
	row.TitleOfClass = d.str()
	row.CUSIP = d.str()
	row.FIGI = d.str()
	row.OtherManager = d.str()
	row.Value = int64(d.uvarint())
	row.Shares = int64(d.uvarint())
	if len(d.b) == 0 {
		return 0, errSpill
	}
	fl := d.b[0]
	d.b = d.b[1:]
	row.ShPrn = "SH"
	if fl&1 != 0 {
		row.ShPrn = "PRN"
	}
	row.PutCall = putCalls[(fl>>1)&3]
	row.InvestmentDiscretion = d.str()
	row.VotingSole = int64(d.uvarint())
	row.VotingShared = int64(d.uvarint())
	row.VotingNone = int64(d.uvarint())
	if d.err != nil || ord >= len(filings) {
		return 0, errSpill
	}
	f := &filings[ord]
	row.Period, row.CIK, row.FilingDate, row.Accession = f.Period, f.CIK, f.FilingDate, f.Accession
	row.CUSIPKey = upperKey(row.CUSIP)
	row.ValueUSD = infotable.ValueUSD(row.Value, row.FilingDate)
	return ord, nil
}

// upperKey returns s in upper case, sharing the string when it already is.
func upperKey(s string) string {
	for i := 0; i < len(s); i++ {
		if 'a' <= s[i] && s[i] <= 'z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'a' <= b[j] && b[j] <= 'z' {
					b[j] -= 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// sortKey is a record of a bucket with what orders it, as integers.
type sortKey struct {
	hi, lo uint64 // bytes 0-7 and 8-15 of the upper-case CUSIP, big-endian, zero-padded (CUSIP order only)
	pos    uint64 // ord<<32 | row_no: filing order
	off, n uint32 // the record body within the bucket's bytes
	klen   uint32 // length of the CUSIP
}

// compareKeys orders keys by CUSIP (when set), then filing order. data is
// the bucket, read again for the rare CUSIP longer than 16 bytes.
func compareKeys(x, y *sortKey, data []byte) int {
	if x.hi != y.hi {
		return cmp.Compare(x.hi, y.hi)
	}
	if x.lo != y.lo {
		return cmp.Compare(x.lo, y.lo)
	}
	if x.klen != y.klen || x.klen > 16 {
		if x.klen <= 16 && y.klen <= 16 {
			// Equal padded bytes: the shorter is a prefix of the longer.
			return cmp.Compare(x.klen, y.klen)
		}
		if c := strings.Compare(recordCUSIP(data, x), recordCUSIP(data, y)); c != 0 {
			return c
		}
	}
	return cmp.Compare(x.pos, y.pos)
}

// sortKeys sorts keys in compareKeys order and returns them, with the
// other buffer (tmp, grown as needed) for reuse. It is a radix sort:
// stable counting passes over the bytes of the keys, least significant
// first (row, filing, then CUSIP length and bytes when withCUSIP),
// skipping a byte that every key shares; the counts of every byte are
// taken in one read of the keys. A bucket with a CUSIP longer than 16
// bytes, which the integer keys do not hold whole, is sorted by
// comparison instead.
func sortKeys(keys, tmp []sortKey, data []byte, withCUSIP bool) (sorted, scratch []sortKey) {
	for i := range keys {
		if keys[i].klen > 16 {
			slices.SortFunc(keys, func(x, y sortKey) int { return compareKeys(&x, &y, data) })
			return keys, tmp
		}
	}
	if cap(tmp) < len(keys) {
		tmp = make([]sortKey, len(keys))
	}
	tmp = tmp[:len(keys)]
	if len(keys) < 2 {
		return keys, tmp
	}
	words := 1
	if withCUSIP {
		words = 4
	}
	counts := make([][8][256]uint32, words)
	for i := range keys {
		for w := range counts {
			v := keys[i].word(w)
			for b := range 8 {
				counts[w][b][byte(v>>(8*b))]++
			}
		}
	}
	for w := range counts {
		for b := range 8 {
			count := &counts[w][b]
			shift := 8 * b
			if count[byte(keys[0].word(w)>>shift)] == uint32(len(keys)) {
				continue // every key has this byte
			}
			var off [256]uint32
			for d, sum := 0, uint32(0); d < 256; d++ {
				off[d] = sum
				sum += count[d]
			}
			for i := range keys {
				d := byte(keys[i].word(w) >> shift)
				tmp[off[d]] = keys[i]
				off[d]++
			}
			keys, tmp = tmp, keys
		}
	}
	return keys, tmp
}

// word returns the parts of the key by significance, least first: pos,
// klen, lo, hi.
func (k *sortKey) word(i int) uint64 {
	switch i {
	case 0:
		return k.pos
	case 1:
		return uint64(k.klen)
	case 2:
		return k.lo
	}
	return k.hi
}

// recordCUSIP returns the upper-case CUSIP of k's record.
func recordCUSIP(data []byte, k *sortKey) string {
	r := decoder{b: data[k.off : k.off+k.n]}
	r.uvarint() // ord
	r.uvarint() // row_no
	r.uvarint() // infotable_sk
	r.str()     // issuer
	r.str()     // class
	return upperKey(r.str())
}

// keysOf splits a bucket into its records and appends their keys to keys
// (which the caller sizes and reuses: buckets are large). withCUSIP also
// sets the CUSIP part.
func keysOf(keys []sortKey, data []byte, withCUSIP bool) ([]sortKey, error) {
	d := decoder{b: data}
	for {
		rec, _, ok := d.next()
		if !ok {
			break
		}
		r := decoder{b: rec}
		ord, rowNo := r.uvarint(), r.uvarint()
		k := sortKey{pos: ord<<32 | rowNo&(1<<32-1),
			off: uint32(len(data) - len(d.b) - len(rec)), n: uint32(len(rec))}
		if withCUSIP {
			r.uvarint() // infotable_sk
			r.str()     // issuer
			r.str()     // class
			c := r.str()
			var b [16]byte
			copy(b[:], c)
			for i := range b {
				if 'a' <= b[i] && b[i] <= 'z' {
					b[i] -= 'a' - 'A'
				}
			}
			k.hi, k.lo = binary.BigEndian.Uint64(b[:8]), binary.BigEndian.Uint64(b[8:])
			k.klen = uint32(len(c))
		}
		if r.err != nil {
			return nil, r.err
		}
		keys = append(keys, k)
	}
	return keys, d.err
}

// cusipBuckets is the number of CUSIP buckets, a power of two. They are
// cut by a cusipRouter from a sample of the table's CUSIPs; a bucket that
// skew still makes too large is split before it is sorted.
const cusipBuckets = 128

// routeChars is the number of CUSIP characters a cusipRouter cuts buckets by.
const routeChars = 5

// A cusipRouter assigns CUSIP buckets so that they hold about as many rows
// each, whatever the distribution of CUSIPs (those of US issuers share ten
// first characters, and a few issuers hold many rows): it holds the first
// rows of the table back, takes the quantiles of their CUSIP prefixes as
// bucket bounds, then routes every row by its prefix. Bucket order is key
// order: bucket i holds prefixes below those of bucket i+1.
type cusipRouter struct {
	sample  int          // rows held back to cut the bounds
	pending []byte       // their records, encoded
	recs    []pendingRec // and where they go
	bounds  []int64      // first prefix of buckets 1..cusipBuckets-1; nil while sampling
}

type pendingRec struct {
	filing int32  // filing bucket
	end    uint32 // end of the record in pending
	prefix int64
}

func newCUSIPRouter(sample int) *cusipRouter {
	return &cusipRouter{sample: max(sample, 1)}
}

// add routes one row to w.
func (r *cusipRouter) add(w *spillWriter, fb, ord, rowNo int, row *datasetzip.InfoRow) error {
	v := prefixValue(row.CUSIP, routeChars)
	if r.bounds != nil {
		return w.add(fb, r.bucket(v), ord, rowNo, row)
	}
	r.pending = encode(r.pending, ord, rowNo, row)
	r.recs = append(r.recs, pendingRec{filing: int32(fb), end: uint32(len(r.pending)), prefix: v})
	if len(r.recs) >= r.sample {
		return r.flush(w)
	}
	return nil
}

// flush cuts the bounds, if not yet done, and routes the rows held back.
func (r *cusipRouter) flush(w *spillWriter) error {
	if r.bounds != nil {
		return nil
	}
	vs := make([]int64, len(r.recs))
	for i, rec := range r.recs {
		vs[i] = rec.prefix
	}
	slices.Sort(vs)
	r.bounds = make([]int64, cusipBuckets-1)
	for i := range r.bounds {
		if len(vs) > 0 {
			r.bounds[i] = vs[(i+1)*len(vs)/cusipBuckets]
		}
	}
	start := uint32(0)
	for _, rec := range r.recs {
		if err := w.addRecord(int(rec.filing), r.bucket(rec.prefix), r.pending[start:rec.end]); err != nil {
			return err
		}
		start = rec.end
	}
	r.pending, r.recs = nil, nil
	return nil
}

// bucket returns the bucket of a prefix value: the number of bounds at or
// below it, found by halving (bounds has cusipBuckets-1 entries, a power
// of two less one).
func (r *cusipRouter) bucket(v int64) int {
	i := 0
	for step := cusipBuckets / 2; step > 0; step /= 2 {
		if r.bounds[i+step-1] <= v {
			i += step
		}
	}
	return i
}

// classes is the number of classes of one character (see charClass).
const classes = 39

// charClass classes byte i of c after upper-casing: 0 for a missing byte
// or one below '0', 1-10 for digits, 11 for ':' to '@', 12-37 for letters,
// 38 for anything above 'Z'.
func charClass(c []byte, i int) int {
	if i >= len(c) {
		return 0
	}
	b := c[i]
	if 'a' <= b && b <= 'z' {
		b -= 'a' - 'A'
	}
	switch {
	case b < '0':
		return 0
	case b <= '9':
		return int(b-'0') + 1
	case b < 'A':
		return 11
	case b <= 'Z':
		return int(b-'A') + 12
	}
	return 38
}

// maxSplit bounds the splitting of CUSIP buckets: at depth d sub-buckets
// are cut by the first 2(d+3) characters (at most nine).
const maxSplit = 4

// prefixValue returns the classes of the first n characters of c as one
// number, in key order.
func prefixValue(c []byte, n int) int64 {
	var v int64
	for i := 0; i < n; i++ {
		v = v*classes + int64(charClass(c, i))
	}
	return v
}

// split redistributes the records of bucket b into cusipBuckets
// sub-buckets of equal-width ranges of their first 2(depth+3) CUSIP
// characters (between the bucket's smallest and largest), keeping key
// order: sub-bucket i holds only keys below those of sub-bucket i+1. It
// streams the bucket twice and holds one record at a time.
func split(sp *spill, b, depth int, dir string) (*spill, error) {
	n := min(2*(depth+3), 9)
	var lo, hi int64 = -1, -1
	scan := func(fn func(rec, raw []byte, v int64) error) error {
		if err := sp.flushBucket(b); err != nil {
			return err
		}
		br := bufio.NewReaderSize(io.NewSectionReader(sp.files[b], 0, 1<<62), 256<<10)
		var raw []byte
		for {
			size, err := binary.ReadUvarint(br)
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			var pre [binary.MaxVarintLen64]byte
			p := binary.PutUvarint(pre[:], size)
			raw = append(append(raw[:0], pre[:p]...), make([]byte, size)...)
			if _, err := io.ReadFull(br, raw[p:]); err != nil {
				return errSpill
			}
			r := decoder{b: raw[p:]}
			r.uvarint() // ord
			r.uvarint() // row_no
			r.uvarint() // infotable_sk
			r.str()     // issuer
			r.str()     // class
			c := r.str()
			if r.err != nil {
				return r.err
			}
			if err := fn(raw[p:], raw, prefixValue([]byte(c), n)); err != nil {
				return err
			}
		}
	}
	err := scan(func(_, _ []byte, v int64) error {
		if lo < 0 || v < lo {
			lo = v
		}
		hi = max(hi, v)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("bulkstore: %w", err)
	}
	sub, err := newSpill(dir, fmt.Sprintf("split%d-%04d", depth, b), cusipBuckets, 16<<10)
	if err != nil {
		return nil, fmt.Errorf("bulkstore: %w", err)
	}
	width := (hi-lo)/cusipBuckets + 1
	err = scan(func(_, raw []byte, v int64) error {
		return sub.add(int((v-lo)/width), raw)
	})
	if err == nil {
		err = sub.flush()
	}
	if err != nil {
		sub.close()
		return nil, fmt.Errorf("bulkstore: %w", err)
	}
	return sub, nil
}

// A spillWriter encodes records into batches and appends them to the two
// spills in its own goroutine, so that writing the spills overlaps with
// parsing the table.
type spillWriter struct {
	byFiling, byCUSIP *spill
	cur               *spillBatch
	full, free        chan *spillBatch
	done              chan error
	closed            bool
}

// A spillBatch is a run of encoded records (each length-prefixed) and
// their buckets.
type spillBatch struct {
	data []byte
	recs []spillRec
}

type spillRec struct {
	filing, cusip int32  // buckets
	end           uint32 // end of the record in data
}

const (
	spillBatchBytes = 256 << 10
	spillBatches    = 3
)

func newSpillWriter(byFiling, byCUSIP *spill) *spillWriter {
	w := &spillWriter{byFiling: byFiling, byCUSIP: byCUSIP, full: make(chan *spillBatch, spillBatches),
		free: make(chan *spillBatch, spillBatches), done: make(chan error, 1)}
	for i := 0; i < spillBatches; i++ {
		w.free <- &spillBatch{data: make([]byte, 0, spillBatchBytes+4<<10)}
	}
	go w.run()
	return w
}

func (w *spillWriter) run() {
	var err error
	for b := range w.full {
		start := uint32(0)
		for _, r := range b.recs {
			rec := b.data[start:r.end]
			start = r.end
			if err == nil {
				err = w.byFiling.add(int(r.filing), rec)
			}
			if err == nil {
				err = w.byCUSIP.add(int(r.cusip), rec)
			}
		}
		b.data, b.recs = b.data[:0], b.recs[:0]
		w.free <- b
	}
	w.done <- err
}

// add encodes one row for filing bucket fb and CUSIP bucket cb.
func (w *spillWriter) add(fb, cb, ord, rowNo int, r *datasetzip.InfoRow) error {
	if w.cur == nil {
		w.cur = <-w.free
	}
	b := w.cur
	b.data = encode(b.data, ord, rowNo, r)
	return w.added(fb, cb)
}

// addRecord adds one encoded record (as encode makes it).
func (w *spillWriter) addRecord(fb, cb int, rec []byte) error {
	if w.cur == nil {
		w.cur = <-w.free
	}
	b := w.cur
	b.data = append(b.data, rec...)
	return w.added(fb, cb)
}

// added records the buckets of the record just appended to the batch.
func (w *spillWriter) added(fb, cb int) error {
	b := w.cur
	b.recs = append(b.recs, spillRec{filing: int32(fb), cusip: int32(cb), end: uint32(len(b.data))})
	if len(b.data) >= spillBatchBytes {
		w.full <- b
		w.cur = nil
	}
	return nil
}

// close flushes the last batch, waits for the goroutine and returns its
// first error. Calls after the first return nil.
func (w *spillWriter) close() error {
	if w.closed {
		return nil
	}
	w.closed = true
	if w.cur != nil && len(w.cur.recs) > 0 {
		w.full <- w.cur
	}
	w.cur = nil
	close(w.full)
	if err := <-w.done; err != nil {
		return fmt.Errorf("bulkstore: %w", err)
	}
	return nil
}
