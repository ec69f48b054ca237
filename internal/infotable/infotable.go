// Package infotable reads 13F information tables (the INFORMATION TABLE
// document of a Form 13F filing, root element informationTable) into rows,
// and stores parsed rows in a compact, versioned binary encoding.
//
// Parse is a hand-written streaming parser that reads the table in one pass
// without building a tree. ParseReference is the reference implementation on
// top of encoding/xml: it defines the semantics, and a differential fuzz test
// (FuzzParseDifferential) holds Parse to it. Both match elements by local
// name only (so any namespace prefix style works) and validate every field
// they keep.
package infotable

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"golang.org/x/net/html/charset"
)

// A Row is one infoTable element.
type Row struct {
	NameOfIssuer         string
	TitleOfClass         string
	CUSIP                string // as filed (case preserved)
	FIGI                 string // "" when absent
	Value                int64
	Shares               int64  // shrsOrPrnAmt/sshPrnamt
	ShPrn                string // "SH" or "PRN" (normalised to upper case)
	PutCall              string // "", "PUT" or "CALL" (normalised to upper case)
	InvestmentDiscretion string // as filed, upper-cased (SOLE, DFND, OTR)
	OtherManager         string // "" when absent, else as filed (trimmed)
	VotingSole           int64
	VotingShared         int64
	VotingNone           int64
}

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

// Element paths, as local names below infoTable.
var (
	rowFields = map[string]field{
		"nameOfIssuer":         fNameOfIssuer,
		"titleOfClass":         fTitleOfClass,
		"cusip":                fCUSIP,
		"figi":                 fFIGI,
		"value":                fValue,
		"putCall":              fPutCall,
		"investmentDiscretion": fInvestmentDiscretion,
		"otherManager":         fOtherManager,
	}
	shrsFields   = map[string]field{"sshPrnamt": fShares, "sshPrnamtType": fShPrn}
	votingFields = map[string]field{"Sole": fVotingSole, "Shared": fVotingShared, "None": fVotingNone}
)

// ParseReference reads an information table with encoding/xml. It is the
// reference implementation of [Parse]: same arguments, same rules, same
// rows, and the errors Parse reports. It is several times slower and is kept
// to define the semantics, for differential testing and as the benchmark
// baseline. It repeats Parse's element matching and field checks on
// purpose, in its own code (it does not call NormShPrn or NormPutCall): a
// reference that shared Parse's code could not catch Parse's mistakes. Only
// the number rule, parseNumber, is shared; TestParseNumber checks it on its
// own.
func ParseReference(data []byte, keep func(*Row) bool) ([]Row, error) {
	data = trimLeading(data)
	if len(data) == 0 {
		return nil, errors.New("infotable: empty document")
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	d.CharsetReader = charset.NewReaderLabel

	p := parser{keep: keep, rows: []Row{}}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("infotable: %w", err)
		}
		if err := p.token(tok); err != nil {
			return nil, err
		}
	}
	if !p.sawRoot {
		return nil, errors.New("infotable: no root element")
	}
	return p.rows, nil
}

// trimLeading removes leading XML white space and UTF-8 byte order marks.
func trimLeading(b []byte) []byte {
	for {
		n := len(b)
		b = bytes.TrimLeft(b, " \t\r\n")
		b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
		if len(b) == n {
			return b
		}
	}
}

// parser is the state of one Parse call.
type parser struct {
	keep    func(*Row) bool
	rows    []Row
	sawRoot bool
	rootEnd bool
	depth   int // open elements; the root is depth 1, an infoTable depth 2

	inRow     bool
	rowNum    int // 1-based number of the current or last infoTable
	row       Row
	seen      [numFields]bool
	container string // "shrsOrPrnAmt" or "votingAuthority" when open at depth 3, else ""

	cur  field // field whose text is being collected; fNone when none
	text []byte
}

func (p *parser) token(tok xml.Token) error {
	switch t := tok.(type) {
	case xml.StartElement:
		return p.start(t.Name.Local)
	case xml.EndElement:
		return p.end()
	case xml.CharData:
		// Only direct text of the field element counts; encoding/xml has
		// already decoded entities and CDATA sections.
		if p.cur != fNone && p.depth == p.fieldDepth() {
			p.text = append(p.text, t...)
		}
	}
	return nil
}

// fieldDepth is the depth of the element of p.cur.
func (p *parser) fieldDepth() int {
	if p.container != "" {
		return 4
	}
	return 3
}

func (p *parser) start(local string) error {
	p.depth++
	if p.depth > maxDepth {
		return fmt.Errorf("infotable: elements nested deeper than %d", maxDepth)
	}
	if !p.sawRoot {
		if local != "informationTable" {
			return fmt.Errorf("infotable: root element is <%s>, want <informationTable>", local)
		}
		p.sawRoot = true
		return nil
	}
	if p.rootEnd {
		return fmt.Errorf("infotable: element <%s> after the root element", local)
	}
	switch {
	case p.depth == 2 && local == "infoTable":
		p.inRow = true
		p.rowNum++
		p.row = Row{}
		p.seen = [numFields]bool{}
	case p.depth == 3 && p.inRow:
		if local == "shrsOrPrnAmt" || local == "votingAuthority" {
			p.container = local
		} else if f, ok := rowFields[local]; ok {
			return p.begin(f)
		}
	case p.depth == 4 && p.container != "":
		m := shrsFields
		if p.container == "votingAuthority" {
			m = votingFields
		}
		if f, ok := m[local]; ok {
			return p.begin(f)
		}
	}
	return nil
}

// begin starts collecting the text of field f.
func (p *parser) begin(f field) error {
	if p.seen[f] {
		return fmt.Errorf("infotable: row %d: %s given twice", p.rowNum, fieldNames[f])
	}
	p.seen[f] = true
	p.cur = f
	p.text = p.text[:0]
	return nil
}

func (p *parser) end() error {
	var err error
	switch {
	case p.depth == 1:
		p.rootEnd = true
	case p.depth == 2 && p.inRow:
		err = p.endRow()
	case p.cur != fNone && p.depth == p.fieldDepth():
		err = p.set(p.cur, trimXMLSpace(string(p.text)))
		p.cur = fNone
	case p.depth == 3 && p.container != "":
		p.container = ""
	}
	p.depth--
	return err
}

// endRow checks the completed row and keeps it unless p.keep declines it.
func (p *parser) endRow() error {
	p.inRow = false
	for _, f := range required {
		if !p.seen[f] {
			return fmt.Errorf("infotable: row %d: missing %s", p.rowNum, fieldNames[f])
		}
	}
	if p.keep == nil || p.keep(&p.row) {
		p.rows = append(p.rows, p.row)
	}
	p.row = Row{}
	return nil
}

// set stores the trimmed text s of field f in the current row.
func (p *parser) set(f field, s string) error {
	r := &p.row
	switch f {
	case fNameOfIssuer:
		r.NameOfIssuer = s
	case fTitleOfClass:
		r.TitleOfClass = s
	case fCUSIP:
		r.CUSIP = s
	case fFIGI:
		r.FIGI = s
	case fInvestmentDiscretion:
		r.InvestmentDiscretion = strings.ToUpper(s)
	case fOtherManager:
		r.OtherManager = s
	case fShPrn:
		switch {
		case strings.EqualFold(s, "SH"):
			r.ShPrn = "SH"
		case strings.EqualFold(s, "PRN"):
			r.ShPrn = "PRN"
		default:
			return fmt.Errorf("infotable: row %d: sshPrnamtType %q is neither SH nor PRN", p.rowNum, s)
		}
	case fPutCall:
		switch {
		case s == "":
			r.PutCall = ""
		case strings.EqualFold(s, "PUT"):
			r.PutCall = "PUT"
		case strings.EqualFold(s, "CALL"):
			r.PutCall = "CALL"
		default:
			return fmt.Errorf("infotable: row %d: putCall %q is neither Put nor Call", p.rowNum, s)
		}
	default:
		if s == "" {
			switch f {
			case fValue, fShares:
				return fmt.Errorf("infotable: row %d: missing %s", p.rowNum, fieldNames[f])
			}
			return nil // an empty votingAuthority child means 0
		}
		n, err := parseNumber(s)
		if err != nil {
			return fmt.Errorf("infotable: row %d: %s: %w", p.rowNum, fieldNames[f], err)
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

// trimXMLSpace removes leading and trailing XML white space.
func trimXMLSpace(s string) string {
	return strings.Trim(s, " \t\r\n")
}
