// Package fullindex reads the 13F rows of EDGAR's form-type index files:
// the quarterly full-index/YYYY/QTRn/form.idx and the daily
// form.YYYYMMDD.idx.
//
// Such a file has a few header lines, a column header ("Form Type  Company
// Name ... CIK  Date Filed  File Name"), a line of dashes and then one
// fixed-width row per filing: form type (12 columns), company name (62), CIK
// (12), date filed (12) and file name. A company name can fill its column
// and push the rest of the row right, so a row is split from the right: the
// last three fields are file name, date and CIK, and the company is what
// lies between the form column and the CIK.
//
// Rows are sorted by form type, byte by byte, so the 13F rows (13F-HR,
// 13F-HR/A, 13F-NT, 13F-NT/A) form one block near the start of the file.
// [Parse] stops at the first row past that block and [Enough] tells a
// streaming reader when it has read that row, so that the rest of a large
// file need not be read at all.
package fullindex

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/edgar13f/edgar13f/internal/ciklookup"
	"github.com/edgar13f/edgar13f/internal/edgarid"
)

// formColumn is the width of the form-type column.
const formColumn = 12

// lastForm is the 13F form type that sorts last; rows after it end the
// 13F block.
const lastForm = edgarid.Form13FNTA

// headerWindow bounds the search for the dashed line under the column
// header: the header of a real file takes about 700 bytes.
const headerWindow = 4 << 10

// A Row is one 13F filing listed in an index file.
type Row struct {
	Form      string // 13F-HR, 13F-HR/A, 13F-NT or 13F-NT/A
	Company   string // as listed (UTF-8; Latin-1 bytes are decoded)
	CIK       uint64
	Date      string // date filed, YYYY-MM-DD
	Accession string // from the file name; "" when the name holds none
}

// dataStart returns the offset of the first row after the dashed line, or
// -1 when b holds no complete dashed line within its first headerWindow
// bytes.
func dataStart(b []byte) int {
	w := b[:min(len(b), headerWindow)]
	for off := 0; off < len(w); {
		end := bytes.IndexByte(w[off:], '\n')
		if end < 0 {
			return -1
		}
		line := bytes.TrimRight(w[off:off+end], "\r ")
		if len(line) >= 10 && len(bytes.Trim(line, "-")) == 0 {
			return off + end + 1
		}
		off += end + 1
	}
	return -1
}

// form returns the form type of a row: its first column, trimmed.
func form(line []byte) []byte {
	return bytes.TrimRight(line[:min(len(line), formColumn)], " ")
}

// pastBlock reports whether a row's form type sorts after every 13F form.
func pastBlock(line []byte) bool {
	return string(form(line)) > lastForm
}

// Enough reports whether prefix, the start of an index file, already holds
// every 13F row: its last complete line is a row whose form type sorts
// after the 13F forms. It looks only at the header and the last line, so a
// reader may call it after every chunk.
func Enough(prefix []byte) bool {
	start := dataStart(prefix)
	if start < 0 {
		return false
	}
	end := bytes.LastIndexByte(prefix, '\n')
	if end < start {
		return false
	}
	begin := bytes.LastIndexByte(prefix[:end], '\n') + 1
	if begin < start {
		return false
	}
	line := bytes.TrimRight(prefix[begin:end], "\r ")
	return len(line) > 0 && pastBlock(line)
}

// Parse returns the 13F rows of an index file, in file order. b may be a
// prefix of the file that [Enough] accepted: reading stops at the first row
// past the 13F block. A file with a header and no rows has no 13F rows.
func Parse(b []byte) ([]Row, error) {
	start := dataStart(b)
	if start < 0 {
		return nil, errors.New("fullindex: no column header and dashed line")
	}
	var rows []Row
	n := 0
	for off := start; off < len(b); {
		end := bytes.IndexByte(b[off:], '\n')
		if end < 0 {
			end = len(b) - off
		}
		line := bytes.TrimRight(b[off:off+end], "\r ")
		off += end + 1
		n++
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		f := form(line)
		if !edgarid.Is13F(f) {
			if string(f) > lastForm {
				break
			}
			continue
		}
		r, err := parseRow(line)
		if err != nil {
			return nil, fmt.Errorf("fullindex: row %d: %v", n, err)
		}
		r.Form = string(f)
		rows = append(rows, r)
	}
	return rows, nil
}

// Column starts of a row that keeps to the fixed layout.
const (
	cikColumn  = 74
	dateColumn = 86
	fileColumn = 98
)

// parseRow reads a row by its fixed columns when they hold a CIK and a
// date (a company name may fill its column with no space before the CIK),
// else splits it from the right.
func parseRow(line []byte) (Row, error) {
	if len(line) > fileColumn {
		cikField := bytes.TrimRight(line[cikColumn:dateColumn], " ")
		dateField := bytes.TrimRight(line[dateColumn:fileColumn], " ")
		company := bytes.TrimSpace(line[formColumn:cikColumn])
		if cik, ok := edgarid.ParseCIK(cikField); ok && len(company) > 0 {
			if date, ok := parseDate(dateField); ok {
				file := bytes.TrimSpace(line[fileColumn:])
				return Row{Company: ciklookup.DecodeName(company), CIK: cik, Date: date, Accession: accession(file)}, nil
			}
		}
	}
	return splitRow(line)
}

// splitRow splits a row from the right: file name, date, CIK, and the
// company between the form column and the CIK.
func splitRow(line []byte) (Row, error) {
	var fields [3][]byte
	rest := line
	for i := 2; i >= 0; i-- {
		rest = bytes.TrimRight(rest, " \t")
		j := bytes.LastIndexAny(rest, " \t")
		if j < formColumn-1 {
			return Row{}, errors.New("fewer than five fields")
		}
		fields[i], rest = rest[j+1:], rest[:j]
	}
	cikField, dateField, file := fields[0], fields[1], fields[2]
	if len(rest) < formColumn {
		return Row{}, errors.New("no company name")
	}
	company := bytes.TrimSpace(rest[formColumn:])
	if len(company) == 0 {
		return Row{}, errors.New("no company name")
	}
	var r Row
	var ok bool
	if r.CIK, ok = edgarid.ParseCIK(cikField); !ok {
		return Row{}, fmt.Errorf("CIK %q is not 1 to 10 digits", cikField)
	}
	if r.Date, ok = parseDate(dateField); !ok {
		return Row{}, fmt.Errorf("date %q is neither YYYY-MM-DD nor YYYYMMDD", dateField)
	}
	r.Company = ciklookup.DecodeName(company)
	r.Accession = accession(file)
	return r, nil
}

func digits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// parseDate accepts the quarterly YYYY-MM-DD and the daily YYYYMMDD forms
// and returns YYYY-MM-DD; it checks the shape only, not the calendar.
func parseDate(b []byte) (string, bool) {
	switch {
	case len(b) == 10 && b[4] == '-' && b[7] == '-' && digits(b[:4]) && digits(b[5:7]) && digits(b[8:]):
		return string(b), true
	case len(b) == 8 && digits(b):
		return string(b[:4]) + "-" + string(b[4:6]) + "-" + string(b[6:]), true
	}
	return "", false
}

// accession returns the accession number of a file name such as
// edgar/data/1067983/0000950123-23-011029.txt, or "".
func accession(file []byte) string {
	name := file[bytes.LastIndexByte(file, '/')+1:]
	name, ok := bytes.CutSuffix(name, []byte(".txt"))
	if !ok || !edgarid.IsAccession(name) {
		return ""
	}
	return string(name)
}
