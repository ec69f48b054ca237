package bulkstore

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/edgar13f/edgar13f/internal/datasets"
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

func newSpill(dir, prefix string, n int) (*spill, error) {
	s := &spill{}
	for i := 0; i < n; i++ {
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("%s-%04d.bin", prefix, i)))
		if err != nil {
			s.close()
			return nil, err
		}
		s.files = append(s.files, f)
		s.ws = append(s.ws, bufio.NewWriterSize(f, 64<<10))
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

// read returns the bytes of bucket b.
func (s *spill) read(b int) ([]byte, error) {
	if err := s.ws[b].Flush(); err != nil {
		return nil, err
	}
	f := s.files[b]
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return io.ReadAll(f)
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
type record struct {
	ord, rowNo, sk int64
	r              *datasets.InfoRow
}

func appendStr(b, s []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// encode appends rec to dst, length-prefixed.
func encode(dst []byte, ord, rowNo int, r *datasets.InfoRow) []byte {
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

func (d *decoder) str(intern map[string]string) string {
	n := d.uvarint()
	if uint64(len(d.b)) < n {
		d.err = errSpill
		d.b = nil
		return ""
	}
	s := d.b[:n]
	d.b = d.b[n:]
	if v, ok := intern[string(s)]; ok {
		return v
	}
	v := string(s)
	if len(intern) < 1<<20 {
		intern[v] = v
	}
	return v
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
func decodeRow(rec []byte, row *Row, filings []Filing, intern map[string]string) (int, error) {
	d := decoder{b: rec}
	ord := int(d.uvarint())
	row.RowNo = int32(d.uvarint())
	row.SK = int64(d.uvarint())
	row.NameOfIssuer = d.str(intern)
	row.TitleOfClass = d.str(intern)
	row.CUSIP = d.str(intern)
	row.FIGI = d.str(intern)
	row.OtherManager = d.str(intern)
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
	row.InvestmentDiscretion = d.str(intern)
	row.VotingSole = int64(d.uvarint())
	row.VotingShared = int64(d.uvarint())
	row.VotingNone = int64(d.uvarint())
	if d.err != nil || ord >= len(filings) {
		return 0, errSpill
	}
	f := &filings[ord]
	row.Period, row.CIK, row.FilingDate, row.Accession = f.Period, f.CIK, f.FilingDate, f.Accession
	row.CUSIPKey = upperKey(row.CUSIP, intern)
	row.ValueUSD = datasets.ValueUSD(row.Value, row.FilingDate)
	return ord, nil
}

// upperKey returns s in upper case, sharing the string when it already is.
func upperKey(s string, intern map[string]string) string {
	for i := 0; i < len(s); i++ {
		if 'a' <= s[i] && s[i] <= 'z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'a' <= b[j] && b[j] <= 'z' {
					b[j] -= 'a' - 'A'
				}
			}
			if v, ok := intern[string(b)]; ok {
				return v
			}
			return string(b)
		}
	}
	return s
}

// prefixClasses is the number of classes of cusipPrefix.
const prefixClasses = classes * classes

// classes is the number of classes of one character (see charClass).
const classes = 39

// cusipPrefix maps the first two characters of a CUSIP, upper-cased, to
// one of prefixClasses classes whose order is the byte order of the keys:
// a bucket holding lower classes only holds lower keys.
func cusipPrefix(c []byte) int {
	return charClass(c, 0)*classes + charClass(c, 1)
}

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
