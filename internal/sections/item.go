package sections

import (
	"fmt"
	"strings"
	"unicode"
)

// An Item names one Item of a periodic report. In a 10-K the Part is
// implied by the number and Part is empty; in a 10-Q the same numbers
// recur in Part I and Part II, so Part is "I" or "II".
type Item struct {
	Part   string // "", "I" or "II"
	Number string // "1", "1A", "7A", "16", upper case
}

// String returns the item as the library writes it: "1A" for a 10-K,
// "II-1A" for a 10-Q.
func (it Item) String() string {
	if it.Part == "" {
		return it.Number
	}
	return it.Part + "-" + it.Number
}

// Kind is the layout of a form's Items.
type Kind int

// The layouts: the annual report's Items 1 to 16 and the quarterly
// report's Part I and Part II Items.
const (
	Unsupported Kind = iota // a form without 10-K or 10-Q Items
	Annual                  // 10-K, 10-K/A, 10-KT, 10-KT/A, 10-K405
	Quarterly               // 10-Q, 10-Q/A, 10-QT, 10-QT/A
)

// FormKind returns the layout of a form's Items. Form names are matched
// case-insensitively.
func FormKind(form string) Kind {
	f := strings.ToUpper(strings.TrimSpace(form))
	f = strings.TrimSuffix(f, "/A")
	switch f {
	case "10-K", "10-KT", "10-K405":
		return Annual
	case "10-Q", "10-QT":
		return Quarterly
	}
	return Unsupported
}

// annualItems lists the Items of a 10-K in order, with the Part each
// belongs to and the words its heading starts with (lower case, straight
// apostrophes), used to recognise a heading followed by text on the same
// line, and the other words filers write in its title. Item 6 was
// "Selected Financial Data" before 2021.
var annualItems = []itemInfo{
	{"I", "1", []string{"business"}, ""},
	{"I", "1A", []string{"risk factors"}, ""},
	{"I", "1B", []string{"unresolved staff comments"}, ""},
	{"I", "1C", []string{"cybersecurity"}, ""},
	{"I", "2", []string{"properties", "description of propert"}, "property"},
	{"I", "3", []string{"legal proceedings"}, ""},
	{"I", "4", []string{"mine safety disclosures", "submission of matters", "(removed and reserved)", "[removed and reserved]", "removed and reserved", "reserved"}, "to a vote of security holders"},
	{"II", "5", []string{"market for registrant's common equity, related stockholder matters and issuer purchases of equity securities", "market for the registrant's common equity", "market for registrant's common equity", "market for"},
		"the registrants registrant company's common stock shareholder shareholders stockholders security holder holders"},
	{"II", "6", []string{"[reserved]", "(reserved)", "reserved", "selected financial data", "selected consolidated financial data"}, ""},
	{"II", "7", []string{"management's discussion and analysis of financial condition and results of operations", "management's discussion and analysis"}, ""},
	{"II", "7A", []string{"quantitative and qualitative disclosures about market risk", "quantitative and qualitative disclosure"}, "risks"},
	{"II", "8", []string{"financial statements and supplementary data", "consolidated financial statements and supplementary data"}, ""},
	{"II", "9", []string{"changes in and disagreements with accountants on accounting and financial disclosure", "changes in and disagreements"}, ""},
	{"II", "9A", []string{"controls and procedures"}, ""},
	{"II", "9B", []string{"other information"}, ""},
	{"II", "9C", []string{"disclosure regarding foreign jurisdictions that prevent inspections", "disclosure regarding foreign jurisdictions"}, ""},
	{"III", "10", []string{"directors, executive officers and corporate governance", "directors, executive officers", "directors and executive officers"}, "of the registrant"},
	{"III", "11", []string{"executive compensation"}, ""},
	{"III", "12", []string{"security ownership of certain beneficial owners and management and related stockholder matters", "security ownership"}, "shareholder"},
	{"III", "13", []string{"certain relationships and related transactions, and director independence", "certain relationships"}, ""},
	{"III", "14", []string{"principal accountant fees and services", "principal accounting fees and services", "principal accountant fees", "principal accounting fees"}, ""},
	{"IV", "15", []string{"exhibits and financial statement schedules", "exhibit and financial statement schedules", "exhibits, financial statement schedules", "exhibits"}, "reports on form 8-k"},
	{"IV", "16", []string{"form 10-k summary"}, ""},
}

// quarterlyItems lists the Items of a 10-Q in order.
var quarterlyItems = []itemInfo{
	{"I", "1", []string{"financial statements", "condensed consolidated financial statements", "consolidated financial statements"}, "unaudited"},
	{"I", "2", []string{"management's discussion and analysis of financial condition and results of operations", "management's discussion and analysis"}, ""},
	{"I", "3", []string{"quantitative and qualitative disclosures about market risk", "quantitative and qualitative disclosure"}, "risks"},
	{"I", "4", []string{"controls and procedures"}, ""},
	{"II", "1", []string{"legal proceedings"}, ""},
	{"II", "1A", []string{"risk factors"}, ""},
	{"II", "2", []string{"unregistered sales of equity securities and use of proceeds", "unregistered sales"}, "issuer purchases"},
	{"II", "3", []string{"defaults upon senior securities"}, ""},
	{"II", "4", []string{"mine safety disclosures", "(removed and reserved)", "[removed and reserved]", "removed and reserved", "reserved", "submission of matters"}, "to a vote of security holders"},
	{"II", "5", []string{"other information"}, ""},
	{"II", "6", []string{"exhibits"}, "reports on form 8-k"},
}

// itemInfo describes one Item of a form.
type itemInfo struct {
	part, number string
	titles       []string
	more         string // other words of the title as filers write it, separated by spaces
}

// titleWords splits a title into its words, lower case, with straight
// apostrophes: "Management’s discussion, and analysis" is "management's",
// "discussion", "and", "analysis".
func titleWords(s string) []string {
	s = strings.ToLower(strings.ReplaceAll(s, "’", "'"))
	return strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '-'
	})
}

// onlyTitleWords reports whether every word of s is a word of the Item's
// title: "Management’s discussion and analysis of results of operations
// and financial condition" is all Item 7's words in another order, where
// "Risk Factors in our annual report" is not all Item 1A's.
// It is asked only of lines that start like a heading and go on in lower
// case, so the words of the titles are not kept between calls.
func (in *itemInfo) onlyTitleWords(s string) bool {
	own := map[string]bool{}
	for _, w := range titleWords(strings.Join(in.titles, " ") + " " + in.more) {
		own[w] = true
	}
	ws := titleWords(s)
	for _, w := range ws {
		if !own[w] {
			return false
		}
	}
	return len(ws) > 0
}

func itemsOf(k Kind) []itemInfo {
	if k == Quarterly {
		return quarterlyItems
	}
	return annualItems
}

// lookup returns the Item of form kind k with this part and number.
// For a 10-K the part must be the Item's own or empty; for a 10-Q an empty
// part is accepted when only one Part has the number.
func lookup(k Kind, part, number string) (Item, *itemInfo, bool) {
	var found *itemInfo
	for i, in := range itemsOf(k) {
		if in.number != number || part != "" && in.part != part {
			continue
		}
		if found != nil {
			return Item{}, nil, false // ambiguous: a 10-Q number without its Part
		}
		found = &itemsOf(k)[i]
	}
	if found == nil {
		return Item{}, nil, false
	}
	it := Item{Number: found.number}
	if k == Quarterly {
		it.Part = found.part
	}
	return it, found, true
}

// ParseItem normalises an item argument for a filing of the given form.
// It accepts the forms people write: "1a", "Item 1A", "ITEM 1A.",
// "Item 7A", "II-1A", "part ii item 1a", "Part II, Item 1A", "2-1A" (Part
// as a digit). A 10-Q item needs its Part unless only one Part has that
// number ("1A", "5" and "6" are Part II). An argument that names no Item
// of the form is an error matching [ErrInvalidArgument]; a form without
// 10-K or 10-Q Items is an error matching [ErrSectionNotFound].
func ParseItem(form, arg string) (Item, error) {
	part, number, ok := splitItemArg(arg)
	if !ok {
		return Item{}, &ArgumentError{Arg: arg, Msg: `not an item such as "1A", "7" or "II-1A"`}
	}
	k := FormKind(form)
	if k == Unsupported {
		return Item{}, &NotFoundError{Form: form, Reason: ReasonForm}
	}
	it, _, found := lookup(k, part, number)
	if found {
		return it, nil
	}
	if k == Quarterly && part == "" {
		if _, _, ok1 := lookup(k, "I", number); ok1 {
			return Item{}, &ArgumentError{Arg: arg, Form: form,
				Msg: fmt.Sprintf("a 10-Q has Item %s in Part I and Part II: write I-%s or II-%s", number, number, number)}
		}
	}
	return Item{}, &ArgumentError{Arg: arg, Form: form, Msg: "no such item in a " + kindName(k) + "; items are " + itemList(k)}
}

func kindName(k Kind) string {
	if k == Quarterly {
		return "10-Q"
	}
	return "10-K"
}

func itemList(k Kind) string {
	var b strings.Builder
	for i, in := range itemsOf(k) {
		if i > 0 {
			b.WriteString(", ")
		}
		if k == Quarterly {
			b.WriteString(in.part + "-")
		}
		b.WriteString(in.number)
	}
	return b.String()
}

// splitItemArg parses an item argument into an optional Part (roman,
// upper case) and a number with an optional letter (upper case).
func splitItemArg(arg string) (part, number string, ok bool) {
	s := strings.ToUpper(strings.TrimSpace(arg))
	s = strings.Map(func(r rune) rune {
		if r == 0xa0 || r == '\t' {
			return ' '
		}
		return r
	}, s)
	if rest, found := strings.CutPrefix(s, "PART"); found {
		rest = strings.TrimLeft(rest, " ")
		p, n := romanPrefix(rest)
		if p == "" {
			return "", "", false
		}
		part = p
		s = strings.TrimLeft(rest[n:], " ,.:;-")
	}
	s = strings.TrimPrefix(s, "ITEM")
	s = strings.TrimSpace(s)
	if part == "" {
		// "II-1A", "II 1A", "2-1A"
		if p, n := romanPrefix(s); p != "" && n < len(s) && (s[n] == '-' || s[n] == ' ' || s[n] == '.') {
			part = p
			s = strings.TrimLeft(s[n:], " -.")
			s = strings.TrimSpace(strings.TrimPrefix(s, "ITEM"))
		} else if len(s) > 2 && (s[0] == '1' || s[0] == '2') && s[1] == '-' {
			part = map[byte]string{'1': "I", '2': "II"}[s[0]]
			s = s[2:]
		}
	}
	s = strings.TrimRight(s, " .:")
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n == 0 || n > 2 || s[0] == '0' {
		return "", "", false
	}
	number = s[:n]
	rest := strings.TrimSpace(s[n:])
	if len(rest) == 1 && rest[0] >= 'A' && rest[0] <= 'Z' {
		number += rest
	} else if rest != "" {
		return "", "", false
	}
	return part, number, true
}

// romanPrefix returns the Part numeral (I to IV) that s starts with and
// its length, or "" when s does not start with one followed by a
// non-letter.
func romanPrefix(s string) (string, int) {
	for _, p := range []string{"III", "IV", "II", "I"} {
		if strings.HasPrefix(s, p) && (len(s) == len(p) || !isLetter(s[len(p)])) {
			return p, len(p)
		}
	}
	return "", 0
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// ItemsNamed reads an item argument in the one vocabulary of Item names
// that Sections, Search, Chunk and their commands share ("7", "Item 7",
// "1A", "I-2", "II-1A", case-insensitive): it returns the Item the
// argument names in a 10-K (annual) and the one it names in a 10-Q
// (quarterly), each with ok set when the argument names one there. A
// Part-qualified name names in a 10-K the Item of that Part ("II-7" is
// "7", "I-2" is "2"; "II-1A" names none, 10-K Item 1A being in Part I); a
// name without Part names in a 10-Q the Item when only one Part has it
// ("1A" is "II-1A"). An argument that names an Item of neither form is an
// *ArgumentError whose message is [NoItemMessage].
func ItemsNamed(arg string) (annual Item, annualOK bool, quarterly Item, quarterlyOK bool, err error) {
	a, errA := ParseItem("10-K", arg)
	q, errQ := ParseItem("10-Q", arg)
	if errA != nil && errQ != nil {
		return Item{}, false, Item{}, false, &ArgumentError{Arg: arg, Msg: NoItemMessage(arg)}
	}
	return a, errA == nil, q, errQ == nil, nil
}

// NoItemMessage says that arg is an Item of neither a 10-K nor a 10-Q, and
// how Items are written.
func NoItemMessage(arg string) string {
	return fmt.Sprintf("item %q is no Item of a 10-K or a 10-Q (write it as \"1A\", \"Item 7\" or, for a 10-Q, \"II-1A\")", arg)
}
