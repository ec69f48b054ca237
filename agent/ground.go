package agent

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file is the numeric grounding check: every figure of an answer must
// be written, with the same value, in a source the answer cites. It is a
// pure function of its arguments, kept apart from the tool loop so that it
// can be read and tested on its own.

// A Kind says what a number measures.
type Kind string

// The kinds of numbers the grounding check knows.
const (
	// Amount: money, counts, per-share amounts, ratios ("$391,035 million",
	// "23,301", "$6.11", "1.5x"). A currency sign is decoration: "$5" and
	// "5" are the same amount (table cells after the first row of a
	// financial table carry no "$").
	Amount Kind = "amount"
	// Percent: "46.2%", "12 percent", "(3)%", "2.3 percentage points", "2.3 pts".
	Percent Kind = "percent"
	// BasisPoints: "25 bps", "25 basis points".
	BasisPoints Kind = "basis_points"
	// Date: a calendar day ("September 28, 2024", "Sept. 28, 2024",
	// "28 September 2024", "2024-09-28", "9/28/2024"), or a month and day
	// without a year ("September 28"), which matches that day of any year.
	Date Kind = "date"
)

// A Source is text an answer cites: a chunk of a filing or the financial
// facts of one filing.
type Source struct {
	ID   string // how the answer cites it: "c:<chunk id>" or "f:<accession>"
	Text string
}

// A Number is one figure of an answer.
type Number struct {
	Text   string // as written in the answer, e.g. "$391,035 million" or "(3)%"
	Offset int    // byte offset of Text in the answer
	Kind   Kind
	// Value is the figure with its scale applied, as an exact decimal:
	// "391035000000" for "$391,035 million", "-3" for "(3)%", "6.11" for
	// "$6.11"; for a date "2024-09-28", or "--09-28" for a month and day.
	Value string
	// Source is the ID of the first cited source that holds the value; ""
	// when none does.
	Source string
	// Hint says, for an ungrounded number, what the cited sources hold
	// instead when they hold something close (the value with the other
	// sign, the digits without a stated unit); "" otherwise.
	Hint string
}

// Grounding is the outcome of [Ground]: the numbers of an answer, split
// into those some cited source holds and those none does.
type Grounding struct {
	Numbers    []Number // every number checked, in the answer's order
	Grounded   []Number
	Ungrounded []Number
}

// OK reports whether every number of the answer is grounded.
func (g Grounding) OK() bool { return len(g.Ungrounded) == 0 }

// Ground checks every number of answer against sources, which should be
// the sources the answer cites (and only those). A number is grounded when
// a source holds the same value: the same digits after scale words and
// suffixes are applied, the same sign, a compatible kind. A rounding or
// any other derived figure is not grounded, on purpose: "$99,779M" in a
// source grounds "$99,779 million", "$99.779 billion" and
// "$99,779,000,000", but not "~$99.8B".
//
// What counts as a number:
//
//   - Digits with comma separators and decimals: "1,234,567", "6.11".
//   - A currency sign ($, US$, €, £, ¥) before or after a minus sign.
//   - Negatives: a leading "-" or "−", or parentheses: "(1,234)", "$(1,234)",
//     "($1.2 billion)", "(3)%".
//   - A scale word or suffix: thousand, million, billion, trillion (also
//     plural), mn, bn, tn, mm; K, M, B, T attached to a number that has a
//     currency sign, separators or decimals ("$99,779M", "1.2B"; a bare
//     "10K" is the form name).
//   - Percent ("%", "percent", "per cent", "pct", "percentage points",
//     "pts") and basis points ("bps", "basis points").
//   - Dates in the forms listed at [Date].
//
// What is not a number:
//
//   - Citation markup "[c:…]" and "[f:…]", URLs, accession numbers
//     (0000320193-24-000123) and numbers with a leading zero (CIKs).
//   - A bare year: four digits from 1900 to 2100 with no sign, currency,
//     separator, decimals, scale or percent ("fiscal 2024"). A year that is
//     a figure is written as one ("$2,024", "2,024 stores") and is checked.
//     Two-digit years ("'24", "2024-25") are skipped as well.
//   - Identifiers: a number glued to letters ("Q3", "FY2024", "1A", "13F",
//     "3rd", "COVID-19", "S-1"), form names ("10-K", "8-K", "20-F"), a
//     number after a reference word (Item, Part, Note, Section, Rule, Form,
//     Exhibit, Schedule, Article, Page, Topic, ASC, ASU, CIK, Level, Tier,
//     Table, Footnote, No.), and short numbers chained to one ("Items 7 and
//     7A", "Notes 1, 4 and 9").
//   - List markers and footnote marks: "(1)" (one or two digits in
//     parentheses, nothing else, unless it is a whole table cell "| (1) |",
//     a negative) and "1." or "1)" opening a line.
//   - Digits the scan cannot read as one number ("1.2.3", "1,2345").
//
// Counts written as words ("three segments") are not numbers.
//
// A source is read by the same rules, so a year in a source never grounds
// a figure such as "$2,024". A source that states its unit ("(dollars in millions)", "(In thousands)",
// "$ in millions") gives each of its numbers that carries no scale word of
// its own a second value at that scale: "Total net sales | $391,035" under
// "(dollars in millions)" grounds both "$391,035" and "$391,035 million".
// The unit stated in one source does not apply to another. A number with
// its own scale word has only that value: "$391,035 million" in a source
// does not ground "$391,035".
//
// Kinds match when they are the same, and also a percentage with a bare
// number (no currency sign, no scale), either way round: a table of
// percentages of revenue writes "%" in its first row only.
func Ground(answer string, sources []Source) Grounding {
	held := map[string]string{}     // key → first source ID holding it
	bareHeld := map[string]string{} // amount key of a number without a scale of its own → source ID
	for _, s := range sources {
		scales := declaredScales(s.Text)
		for _, n := range scan(s.Text) {
			for _, k := range n.sourceKeys(scales) {
				if _, ok := held[k]; !ok {
					held[k] = s.ID
				}
			}
			if n.kind == Amount && n.scale == 0 {
				k := "a:" + n.value
				if _, ok := bareHeld[k]; !ok {
					bareHeld[k] = s.ID
				}
			}
		}
	}
	var g Grounding
	for _, n := range scan(answer) {
		num := Number{Text: n.text, Offset: n.start, Kind: n.kind, Value: n.value}
		for _, k := range n.answerKeys() {
			if id, ok := held[k]; ok {
				num.Source = id
				break
			}
		}
		if num.Source == "" {
			num.Hint = hint(n, held, bareHeld)
			g.Ungrounded = append(g.Ungrounded, num)
		} else {
			g.Grounded = append(g.Grounded, num)
		}
		g.Numbers = append(g.Numbers, num)
	}
	return g
}

// hint explains an ungrounded number when the sources hold something
// close to it.
func hint(n token, held, bareHeld map[string]string) string {
	if n.kind == Date {
		return ""
	}
	flipped := n
	flipped.value = negate(n.value)
	if flipped.value != n.value {
		for _, k := range flipped.answerKeys() {
			if _, ok := held[k]; ok {
				if strings.HasPrefix(n.value, "-") {
					return "the cited text has this value only as a positive number"
				}
				return "the cited text has this value only as a negative number, written in parentheses or with a minus sign; write it the same way"
			}
		}
	}
	if n.kind == Amount && n.scale != 0 {
		if _, ok := bareHeld["a:"+n.mantissa]; ok {
			return "the cited text has these digits without a stated unit (such as \"in millions\"): quote them as written, or cite the text that states the unit"
		}
	}
	return ""
}

// token is one number found by scan.
type token struct {
	start, end int
	text       string
	kind       Kind
	value      string // canonical, scale applied
	mantissa   string // canonical, without the scale
	scale      int    // power of ten of the scale word or suffix, 0 without one
	currency   bool
	partial    bool // a date without a year
}

// bare reports whether t is a number with no currency sign, scale or percent.
func (t token) bare() bool { return t.kind == Amount && !t.currency && t.scale == 0 }

// sourceKeys returns the keys under which a number of a source grounds an
// answer's number; scales are the units the source states.
func (t token) sourceKeys(scales []int) []string {
	switch t.kind {
	case Date:
		if t.partial {
			return []string{"d:" + t.value}
		}
		return []string{"d:" + t.value, "d:--" + t.value[5:]}
	case Percent:
		// A percentage grounds the same percentage, and a bare number in
		// the answer ("pb").
		return []string{"p:" + t.value, "pb:" + t.value}
	case BasisPoints:
		return []string{"b:" + t.value}
	}
	keys := []string{"a:" + t.value}
	if t.scale == 0 {
		for _, s := range scales {
			keys = append(keys, "a:"+shift(t.value, s))
		}
	}
	if t.bare() {
		keys = append(keys, "p:"+t.value)
	}
	return keys
}

// answerKeys returns the keys that ground a number of an answer.
func (t token) answerKeys() []string {
	switch t.kind {
	case Date:
		return []string{"d:" + t.value}
	case Percent:
		return []string{"p:" + t.value}
	case BasisPoints:
		return []string{"b:" + t.value}
	}
	if t.bare() {
		return []string{"a:" + t.value, "pb:" + t.value}
	}
	return []string{"a:" + t.value}
}

var (
	// citationRE matches citation markup: "[c:3f9a…]", "[f:0000320193-24-000123]",
	// "[c:a, c:b]".
	citationRE  = regexp.MustCompile(`\[\s*[cfCF]\s*:[^\]\n]*\]`)
	urlRE       = regexp.MustCompile(`(?i)\b(?:https?://|www\.)[^\s<>"'\)\]|]+`)
	accessionRE = regexp.MustCompile(`\b\d{10}-\d{2}-\d{6}\b|\b\d{18}\b`)
	monthNames  = `(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)`
	// Dates, tried in this order; each masks what it matched.
	mdyRE   = regexp.MustCompile(`(?i)\b` + monthNames + `\.?\s+(\d{1,2}),?\s+(\d{4})\b`)
	dmyRE   = regexp.MustCompile(`(?i)\b(\d{1,2})\s+` + monthNames + `\.?,?\s+(\d{4})\b`)
	isoRE   = regexp.MustCompile(`\b(\d{4})-(\d{2})-(\d{2})\b`)
	slashRE = regexp.MustCompile(`\b(\d{1,2})/(\d{1,2})/(\d{4})\b`)
	mdRE    = regexp.MustCompile(`(?i)\b` + monthNames + `\.?\s+(\d{1,2})\b`)
	// scaleRE finds a source's statement of its unit.
	scaleRE = regexp.MustCompile(`(?i)\bin\s+(thousands|millions|billions)\b|\(\s*(thousands|millions|billions)\s*\)`)
)

// declaredScales returns the powers of ten a text states for its numbers.
func declaredScales(text string) []int {
	var out []int
	for _, m := range scaleRE.FindAllStringSubmatch(text, -1) {
		w := strings.ToLower(m[1] + m[2])
		e := map[string]int{"thousands": 3, "millions": 6, "billions": 9}[w]
		if e != 0 && !containsInt(out, e) {
			out = append(out, e)
		}
	}
	return out
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// scan returns the numbers of text in order, by the same rules for an
// answer and a source.
func scan(text string) []token {
	masked := []byte(text)
	mask := func(a, b int) {
		for i := a; i < b; i++ {
			masked[i] = ' '
		}
	}
	for _, re := range []*regexp.Regexp{citationRE, urlRE, accessionRE} {
		for _, m := range re.FindAllIndex(masked, -1) {
			mask(m[0], m[1])
		}
	}
	var out []token
	addDate := func(m []int, y, mo, d int, partial bool) {
		if mo < 1 || mo > 12 || d < 1 || d > daysIn(mo, y, partial) {
			return
		}
		t := token{start: m[0], end: m[1], text: text[m[0]:m[1]], kind: Date, partial: partial}
		if partial {
			t.value = "--" + pad2(mo) + "-" + pad2(d)
		} else {
			t.value = strconv.Itoa(y) + "-" + pad2(mo) + "-" + pad2(d)
		}
		out = append(out, t)
		mask(m[0], m[1])
	}
	for _, m := range mdyRE.FindAllSubmatchIndex(masked, -1) {
		addDate(m, atoi(text[m[6]:m[7]]), month(text[m[2]:m[3]]), atoi(text[m[4]:m[5]]), false)
	}
	for _, m := range dmyRE.FindAllSubmatchIndex(masked, -1) {
		addDate(m, atoi(text[m[6]:m[7]]), month(text[m[4]:m[5]]), atoi(text[m[2]:m[3]]), false)
	}
	for _, m := range isoRE.FindAllSubmatchIndex(masked, -1) {
		addDate(m, atoi(text[m[2]:m[3]]), atoi(text[m[4]:m[5]]), atoi(text[m[6]:m[7]]), false)
	}
	for _, m := range slashRE.FindAllSubmatchIndex(masked, -1) {
		addDate(m, atoi(text[m[6]:m[7]]), atoi(text[m[2]:m[3]]), atoi(text[m[4]:m[5]]), false)
	}
	for _, m := range mdRE.FindAllSubmatchIndex(masked, -1) {
		// "May 5" is a date; "may 5" in running text is a verb and a number.
		if text[m[2]] < 'A' || text[m[2]] > 'Z' {
			continue
		}
		addDate(m, 0, month(text[m[2]:m[3]]), atoi(text[m[4]:m[5]]), true)
	}
	out = append(out, scanNumbers(text, string(masked))...)
	sortTokens(out)
	return out
}

func sortTokens(ts []token) {
	// insertion sort: dates and numbers are each in order already
	for i := 1; i < len(ts); i++ {
		for j := i; j > 0 && ts[j].start < ts[j-1].start; j-- {
			ts[j], ts[j-1] = ts[j-1], ts[j]
		}
	}
}

func daysIn(mo, y int, partial bool) int {
	switch mo {
	case 2:
		if partial || (y%4 == 0 && (y%100 != 0 || y%400 == 0)) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

func month(s string) int {
	s = strings.ToLower(s)
	for i, p := range []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"} {
		if strings.HasPrefix(s, p) {
			return i + 1
		}
	}
	return 0
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func pad2(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// referenceWords are words after which a number names something (an Item,
// a Note, a Level of the fair-value hierarchy) rather than measuring it.
var referenceWords = map[string]bool{
	"item": true, "items": true, "part": true, "parts": true, "note": true, "notes": true,
	"section": true, "sections": true, "rule": true, "rules": true, "form": true, "forms": true,
	"exhibit": true, "exhibits": true, "schedule": true, "schedules": true, "article": true,
	"articles": true, "chapter": true, "chapters": true, "page": true, "pages": true, "topic": true,
	"topics": true, "asc": true, "asu": true, "cik": true, "footnote": true, "footnotes": true,
	"no": true, "nos": true, "level": true, "levels": true, "tier": true, "tiers": true,
	"table": true, "tables": true,
}

// percentWords are the words that make a number a percentage or basis
// points, longest first.
var percentWords = []struct {
	word string
	kind Kind
}{
	{"percentage points", Percent}, {"percentage point", Percent}, {"per cent", Percent},
	{"percent", Percent}, {"pct", Percent}, {"ppts", Percent}, {"pts", Percent}, {"pp", Percent},
	{"basis points", BasisPoints}, {"basis point", BasisPoints}, {"bps", BasisPoints}, {"bp", BasisPoints},
}

// scaleWords maps scale words (lower case) to powers of ten.
var scaleWords = map[string]int{
	"thousand": 3, "thousands": 3, "million": 6, "millions": 6, "mn": 6, "mm": 6,
	"billion": 9, "billions": 9, "bn": 9, "trillion": 12, "trillions": 12, "tn": 12,
}

// scaleSuffixes are the letters that scale a number they are attached to.
var scaleSuffixes = map[string]int{"k": 3, "K": 3, "m": 6, "M": 6, "mm": 6, "mn": 6, "b": 9, "B": 9, "bn": 9, "T": 12, "tn": 12}

// scanNumbers finds the numbers of masked (text with citations, URLs,
// accessions and dates blanked out); text gives the original characters.
func scanNumbers(text, s string) []token {
	var out []token
	chainEnd := -1 // end of the last reference number, for "Items 7 and 7A"
	for i := 0; i < len(s); {
		if !isDigit(s[i]) {
			i++
			continue
		}
		start := i
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		intPart := s[i:j]
		grouped := false
		if len(intPart) <= 3 {
			for j+3 < len(s) && s[j] == ',' && isDigit(s[j+1]) && isDigit(s[j+2]) && isDigit(s[j+3]) && (j+4 == len(s) || !isDigit(s[j+4])) {
				intPart += s[j+1 : j+4]
				j += 4
				grouped = true
			}
		}
		frac := ""
		if j+1 < len(s) && s[j] == '.' && isDigit(s[j+1]) {
			k := j + 1
			for k < len(s) && isDigit(s[k]) {
				k++
			}
			frac = s[j+1 : k]
			j = k
		}
		end := j
		// A separator followed by more digits: not one number ("1.2.3",
		// "1,2345", "2023,2024"). Skip the whole run.
		if end+1 < len(s) && (s[end] == ',' || s[end] == '.') && isDigit(s[end+1]) {
			for end < len(s) && (isDigit(s[end]) || s[end] == ',' || s[end] == '.') {
				end++
			}
			i = end
			continue
		}
		i = end
		t, ok := readNumber(text, s, start, end, intPart, frac, grouped)
		if !ok {
			// Digits glued to letters ("1A", "13F", "3rd"): an identifier,
			// which continues a list of references ("Items 1A and 7").
			if referenceBefore(s, start) || (chainEnd >= 0 && chained(s[chainEnd:start])) {
				chainEnd = t.end
			} else {
				chainEnd = -1
			}
			if t.end > i {
				i = t.end
			}
			continue
		}
		i = t.end
		switch {
		case identifier(s, start, end):
			chainEnd = -1
			continue
		case referenceBefore(s, t.start):
			chainEnd = t.end
			continue
		case chainEnd >= 0 && chained(s[chainEnd:t.start]) && t.bare() && frac == "" && !grouped && len(intPart) <= 3:
			chainEnd = t.end
			continue
		}
		chainEnd = -1
		if leadingZero(intPart) {
			continue
		}
		if t.bare() && frac == "" && !grouped && !strings.HasPrefix(t.value, "-") && isYear(intPart) {
			continue
		}
		if twoDigitYear(s, start, intPart, frac) || listMarker(s, t, start, end, intPart, frac, grouped) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// readNumber reads the decorations around the digits s[start:end]: sign,
// currency, parentheses, scale, percent. It returns false for digits that
// are not a number on their own.
func readNumber(text, s string, start, end int, intPart, frac string, grouped bool) (token, bool) {
	t := token{kind: Amount}
	neg := false
	// Before the digits: currency, then sign, then an opening parenthesis,
	// in either order of sign and currency.
	p := start
	cur := func() bool {
		for _, c := range []string{"US$", "$", "€", "£", "¥"} {
			if strings.HasSuffix(s[:p], c) {
				p -= len(c)
				t.currency = true
				return true
			}
		}
		return false
	}
	sign := func() bool {
		for _, c := range []string{"-", "−", "+"} {
			if strings.HasSuffix(s[:p], c) {
				// A sign, not a hyphen: nothing alphanumeric right before it.
				q := p - len(c)
				if q > 0 {
					r, _ := utf8.DecodeLastRuneInString(s[:q])
					if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '%' || r == ')' {
						return false
					}
				}
				p = q
				neg = c != "+"
				return true
			}
		}
		return false
	}
	cur()
	if sign() {
		cur()
	}
	open := p > 0 && s[p-1] == '('
	if open {
		p--
		// "$(1,234)", "-(5)" read outside the parenthesis
		if cur() {
			sign()
		} else if sign() {
			cur()
		}
	}
	q := end
	closed := false
	if open && q < len(s) && s[q] == ')' {
		closed = true
		q++
	}
	// Attached letters: a scale suffix, "x" (times), or an identifier.
	if q < len(s) && isLetter(s[q]) {
		k := q
		for k < len(s) && isLetter(s[k]) {
			k++
		}
		w := s[q:k]
		if k < len(s) && utf8.RuneStart(s[k]) {
			if r, _ := utf8.DecodeRuneInString(s[k:]); unicode.IsLetter(r) {
				return t, false
			}
		}
		e, isScale := scaleSuffixes[w]
		switch {
		case isScale && (t.currency || grouped || frac != ""):
			t.scale = e
		case w == "x" || w == "X":
		case w == "bps" || w == "bp":
			t.kind = BasisPoints
		case w == "pts" || w == "pp" || w == "ppts":
			t.kind = Percent
		default:
			t.end = k // where the identifier ends
			return t, false
		}
		q = k
	} else if q+1 < len(s) && s[q] == '-' && isLetter(s[q+1]) {
		// "$1.5-billion"
		k := q + 1
		for k < len(s) && isLetter(s[k]) {
			k++
		}
		if e, ok := scaleWords[strings.ToLower(s[q+1:k])]; ok {
			t.scale = e
			q = k
		}
	}
	// A scale word after spaces.
	if t.scale == 0 {
		k := skipSpaces(s, q)
		if k > q {
			w := wordAt(s, k)
			if e, ok := scaleWords[strings.ToLower(w)]; ok {
				t.scale = e
				q = k + len(w)
			}
		}
	}
	// Percent or basis points, unless attached letters said so already.
	if t.kind == Amount {
		k := skipSpaces(s, q)
		if k < len(s) && s[k] == '%' {
			t.kind, q = Percent, k+1
		} else if k > q {
			rest := strings.ToLower(s[k:min(len(s), k+24)])
			for _, w := range percentWords {
				if strings.HasPrefix(rest, w.word) && (len(rest) == len(w.word) || !isLetter(rest[len(w.word)])) {
					t.kind, q = w.kind, k+len(w.word)
					break
				}
			}
		}
	}
	if open && !closed && q < len(s) && s[q] == ')' {
		closed = true
		q++
	}
	if closed && !t.currency && t.kind == Amount && q < len(s) && s[q] == '%' {
		// "(3)%"
		t.kind = Percent
		q++
	}
	if closed {
		neg = true
	} else if open {
		p++ // the parenthesis opens prose, not a negative number
	}
	t.start, t.end = p, q
	t.text = strings.TrimSpace(text[p:q])
	t.mantissa = canon(false, intPart, frac, 0)
	if t.kind != Amount {
		t.scale = 0
	}
	t.value = canon(neg, intPart, frac, t.scale)
	if neg && t.mantissa != "0" {
		t.mantissa = "-" + t.mantissa
	}
	return t, true
}

// identifier reports digits glued to letters or written as a form name.
func identifier(s string, start, end int) bool {
	if start > 0 {
		r, size := utf8.DecodeLastRuneInString(s[:start])
		if unicode.IsLetter(r) || r == '#' || r == '_' {
			return true
		}
		if (r == '-' || r == '/') && start-size > 0 {
			r2, _ := utf8.DecodeLastRuneInString(s[:start-size])
			if unicode.IsLetter(r2) {
				return true // "COVID-19", "S-1"
			}
		}
	}
	// "10-K", "8-K", "20-F", "10-Q", "10-K/A"
	if end+1 < len(s) && s[end] == '-' && s[end+1] >= 'A' && s[end+1] <= 'Z' && (end+2 == len(s) || !isLetter(s[end+2])) {
		return true
	}
	return false
}

// referenceBefore reports whether the word before position p is a
// reference word ("Item 7", "Note 12", "No. 5").
func referenceBefore(s string, p int) bool {
	k := p
	for k > 0 && (s[k-1] == ' ' || s[k-1] == '\t') {
		k--
	}
	dot := k > 0 && s[k-1] == '.'
	if dot {
		k--
	}
	w := k
	for w > 0 && isLetter(s[w-1]) {
		w--
	}
	if w == k || (w > 0 && isDigit(s[w-1])) {
		return false
	}
	word := strings.ToLower(s[w:k])
	if dot {
		return word == "no" || word == "nos"
	}
	return referenceWords[word]
}

// chained reports text between two numbers that continues a list of
// references: ", ", " and ", " or ", " through ", "-".
func chained(between string) bool {
	b := strings.ToLower(strings.TrimSpace(between))
	b = strings.TrimPrefix(b, ",")
	b = strings.TrimSpace(b)
	switch b {
	case "", "and", "or", "through", "to", "-", "–", "&":
		return true
	}
	return false
}

func leadingZero(intPart string) bool {
	return len(intPart) > 1 && intPart[0] == '0'
}

func isYear(d string) bool {
	if len(d) != 4 {
		return false
	}
	y := atoi(d)
	return y >= 1900 && y <= 2100
}

// twoDigitYear reports "'24", "’24" and the "25" of "2024-25".
func twoDigitYear(s string, start int, intPart, frac string) bool {
	if len(intPart) != 2 || frac != "" {
		return false
	}
	if strings.HasSuffix(s[:start], "'") || strings.HasSuffix(s[:start], "’") {
		return true
	}
	if start >= 5 && (s[start-1] == '-' || s[start-1] == '/' || strings.HasSuffix(s[:start], "–")) {
		q := start - 1
		if strings.HasSuffix(s[:start], "–") {
			q = start - len("–")
		}
		if q >= 4 && isYear(s[q-4:q]) && (q == 4 || !isDigit(s[q-5])) {
			return true
		}
	}
	return false
}

// listMarker reports "(1)" and a "1." or "1)" opening a line.
func listMarker(s string, t token, start, end int, intPart, frac string, grouped bool) bool {
	if frac != "" || grouped || len(intPart) > 2 || t.currency || t.kind != Amount || t.scale != 0 {
		return false
	}
	if start > 0 && s[start-1] == '(' && end < len(s) && s[end] == ')' {
		return !tableCell(s, start-1, end+1)
	}
	k := start
	for k > 0 && (s[k-1] == ' ' || s[k-1] == '\t') {
		k--
	}
	if k == 0 || s[k-1] == '\n' {
		return end+1 < len(s) && (s[end] == '.' || s[end] == ')') && (s[end+1] == ' ' || s[end+1] == '\t')
	}
	return false
}

// tableCell reports whether s[a:b] is a whole cell of a table row: "| (1) |".
func tableCell(s string, a, b int) bool {
	for a > 0 && s[a-1] == ' ' {
		a--
	}
	for b < len(s) && s[b] == ' ' {
		b++
	}
	return a > 0 && s[a-1] == '|' && (b == len(s) || s[b] == '|' || s[b] == '\n')
}

func skipSpaces(s string, i int) int {
	for i < len(s) {
		if s[i] == ' ' || s[i] == '\t' {
			i++
			continue
		}
		if strings.HasPrefix(s[i:], "\u00a0") {
			i += len("\u00a0")
			continue
		}
		break
	}
	return i
}

func wordAt(s string, i int) string {
	k := i
	for k < len(s) && isLetter(s[k]) {
		k++
	}
	return s[i:k]
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// canon writes the exact decimal value of the digits intPart.frac times
// 10^exp, with neg for its sign: no leading or trailing zeros, no
// separators, "0" for zero.
func canon(neg bool, intPart, frac string, exp int) string {
	digits := intPart + frac
	point := len(intPart) + exp // position of the decimal point in digits
	for point > len(digits) {
		digits += "0"
	}
	for point < 1 {
		digits = "0" + digits
		point++
	}
	ip := strings.TrimLeft(digits[:point], "0")
	fp := strings.TrimRight(digits[point:], "0")
	if ip == "" {
		ip = "0"
	}
	v := ip
	if fp != "" {
		v += "." + fp
	}
	if neg && v != "0" {
		v = "-" + v
	}
	return v
}

// shift multiplies the canonical decimal v by 10^exp.
func shift(v string, exp int) string {
	neg := strings.HasPrefix(v, "-")
	v = strings.TrimPrefix(v, "-")
	ip, fp, _ := strings.Cut(v, ".")
	return canon(neg, ip, fp, exp)
}

// negate returns the canonical decimal v with the other sign.
func negate(v string) string {
	if v == "0" {
		return v
	}
	if strings.HasPrefix(v, "-") {
		return v[1:]
	}
	return "-" + v
}
