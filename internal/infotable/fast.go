package infotable

import (
	"bytes"
	"errors"
)

// Parse reads an information table. keep, if non-nil, is called with each complete row; rows for which it
// returns false are dropped at once and never retained (used for redaction: dropped rows must not survive
// anywhere in the result). Rows are returned in document order.
//
// Leading white space and a UTF-8 byte order mark are skipped. A declared
// encoding other than UTF-8 is converted with golang.org/x/net/html/charset
// (which, like web browsers, decodes ISO-8859-1 and US-ASCII as
// windows-1252), so every string in a Row is UTF-8; an unknown encoding is
// an error.
// Text fields have surrounding XML white space trimmed and are otherwise as
// filed. Numbers may carry surrounding white space, thousands separators
// ("1,234,567") and a decimal fraction; a fraction is rounded to the nearest
// integer, halves away from zero ("10.5" is 11, "10.49" is 10). Negative,
// non-numeric and out-of-range numbers are errors, as are a root element
// other than informationTable, a row without nameOfIssuer, cusip, value,
// sshPrnamt or sshPrnamtType, an unknown putCall or sshPrnamtType, a field
// given twice in one row, and nesting deeper than 64 elements. Unknown
// elements are ignored. A table with no rows yields an empty slice.
//
// Parse reads the document in a single pass over data without building a
// tree, following the XML rules of encoding/xml (entities and character
// references, CDATA sections, comments, processing instructions, attributes
// checked and ignored, line-end normalisation). Documents it does not handle
// itself (a DOCTYPE or other directive, a name with non-ASCII letters) and
// documents whose XML it finds malformed are handed to [ParseReference],
// which then decides and words the error; keep may then be called again
// for rows it had already seen. A row that breaks a row rule (a missing or
// invalid field) is refused in the one pass, with the error ParseReference
// gives it.
func Parse(data []byte, keep func(*Row) bool) ([]Row, error) {
	rows, _, err := ParseTally(data, keep)
	return rows, err
}

// ParseTally is [Parse] that also returns the Tally of the table: every
// row parsed, whether keep kept it or not. Each row is counted once, also
// when the document is handed to [ParseReference].
func ParseTally(data []byte, keep func(*Row) bool) ([]Row, Tally, error) {
	var t Tally
	count := func(r *Row) bool {
		t.Add(r.Value)
		return keep == nil || keep(r)
	}
	rows, err := parseFast(data, count)
	if errors.Is(err, errUnsupported) || errors.Is(err, errMalformed) {
		// Only the XML reading is handed over: a row the fast parser read
		// and found against a row rule is refused at once, with the error
		// of the rules both parsers share (rows.go), not read again.
		t = Tally{}
		rows, err = ParseReference(data, count)
	}
	if err != nil {
		return nil, Tally{}, err
	}
	return rows, t, nil
}

var (
	// errUnsupported reports a construct parseFast leaves to ParseReference.
	errUnsupported = errors.New("infotable: construct not handled by the fast parser")
	// errMalformed reports a document parseFast found malformed.
	errMalformed = errors.New("infotable: malformed document")
)

// parseFast is Parse without the fallback: it returns errUnsupported or
// errMalformed where Parse asks ParseReference.
func parseFast(data []byte, keep func(*Row) bool) ([]Row, error) {
	data = trimLeading(data)
	if len(data) == 0 {
		return nil, errMalformed
	}
	n := estimateRows(data)
	p := fastParser{rowBuilder: rowBuilder{keep: keep, rows: make([]Row, 0, n), strs: newStrCache(n)}}
	if err := p.run(data); err != nil {
		return nil, err
	}
	if !p.sawRoot || p.depth != 0 {
		return nil, errMalformed
	}
	return p.rows, nil
}

// estimateRows estimates the rows of a table ahead of parsing, so that the
// row slice is allocated once at about its size (a slice grown by append
// costs a quarter of its size again in memory). Every row has an opening and
// a closing infoTable tag, with or without a prefix. Tables up to 1 MB are
// counted whole; for larger ones the first megabyte is counted and scaled,
// with a little to spare: rows of one table are much alike in size, and a
// whole count would cost a sixth of the parse.
func estimateRows(data []byte) int {
	const sample = 1 << 20
	tag := []byte("infoTable>")
	if len(data) <= sample {
		return bytes.Count(data, tag)/2 + 1
	}
	n := bytes.Count(data[:sample], tag) / 2
	return int(float64(n)*float64(len(data))/sample*1.02) + 16
}
