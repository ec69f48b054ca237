package wire

import (
	"strconv"
	"unicode/utf8"
)

// obj appends the members of one JSON object to a byte slice.
type obj struct {
	b []byte
	n int // members written
}

func (o *obj) open()  { o.b = append(o.b, '{'); o.n = 0 }
func (o *obj) close() { o.b = append(o.b, '}') }

func (o *obj) key(k string) {
	if o.n > 0 {
		o.b = append(o.b, ',')
	}
	o.n++
	o.b = appendString(o.b, k)
	o.b = append(o.b, ':')
}

func (o *obj) str(k, v string) { o.key(k); o.b = appendString(o.b, v) }

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
		o.b = appendString(o.b, v)
	}
	o.b = append(o.b, ']')
}

const hex = "0123456789abcdef"

// appendString appends s as a JSON string. Control characters, quotes,
// backslashes, U+2028 and U+2029 are escaped; invalid UTF-8 becomes U+FFFD.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
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
		r, size := utf8.DecodeRuneInString(s[i:])
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
	b = append(b, s[start:]...)
	return append(b, '"')
}
