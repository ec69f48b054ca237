package companyfacts

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/edgarid"
	"github.com/edgar13f/edgar13f/internal/varint"
)

// Annual durations span this many days (end minus start), inclusive.
const (
	MinAnnualDays = 330
	MaxAnnualDays = 400
)

// AnnualForm reports whether form is in the 10-K family whose facts count
// as annual values: 10-K, 10-KT, 20-F, 40-F and their amendments (/A).
// Facts from any other form (10-Q, 8-K, S-1, ...) never do.
func AnnualForm(form string) bool {
	switch strings.TrimSuffix(form, "/A") {
	case "10-K", "10-KT", "20-F", "40-F":
		return true
	}
	return false
}

// Decode reads a companyfacts JSON document (minified as EDGAR serves it,
// or indented) in one pass. Members other than cik, entityName, facts and,
// in a fact, start, end, val, accn, form and filed are skipped, whatever
// they hold. A document that is not valid JSON, lacks cik, or has a fact
// without a valid filed date and form (or, for a kept fact, end, accn and a
// numeric val) is an error.
func Decode(data []byte) (*Facts, error) {
	d := decoder{s: scanner{b: data}, filingIx: map[filingKey]int{}, tagIx: map[string]*tagBuild{}}
	if err := d.document(); err != nil {
		return nil, err
	}
	return Load(d.encode())
}

// decoder holds the state of one Decode.
type decoder struct {
	s          scanner
	cik        string
	entityName string
	filings    []filingBuild
	filingIx   map[filingKey]int
	tags       []*tagBuild
	tagIx      map[string]*tagBuild // key taxonomy + "\x00" + name
}

type filingKey struct {
	accn, form string
	filed      civil.Day
}

type filingBuild struct {
	filingKey
	maxDur, maxInst civil.Day
}

type tagBuild struct {
	taxonomy, name string
	firstFiled     civil.Day
	units          []*unitBuild
}

type unitBuild struct {
	name       string
	firstFiled civil.Day
	n          int
	block      []byte
}

func (d *decoder) fail(format string, args ...any) error {
	return fmt.Errorf("companyfacts: offset %d: %s", d.s.i, fmt.Sprintf(format, args...))
}

func (d *decoder) document() error {
	s := &d.s
	haveCIK := false
	err := s.object(func(key []byte) error {
		switch string(key) {
		case "cik":
			raw, err := s.scalar()
			if err != nil {
				return err
			}
			cik, ok := parseCIK(raw)
			if !ok {
				return d.fail("cik %s is not 1 to 10 digits", raw)
			}
			d.cik, haveCIK = cik, true
			return nil
		case "entityName":
			v, null, err := s.stringOrNull()
			if err != nil {
				return err
			}
			if !null {
				d.entityName = strings.ToValidUTF8(v, "\uFFFD")
			}
			return nil
		case "facts":
			return s.object(func(taxonomy []byte) error {
				tax := string(taxonomy)
				return s.object(func(name []byte) error { return d.tag(tax, string(name)) })
			})
		}
		return s.skip()
	})
	if err != nil {
		return err
	}
	s.ws()
	if s.i != len(s.b) {
		return d.fail("data after the document")
	}
	if !haveCIK {
		return errors.New("companyfacts: no cik")
	}
	return nil
}

// tag reads one tag's object: label, description and units.
func (d *decoder) tag(taxonomy, name string) error {
	s := &d.s
	return s.object(func(key []byte) error {
		if string(key) != "units" {
			return s.skip()
		}
		return s.object(func(unitName []byte) error {
			t := d.tagIx[taxonomy+"\x00"+name]
			if t == nil {
				t = &tagBuild{taxonomy: taxonomy, name: name}
				d.tagIx[taxonomy+"\x00"+name] = t
				d.tags = append(d.tags, t)
			}
			var u *unitBuild
			for _, x := range t.units {
				if x.name == string(unitName) {
					u = x
				}
			}
			if u == nil {
				u = &unitBuild{name: string(unitName)}
				t.units = append(t.units, u)
			}
			return s.array(func() error { return d.fact(t, u, taxonomy == "dei") })
		})
	})
}

// fact reads one fact object and keeps it if it is an annual value.
func (d *decoder) fact(t *tagBuild, u *unitBuild, dei bool) error {
	s := &d.s
	var start, end, val, accn, form, filed []byte
	var haveStart, haveEnd, haveVal, haveAccn, haveForm, haveFiled bool
	err := s.object(func(key []byte) error {
		var err error
		switch string(key) {
		case "start":
			start, err = s.str()
			haveStart = true
		case "end":
			end, err = s.str()
			haveEnd = true
		case "val":
			val, err = s.scalar()
			haveVal = true
		case "accn":
			accn, err = s.str()
			haveAccn = true
		case "form":
			form, err = s.str()
			haveForm = true
		case "filed":
			filed, err = s.str()
			haveFiled = true
		default:
			err = s.skip()
		}
		return err
	})
	if err != nil {
		return err
	}
	if !haveFiled || !haveForm {
		return d.fail("fact of %s:%s without filed or form", t.taxonomy, t.name)
	}
	fd, ok := civil.ParseISO(filed)
	if !ok || fd <= 0 {
		return d.fail("fact of %s:%s filed %q", t.taxonomy, t.name, filed)
	}
	if t.firstFiled == 0 || fd < t.firstFiled {
		t.firstFiled = fd
	}
	if u.firstFiled == 0 || fd < u.firstFiled {
		u.firstFiled = fd
	}
	if !AnnualForm(string(form)) {
		return nil
	}
	if !haveEnd || !haveAccn || !haveVal {
		return d.fail("fact of %s:%s in %s without end, accn or val", t.taxonomy, t.name, form)
	}
	if !isNumber(val) {
		return d.fail("fact of %s:%s: val %s is not a number", t.taxonomy, t.name, val)
	}
	ed, ok := civil.ParseISO(end)
	if !ok {
		return d.fail("fact of %s:%s: end %q", t.taxonomy, t.name, end)
	}
	var sd civil.Day
	if haveStart {
		if sd, ok = civil.ParseISO(start); !ok {
			return d.fail("fact of %s:%s: start %q", t.taxonomy, t.name, start)
		}
		if n := ed - sd; n < MinAnnualDays || n > MaxAnnualDays {
			return nil // not an annual duration
		}
	}
	if ed <= 0 || haveStart && sd <= 0 {
		return nil // before 1970: not a fact of the XBRL era
	}
	fi := d.filing(filingKey{string(accn), string(form), fd})
	fb := &d.filings[fi]
	switch {
	case haveStart:
		fb.maxDur = max(fb.maxDur, ed)
	case !dei:
		fb.maxInst = max(fb.maxInst, ed)
	}
	b := binary.AppendUvarint(u.block, uint64(fi))
	if haveStart {
		b = binary.AppendUvarint(b, uint64(sd)+1)
	} else {
		b = append(b, 0)
	}
	b = binary.AppendUvarint(b, uint64(ed))
	b = binary.AppendUvarint(b, uint64(len(val)))
	u.block = append(b, val...)
	u.n++
	return nil
}

func (d *decoder) filing(k filingKey) int {
	if i, ok := d.filingIx[k]; ok {
		return i
	}
	d.filings = append(d.filings, filingBuild{filingKey: k})
	d.filingIx[k] = len(d.filings) - 1
	return len(d.filings) - 1
}

// encode writes the encoding documented beside magic.
func (d *decoder) encode() []byte {
	size := 64 + len(d.entityName)
	for _, t := range d.tags {
		for _, u := range t.units {
			size += len(u.block) + 16
		}
	}
	b := make([]byte, 0, size)
	b = append(b, magic...)
	b = append(b, version)
	b = varint.AppendString(b, d.cik)
	b = varint.AppendString(b, d.entityName)
	b = binary.AppendUvarint(b, uint64(len(d.filings)))
	for _, f := range d.filings {
		fy := f.maxDur
		if fy == 0 {
			fy = f.maxInst
		}
		b = varint.AppendString(b, f.accn)
		b = varint.AppendString(b, f.form)
		b = binary.AppendUvarint(b, uint64(f.filed))
		b = binary.AppendUvarint(b, uint64(fy))
	}
	slices.SortFunc(d.tags, func(a, b *tagBuild) int {
		if c := strings.Compare(a.taxonomy, b.taxonomy); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
	b = binary.AppendUvarint(b, uint64(len(d.tags)))
	for _, t := range d.tags {
		b = varint.AppendString(b, t.taxonomy)
		b = varint.AppendString(b, t.name)
		b = binary.AppendUvarint(b, uint64(t.firstFiled))
		slices.SortFunc(t.units, func(a, b *unitBuild) int { return strings.Compare(a.name, b.name) })
		b = binary.AppendUvarint(b, uint64(len(t.units)))
		for _, u := range t.units {
			b = varint.AppendString(b, u.name)
			b = binary.AppendUvarint(b, uint64(u.firstFiled))
			b = binary.AppendUvarint(b, uint64(u.n))
			b = binary.AppendUvarint(b, uint64(len(u.block)))
			b = append(b, u.block...)
		}
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

// parseCIK reads cik given as a JSON number or a string of digits and
// returns its ten-digit form.
func parseCIK(raw []byte) (string, bool) {
	if len(raw) >= 2 && raw[0] == '"' {
		u, err := unquote(raw)
		if err != nil {
			return "", false
		}
		return edgarid.CIK10(strings.TrimSpace(u))
	}
	return edgarid.CIK10(raw)
}

// isNumber reports whether b is a JSON number.
func isNumber(b []byte) bool {
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(b)
}

// scanner reads JSON from b. Its methods skip leading white space and
// return the first syntax error.
type scanner struct {
	b []byte
	i int
}

const maxDepth = 1000

func (s *scanner) errorf(format string, args ...any) error {
	return fmt.Errorf("companyfacts: offset %d: %s", s.i, fmt.Sprintf(format, args...))
}

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// null skips white space and reports whether a null follows, reading it.
func (s *scanner) null() bool {
	s.ws()
	if bytes.HasPrefix(s.b[s.i:], []byte("null")) {
		s.i += 4
		return true
	}
	return false
}

// object reads an object (null reads as an empty one), calling member for each key with the scanner
// positioned at the value; member must consume the value. A key with
// escapes is unescaped first.
func (s *scanner) object(member func(key []byte) error) error {
	if s.null() {
		return nil
	}
	if s.i >= len(s.b) || s.b[s.i] != '{' {
		return s.errorf("want an object")
	}
	s.i++
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		return nil
	}
	for {
		key, err := s.str()
		if err != nil {
			return err
		}
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] != ':' {
			return s.errorf("want ':'")
		}
		s.i++
		if err := member(key); err != nil {
			return err
		}
		s.ws()
		if s.i >= len(s.b) {
			return s.errorf("unterminated object")
		}
		switch s.b[s.i] {
		case ',':
			s.i++
		case '}':
			s.i++
			return nil
		default:
			return s.errorf("want ',' or '}'")
		}
	}
}

// array reads an array (null reads as an empty one), calling elem for each element.
func (s *scanner) array(elem func() error) error {
	if s.null() {
		return nil
	}
	if s.i >= len(s.b) || s.b[s.i] != '[' {
		return s.errorf("want an array")
	}
	s.i++
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == ']' {
		s.i++
		return nil
	}
	for {
		if err := elem(); err != nil {
			return err
		}
		s.ws()
		if s.i >= len(s.b) {
			return s.errorf("unterminated array")
		}
		switch s.b[s.i] {
		case ',':
			s.i++
		case ']':
			s.i++
			return nil
		default:
			return s.errorf("want ',' or ']'")
		}
	}
}

// str reads a string and returns its contents, unescaped. Without escapes
// the result aliases the input.
func (s *scanner) str() ([]byte, error) {
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return nil, s.errorf("want a string")
	}
	start := s.i
	end, escaped, err := s.stringEnd()
	if err != nil {
		return nil, err
	}
	if !escaped {
		return validUTF8(s.b[start+1 : end-1]), nil
	}
	u, err := unquote(s.b[start:end])
	if err != nil {
		return nil, s.errorf("%v", err)
	}
	return validUTF8([]byte(u)), nil
}

// validUTF8 returns b with each byte that is not part of valid UTF-8
// replaced by U+FFFD, as encoding/json decodes strings. Valid input (all
// of SEC's) is returned as it is.
func validUTF8(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	out := make([]byte, 0, len(b)+8)
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		out = utf8.AppendRune(out, r)
		b = b[n:]
	}
	return out
}

// stringOrNull reads a string or null.
func (s *scanner) stringOrNull() (v string, null bool, err error) {
	if s.null() {
		return "", true, nil
	}
	b, err := s.str()
	return string(b), false, err
}

// stringEnd moves past the string starting at s.i (a '"') and returns the
// offset after its closing quote and whether it holds escapes. Control
// characters are rejected, as JSON requires.
func (s *scanner) stringEnd() (end int, escaped bool, err error) {
	i := s.i + 1
	for {
		// Skip eight ordinary bytes at a time.
		for i+8 <= len(s.b) && !special8(binary.LittleEndian.Uint64(s.b[i:])) {
			i += 8
		}
		if i >= len(s.b) {
			break
		}
		c := s.b[i]
		switch {
		case c == '"':
			s.i = i + 1
			return s.i, escaped, nil
		case c == '\\':
			escaped = true
			if i+1 >= len(s.b) {
				return 0, false, s.errorf("unterminated string")
			}
			switch s.b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(s.b) || !isHex4(s.b[i+2:i+6]) {
					return 0, false, s.errorf("bad \\u escape")
				}
				i += 6
			default:
				return 0, false, s.errorf("bad escape")
			}
		case c < 0x20:
			return 0, false, s.errorf("control character in string")
		default:
			i++
		}
	}
	return 0, false, s.errorf("unterminated string")
}

// special8 reports whether any of the eight bytes in x is '"', '\\' or a
// control character (below 0x20): the bytes a string scan must look at.
func special8(x uint64) bool {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	q := x ^ (lo * '"')
	bs := x ^ (lo * '\\')
	return ((q-lo)&^q|(bs-lo)&^bs|(x-lo*0x20)&^x)&hi != 0
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// scalar reads a number, string, true, false or null and returns its raw
// bytes (a string with its quotes).
func (s *scanner) scalar() ([]byte, error) {
	s.ws()
	if s.i >= len(s.b) {
		return nil, s.errorf("want a value")
	}
	start := s.i
	switch c := s.b[s.i]; {
	case c == '"':
		end, _, err := s.stringEnd()
		if err != nil {
			return nil, err
		}
		return s.b[start:end], nil
	case c == '-' || '0' <= c && c <= '9':
		for s.i < len(s.b) && numberByte(s.b[s.i]) {
			s.i++
		}
		if !isNumber(s.b[start:s.i]) {
			return nil, s.errorf("bad number %q", s.b[start:s.i])
		}
		return s.b[start:s.i], nil
	default:
		for _, lit := range []string{"true", "false", "null"} {
			if bytes.HasPrefix(s.b[s.i:], []byte(lit)) {
				s.i += len(lit)
				return s.b[start:s.i], nil
			}
		}
	}
	return nil, s.errorf("want a value")
}

// numberByte reports whether c can occur in a JSON number.
func numberByte(c byte) bool {
	return '0' <= c && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// skip reads any value.
func (s *scanner) skip() error { return s.skipDepth(0) }

func (s *scanner) skipDepth(depth int) error {
	if depth > maxDepth {
		return s.errorf("nested too deeply")
	}
	s.ws()
	if s.i >= len(s.b) {
		return s.errorf("want a value")
	}
	switch s.b[s.i] {
	case '{':
		return s.object(func([]byte) error { return s.skipDepth(depth + 1) })
	case '[':
		return s.array(func() error { return s.skipDepth(depth + 1) })
	}
	_, err := s.scalar()
	return err
}

// unquote decodes a JSON string literal (with its quotes) that stringEnd
// accepted. Unpaired surrogates become U+FFFD, as in encoding/json.
func unquote(q []byte) (string, error) {
	if len(q) < 2 || q[0] != '"' || q[len(q)-1] != '"' {
		return "", errors.New("not a string")
	}
	q = q[1 : len(q)-1]
	var b strings.Builder
	b.Grow(len(q))
	for i := 0; i < len(q); {
		c := q[i]
		if c != '\\' {
			b.WriteByte(c)
			i++
			continue
		}
		if i+1 >= len(q) {
			return "", errors.New("bad escape")
		}
		switch q[i+1] {
		case '"', '\\', '/':
			b.WriteByte(q[i+1])
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, ok := hex4(q[i+2:])
			if !ok {
				return "", errors.New("bad \\u escape")
			}
			i += 6
			if utf16.IsSurrogate(r) {
				if i+6 <= len(q) && q[i] == '\\' && q[i+1] == 'u' {
					r2, _ := hex4(q[i+2:])
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						b.WriteRune(d)
						i += 6
						continue
					}
				}
				r = utf8.RuneError
			}
			b.WriteRune(r)
			continue
		default:
			return "", errors.New("bad escape")
		}
		i += 2
	}
	return b.String(), nil
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	v, err := strconv.ParseUint(string(b[:4]), 16, 32)
	return rune(v), err == nil
}
