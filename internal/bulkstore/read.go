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
// one string that the page's values are substrings of, a dictionary
// becomes one string per entry, shared by every row that refers to it. So
// the strings of a returned Row are ordinary immutable Go strings, valid
// forever; one kept string keeps its page's (or dictionary entry's) bytes
// alive.

// rowField is one field of Row: its column name, Go kind and offset.
type rowField struct {
	name string
	kind reflect.Kind // reflect.String, reflect.Int32 or reflect.Int64
	off  uintptr
}

// rowFields lists the stored fields of Row, from its parquet tags.
var rowFields = func() []rowField {
	t := reflect.TypeFor[Row]()
	var out []rowField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("parquet"), ",")
		if name == "" || name == "-" {
			continue
		}
		switch f.Type.Kind() {
		case reflect.String, reflect.Int32, reflect.Int64:
		default:
			panic("bulkstore: Row field " + f.Name + " has a kind the column reader does not handle")
		}
		out = append(out, rowField{name: name, kind: f.Type.Kind(), off: f.Offset})
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

	// The current page's values: one of these, by field kind.
	i32  []int32
	i64  []int64
	strs []string

	dict     parquet.Dictionary // the dictionary strs were made from
	dictStrs []string
}

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
		switch c.field.kind {
		case reflect.String:
			for _, v := range c.strs[c.pos : c.pos+m] {
				*(*string)(p) = v
				p = unsafe.Add(p, rowSize)
			}
		case reflect.Int32:
			for _, v := range c.i32[c.pos : c.pos+m] {
				*(*int32)(p) = v
				p = unsafe.Add(p, rowSize)
			}
		case reflect.Int64:
			for _, v := range c.i64[c.pos : c.pos+m] {
				*(*int64)(p) = v
				p = unsafe.Add(p, rowSize)
			}
		}
		c.pos += m
		k += m
	}
	return nil
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
		switch c.field.kind {
		case reflect.Int32:
			c.i32 = data.Int32()
		case reflect.Int64:
			c.i64 = data.Int64()
		case reflect.String:
			b, offs := data.ByteArray()
			c.strs = pageStrings(c.strs[:0], b, offs)
		}
		if c.len() != n {
			return fmt.Errorf("bulkstore: column %s: page of %d values holds %d", c.field.name, n, c.len())
		}
		return nil
	}
	idx := data.Int32()
	if len(idx) != n {
		return fmt.Errorf("bulkstore: column %s: page of %d values holds %d", c.field.name, n, len(idx))
	}
	dp := d.Page().Data()
	switch c.field.kind {
	case reflect.Int32:
		c.i32 = lookup(c.i32[:0], dp.Int32(), idx)
	case reflect.Int64:
		c.i64 = lookup(c.i64[:0], dp.Int64(), idx)
	case reflect.String:
		if d != c.dict {
			b, offs := dp.ByteArray()
			c.dict, c.dictStrs = d, pageStrings(nil, b, offs)
		}
		c.strs = lookup(c.strs[:0], c.dictStrs, idx)
	}
	if c.len() != n {
		return fmt.Errorf("bulkstore: column %s: dictionary index out of range", c.field.name)
	}
	return nil
}

func (c *colReader) len() int {
	switch c.field.kind {
	case reflect.Int32:
		return len(c.i32)
	case reflect.Int64:
		return len(c.i64)
	}
	return len(c.strs)
}

func (c *colReader) close() {
	if c.page != nil {
		parquet.Release(c.page)
		c.page = nil
	}
	c.dict, c.dictStrs = nil, nil
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

// lookup appends dict[i] for each index to dst; it stops at an index out
// of range (the caller checks the length).
func lookup[T any](dst, dict []T, idx []int32) []T {
	for _, i := range idx {
		if uint32(i) >= uint32(len(dict)) {
			return dst
		}
		dst = append(dst, dict[i])
	}
	return dst
}
