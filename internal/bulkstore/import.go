package bulkstore

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"hash/crc64"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/parquet-go/parquet-go"
	"golang.org/x/sync/errgroup"

	"github.com/edgar13f/edgar13f/internal/datasetzip"
	"github.com/edgar13f/edgar13f/internal/infotable"
	"github.com/edgar13f/edgar13f/internal/parquetdir"
)

// A Progress reports how far an import has come.
type Progress struct {
	Window     string
	Phase      string // "filings", "infotable" (reading the zip), "sorting" (writing both sorted copies), "done"
	Rows       int64  // information-table rows done in this phase ("sorting" counts each row twice)
	TotalRows  int64  // rows expected in this phase (from cover totals while reading; 0 when unknown)
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
	// Progress, if not nil, is called every 64Ki rows read, after each
	// sorted bucket and at each phase change; calls never overlap.
	Progress func(Progress)
}

// Stats describe a finished import.
type Stats struct {
	Meta
	Bytes int64 // bytes written to the partition
}

// bucketRows is the target number of rows of a spill bucket (a variable
// so that tests can force many buckets and splits).
var bucketRows int64 = 128 << 10

// Row-group sizes. Small row groups give engines and the query code tight
// per-group statistics (min/max CUSIP, period, CIK) to skip on.
const (
	holdingsGroupRows = 64 << 10
	byCUSIPGroupRows  = 16 << 10
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
	w, err := datasetzip.ParseWindow(window)
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

	im := &importer{ctx: ctx, w: w, dir: build, opt: opt, rule: s.rule, size: size, sums: map[string]uint64{}, sizes: map[string]int64{}}
	if err := im.run(r, size); err != nil {
		return Stats{}, err
	}
	if err := s.commit(w.Name, build); err != nil {
		return Stats{}, err
	}
	return Stats{Meta: im.meta, Bytes: im.written.Load()}, nil
}

// importer is the state of one import.
type importer struct {
	ctx     context.Context
	w       datasetzip.Window
	dir     string
	opt     Options
	rule    string
	size    int64
	filings []Filing       // in filing order
	ord     map[string]int // accession -> index in filings
	meta    Meta
	written atomic.Int64
	mu      sync.Mutex
	sums    map[string]uint64 // CRC-64 of each table's file
	sizes   map[string]int64  // bytes of each table's file
	prog    sync.Mutex        // serialises Progress calls
	done    atomic.Int64      // rows written by the sorting phases
}

func (im *importer) progress(p Progress) {
	if im.opt.Progress != nil {
		im.prog.Lock()
		defer im.prog.Unlock()
		p.Window = im.w.Name
		im.opt.Progress(p)
	}
}

func (im *importer) run(r io.ReaderAt, size int64) error {
	a, err := datasetzip.Open(r, size, im.w.Name)
	if err != nil {
		return err
	}
	for _, t := range []string{datasetzip.InfoTable} {
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
	for _, t := range []string{datasetzip.OtherManager, datasetzip.OtherManager2, datasetzip.Signature} {
		if err := checkTable(a, t); err != nil {
			return err
		}
	}
	byFiling, byCUSIP, err := im.readInfoTable(a)
	if err != nil {
		return err
	}
	defer byFiling.close()
	defer byCUSIP.close()
	// Written after INFOTABLE is read: each filing carries the tally of
	// its table before redaction.
	if err := im.writeFilings(); err != nil {
		return err
	}
	// The two sorted copies are independent: write them side by side.
	var g errgroup.Group
	g.Go(func() error { return im.writeSorted(byFiling, HoldingsTable, holdingsGroupRows, false) })
	g.Go(func() error { return im.writeSorted(byCUSIP, ByCUSIPTable, byCUSIPGroupRows, true) })
	if err := g.Wait(); err != nil {
		return err
	}
	sum := crc64.New(crc64.MakeTable(crc64.ECMA))
	for _, t := range tables {
		fmt.Fprintf(sum, "%s %016x\n", t, im.sums[t])
	}
	im.meta.Format = FormatVersion
	im.meta.Window = im.w.Name
	im.meta.From, im.meta.To = im.w.From.String(), im.w.To.String()
	im.meta.Redaction = im.rule
	im.meta.Filings = len(im.filings)
	im.meta.SourceSize = size
	im.meta.ID = fmt.Sprintf("%016x", sum.Sum64())
	im.meta.Sizes = im.sizes
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
func checkTable(a *datasetzip.Archive, table string) error {
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
func (im *importer) setFilings(fs []datasetzip.Filing) {
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
		return cmp.Compare(a.Period, b.Period)
	case a.CIK != b.CIK:
		return cmp.Compare(a.CIK, b.CIK)
	case a.FilingDate != b.FilingDate:
		return cmp.Compare(a.FilingDate, b.FilingDate)
	case a.AmendmentNo != b.AmendmentNo:
		return cmp.Compare(a.AmendmentNo, b.AmendmentNo)
	}
	return strings.Compare(a.Accession, b.Accession)
}

// create opens table's file in the build; done records its checksum.
func (im *importer) create(table string) (f *os.File, w io.Writer, done func(), err error) {
	if err := os.Mkdir(filepath.Join(im.dir, table), 0o755); err != nil {
		return nil, nil, nil, fmt.Errorf("bulkstore: %w", err)
	}
	f, err = os.Create(filepath.Join(im.dir, table, partFile))
	if err != nil {
		return nil, nil, nil, fmt.Errorf("bulkstore: %w", err)
	}
	h := crc64.New(crc64.MakeTable(crc64.ECMA))
	var n atomic.Int64
	done = func() {
		im.mu.Lock()
		im.sums[table] = h.Sum64()
		im.sizes[table] = n.Load()
		im.mu.Unlock()
	}
	return f, io.MultiWriter(f, h, countWriter{&im.written}, countWriter{&n}), done, nil
}

type countWriter struct{ n *atomic.Int64 }

func (c countWriter) Write(p []byte) (int, error) { c.n.Add(int64(len(p))); return len(p), nil }

// closeSynced flushes a Parquet writer, then syncs and closes its file.
func closeSynced(f *os.File, w interface{ Close() error }) error {
	if err := parquetdir.CloseSynced(f, w); err != nil {
		return fmt.Errorf("bulkstore: %w", err)
	}
	return nil
}

// unboundedColumns are the columns of the row tables written without
// min/max statistics: no query filters on them, they are in no sort order
// a range could prune with, and the bounds of a dictionary-encoded page
// cost a comparison per value (some 8% of an import).
var unboundedColumns = []string{"name_of_issuer", "title_of_class", "figi", "sh_prn", "put_call",
	"investment_discretion", "other_manager"}

func writerOptions(groupRows int64, sorting ...parquet.SortingColumn) []parquet.WriterOption {
	return []parquet.WriterOption{
		parquet.Compression(parquetdir.SnappyCodec{}),
		parquet.MaxRowsPerRowGroup(groupRows),
		parquet.CreatedBy("edgar13f", "", ""),
		parquet.SortingWriterConfig(parquet.SortingColumns(sorting...)),
		parquet.PageBufferSize(64 << 10),
	}
}

func (im *importer) writeFilings() error {
	f, w, done, err := im.create(FilingsTable)
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
	if err := closeSynced(f, pw); err != nil {
		return err
	}
	done()
	return nil
}

// readInfoTable streams INFOTABLE into two spills, redacting as it reads:
// buckets of consecutive filing-order ranges and buckets of consecutive
// CUSIP ranges.
func (im *importer) readInfoTable(a *datasetzip.Archive) (byFiling, byCUSIP *spill, err error) {
	// Filing buckets: consecutive filings whose cover totals add up to
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
	if byFiling, err = newSpill(im.dir, "filing", nb+1, 64<<10); err != nil {
		return nil, nil, fmt.Errorf("bulkstore: %w", err)
	}
	if byCUSIP, err = newSpill(im.dir, "cusip", cusipBuckets, 64<<10); err != nil {
		byFiling.close()
		return nil, nil, fmt.Errorf("bulkstore: %w", err)
	}
	sw := newSpillWriter(byFiling, byCUSIP)
	router := newCUSIPRouter(int(bucketRows / 2))
	fail := func(e error) (*spill, *spill, error) {
		sw.close()
		byFiling.close()
		byCUSIP.close()
		return nil, nil, e
	}
	t, err := a.Table(datasetzip.InfoTable)
	if err != nil {
		return fail(err)
	}
	defer t.Close()
	totalBytes := a.Size(datasetzip.InfoTable)
	rowNo := make([]int32, len(im.filings))
	tally := make([]infotable.Tally, len(im.filings)) // each table before redaction, as the per-manager path counts it
	redact := memo(im.opt.Redact)
	var (
		row       datasetzip.InfoRow
		rows, red int64
		lastAcc   []byte
		lastOrd   int
	)
	im.progress(Progress{Phase: "infotable", TotalRows: total, TotalBytes: totalBytes})
	for t.Next() {
		if err := t.InfoRow(&row); err != nil {
			return fail(err)
		}
		ord := lastOrd
		if string(row.Accession) != string(lastAcc) {
			o, ok := im.ord[string(row.Accession)]
			if !ok {
				return fail(t.Errorf("row of accession %s, which SUBMISSION does not list", row.Accession))
			}
			ord, lastOrd = o, o
			lastAcc = append(lastAcc[:0], row.Accession...)
		}
		rowNo[ord]++ // position in the filing counts redacted rows too
		tally[ord].Add(row.Value)
		if redact != nil && redact(row.NameOfIssuer, row.TitleOfClass, row.CUSIP) {
			red++
			continue
		}
		if err := router.add(sw, bucketOf[ord], ord, int(rowNo[ord]), &row); err != nil {
			return fail(err)
		}
		rows++
		if rows%progressEvery == 0 {
			if err := im.ctx.Err(); err != nil {
				return fail(err)
			}
			im.progress(Progress{Phase: "infotable", Rows: rows, TotalRows: total, Bytes: t.Bytes(), TotalBytes: totalBytes})
		}
	}
	if err := t.Err(); err != nil {
		return fail(err)
	}
	if err := router.flush(sw); err != nil {
		return fail(err)
	}
	if err := sw.close(); err != nil {
		return fail(err)
	}
	for i := range im.filings {
		im.filings[i].TableRows, im.filings[i].TableValue = tally[i].Rows, tally[i].Value
	}
	if err := byFiling.flush(); err != nil {
		return fail(fmt.Errorf("bulkstore: %w", err))
	}
	if err := byCUSIP.flush(); err != nil {
		return fail(fmt.Errorf("bulkstore: %w", err))
	}
	im.meta.Rows, im.meta.Redacted = rows, red
	im.progress(Progress{Phase: "infotable", Rows: rows, TotalRows: total, Bytes: totalBytes, TotalBytes: totalBytes})
	im.progress(Progress{Phase: "sorting", TotalRows: 2 * rows})
	return byFiling, byCUSIP, nil
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

// writeSorted writes table from a spill: bucket by bucket, each sorted in
// memory by filing order then row_no (or by CUSIP key first), rows decoded
// a batch at a time as views of the bucket's bytes.
func (im *importer) writeSorted(sp *spill, table string, groupRows int64, byCUSIP bool) error {
	f, w, done, err := im.create(table)
	if err != nil {
		return err
	}
	sorting := []parquet.SortingColumn{parquet.Ascending("period"), parquet.Ascending("cik"),
		parquet.Ascending("filing_date"), parquet.Ascending("accession"), parquet.Ascending("row_no")}
	if byCUSIP {
		sorting = append([]parquet.SortingColumn{parquet.Ascending("cusip_key")}, sorting...)
	}
	opts := writerOptions(groupRows, sorting...)
	for _, c := range unboundedColumns {
		opts = append(opts, parquet.SkipPageBounds(c), parquet.SkipPageStatistics(c))
	}
	pw := parquet.NewGenericWriter[Row](w, opts...)
	fail := func(err error) error {
		f.Close()
		return err
	}
	batch := make([]Row, 1024)
	var data []byte
	var keys, tmp []sortKey
	// bucket writes one bucket, splitting a CUSIP bucket that skew made too
	// large into sub-buckets of longer CUSIP prefixes first.
	var bucket func(sp *spill, b, depth int) error
	bucket = func(sp *spill, b, depth int) error {
		if byCUSIP && int64(sp.rows[b]) > 2*bucketRows && depth < maxSplit {
			sub, err := split(sp, b, depth, im.dir)
			if err != nil {
				return err
			}
			defer sub.close()
			sp.drop(b)
			for i := range sub.files {
				if err := bucket(sub, i, depth+1); err != nil {
					return err
				}
			}
			return nil
		}
		var err error
		data, err = sp.read(b, data)
		if err != nil {
			return fmt.Errorf("bulkstore: %w", err)
		}
		if cap(keys) < sp.rows[b] {
			keys = make([]sortKey, 0, sp.rows[b])
		}
		keys, err = keysOf(keys[:0], data, byCUSIP)
		if err != nil {
			return err
		}
		keys, tmp = sortKeys(keys, tmp, data, byCUSIP)
		for i := 0; i < len(keys); i += len(batch) {
			n := min(len(batch), len(keys)-i)
			for j := 0; j < n; j++ {
				k := keys[i+j]
				if _, err := decodeRow(data[k.off:k.off+k.n], &batch[j], im.filings); err != nil {
					return err
				}
			}
			if _, err := pw.Write(batch[:n]); err != nil {
				return fmt.Errorf("bulkstore: %w", err)
			}
		}
		sp.drop(b)
		clear(batch) // drop the views of data
		d := im.done.Add(int64(len(keys)))
		im.progress(Progress{Phase: "sorting", Rows: d, TotalRows: 2 * im.meta.Rows})
		return im.ctx.Err()
	}
	for b := range sp.files {
		if err := bucket(sp, b, 0); err != nil {
			return fail(err)
		}
	}
	if err := closeSynced(f, pw); err != nil {
		return err
	}
	done()
	return nil
}

// writeSynced writes a small file and syncs it.
func writeSynced(path string, data []byte) error {
	if err := parquetdir.WriteSynced(path, data); err != nil {
		return fmt.Errorf("bulkstore: %w", err)
	}
	return nil
}

// syncDir syncs a directory's entries.
func syncDir(dir string) error {
	if err := parquetdir.SyncDir(dir); err != nil {
		return fmt.Errorf("bulkstore: %w", err)
	}
	return nil
}
