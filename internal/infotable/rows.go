package infotable

import (
	"fmt"
	"strings"
)

// maxDepth is the deepest element nesting Parse accepts. A real table nests
// four levels (informationTable/infoTable/votingAuthority/Sole).
const maxDepth = 64

// field identifies an infoTable child element whose text Parse keeps.
type field int

const (
	fNone field = iota
	fNameOfIssuer
	fTitleOfClass
	fCUSIP
	fFIGI
	fValue
	fShares
	fShPrn
	fPutCall
	fInvestmentDiscretion
	fOtherManager
	fVotingSole
	fVotingShared
	fVotingNone
	numFields
)

// fieldNames are the element local names, indexed by field.
var fieldNames = [numFields]string{
	fNameOfIssuer:         "nameOfIssuer",
	fTitleOfClass:         "titleOfClass",
	fCUSIP:                "cusip",
	fFIGI:                 "figi",
	fValue:                "value",
	fShares:               "sshPrnamt",
	fShPrn:                "sshPrnamtType",
	fPutCall:              "putCall",
	fInvestmentDiscretion: "investmentDiscretion",
	fOtherManager:         "otherManager",
	fVotingSole:           "Sole",
	fVotingShared:         "Shared",
	fVotingNone:           "None",
}

// required lists the fields a row must contain.
var required = []field{fNameOfIssuer, fCUSIP, fValue, fShares, fShPrn}

// Containers below infoTable whose children are fields.
const (
	cNone   = iota
	cShrs   // shrsOrPrnAmt
	cVoting // votingAuthority
)

// rowBuilder turns the elements of an information table into rows. It
// holds the rules of the format in one place: the root element, which
// elements are fields and where, which fields a row needs, and how the
// text of each field becomes a value. Both parsers drive it, each with its
// own XML reader: parseFast with the hand-written one in lex.go,
// ParseReference with encoding/xml. A reader calls start for each start
// tag with the element's local name, end for each end tag, and, while
// collecting reports true, appends the decoded character data of the
// element to text.
type rowBuilder struct {
	keep    func(*Row) bool
	rows    []Row
	sawRoot bool
	rootEnd bool
	depth   int // open elements; the root is depth 1, an infoTable depth 2

	inRow     bool
	rowNum    int // 1-based number of the current or last infoTable
	row       Row
	seen      [numFields]bool
	container int    // cShrs or cVoting when open at depth 3, else cNone
	cur       field  // field whose text is being collected; fNone when none
	text      []byte // decoded text of cur

	strs strCache
}

// collecting reports whether character data at the current depth is the
// text of b.cur.
func (b *rowBuilder) collecting() bool {
	if b.cur == fNone {
		return false
	}
	if b.container != cNone {
		return b.depth == 4
	}
	return b.depth == 3
}

// start handles a start tag with local name local, which it does not
// keep (so that a caller's conversion to []byte need not escape).
func (b *rowBuilder) start(local []byte) error {
	if b.depth == maxDepth {
		return fmt.Errorf("infotable: elements nested deeper than %d", maxDepth)
	}
	b.depth++
	if !b.sawRoot {
		if string(local) != "informationTable" {
			return fmt.Errorf("infotable: root element is <%s>, want <informationTable>", string(local))
		}
		b.sawRoot = true
		return nil
	}
	if b.rootEnd {
		return fmt.Errorf("infotable: element <%s> after the root element", string(local))
	}
	switch {
	case b.depth == 2:
		if string(local) == "infoTable" {
			b.inRow = true
			b.rowNum++
			b.row = Row{}
			b.seen = [numFields]bool{}
		}
	case b.depth == 3 && b.inRow:
		f := fNone
		switch string(local) {
		case "shrsOrPrnAmt":
			b.container = cShrs
		case "votingAuthority":
			b.container = cVoting
		case "nameOfIssuer":
			f = fNameOfIssuer
		case "titleOfClass":
			f = fTitleOfClass
		case "cusip":
			f = fCUSIP
		case "figi":
			f = fFIGI
		case "value":
			f = fValue
		case "putCall":
			f = fPutCall
		case "investmentDiscretion":
			f = fInvestmentDiscretion
		case "otherManager":
			f = fOtherManager
		}
		return b.begin(f)
	case b.depth == 4 && b.container == cShrs:
		switch string(local) {
		case "sshPrnamt":
			return b.begin(fShares)
		case "sshPrnamtType":
			return b.begin(fShPrn)
		}
	case b.depth == 4 && b.container == cVoting:
		switch string(local) {
		case "Sole":
			return b.begin(fVotingSole)
		case "Shared":
			return b.begin(fVotingShared)
		case "None":
			return b.begin(fVotingNone)
		}
	}
	return nil
}

// begin starts collecting the text of field f; fNone does nothing.
func (b *rowBuilder) begin(f field) error {
	if f == fNone {
		return nil
	}
	if b.seen[f] {
		return fmt.Errorf("infotable: row %d: %s given twice", b.rowNum, fieldNames[f])
	}
	b.seen[f] = true
	b.cur = f
	b.text = b.text[:0]
	return nil
}

// end handles the end of the innermost open element.
func (b *rowBuilder) end() error {
	var err error
	switch {
	case b.depth == 1:
		b.rootEnd = true
	case b.depth == 2 && b.inRow:
		err = b.endRow()
	case b.collecting():
		err = b.set(b.cur, trimSpace(b.text))
		b.cur = fNone
	case b.depth == 3 && b.container != cNone:
		b.container = cNone
	}
	b.depth--
	return err
}

// endRow checks the completed row and keeps it unless b.keep declines it.
func (b *rowBuilder) endRow() error {
	b.inRow = false
	for _, f := range required {
		if !b.seen[f] {
			return fmt.Errorf("infotable: row %d: missing %s", b.rowNum, fieldNames[f])
		}
	}
	if b.keep == nil || b.keep(&b.row) {
		b.rows = append(b.rows, b.row)
	}
	b.row = Row{}
	return nil
}

// set stores the trimmed text s of field f in the current row.
func (b *rowBuilder) set(f field, s []byte) error {
	r := &b.row
	switch f {
	case fNameOfIssuer:
		r.NameOfIssuer = b.strs.str(s)
	case fTitleOfClass:
		r.TitleOfClass = b.strs.str(s)
	case fCUSIP:
		r.CUSIP = b.strs.str(s)
	case fFIGI:
		r.FIGI = b.strs.str(s)
	case fOtherManager:
		r.OtherManager = b.strs.str(s)
	case fInvestmentDiscretion:
		switch string(s) {
		case "SOLE":
			r.InvestmentDiscretion = "SOLE"
		case "DFND":
			r.InvestmentDiscretion = "DFND"
		case "OTR":
			r.InvestmentDiscretion = "OTR"
		default:
			r.InvestmentDiscretion = b.strs.intern(strings.ToUpper(string(s)))
		}
	case fShPrn:
		var ok bool
		if r.ShPrn, ok = NormShPrn(s); !ok {
			return fmt.Errorf("infotable: row %d: sshPrnamtType %q is neither SH nor PRN", b.rowNum, s)
		}
	case fPutCall:
		var ok bool
		if r.PutCall, ok = NormPutCall(s); !ok {
			return fmt.Errorf("infotable: row %d: putCall %q is neither Put nor Call", b.rowNum, s)
		}
	default:
		if len(s) == 0 {
			if f == fValue || f == fShares {
				return fmt.Errorf("infotable: row %d: missing %s", b.rowNum, fieldNames[f])
			}
			return nil // an empty votingAuthority child means 0
		}
		n, err := parseNumberBytes(s)
		if err != nil {
			return fmt.Errorf("infotable: row %d: %s: %w", b.rowNum, fieldNames[f], err)
		}
		switch f {
		case fValue:
			r.Value = n
		case fShares:
			r.Shares = n
		case fVotingSole:
			r.VotingSole = n
		case fVotingShared:
			r.VotingShared = n
		case fVotingNone:
			r.VotingNone = n
		}
	}
	return nil
}
