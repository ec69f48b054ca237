package infotable

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"slices"

	"github.com/edgar13f/edgar13f/internal/varint"
)

// The encoding written by AppendEncoded, version 2:
//
//	magic "E13T", version byte 2
//	the Tally of the table as parsed: uvarint rows, zig-zag varint value sum
//	uvarint row count
//	uvarint string region length, then the string region: every string of
//	    every row, concatenated in row order
//	per row: one flags byte (ShPrn, PutCall and InvestmentDiscretion codes),
//	    uvarint lengths of NameOfIssuer, TitleOfClass, CUSIP, FIGI,
//	    OtherManager and of each literal ShPrn, PutCall, InvestmentDiscretion
//	    (code litShPrn, litPutCall, litDisc), in that order, then zig-zag
//	    varints Value, Shares, VotingSole, VotingShared, VotingNone
//	CRC-32C (Castagnoli) of everything before it, 4 bytes little-endian
//
// Flags: bits 0-1 ShPrn code, bits 2-3 PutCall code, bits 4-6
// InvestmentDiscretion code, bit 7 zero. A code indexes the matching table
// below; the last code of each table means "stored as a literal string", so
// every Row value can be encoded.
const (
	magic   = "E13T"
	version = 2

	// minRowBytes is the smallest encoded row: the flags byte, five string
	// lengths and five numbers of one byte each.
	minRowBytes = 1 + 5 + 5
)

var (
	shPrnCodes   = []string{"", "SH", "PRN"}
	putCallCodes = []string{"", "PUT", "CALL"}
	discCodes    = []string{"", "SOLE", "DFND", "OTR"}

	litShPrn   = byte(len(shPrnCodes))
	litPutCall = byte(len(putCallCodes))
	litDisc    = byte(len(discCodes))

	castagnoli = crc32.MakeTable(crc32.Castagnoli)
)

// code returns the index of s in codes, or len(codes) (the literal code) when
// s is not among them.
func code(codes []string, s string) byte {
	for i, c := range codes {
		if c == s {
			return byte(i)
		}
	}
	return byte(len(codes))
}

// rowFlags returns the flags byte of r.
func rowFlags(r *Row) byte {
	return code(shPrnCodes, r.ShPrn) | code(putCallCodes, r.PutCall)<<2 | code(discCodes, r.InvestmentDiscretion)<<4
}

// rowStrings returns the strings of r stored in the string region, in order.
func rowStrings(buf *[8]string, r *Row, flags byte) []string {
	ss := append(buf[:0], r.NameOfIssuer, r.TitleOfClass, r.CUSIP, r.FIGI, r.OtherManager)
	if flags&3 == litShPrn {
		ss = append(ss, r.ShPrn)
	}
	if flags>>2&3 == litPutCall {
		ss = append(ss, r.PutCall)
	}
	if flags>>4&7 == litDisc {
		ss = append(ss, r.InvestmentDiscretion)
	}
	return ss
}

// uvarintLen is the length of binary.AppendUvarint's encoding of v.
func uvarintLen(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

// varintLen is the length of binary.AppendVarint's encoding of v.
func varintLen(v int64) int {
	u := uint64(v) << 1
	if v < 0 {
		u = ^u
	}
	return uvarintLen(u)
}

// A Tally counts the rows of a table as parsed, before keep dropped any,
// and sums their values (saturating at the int64 range). It lets a caller
// check a table against the totals its cover states without keeping the
// rows it dropped.
type Tally struct {
	Rows  int64
	Value int64
}

// Matches reports whether a table tallied t matches the totals its cover
// states: stated, exactly entries rows, their values summing to value.
// It is the one reconciliation rule of the per-manager and bulk answers.
func (t Tally) Matches(stated bool, entries, value int64) bool {
	return stated && t.Rows == entries && t.Value == value
}

// Add counts one row of value v; the sum saturates at the int64 limits.
func (t *Tally) Add(v int64) {
	t.Rows++
	if s := t.Value + v; (s > t.Value) == (v > 0) {
		t.Value = s
	} else if v > 0 {
		t.Value = 1<<63 - 1
	} else {
		t.Value = -1 << 63
	}
}

// AppendEncoded appends a compact binary encoding of rows and of parsed,
// the Tally of the table they were parsed from, to dst.
func AppendEncoded(dst []byte, rows []Row, parsed Tally) []byte {
	var sbuf [8]string // backing store of rowStrings, reused for every row
	start := len(dst)
	strLen := 0
	for i := range rows {
		for _, s := range rowStrings(&sbuf, &rows[i], rowFlags(&rows[i])) {
			strLen += len(s)
		}
	}
	// Reserve the exact size of the encoding, so that a large table is
	// written into one allocation.
	size := len(magic) + 1 + uvarintLen(uint64(parsed.Rows)) + varintLen(parsed.Value) +
		uvarintLen(uint64(len(rows))) + uvarintLen(uint64(strLen)) + strLen + 4
	for i := range rows {
		r := &rows[i]
		size++ // flags
		for _, s := range rowStrings(&sbuf, r, rowFlags(r)) {
			size += uvarintLen(uint64(len(s)))
		}
		for _, n := range [...]int64{r.Value, r.Shares, r.VotingSole, r.VotingShared, r.VotingNone} {
			size += varintLen(n)
		}
	}
	dst = slices.Grow(dst, size)
	dst = append(dst, magic...)
	dst = append(dst, version)
	dst = binary.AppendUvarint(dst, uint64(parsed.Rows))
	dst = binary.AppendVarint(dst, parsed.Value)
	dst = binary.AppendUvarint(dst, uint64(len(rows)))
	dst = binary.AppendUvarint(dst, uint64(strLen))
	for i := range rows {
		for _, s := range rowStrings(&sbuf, &rows[i], rowFlags(&rows[i])) {
			dst = append(dst, s...)
		}
	}
	for i := range rows {
		r := &rows[i]
		flags := rowFlags(r)
		dst = append(dst, flags)
		for _, s := range rowStrings(&sbuf, r, flags) {
			dst = binary.AppendUvarint(dst, uint64(len(s)))
		}
		for _, n := range [...]int64{r.Value, r.Shares, r.VotingSole, r.VotingShared, r.VotingNone} {
			dst = binary.AppendVarint(dst, n)
		}
	}
	return binary.LittleEndian.AppendUint32(dst, crc32.Checksum(dst[start:], castagnoli))
}

var errCorrupt = errors.New("infotable: corrupt encoding")

// Decode decodes what AppendEncoded wrote. Any corrupt or truncated input
// is an error, never a panic.
func Decode(b []byte) ([]Row, error) {
	n, err := Count(b)
	if err != nil {
		return nil, err
	}
	rows := make([]Row, 0, n)
	err = DecodeEach(b, func(r *Row) { rows = append(rows, *r) })
	if err != nil {
		return nil, err
	}
	return rows, nil
}

// Count returns the number of rows in an encoding after checking its header
// and checksum.
func Count(b []byte) (int, error) {
	n, _, err := Summary(b)
	return n, err
}

// Summary returns the number of rows in an encoding and the Tally stored
// with them, after checking its header and checksum.
func Summary(b []byte) (rows int, parsed Tally, err error) {
	body, err := checkedBody(b)
	if err != nil {
		return 0, Tally{}, err
	}
	d := varint.NewReader(body)
	parsed = readTally(&d)
	count, _ := d.Uvarint(), d.Uvarint()
	if d.Failed() {
		return 0, Tally{}, errCorrupt
	}
	if count > uint64(len(body)/minRowBytes) {
		return 0, Tally{}, fmt.Errorf("infotable: corrupt encoding (%d rows in %d bytes)", count, len(body))
	}
	return int(count), parsed, nil
}

// DecodeEach decodes what AppendEncoded wrote and calls each with every row
// in order, so that a caller converting rows to its own type needs no []Row
// in between. The checksum is verified before the first call; a structural
// error found later is returned after some calls were made, and the caller
// must then discard what it built. The *Row passed is reused between calls.
func DecodeEach(b []byte, each func(*Row)) error {
	body, err := checkedBody(b)
	if err != nil {
		return err
	}
	return decodeBody(body, each)
}

// checkedBody checks the magic, version and checksum of an encoding and
// returns what follows the version byte, without the checksum.
func checkedBody(b []byte) ([]byte, error) {
	if len(b) < len(magic)+1+4 || string(b[:len(magic)]) != magic {
		return nil, errors.New("infotable: not an encoded table")
	}
	if b[len(magic)] != version {
		return nil, fmt.Errorf("infotable: unsupported encoding version %d", b[len(magic)])
	}
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	if crc32.Checksum(body, castagnoli) != sum {
		return nil, errors.New("infotable: corrupt encoding (checksum mismatch)")
	}
	return body[len(magic)+1:], nil
}

func decodeBody(b []byte, each func(*Row)) error {
	head := varint.NewReader(b)
	readTally(&head)
	count := head.Uvarint()
	strs := string(head.Next(head.Uvarint()))
	if head.Failed() {
		return errCorrupt
	}
	d := decoder{b: varint.NewReader(b[len(b)-head.Len():]), s: varint.NewReader(strs)}
	if count > uint64(d.b.Len()/minRowBytes) {
		return fmt.Errorf("infotable: corrupt encoding (%d rows in %d bytes)", count, d.b.Len())
	}
	var r Row
	for i := range count {
		flags := d.b.Byte()
		shPrn, putCall, disc := flags&3, flags>>2&3, flags>>4&7
		if flags&0x80 != 0 || putCall > litPutCall || disc > litDisc {
			return fmt.Errorf("infotable: corrupt encoding (row %d flags %#x)", i+1, flags)
		}
		r.NameOfIssuer = d.str()
		r.TitleOfClass = d.str()
		r.CUSIP = d.str()
		r.FIGI = d.str()
		r.OtherManager = d.str()
		r.ShPrn = d.enum(shPrnCodes, shPrn)
		r.PutCall = d.enum(putCallCodes, putCall)
		r.InvestmentDiscretion = d.enum(discCodes, disc)
		r.Value = d.b.Varint()
		r.Shares = d.b.Varint()
		r.VotingSole = d.b.Varint()
		r.VotingShared = d.b.Varint()
		r.VotingNone = d.b.Varint()
		if d.b.Failed() || d.s.Failed() {
			return fmt.Errorf("infotable: corrupt encoding (row %d)", i+1)
		}
		each(&r)
	}
	if d.b.Len() != 0 || d.s.Len() != 0 {
		return errCorrupt
	}
	return nil
}

// decoder reads row data from b and strings from s: each string's length
// from b, its bytes from s.
type decoder struct {
	b varint.Reader[[]byte]
	s varint.Reader[string]
}

// str reads a length from b and returns the next string of that length from s.
func (d *decoder) str() string { return d.s.Next(d.b.Uvarint()) }

// readTally reads a Tally; a row count beyond int64 is corrupt.
func readTally(d *varint.Reader[[]byte]) Tally {
	n, v := d.Uvarint(), d.Varint()
	if n > 1<<63-1 {
		d.Fail()
	}
	if d.Failed() {
		return Tally{}
	}
	return Tally{Rows: int64(n), Value: v}
}

// enum returns codes[c], or a literal string when c is the literal code.
func (d *decoder) enum(codes []string, c byte) string {
	if int(c) < len(codes) {
		return codes[c]
	}
	return d.str()
}
