package edgartest

// An ItemName is one row of the table of Item names the tests of
// Companies.Section and of the filing search's Item filter share, so that
// both read the one vocabulary alike: the Item, as the library writes it,
// that Name names in a 10-K and in a 10-Q, or "" where it names none (an
// invalid_argument decline).
type ItemName struct {
	Name       string
	TenK, TenQ string
}

// ItemNames is the table: bare numbers, "Item N", Part-qualified names
// (in a 10-K, the Item of that Part: "II-7" is Item 7, "I-2" Item 2),
// case-insensitive, and names no report of a form can have.
var ItemNames = []ItemName{
	{"7", "7", ""},
	{"Item 7", "7", ""},
	{"item 7a", "7A", ""},
	{"1A", "1A", "II-1A"},
	{"1a", "1A", "II-1A"},
	{"Item 1A", "1A", "II-1A"},
	{"II-7", "7", ""},
	{"ii-7", "7", ""},
	{"I-2", "2", "I-2"},
	{"i-2", "2", "I-2"},
	{"I-1A", "1A", ""},
	{"II-1A", "", "II-1A"},
	{"Part II, Item 1A", "", "II-1A"},
	{"2", "2", ""},
	{"II-2", "", "II-2"},
	{"III-10", "10", ""},
	{"I-4", "4", "I-4"},
	{"II-6", "6", "II-6"},
	{"16", "16", ""},
	{"17", "", ""},
	{"99", "", ""},
	{"I-5", "", ""},
	{"risk factors", "", ""},
}
