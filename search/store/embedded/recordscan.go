package embedded

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
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
	p := &jsonScan{b: b}
	ok = p.object(func(key string) bool {
		switch {
		case key == "filing":
			return p.object(func(key string) bool {
				switch {
				case key == "accession":
					s, ok := p.str()
					r.accession = s
					return ok
				case key == "chunks":
					n, ok := p.int()
					r.chunks = n
					return ok
				case strings.EqualFold(key, "accession") || strings.EqualFold(key, "chunks"):
					return false
				}
				return p.skip()
			})
		case key == "length":
			n, ok := p.int()
			r.length = n
			return ok
		case key == "chunks":
			r.entries = r.entries[:0]
			if p.space(); p.word("null") { // a record of no chunks
				return true
			}
			return p.array(func() bool {
				e, ok := p.chunk(full)
				r.entries = append(r.entries, e)
				return ok
			})
		case strings.EqualFold(key, "filing") || strings.EqualFold(key, "length") || strings.EqualFold(key, "chunks"):
			return false
		}
		return p.skip()
	})
	p.space()
	return r, ok && p.i == len(b)
}

// chunk reads a chunk's entry, which must have its Item and length; with
// full false it skips the ID, title, index, tokens and text place.
func (p *jsonScan) chunk(full bool) (e chunkEntry, ok bool) {
	var item, dl bool
	num := func(v *int) bool {
		n, ok := p.int()
		*v = int(n)
		return ok
	}
	ok = p.object(func(key string) bool {
		switch key {
		case "item":
			e.Item, item = p.str()
			return item
		case "len":
			dl = num(&e.Len)
			return dl
		case "norm":
			var ok bool
			e.Norm, ok = p.float()
			return ok
		}
		if full {
			switch key {
			case "id":
				var ok bool
				e.ID, ok = p.str()
				return ok
			case "title":
				var ok bool
				e.Title, ok = p.str()
				return ok
			case "index":
				return num(&e.Index)
			case "tokens":
				return num(&e.Tokens)
			case "size":
				return num(&e.Size)
			case "off":
				var ok bool
				e.Off, ok = p.int()
				return ok
			}
		}
		for _, k := range chunkKeys {
			if strings.EqualFold(key, k) && key != k {
				return false
			}
		}
		return p.skip()
	})
	return e, ok && item && dl
}

// chunkKeys are the keys of a chunkEntry.
var chunkKeys = []string{"id", "item", "title", "index", "tokens", "len", "off", "size", "norm"}

// A scannedRecord is what scanRecord reads.
type scannedRecord struct {
	accession string
	chunks    int64 // the filing's count
	length    int64
	entries   []chunkEntry
}

// jsonScan walks JSON text; each method reads one value at i, after any
// white space, and reports whether it was well formed.
type jsonScan struct {
	b []byte
	i int
}

func (p *jsonScan) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// next consumes c, the next byte after white space.
func (p *jsonScan) next(c byte) bool {
	p.space()
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// object reads an object, calling member for each key with i at its
// value. The key is a view of b when it has no escapes: member must not
// keep it.
func (p *jsonScan) object(member func(key string) bool) bool {
	if !p.next('{') {
		return false
	}
	if p.next('}') {
		return true
	}
	for {
		raw, plain, ok := p.quoted()
		if !ok {
			return false
		}
		var key string
		if plain {
			key = unsafe.String(unsafe.SliceData(raw), len(raw))
		} else if key, ok = unquote(raw); !ok {
			return false
		}
		if !p.next(':') || !member(key) {
			return false
		}
		if p.next(',') {
			continue
		}
		return p.next('}')
	}
}

// array reads an array, calling elem with i at each element.
func (p *jsonScan) array(elem func() bool) bool {
	if !p.next('[') {
		return false
	}
	if p.next(']') {
		return true
	}
	for {
		if !elem() {
			return false
		}
		if p.next(',') {
			continue
		}
		return p.next(']')
	}
}

// str reads a string.
func (p *jsonScan) str() (string, bool) {
	raw, plain, ok := p.quoted()
	switch {
	case !ok:
		return "", false
	case plain:
		return string(raw), true
	}
	return unquote(raw)
}

// quoted reads a string and returns its text between the quotes; plain
// is true when that is the string (no escapes, valid UTF-8), else unquote
// decodes it.
func (p *jsonScan) quoted() (raw []byte, plain, ok bool) {
	if !p.next('"') {
		return nil, false, false
	}
	start, plain := p.i, true
	for ; p.i < len(p.b); p.i++ {
		switch c := p.b[p.i]; {
		case c == '"':
			raw = p.b[start:p.i]
			p.i++
			if plain {
				for _, c := range raw {
					if c >= utf8.RuneSelf {
						plain = utf8.Valid(raw)
						break
					}
				}
			}
			return raw, plain, true
		case c == '\\':
			plain = false
			p.i++ // the escaped byte
		case c < 0x20:
			return nil, false, false
		}
	}
	return nil, false, false
}

// unquote decodes the text of a string with escapes as encoding/json does.
func unquote(raw []byte) (string, bool) {
	q := make([]byte, 0, len(raw)+2)
	q = append(append(append(q, '"'), raw...), '"')
	var s string
	if err := json.Unmarshal(q, &s); err != nil {
		return "", false
	}
	return s, true
}

// number returns the text of a number.
func (p *jsonScan) number() ([]byte, bool) {
	p.space()
	start := p.i
	for p.i < len(p.b) {
		c := p.b[p.i]
		if (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
			p.i++
			continue
		}
		break
	}
	return p.b[start:p.i], p.i > start && validNumber(p.b[start:p.i])
}

// validNumber reports whether s is a number as JSON writes them.
func validNumber(s []byte) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch n := digits(); {
	case n == 0:
		return false
	case n > 1 && s[i-n] == '0':
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// int reads a number as encoding/json reads it into an int64: an
// integer, without a fraction or exponent, in range.
func (p *jsonScan) int() (int64, bool) {
	s, ok := p.number()
	if !ok {
		return 0, false
	}
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		s = s[1:]
	}
	var n uint64
	for _, c := range s {
		if c < '0' || c > '9' || n > (math.MaxUint64-9)/10 {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	switch {
	case neg && n <= 1<<63:
		return -int64(n-1) - 1, true
	case !neg && n <= math.MaxInt64:
		return int64(n), true
	}
	return 0, false
}

// float reads a number as encoding/json reads it into a float64.
func (p *jsonScan) float() (float64, bool) {
	s, ok := p.number()
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(s), 64)
	return f, err == nil && !math.IsInf(f, 0)
}

// skip reads any value.
func (p *jsonScan) skip() bool {
	p.space()
	if p.i >= len(p.b) {
		return false
	}
	switch c := p.b[p.i]; {
	case c == '"':
		_, _, ok := p.quoted()
		return ok
	case c == '{':
		return p.object(func(string) bool { return p.skip() })
	case c == '[':
		return p.array(p.skip)
	case c == 't':
		return p.word("true")
	case c == 'f':
		return p.word("false")
	case c == 'n':
		return p.word("null")
	}
	_, ok := p.number()
	return ok
}

func (p *jsonScan) word(w string) bool {
	if strings.HasPrefix(string(p.b[p.i:min(len(p.b), p.i+len(w))]), w) {
		p.i += len(w)
		return true
	}
	return false
}
