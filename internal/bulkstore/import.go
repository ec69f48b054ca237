package bulkstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"hash/crc64"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/snappy"

	"github.com/edgar13f/edgar13f/internal/datasets"
)

// A Progress reports how far an import has come.
type Progress struct {
	Window     string
	Phase      string // "filings", "infotable" (reading the zip), "holdings", "by_cusip" (writing), "done"
	Rows       int64  // information-table rows done in this phase
	TotalRows  int64  // rows expected (cover totals; 0 when unknown)
	Bytes      int64  // uncompressed INFOTABLE bytes read (phase "infotable")
	TotalBytes int64  // uncompressed size of INFOTABLE
}

// Options configure an import.
type Options struct {
	// Redact reports whether an information-table row is removed. It is
	// called while the table is read; removed rows are never written. nil
	// removes nothing, and is allowed only for a store opened with the rule
	// name "off".
	Redact func(nameOfIssuer, titleOfClass, cusip string) bool
	// Progress, if not nil, is called from the importing goroutine every
	// 64Ki rows and at each phase change.
	Progress func(Progress)
}

// Stats describe a finished import.
type Stats struct {
	Meta
	Bytes int64 // bytes written to the partition
}

// Row-group sizes. Small row groups give engines and the query code tight
// per-group statistics (min/max CUSIP, period, CIK) to skip on.
const (
	holdingsGroupRows = 64 << 10
	byCUSIPGroupRows  = 16 << 10
	bucketRows        = 192 << 10 // target rows per spill bucket
	progressEvery     = 64 << 10
)

// Import reads one window zip (r, size) and makes it the window's
// partition, replacing any earlier import of that window and nothing else.
// window is the window name or zip file name ("2023q4_form13f.zip").
//
// The tables are streamed: SUBMISSION, COVERPAGE and SUMMARYPAGE (one row
// per filing) are read into memory; INFOTABLE rows are redacted,
// normalised and spilled to bucket files, then sorted one bucket at a time
// into the Parquet files. OTHERMANAGER, OTHERMANAGER2 and SIGNATURE are
// checked (header and field counts) when present but not stored.
//
// The partition is built in a staging directory, synced, and renamed into
// place: readers see the old partition or the new one, never a part. A
// crash leaves the old partition (the next Open rolls an interrupted
// replacement back). Import holds the store's lock: imports of one store
// run one at a time, across processes too.
func (s *Store) Import(ctx context.Context, window string, r io.ReaderAt, size int64, opt Options) (Stats, error) {
	w, err := datasets.ParseWindow(window)
	if err != nil {
		return Stats{}, err
	}
	if opt.Redact == nil && s.rule != RuleOff {
		return Stats{}, fmt.Errorf("bulkstore: import without a redaction predicate into a store of rule %q", s.rule)
	}
	unlock, err := s.lock()
	if err != nil {
		return Stats{}, err
	}
	defer unlock()

	staging := filepath.Join(s.dir, stagingDir)
	if err := os.MkdirAll(staging, 0o755); err != nil {
		return Stats{}, fmt.Errorf("bulkstore: %w", err)
	}
	build, err := os.MkdirTemp(staging, w.Name+".build-")
	if err != nil {
		return Stats{}, fmt.Errorf("bulkstore: %w", err)
	}
	defer os.RemoveAll(build)

	im := &importer{ctx: ctx, w: w, dir: build, opt: opt, rule: s.rule, size: size}
	if err := im.run(r, size); err != nil {
		return Stats{}, err
	}
	if err := s.commit(w.Name, build); err != nil {
		return Stats{}, err
	}
	return Stats{Meta: im.meta, Bytes: im.written}, nil
}

// importer is the state of one import.
type importer struct {
	ctx     context.Context
	w       datasets.Window
	dir     string
	opt     Options
	rule    string
	size    int64
	filings []Filing       // in filing order
	ord     map[string]int // accession -> index in filings
	meta    Meta
	written int64
	sum     hash.Hash64
}

func (im *importer) progress(p Progress) {
	if im.opt.Progress != nil {
		p.Window = im.w.Name
		im.opt.Progress(p)
	}
}

func (im *importer) run(r io.ReaderAt, size int64) error {
	a, err := datasets.Open(r, size, im.w.Name)
	if err != nil {
		return err
	}
	for _, t := range []string{datasets.InfoTable} {
		if !a.Has(t) {
			_, err := a.Table(t) // names the missing table
			return err
		}
	}
	im.progress(Progress{Phase: "filings"})
	fs, err := a.Filings()
	if err != nil {
		return err
	}
	im.setFilings(fs)
	for _, t := range []string{datasets.OtherManager, datasets.OtherManager2, datasets.Signature} {
		if err := checkTable(a, t); err != nil {
			return err
		}
	}
	im.sum = crc64.New(crc64.MakeTable(crc64.ECMA))
	if err := im.writeFilings(); err != nil {
		return err
	}
	cik, hist, err := im.readInfoTable(a)
	if err != nil {
		return err
	}
	defer cik.close()
	byCUSIP, route, err := im.writeHoldings(cik, hist)
	if err != nil {
		return err
	}
	defer byCUSIP.close()
	if err := im.writeByCUSIP(byCUSIP, route); err != nil {
		return err
	}
	im.meta.Format = FormatVersion
	im.meta.Window = im.w.Name
	im.meta.From, im.meta.To = im.w.From.String(), im.w.To.String()
	im.meta.Redaction = im.rule
	im.meta.Filings = len(im.filings)
	im.meta.SourceSize = size
	im.meta.ID = fmt.Sprintf("%016x", im.sum.Sum64())
	b, _ := json.MarshalIndent(im.meta, "", "  ")
	if err := writeSynced(filepath.Join(im.dir, metaBuild), append(b, '\n')); err != nil {
		return err
	}
	im.progress(Progress{Phase: "done", Rows: im.meta.Rows, TotalRows: im.meta.Rows})
	for _, t := range tables {
		if err := syncDir(filepath.Join(im.dir, t)); err != nil {
			return err
		}
	}
	return syncDir(im.dir)
}

// checkTable reads a table it does not store, when present, to check its
// header and field counts.
func checkTable(a *datasets.Archive, table string) error {
	if !a.Has(table) {
		return nil
	}
	t, err := a.Table(table)
	if err != nil {
		return err
	}
	defer t.Close()
	for t.Next() {
	}
	return t.Err()
}

// setFilings converts and sorts the filings into filing order.
func (im *importer) setFilings(fs []datasets.Filing) {
	im.filings = make([]Filing, len(fs))
	for i, f := range fs {
		im.filings[i] = Filing{
			Period: f.Period, CIK: f.CIK, FilingDate: f.FilingDate, AmendmentNo: f.AmendmentNo,
			Accession: f.Accession, Form: f.Form, IsAmendment: f.IsAmendment, AmendmentType: f.AmendmentType,
			ReportType: f.ReportType, ManagerName: f.ManagerName, HasTotals: f.HasTotals,
			TableEntryTotal: f.TableEntryTotal, TableValueTotal: f.TableValueTotal,
			OtherIncludedManagers: f.OtherIncludedManagers, ConfidentialOmitted: f.ConfidentialOmitted,
		}
	}
	slices.SortFunc(im.filings, compareFilings)
	im.ord = make(map[string]int, len(fs))
	for i, f := range im.filings {
		im.ord[f.Accession] = i
	}
}

// compareFilings is filing order: (period, CIK, filing date, amendment
// number, accession).
func compareFilings(a, b Filing) int {
	switch {
	case a.Period != b.Period:
		return cmpInt(int64(a.Period), int64(b.Period))
	case a.CIK != b.CIK:
		return cmpInt(a.CIK, b.CIK)
	case a.FilingDate != b.FilingDate:
		return cmpInt(int64(a.FilingDate), int64(b.FilingDate))
	case a.AmendmentNo != b.AmendmentNo:
		return cmpInt(int64(a.AmendmentNo), int64(b.AmendmentNo))
	}
	return strings.Compare(a.Accession, b.Accession)
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func (im *importer) create(table string) (*os.File, io.Writer, error) {
	if err := os.Mkdir(filepath.Join(im.dir, table), 0o755); err != nil {
		return nil, nil, fmt.Errorf("bulkstore: %w", err)
	}
	f, err := os.Create(filepath.Join(im.dir, table, partFile))
	if err != nil {
		return nil, nil, fmt.Errorf("bulkstore: %w", err)
	}
	return f, io.MultiWriter(f, im.sum, countWriter{&im.written}), nil
}

type countWriter struct{ n *int64 }

func (c countWriter) Write(p []byte) (int, error) { *c.n += int64(len(p)); return len(p), nil }

// closeSynced flushes a Parquet writer, then syncs and closes its file.
func closeSynced(f *os.File, w interface{ Close() error }) error {
	if err := w.Close(); err != nil {
		f.Close()
		return fmt.Errorf("bulkstore: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("bulkstore: %w", err)
	}
	return f.Close()
}

func writerOptions(groupRows int64, sorting ...parquet.SortingColumn) []parquet.WriterOption {
	return []parquet.WriterOption{
		parquet.Compression(&snappy.Codec{}),
		parquet.MaxRowsPerRowGroup(groupRows),
		parquet.CreatedBy("edgar13f", "", ""),
		parquet.SortingWriterConfig(parquet.SortingColumns(sorting...)),
		parquet.PageBufferSize(64 << 10),
	}
}

func (im *importer) writeFilings() error {
	f, w, err := im.create(FilingsTable)
	if err != nil {
		return err
	}
	pw := parquet.NewGenericWriter[Filing](w, writerOptions(4096,
		parquet.Ascending("period"), parquet.Ascending("cik"), parquet.Ascending("filing_date"),
		parquet.Ascending("amendment_no"), parquet.Ascending("accession"))...)
	if _, err := pw.Write(im.filings); err != nil {
		f.Close()
		return fmt.Errorf("bulkstore: %w", err)
	}
	return closeSynced(f, pw)
}

// readInfoTable streams INFOTABLE into spill buckets of consecutive
// filing-order ranges, redacting as it reads, and counts rows per CUSIP
// prefix class for the second sort.
func (im *importer) readInfoTable(a *datasets.Archive) (*spill, []int64, error) {
	// Bucket boundaries: consecutive filings whose cover totals add up to
	// about bucketRows rows. Totals only balance the buckets; a wrong total
	// costs memory, never correctness.
	bucketOf := make([]int, len(im.filings))
	var total, acc int64
	nb := 0
	for i, f := range im.filings {
		if acc >= bucketRows {
			nb++
			acc = 0
		}
		bucketOf[i] = nb
		acc += max(f.TableEntryTotal, 0)
		total += max(f.TableEntryTotal, 0)
	}
	sp, err := newSpill(im.dir, "filing", nb+1)
	if err != nil {
		return nil, nil, fmt.Errorf("bulkstore: %w", err)
	}
	t, err := a.Table(datasets.InfoTable)
	if err != nil {
		sp.close()
		return nil, nil, err
	}
	defer t.Close()
	totalBytes := a.Size(datasets.InfoTable)
	hist := make([]int64, prefixClasses)
	rowNo := make([]int32, len(im.filings))
	redact := memo(im.opt.Redact)
	var (
		row       datasets.InfoRow
		buf       []byte
		rows, red int64
		lastAcc   []byte
		lastOrd   int
	)
	im.progress(Progress{Phase: "infotable", TotalRows: total, TotalBytes: totalBytes})
	for t.Next() {
		if err := t.InfoRow(&row); err != nil {
			sp.close()
			return nil, nil, err
		}
		ord := lastOrd
		if string(row.Accession) != string(lastAcc) {
			o, ok := im.ord[string(row.Accession)]
			if !ok {
				sp.close()
				return nil, nil, t.Errorf("row of accession %s, which SUBMISSION does not list", row.Accession)
			}
			ord, lastOrd = o, o
			lastAcc = append(lastAcc[:0], row.Accession...)
		}
		rowNo[ord]++ // position in the filing counts redacted rows too
		if redact != nil && redact(row.NameOfIssuer, row.TitleOfClass, row.CUSIP) {
			red++
			continue
		}
		buf = encode(buf[:0], ord, int(rowNo[ord]), &row)
		if err := sp.add(bucketOf[ord], buf); err != nil {
			sp.close()
			return nil, nil, fmt.Errorf("bulkstore: %w", err)
		}
		hist[cusipPrefix(row.CUSIP)]++
		rows++
		if rows%progressEvery == 0 {
			if err := im.ctx.Err(); err != nil {
				sp.close()
				return nil, nil, err
			}
			im.progress(Progress{Phase: "infotable", Rows: rows, TotalRows: total, Bytes: t.Bytes(), TotalBytes: totalBytes})
		}
	}
	if err := t.Err(); err != nil {
		sp.close()
		return nil, nil, err
	}
	im.meta.Rows, im.meta.Redacted = rows, red
	im.progress(Progress{Phase: "infotable", Rows: rows, TotalRows: total, Bytes: totalBytes, TotalBytes: totalBytes})
	return sp, hist, nil
}

// memo wraps the redaction predicate with a cache of its answers per
// distinct (issuer, class, CUSIP) of the window: tables repeat them a lot
// and pattern rules cost microseconds a row. The cache is bounded.
func memo(redact func(nameOfIssuer, titleOfClass, cusip string) bool) func(issuer, class, cusip []byte) bool {
	if redact == nil {
		return nil
	}
	cache := map[string]bool{}
	var key []byte
	return func(issuer, class, cusip []byte) bool {
		key = append(append(append(append(append(key[:0], issuer...), 0), class...), 0), cusip...)
		if v, ok := cache[string(key)]; ok {
			return v
		}
		v := redact(string(issuer), string(class), string(cusip))
		if len(cache) >= 1<<19 {
			clear(cache)
		}
		cache[string(key)] = v
		return v
	}
}

// writeHoldings sorts each filing-order bucket and writes holdings.parquet,
// routing every record on to a CUSIP bucket.
func (im *importer) writeHoldings(sp *spill, hist []int64) (*spill, []int, error) {
	// CUSIP buckets: consecutive prefix classes adding up to about
	// bucketRows rows.
	route := make([]int, prefixClasses)
	nb := 0
	var acc int64
	for i, n := range hist {
		if acc > 0 && acc+n > bucketRows {
			nb++
			acc = 0
		}
		route[i] = nb
		acc += n
	}
	out, err := newSpill(im.dir, "cusip", nb+1)
	if err != nil {
		return nil, nil, fmt.Errorf("bulkstore: %w", err)
	}
	f, w, err := im.create(HoldingsTable)
	if err != nil {
		out.close()
		return nil, nil, err
	}
	pw := parquet.NewGenericWriter[Row](w, writerOptions(holdingsGroupRows,
		parquet.Ascending("period"), parquet.Ascending("cik"), parquet.Ascending("filing_date"),
		parquet.Ascending("accession"), parquet.Ascending("row_no"))...)
	fail := func(err error) (*spill, []int, error) {
		f.Close()
		out.close()
		return nil, nil, err
	}
	intern := map[string]string{}
	var done int64
	for b := range sp.files {
		data, err := sp.read(b)
		if err != nil {
			return fail(fmt.Errorf("bulkstore: %w", err))
		}
		rows := make([]Row, 0, sp.rows[b])
		ords := make([]int32, 0, sp.rows[b])
		d := decoder{b: data}
		for {
			rec, raw, ok := d.next()
			if !ok {
				break
			}
			var row Row
			ord, err := decodeRow(rec, &row, im.filings, intern)
			if err != nil {
				return fail(err)
			}
			rows = append(rows, row)
			ords = append(ords, int32(ord))
			if err := out.add(route[cusipPrefix([]byte(row.CUSIPKey))], raw); err != nil {
				return fail(fmt.Errorf("bulkstore: %w", err))
			}
		}
		if d.err != nil {
			return fail(d.err)
		}
		sp.drop(b)
		idx := make([]int32, len(rows))
		for i := range idx {
			idx[i] = int32(i)
		}
		slices.SortFunc(idx, func(x, y int32) int {
			if c := cmpInt(int64(ords[x]), int64(ords[y])); c != 0 {
				return c
			}
			return cmpInt(int64(rows[x].RowNo), int64(rows[y].RowNo))
		})
		if err := writeOrdered(pw, rows, idx); err != nil {
			return fail(err)
		}
		done += int64(len(rows))
		im.progress(Progress{Phase: "holdings", Rows: done, TotalRows: im.meta.Rows})
		if err := im.ctx.Err(); err != nil {
			return fail(err)
		}
		if len(intern) > 1<<18 {
			clear(intern)
		}
	}
	if err := closeSynced(f, pw); err != nil {
		out.close()
		return nil, nil, err
	}
	return out, route, nil
}

// writeOrdered writes rows in the order of idx, in batches.
func writeOrdered(pw *parquet.GenericWriter[Row], rows []Row, idx []int32) error {
	batch := make([]Row, 0, 1024)
	for i, j := range idx {
		batch = append(batch, rows[j])
		if len(batch) == cap(batch) || i == len(idx)-1 {
			if _, err := pw.Write(batch); err != nil {
				return fmt.Errorf("bulkstore: %w", err)
			}
			batch = batch[:0]
		}
	}
	return nil
}

// writeByCUSIP sorts each CUSIP bucket and writes holdings_by_cusip.parquet
// ordered by (CUSIP key, filing order, row).
func (im *importer) writeByCUSIP(sp *spill, _ []int) error {
	f, w, err := im.create(ByCUSIPTable)
	if err != nil {
		return err
	}
	pw := parquet.NewGenericWriter[Row](w, writerOptions(byCUSIPGroupRows,
		parquet.Ascending("cusip_key"), parquet.Ascending("period"), parquet.Ascending("cik"),
		parquet.Ascending("filing_date"), parquet.Ascending("accession"), parquet.Ascending("row_no"))...)
	intern := map[string]string{}
	var done int64
	for b := range sp.files {
		data, err := sp.read(b)
		if err != nil {
			f.Close()
			return fmt.Errorf("bulkstore: %w", err)
		}
		rows := make([]Row, 0, sp.rows[b])
		ords := make([]int32, 0, sp.rows[b])
		d := decoder{b: data}
		for {
			rec, _, ok := d.next()
			if !ok {
				break
			}
			var row Row
			ord, err := decodeRow(rec, &row, im.filings, intern)
			if err != nil {
				f.Close()
				return err
			}
			rows = append(rows, row)
			ords = append(ords, int32(ord))
		}
		if d.err != nil {
			f.Close()
			return d.err
		}
		sp.drop(b)
		idx := make([]int32, len(rows))
		for i := range idx {
			idx[i] = int32(i)
		}
		slices.SortFunc(idx, func(x, y int32) int {
			if c := strings.Compare(rows[x].CUSIPKey, rows[y].CUSIPKey); c != 0 {
				return c
			}
			if c := cmpInt(int64(ords[x]), int64(ords[y])); c != 0 {
				return c
			}
			return cmpInt(int64(rows[x].RowNo), int64(rows[y].RowNo))
		})
		if err := writeOrdered(pw, rows, idx); err != nil {
			f.Close()
			return err
		}
		done += int64(len(rows))
		im.progress(Progress{Phase: "by_cusip", Rows: done, TotalRows: im.meta.Rows})
		if err := im.ctx.Err(); err != nil {
			f.Close()
			return err
		}
		if len(intern) > 1<<18 {
			clear(intern)
		}
	}
	return closeSynced(f, pw)
}

// writeSynced writes a small file and syncs it.
func writeSynced(path string, data []byte) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("bulkstore: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("bulkstore: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("bulkstore: %w", err)
	}
	return f.Close()
}

// syncDir syncs a directory's entries.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("bulkstore: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return fmt.Errorf("bulkstore: %w", err)
	}
	return nil
}
