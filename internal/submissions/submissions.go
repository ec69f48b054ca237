// Package submissions decodes EDGAR's submissions API documents: the main
// filing list at https://data.sec.gov/submissions/CIK##########.json and the
// older pages it names in filings.files.
//
// Only the columns needed to find 13F filings are decoded; every other field
// is ignored. The list reports both the filing date (an Eastern business
// date) and the acceptance time (UTC, which can fall on the following day);
// visibility of a filing is decided by the filing date alone.
package submissions

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/edgar13f/edgar13f/internal/edgarid"
)

// A Filing is one entry of EDGAR's filing list.
type Filing struct {
	Accession          string // dashed, e.g. "0000950123-23-011029"
	Form               string // e.g. "13F-HR/A"
	FilingDate         string // "YYYY-MM-DD"
	ReportDate         string // "YYYY-MM-DD" or ""
	AcceptanceDateTime string // as given, UTC, e.g. "2023-11-16T21:46:50.000Z"
	PrimaryDocument    string // e.g. "xslForm13F_X02/primary_doc.xml"
	Size               int64  // size of the filing in bytes as EDGAR lists it; 0 when absent or odd
}

// A Page describes one older page of the list (filings.files).
type Page struct {
	Name        string // e.g. "CIK0001009672-submissions-001.json"
	FilingCount int
	FilingFrom  string // "YYYY-MM-DD"
	FilingTo    string // "YYYY-MM-DD"
}

// A List is the decoded main submissions document.
type List struct {
	CIK  string // as given (zero-padded or not)
	Name string // entity name
	// FiscalYearEnd is the month and day the company's fiscal year ends,
	// "MMDD" as EDGAR gives it ("0927"), or "" when the document gives
	// none or an odd value. It is the current one, not as of any date.
	FiscalYearEnd string
	Recent        []Filing // filings.recent, in the order given
	Pages         []Page   // filings.files
}

// columns holds the parallel arrays of filings.recent or of an older page.
// A nil pointer means the column is absent (or null).
type columns struct {
	AccessionNumber    *[]string `json:"accessionNumber"`
	Form               *[]string `json:"form"`
	FilingDate         *[]string `json:"filingDate"`
	ReportDate         *[]string `json:"reportDate"`
	AcceptanceDateTime *[]string `json:"acceptanceDateTime"`
	PrimaryDocument    *[]string `json:"primaryDocument"`
	// Size is only a hint, so it is read leniently: an odd value is 0 and a
	// column of the wrong length is ignored.
	Size []json.RawMessage `json:"size"`
}

type page struct {
	Name        string `json:"name"`
	FilingCount int    `json:"filingCount"`
	FilingFrom  string `json:"filingFrom"`
	FilingTo    string `json:"filingTo"`
}

type document struct {
	CIK           cik     `json:"cik"`
	Name          string  `json:"name"`
	FiscalYearEnd *string `json:"fiscalYearEnd"`
	Filings       *struct {
		Recent *columns `json:"recent"`
		Files  []page   `json:"files"`
	} `json:"filings"`
}

// cik accepts the cik field as a JSON string or a JSON integer.
type cik string

func (c *cik) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*c = cik(s)
		return nil
	}
	for _, r := range b {
		if r < '0' || r > '9' {
			return fmt.Errorf("cik %s is neither a string nor a non-negative integer", b)
		}
	}
	*c = cik(b)
	return nil
}

// Decode decodes a main submissions document.
func Decode(data []byte) (*List, error) {
	if err := checkJSON(data); err != nil {
		return nil, err
	}
	var doc document
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("submissions: decoding document: %w", err)
	}
	if doc.Filings == nil {
		return nil, errors.New("submissions: document has no filings object")
	}
	if doc.Filings.Recent == nil {
		return nil, errors.New("submissions: document has no filings.recent object")
	}
	recent, err := doc.Filings.Recent.filings()
	if err != nil {
		return nil, err
	}
	list := &List{CIK: string(doc.CIK), Name: doc.Name, Recent: recent}
	if doc.FiscalYearEnd != nil && IsMonthDay(*doc.FiscalYearEnd) {
		list.FiscalYearEnd = *doc.FiscalYearEnd
	}
	for i, p := range doc.Filings.Files {
		if p.Name == "" {
			return nil, fmt.Errorf("submissions: filings.files[%d] has no name", i)
		}
		if !isDate(p.FilingFrom) || !isDate(p.FilingTo) {
			return nil, fmt.Errorf("submissions: filings.files[%d] (%s): filingFrom %q or filingTo %q is not YYYY-MM-DD", i, p.Name, p.FilingFrom, p.FilingTo)
		}
		list.Pages = append(list.Pages, Page(p))
	}
	return list, nil
}

// DecodePage decodes an older page (the bare column object, no filings/recent wrapper).
func DecodePage(data []byte) ([]Filing, error) {
	if err := checkJSON(data); err != nil {
		return nil, err
	}
	var cols *columns
	if err := json.Unmarshal(data, &cols); err != nil {
		return nil, fmt.Errorf("submissions: decoding page: %w", err)
	}
	if cols == nil {
		return nil, errors.New("submissions: page is null")
	}
	return cols.filings()
}

// checkJSON gives a clear error for empty input and for HTML or XML (such as
// an error page served in place of the JSON document).
func checkJSON(data []byte) error {
	t := bytes.TrimSpace(data)
	switch {
	case len(t) == 0:
		return errors.New("submissions: empty input")
	case t[0] == '<':
		return errors.New("submissions: input is HTML or XML, not JSON")
	case t[0] != '{':
		return errors.New("submissions: input is not a JSON object")
	}
	return nil
}

// filings checks the columns and turns them into rows.
func (c *columns) filings() ([]Filing, error) {
	cols := []struct {
		name     string
		col      *[]string
		required bool
	}{
		{"accessionNumber", c.AccessionNumber, true},
		{"form", c.Form, true},
		{"filingDate", c.FilingDate, true},
		{"reportDate", c.ReportDate, false},
		{"acceptanceDateTime", c.AcceptanceDateTime, false},
		{"primaryDocument", c.PrimaryDocument, false},
	}
	for _, k := range cols {
		if k.required && k.col == nil {
			return nil, fmt.Errorf("submissions: required column %s is missing", k.name)
		}
	}
	n := len(*c.AccessionNumber)
	for _, k := range cols[1:] {
		if k.col != nil && len(*k.col) != n {
			return nil, fmt.Errorf("submissions: column lengths differ: accessionNumber has %d entries, %s has %d", n, k.name, len(*k.col))
		}
	}
	at := func(col *[]string, i int) string {
		if col == nil {
			return ""
		}
		return (*col)[i]
	}
	out := make([]Filing, n)
	for i := range out {
		f := Filing{
			Accession:          (*c.AccessionNumber)[i],
			Form:               (*c.Form)[i],
			FilingDate:         (*c.FilingDate)[i],
			ReportDate:         at(c.ReportDate, i),
			AcceptanceDateTime: at(c.AcceptanceDateTime, i),
			PrimaryDocument:    at(c.PrimaryDocument, i),
		}
		if len(c.Size) == n {
			if v, err := strconv.ParseInt(string(c.Size[i]), 10, 64); err == nil && v > 0 {
				f.Size = v
			}
		}
		if !edgarid.IsAccession(f.Accession) {
			return nil, fmt.Errorf("submissions: entry %d: accessionNumber %q is not of the form 0000000000-00-000000", i, f.Accession)
		}
		if !isDate(f.FilingDate) {
			return nil, fmt.Errorf("submissions: entry %d (%s): filingDate %q is not YYYY-MM-DD", i, f.Accession, f.FilingDate)
		}
		if f.ReportDate != "" && !isDate(f.ReportDate) {
			return nil, fmt.Errorf("submissions: entry %d (%s): reportDate %q is neither YYYY-MM-DD nor empty", i, f.Accession, f.ReportDate)
		}
		out[i] = f
	}
	return out, nil
}

// IsMonthDay reports whether s is a month and day written MMDD, such as
// "0927" or "0229" (a day some year has).
func IsMonthDay(s string) bool {
	if len(s) != 4 {
		return false
	}
	_, err := time.Parse("2006-0102", "2024-"+s)
	return err == nil
}

// isDate reports whether s is a real calendar date written YYYY-MM-DD.
func isDate(s string) bool {
	if len(s) != 10 {
		return false
	}
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}

// RawCoverName returns the file name of the raw XML cover for a primaryDocument value:
// "xslForm13F_X02/primary_doc.xml" -> "primary_doc.xml", true; a ".txt" primary document (pre-2013 text filings) -> "", false.
//
// Any primaryDocument naming an XML file yields its last path element (the
// xsl rendering directory is dropped); anything else (.txt, .htm, "")
// yields "", false.
func RawCoverName(primaryDocument string) (string, bool) {
	base := path.Base(primaryDocument)
	if primaryDocument == "" || strings.HasSuffix(primaryDocument, "/") || !strings.HasSuffix(strings.ToLower(base), ".xml") || base == ".xml" {
		return "", false
	}
	return base, true
}
