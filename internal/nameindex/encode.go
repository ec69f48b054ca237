package nameindex

import (
	"encoding/binary"
	"errors"
	"strings"
	"time"

	"github.com/edgar13f/edgar13f/internal/ciklookup"
	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/varint"
)

// The encodings of an Index and of a parsed name file: a magic line, then
// uvarints and length-prefixed strings.
const (
	namesMagic = "edgar13f names v1\n"
	indexMagic = "edgar13f find index v2\n"
)

var errBadEncoding = errors.New("nameindex: bad encoding")

// EncodeNames encodes a parsed name file fetched at fetched.
func EncodeNames(fetched time.Time, entries []ciklookup.Entry) []byte {
	b := []byte(namesMagic)
	b = appendTime(b, fetched)
	b = binary.AppendUvarint(b, uint64(len(entries)))
	for _, e := range entries {
		b = binary.AppendUvarint(b, e.CIK)
		b = varint.AppendString(b, e.Name)
	}
	return b
}

// DecodeNames decodes what EncodeNames wrote.
func DecodeNames(b []byte) (fetched time.Time, entries []ciklookup.Entry, err error) {
	s, ok := strings.CutPrefix(string(b), namesMagic)
	if !ok {
		return time.Time{}, nil, errBadEncoding
	}
	d := varint.NewReader(s)
	fetched = readTime(&d)
	entries = make([]ciklookup.Entry, d.Count())
	for i := range entries {
		entries[i] = ciklookup.Entry{CIK: d.Uvarint(), Name: d.String()}
	}
	if d.Failed() || d.Len() != 0 {
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
		b = binary.AppendUvarint(b, encodeFirst(e))
		b = varint.AppendString(b, e.name)
	}
	b = binary.AppendUvarint(b, uint64(len(x.lineEnt)))
	for _, e := range x.lineEnt {
		b = binary.AppendUvarint(b, uint64(e))
	}
	return varint.AppendString(b, x.text)
}

// Decode decodes what Encode wrote; damaged or truncated input is an error.
func Decode(b []byte) (*Index, error) {
	s, ok := strings.CutPrefix(string(b), indexMagic)
	if !ok {
		return nil, errBadEncoding
	}
	d := varint.NewReader(s)
	x := &Index{NamesFetched: readTime(&d)}
	x.Last = Quarter{int(d.Uvarint()), int(d.Uvarint())}
	x.Pending = make([]Pending, d.Count())
	for i := range x.Pending {
		x.Pending[i] = Pending{Quarter: Quarter{int(d.Uvarint()), int(d.Uvarint())}, Fetched: readTime(&d)}
	}
	x.ents = make([]entity, d.Count())
	for i := range x.ents {
		x.ents[i] = entity{cik: d.Uvarint()}
		if !decodeFirst(d.Uvarint(), &x.ents[i]) {
			d.Fail()
		}
		x.ents[i].name = d.String()
	}
	x.lineEnt = make([]uint32, d.Count())
	for i := range x.lineEnt {
		if e := d.Uvarint(); e < uint64(len(x.ents)) {
			x.lineEnt[i] = uint32(e)
		} else {
			d.Fail()
		}
	}
	x.text = d.String()
	if d.Failed() || d.Len() != 0 || len(x.text) > 1<<32-1 {
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

// readTime reads a time as appendTime writes it.
func readTime(d *varint.Reader[string]) time.Time { return time.Unix(0, int64(d.Uvarint())) }

func appendTime(b []byte, t time.Time) []byte { return binary.AppendUvarint(b, uint64(t.UnixNano())) }

// encodeFirst writes an entity's first 13F day: 0 when it has none, else
// one more than its distance from civil.MinDay.
func encodeFirst(e entity) uint64 {
	if !e.has13F {
		return 0
	}
	return uint64(e.first-civil.MinDay) + 1
}

// decodeFirst reads what encodeFirst wrote into e; false when v is no day.
func decodeFirst(v uint64, e *entity) bool {
	if v == 0 {
		return true
	}
	if v-1 > uint64(civil.MaxDay-civil.MinDay) {
		return false
	}
	e.first, e.has13F = civil.MinDay+civil.Day(v-1), true
	return true
}
