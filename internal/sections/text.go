package sections

import (
	"bytes"
	"regexp"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
)

// Line flags, set by the HTML to text conversion and read by the heading
// rules.
const (
	flagLink  uint8 = 1 << iota // the line's first text sits inside a link to an anchor of the document
	flagBreak                   // a page break comes right before the line
	flagRow                     // the line is a table row
)

// A line is one line of the converted text: text[start:end], no newline.
type line struct {
	start, end int
	flags      uint8
}

// blockTags are the elements that begin and end a line.
var blockTags = map[string]bool{
	"address": true, "article": true, "aside": true, "blockquote": true, "body": true,
	"center": true, "dd": true, "div": true, "dl": true, "dt": true, "fieldset": true,
	"figcaption": true, "figure": true, "footer": true, "form": true, "h1": true,
	"h2": true, "h3": true, "h4": true, "h5": true, "h6": true, "header": true,
	"hr": true, "html": true, "li": true, "main": true, "nav": true, "ol": true,
	"p": true, "pre": true, "section": true, "table": true, "ul": true, "caption": true,
}

// skipTags are the elements whose content is never text of the document:
// the inline-XBRL header (facts shown nowhere) and the parts of a page that
// are not shown.
var skipTags = map[string]bool{
	"head": true, "script": true, "style": true, "title": true, "ix:header": true,
	"template": true, "noscript": true,
}

// voidTags never have an end tag.
var voidTags = map[string]bool{
	"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true,
	"img": true, "input": true, "link": true, "meta": true, "param": true,
	"source": true, "track": true, "wbr": true,
}

// converter turns an HTML document into lines of text.
type converter struct {
	buf       []byte // the text, lines separated by '\n'
	lines     []line
	lineStart int   // start of the current line in buf
	space     bool  // a space is pending before the next text
	flags     uint8 // flags of the current line
	brk       bool  // a page break is pending for the next line
	link      int   // depth of open links to anchors of the document
	pre       int   // depth of open <pre> elements
	tables    []table
}

// table is the state of one open table.
type table struct {
	cells  []string
	cell   []byte
	space  bool
	inCell bool
	flags  uint8 // flags of the row, taken from its first text
}

// toText converts an HTML document into text and its lines. The
// document's declared character set is honoured; a document declaring none
// is read as UTF-8 when it is valid UTF-8 and as Windows-1252 otherwise.
func toText(doc []byte) (string, []line) {
	doc = decode(doc)
	c := &converter{buf: make([]byte, 0, len(doc)/4)}
	z := html.NewTokenizer(bytes.NewReader(doc))
	var skipName string // the element being skipped, "" when none
	skipDepth := 0
	// Elements with a page break after them, and how deep elements of the
	// same name are open within them.
	type pending struct {
		tag   string
		depth int
	}
	var breakAfter []pending
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		if skipName != "" {
			var buf [24]byte
			switch tt {
			case html.StartTagToken:
				if string(lowerTagName(z.Raw(), &buf)) == skipName {
					skipDepth++
				}
			case html.EndTagToken:
				if string(lowerTagName(z.Raw(), &buf)) == skipName {
					skipDepth--
					if skipDepth == 0 {
						skipName = ""
					}
				}
			}
			continue
		}
		switch tt {
		case html.TextToken:
			c.text(z.Text())
		case html.StartTagToken, html.SelfClosingTagToken:
			raw := z.Raw()
			tag := rawTagName(raw)
			// The attributes are read from the raw tag: the tokenizer's
			// TagAttr copies every key and value.
			var style []byte
			if attrTags[tag] {
				style = raw
			}
			href := tag == "a" && internalHref(raw)
			selfClosing := tt == html.SelfClosingTagToken || voidTags[tag]
			if skipTags[tag] || hidden(style) {
				if !selfClosing {
					skipName, skipDepth = tag, 1
				}
				continue
			}
			if pageBreakBefore(style) || tag == "hr" {
				c.pageBreak()
			}
			c.start(tag, href, selfClosing)
			if selfClosing {
				c.end(tag)
			}
			switch after := pageBreakAfter(style); {
			case after && selfClosing:
				c.pageBreak()
			case after:
				breakAfter = append(breakAfter, pending{tag, 1})
			case len(breakAfter) > 0 && breakAfter[len(breakAfter)-1].tag == tag && !selfClosing:
				breakAfter[len(breakAfter)-1].depth++
			}
		case html.EndTagToken:
			tag := rawTagName(z.Raw())
			c.end(tag)
			if n := len(breakAfter); n > 0 && breakAfter[n-1].tag == tag {
				if breakAfter[n-1].depth--; breakAfter[n-1].depth == 0 {
					breakAfter = breakAfter[:n-1]
					c.pageBreak()
				}
			}
		}
	}
	for len(c.tables) > 0 {
		c.end("table")
	}
	c.newline()
	if n := len(c.buf); n > 0 && c.buf[n-1] == '\n' {
		c.buf = c.buf[:n-1]
	}
	return string(c.buf), c.lines
}

// rawTagName returns the lower-case name of the tag token raw ("<Div
// style=...>", "</td>"). It reads the raw bytes because the tokenizer's
// TagName allocates a copy for every tag.
func rawTagName(raw []byte) string {
	var buf [24]byte
	return tagName(lowerTagName(raw, &buf))
}

// lowerTagName returns the name of the tag token raw in lower case, in buf
// when it fits.
func lowerTagName(raw []byte, buf *[24]byte) []byte {
	i := 1
	if i < len(raw) && raw[i] == '/' {
		i++
	}
	j := i
	for j < len(raw) {
		c := raw[j]
		if c == ' ' || c == '>' || c == '/' || c == '\t' || c == '\n' || c == '\r' || c == '\f' {
			break
		}
		j++
	}
	name := raw[i:j]
	if len(name) > len(buf) {
		return bytes.ToLower(name)
	}
	for k, c := range name {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[k] = c
	}
	return buf[:len(name)]
}

// tagName returns b as a string, without allocating for the tags filings
// use most.
func tagName(b []byte) string {
	switch string(b) {
	case "span":
		return "span"
	case "div":
		return "div"
	case "td":
		return "td"
	case "tr":
		return "tr"
	case "p":
		return "p"
	case "a":
		return "a"
	case "table":
		return "table"
	case "th":
		return "th"
	case "br":
		return "br"
	case "hr":
		return "hr"
	case "b":
		return "b"
	case "i":
		return "i"
	case "u":
		return "u"
	case "font":
		return "font"
	case "sup":
		return "sup"
	case "sub":
		return "sub"
	case "li":
		return "li"
	case "ul":
		return "ul"
	case "ol":
		return "ol"
	case "img":
		return "img"
	case "tbody":
		return "tbody"
	case "thead":
		return "thead"
	case "col":
		return "col"
	case "colgroup":
		return "colgroup"
	case "strong":
		return "strong"
	case "em":
		return "em"
	case "ix:nonfraction":
		return "ix:nonfraction"
	case "ix:nonnumeric":
		return "ix:nonnumeric"
	case "ix:continuation":
		return "ix:continuation"
	case "ix:exclude":
		return "ix:exclude"
	case "ix:header":
		return "ix:header"
	case "center":
		return "center"
	}
	return string(b)
}

// attrTags are the elements whose style is read: those that filings hide
// or break pages with. Reading the style of every span would double the
// time of the conversion.
var attrTags = map[string]bool{
	"div": true, "p": true, "hr": true, "a": true, "table": true,
	"section": true, "font": true, "center": true,
}

var (
	hiddenStyle = regexp.MustCompile(`(?i)display\s*:\s*none`)
	anchorHref  = regexp.MustCompile(`(?i)\shref\s*=\s*["']?#`)
)

// hidden reports whether a tag's style hides its element ("display:none").
func hidden(tag []byte) bool {
	return len(tag) > 0 && indexFold(tag, "none") >= 0 && hiddenStyle.Match(tag)
}

// internalHref reports whether an <a> tag links to an anchor of the
// document itself.
func internalHref(tag []byte) bool {
	return bytes.IndexByte(tag, '#') >= 0 && anchorHref.Match(tag)
}

func pageBreakBefore(tag []byte) bool {
	return len(tag) > 0 && indexFold(tag, "break-before") >= 0 && (indexFold(tag, "always") >= 0 || indexFold(tag, "page") >= 0)
}

func pageBreakAfter(tag []byte) bool {
	return len(tag) > 0 && indexFold(tag, "break-after") >= 0 && (indexFold(tag, "always") >= 0 || indexFold(tag, "page") >= 0)
}

// indexFold returns the index of the lower-case ASCII string sub in b,
// ignoring ASCII case, or -1.
func indexFold(b []byte, sub string) int {
	for i := 0; i+len(sub) <= len(b); i++ {
		j := 0
		for j < len(sub) {
			c := b[i+j]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != sub[j] {
				break
			}
			j++
		}
		if j == len(sub) {
			return i
		}
	}
	return -1
}

func (c *converter) pageBreak() {
	c.newline()
	c.brk = true
}

func (c *converter) start(tag string, href bool, selfClosing bool) {
	switch tag {
	case "a":
		if !selfClosing && href {
			c.link++
		}
	case "pre":
		c.newline()
		if !selfClosing {
			c.pre++
		}
	case "table":
		c.newline()
		c.tables = append(c.tables, table{})
	case "tr":
		t := c.openTable()
		c.endRow(t)
		t.flags = 0
	case "td", "th":
		t := c.openTable()
		c.endCell(t)
		t.inCell = true
	case "br":
		c.blockBreak()
	default:
		if blockTags[tag] {
			c.blockBreak()
		}
	}
}

// blockBreak ends the line at the edge of a block element; inside a table
// cell it becomes a space.
func (c *converter) blockBreak() {
	if t := c.top(); t != nil && t.inCell {
		t.space = len(t.cell) > 0
	} else {
		c.newline()
	}
}

func (c *converter) end(tag string) {
	switch tag {
	case "a":
		if c.link > 0 {
			c.link--
		}
	case "pre":
		c.newline()
		if c.pre > 0 {
			c.pre--
		}
	case "td", "th":
		if t := c.top(); t != nil {
			c.endCell(t)
		}
	case "tr":
		if t := c.top(); t != nil {
			c.endRow(t)
		}
	case "table":
		if t := c.top(); t != nil {
			c.endRow(t)
			c.tables = c.tables[:len(c.tables)-1]
		}
		c.newline()
	default:
		if blockTags[tag] {
			c.blockBreak()
		}
	}
}

// openTable returns the innermost open table, opening one for a row or
// cell met outside any table (a fragment of a document).
func (c *converter) openTable() *table {
	if len(c.tables) == 0 {
		c.newline()
		c.tables = append(c.tables, table{})
	}
	return c.top()
}

func (c *converter) top() *table {
	if len(c.tables) == 0 {
		return nil
	}
	return &c.tables[len(c.tables)-1]
}

func (c *converter) endCell(t *table) {
	if !t.inCell {
		return
	}
	t.inCell = false
	if len(t.cell) > 0 {
		t.cells = append(t.cells, string(t.cell))
	}
	t.cell, t.space = t.cell[:0], false
}

// endRow writes the row's cells as one line "a | b | c". In a table nested
// in a cell, the row joins the text of the outer cell instead.
func (c *converter) endRow(t *table) {
	c.endCell(t)
	if len(t.cells) == 0 {
		return
	}
	row := joinCells(t.cells)
	t.cells = t.cells[:0]
	if len(c.tables) > 1 {
		outer := &c.tables[len(c.tables)-2]
		if outer.inCell {
			outer.cell, outer.space = appendText(outer.cell, []byte(row), outer.space || len(outer.cell) > 0), false
			return
		}
	}
	c.newline()
	c.flags |= flagRow | t.flags
	c.buf = append(c.buf, row...)
	c.newline()
}

// joinCells joins the non-empty cells of a row with " | ". Cells that only
// carry a number's sign or unit ("$", "(", ")", "%") join the number they
// belong to, as they read on the page.
func joinCells(cells []string) string {
	var b strings.Builder
	glue := false // the previous cell was "$" or "(" and sticks to this one
	for i, s := range cells {
		switch {
		case i == 0:
		case glue || isSuffixCell(s):
		default:
			b.WriteString(" | ")
		}
		b.WriteString(s)
		glue = s == "$" || s == "(" || s == "($" || s == "$(" || s == "€" || s == "£"
	}
	return b.String()
}

func isSuffixCell(s string) bool {
	return s == ")" || s == "%" || s == ")%" || s == "%)"
}

// text adds the text of a text token.
func (c *converter) text(s []byte) {
	if t := c.top(); t != nil && t.inCell {
		if len(t.cell) == 0 && len(t.cells) == 0 && hasText(s) && c.link > 0 {
			t.flags |= flagLink
		}
		t.cell, t.space = appendTextSpace(t.cell, s, t.space)
		return
	}
	for c.pre > 0 {
		// Preformatted text keeps its line breaks.
		i := bytes.IndexByte(s, '\n')
		if i < 0 {
			break
		}
		c.text(s[:i])
		c.newline()
		s = s[i+1:]
	}
	if c.link > 0 && len(c.buf) == c.lineStart && hasText(s) {
		c.flags |= flagLink
	}
	c.buf, c.space = appendTextSpace(c.buf, s, c.space)
}

// hasText reports whether s holds anything but white space.
func hasText(s []byte) bool {
	for len(s) > 0 {
		r, n := utf8.DecodeRune(s)
		if !isSpace(r) {
			return true
		}
		s = s[n:]
	}
	return false
}

// newline ends the current line, if it holds any text.
func (c *converter) newline() {
	c.space = false
	if len(c.buf) == c.lineStart {
		return
	}
	flags := c.flags
	if c.brk {
		flags |= flagBreak
		c.brk = false
	}
	c.lines = append(c.lines, line{start: c.lineStart, end: len(c.buf), flags: flags})
	c.buf = append(c.buf, '\n')
	c.lineStart = len(c.buf)
	c.flags = 0
}

// isSpace reports the characters that count as white space in running
// text: ASCII and Unicode spaces, including the no-break space that
// filings put in headings ("Item&#160;1A.").
func isSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '\f', '\v', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// appendTextSpace appends s to dst with runs of white space collapsed to
// one space and no space at the start. space says a space is pending from
// earlier text; the result says whether one is pending after s.
func appendTextSpace(dst, s []byte, space bool) ([]byte, bool) {
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			i++
			if b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == '\v' {
				space = true
				continue
			}
			if space && len(dst) > 0 && dst[len(dst)-1] != '\n' {
				dst = append(dst, ' ')
			}
			space = false
			dst = append(dst, b)
			continue
		}
		r, n := utf8.DecodeRune(s[i:])
		if isSpace(r) {
			space = true
			i += n
			continue
		}
		if r == 0x200b || r == 0x200c || r == 0x200d || r == 0xad { // zero width, soft hyphen
			i += n
			continue
		}
		if space && len(dst) > 0 && dst[len(dst)-1] != '\n' {
			dst = append(dst, ' ')
		}
		space = false
		dst = append(dst, s[i:i+n]...)
		i += n
	}
	return dst, space
}

// appendText appends s to dst, separated by a space when space is set.
func appendText(dst, s []byte, space bool) []byte {
	if space && len(dst) > 0 {
		dst = append(dst, ' ')
	}
	return append(dst, s...)
}

var (
	metaCharset = regexp.MustCompile(`(?i)<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9_.:-]+)`)
	xmlEncoding = regexp.MustCompile(`(?i)^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9_.:-]+)`)
)

// decode returns doc as UTF-8. A character set declared by a byte-order
// mark, an XML declaration or a meta element in the first 1024 bytes is
// honoured (ASCII is read as UTF-8, its superset); without one, valid UTF-8
// is kept and anything else is read as Windows-1252, the usual encoding of
// older filings.
func decode(doc []byte) []byte {
	if bytes.HasPrefix(doc, []byte("\xef\xbb\xbf")) {
		return doc[3:]
	}
	head := doc
	if len(head) > 1024 {
		head = head[:1024]
	}
	var label string
	if m := xmlEncoding.FindSubmatch(head); m != nil {
		label = string(m[1])
	} else if m := metaCharset.FindSubmatch(head); m != nil {
		label = string(m[1])
	}
	switch strings.ToLower(label) {
	case "", "utf-8", "utf8", "ascii", "us-ascii":
		if isASCII(doc) || utf8.Valid(doc) {
			return doc
		}
		label = "windows-1252"
	}
	enc, name := charset.Lookup(label)
	if enc == nil || name == "utf-8" || isASCII(doc) {
		// Unknown labels are read as UTF-8; the encodings filings declare
		// agree with ASCII on ASCII bytes.
		return doc
	}
	out, err := enc.NewDecoder().Bytes(doc)
	if err != nil {
		return doc
	}
	return out
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
