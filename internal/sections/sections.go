// Package sections cuts the primary document of a 10-K or 10-Q into its
// Item sections as plain text.
//
// [ParseItem] reads an item argument the way people write it ("1a", "Item
// 7A", "part ii item 1a"); [Parse] turns the document (HTML, inline XBRL
// included) into lines of text and finds the Item headings;
// [Document.Section] returns the text of one Item, from its heading to the
// next Item heading, and [Document.Sections] the whole text of every Item
// found, in document order. Errors match [ErrInvalidArgument] (an item or
// limit that cannot be answered) or [ErrSectionNotFound] (a valid item the
// document has no section for).
//
// # Text
//
// The inline-XBRL header, hidden elements, scripts and styles are dropped;
// block elements end a line; a table row becomes one line "a | b | c"
// (empty cells dropped, "$", "(", ")" and "%" joined to their number);
// white space is collapsed and entities decoded; a declared character set
// is honoured. Running page headers and footers are removed: lines next to
// page breaks that recur at three or more of them and carry a page number
// ("Apple Inc. | 2024 Form 10-K | 12", "49") or are a "Table of Contents"
// link. A paragraph cut in two by a page break is one line again.
//
// # Headings
//
// An Item heading is a line that starts with "Item" and a number (after an
// optional "Part II,"), in any case, with any punctuation or spaces between
// label and title, followed by nothing (the title is then the next line), a
// title, or the Item's usual title and the section's first sentence. A
// title that goes on in lower case after the Item's usual title is a
// heading only when all its words are words of that Item's title, as in
// sentence case ("Item 7. Management’s discussion and analysis of results
// of operations and financial condition") or in a filer's own wording
// ("Item 5. Market for the Registrant’s Common Stock, Related Shareholder
// Matters, ..."). A combined heading ("Items 1 and 2. Business and
// Properties") starts the section of each of its Items. These are never
// headings:
//
//   - table-of-contents lines: lines that are links to an anchor of the
//     document, rows whose last cell is a page reference, dot-leader lines,
//     and runs of three or more Item lines in order with nothing but Part
//     lines between them;
//   - cross-references: "Item" not at the start of the line ("see Item 1A
//     of this Form 10-K"), or followed by a lower-case word, a phrase such
//     as "of this", "herein" or "this report", or the Item's title and a
//     lower-case word ("Item 1A. Risk Factors in our annual report");
//   - numbers that are no Item of the form ("Item 2.02", "Item 601(b)").
//     Unlisted letters ("Item 4A") are headings that only end the section
//     before them.
//
// A line "PART II ..." sets the Part of the headings after it (in a 10-Q;
// without one, numbering that starts again begins the other Part); a page
// header that puts the "Table of Contents" link before it on the same line
// ("Table of Contents PART II") is such a line too. A Part line of another
// Part than the section's own ends the section; one that repeats the
// section's Part is a running header and does not.
//
// When an Item still has several candidate headings, the one whose span
// (up to the next candidate of another Item) is longest wins, and headings
// out of the form's order are dropped, the one with the shorter span
// first. A section runs from its heading to the next Item heading; the
// last one ends at the signatures. An Item whose text only points
// elsewhere is returned as written (NVIDIA's 10-K has one sentence under
// Item 8 and its financial statements under Item 15).
//
// A document whose body has no Item headings but lists Items with pages
// (a cross-reference index, as General Electric files) has no sections; its
// [NotFoundError] says so and gives the pages the index lists.
package sections

import (
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits of the text returned by [Document.Section].
const (
	DefaultMaxChars = 20000  // characters returned when the caller gives no limit
	MaxMaxChars     = 100000 // the largest limit accepted
)

// A Document is a primary document turned into text and cut into Item
// sections. It is safe for concurrent use once returned by [Parse].
type Document struct {
	form     string
	kind     Kind
	text     string
	lines    []line
	sections []span      // found sections in document order
	pages    [][2]string // table-of-contents or index page references by item (String form)
	xref     bool        // the body has no headings but an index maps Items to pages
}

// span is one Item's section: lines[start:end].
type span struct {
	item       Item
	known      bool // an Item of the form; other headings ("Item 4A") only end the one before
	title      string
	start, end int
}

// A Section is the text of one Item.
type Section struct {
	Item  Item
	Title string // the heading's title as in the document ("Risk Factors"); "" when it has none
	// Text runs from the heading line to the next Item heading, lines
	// separated by "\n", cut to the limit given to [Document.Section].
	Text      string
	Truncated bool // Text was cut to the limit
	Chars     int  // length of the whole section in characters
	Line      int  // index of the heading line in [Document.Text], counted from 0
}

// Parse converts a primary document of a filing of the given form into
// text and finds its Item sections. A form without 10-K or 10-Q Items is
// an error matching [ErrSectionNotFound]; any bytes are accepted as a
// document (a document without headings has no sections).
func Parse(form string, doc []byte) (*Document, error) {
	return parse(form, doc, opts{})
}

func parse(form string, doc []byte, o opts) (*Document, error) {
	k := FormKind(form)
	if k == Unsupported {
		return nil, &NotFoundError{Form: form, Reason: ReasonForm}
	}
	text, lines := toText(doc)
	text, lines = dropFurniture(text, lines)
	d := &Document{form: form, kind: k, text: text, lines: lines}
	d.split(o)
	return d, nil
}

// opts hold switches that tests use to plant faults.
type opts struct {
	keepTOC       bool // take table-of-contents lines for headings
	keepCrossRefs bool // take cross-references at the start of a line for headings
	anyPartEnds   bool // let any Part line end a section, even one repeating its own Part
}

// Text returns the whole document as text, lines separated by "\n".
func (d *Document) Text() string { return d.text }

// Items returns the Items found in the document, in document order.
func (d *Document) Items() []Item {
	var out []Item
	for _, s := range d.sections {
		if s.known {
			out = append(out, s.item)
		}
	}
	return out
}

// Section returns the text of one Item, at most maxChars characters of it
// (0 means [DefaultMaxChars]; more than [MaxMaxChars] or less than 0 is an
// error matching [ErrInvalidArgument]). An Item without a heading in the
// document is an error matching [ErrSectionNotFound]; a
// [*NotFoundError] says whether the document uses a cross-reference index
// instead of Item headings.
func (d *Document) Section(item Item, maxChars int) (*Section, error) {
	if maxChars == 0 {
		maxChars = DefaultMaxChars
	}
	if maxChars < 0 || maxChars > MaxMaxChars {
		return nil, &ArgumentError{Arg: strconv.Itoa(maxChars), Msg: "max chars must be 1 to 100000"}
	}
	if d.kind == Annual {
		item.Part = ""
	}
	for _, s := range d.sections {
		if !s.known || s.item != item {
			continue
		}
		text := d.text[d.lines[s.start].start:d.lines[s.end-1].end]
		sec := &Section{Item: s.item, Title: s.title, Line: s.start, Chars: utf8.RuneCountInString(text)}
		sec.Text, sec.Truncated = truncate(text, maxChars)
		return sec, nil
	}
	e := &NotFoundError{Form: d.form, Item: item, Found: d.Items()}
	for _, p := range d.pages {
		if p[0] == item.String() {
			e.Pages = p[1]
		}
	}
	switch {
	case d.xref && len(e.Found) == 0:
		e.Reason = ReasonCrossReference
	case len(e.Found) == 0:
		e.Reason = ReasonNoHeadings
	}
	return nil, e
}

// Sections returns the text of every Item found in the document, whole,
// in document order (the order of [Document.Items]). Items under one
// combined heading ("Items 1 and 2") each have the heading's whole text.
func (d *Document) Sections() []Section {
	var out []Section
	for _, s := range d.sections {
		if !s.known {
			continue
		}
		text := d.text[d.lines[s.start].start:d.lines[s.end-1].end]
		out = append(out, Section{Item: s.item, Title: s.title, Text: text, Chars: utf8.RuneCountInString(text), Line: s.start})
	}
	return out
}

// truncate cuts s to at most n characters, at a line or word end when one
// is near the limit.
func truncate(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	cut, count := 0, 0
	for cut < len(s) && count < n {
		_, size := utf8.DecodeRuneInString(s[cut:])
		cut += size
		count++
	}
	if cut == len(s) {
		return s, false
	}
	t := s[:cut]
	if i := strings.LastIndexAny(t, "\n "); i > 0 && cut-i < 200 {
		t = t[:i]
	}
	return t, true
}

// cand is a candidate Item heading.
type cand struct {
	line    int
	part    string   // "I".."IV" from the heading itself or the Part line before it
	number  string   // "1A"
	also    []string // the other numbers of a combined heading ("Items 1 and 2")
	title   string
	pages   string // last cell of a table-of-contents row
	link    bool   // the line is a link to an anchor of the document
	run     bool   // one of three or more Item lines in a row
	ord     int    // position in the form's order
	item    Item
	known   bool
	ownPart string // the Part the Item belongs to
}

func (c *cand) toc() bool { return c.link || c.pages != "" || c.run }

// split finds the sections of the document.
func (d *Document) split(o opts) {
	cands, signatures := d.candidates(o)
	if len(cands) == 0 {
		return
	}
	// Three or more Item lines in a row, in the form's order, are a table
	// of contents or an index.
	for i := 0; i < len(cands); {
		j := i + 1
		for j < len(cands) && cands[j].ord > cands[j-1].ord && d.adjacent(cands[j-1].line, cands[j].line) {
			j++
		}
		if j-i >= 3 {
			for k := i; k < j; k++ {
				cands[k].run = true
			}
		}
		i = j
	}
	for _, c := range cands {
		if c.pages != "" && c.known {
			d.pages = append(d.pages, [2]string{c.item.String(), c.pages})
		}
	}
	// The pool of each Item: lines that are not table-of-contents lines;
	// when there are none, lines that are only links (some filers link
	// their headings back to the table of contents).
	pool := make([]cand, 0, len(cands))
	byOrd := map[int][]cand{}
	for _, c := range cands {
		byOrd[c.ord] = append(byOrd[c.ord], c)
	}
	anyBody := false
	for _, cs := range byOrd {
		var keep []cand
		for _, c := range cs {
			if !c.toc() || o.keepTOC {
				keep = append(keep, c)
			}
		}
		if len(keep) == 0 {
			for _, c := range cs {
				if c.pages == "" && !c.run {
					keep = append(keep, c)
				}
			}
		}
		if len(keep) > 0 && keep[0].known {
			anyBody = true
		}
		pool = append(pool, keep...)
	}
	if !anyBody {
		// No Item headings in the body: a document that lists Items with
		// pages, or names its cross-reference index, maps Items to pages.
		d.xref = len(d.pages) > 0 || indexFold([]byte(d.text), "cross reference index") >= 0 ||
			indexFold([]byte(d.text), "cross-reference index") >= 0
	}
	sort.Slice(pool, func(i, j int) bool { return pool[i].line < pool[j].line })
	chosen := longestPerItem(d, pool)
	chosen = inOrder(d, chosen)
	for i, c := range chosen {
		end := len(d.lines)
		if i+1 < len(chosen) {
			end = chosen[i+1].line
		} else {
			for _, s := range signatures {
				if s > c.line {
					end = s
					break
				}
			}
		}
		// A Part heading of another Part ends the section (with whatever
		// introduces that Part); one repeating the section's own Part is a
		// running header.
		for i := c.line + 1; i < end; i++ {
			if p, ok := partLine(d.lineText(i)); ok && (p != c.ownPart || o.anyPartEnds) {
				end = i
				break
			}
		}
		// A running header right before the next heading is not part of
		// the section.
		for end-1 > c.line && d.isPartLine(end-1) {
			end--
		}
		title := c.title
		if title == "" && c.line+1 < end {
			if next := d.lineText(c.line + 1); utf8.RuneCountInString(next) <= 150 {
				title = next
			}
		}
		d.sections = append(d.sections, span{item: c.item, known: c.known, title: title, start: c.line, end: end})
		for _, n := range c.also {
			// A combined heading is the section of each of its Items.
			if it, _, ok := lookup(d.kind, c.item.Part, n); ok {
				d.sections = append(d.sections, span{item: it, known: true, title: title, start: c.line, end: end})
			}
		}
	}
}

// spans returns, for each candidate of pool (in document order), the
// length in bytes from it to the next candidate of another Item.
func spans(d *Document, pool []cand) []int {
	out := make([]int, len(pool))
	next := len(d.text)
	for i := len(pool) - 1; i >= 0; i-- {
		if i+1 < len(pool) && pool[i+1].ord != pool[i].ord {
			next = d.lines[pool[i+1].line].start
		}
		out[i] = next - d.lines[pool[i].line].start
	}
	return out
}

// longestPerItem keeps, for each Item, the candidate with the longest span.
func longestPerItem(d *Document, pool []cand) []cand {
	span := spans(d, pool)
	best := map[int]int{} // ord -> index in pool
	for i := range pool {
		if b, ok := best[pool[i].ord]; !ok || span[i] > span[b] {
			best[pool[i].ord] = i
		}
	}
	out := make([]cand, 0, len(best))
	for i, c := range pool {
		if best[c.ord] == i {
			out = append(out, c)
		}
	}
	return out
}

// inOrder drops headings that break the order of the form's Items: of two
// headings out of order, the one with the shorter span goes.
func inOrder(d *Document, chosen []cand) []cand {
	for {
		bad := -1
		for i := 0; i+1 < len(chosen); i++ {
			if chosen[i].ord >= chosen[i+1].ord {
				bad = i
				break
			}
		}
		if bad < 0 {
			return chosen
		}
		span := spans(d, chosen)
		drop := bad
		if span[bad+1] < span[bad] {
			drop = bad + 1
		}
		chosen = append(chosen[:drop], chosen[drop+1:]...)
	}
}

// adjacent reports whether only Part lines (or table-of-contents column
// headers) separate lines a and b.
func (d *Document) adjacent(a, b int) bool {
	for i := a + 1; i < b; i++ {
		if !d.isPartLine(i) && !strings.EqualFold(d.lineText(i), "page") {
			return false
		}
	}
	return true
}

func (d *Document) lineText(i int) string { return d.text[d.lines[i].start:d.lines[i].end] }

func (d *Document) isPartLine(i int) bool {
	_, ok := partLine(d.lineText(i))
	return ok
}

// candidates returns the lines that look like Item headings, with the Part
// each falls under, and the lines that start the signatures.
func (d *Document) candidates(o opts) ([]cand, []int) {
	var cands []cand
	var signatures []int
	part := ""
	lastNum := -1 // number and letter of the last heading since the last Part line
	for i, l := range d.lines {
		s := d.text[l.start:l.end]
		switch s[0] {
		case 'I', 'i', 'P', 'p', 'T', 't':
		case 'S', 's':
			if isSignatures(s) && l.flags&flagLink == 0 {
				signatures = append(signatures, i)
			}
			continue
		default:
			continue
		}
		if p, ok := partLine(s); ok {
			part, lastNum = p, -1
			continue
		}
		c, ok := parseHeading(s, l.flags&flagRow != 0)
		if c.number != "" {
			switch title, next := d.usualTitle(c, part); {
			case title == "":
			case next == 0 || unicode.IsUpper(next):
				// "Item 4. Mine Safety Disclosures Not applicable.": a
				// heading with the section's first words on the same line.
				if !ok {
					c.title, ok = title, true
				}
			case unicode.IsLower(next):
				// "Item 1A. Risk Factors in our annual report ...": a
				// cross-reference quoting the title.
				ok = false
			}
		}
		if !ok && !(o.keepCrossRefs && c.number != "") {
			continue
		}
		c.line = i
		c.link = l.flags&flagLink != 0
		switch {
		case c.part != "":
			part, lastNum = c.part, -1
		case d.kind == Quarterly:
			// In a 10-Q without a Part line before the heading (or with
			// Part II's missing), Items 1A, 5 and 6 exist only in Part
			// II, and numbering that starts again means the other Part.
			c.part = part
			n := ordOf(Annual, "", c.number)
			if c.part == "" {
				c.part = "I"
			}
			if c.part == "I" && (c.number == "1A" || c.number == "5" || c.number == "6") {
				c.part = "II"
			} else if lastNum >= 0 && n <= lastNum {
				c.part = map[string]string{"I": "II", "II": "I"}[c.part]
			}
			part = c.part
		default:
			c.part = part
		}
		if !d.classify(&c) {
			continue
		}
		lastNum = ordOf(Annual, "", c.number)
		cands = append(cands, c)
	}
	return cands, signatures
}

// usualTitle returns the Item's usual title as written at the start of the
// text after a heading's label, and the character after it (after
// punctuation and spaces; 0 at the end of the line). It returns "" when
// the text does not start with a usual title.
func (d *Document) usualTitle(c cand, part string) (string, rune) {
	if c.part != "" {
		part = c.part
	}
	rest := strings.ReplaceAll(c.title, "’", "'")
	items := itemsOf(d.kind)
	for i := range items {
		in := &items[i]
		if in.number != c.number || d.kind == Quarterly && part != "" && in.part != part {
			continue
		}
		for _, t := range in.titles {
			if !hasPrefixFold(rest, t) || len(rest) > len(t) && (isLetter(rest[len(t)]) || isDigit(rest[len(t)])) {
				continue
			}
			var next rune
			if after := strings.TrimLeft(rest[len(t):], " .:;-–—"); after != "" && !hasPrefixFold(after, "and ") {
				next, _ = utf8.DecodeRuneInString(after)
			} else if after != "" {
				next = 'A' // "Business and Properties": titles joined, no sentence
			}
			if unicode.IsLower(next) && in.onlyTitleWords(rest) {
				// The title in sentence case or in other words of its
				// own ("Management's discussion and analysis of results
				// of operations and financial condition", "Market for
				// the Registrant's Common Stock, Related Shareholder
				// Matters, ..."): the whole line is the title.
				return c.title, 0
			}
			// The title as written: its first len(t) characters (each
			// apostrophe replaced was one character too).
			n := 0
			for i := range c.title {
				if n == len(t) {
					return c.title[:i], next
				}
				n++
			}
			return c.title, next
		}
	}
	return "", 0
}

// classify sets the candidate's Item and order; it reports false for
// numbers no Item of the form has.
func (d *Document) classify(c *cand) bool {
	n := 0
	for _, b := range []byte(c.number) {
		if isDigit(b) {
			n = n*10 + int(b-'0')
		}
	}
	switch d.kind {
	case Annual:
		if n < 1 || n > 16 {
			return false
		}
		it, info, ok := lookup(Annual, "", c.number)
		c.item, c.known, c.ownPart = it, ok, c.part
		if ok {
			c.ownPart = info.part
		} else {
			c.item = Item{Number: c.number}
		}
	case Quarterly:
		if c.part != "I" && c.part != "II" || n < 1 || n > 6 {
			return false
		}
		it, _, ok := lookup(Quarterly, c.part, c.number)
		c.item, c.known, c.ownPart = it, ok, c.part
		if !ok {
			c.item = Item{Part: c.part, Number: c.number}
		}
	}
	c.ord = ordOf(d.kind, c.part, c.number)
	return true
}

// ordOf orders Items: by Part in a 10-Q, then number, then letter.
func ordOf(k Kind, part, number string) int {
	n, letter := 0, 0
	for _, b := range []byte(number) {
		if isDigit(b) {
			n = n*10 + int(b-'0')
		} else {
			letter = int(b-'A') + 1
		}
	}
	o := n*100 + letter
	if k == Quarterly && part == "II" {
		o += 10000
	}
	return o
}

// isSignatures reports whether s is the heading of the signatures page.
func isSignatures(s string) bool {
	s = strings.TrimRight(s, " .:")
	return strings.EqualFold(s, "signatures") || strings.EqualFold(s, "signature")
}

// partLine recognises a Part heading ("PART II", "Part I — Financial
// Information", "PART II. OTHER INFORMATION") and returns its numeral. A
// running header that joins the page's "Table of Contents" link and the
// Part on one line ("Table of Contents PART II") is a Part line too.
func partLine(s string) (string, bool) {
	if rest, ok := strings.CutPrefix(s, "Table of Contents"); ok || hasPrefixFold(s, "table of contents") {
		if !ok {
			rest = s[len("table of contents"):]
		}
		s = strings.TrimLeft(rest, " |")
	}
	if len(s) < 6 || len(s) > 100 || !hasPrefixFold(s, "part") {
		return "", false
	}
	rest := strings.TrimLeft(s[4:], " ")
	if len(rest) == len(s)-4 {
		return "", false // "Partners"
	}
	p, n := romanPrefix(strings.ToUpper(rest[:min(len(rest), 4)]))
	if p == "" {
		return "", false
	}
	rest = trimSeparators(rest[n:])
	if rest == "" {
		return p, true
	}
	if hasPrefixFold(rest, "item") {
		return "", false // "Part II, Item 1A": a heading, not a Part line
	}
	r, _ := utf8.DecodeRuneInString(rest)
	if unicode.IsLower(r) || isDigit(rest[0]) {
		return "", false // "Part II of this report", "Part I 12"
	}
	return p, true
}

// parseHeading reads an Item heading line: "Item 1A. Risk Factors",
// "ITEM 7 - MANAGEMENT'S DISCUSSION ...", "Part II, Item 1. Legal
// Proceedings", "Item 1A. | Risk Factors | 13" (a table-of-contents row,
// returned with its pages).
func parseHeading(s string, row bool) (cand, bool) {
	var c cand
	p := s
	if hasPrefixFold(p, "part") {
		rest := strings.TrimLeft(p[4:], " ")
		r, n := romanPrefix(strings.ToUpper(rest[:min(len(rest), 4)]))
		if r == "" || len(rest) == len(p)-4 {
			return c, false
		}
		c.part = r
		p = trimSeparators(rest[n:])
	}
	if !hasPrefixFold(p, "item") {
		return c, false
	}
	p = p[4:]
	plural := p != "" && (p[0] == 's' || p[0] == 'S') && len(p) > 1 && p[1] == ' '
	if plural {
		p = p[1:] // "Items 1 and 2. Business and Properties"
	} else if p != "" && isLetter(p[0]) {
		return c, false // "Itemized"
	}
	number, p, ok := itemNumber(strings.TrimLeft(p, " "))
	if !ok {
		return c, false
	}
	c.number = number
	for plural {
		// The other Items of a combined heading: ", 3", " and 2", " & 2".
		q := strings.TrimLeft(p, " ,")
		if len(q) > 4 && strings.EqualFold(q[:4], "and ") {
			q = q[4:]
		} else if len(q) > 2 && q[:2] == "& " {
			q = q[2:]
		} else if q == p {
			break
		}
		more, after, ok := itemNumber(strings.TrimLeft(q, " "))
		if !ok {
			break
		}
		c.also, p = append(c.also, more), after
	}
	if plural && len(c.also) == 0 {
		return c, false // "Items 7 of ..."
	}
	rest := trimSeparators(p)
	if row {
		if i := strings.LastIndex(rest, " | "); i >= 0 && pageLike(rest[i+3:]) {
			c.pages = rest[i+3:]
			rest = rest[:i]
		} else if pageLike(rest) {
			c.pages, rest = rest, ""
		}
	} else if i := strings.Index(rest, "...."); i >= 0 {
		// A dot-leader table of contents: "Item 1A. Risk Factors ...... 13".
		c.pages = strings.TrimSpace(strings.TrimLeft(rest[i:], ". "))
		if c.pages == "" {
			c.pages = "?"
		}
		rest = strings.TrimSpace(rest[:i])
	}
	c.title = rest
	if rest == "" {
		return c, true
	}
	if titleLike(rest) {
		return c, true
	}
	return c, false
}

// itemNumber reads an Item number with its letter ("1A") at the start of
// p and returns it in upper case with the rest of p. It fails on numbers
// no Item has the shape of ("01", "123", "2.02", "601(b)", "1Business").
func itemNumber(p string) (number, rest string, ok bool) {
	n := 0
	for n < len(p) && isDigit(p[n]) {
		n++
	}
	if n == 0 || n > 2 || p[0] == '0' {
		return "", p, false
	}
	number, p = p[:n], p[n:]
	if p != "" && isLetter(p[0]) {
		if len(p) > 1 && isLetter(p[1]) {
			return "", p, false // "Item 1Business"
		}
		number += strings.ToUpper(p[:1])
		p = p[1:]
	}
	if p != "" && (isDigit(p[0]) || p[0] == '.' && len(p) > 1 && isDigit(p[1]) || p[0] == '(') {
		return "", p, false // "Item 2.02" (8-K), "Item 601(b)"
	}
	return number, p, true
}

// titleLike reports whether the text after an Item label reads as a
// heading's title rather than the rest of a sentence.
func titleLike(rest string) bool {
	r, _ := utf8.DecodeRuneInString(rest)
	if unicode.IsLower(r) {
		return false // "Item 1A of this Form 10-K", "Item 7 above"
	}
	first := strings.ToLower(rest)
	if i := strings.IndexAny(first, " ,;:"); i >= 0 {
		first = first[:i]
	}
	switch first {
	case "of", "in", "to", "and", "or", "above", "below", "herein", "hereof", "under", "for",
		"as", "is", "are", "was", "were", "which", "that", "this", "the", "on", "within", "contained", "included":
		return false
	}
	if utf8.RuneCountInString(rest) > 200 {
		return false
	}
	low := strings.ToLower(rest)
	for _, x := range []string{" of this ", "this form 10-", "this report", "this annual report", "this quarterly report", "herein", " see "} {
		if strings.Contains(low, x) {
			return false
		}
	}
	return true
}

// pageLike reports whether a table cell is a page reference: "13",
// "4-7, 9-11, 74-75", "F-1", "ii", "Page 5".
func pageLike(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 40 {
		return false
	}
	low := strings.ToLower(s)
	low = strings.TrimPrefix(low, "pages")
	low = strings.TrimPrefix(low, "page")
	digits, roman := 0, 0
	for _, r := range low {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r == 'i' || r == 'v' || r == 'x':
			roman++
		case r == ' ' || r == ',' || r == '-' || r == '–' || r == '—' || r == 'f' || r == '.' || r == '&':
		default:
			return false
		}
	}
	return digits > 0 || roman > 0 && roman == len(strings.TrimSpace(low))
}

// trimSeparators removes the punctuation and spaces between a label and
// its title.
func trimSeparators(s string) string {
	return strings.TrimLeft(s, " .,:;-–—|")
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
