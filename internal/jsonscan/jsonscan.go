// Package jsonscan reads JSON in one pass, without reflection, for the
// decoders that read large documents or many small ones: the caller walks
// the document with Object, Array and the scalar readers, and skips what
// it does not need. Strings decode as encoding/json decodes them.
package jsonscan

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// IsNumber reports whether b is a JSON number.
func IsNumber(b []byte) bool {
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

// A Scanner reads JSON from a byte slice. Its methods skip leading white
// space and return the first syntax error, naming the scanner and the
// offset.
type Scanner struct {
	name string
	b    []byte
	i    int
}

// New returns a Scanner of b at its start; name begins its errors.
func New(name string, b []byte) Scanner { return Scanner{name: name, b: b} }

// maxDepth is how deep Skip follows nested values.
const maxDepth = 1000

// Errorf returns an error at the scanner's offset.
func (s *Scanner) Errorf(format string, args ...any) error {
	return fmt.Errorf("%s: offset %d: %s", s.name, s.i, fmt.Sprintf(format, args...))
}

// End skips white space and reports whether the input ends there.
func (s *Scanner) End() bool {
	s.ws()
	return s.i == len(s.b)
}

func (s *Scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// Null skips white space and reports whether a null follows, reading it.
func (s *Scanner) Null() bool {
	s.ws()
	if bytes.HasPrefix(s.b[s.i:], []byte("null")) {
		s.i += 4
		return true
	}
	return false
}

// Object reads an object (null reads as an empty one), calling member
// for each key with the scanner positioned at the value; member must
// consume the value. A key with escapes is unescaped first; one without
// aliases the input.
func (s *Scanner) Object(member func(key []byte) error) error {
	if s.Null() {
		return nil
	}
	if s.i >= len(s.b) || s.b[s.i] != '{' {
		return s.Errorf("want an object")
	}
	s.i++
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		return nil
	}
	for {
		key, err := s.Str()
		if err != nil {
			return err
		}
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] != ':' {
			return s.Errorf("want ':'")
		}
		s.i++
		if err := member(key); err != nil {
			return err
		}
		s.ws()
		if s.i >= len(s.b) {
			return s.Errorf("unterminated object")
		}
		switch s.b[s.i] {
		case ',':
			s.i++
		case '}':
			s.i++
			return nil
		default:
			return s.Errorf("want ',' or '}'")
		}
	}
}

// Array reads an array (null reads as an empty one), calling elem for
// each element.
func (s *Scanner) Array(elem func() error) error {
	if s.Null() {
		return nil
	}
	if s.i >= len(s.b) || s.b[s.i] != '[' {
		return s.Errorf("want an array")
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
			return s.Errorf("unterminated array")
		}
		switch s.b[s.i] {
		case ',':
			s.i++
		case ']':
			s.i++
			return nil
		default:
			return s.Errorf("want ',' or ']'")
		}
	}
}

// Str reads a string and returns its contents, unescaped, with each byte
// that is not UTF-8 replaced by U+FFFD, as encoding/json decodes strings.
// Without escapes the result aliases the input.
func (s *Scanner) Str() ([]byte, error) {
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return nil, s.Errorf("want a string")
	}
	start := s.i
	end, escaped, err := s.stringEnd()
	if err != nil {
		return nil, err
	}
	if !escaped {
		return validUTF8(s.b[start+1 : end-1]), nil
	}
	u, err := Unquote(s.b[start:end])
	if err != nil {
		return nil, s.Errorf("%v", err)
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

// StringOrNull reads a string or null.
func (s *Scanner) StringOrNull() (v string, null bool, err error) {
	if s.Null() {
		return "", true, nil
	}
	b, err := s.Str()
	return string(b), false, err
}

// stringEnd moves past the string starting at s.i (a '"') and returns the
// offset after its closing quote and whether it holds escapes. Control
// characters are rejected, as JSON requires.
func (s *Scanner) stringEnd() (end int, escaped bool, err error) {
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
				return 0, false, s.Errorf("unterminated string")
			}
			switch s.b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(s.b) || !isHex4(s.b[i+2:i+6]) {
					return 0, false, s.Errorf("bad \\u escape")
				}
				i += 6
			default:
				return 0, false, s.Errorf("bad escape")
			}
		case c < 0x20:
			return 0, false, s.Errorf("control character in string")
		default:
			i++
		}
	}
	return 0, false, s.Errorf("unterminated string")
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

// Scalar reads a number, string, true, false or null and returns its raw
// bytes (a string with its quotes).
func (s *Scanner) Scalar() ([]byte, error) {
	s.ws()
	if s.i >= len(s.b) {
		return nil, s.Errorf("want a value")
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
		if !IsNumber(s.b[start:s.i]) {
			return nil, s.Errorf("bad number %q", s.b[start:s.i])
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
	return nil, s.Errorf("want a value")
}

// numberByte reports whether c can occur in a JSON number.
func numberByte(c byte) bool {
	return '0' <= c && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// Skip reads any value.
func (s *Scanner) Skip() error { return s.skipDepth(0) }

func (s *Scanner) skipDepth(depth int) error {
	if depth > maxDepth {
		return s.Errorf("nested too deeply")
	}
	s.ws()
	if s.i >= len(s.b) {
		return s.Errorf("want a value")
	}
	switch s.b[s.i] {
	case '{':
		return s.Object(func([]byte) error { return s.skipDepth(depth + 1) })
	case '[':
		return s.Array(func() error { return s.skipDepth(depth + 1) })
	}
	_, err := s.Scalar()
	return err
}

// Unquote decodes a JSON string literal, with its quotes. Unpaired
// surrogates become U+FFFD, as in encoding/json.
func Unquote(q []byte) (string, error) {
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
