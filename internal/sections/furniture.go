package sections

import (
	"strings"
	"unicode/utf8"
)

// furnitureReach is how many lines on each side of a page break can be a
// running header or footer.
const furnitureReach = 2

// dropFurniture removes running page headers and footers: lines next to a
// page break whose text, digits aside, recurs at three or more page breaks
// and that carry a page number or are a "Table of Contents" link
// ("Apple Inc. | 2024 Form 10-K | 12", "49", "Table of Contents"). Item
// and Part headings are never removed.
func dropFurniture(text string, lines []line) (string, []line) {
	near := make([]bool, len(lines))
	for i := 0; i <= len(lines); i++ {
		// The start and the end of the document are page breaks too.
		if i > 0 && i < len(lines) && lines[i].flags&flagBreak == 0 {
			continue
		}
		for j := max(0, i-furnitureReach); j < min(len(lines), i+furnitureReach); j++ {
			near[j] = true
		}
	}
	count := map[string]int{}
	keys := make([]string, len(lines))
	for i, l := range lines {
		if !near[i] {
			continue
		}
		s := text[l.start:l.end]
		if len(s) > 100 {
			continue
		}
		k, ok := furnitureKey(s, l.flags&flagLink != 0)
		if !ok {
			continue
		}
		keys[i] = k
		count[k]++
	}
	drop := 0
	for i := range lines {
		if keys[i] != "" && count[keys[i]] >= 3 {
			drop++
		} else {
			keys[i] = ""
		}
	}
	var b strings.Builder
	b.Grow(len(text))
	out := make([]line, 0, len(lines)-drop)
	var carry uint8
	for i, l := range lines {
		if keys[i] != "" {
			carry |= l.flags & flagBreak
			continue
		}
		s := text[l.start:l.end]
		flags := l.flags | carry
		carry = 0
		if n := len(out); n > 0 && flags&flagBreak != 0 && continues(text, out[n-1], s, flags) {
			// A paragraph that a page break cut in two is one line again.
			b.WriteByte(' ')
			b.WriteString(s)
			out[n-1].end = b.Len()
			continue
		}
		if len(out) > 0 {
			b.WriteByte('\n')
		}
		start := b.Len()
		b.WriteString(s)
		out = append(out, line{start: start, end: b.Len(), flags: flags})
	}
	return b.String(), out
}

// continues reports whether s, the first line of a page, carries on the
// sentence of prev, the last line of the page before: prev is a paragraph
// that does not end a sentence, s starts with a lower-case letter, and
// neither is a table row.
func continues(text string, prev line, s string, flags uint8) bool {
	if flags&flagRow != 0 || prev.flags&flagRow != 0 || s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	p := text[prev.start:prev.end]
	if len(p) < 60 {
		return false // a heading or a short line, not a paragraph
	}
	r, _ := utf8.DecodeLastRuneInString(p)
	return !strings.ContainsRune(".:;!?”\")", r)
}

// furnitureKey returns the text of a possible running header or footer
// with its digits replaced by '#', and whether the line can be one at
// all: it must carry a number or be a table-of-contents link, and must
// not be an Item or Part heading.
func furnitureKey(s string, link bool) (string, bool) {
	if hasPrefixFold(s, "item") || hasPrefixFold(s, "part") {
		return "", false
	}
	digits := false
	k := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isDigit(c) {
			if !digits || k[len(k)-1] != '#' {
				k = append(k, '#')
			}
			digits = true
			continue
		}
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		k = append(k, c)
	}
	// A page number in roman numerals: "Acme Corp. | Form 10-Q | ii".
	if i := strings.LastIndexAny(string(k), " |"); i >= 0 && romanNumber(string(k[i+1:])) {
		k = append(k[:i+1], '#')
		digits = true
	}
	toc := link && (strings.EqualFold(s, "table of contents") || strings.EqualFold(s, "index") || strings.EqualFold(s, "back to contents"))
	if !digits && !toc {
		return "", false
	}
	return string(k), true
}

// romanNumber reports whether s is a lower-case roman numeral page number.
func romanNumber(s string) bool {
	if s == "" || len(s) > 6 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] != 'i' && s[i] != 'v' && s[i] != 'x' {
			return false
		}
	}
	return true
}
