package sections

import "strings"

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
	breaks := 0
	for i := 0; i <= len(lines); i++ {
		// The start and the end of the document are page breaks too.
		if i > 0 && i < len(lines) && lines[i].flags&flagBreak == 0 {
			continue
		}
		breaks++
		for j := max(0, i-furnitureReach); j < min(len(lines), i+furnitureReach); j++ {
			near[j] = true
		}
	}
	if breaks < 5 {
		return text, lines
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
	if drop == 0 {
		return text, lines
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
		if len(out) > 0 {
			b.WriteByte('\n')
		}
		start := b.Len()
		b.WriteString(text[l.start:l.end])
		out = append(out, line{start: start, end: b.Len(), flags: l.flags | carry})
		carry = 0
	}
	return b.String(), out
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
	toc := link && (strings.EqualFold(s, "table of contents") || strings.EqualFold(s, "index") || strings.EqualFold(s, "back to contents"))
	if !digits && !toc {
		return "", false
	}
	return string(k), true
}
