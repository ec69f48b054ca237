package embedded

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/edgar13f/edgar13f/internal/jsonscan"
)

// scanRecord reads from a filing.json what a query needs: the accession,
// the filing's chunk count and length, and each chunk's Item, length and
// norm, and with full its ID, title, index, tokens and text place too. It
// reads the JSON that record.MarshalJSON writes without encoding/json's
// reflection, which took half the CPU of a query that opened thousands of
// filings, and a millisecond for each filing an answer came from. ok is
// false when b holds anything it does not read as encoding/json would (a
// key in another case, a number it would refuse, JSON it cannot follow):
// the caller then reads the record with encoding/json. On any JSON that
// encoding/json reads, scanRecord reads the same or declines (see
// FuzzScanRecord).
func scanRecord(b []byte, full bool) (r scannedRecord, ok bool) {
	s := jsonscan.New("filing.json", b)
	err := s.Object(func(key []byte) error {
		switch k := string(key); {
		case k == "filing":
			return s.Object(func(key []byte) error {
				switch k := string(key); {
				case k == "accession":
					v, err := s.Str()
					r.accession = string(v)
					return err
				case k == "chunks":
					var err error
					r.chunks, err = scanInt(&s)
					return err
				case strings.EqualFold(k, "accession") || strings.EqualFold(k, "chunks"):
					return errDeclined
				}
				return s.Skip()
			})
		case k == "length":
			var err error
			r.length, err = scanInt(&s)
			return err
		case k == "chunks":
			// MarshalJSON writes the filing, and its count, first.
			r.entries = make([]chunkEntry, 0, min(max(r.chunks, 0), 1<<16))
			return s.Array(func() error {
				e, err := scanChunk(&s, full)
				r.entries = append(r.entries, e)
				return err
			})
		case strings.EqualFold(k, "filing") || strings.EqualFold(k, "length") || strings.EqualFold(k, "chunks"):
			return errDeclined
		}
		return s.Skip()
	})
	return r, err == nil && s.End()
}

// errDeclined stops a scan that encoding/json might read otherwise.
var errDeclined = errors.New("declined")

// scanChunk reads a chunk's entry, which must have its Item and length;
// with full false it skips the ID, title, index, tokens and text place.
func scanChunk(s *jsonscan.Scanner, full bool) (e chunkEntry, err error) {
	var item, dl bool
	num := func(v *int) error {
		n, err := scanInt(s)
		*v = int(n)
		return err
	}
	str := func(v *string) error {
		b, err := s.Str()
		*v = string(b)
		return err
	}
	if s.Null() {
		return e, errDeclined
	}
	err = s.Object(func(key []byte) error {
		switch string(key) {
		case "item":
			item = true
			return str(&e.Item)
		case "len":
			dl = true
			return num(&e.Len)
		case "norm":
			raw, err := s.Scalar()
			if err != nil || !jsonscan.IsNumber(raw) {
				return errDeclined
			}
			e.Norm, err = strconv.ParseFloat(string(raw), 64)
			return err
		case "id", "title", "index", "tokens", "size", "off":
			if !full {
				return s.Skip()
			}
			switch string(key) {
			case "id":
				return str(&e.ID)
			case "title":
				return str(&e.Title)
			case "index":
				return num(&e.Index)
			case "tokens":
				return num(&e.Tokens)
			case "size":
				return num(&e.Size)
			}
			var err error
			e.Off, err = scanInt(s)
			return err
		}
		// encoding/json matches keys without regard to case.
		for _, k := range chunkKeys {
			if strings.EqualFold(string(key), k) {
				return errDeclined
			}
		}
		return s.Skip()
	})
	if err == nil && (!item || !dl) {
		err = errDeclined
	}
	return e, err
}

// chunkKeys are the keys of a chunkEntry.
var chunkKeys = []string{"id", "item", "title", "index", "tokens", "len", "off", "size", "norm"}

// scanInt reads a number as encoding/json reads it into an int64: an
// integer, without a fraction or exponent, in range.
func scanInt(s *jsonscan.Scanner) (int64, error) {
	raw, err := s.Scalar()
	if err != nil || !jsonscan.IsNumber(raw) {
		return 0, errDeclined
	}
	neg := raw[0] == '-'
	if neg {
		raw = raw[1:]
	}
	var n uint64
	for _, c := range raw {
		if c < '0' || c > '9' || n > (math.MaxUint64-9)/10 {
			return 0, errDeclined
		}
		n = n*10 + uint64(c-'0')
	}
	switch {
	case neg && n <= 1<<63:
		return -int64(n-1) - 1, nil
	case !neg && n <= math.MaxInt64:
		return int64(n), nil
	}
	return 0, errDeclined
}

// A scannedRecord is what scanRecord reads.
type scannedRecord struct {
	accession string
	chunks    int64 // the filing's count
	length    int64
	entries   []chunkEntry
}
