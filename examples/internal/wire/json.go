package wire

import (
	"strconv"
	"unicode/utf8"
)

// obj appends the members of one JSON object to a byte slice.
//
// With inText, the object is written as the inside of a JSON string (what
// a TextWriter makes of it, in one pass): its quotes as \" and its strings
// escaped twice.
type obj struct {
	b       []byte
	n       int    // members written
	inText  bool   // write as the inside of a JSON string
	scratch []byte // a string escaped once, with inText
}

func (o *obj) open()  { o.b = append(o.b, '{'); o.n = 0 }
func (o *obj) close() { o.b = append(o.b, '}') }

// key starts the member k. Member names are this package's snake_case
// constants, which need no escaping.
func (o *obj) key(k string) {
	if o.n > 0 {
		o.b = append(o.b, ',')
	}
	o.n++
	o.quote()
	o.b = append(o.b, k...)
	o.quote()
	o.b = append(o.b, ':')
}

// quote appends a quotation mark.
func (o *obj) quote() {
	if o.inText {
		o.b = append(o.b, '\\')
	}
	o.b = append(o.b, '"')
}

// string appends s as a JSON string.
func (o *obj) string(s string) {
	if !o.inText {
		o.b = appendString(o.b, s)
		return
	}
	o.quote()
	o.scratch = appendEscaped(o.scratch[:0], s, false)
	o.b = appendEscaped(o.b, o.scratch, true)
	o.quote()
}

func (o *obj) str(k, v string) { o.key(k); o.string(v) }

// strOrNull writes null for an empty v.
func (o *obj) strOrNull(k, v string) {
	if v == "" {
		o.key(k)
		o.b = append(o.b, "null"...)
		return
	}
	o.str(k, v)
}

func (o *obj) int(k string, v int64) { o.key(k); o.b = strconv.AppendInt(o.b, v, 10) }

func (o *obj) bool(k string, v bool) { o.key(k); o.b = strconv.AppendBool(o.b, v) }

func (o *obj) strs(k string, vs []string) {
	o.key(k)
	o.b = append(o.b, '[')
	for i, v := range vs {
		if i > 0 {
			o.b = append(o.b, ',')
		}
		o.string(v)
	}
	o.b = append(o.b, ']')
}

const hex = "0123456789abcdef"

// plain and plainHTML mark the ASCII bytes a JSON string holds as they
// are, without and with HTML escaping: printable ASCII but the quote and
// the backslash (and <, > and &). Other bytes are looked at one by one.
var plain, plainHTML = func() (p, h [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		p[c] = c != '"' && c != '\\'
		h[c] = p[c] && c != '<' && c != '>' && c != '&'
	}
	return p, h
}()

// appendString appends s as a JSON string.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	b = appendEscaped(b, s, false)
	return append(b, '"')
}

// appendEscaped appends s escaped as the inside of a JSON string, exactly
// as encoding/json's Marshal escapes a string: quotes, backslashes and
// control characters (\b, \f, \n, \r and \t in short form, the others as
// \u00XX), U+2028 and U+2029; invalid UTF-8 becomes U+FFFD. With
// escapeHTML, <, > and & are escaped too (\u003c, \u003e, \u0026).
func appendEscaped[S string | []byte](b []byte, s S, escapeHTML bool) []byte {
	safe := &plain
	if escapeHTML {
		safe = &plainHTML
	}
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if safe[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		// Only a few bytes are converted, so that a []byte s is not copied whole.
		r, size := utf8.DecodeRuneInString(string(s[i:min(len(s), i+utf8.UTFMax)]))
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	return append(b, s[start:]...)
}
