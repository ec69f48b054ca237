package datasetzip

import (
	"archive/zip"
	"bufio"
	"bytes"
	"fmt"
	"io"
	"path"
	"strings"
)

// The tables of a window zip.
const (
	Submission    = "SUBMISSION"
	CoverPage     = "COVERPAGE"
	SummaryPage   = "SUMMARYPAGE"
	InfoTable     = "INFOTABLE"
	OtherManager  = "OTHERMANAGER"
	OtherManager2 = "OTHERMANAGER2"
	Signature     = "SIGNATURE"
)

// Columns lists the header of each table, in order. A table whose header
// differs in any way is refused.
var Columns = map[string][]string{
	Submission: {"ACCESSION_NUMBER", "FILING_DATE", "SUBMISSIONTYPE", "CIK", "PERIODOFREPORT"},
	CoverPage: {"ACCESSION_NUMBER", "REPORTCALENDARORQUARTER", "ISAMENDMENT", "AMENDMENTNO", "AMENDMENTTYPE",
		"CONFDENIEDEXPIRED", "DATEDENIEDEXPIRED", "DATEREPORTED", "REASONFORNONCONFIDENTIALITY", "FILINGMANAGER_NAME",
		"FILINGMANAGER_STREET1", "FILINGMANAGER_STREET2", "FILINGMANAGER_CITY", "FILINGMANAGER_STATEORCOUNTRY",
		"FILINGMANAGER_ZIPCODE", "REPORTTYPE", "FORM13FFILENUMBER", "CRDNUMBER", "SECFILENUMBER",
		"PROVIDEINFOFORINSTRUCTION5", "ADDITIONALINFORMATION"},
	SummaryPage: {"ACCESSION_NUMBER", "OTHERINCLUDEDMANAGERSCOUNT", "TABLEENTRYTOTAL", "TABLEVALUETOTAL", "ISCONFIDENTIALOMITTED"},
	InfoTable: {"ACCESSION_NUMBER", "INFOTABLE_SK", "NAMEOFISSUER", "TITLEOFCLASS", "CUSIP", "FIGI", "VALUE", "SSHPRNAMT",
		"SSHPRNAMTTYPE", "PUTCALL", "INVESTMENTDISCRETION", "OTHERMANAGER", "VOTING_AUTH_SOLE", "VOTING_AUTH_SHARED",
		"VOTING_AUTH_NONE"},
	OtherManager:  {"ACCESSION_NUMBER", "OTHERMANAGER_SK", "CIK", "FORM13FFILENUMBER", "CRDNUMBER", "SECFILENUMBER", "NAME"},
	OtherManager2: {"ACCESSION_NUMBER", "SEQUENCENUMBER", "CIK", "FORM13FFILENUMBER", "CRDNUMBER", "SECFILENUMBER", "NAME"},
	Signature:     {"ACCESSION_NUMBER", "NAME", "TITLE", "PHONE", "SIGNATURE", "CITY", "STATEORCOUNTRY", "SIGNATUREDATE"},
}

// Tables lists the seven tables in the order the SEC documents them.
var Tables = []string{Submission, CoverPage, SummaryPage, InfoTable, OtherManager, OtherManager2, Signature}

// An Error is a problem with a window's bytes. It names the window, and the
// table and line (1 is the header) when it is about one.
type Error struct {
	Window string // window name
	Table  string // "" for the zip itself
	Line   int    // 0 when not about one line
	Err    error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("datasets: window ")
	b.WriteString(e.Window)
	if e.Table != "" {
		b.WriteString(", table ")
		b.WriteString(e.Table)
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, ", line %d", e.Line)
	}
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// An Archive is an opened window zip.
type Archive struct {
	window  string
	members map[string]*zip.File // by table name
}

// Open opens a window zip held in r. window names it in errors. Members are
// matched by base name ("SUBMISSION.tsv", case-insensitive), so they may sit
// at the zip root or under a folder. A zip that cannot be read is an error.
func Open(r io.ReaderAt, size int64, window string) (*Archive, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, &Error{Window: window, Err: fmt.Errorf("corrupt or truncated zip: %w", err)}
	}
	zr.RegisterDecompressor(zip.Deflate, inflate)
	a := &Archive{window: window, members: map[string]*zip.File{}}
	for _, f := range zr.File {
		base := strings.ToUpper(path.Base(strings.ReplaceAll(f.Name, `\`, "/")))
		table, ok := strings.CutSuffix(base, ".TSV")
		if !ok || Columns[table] == nil || f.FileInfo().IsDir() {
			continue
		}
		if a.members[table] != nil {
			return nil, &Error{Window: window, Table: table, Err: fmt.Errorf("zip holds the table twice (%s)", f.Name)}
		}
		a.members[table] = f
	}
	return a, nil
}

// Has reports whether the zip holds table.
func (a *Archive) Has(table string) bool { return a.members[table] != nil }

// Size returns the uncompressed size of table (0 when absent).
func (a *Archive) Size(table string) int64 {
	if f := a.members[table]; f != nil {
		return int64(f.UncompressedSize64)
	}
	return 0
}

// Table opens table for streaming. A missing table is an error; so is a
// header other than Columns[table] (checked here).
func (a *Archive) Table(table string) (*TableReader, error) {
	cols := Columns[table]
	if cols == nil {
		return nil, &Error{Window: a.window, Err: fmt.Errorf("unknown table %q", table)}
	}
	f := a.members[table]
	if f == nil {
		return nil, &Error{Window: a.window, Table: table, Err: ErrNoTable}
	}
	zrc, err := f.Open()
	if err != nil {
		return nil, &Error{Window: a.window, Table: table, Err: fmt.Errorf("corrupt zip member: %w", err)}
	}
	rc := newReadAhead(zrc, int64(min(f.UncompressedSize64, 1<<40)))
	t := &TableReader{window: a.window, table: table, rc: rc, cols: len(cols),
		br: bufio.NewReaderSize(rc, 1<<20), fields: make([][]byte, 0, len(cols))}
	if !t.next() {
		err := t.Err()
		if err == nil {
			err = t.errorf("no header line")
		}
		rc.Close()
		return nil, err
	}
	if len(t.fields) != len(cols) {
		rc.Close()
		return nil, t.errorf("unknown header: %d columns, want %d (%s)", len(t.fields), len(cols), strings.Join(cols, ","))
	}
	for i, c := range cols {
		if got := string(bytes.TrimPrefix(t.fields[i], []byte("\ufeff"))); got != c {
			rc.Close()
			return nil, t.errorf("unknown header: column %d is %q, want %q", i+1, got, c)
		}
	}
	return t, nil
}

// A TableReader streams the rows of one table. It reads the zip member as
// it goes and holds one line at a time.
type TableReader struct {
	window, table string
	rc            io.ReadCloser
	br            *bufio.Reader
	cols          int
	line          int
	fields        [][]byte
	long          []byte // a line longer than the buffer
	bytes         int64  // bytes of the lines read so far
	err           error
	done          bool
}

// Next advances to the next row. It returns false at the end of the table
// or on an error (see Err).
func (t *TableReader) Next() bool {
	if !t.next() {
		return false
	}
	if len(t.fields) != t.cols {
		t.err = t.errorf("%d fields, want %d", len(t.fields), t.cols)
		return false
	}
	return true
}

// next reads and splits one line.
func (t *TableReader) next() bool {
	if t.done || t.err != nil {
		return false
	}
	line, err := t.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		t.long = append(t.long[:0], line...)
		for err == bufio.ErrBufferFull {
			line, err = t.br.ReadSlice('\n')
			t.long = append(t.long, line...)
		}
		line = t.long
	}
	switch {
	case err == io.EOF && len(line) == 0:
		t.done = true
		return false
	case err != nil && err != io.EOF:
		t.line++
		t.err = t.errorf("corrupt or truncated zip member: %v", err)
		return false
	}
	t.line++
	t.bytes += int64(len(line))
	line = bytes.TrimSuffix(line, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	t.fields = splitFields(t.fields[:0], line)
	return true
}

// splitFields splits a line on tabs and unwraps quoted fields: a field that
// starts and ends with '"' loses both and has each inner `""` turned into
// `"`. A field with an unmatched quote is kept as it is. Unwrapping writes
// into the line's own bytes.
func splitFields(dst [][]byte, line []byte) [][]byte {
	for {
		i := bytes.IndexByte(line, '\t')
		f := line
		if i >= 0 {
			f = line[:i]
		}
		if len(f) >= 2 && f[0] == '"' && f[len(f)-1] == '"' {
			f = unquote(f[1 : len(f)-1])
		}
		dst = append(dst, f)
		if i < 0 {
			return dst
		}
		line = line[i+1:]
	}
}

// unquote turns `""` into `"` in place.
func unquote(f []byte) []byte {
	if bytes.IndexByte(f, '"') < 0 {
		return f
	}
	out := f[:0]
	for i := 0; i < len(f); i++ {
		out = append(out, f[i])
		if f[i] == '"' && i+1 < len(f) && f[i+1] == '"' {
			i++
		}
	}
	return out
}

// Fields returns the current row's fields, unquoted. The slices are valid
// until the next call to Next.
func (t *TableReader) Fields() [][]byte { return t.fields }

// Line returns the current line number (the header is line 1).
func (t *TableReader) Line() int { return t.line }

// Bytes returns the number of uncompressed bytes read so far.
func (t *TableReader) Bytes() int64 { return t.bytes }

// Err returns the error that stopped Next, if any.
func (t *TableReader) Err() error { return t.err }

// Errorf returns an error naming the window, table and current line.
func (t *TableReader) Errorf(format string, args ...any) error { return t.errorf(format, args...) }

func (t *TableReader) errorf(format string, args ...any) error {
	return &Error{Window: t.window, Table: t.table, Line: t.line, Err: fmt.Errorf(format, args...)}
}

// Close releases the zip member. (Reading a member to its end checks its
// CRC; a mismatch is reported by Next/Err as a corrupt member.)
func (t *TableReader) Close() error { return t.rc.Close() }

// AppendField writes s as the Data Sets quote it: a field containing '"'
// is wrapped in quotes with inner quotes doubled. It is the inverse of the
// reader's unquoting (tabs and line ends cannot be represented).
func AppendField(dst []byte, s string) []byte {
	if !strings.Contains(s, `"`) {
		return append(dst, s...)
	}
	dst = append(dst, '"')
	dst = append(dst, strings.ReplaceAll(s, `"`, `""`)...)
	return append(dst, '"')
}
