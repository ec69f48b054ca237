package bulkstore

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"unsafe"

	"github.com/parquet-go/parquet-go"
)

// Rows are read column by column, a page at a time, straight into the
// fields of a []Row: parquet-go's reflection-based row reader costs several
// allocations and some hundreds of nanoseconds per row, this costs a few
// nanoseconds per value and no allocation per row.
//
// Strings are copied out of each page once: a plain page's bytes become
// one string that the page's values are substrings of, and so do a
// dictionary's (once per column chunk), each entry shared by every row that
// refers to it. So the strings of a returned Row are ordinary immutable Go
// strings, valid forever; one kept string keeps its page's (or
// dictionary's) bytes alive. A dictionary-encoded page is read through its
// indexes, straight from the dictionary into the rows.
//
// cusip_key is not read: it is upperKey(cusip) by construction (see
// decodeRow), and deriving it from the CUSIP a row already holds saves
// decoding and copying a second CUSIP column.

// rowField is one field of Row: its column name, Go kind and offset.
type rowField struct {
	name   string
	kind   reflect.Kind // reflect.String, reflect.Int32 or reflect.Int64
	off    uintptr
	hasKey bool    // cusip only: CUSIPKey is set to upperKey of the value
	keyOff uintptr // offset of CUSIPKey
}

// rowFields lists the stored fields of Row, from its parquet tags, except
// cusip_key (derived from cusip).
var rowFields = func() []rowField {
	t := reflect.TypeFor[Row]()
	var out []rowField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("parquet"), ",")
		if name == "" || name == "-" || name == "cusip_key" {
			continue
		}
		switch f.Type.Kind() {
		case reflect.String, reflect.Int32, reflect.Int64:
		default:
			panic("bulkstore: Row field " + f.Name + " has a kind the column reader does not handle")
		}
		rf := rowField{name: name, kind: f.Type.Kind(), off: f.Offset}
		if name == "cusip" {
			rf.hasKey, rf.keyOff = true, unsafe.Offsetof(Row{}.CUSIPKey)
		}
		out = append(out, rf)
	}
	return out
}()

// A layout maps the fields of Row to the leaf columns of a file.
type layout struct {
	cols []int // leaf column index of rowFields[i]
}

// layoutOf checks that pf stores every field of Row as a required column
// of the matching physical type and returns where.
func layoutOf(pf *parquet.File) (*layout, error) {
	l := &layout{cols: make([]int, len(rowFields))}
	if _, ok := pf.Schema().Lookup("cusip_key"); !ok {
		return nil, fmt.Errorf("bulkstore: column cusip_key is missing")
	}
	for i, f := range rowFields {
		c, ok := pf.Schema().Lookup(f.name)
		if !ok {
			return nil, fmt.Errorf("bulkstore: column %s is missing", f.name)
		}
		want := map[reflect.Kind]parquet.Kind{reflect.String: parquet.ByteArray, reflect.Int32: parquet.Int32, reflect.Int64: parquet.Int64}[f.kind]
		if c.Node.Type().Kind() != want || c.MaxDefinitionLevel != 0 || c.MaxRepetitionLevel != 0 {
			return nil, fmt.Errorf("bulkstore: column %s is not a required %s", f.name, want)
		}
		l.cols[i] = c.ColumnIndex
	}
	return l, nil
}

var errColumns = errors.New("bulkstore: columns of a row group disagree on their row count")

// groupReader reads the rows of one row group.
type groupReader struct {
	cols []colReader
	left int64 // rows not yet read
}

// newGroupReader returns a reader to reset onto a row group.
func newGroupReader() *groupReader {
	return &groupReader{cols: make([]colReader, len(rowFields))}
}

// reset makes g read rg from row first on, keeping its buffers.
func (g *groupReader) reset(rg parquet.RowGroup, l *layout, first int64) error {
	g.close()
	chunks := rg.ColumnChunks()
	g.left = max(rg.NumRows()-first, 0)
	for i, f := range rowFields {
		c := &g.cols[i]
		c.field = f
		c.pages = chunks[l.cols[i]].Pages()
		if first > 0 {
			if err := c.pages.SeekToRow(first); err != nil {
				g.close()
				return fmt.Errorf("bulkstore: %w", err)
			}
		}
	}
	return nil
}

// read fills buf with the next rows; it returns 0 and io.EOF at the end of
// the group.
func (g *groupReader) read(buf []Row) (int, error) {
	n := int(min(int64(len(buf)), g.left))
	if n == 0 {
		return 0, io.EOF
	}
	base := unsafe.Pointer(unsafe.SliceData(buf))
	for i := range g.cols {
		if err := g.cols[i].fill(base, n); err != nil {
			return 0, err
		}
	}
	g.left -= int64(n)
	return n, nil
}

func (g *groupReader) close() {
	for i := range g.cols {
		g.cols[i].close()
	}
}

// colReader reads the values of one column chunk, a page at a time.
type colReader struct {
	field rowField
	pages parquet.Pages
	page  parquet.Page
	pos   int // next value of the page

	// The current page's values: one of these, by field kind; for a
	// dictionary-encoded page, the dictionary's values and idx the page's
	// indexes into them.
	i32  []int32
	i64  []int64
	strs []string // plain or dictStrs
	keys []string // upperKey of each of strs, when the field has a key
	idx  []int32

	plain, plainKeys []string // a plain page's values; the slices are reused

	dict     parquet.Dictionary // the dictionary dictStrs were made from
	dictStrs []string           // its entries; the slice is reused across chunks
	dictKeys []string           // upperKey of each entry, when the field has a key
}

var errIndex = errors.New("dictionary index out of range")

const rowSize = unsafe.Sizeof(Row{})

// fill sets the column's field in the n rows at base.
func (c *colReader) fill(base unsafe.Pointer, n int) error {
	for k := 0; k < n; {
		if c.page == nil || c.pos == int(c.page.NumValues()) {
			if err := c.next(); err != nil {
				return err
			}
		}
		m := min(n-k, int(c.page.NumValues())-c.pos)
		p := unsafe.Add(base, uintptr(k)*rowSize+c.field.off)
		var ok bool
		switch c.field.kind {
		case reflect.String:
			ok = put(p, c.strs, c.idx, c.pos, m)
			if ok && c.field.hasKey {
				put(unsafe.Add(base, uintptr(k)*rowSize+c.field.keyOff), c.keys, c.idx, c.pos, m)
			}
		case reflect.Int32:
			ok = put(p, c.i32, c.idx, c.pos, m)
		case reflect.Int64:
			ok = put(p, c.i64, c.idx, c.pos, m)
		}
		if !ok {
			return fmt.Errorf("bulkstore: column %s: %w", c.field.name, errIndex)
		}
		c.pos += m
		k += m
	}
	return nil
}

// put stores values pos to pos+m of the page in consecutive rows from p:
// vals[pos:] of a plain page, or vals[idx[pos:]] of a dictionary-encoded
// one (idx not nil). It reports false on an index out of range.
func put[T any](p unsafe.Pointer, vals []T, idx []int32, pos, m int) bool {
	if idx == nil {
		for _, v := range vals[pos : pos+m] {
			*(*T)(p) = v
			p = unsafe.Add(p, rowSize)
		}
		return true
	}
	for _, i := range idx[pos : pos+m] {
		if uint32(i) >= uint32(len(vals)) {
			return false
		}
		*(*T)(p) = vals[i]
		p = unsafe.Add(p, rowSize)
	}
	return true
}

// next reads the next page of the column and decodes its values.
func (c *colReader) next() error {
	if c.page != nil {
		parquet.Release(c.page)
		c.page = nil
	}
	for {
		p, err := c.pages.ReadPage()
		if errors.Is(err, io.EOF) {
			return errColumns
		}
		if err != nil {
			return fmt.Errorf("bulkstore: column %s: %w", c.field.name, err)
		}
		if p.NumNulls() != 0 || p.NumValues() != p.NumRows() {
			parquet.Release(p)
			return fmt.Errorf("bulkstore: column %s: page with nulls or repeated values", c.field.name)
		}
		if p.NumValues() == 0 {
			parquet.Release(p)
			continue
		}
		c.page, c.pos = p, 0
		return c.decode()
	}
}

// decode sets the typed values of the current page.
func (c *colReader) decode() error {
	p := c.page
	data := p.Data()
	n := int(p.NumValues())
	d := p.Dictionary()
	if d == nil {
		c.idx = nil
		have := 0
		switch c.field.kind {
		case reflect.Int32:
			c.i32 = data.Int32()
			have = len(c.i32)
		case reflect.Int64:
			c.i64 = data.Int64()
			have = len(c.i64)
		case reflect.String:
			b, offs := data.ByteArray()
			c.plain = pageStrings(c.plain[:0], b, offs)
			c.strs = c.plain
			have = len(c.strs)
			if c.field.hasKey {
				c.plainKeys = upperKeys(c.plainKeys[:0], c.plain)
				c.keys = c.plainKeys
			}
		}
		if have != n {
			return fmt.Errorf("bulkstore: column %s: page of %d values holds %d", c.field.name, n, have)
		}
		return nil
	}
	c.idx = data.Int32()
	if len(c.idx) != n {
		return fmt.Errorf("bulkstore: column %s: page of %d values holds %d", c.field.name, n, len(c.idx))
	}
	dp := d.Page().Data()
	switch c.field.kind {
	case reflect.Int32:
		c.i32 = dp.Int32()
	case reflect.Int64:
		c.i64 = dp.Int64()
	case reflect.String:
		if d != c.dict {
			b, offs := dp.ByteArray()
			c.dict, c.dictStrs = d, pageStrings(c.dictStrs[:0], b, offs)
			if len(c.dictStrs) != max(len(offs)-1, 0) {
				return fmt.Errorf("bulkstore: column %s: malformed dictionary", c.field.name)
			}
			if c.field.hasKey {
				c.dictKeys = upperKeys(c.dictKeys[:0], c.dictStrs)
			}
		}
		c.strs, c.keys = c.dictStrs, c.dictKeys
	}
	return nil
}

func (c *colReader) close() {
	if c.page != nil {
		parquet.Release(c.page)
		c.page = nil
	}
	c.dict = nil
	clear(c.dictStrs) // drop the references, keep the slices
	clear(c.dictKeys)
	clear(c.plain)
	clear(c.plainKeys)
	c.strs, c.keys, c.idx = nil, nil, nil
	if c.pages != nil {
		c.pages.Close()
		c.pages = nil
	}
}

// pageStrings appends the byte-array values (data, offsets: value i is
// data[offsets[i]:offsets[i+1]]) to dst as substrings of one copy of their
// bytes.
func pageStrings(dst []string, data []byte, offsets []uint32) []string {
	if len(offsets) < 2 {
		return dst
	}
	lo, hi := offsets[0], offsets[len(offsets)-1]
	if lo > hi || int(hi) > len(data) {
		return dst
	}
	s := string(data[lo:hi])
	for i := 1; i < len(offsets); i++ {
		a, b := offsets[i-1]-lo, offsets[i]-lo
		if a > b || int(b) > len(s) {
			return dst[:0]
		}
		dst = append(dst, s[a:b])
	}
	return dst
}

// upperKeys appends upperKey of each of strs to dst.
func upperKeys(dst, strs []string) []string {
	for _, v := range strs {
		dst = append(dst, upperKey(v))
	}
	return dst
}
