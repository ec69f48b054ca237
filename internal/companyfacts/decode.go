package companyfacts

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"slices"
	"strings"

	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/edgarid"
	"github.com/edgar13f/edgar13f/internal/jsonscan"
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
	d := decoder{s: jsonscan.New("companyfacts", data), filingIx: map[filingKey]int{}, tagIx: map[string]*tagBuild{}}
	if err := d.document(); err != nil {
		return nil, err
	}
	return Load(d.encode())
}

// decoder holds the state of one Decode.
type decoder struct {
	s          jsonscan.Scanner
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
	return d.s.Errorf(format, args...)
}

func (d *decoder) document() error {
	s := &d.s
	haveCIK := false
	err := s.Object(func(key []byte) error {
		switch string(key) {
		case "cik":
			raw, err := s.Scalar()
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
			v, null, err := s.StringOrNull()
			if err != nil {
				return err
			}
			if !null {
				d.entityName = strings.ToValidUTF8(v, "\uFFFD")
			}
			return nil
		case "facts":
			return s.Object(func(taxonomy []byte) error {
				tax := string(taxonomy)
				return s.Object(func(name []byte) error { return d.tag(tax, string(name)) })
			})
		}
		return s.Skip()
	})
	if err != nil {
		return err
	}
	if !s.End() {
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
	return s.Object(func(key []byte) error {
		if string(key) != "units" {
			return s.Skip()
		}
		return s.Object(func(unitName []byte) error {
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
			return s.Array(func() error { return d.fact(t, u, taxonomy == "dei") })
		})
	})
}

// fact reads one fact object and keeps it if it is an annual value.
func (d *decoder) fact(t *tagBuild, u *unitBuild, dei bool) error {
	s := &d.s
	var start, end, val, accn, form, filed []byte
	var haveStart, haveEnd, haveVal, haveAccn, haveForm, haveFiled bool
	err := s.Object(func(key []byte) error {
		var err error
		switch string(key) {
		case "start":
			start, err = s.Str()
			haveStart = true
		case "end":
			end, err = s.Str()
			haveEnd = true
		case "val":
			val, err = s.Scalar()
			haveVal = true
		case "accn":
			accn, err = s.Str()
			haveAccn = true
		case "form":
			form, err = s.Str()
			haveForm = true
		case "filed":
			filed, err = s.Str()
			haveFiled = true
		default:
			err = s.Skip()
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
	if !jsonscan.IsNumber(val) {
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
		u, err := jsonscan.Unquote(raw)
		if err != nil {
			return "", false
		}
		return edgarid.CIK10(strings.TrimSpace(u))
	}
	return edgarid.CIK10(raw)
}
