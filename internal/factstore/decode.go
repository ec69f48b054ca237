package factstore

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/edgar13f/edgar13f/internal/civil"
)

// A companyfacts document, as EDGAR serves it:
//
//	{"cik": 320193, "entityName": "Apple Inc.", "facts": {"us-gaap": {
//	  "NetIncomeLoss": {"label": ..., "description": ...,
//	    "units": {"USD": [{"start": "2008-09-28", "end": "2009-09-26",
//	      "val": 5704000000, "accn": "0001193125-09-214859", "fy": 2009,
//	      "fp": "FY", "form": "10-K", "filed": "2009-10-27"}, ...]}}}}}
//
// decodeDoc walks it one token at a time (json.Decoder.Token) down to the
// arrays of facts, and decodes each fact as one value (json.Decoder.Decode):
// the document is never in memory whole, only one fact at a time.

// A docError is a fault of a document: where it is and what.
type docError struct {
	offset int64
	msg    string
}

func (e *docError) Error() string { return fmt.Sprintf("byte %d: %s", e.offset, e.msg) }

// docHandler receives what decodeDoc reads.
type docHandler struct {
	cik    func(cik int64) error
	entity func(name string)
	fact   func(f *Fact) error
}

// decodeDoc decodes the companyfacts document r. Every fact must have
// end, val (a number), accn, form and filed, and valid dates; start, fy
// and fp are optional; other members (label, description, frame, ...)
// are skipped. Facts dated before 1970-01-02 are not facts of the XBRL era
// and are counted in skipped, not kept.
func decodeDoc(r io.Reader, h docHandler) (skipped int64, err error) {
	d := json.NewDecoder(r)
	d.UseNumber()
	fail := func(format string, args ...any) error {
		return &docError{offset: d.InputOffset(), msg: fmt.Sprintf(format, args...)}
	}
	wrap := func(err error) error {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		var de *docError
		if errors.As(err, &de) {
			return err
		}
		return &docError{offset: d.InputOffset(), msg: err.Error()}
	}
	// object reads an object, calling member for each key.
	object := func(what string, member func(key string) error) error {
		t, err := d.Token()
		if err != nil {
			return wrap(err)
		}
		if t != json.Delim('{') {
			return fail("%s is not an object", what)
		}
		for d.More() {
			t, err := d.Token()
			if err != nil {
				return wrap(err)
			}
			key, _ := t.(string)
			if err := member(key); err != nil {
				return err
			}
		}
		if _, err := d.Token(); err != nil { // '}'
			return wrap(err)
		}
		return nil
	}
	skip := func() error {
		depth := 0
		for {
			t, err := d.Token()
			if err != nil {
				return wrap(err)
			}
			switch t {
			case json.Delim('{'), json.Delim('['):
				depth++
			case json.Delim('}'), json.Delim(']'):
				depth--
			}
			if depth == 0 {
				return nil
			}
		}
	}
	str := func(what string) (string, bool, error) { // a string, or null
		t, err := d.Token()
		if err != nil {
			return "", false, wrap(err)
		}
		switch v := t.(type) {
		case string:
			return v, true, nil
		case nil:
			return "", false, nil
		}
		return "", false, fail("%s is not a string", what)
	}
	var f Fact
	// rf receives one fact, decoded whole by the Decoder (a fact is the
	// one value read at once). A string member left at absent was absent
	// or null.
	var rf struct {
		Start string `json:"start"`
		End   string `json:"end"`
		Accn  string `json:"accn"`
		Form  string `json:"form"`
		Filed string `json:"filed"`
		FP    string `json:"fp"`
		Val   any    `json:"val"`
		FY    any    `json:"fy"`
	}
	const absent = "\x00"
	fact := func(taxonomy, tag, unit string) error {
		f = Fact{Taxonomy: taxonomy, Tag: tag, Unit: unit}
		rf.Start, rf.End, rf.Accn, rf.Form, rf.Filed, rf.FP, rf.Val, rf.FY = absent, absent, absent, absent, absent, absent, nil, nil
		if err := d.Decode(&rf); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				return fail("fact of %s:%s (%s): %s is not a %s", taxonomy, tag, unit, te.Field, te.Type)
			}
			return wrap(err)
		}
		var missing []string
		for _, m := range []struct {
			ok   bool
			name string
		}{{rf.End != absent, "end"}, {rf.Val != nil, "val"}, {rf.Accn != absent, "accn"}, {rf.Form != absent, "form"}, {rf.Filed != absent, "filed"}} {
			if !m.ok {
				missing = append(missing, m.name)
			}
		}
		if len(missing) > 0 {
			return fail("fact of %s:%s (%s) without %s", taxonomy, tag, unit, strings.Join(missing, ", "))
		}
		n, ok := rf.Val.(json.Number)
		if !ok {
			return fail("fact of %s:%s (%s): val %v is not a number", taxonomy, tag, unit, rf.Val)
		}
		f.ValueText = string(n)
		var err error
		if f.Value, err = strconv.ParseFloat(string(n), 64); err != nil {
			return fail("fact of %s:%s (%s): val %s: %v", taxonomy, tag, unit, n, err)
		}
		switch v := rf.FY.(type) {
		case nil:
		case json.Number:
			y, err := strconv.ParseInt(string(v), 10, 32)
			if err != nil {
				return fail("fact of %s:%s (%s): fy %s is not a year", taxonomy, tag, unit, v)
			}
			f.FY = int32(y)
		default:
			return fail("fact of %s:%s (%s): fy %v is not a year", taxonomy, tag, unit, v)
		}
		f.Accession, f.Form = rf.Accn, rf.Form
		if rf.FP != absent {
			f.FP = rf.FP
		}
		if f.End, ok = civil.ParseISO(rf.End); !ok {
			return fail("fact of %s:%s (%s): end %q is not a date", taxonomy, tag, unit, rf.End)
		}
		if f.Filed, ok = civil.ParseISO(rf.Filed); !ok {
			return fail("fact of %s:%s (%s): filed %q is not a date", taxonomy, tag, unit, rf.Filed)
		}
		hasStart := rf.Start != absent
		if hasStart {
			if f.Start, ok = civil.ParseISO(rf.Start); !ok {
				return fail("fact of %s:%s (%s): start %q is not a date", taxonomy, tag, unit, rf.Start)
			}
			if f.Start > f.End {
				return fail("fact of %s:%s (%s): start %s after end %s", taxonomy, tag, unit, rf.Start, rf.End)
			}
		}
		if f.End <= 0 || hasStart && f.Start <= 0 || f.Filed <= 0 {
			skipped++
			return nil
		}
		return h.fact(&f)
	}
	err = object("the document", func(key string) error {
		switch key {
		case "cik":
			t, err := d.Token()
			if err != nil {
				return wrap(err)
			}
			var s string
			switch v := t.(type) {
			case json.Number:
				s = string(v)
			case string:
				s = v
			default:
				return fail("cik %v is not a number", t)
			}
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil || n <= 0 || n > 9999999999 {
				return fail("cik %q is not a CIK", s)
			}
			if err := h.cik(n); err != nil {
				return fail("%v", err)
			}
			return nil
		case "entityName":
			name, _, err := str("entityName")
			h.entity(name)
			return err
		case "facts":
			return object("facts", func(taxonomy string) error {
				return object("taxonomy "+taxonomy, func(tag string) error {
					return object("tag "+taxonomy+":"+tag, func(key string) error {
						if key != "units" {
							return skip()
						}
						return object("units of "+taxonomy+":"+tag, func(unit string) error {
							t, err := d.Token()
							if err != nil {
								return wrap(err)
							}
							if t != json.Delim('[') {
								return fail("facts of %s:%s (%s) are not an array", taxonomy, tag, unit)
							}
							for d.More() {
								if err := fact(taxonomy, tag, unit); err != nil {
									return err
								}
							}
							if _, err := d.Token(); err != nil { // ']'
								return wrap(err)
							}
							return nil
						})
					})
				})
			})
		}
		return skip()
	})
	if err != nil {
		return skipped, err
	}
	if _, err := d.Token(); err != io.EOF {
		if err == nil {
			return skipped, fail("data after the document")
		}
		return skipped, wrap(err)
	}
	return skipped, nil
}
