package agent

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file is the number scanner of the grounding check (ground.go): it
// finds the figures of a text (an answer or a source) and gives each a kind
// and a canonical value. What counts as a number, and what does not, is
// listed in the documentation of [Ground]; whether a figure is grounded is
// decided in ground.go.

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

var (
	// citationRE matches citation markup: "[c:3f9a…]", "[f:0000320193-24-000123]",
	// "[c:a, c:b]".
	citationRE = regexp.MustCompile(`\[\s*[cfCF]\s*:[^\]\n]*\]`)
	urlRE      = regexp.MustCompile(`(?i)\b(?:https?://|www\.)[^\s<>"'\)\]|]+`)
)

// scan returns the numbers of text in order, by the same rules for an
// answer and a source.
func scan(text string) []token {
	masked := []byte(text)
	mask := func(a, b int) {
		for i := a; i < b; i++ {
			masked[i] = ' '
		}
	}
	for _, m := range citationRE.FindAllIndex(masked, -1) {
		mask(m[0], m[1])
	}
	// The URL expression has no literal prefix, so Go's regexp would walk
	// the whole text slowly; most texts have no URL at all.
	if hasURL(text) {
		for _, m := range urlRE.FindAllIndex(masked, -1) {
			mask(m[0], m[1])
		}
	}
	return scanNumbers(text, string(masked))
}

// hasURL reports whether text may hold a URL (for urlRE).
func hasURL(text string) bool {
	for i := 0; i+4 <= len(text); i++ {
		c := text[i] | 0x20
		if (c == 'h' || c == 'w') && (strings.EqualFold(text[i:i+4], "http") || strings.EqualFold(text[i:i+4], "www.")) {
			return true
		}
	}
	return false
}

// monthWords are the written forms of month names a date may use.
var monthWords = map[string]int{
	"jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4, "april": 4, "may": 5,
	"jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8, "sep": 9, "sept": 9, "september": 9,
	"oct": 10, "october": 10, "nov": 11, "november": 11, "dec": 12, "december": 12,
}

// dateAt reads a date around the digit run s[start:j]: "2024-09-28",
// "9/28/2024", "28 September 2024", or, with a month name before the
// digits, "September 28, 2024", "Sept. 28 2024" and (with a capitalised
// month, so that "may 5" stays a verb and a number) "September 28".
func dateAt(text, s string, start, j int) (token, bool) {
	if start > 0 && isWordByte(s[start-1]) {
		return token{}, false
	}
	digits := s[start:j]
	fixed := func(i, n int) (int, bool) { // n digits at i
		if i+n > len(s) {
			return 0, false
		}
		for k := i; k < i+n; k++ {
			if !isDigit(s[k]) {
				return 0, false
			}
		}
		return atoi(s[i : i+n]), true
	}
	ends := func(i int) bool { return i == len(s) || !isWordByte(s[i]) }
	mk := func(a, b, y, mo, d int, partial bool) (token, bool) {
		if mo < 1 || mo > 12 || d < 1 || d > daysIn(mo, y, partial) {
			return token{}, false
		}
		t := token{start: a, end: b, text: text[a:b], kind: Date, partial: partial}
		if partial {
			t.value = "--" + pad2(mo) + "-" + pad2(d)
		} else {
			t.value = strconv.Itoa(y) + "-" + pad2(mo) + "-" + pad2(d)
		}
		return t, true
	}
	// "2024-09-28"
	if len(digits) == 4 && j+6 <= len(s) && s[j] == '-' && s[j+3] == '-' {
		mo, ok1 := fixed(j+1, 2)
		d, ok2 := fixed(j+4, 2)
		if ok1 && ok2 && ends(j+6) {
			return mk(start, j+6, atoi(digits), mo, d, false)
		}
	}
	if len(digits) > 2 {
		return token{}, false
	}
	// "9/28/2024"
	if j < len(s) && s[j] == '/' {
		k := j + 1
		for k < len(s) && k < j+3 && isDigit(s[k]) {
			k++
		}
		if k > j+1 && k < len(s) && s[k] == '/' {
			if y, ok := fixed(k+1, 4); ok && ends(k+5) {
				return mk(start, k+5, y, atoi(digits), atoi(s[j+1:k]), false)
			}
		}
	}
	// "28 September 2024"
	if k := skipSpaces(s, j); k > j {
		w := wordAt(s, k)
		if mo, ok := monthWords[strings.ToLower(w)]; ok {
			k += len(w)
			if k < len(s) && s[k] == '.' {
				k++
			}
			if k < len(s) && s[k] == ',' {
				k++
			}
			if y0 := skipSpaces(s, k); y0 > k {
				if y, ok := fixed(y0, 4); ok && ends(y0+4) {
					return mk(start, y0+4, y, mo, atoi(digits), false)
				}
			}
		}
	}
	// A month name before the digits.
	k := start
	for k > 0 && (s[k-1] == ' ' || s[k-1] == '\t') {
		k--
	}
	if k == start {
		return token{}, false
	}
	if k > 0 && s[k-1] == '.' {
		k--
	}
	w := k
	for w > 0 && isLetter(s[w-1]) {
		w--
	}
	mo, ok := monthWords[strings.ToLower(s[w:k])]
	if !ok || (w > 0 && isWordByte(s[w-1])) {
		return token{}, false
	}
	if !ends(j) && s[j] != ',' {
		return token{}, false
	}
	q := j
	if q < len(s) && s[q] == ',' {
		q++
	}
	if y0 := skipSpaces(s, q); y0 > q {
		if y, ok := fixed(y0, 4); ok && ends(y0+4) {
			return mk(w, y0+4, y, mo, atoi(digits), false)
		}
	}
	if s[w] >= 'A' && s[w] <= 'Z' && ends(j) {
		return mk(w, j, 0, mo, atoi(digits), true)
	}
	return token{}, false
}

func isWordByte(c byte) bool { return isDigit(c) || isLetter(c) || c == '_' }

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
		if d, ok := dateAt(text, s, start, j); ok {
			out = append(out, d)
			i, chainEnd = d.end, -1
			continue
		}
		if e := accessionEnd(s, start, j); e > 0 {
			i = e
			continue
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

// accessionEnd returns the end of an accession number starting with the
// digit run s[start:j] ("0000320193-24-000123", or its 18 digits), or 0.
func accessionEnd(s string, start, j int) int {
	if start > 0 && isWordByte(s[start-1]) {
		return 0
	}
	n := j - start
	if n == 18 && (j == len(s) || !isWordByte(s[j])) {
		return j
	}
	if n != 10 || j+10 > len(s) || s[j] != '-' || s[j+3] != '-' {
		return 0
	}
	for _, k := range []int{j + 1, j + 2, j + 4, j + 5, j + 6, j + 7, j + 8, j + 9} {
		if !isDigit(s[k]) {
			return 0
		}
	}
	if j+10 < len(s) && isWordByte(s[j+10]) {
		return 0
	}
	return j + 10
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
