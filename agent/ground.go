package agent

import (
	"regexp"
	"strings"
)

// This file is the numeric grounding check: every figure of an answer must
// be written, with the same value, in a source the answer cites. It is a
// pure function of its arguments, kept apart from the tool loop so that it
// can be read and tested on its own. It holds the policy (which figures
// ground which); scan.go finds the figures of a text.

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

// scaleRE finds a source's statement of its unit.
var scaleRE = regexp.MustCompile(`(?i)\bin\s+(thousands|millions|billions)\b|\(\s*(thousands|millions|billions)\s*\)`)

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
