package nameindex

import (
	"encoding/binary"
	"errors"
	"strings"
	"time"

	"github.com/edgar13f/edgar13f/internal/ciklookup"
)

// The encodings of an Index and of a parsed name file: a magic line, then
// uvarints and length-prefixed strings.
const (
	namesMagic = "edgar13f names v1\n"
	indexMagic = "edgar13f find index v1\n"
)

var errBadEncoding = errors.New("nameindex: bad encoding")

// EncodeNames encodes a parsed name file fetched at fetched.
func EncodeNames(fetched time.Time, entries []ciklookup.Entry) []byte {
	b := []byte(namesMagic)
	b = appendTime(b, fetched)
	b = binary.AppendUvarint(b, uint64(len(entries)))
	for _, e := range entries {
		b = binary.AppendUvarint(b, e.CIK)
		b = appendStr(b, e.Name)
	}
	return b
}

// DecodeNames decodes what EncodeNames wrote.
func DecodeNames(b []byte) (fetched time.Time, entries []ciklookup.Entry, err error) {
	s, ok := strings.CutPrefix(string(b), namesMagic)
	if !ok {
		return time.Time{}, nil, errBadEncoding
	}
	d := &decoder{s: s}
	fetched = d.time()
	entries = make([]ciklookup.Entry, d.count())
	for i := range entries {
		entries[i] = ciklookup.Entry{CIK: d.uint(), Name: d.str()}
	}
	if d.err != nil || d.off != len(s) {
		return time.Time{}, nil, errBadEncoding
	}
	return fetched, entries, nil
}

// Encode returns the encoding of x.
func (x *Index) Encode() []byte {
	b := []byte(indexMagic)
	b = appendTime(b, x.NamesFetched)
	b = binary.AppendUvarint(b, uint64(x.Last.Year))
	b = binary.AppendUvarint(b, uint64(x.Last.Q))
	b = binary.AppendUvarint(b, uint64(len(x.Pending)))
	for _, p := range x.Pending {
		b = binary.AppendUvarint(b, uint64(p.Quarter.Year))
		b = binary.AppendUvarint(b, uint64(p.Quarter.Q))
		b = appendTime(b, p.Fetched)
	}
	b = binary.AppendUvarint(b, uint64(len(x.ents)))
	for _, e := range x.ents {
		b = binary.AppendUvarint(b, e.cik)
		b = binary.AppendUvarint(b, uint64(e.first))
		b = appendStr(b, e.name)
	}
	b = binary.AppendUvarint(b, uint64(len(x.lineEnt)))
	for _, e := range x.lineEnt {
		b = binary.AppendUvarint(b, uint64(e))
	}
	return appendStr(b, x.text)
}

// Decode decodes what Encode wrote; damaged or truncated input is an error.
func Decode(b []byte) (*Index, error) {
	s, ok := strings.CutPrefix(string(b), indexMagic)
	if !ok {
		return nil, errBadEncoding
	}
	d := &decoder{s: s}
	x := &Index{NamesFetched: d.time()}
	x.Last = Quarter{int(d.uint()), int(d.uint())}
	x.Pending = make([]Pending, d.count())
	for i := range x.Pending {
		x.Pending[i] = Pending{Quarter: Quarter{int(d.uint()), int(d.uint())}, Fetched: d.time()}
	}
	x.ents = make([]entity, d.count())
	for i := range x.ents {
		x.ents[i] = entity{cik: d.uint(), first: int32(d.uint()), name: d.str()}
	}
	x.lineEnt = make([]uint32, d.count())
	for i := range x.lineEnt {
		if e := d.uint(); e < uint64(len(x.ents)) {
			x.lineEnt[i] = uint32(e)
		} else {
			d.err = errBadEncoding
		}
	}
	x.text = d.str()
	if d.err != nil || d.off != len(s) || len(x.text) > 1<<32-1 {
		return nil, errBadEncoding
	}
	x.starts = make([]uint32, 0, len(x.lineEnt))
	for off := 0; off < len(x.text); {
		x.starts = append(x.starts, uint32(off))
		i := strings.IndexByte(x.text[off:], '\n')
		if i < 0 {
			return nil, errBadEncoding
		}
		off += i + 1
	}
	if len(x.starts) != len(x.lineEnt) {
		return nil, errBadEncoding
	}
	return x, nil
}

// decoder reads uvarints and length-prefixed strings from s. Its methods
// return zero values once err is set.
type decoder struct {
	s   string
	off int
	err error
}

func (d *decoder) uint() uint64 {
	if d.err != nil {
		return 0
	}
	var v uint64
	for shift := 0; shift < 64; shift += 7 {
		if d.off >= len(d.s) {
			break
		}
		c := d.s[d.off]
		d.off++
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v
		}
	}
	d.err = errBadEncoding
	return 0
}

func (d *decoder) str() string {
	n := d.uint()
	if d.err != nil || n > uint64(len(d.s)-d.off) {
		d.err = errBadEncoding
		return ""
	}
	s := d.s[d.off : d.off+int(n)]
	d.off += int(n)
	return s
}

func (d *decoder) time() time.Time { return time.Unix(0, int64(d.uint())) }

// count reads a length that cannot exceed the bytes left.
func (d *decoder) count() int {
	n := d.uint()
	if n > uint64(len(d.s)-d.off) {
		d.err = errBadEncoding
		return 0
	}
	return int(n)
}

func appendStr(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func appendTime(b []byte, t time.Time) []byte { return binary.AppendUvarint(b, uint64(t.UnixNano())) }
