package bulkstore

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"iter"
	"slices"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/edgar13f/edgar13f/internal/civil"
)

// visible returns the partitions that can hold a filing dated on or before
// asOf (the window begins on or before asOf), opened.
func (s *Store) visible(asOf civil.Day) ([]*partition, error) {
	ps, err := s.partitions()
	if err != nil {
		return nil, err
	}
	var out []*partition
	for _, p := range ps {
		if p.window.From > asOf {
			continue
		}
		if err := s.openChecked(p); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// hasPeriod reports whether the partition holds a filing of period dated
// on or before asOf (its filings are sorted by period first).
func (p *partition) hasPeriod(period, asOf civil.Day) bool {
	i, _ := slices.BinarySearchFunc(p.filings, period, func(f Filing, t civil.Day) int { return cmp.Compare(f.Period, t) })
	for ; i < len(p.filings) && p.filings[i].Period == period; i++ {
		if p.filings[i].FilingDate <= asOf {
			return true
		}
	}
	return false
}

// compareFiled orders filings by (filing date, accession).
func compareFiled(a, b Filing) int {
	if c := cmp.Compare(a.FilingDate, b.FilingDate); c != 0 {
		return c
	}
	return strings.Compare(a.Accession, b.Accession)
}

// Filings returns every filing of cik dated on or before asOf, any period,
// sorted by (filing date, accession). Filings dated after asOf are never
// returned, and windows starting after asOf are not read.
func (s *Store) Filings(cik int64, asOf civil.Day) ([]Filing, error) {
	ps, err := s.visible(asOf)
	if err != nil {
		return nil, err
	}
	var out []Filing
	for _, p := range ps {
		for _, f := range p.filings {
			if f.CIK == cik && f.FilingDate <= asOf {
				out = append(out, f)
			}
		}
	}
	slices.SortFunc(out, compareFiled)
	return out, nil
}

// PeriodFilings returns the filings of every CIK for period dated on or
// before asOf, sorted by (CIK, filing date, accession).
func (s *Store) PeriodFilings(period, asOf civil.Day) ([]Filing, error) {
	ps, err := s.visible(asOf)
	if err != nil {
		return nil, err
	}
	var out []Filing
	for _, p := range ps {
		// filings are sorted by period first.
		i, _ := slices.BinarySearchFunc(p.filings, period, func(f Filing, t civil.Day) int { return cmp.Compare(f.Period, t) })
		for ; i < len(p.filings) && p.filings[i].Period == period; i++ {
			if p.filings[i].FilingDate <= asOf {
				out = append(out, p.filings[i])
			}
		}
	}
	slices.SortFunc(out, func(a, b Filing) int {
		if c := cmp.Compare(a.CIK, b.CIK); c != 0 {
			return c
		}
		return compareFiled(a, b)
	})
	return out, nil
}

// Rows returns the information-table rows of the given filings (as
// returned by Filings or PeriodFilings: their Window says where they sit):
// the rows of filings[0] in filed order, then those of filings[1], ...
func (s *Store) Rows(filings []Filing) ([]Row, error) {
	ps, err := s.partitions()
	if err != nil {
		return nil, err
	}
	byName := map[string]*partition{}
	for _, p := range ps {
		byName[p.window.Name] = p
	}
	var out []Row
	for _, f := range filings {
		p := byName[f.Window]
		if p == nil {
			return nil, fmt.Errorf("bulkstore: window %q of filing %s is not in the store", f.Window, f.Accession)
		}
		if err := s.openChecked(p); err != nil {
			return nil, err
		}
		if p.meta.Rows == 0 {
			continue
		}
		start := len(out)
		err := scan(p.holdings, func(rg parquet.RowGroup, cols columns) bool {
			return inInt32(rg, cols.period, int32(f.Period)) && inInt64(rg, cols.cik, f.CIK)
		}, func(r *Row) bool {
			if r.Accession == f.Accession {
				out = append(out, *r)
			}
			return true
		})
		if err != nil {
			return nil, err
		}
		slices.SortFunc(out[start:], func(a, b Row) int { return cmp.Compare(a.RowNo, b.RowNo) })
	}
	return out, nil
}

// CUSIPRows returns the rows whose CUSIP equals cusip (compared
// case-insensitively) of filings for period dated on or before asOf, from
// every window that can hold them, sorted by (CIK, filing date, accession,
// row). It reads only the row groups and pages of holdings_by_cusip.parquet
// whose CUSIP range holds the CUSIP.
func (s *Store) CUSIPRows(cusip string, period, asOf civil.Day) ([]Row, error) {
	key := strings.ToUpper(cusip)
	ps, err := s.visible(asOf)
	if err != nil {
		return nil, err
	}
	var out []Row
	for _, p := range ps {
		if p.meta.Rows == 0 || !p.hasPeriod(period, asOf) {
			continue
		}
		err := scanKey(p.byCUSIP, key, func(r *Row) bool {
			if r.CUSIPKey != key {
				return r.CUSIPKey < key // rows before the key: keep going
			}
			if r.Period == period && r.FilingDate <= asOf {
				out = append(out, *r)
			}
			return r.Period <= period
		})
		if err != nil {
			return nil, err
		}
	}
	slices.SortFunc(out, func(a, b Row) int {
		if c := cmp.Compare(a.CIK, b.CIK); c != 0 {
			return c
		}
		if c := cmp.Compare(a.FilingDate, b.FilingDate); c != 0 {
			return c
		}
		if c := strings.Compare(a.Accession, b.Accession); c != 0 {
			return c
		}
		return cmp.Compare(a.RowNo, b.RowNo)
	})
	return out, nil
}

// columns holds the leaf indexes of the key columns.
type columns struct{ period, cik, cusipKey int }

func columnsOf(pf *parquet.File) columns {
	idx := func(name string) int {
		c, ok := pf.Schema().Lookup(name)
		if !ok {
			return -1
		}
		return c.ColumnIndex
	}
	return columns{period: idx("period"), cik: idx("cik"), cusipKey: idx("cusip_key")}
}

// bounds returns the min/max statistics of a column chunk.
func bounds(rg parquet.RowGroup, col int) (lo, hi parquet.Value, ok bool) {
	if col < 0 {
		return lo, hi, false
	}
	fc, isFile := rg.ColumnChunks()[col].(*parquet.FileColumnChunk)
	if !isFile {
		return lo, hi, false
	}
	return fc.Bounds()
}

func inInt32(rg parquet.RowGroup, col int, v int32) bool {
	lo, hi, ok := bounds(rg, col)
	return !ok || lo.Int32() <= v && v <= hi.Int32()
}

func inInt64(rg parquet.RowGroup, col int, v int64) bool {
	lo, hi, ok := bounds(rg, col)
	return !ok || lo.Int64() <= v && v <= hi.Int64()
}

const batchRows = 512

// scan reads the rows of the row groups that want accepts, calling fn for
// each until it returns false.
func scan(of *openFile, want func(parquet.RowGroup, columns) bool, fn func(*Row) bool) error {
	cols := columnsOf(of.pf)
	buf := make([]Row, batchRows)
	g := newGroupReader()
	defer g.close()
	for _, rg := range of.pf.RowGroups() {
		if !want(rg, cols) {
			continue
		}
		more, err := g.readGroup(rg, of.layout, 0, buf, fn)
		if err != nil {
			return err
		}
		if !more {
			return nil
		}
	}
	return nil
}

// readGroup reads rg from row first on with g, calling fn per row; it
// reports whether fn wanted more.
func (g *groupReader) readGroup(rg parquet.RowGroup, l *layout, first int64, buf []Row, fn func(*Row) bool) (bool, error) {
	if err := g.reset(rg, l, first); err != nil {
		return false, err
	}
	defer g.close()
	for {
		n, err := g.read(buf)
		for i := 0; i < n; i++ {
			if !fn(&buf[i]) {
				return false, nil
			}
		}
		if errors.Is(err, io.EOF) {
			return true, nil
		}
		if err != nil {
			return false, fmt.Errorf("bulkstore: %w", err)
		}
	}
}

// scanKey reads the rows of a file sorted by cusip_key from the first page
// that can hold key, calling fn for each until it returns false. Row
// groups and pages whose key range excludes key are skipped by their
// statistics and page index.
func scanKey(of *openFile, key string, fn func(*Row) bool) error {
	cols := columnsOf(of.pf)
	k := []byte(key)
	buf := make([]Row, 64)
	g := newGroupReader()
	defer g.close()
	for _, rg := range of.pf.RowGroups() {
		lo, hi, ok := bounds(rg, cols.cusipKey)
		if ok && (bytes.Compare(k, lo.ByteArray()) < 0 || bytes.Compare(k, hi.ByteArray()) > 0) {
			continue
		}
		first := firstRow(rg, cols.cusipKey, k)
		more, err := g.readGroup(rg, of.layout, first, buf, fn)
		if err != nil {
			return err
		}
		if !more {
			return nil
		}
	}
	return nil
}

// firstRow returns the index of the first row of the first page of rg
// whose key range can hold k (0 without a page index).
func firstRow(rg parquet.RowGroup, col int, k []byte) int64 {
	cc := rg.ColumnChunks()[col]
	ci, err1 := cc.ColumnIndex()
	oi, err2 := cc.OffsetIndex()
	if err1 != nil || err2 != nil || ci.NumPages() != oi.NumPages() {
		return 0
	}
	for i := 0; i < ci.NumPages(); i++ {
		if bytes.Compare(k, ci.MaxValue(i).ByteArray()) <= 0 {
			return oi.FirstRowIndex(i)
		}
	}
	return rg.NumRows()
}

// A Resolution is the outcome of the amendment rule for one CIK, period
// and asOf: a base and its new-holdings supplements, or a decline reason.
type Resolution struct {
	Base        string   // accession of the base; "" when declined
	Supplements []string // accessions of the supplements, in order
	Reason      string   // decline reason when Base is ""
}

// A Resolver applies the amendment rule. filings are the filings of one CIK
// dated on or before asOf, sorted by (filing date, accession): every
// period for Holdings (so that a CIK with no visible filing can be told
// apart), only the period's for Holders and Panel. A decline is a
// Resolution with a Reason; an error is a failure to decide, which fails
// the query: a manager is never left out of an answer because its rule
// could not be applied.
type Resolver func(filings []Filing, period, asOf civil.Day) (Resolution, error)

// sources returns the filings of r among fs: base first, then supplements.
// A resolver naming an accession missing from fs is an error (it would
// cite a filing the answer cannot show).
func sources(r Resolution, fs []Filing) ([]Filing, error) {
	if r.Base == "" {
		return nil, nil
	}
	out := make([]Filing, 0, 1+len(r.Supplements))
	for _, acc := range append([]string{r.Base}, r.Supplements...) {
		i := slices.IndexFunc(fs, func(f Filing) bool { return f.Accession == acc })
		if i < 0 {
			return nil, fmt.Errorf("bulkstore: resolver chose %s, which is not among the visible filings", acc)
		}
		out = append(out, fs[i])
	}
	return out, nil
}

// A Holdings is one manager's effective holdings for a period.
type Holdings struct {
	Resolution
	Sources []Filing // base then supplements; nil when declined
	Rows    []Row    // rows of the sources, base first, each in filed order
}

// Holdings resolves cik's holdings for period as known on asOf.
func (s *Store) Holdings(cik int64, period, asOf civil.Day, resolve Resolver) (Holdings, error) {
	fs, err := s.Filings(cik, asOf)
	if err != nil {
		return Holdings{}, err
	}
	r, err := resolve(fs, period, asOf)
	if err != nil {
		return Holdings{}, fmt.Errorf("bulkstore: CIK %d: %w", cik, err)
	}
	h := Holdings{Resolution: r}
	if h.Sources, err = sources(h.Resolution, fs); err != nil || h.Sources == nil {
		return h, err
	}
	h.Rows, err = s.Rows(h.Sources)
	return h, err
}

// A Holder is one manager's position in a security for a period: the rows
// of its effective holdings with the CUSIP, grouped by (CIK, put/call,
// SH/PRN).
type Holder struct {
	CIK         int64
	ManagerName string   // on the base's cover
	Base        Filing   // the base of the manager's holdings
	Sources     []Filing // base, then supplements
	PutCall     string
	ShPrn       string
	Shares      int64 // summed, as filed
	ValueUSD    int64 // summed value_usd (saturating)
	Rows        []Row // the rows, in source order then filed order
}

// Holders returns every manager whose effective holdings for period, as
// known on asOf, hold the CUSIP (case-insensitive): one Holder per (CIK,
// put/call, SH/PRN), ordered by ValueUSD descending, then CIK, put/call
// (none first) and SH/PRN.
func (s *Store) Holders(cusip string, period, asOf civil.Day, resolve Resolver) ([]Holder, error) {
	rows, err := s.CUSIPRows(cusip, period, asOf)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	ps, err := s.visible(asOf)
	if err != nil {
		return nil, err
	}
	var out []Holder
	for len(rows) > 0 {
		cik := rows[0].CIK
		n := 1
		for n < len(rows) && rows[n].CIK == cik {
			n++
		}
		mine := rows[:n]
		rows = rows[n:]
		fs := cikFilings(nil, ps, cik, period, asOf)
		r, err := resolve(fs, period, asOf)
		if err != nil {
			return nil, fmt.Errorf("bulkstore: CIK %d: %w", cik, err)
		}
		src, err := sources(r, fs)
		if err != nil {
			return nil, err
		}
		if src == nil {
			continue
		}
		var groups []*Holder
		for _, f := range src {
			for _, r := range mine {
				if r.Accession != f.Accession {
					continue
				}
				var g *Holder
				for _, x := range groups {
					if x.PutCall == r.PutCall && x.ShPrn == r.ShPrn {
						g = x
					}
				}
				if g == nil {
					g = &Holder{CIK: cik, ManagerName: src[0].ManagerName, Base: src[0], Sources: src, PutCall: r.PutCall, ShPrn: r.ShPrn}
					groups = append(groups, g)
				}
				g.Shares += r.Shares
				g.ValueUSD = addSat(g.ValueUSD, r.ValueUSD)
				g.Rows = append(g.Rows, r)
			}
		}
		for _, g := range groups {
			out = append(out, *g)
		}
	}
	// Sort by index: a Holder is a large value to move around.
	idx := make([]int, len(out))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return compareHolders(&out[a], &out[b]) })
	sorted := make([]Holder, len(out))
	for i, j := range idx {
		sorted[i] = out[j]
	}
	return sorted, nil
}

// cikFilings appends to dst the filings of cik for period dated on or
// before asOf in the partitions ps, sorted by (filing date, accession): what
// PeriodFilings returns for that CIK, found by binary search.
func cikFilings(dst []Filing, ps []*partition, cik int64, period, asOf civil.Day) []Filing {
	start := len(dst)
	for _, p := range ps {
		// filings are sorted by period, then CIK.
		i, _ := slices.BinarySearchFunc(p.filings, period, func(f Filing, t civil.Day) int {
			if c := cmp.Compare(f.Period, t); c != 0 {
				return c
			}
			return cmp.Compare(f.CIK, cik)
		})
		for ; i < len(p.filings) && p.filings[i].Period == period && p.filings[i].CIK == cik; i++ {
			if p.filings[i].FilingDate <= asOf {
				dst = append(dst, p.filings[i])
			}
		}
	}
	slices.SortFunc(dst[start:], compareFiled)
	return dst
}

// compareHolders orders holders by summed value_usd descending, then CIK,
// put/call (none first) and SH/PRN.
func compareHolders(a, b *Holder) int {
	if c := cmp.Compare(b.ValueUSD, a.ValueUSD); c != 0 {
		return c
	}
	if c := cmp.Compare(a.CIK, b.CIK); c != 0 {
		return c
	}
	if c := strings.Compare(putCallRank(a.PutCall), putCallRank(b.PutCall)); c != 0 {
		return c
	}
	return strings.Compare(a.ShPrn, b.ShPrn)
}

func putCallRank(p string) string {
	if p == "" {
		return ""
	}
	return "~" + p
}

// addSat adds two non-negative sums, saturating at the int64 maximum.
func addSat(a, b int64) int64 {
	if a > 1<<63-1-b {
		return 1<<63 - 1
	}
	return a + b
}

// A PanelRow is one row of a period's panel.
type PanelRow struct {
	Row
	Base string // accession of the base of the row's manager
}

// Panel streams every manager's effective holdings for period as known on
// asOf: in CIK order, each manager's rows base first then supplements, each
// filing's rows in filed order. Rows stream straight from the files:
// memory does not grow with the period or with a manager's size (only the
// rows of a supplement stored ahead of an earlier source of the same
// manager are held until their turn). The period's filing list is held;
// the iteration stops at the first error, which is yielded: every manager
// is resolved before the first row, so a resolver error yields no row.
func (s *Store) Panel(period, asOf civil.Day, resolve Resolver) iter.Seq2[PanelRow, error] {
	return func(yield func(PanelRow, error) bool) {
		all, err := s.PeriodFilings(period, asOf)
		if err != nil {
			yield(PanelRow{}, err)
			return
		}
		// Resolve every CIK first: a resolver error ends the panel before
		// any row.
		var managers [][]Filing
		for fs := range cikRuns(all) {
			r, err := resolve(fs, period, asOf)
			if err != nil {
				yield(PanelRow{}, fmt.Errorf("bulkstore: CIK %d: %w", fs[0].CIK, err))
				return
			}
			ss, err := sources(r, fs)
			if err != nil {
				yield(PanelRow{}, err)
				return
			}
			if len(ss) > 0 {
				managers = append(managers, ss)
			}
		}
		ps, err := s.visible(asOf)
		if err != nil {
			yield(PanelRow{}, err)
			return
		}
		curs := map[string]*cursor{}
		defer func() {
			for _, c := range curs {
				c.close()
			}
		}()
		cursorOf := func(window string) (*cursor, error) {
			if c := curs[window]; c != nil {
				return c, nil
			}
			for _, p := range ps {
				if p.window.Name == window {
					c := newCursor(p, period)
					curs[window] = c
					return c, nil
				}
			}
			return nil, fmt.Errorf("bulkstore: window %q of a source is not in the store", window)
		}
		var held map[int][]Row // rank -> rows read ahead of their turn
		for _, ss := range managers {
			clear(held)
			base := ss[0].Accession
			for i, src := range ss {
				if rows, ok := held[i]; ok {
					for j := range rows {
						if !yield(PanelRow{Row: rows[j], Base: base}, nil) {
							return
						}
					}
					continue
				}
				c, err := cursorOf(src.Window)
				if err != nil {
					yield(PanelRow{}, err)
					return
				}
				target, ok := c.ords[src.Accession]
				if !ok {
					yield(PanelRow{}, fmt.Errorf("bulkstore: source %s is not in window %s", src.Accession, src.Window))
					return
				}
				// The file is in filing order: skip to the source's rows,
				// holding those of later sources met on the way.
				for {
					r, ok, err := c.peek()
					if err != nil {
						yield(PanelRow{}, err)
						return
					}
					if !ok {
						break
					}
					o, err := c.ord(r)
					if err != nil {
						yield(PanelRow{}, err)
						return
					}
					if o > target {
						break
					}
					if o == target {
						if !yield(PanelRow{Row: *r, Base: base}, nil) {
							return
						}
					} else if j := laterSource(ss, i, r.Accession, src.Window); j > 0 {
						if held == nil {
							held = map[int][]Row{}
						}
						held[j] = append(held[j], *r)
					}
					c.advance()
				}
			}
		}
	}
}

// cikRuns yields the runs of filings of one CIK of fs (sorted by CIK).
func cikRuns(fs []Filing) iter.Seq[[]Filing] {
	return func(yield func([]Filing) bool) {
		for lo := 0; lo < len(fs); {
			hi := lo
			for hi < len(fs) && fs[hi].CIK == fs[lo].CIK {
				hi++
			}
			if !yield(fs[lo:hi]) {
				return
			}
			lo = hi
		}
	}
}

// laterSource returns the index in ss, after i, of the source acc of
// window, or 0.
func laterSource(ss []Filing, i int, acc, window string) int {
	for j := i + 1; j < len(ss); j++ {
		if ss[j].Accession == acc && ss[j].Window == window {
			return j
		}
	}
	return 0
}

// cursor walks the rows of one period in a holdings.parquet (sorted by
// filing order: period, CIK, ...), reading only the row groups whose
// period range holds the period.
type cursor struct {
	groups []parquet.RowGroup
	layout *layout
	period civil.Day
	ords   map[string]int // accession -> rank in filing order of the window
	r      *groupReader   // reading the current group; nil between groups
	g      *groupReader   // the reader, kept for its buffers
	buf    []Row
	i, n   int
	done   bool

	lastAcc string // accession of the last row ord looked up, and its rank
	lastOrd int
}

func newCursor(p *partition, period civil.Day) *cursor {
	of := p.holdings
	cols := columnsOf(of.pf)
	c := &cursor{period: period, layout: of.layout, ords: p.ords, buf: make([]Row, batchRows), lastOrd: -1}
	for _, rg := range of.pf.RowGroups() {
		if inInt32(rg, cols.period, int32(period)) {
			c.groups = append(c.groups, rg)
		}
	}
	return c
}

// ord returns the rank in filing order of r's filing.
func (c *cursor) ord(r *Row) (int, error) {
	if c.lastOrd < 0 || r.Accession != c.lastAcc {
		o, ok := c.ords[r.Accession]
		if !ok {
			return 0, fmt.Errorf("bulkstore: row of filing %s, which the window does not list", r.Accession)
		}
		c.lastAcc, c.lastOrd = r.Accession, o
	}
	return c.lastOrd, nil
}

// peek returns the current row of the period, reading on as needed.
func (c *cursor) peek() (*Row, bool, error) {
	for !c.done {
		for c.i < c.n {
			r := &c.buf[c.i]
			switch {
			case r.Period == c.period:
				return r, true, nil
			case r.Period > c.period:
				c.done = true
				return nil, false, nil
			}
			c.i++
		}
		if err := c.fill(); err != nil {
			return nil, false, err
		}
	}
	return nil, false, nil
}

func (c *cursor) advance() { c.i++ }

// fill reads the next batch.
func (c *cursor) fill() error {
	for {
		if c.r == nil {
			if len(c.groups) == 0 {
				c.done = true
				return nil
			}
			if c.g == nil {
				c.g = newGroupReader()
			}
			if err := c.g.reset(c.groups[0], c.layout, 0); err != nil {
				return err
			}
			c.r = c.g
			c.groups = c.groups[1:]
		}
		n, err := c.r.read(c.buf)
		c.i, c.n = 0, n
		if errors.Is(err, io.EOF) {
			c.r.close()
			c.r = nil
			err = nil
		}
		if err != nil {
			return fmt.Errorf("bulkstore: %w", err)
		}
		if n > 0 {
			return nil
		}
	}
}

func (c *cursor) close() {
	if c.r != nil {
		c.r.close()
	}
}
