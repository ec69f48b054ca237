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
// decodeDoc reads it one token at a time (json.Decoder.Token): the
// document is never in memory whole, and a member is at most one fact.

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
	fact := func(taxonomy, tag, unit string) error {
		f = Fact{Taxonomy: taxonomy, Tag: tag, Unit: unit}
		var have struct{ start, end, val, accn, form, filed bool }
		var start, end, filed string
		err := object("a fact", func(key string) error {
			var err error
			switch key {
			case "start":
				start, have.start, err = str("start")
			case "end":
				end, have.end, err = str("end")
			case "accn":
				f.Accession, have.accn, err = str("accn")
			case "form":
				f.Form, have.form, err = str("form")
			case "filed":
				filed, have.filed, err = str("filed")
			case "fp":
				f.FP, _, err = str("fp")
			case "val":
				t, err := d.Token()
				if err != nil {
					return wrap(err)
				}
				n, ok := t.(json.Number)
				if !ok {
					return fail("fact of %s:%s (%s): val %v is not a number", taxonomy, tag, unit, t)
				}
				f.ValueText, have.val = string(n), true
				if f.Value, err = strconv.ParseFloat(string(n), 64); err != nil {
					return fail("fact of %s:%s (%s): val %s: %v", taxonomy, tag, unit, n, err)
				}
			case "fy":
				t, err := d.Token()
				if err != nil {
					return wrap(err)
				}
				switch v := t.(type) {
				case nil:
				case json.Number:
					y, err := strconv.ParseInt(string(v), 10, 32)
					if err != nil {
						return fail("fact of %s:%s (%s): fy %s is not a year", taxonomy, tag, unit, v)
					}
					f.FY = int32(y)
				default:
					return fail("fact of %s:%s (%s): fy %v is not a year", taxonomy, tag, unit, t)
				}
			default:
				return skip()
			}
			return err
		})
		if err != nil {
			return err
		}
		var missing []string
		for _, m := range []struct {
			ok   bool
			name string
		}{{have.end, "end"}, {have.val, "val"}, {have.accn, "accn"}, {have.form, "form"}, {have.filed, "filed"}} {
			if !m.ok {
				missing = append(missing, m.name)
			}
		}
		if len(missing) > 0 {
			return fail("fact of %s:%s (%s) without %s", taxonomy, tag, unit, strings.Join(missing, ", "))
		}
		var ok bool
		if f.End, ok = civil.ParseISO(end); !ok {
			return fail("fact of %s:%s (%s): end %q is not a date", taxonomy, tag, unit, end)
		}
		if f.Filed, ok = civil.ParseISO(filed); !ok {
			return fail("fact of %s:%s (%s): filed %q is not a date", taxonomy, tag, unit, filed)
		}
		if have.start {
			if f.Start, ok = civil.ParseISO(start); !ok {
				return fail("fact of %s:%s (%s): start %q is not a date", taxonomy, tag, unit, start)
			}
			if f.Start > f.End {
				return fail("fact of %s:%s (%s): start %s after end %s", taxonomy, tag, unit, start, end)
			}
		}
		if f.End <= 0 || have.start && f.Start <= 0 || f.Filed <= 0 {
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
