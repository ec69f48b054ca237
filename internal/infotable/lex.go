package infotable

import (
	"bytes"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
)

// fastParser is the state of one parseFast call: a hand-written XML reader
// that follows the rules of encoding/xml on the subset of XML tables use,
// feeding the rowBuilder it embeds. Where ParseReference reads the document
// with encoding/xml, fastParser reads it here, so that the differential
// fuzz test compares two independent readings of the XML.
type fastParser struct {
	rowBuilder
	names   [maxDepth][]byte // raw names of the open elements
	scratch []byte           // decoded text that is checked and dropped
}

// run parses b, a document or the rest of one.
func (p *fastParser) run(b []byte) error {
	i := 0
	for {
		// Most text between tags is a little indentation, which only
		// matters inside a field.
		if !p.collecting() {
			for i < len(b) && isSpace(b[i]) {
				i++
			}
		}
		j := 0
		if i >= len(b) || b[i] != '<' {
			j = bytes.IndexByte(b[i:], '<')
		}
		if j < 0 {
			return p.chars(b[i:])
		}
		if j > 0 {
			if err := p.chars(b[i : i+j]); err != nil {
				return err
			}
		}
		i += j + 1
		if i >= len(b) {
			return errMalformed
		}
		var err error
		switch b[i] {
		case '/':
			i, err = p.endTag(b, i+1)
		case '?':
			var next []byte
			next, i, err = p.procInst(b, i+1)
			if next != nil {
				b, i = next, 0
			}
		case '!':
			i, err = p.bang(b, i+1)
		default:
			i, err = p.startTag(b, i)
		}
		if err != nil {
			return err
		}
	}
}

// chars handles a run of character data (not CDATA).
func (p *fastParser) chars(s []byte) error {
	if p.collecting() {
		var ok bool
		if p.text, ok = appendText(p.text, s, false); !ok {
			return errMalformed
		}
		return nil
	}
	for _, c := range s {
		if c != ' ' && c != '\n' && c != '\t' && c != '\r' {
			var ok bool
			if p.scratch, ok = appendText(p.scratch[:0], s, false); !ok {
				return errMalformed
			}
			return nil
		}
	}
	return nil
}

// startTag reads the start tag whose name begins at b[i].
func (p *fastParser) startTag(b []byte, i int) (int, error) {
	name, local, j, err := scanQName(b, i)
	if err != nil {
		return 0, err
	}
	empty := false
	for {
		j = skipSpace(b, j)
		if j >= len(b) {
			return 0, errMalformed
		}
		if c := b[j]; c == '>' {
			j++
			break
		} else if c == '/' {
			if j+1 >= len(b) || b[j+1] != '>' {
				return 0, errMalformed
			}
			empty = true
			j += 2
			break
		}
		if j, err = p.attr(b, j); err != nil {
			return 0, err
		}
	}
	if err := p.open(name, local); err != nil {
		return 0, err
	}
	if empty {
		if err := p.end(); err != nil {
			return 0, err
		}
	}
	return j, nil
}

// attr checks the attribute that begins at b[i] and returns the index
// after it.
func (p *fastParser) attr(b []byte, i int) (int, error) {
	_, _, j, err := scanQName(b, i)
	if err != nil {
		return 0, err
	}
	j = skipSpace(b, j)
	if j >= len(b) || b[j] != '=' {
		return 0, errMalformed
	}
	j = skipSpace(b, j+1)
	if j >= len(b) || b[j] != '"' && b[j] != '\'' {
		return 0, errMalformed
	}
	k := bytes.IndexByte(b[j+1:], b[j])
	if k < 0 {
		return 0, errMalformed
	}
	var ok bool
	if p.scratch, ok = appendText(p.scratch[:0], b[j+1:j+1+k], true); !ok {
		return 0, errMalformed
	}
	return j + 1 + k + 1, nil
}

// endTag reads the end tag whose name begins at b[i].
func (p *fastParser) endTag(b []byte, i int) (int, error) {
	if p.depth > 0 {
		// Fast path: the name of the open element, then '>'.
		name := p.names[p.depth-1]
		if j := i + len(name); j < len(b) && b[j] == '>' && bytes.Equal(b[i:j], name) {
			return j + 1, p.end()
		}
	}
	name, _, j, err := scanQName(b, i)
	if err != nil {
		return 0, err
	}
	j = skipSpace(b, j)
	if j >= len(b) || b[j] != '>' {
		return 0, errMalformed
	}
	if p.depth == 0 || !bytes.Equal(p.names[p.depth-1], name) {
		return 0, errMalformed
	}
	return j + 1, p.end()
}

// procInst reads the processing instruction whose target begins at b[i].
// For an XML declaration naming an encoding other than UTF-8 it returns the
// rest of the document converted to UTF-8 as next.
func (p *fastParser) procInst(b []byte, i int) (next []byte, j int, err error) {
	j = scanName(b, i)
	if j < 0 {
		return nil, 0, errUnsupported
	}
	target := b[i:j]
	if !isASCIIName(target) {
		return nil, 0, errMalformed
	}
	j = skipSpace(b, j)
	k := bytes.Index(b[j:], []byte("?>"))
	if k < 0 {
		return nil, 0, errMalformed
	}
	content := string(b[j : j+k])
	j += k + 2
	if string(target) != "xml" {
		return nil, j, nil
	}
	if v := procInstParam("version", content); v != "" && v != "1.0" {
		return nil, 0, errMalformed
	}
	enc := procInstParam("encoding", content)
	if enc == "" || strings.EqualFold(enc, "utf-8") {
		return nil, j, nil
	}
	r, err := charset.NewReaderLabel(enc, bytes.NewReader(b[j:]))
	if err != nil {
		return nil, 0, errMalformed
	}
	next, err = io.ReadAll(r)
	if err != nil {
		return nil, 0, errMalformed
	}
	return next, 0, nil
}

// procInstParam returns the value of param="..." or param='...' in the
// content s of an XML declaration, "" if absent. It finds values exactly as
// encoding/xml does.
func procInstParam(param, s string) string {
	param += "="
	i := 0
	var sep byte
	for i < len(s) {
		sub := s[i:]
		k := strings.Index(sub, param)
		if k < 0 || len(param)+k >= len(sub) {
			return ""
		}
		i += len(param) + k + 1
		if c := sub[len(param)+k]; c == '\'' || c == '"' {
			sep = c
			break
		}
	}
	if sep == 0 {
		return ""
	}
	j := strings.IndexByte(s[i:], sep)
	if j < 0 {
		return ""
	}
	return s[i : i+j]
}

// bang reads a comment or CDATA section; b[i-1] is the '!' of "<!".
func (p *fastParser) bang(b []byte, i int) (int, error) {
	if i >= len(b) {
		return 0, errMalformed
	}
	switch b[i] {
	case '-':
		if i+1 >= len(b) || b[i+1] != '-' {
			return 0, errMalformed
		}
		k := bytes.Index(b[i+2:], []byte("--"))
		end := i + 2 + k + 2
		if k < 0 || end >= len(b) || b[end] != '>' {
			return 0, errMalformed
		}
		return end + 1, nil
	case '[':
		if !bytes.HasPrefix(b[i+1:], []byte("CDATA[")) {
			return 0, errMalformed
		}
		start := i + 7
		k := bytes.Index(b[start:], []byte("]]>"))
		if k < 0 {
			return 0, errMalformed
		}
		var ok bool
		if p.collecting() {
			p.text, ok = appendCDATA(p.text, b[start:start+k])
		} else {
			p.scratch, ok = appendCDATA(p.scratch[:0], b[start:start+k])
		}
		if !ok {
			return 0, errMalformed
		}
		return start + k + 3, nil
	}
	return 0, errUnsupported // <!DOCTYPE and other directives
}

// open handles a start tag with raw name and local name local.
func (p *fastParser) open(name, local []byte) error {
	if err := p.start(local); err != nil {
		return err
	}
	p.names[p.depth-1] = name
	return nil
}

// trimSpace removes leading and trailing XML white space.
func trimSpace(b []byte) []byte {
	i, j := 0, len(b)
	for i < j && isSpace(b[i]) {
		i++
	}
	for j > i && isSpace(b[j-1]) {
		j--
	}
	return b[i:j]
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// skipSpace returns the index of the first byte at or after i that is not
// XML white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// nameByte marks the ASCII bytes encoding/xml reads as part of a name.
var nameByte = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' ||
			c == '_' || c == ':' || c == '.' || c == '-'
	}
	return t
}()

// scanName returns the end of the name that begins at b[i], or -1 when it
// holds a non-ASCII byte (left to ParseReference).
func scanName(b []byte, i int) int {
	for ; i < len(b); i++ {
		c := b[i]
		if c >= utf8.RuneSelf {
			return -1
		}
		if !nameByte[c] {
			break
		}
	}
	return i
}

// isASCIIName reports whether an ASCII name is a valid XML name.
func isASCIIName(s []byte) bool {
	if len(s) == 0 {
		return false
	}
	c := s[0]
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || c == '_' || c == ':'
}

// scanQName reads the element or attribute name that begins at b[i] and
// returns it, its local part as encoding/xml splits it, and its end.
func scanQName(b []byte, i int) (name, local []byte, end int, err error) {
	end = scanName(b, i)
	if end < 0 {
		return nil, nil, 0, errUnsupported
	}
	name = b[i:end]
	if !isASCIIName(name) {
		return nil, nil, 0, errMalformed
	}
	local = name
	if k := bytes.IndexByte(name, ':'); k >= 0 {
		if bytes.IndexByte(name[k+1:], ':') >= 0 {
			return nil, nil, 0, errMalformed
		}
		if k > 0 && k < len(name)-1 {
			local = name[k+1:]
		}
	}
	return name, local, end, nil
}

// textClass marks the bytes appendText copies without a closer look.
var textClass = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '&' && c != '<' && c != '>'
	}
	t['\t'], t['\n'] = true, true
	return t
}()

// appendText appends character data s (between markup, or a quoted
// attribute value when quoted is set) to dst as encoding/xml decodes it:
// references replaced, "\r\n" and "\r" turned into "\n". ok is false when
// encoding/xml would reject s.
func appendText(dst, s []byte, quoted bool) (_ []byte, ok bool) {
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if textClass[c] {
			continue
		}
		switch {
		case c == '>':
			if !quoted && i >= 2 && s[i-1] == ']' && s[i-2] == ']' {
				return dst, false
			}
		case c == '\r':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\n')
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			start = i + 1
		case c == '&':
			dst = append(dst, s[start:i]...)
			r, n := reference(s[i:])
			if n == 0 {
				return dst, false
			}
			dst = utf8.AppendRune(dst, r)
			i += n - 1
			start = i + 1
		case c < utf8.RuneSelf: // '<' and control characters
			return dst, false
		default:
			r, n := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && n == 1 || !isInCharacterRange(r) {
				return dst, false
			}
			i += n - 1
		}
	}
	return append(dst, s[start:]...), true
}

// appendCDATA appends the content s of a CDATA section to dst as
// encoding/xml decodes it. ok is false when encoding/xml would reject s.
func appendCDATA(dst, s []byte) (_ []byte, ok bool) {
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x20 && c < utf8.RuneSelf || c == '\t' || c == '\n':
		case c == '\r':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\n')
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			start = i + 1
		case c < utf8.RuneSelf:
			return dst, false
		default:
			r, n := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && n == 1 || !isInCharacterRange(r) {
				return dst, false
			}
			i += n - 1
		}
	}
	return append(dst, s[start:]...), true
}

// reference decodes the entity or character reference at the start of s
// ("&...;"). n is its length, 0 when encoding/xml would reject it.
func reference(s []byte) (r rune, n int) {
	if len(s) < 2 {
		return 0, 0
	}
	if s[1] != '#' {
		for _, e := range entities {
			if len(s) > len(e.name) && string(s[1:1+len(e.name)]) == e.name {
				return e.r, 1 + len(e.name)
			}
		}
		return 0, 0
	}
	i, base := 2, uint64(10)
	if i < len(s) && s[i] == 'x' {
		i, base = 3, 16
	}
	start := i
	var v uint64
	for ; i < len(s); i++ {
		d := uint64(digitValue(s[i]))
		if d >= base {
			break
		}
		if v <= unicode.MaxRune {
			v = v*base + d
		}
	}
	if i == start || i >= len(s) || s[i] != ';' || v > unicode.MaxRune {
		return 0, 0
	}
	r = rune(v)
	if !utf8.ValidRune(r) {
		r = utf8.RuneError
	}
	if !isInCharacterRange(r) {
		return 0, 0
	}
	return r, i + 1
}

// entities are the predefined XML entities with their terminating ';'.
var entities = []struct {
	name string
	r    rune
}{{"lt;", '<'}, {"gt;", '>'}, {"amp;", '&'}, {"apos;", '\''}, {"quot;", '"'}}

// digitValue returns the value of a hexadecimal digit, or 16.
func digitValue(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return 16
}

// isInCharacterRange reports whether r is an XML Char.
func isInCharacterRange(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D || r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}
