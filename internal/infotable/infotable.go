// Package infotable reads 13F information tables (the INFORMATION TABLE
// document of a Form 13F filing, root element informationTable) into rows,
// and stores parsed rows in a compact, versioned binary encoding.
//
// Parse is a hand-written streaming parser that reads the table in one pass
// without building a tree. ParseReference is the reference implementation on
// top of encoding/xml: it defines the semantics, and a differential fuzz test
// (FuzzParseDifferential) holds Parse to it. The two read XML each their own
// way (lex.go and encoding/xml) and share the rules that turn elements into
// rows (rows.go). Both match elements by local name only (so any namespace
// prefix style works) and validate every field they keep.
package infotable

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"

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

// ParseReference reads an information table with encoding/xml. It is the
// reference implementation of [Parse]: same arguments, same rules, same
// rows, and the errors Parse reports. It is several times slower and is kept
// to define the semantics, for differential testing and as the benchmark
// baseline. The two read the XML independently (encoding/xml here, a
// hand-written reader in Parse) and share only the rules that turn
// elements into rows (rowBuilder, rows.go): the differential fuzz test holds
// Parse's XML reading to encoding/xml's, and the table tests of parse_test.go
// pin the row rules with values written out by hand.
func ParseReference(data []byte, keep func(*Row) bool) ([]Row, error) {
	data = trimLeading(data)
	if len(data) == 0 {
		return nil, errors.New("infotable: empty document")
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	d.CharsetReader = charset.NewReaderLabel

	p := parser{rowBuilder{keep: keep, rows: []Row{}}}
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

// parser is the state of one ParseReference call: encoding/xml's tokens
// fed to a rowBuilder.
type parser struct {
	rowBuilder
}

func (p *parser) token(tok xml.Token) error {
	switch t := tok.(type) {
	case xml.StartElement:
		return p.start([]byte(t.Name.Local))
	case xml.EndElement:
		return p.end()
	case xml.CharData:
		// Only direct text of the field element counts; encoding/xml has
		// already decoded entities and CDATA sections.
		if p.collecting() {
			p.text = append(p.text, t...)
		}
	}
	return nil
}
