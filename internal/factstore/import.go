package factstore

import (
	"bufio"
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"hash/crc64"
	"hash/fnv"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unsafe"

	"github.com/parquet-go/parquet-go"

	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/parquetdir"
)

// A Member is one companyfacts document to import.
type Member struct {
	Name string // its file name, CIK##########.json: it names the document in errors
	Size int64  // its uncompressed size in bytes (0 when unknown)
	Open func() (io.ReadCloser, error)
}

// A Progress reports how far an import has come.
type Progress struct {
	Phase string // "facts" (reading the documents), "sorting" (writing the parts), "done"
	Done  int64  // phase "facts": bytes of JSON read; "sorting" and "done": facts written
	Total int64  // bytes of JSON to read, facts to write (0 when unknown)
}

// Options configure an import.
type Options struct {
	// Source names what is imported in the commit record and in errors
	// (a zip's file name, "companyfacts API").
	Source string
	// Progress, if not nil, is called at each phase change, after each
	// document and after each part is written; calls never overlap.
	Progress func(Progress)
	// PartBytes is the JSON bytes per facts part (0: 64 MiB).
	PartBytes int64
}

// Stats describe a finished import.
type Stats struct {
	Meta
	Skipped int64 // facts dated before 1970-01-02, not stored
	Bytes   int64 // bytes written to the store
}

const (
	defaultPartBytes = 64 << 20
	maxParts         = 1024
	factsGroupRows   = 32 << 10
	writeBatch       = 4096
)

// MemberCIK returns the CIK a member file name CIK##########.json
// carries, and whether it is such a name.
func MemberCIK(name string) (int64, bool) {
	digits, ok := strings.CutPrefix(filepath.Base(name), "CIK")
	if !ok {
		return 0, false
	}
	digits, ok = strings.CutSuffix(digits, ".json")
	if !ok || len(digits) != 10 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, n > 0
}

// Import reads members (each one companyfacts JSON) and makes them the
// store's snapshot, replacing the one there. A document that is not valid
// JSON, is cut short, or has a fact without end, val, accn, form or filed
// fails the import with an error naming the source, the document and the
// byte offset in it; the old snapshot then stays as it was. Import holds
// the store's lock: imports run one at a time, across processes too.
func (s *Store) Import(ctx context.Context, members []Member, opt Options) (Stats, error) {
	unlock, err := s.lock()
	if err != nil {
		return Stats{}, err
	}
	defer unlock()
	staging := filepath.Join(s.dir, parquetdir.StagingDir)
	if err := os.MkdirAll(staging, 0o755); err != nil {
		return Stats{}, fmt.Errorf("factstore: %w", err)
	}
	build, err := os.MkdirTemp(staging, snapshotName+".build-")
	if err != nil {
		return Stats{}, fmt.Errorf("factstore: %w", err)
	}
	defer os.RemoveAll(build)
	im := &importer{ctx: ctx, dir: build, opt: opt, sizes: map[string]int64{}, sum: crc64.New(crc64.MakeTable(crc64.ECMA))}
	if err := im.run(members); err != nil {
		return Stats{}, err
	}
	if err := s.journal().Commit(snapshotName, build); err != nil {
		return Stats{}, fmt.Errorf("factstore: %w", err)
	}
	s.forget()
	return Stats{Meta: im.meta, Skipped: im.skipped, Bytes: im.written}, nil
}

// importer is the state of one import.
type importer struct {
	ctx     context.Context
	dir     string
	opt     Options
	meta    Meta
	skipped int64
	written int64
	sizes   map[string]int64
	sum     hash.Hash64 // of every file's path and checksum
}

func (im *importer) progress(p Progress) {
	if im.opt.Progress != nil {
		im.opt.Progress(p)
	}
}

func (im *importer) where(m Member) string {
	if im.opt.Source != "" {
		return im.opt.Source + ": " + m.Name
	}
	return m.Name
}

// spill is the bucket files facts are spilled to before sorting.
type spill struct {
	files []*os.File
	bufs  []*bufio.Writer
	n     []int64
	rec   []byte
}

func (im *importer) run(members []Member) error {
	var total int64
	for _, m := range members {
		total += m.Size
	}
	per := im.opt.PartBytes
	if per <= 0 {
		per = defaultPartBytes
	}
	parts := int(min((total+per-1)/per, maxParts))
	parts = max(parts, 1)
	sp := &spill{}
	defer func() {
		for _, f := range sp.files {
			f.Close()
		}
	}()
	sdir := filepath.Join(im.dir, ".spill")
	if err := os.Mkdir(sdir, 0o755); err != nil {
		return fmt.Errorf("factstore: %w", err)
	}
	for i := range parts {
		f, err := os.Create(filepath.Join(sdir, partName(i)))
		if err != nil {
			return fmt.Errorf("factstore: %w", err)
		}
		sp.files = append(sp.files, f)
		sp.bufs = append(sp.bufs, bufio.NewWriterSize(f, 64<<10))
		sp.n = append(sp.n, 0)
	}

	im.progress(Progress{Phase: "facts", Total: total})
	var entities []Entity
	seen := map[int64]string{}
	var read int64
	var dataThrough civil.Day
	for _, m := range members {
		if err := im.ctx.Err(); err != nil {
			return err
		}
		cik, ok := MemberCIK(m.Name)
		if !ok {
			return fmt.Errorf("factstore: %s: not a companyfacts document name (CIK##########.json)", im.where(m))
		}
		if other, dup := seen[cik]; dup {
			return fmt.Errorf("factstore: %s: CIK %d again (first in %s)", im.where(m), cik, other)
		}
		seen[cik] = m.Name
		rc, err := m.Open()
		if err != nil {
			return fmt.Errorf("factstore: %s: %w", im.where(m), err)
		}
		cr := &countReader{r: rc}
		name := ""
		skipped, err := decodeDoc(cr, docHandler{
			cik: func(n int64) error {
				if n != cik {
					return fmt.Errorf("cik %d in a document named for %d", n, cik)
				}
				return nil
			},
			entity: func(s string) { name = s },
			fact: func(f *Fact) error {
				f.CIK = cik
				dataThrough = max(dataThrough, f.Filed)
				return sp.add(f, parts)
			},
		})
		if err == nil {
			// Read to the end: the zip reader checks the member's CRC there.
			_, err = io.Copy(io.Discard, cr)
			if err != nil {
				err = &docError{offset: cr.n, msg: err.Error()}
			}
		}
		rc.Close()
		if err != nil {
			if cerr := im.ctx.Err(); cerr != nil {
				return cerr
			}
			return fmt.Errorf("factstore: %s: %w", im.where(m), err)
		}
		im.skipped += skipped
		read += cr.n
		entities = append(entities, Entity{CIK: cik, EntityName: name})
		im.progress(Progress{Phase: "facts", Done: read, Total: max(total, read)})
	}
	var facts int64
	for i, b := range sp.bufs {
		if err := b.Flush(); err != nil {
			return fmt.Errorf("factstore: %w", err)
		}
		facts += sp.n[i]
	}
	im.progress(Progress{Phase: "sorting", Total: facts})
	var tags []Tag
	var done int64
	for i := range parts {
		if err := im.ctx.Err(); err != nil {
			return err
		}
		ts, err := im.writePart(sp.files[i], i, sp.n[i])
		if err != nil {
			return err
		}
		sp.files[i].Close()
		os.Remove(sp.files[i].Name())
		tags = append(tags, ts...)
		done += sp.n[i]
		im.progress(Progress{Phase: "sorting", Done: done, Total: facts})
	}
	sp.files = nil
	os.RemoveAll(sdir)
	slices.SortFunc(entities, func(a, b Entity) int { return cmp.Compare(a.CIK, b.CIK) })
	if err := writeTable(im, EntitiesTable, entities, nil); err != nil {
		return err
	}
	slices.SortFunc(tags, func(a, b Tag) int {
		return cmp.Or(strings.Compare(a.Taxonomy, b.Taxonomy), strings.Compare(a.Tag, b.Tag), strings.Compare(a.Unit, b.Unit))
	})
	if err := writeTable(im, TagsTable, tags, nil); err != nil {
		return err
	}

	keys := make([]string, 0, len(im.sizes))
	for k := range im.sizes {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	h := crc64.New(crc64.MakeTable(crc64.ECMA))
	fmt.Fprintf(h, "%s %d\n", im.opt.Source, FormatVersion)
	for _, k := range keys {
		fmt.Fprintf(h, "%s %d\n", k, im.sizes[k])
	}
	fmt.Fprintf(h, "%016x\n", im.sum.Sum64())
	im.meta = Meta{Format: FormatVersion, ID: fmt.Sprintf("%016x", h.Sum64()), Source: im.opt.Source, SourceBytes: read,
		Companies: len(entities), Facts: facts, Parts: parts, Sizes: im.sizes}
	if dataThrough > 0 {
		im.meta.DataThrough = dataThrough.String()
	}
	b, _ := json.MarshalIndent(im.meta, "", "  ")
	if err := parquetdir.WriteSynced(filepath.Join(im.dir, parquetdir.MetaBuild), append(b, '\n')); err != nil {
		return fmt.Errorf("factstore: %w", err)
	}
	for _, t := range tables {
		if err := parquetdir.SyncDir(filepath.Join(im.dir, t)); err != nil {
			return fmt.Errorf("factstore: %w", err)
		}
	}
	if err := parquetdir.SyncDir(im.dir); err != nil {
		return fmt.Errorf("factstore: %w", err)
	}
	im.progress(Progress{Phase: "done", Done: facts, Total: facts})
	return nil
}

// countReader counts the bytes read through it.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// partOf returns the facts part of taxonomy:tag among parts.
func partOf(taxonomy, tag string, parts int) int {
	h := fnv.New32a()
	h.Write([]byte(taxonomy))
	h.Write([]byte{':'})
	h.Write([]byte(tag))
	return int(h.Sum32() % uint32(parts))
}

// The spill record of a fact: strings are a uvarint length and the
// bytes; days are uvarints (start + 1, 0 for an instant), fy a uvarint
// (0 when absent); value is 8 bytes of float64 bits.
//
//	taxonomy, tag, unit, uvarint cik, start, end, value_text, value,
//	accn, fy, fp, form, filed
func (sp *spill) add(f *Fact, parts int) error {
	b := sp.rec[:0]
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	str(f.Taxonomy)
	str(f.Tag)
	str(f.Unit)
	b = binary.AppendUvarint(b, uint64(f.CIK))
	if f.Start > 0 {
		b = binary.AppendUvarint(b, uint64(f.Start)+1)
	} else {
		b = append(b, 0)
	}
	b = binary.AppendUvarint(b, uint64(f.End))
	str(f.ValueText)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f.Value))
	str(f.Accession)
	b = binary.AppendUvarint(b, uint64(uint32(f.FY)))
	str(f.FP)
	str(f.Form)
	b = binary.AppendUvarint(b, uint64(f.Filed))
	sp.rec = b
	i := partOf(f.Taxonomy, f.Tag, parts)
	var n [binary.MaxVarintLen64]byte
	if _, err := sp.bufs[i].Write(n[:binary.PutUvarint(n[:], uint64(len(b)))]); err != nil {
		return err
	}
	if _, err := sp.bufs[i].Write(b); err != nil {
		return err
	}
	sp.n[i]++
	return nil
}

// errSpill reports a spill file that does not decode: a bug or a disk
// fault, never a fault of the source.
var errSpill = errors.New("factstore: spill file does not decode")

// readSpill decodes the n records of a spill file. Every string of the
// facts is a part of b, which the caller never changes again (so the
// facts of a part cost their spill bytes and the Fact values, nothing
// more).
func readSpill(b []byte, n int64) ([]Fact, error) {
	if len(b) == 0 {
		return nil, nil
	}
	data := unsafe.String(&b[0], len(b))
	out := make([]Fact, 0, n)
	for len(data) > 0 {
		n, k := uvarint(data)
		if k <= 0 || n > uint64(len(data)-k) {
			return nil, errSpill
		}
		rec := data[k : k+int(n)]
		data = data[k+int(n):]
		ok := true
		uv := func() uint64 {
			v, k := uvarint(rec)
			if k <= 0 {
				ok = false
				return 0
			}
			rec = rec[k:]
			return v
		}
		str := func() string {
			n := uv()
			if n > uint64(len(rec)) {
				ok = false
				return ""
			}
			s := rec[:n]
			rec = rec[n:]
			return s
		}
		var f Fact
		f.Taxonomy = str()
		f.Tag = str()
		f.Unit = str()
		f.CIK = int64(uv())
		if st := uv(); st > 0 {
			f.Start = civil.Day(st - 1)
		}
		f.End = civil.Day(uv())
		f.ValueText = str()
		if len(rec) < 8 {
			return nil, errSpill
		}
		f.Value = math.Float64frombits(binary.LittleEndian.Uint64([]byte(rec[:8])))
		rec = rec[8:]
		f.Accession = str()
		f.FY = int32(uint32(uv()))
		f.FP = str()
		f.Form = str()
		f.Filed = civil.Day(uv())
		if !ok || len(rec) != 0 {
			return nil, errSpill
		}
		out = append(out, f)
	}
	return out, nil
}

// uvarint is binary.Uvarint over a string.
func uvarint(s string) (uint64, int) {
	var x uint64
	var shift uint
	for i := 0; i < len(s) && i < binary.MaxVarintLen64; i++ {
		c := s[i]
		if c < 0x80 {
			if i == binary.MaxVarintLen64-1 && c > 1 {
				return 0, -(i + 1)
			}
			return x | uint64(c)<<shift, i + 1
		}
		x |= uint64(c&0x7f) << shift
		shift += 7
	}
	return 0, 0
}

// CompareFacts is the order of a facts part: (taxonomy, tag, unit, cik,
// end, start, filed, accn, value_text).
func CompareFacts(a, b *Fact) int {
	return cmp.Or(
		strings.Compare(a.Taxonomy, b.Taxonomy),
		strings.Compare(a.Tag, b.Tag),
		strings.Compare(a.Unit, b.Unit),
		cmp.Compare(a.CIK, b.CIK),
		cmp.Compare(a.End, b.End),
		cmp.Compare(a.Start, b.Start),
		cmp.Compare(a.Filed, b.Filed),
		strings.Compare(a.Accession, b.Accession),
		strings.Compare(a.ValueText, b.ValueText),
	)
}

// writePart sorts spill file f and writes it as facts part i; it returns
// the part's tags.
func (im *importer) writePart(f *os.File, i int, n int64) ([]Tag, error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("factstore: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("factstore: %w", err)
	}
	data := make([]byte, st.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, fmt.Errorf("factstore: %w", err)
	}
	facts, err := readSpill(data, n)
	data = nil
	if err != nil {
		return nil, err
	}
	slices.SortFunc(facts, func(a, b Fact) int { return CompareFacts(&a, &b) })
	tags := partTags(facts, i)
	sorting := []parquet.SortingColumn{parquet.Ascending("taxonomy"), parquet.Ascending("tag"), parquet.Ascending("unit"),
		parquet.Ascending("cik"), parquet.Ascending("end"), parquet.Ascending("start"), parquet.Ascending("filed"), parquet.Ascending("accn")}
	if err := writePartFile(im, FactsTable, i, facts, sorting); err != nil {
		return nil, err
	}
	return tags, nil
}

// partTags returns the tags of part i's facts, sorted as they are. The
// tags outlive the part, whose strings are views of its spill bytes
// (readSpill): their strings are copies, or every part's spill would stay
// in memory until the import ends.
func partTags(facts []Fact, i int) []Tag {
	var tags []Tag
	for j := range facts {
		x := &facts[j]
		if n := len(tags); n == 0 || tags[n-1].Taxonomy != x.Taxonomy || tags[n-1].Tag != x.Tag || tags[n-1].Unit != x.Unit {
			tags = append(tags, Tag{Taxonomy: strings.Clone(x.Taxonomy), Tag: strings.Clone(x.Tag), Unit: strings.Clone(x.Unit),
				FirstFiled: x.Filed, Part: int32(i)})
		}
		t := &tags[len(tags)-1]
		t.Facts++
		t.FirstFiled = min(t.FirstFiled, x.Filed)
	}
	return tags
}

// writeTable writes rows as table's one part.
func writeTable[T any](im *importer, table string, rows []T, sorting []parquet.SortingColumn) error {
	return writePartFile(im, table, 0, rows, sorting)
}

// writePartFile writes rows as part n of table in the build, synced, and
// records its size and checksum.
func writePartFile[T any](im *importer, table string, n int, rows []T, sorting []parquet.SortingColumn) error {
	if err := os.MkdirAll(filepath.Join(im.dir, table), 0o755); err != nil {
		return fmt.Errorf("factstore: %w", err)
	}
	path := PartPath(im.dir, table, n)
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("factstore: %w", err)
	}
	cw := &countWriter{w: f, h: crc64.New(crc64.MakeTable(crc64.ECMA))}
	opts := []parquet.WriterOption{
		parquet.Compression(parquetdir.SnappyCodec{}),
		parquet.MaxRowsPerRowGroup(factsGroupRows),
		parquet.CreatedBy("edgar13f", "", ""),
		parquet.PageBufferSize(64 << 10),
	}
	if len(sorting) > 0 {
		opts = append(opts, parquet.SortingWriterConfig(parquet.SortingColumns(sorting...)))
	}
	w := parquet.NewGenericWriter[T](cw, opts...)
	for len(rows) > 0 {
		k := min(len(rows), writeBatch)
		if _, err := w.Write(rows[:k]); err != nil {
			f.Close()
			return fmt.Errorf("factstore: %s: %w", path, err)
		}
		rows = rows[k:]
	}
	if err := parquetdir.CloseSynced(f, w); err != nil {
		return fmt.Errorf("factstore: %s: %w", path, err)
	}
	rel, _ := filepath.Rel(im.dir, path)
	rel = filepath.ToSlash(rel)
	im.sizes[rel] = cw.n
	im.written += cw.n
	fmt.Fprintf(im.sum, "%s %016x\n", rel, cw.h.Sum64())
	return nil
}

// countWriter counts and hashes the bytes written through it.
type countWriter struct {
	w io.Writer
	h interface {
		Write([]byte) (int, error)
		Sum64() uint64
	}
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.h.Write(p[:n])
	c.n += int64(n)
	return n, err
}
