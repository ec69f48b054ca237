// Package companyfacts decodes EDGAR's XBRL company facts,
// https://data.sec.gov/api/xbrl/companyfacts/CIK##########.json, and answers
// "what were this company's annual values of a concept, as they could have
// been known on a given date".
//
// A companyfacts document lists, for every taxonomy (us-gaap, ifrs-full,
// dei, ...), tag and unit, every fact of every filing: start (durations
// only), end, val, accn, fy, fp, form, filed and sometimes frame. A restated
// value does not replace the original: both stay, each with the accession
// and filing date of the filing that reported it. That is what makes a point
// in time answer exact.
//
// [Decode] reads the JSON in one pass without building a tree and keeps only
// what annual answers can use: facts from annual reports (the 10-K family:
// 10-K, 10-KT, 20-F, 40-F and their amendments) that are instants or span
// 330 to 400 days. Of every other fact it keeps only the date its tag and
// unit were first filed, so that a tag is known on a date exactly when a
// filing on or before that date used it. The result, a [Facts], holds its
// data in one compact byte string: [Facts.Bytes] returns it for a cache and
// [Load] restores it without decoding JSON again.
//
// [Facts.Annual] answers a query. Its rules are documented there. The
// fields fy, fp and frame are never read: fy is the fiscal year of the
// filing, not of the fact (comparatives carry later years, and some filers
// set it a year off), fp is not reliable on its own, and frame marks the
// latest filed fact of a period, which is not point in time.
package companyfacts

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"strings"

	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/varint"
)

// Facts is a decoded companyfacts document reduced to what annual answers
// use. It is immutable and safe for concurrent use by multiple goroutines.
type Facts struct {
	CIK        string // 10 digits, zero-padded
	EntityName string // as EDGAR gives it today (not point in time)

	data    string // the encoding; every string below is a part of it
	filings []filing
	tags    []tag // sorted by taxonomy, then name
}

// filing is one annual report of the document: its accession, form and
// filing date, and the end of the fiscal year it reports.
type filing struct {
	accn  string
	form  string
	filed civil.Day
	fyEnd civil.Day // latest end of its annual durations (else of its non-dei instants); 0 when unknown
}

// tag is one taxonomy:name of the document.
type tag struct {
	taxonomy, name string
	firstFiled     civil.Day // earliest filing date of any of its facts, any form
	units          []unit
}

// unit is one unit of a tag and its kept facts, encoded.
type unit struct {
	name       string
	firstFiled civil.Day // earliest filing date of any fact of this unit, any form
	n          int
	block      string
}

// fact is one kept fact.
type fact struct {
	filing int
	start  civil.Day // 0 for an instant
	end    civil.Day
	val    string
}

// The encoding returned by Facts.Bytes, version 1. Strings are a uvarint
// length and the bytes; days are uvarints (days since 1970-01-01).
//
//	magic "edgar13f companyfacts\n", version byte 1
//	string CIK, string entity name
//	uvarint filing count; per filing: string accession, string form, day
//	    filed, day fiscal year end (0 = unknown)
//	uvarint tag count; per tag (sorted by taxonomy, name): string taxonomy,
//	    string name, day first filed, uvarint unit count; per unit (sorted):
//	    string unit, day first filed, uvarint fact count, uvarint block
//	    length, block: per fact uvarint filing index, day start + 1 (0 for
//	    an instant), day end, string value (the JSON number as served)
//	CRC-32C (Castagnoli) of everything before it, 4 bytes little-endian
const (
	magic   = "edgar13f companyfacts\n"
	version = 1
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// errCorrupt reports an encoding that is not one Bytes returned.
var errCorrupt = errors.New("companyfacts: corrupt encoding")

// Bytes returns the compact encoding of f, for a cache. [Load] reads it
// back.
func (f *Facts) Bytes() []byte { return []byte(f.data) }

// Load decodes an encoding returned by [Facts.Bytes]. A truncated or
// damaged encoding is an error, never a panic. Load copies data once and
// reads only the directory; facts are decoded when a query needs them, and
// every string of the result shares the copy.
func Load(data []byte) (*Facts, error) {
	if len(data) < len(magic)+1+4 || string(data[:len(magic)]) != magic {
		return nil, errCorrupt
	}
	if data[len(magic)] != version {
		return nil, fmt.Errorf("companyfacts: encoding version %d, want %d", data[len(magic)], version)
	}
	if crc32.Checksum(data[:len(data)-4], castagnoli) != binary.LittleEndian.Uint32(data[len(data)-4:]) {
		return nil, errCorrupt
	}
	f := &Facts{data: string(data)}
	r := varint.NewReader(f.data[len(magic)+1 : len(data)-4])
	f.CIK = r.String()
	f.EntityName = r.String()
	nf := readCount(&r, 4)
	f.filings = make([]filing, 0, nf)
	for range nf {
		f.filings = append(f.filings, filing{accn: r.String(), form: r.String(), filed: readDay(&r), fyEnd: readDay(&r)})
	}
	nt := readCount(&r, 4)
	f.tags = make([]tag, 0, nt)
	units := make([]unit, 0, nt+nt/4) // every tag's units, in one array; most tags have one
	ends := make([]int, 0, nt)
	for range nt {
		f.tags = append(f.tags, tag{taxonomy: r.String(), name: r.String(), firstFiled: readDay(&r)})
		nu := readCount(&r, 4)
		for range nu {
			u := unit{name: r.String(), firstFiled: readDay(&r), n: readCount(&r, 4)}
			u.block = r.String()
			units = append(units, u)
		}
		ends = append(ends, len(units))
	}
	if r.Failed() || r.Len() != 0 {
		return nil, errCorrupt
	}
	start := 0
	for i, end := range ends {
		f.tags[i].units = units[start:end:end]
		start = end
	}
	return f, nil
}

// facts decodes the kept facts of u. The checksum was verified by Load, so
// a decoding error means a bug; it is reported, not ignored.
func (f *Facts) facts(u *unit) ([]fact, error) {
	r := varint.NewReader(u.block)
	out := make([]fact, 0, u.n)
	for range u.n {
		x := fact{filing: int(r.Uvarint()), start: readDay(&r), end: readDay(&r), val: r.String()}
		if x.start > 0 {
			x.start--
		}
		if x.filing >= len(f.filings) {
			return nil, errCorrupt
		}
		out = append(out, x)
	}
	if r.Failed() || r.Len() != 0 {
		return nil, errCorrupt
	}
	return out, nil
}

// lookup returns the tag taxonomy:name, or nil.
func (f *Facts) lookup(taxonomy, name string) *tag {
	lo, hi := 0, len(f.tags)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		t := &f.tags[m]
		if c := strings.Compare(t.taxonomy, taxonomy); c < 0 || c == 0 && t.name < name {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(f.tags) && f.tags[lo].taxonomy == taxonomy && f.tags[lo].name == name {
		return &f.tags[lo]
	}
	return nil
}

// readDay reads a day written as a uvarint.
func readDay(r *varint.Reader[string]) civil.Day {
	v := r.Uvarint()
	if v > 1<<30 {
		r.Fail()
		return 0
	}
	return civil.Day(v)
}

// readCount reads a count of items that take at least min bytes each.
func readCount(r *varint.Reader[string], min int) int {
	v := r.Uvarint()
	if v > uint64(r.Len())/uint64(min) {
		r.Fail()
		return 0
	}
	return int(v)
}
