package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strings"
	"time"
	_ "time/tzdata" // America/New_York regardless of the host's zone files
)

// eastern is EDGAR's time zone.
var eastern = mustLoc("America/New_York")

func mustLoc(name string) *time.Location {
	l, err := time.LoadLocation(name)
	if err != nil {
		panic(err)
	}
	return l
}

// row is one entry of a submissions column object.
type row struct {
	acc, filed, report string
	accepted           time.Time
	act, form, fileNo  string
	film, items        string
	size               int
	xbrl, ixbrl        int
	doc, docDesc       string
}

// columns is the column-oriented filing list (filings.recent, or a whole
// older page), in EDGAR's key order.
type columns struct {
	AccessionNumber       []string `json:"accessionNumber"`
	FilingDate            []string `json:"filingDate"`
	ReportDate            []string `json:"reportDate"`
	AcceptanceDateTime    []string `json:"acceptanceDateTime"`
	Act                   []string `json:"act"`
	Form                  []string `json:"form"`
	FileNumber            []string `json:"fileNumber"`
	FilmNumber            []string `json:"filmNumber"`
	Items                 []string `json:"items"`
	CoreType              []string `json:"core_type"`
	Size                  []int    `json:"size"`
	IsXBRL                []int    `json:"isXBRL"`
	IsInlineXBRL          []int    `json:"isInlineXBRL"`
	PrimaryDocument       []string `json:"primaryDocument"`
	PrimaryDocDescription []string `json:"primaryDocDescription"`
}

// makeColumns sorts rows newest first (filing date, acceptance time,
// accession, all descending) and turns them into columns.
func makeColumns(rows []row) columns {
	rs := append([]row(nil), rows...)
	sortRowsNewestFirst(rs)
	c := columns{}
	c.AccessionNumber = []string{}
	c.FilingDate, c.ReportDate, c.AcceptanceDateTime = []string{}, []string{}, []string{}
	c.Act, c.Form, c.FileNumber, c.FilmNumber, c.Items, c.CoreType = []string{}, []string{}, []string{}, []string{}, []string{}, []string{}
	c.Size, c.IsXBRL, c.IsInlineXBRL = []int{}, []int{}, []int{}
	c.PrimaryDocument, c.PrimaryDocDescription = []string{}, []string{}
	for _, r := range rs {
		c.AccessionNumber = append(c.AccessionNumber, r.acc)
		c.FilingDate = append(c.FilingDate, r.filed)
		c.ReportDate = append(c.ReportDate, r.report)
		c.AcceptanceDateTime = append(c.AcceptanceDateTime, r.accepted.UTC().Format("2006-01-02T15:04:05.000Z"))
		c.Act = append(c.Act, r.act)
		c.Form = append(c.Form, r.form)
		c.FileNumber = append(c.FileNumber, r.fileNo)
		c.FilmNumber = append(c.FilmNumber, r.film)
		c.Items = append(c.Items, r.items)
		c.CoreType = append(c.CoreType, r.form)
		c.Size = append(c.Size, r.size)
		c.IsXBRL = append(c.IsXBRL, r.xbrl)
		c.IsInlineXBRL = append(c.IsInlineXBRL, r.ixbrl)
		c.PrimaryDocument = append(c.PrimaryDocument, r.doc)
		c.PrimaryDocDescription = append(c.PrimaryDocDescription, r.docDesc)
	}
	return c
}

func sortRowsNewestFirst(rs []row) {
	less := func(a, b row) bool {
		if a.filed != b.filed {
			return a.filed > b.filed
		}
		if !a.accepted.Equal(b.accepted) {
			return a.accepted.After(b.accepted)
		}
		return a.acc > b.acc
	}
	for i := 1; i < len(rs); i++ {
		for j := i; j > 0 && less(rs[j], rs[j-1]); j-- {
			rs[j], rs[j-1] = rs[j-1], rs[j]
		}
	}
}

// address is a submissions API address object.
type address struct {
	Street1                   string  `json:"street1"`
	Street2                   *string `json:"street2"`
	City                      string  `json:"city"`
	StateOrCountry            string  `json:"stateOrCountry"`
	ZipCode                   string  `json:"zipCode"`
	StateOrCountryDescription string  `json:"stateOrCountryDescription"`
	IsForeignLocation         *int    `json:"isForeignLocation"`
	ForeignStateTerritory     *string `json:"foreignStateTerritory"`
	Country                   *string `json:"country"`
	CountryCode               *string `json:"countryCode"`
}

type formerName struct {
	Name string `json:"name"`
	From string `json:"from"`
	To   string `json:"to"`
}

type pageRef struct {
	Name        string `json:"name"`
	FilingCount int    `json:"filingCount"`
	FilingFrom  string `json:"filingFrom"`
	FilingTo    string `json:"filingTo"`
}

// entity is a submissions API response, in EDGAR's key order.
type entity struct {
	CIK                               string       `json:"cik"`
	EntityType                        string       `json:"entityType"`
	SIC                               string       `json:"sic"`
	SICDescription                    string       `json:"sicDescription"`
	OwnerOrg                          *string      `json:"ownerOrg"`
	InsiderTransactionForOwnerExists  int          `json:"insiderTransactionForOwnerExists"`
	InsiderTransactionForIssuerExists int          `json:"insiderTransactionForIssuerExists"`
	Name                              string       `json:"name"`
	Tickers                           []string     `json:"tickers"`
	Exchanges                         []string     `json:"exchanges"`
	EIN                               *string      `json:"ein"`
	LEI                               *string      `json:"lei"`
	Description                       string       `json:"description"`
	Website                           string       `json:"website"`
	InvestorWebsite                   string       `json:"investorWebsite"`
	Category                          string       `json:"category"`
	FiscalYearEnd                     *string      `json:"fiscalYearEnd"`
	StateOfIncorporation              string       `json:"stateOfIncorporation"`
	StateOfIncorporationDescription   string       `json:"stateOfIncorporationDescription"`
	Addresses                         addresses    `json:"addresses"`
	Phone                             string       `json:"phone"`
	Flags                             string       `json:"flags"`
	FormerNames                       []formerName `json:"formerNames"`
	Filings                           struct {
		Recent columns   `json:"recent"`
		Files  []pageRef `json:"files"`
	} `json:"filings"`
}

func strp(s string) *string { return &s }
func intp(i int) *int       { return &i }

// usAddress returns a domestic address as EDGAR reports it.
func usAddress(street1, street2, city, state, zip string) address {
	a := address{Street1: street1, City: city, StateOrCountry: state, ZipCode: zip,
		StateOrCountryDescription: state, IsForeignLocation: intp(0)}
	if street2 != "" {
		a.Street2 = strp(street2)
	}
	return a
}

// compactJSON encodes v as EDGAR does: one line, no HTML escaping, no
// trailing newline.
func compactJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("mkmirror: %w", err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// header holds the facts of a complete submission's SEC-HEADER.
type header struct {
	acc, form, period, filed string // period and filed as YYYY-MM-DD
	accepted                 time.Time
	name, cik10, sic, irs    string
	stateInc, fye            string
	fileNo, film             string
	street1, city, state     string
	zip, phone               string
}

// doc is one document of a complete submission.
type doc struct {
	typ, filename string
	body          []byte
}

func compact(date string) string { return strings.ReplaceAll(date, "-", "") }

// container builds a complete submission text (<accession>.txt) in the
// layout of the real ones: tab-aligned header, then each document's bytes
// between "<XML>\n" and "</XML>\n".
func container(h header, docs []doc) []byte {
	var b bytes.Buffer
	filed := compact(h.filed)
	fmt.Fprintf(&b, "<SEC-DOCUMENT>%s.txt : %s\n", h.acc, filed)
	fmt.Fprintf(&b, "<SEC-HEADER>%s.hdr.sgml : %s\n", h.acc, filed)
	fmt.Fprintf(&b, "<ACCEPTANCE-DATETIME>%s\n", h.accepted.In(eastern).Format("20060102150405"))
	fmt.Fprintf(&b, "ACCESSION NUMBER:\t\t%s\n", h.acc)
	fmt.Fprintf(&b, "CONFORMED SUBMISSION TYPE:\t%s\n", h.form)
	fmt.Fprintf(&b, "PUBLIC DOCUMENT COUNT:\t\t%d\n", len(docs))
	fmt.Fprintf(&b, "CONFORMED PERIOD OF REPORT:\t%s\n", compact(h.period))
	fmt.Fprintf(&b, "FILED AS OF DATE:\t\t%s\n", filed)
	fmt.Fprintf(&b, "DATE AS OF CHANGE:\t\t%s\n", filed)
	fmt.Fprintf(&b, "EFFECTIVENESS DATE:\t\t%s\n", filed)
	b.WriteString("\nFILER:\n\n\tCOMPANY DATA:\t\n")
	fmt.Fprintf(&b, "\t\tCOMPANY CONFORMED NAME:\t\t\t%s\n", h.name)
	fmt.Fprintf(&b, "\t\tCENTRAL INDEX KEY:\t\t\t%s\n", h.cik10)
	if h.sic != "" {
		fmt.Fprintf(&b, "\t\tSTANDARD INDUSTRIAL CLASSIFICATION:\t%s\n", h.sic)
	}
	fmt.Fprintf(&b, "\t\tIRS NUMBER:\t\t\t\t%s\n", h.irs)
	fmt.Fprintf(&b, "\t\tSTATE OF INCORPORATION:\t\t\t%s\n", h.stateInc)
	fmt.Fprintf(&b, "\t\tFISCAL YEAR END:\t\t\t%s\n", h.fye)
	b.WriteString("\n\tFILING VALUES:\n")
	fmt.Fprintf(&b, "\t\tFORM TYPE:\t\t%s\n", h.form)
	b.WriteString("\t\tSEC ACT:\t\t1934 Act\n")
	fmt.Fprintf(&b, "\t\tSEC FILE NUMBER:\t%s\n", h.fileNo)
	fmt.Fprintf(&b, "\t\tFILM NUMBER:\t\t%s\n", h.film)
	for _, sec := range []string{"BUSINESS ADDRESS", "MAIL ADDRESS"} {
		fmt.Fprintf(&b, "\n\t%s:\t\n", sec)
		fmt.Fprintf(&b, "\t\tSTREET 1:\t\t%s\n", h.street1)
		fmt.Fprintf(&b, "\t\tCITY:\t\t\t%s\n", h.city)
		fmt.Fprintf(&b, "\t\tSTATE:\t\t\t%s\n", h.state)
		fmt.Fprintf(&b, "\t\tZIP:\t\t\t%s\n", h.zip)
		if sec == "BUSINESS ADDRESS" {
			fmt.Fprintf(&b, "\t\tBUSINESS PHONE:\t\t%s\n", h.phone)
		}
	}
	b.WriteString("</SEC-HEADER>\n")
	for i, d := range docs {
		if !bytes.HasSuffix(d.body, []byte("\n")) {
			panic("mkmirror: document " + d.filename + " does not end with a newline")
		}
		fmt.Fprintf(&b, "<DOCUMENT>\n<TYPE>%s\n<SEQUENCE>%d\n<FILENAME>%s\n<TEXT>\n<XML>\n", d.typ, i+1, d.filename)
		b.Write(d.body)
		b.WriteString("</XML>\n</TEXT>\n</DOCUMENT>\n")
	}
	b.WriteString("</SEC-DOCUMENT>\n")
	return b.Bytes()
}

// splitContainer returns the header lines and documents of a complete
// submission text; each document body is the exact bytes between "<XML>\n"
// and "</XML>".
func splitContainer(txt []byte) (hdr map[string]string, docs []doc, err error) {
	end := bytes.Index(txt, []byte("</SEC-HEADER>"))
	if end < 0 {
		return nil, nil, fmt.Errorf("mkmirror: no </SEC-HEADER>")
	}
	hdr = map[string]string{}
	section := ""
	for _, line := range strings.Split(string(txt[:end]), "\n") {
		if v, ok := strings.CutPrefix(line, "<ACCEPTANCE-DATETIME>"); ok {
			hdr["ACCEPTANCE-DATETIME"] = v
			continue
		}
		k, v, ok := strings.Cut(strings.TrimLeft(line, "\t"), ":")
		if !ok {
			continue
		}
		v = strings.Trim(v, "\t ")
		if v == "" {
			section = k + "/"
			continue
		}
		if !strings.HasPrefix(line, "\t") {
			section = ""
		}
		hdr[section+k] = v
	}
	rest := txt[end:]
	for {
		i := bytes.Index(rest, []byte("<DOCUMENT>\n"))
		if i < 0 {
			break
		}
		rest = rest[i+len("<DOCUMENT>\n"):]
		j := bytes.Index(rest, []byte("</DOCUMENT>"))
		if j < 0 {
			return nil, nil, fmt.Errorf("mkmirror: unterminated <DOCUMENT>")
		}
		block := rest[:j]
		rest = rest[j:]
		var d doc
		for _, line := range strings.Split(string(block), "\n") {
			if v, ok := strings.CutPrefix(line, "<TYPE>"); ok {
				d.typ = v
			}
			if v, ok := strings.CutPrefix(line, "<FILENAME>"); ok {
				d.filename = v
			}
			if line == "<XML>" {
				break
			}
		}
		x := bytes.Index(block, []byte("<XML>\n"))
		y := bytes.LastIndex(block, []byte("</XML>"))
		if x < 0 || y < x {
			return nil, nil, fmt.Errorf("mkmirror: document %s has no <XML> block", d.filename)
		}
		d.body = block[x+len("<XML>\n") : y]
		docs = append(docs, d)
	}
	return hdr, docs, nil
}

// hash returns a small deterministic number derived from s.
func hash(s string, mod int) int {
	h := fnv.New32a()
	h.Write([]byte(s))
	return int(h.Sum32() % uint32(mod))
}

// afternoon returns a plausible acceptance time on an Eastern business date:
// 16:00-16:59 local, chosen by the accession number.
func afternoon(date, acc string) time.Time {
	d := mustDate(date)
	n := hash(acc, 3600)
	return time.Date(d.Year(), d.Month(), d.Day(), 16, n/60, n%60, 0, eastern)
}

// atEastern returns date at hh:mm:ss Eastern.
func atEastern(date string, hh, mm, ss int) time.Time {
	d := mustDate(date)
	return time.Date(d.Year(), d.Month(), d.Day(), hh, mm, ss, 0, eastern)
}

// utc parses an EDGAR UTC timestamp such as 2023-11-16T21:46:50Z.
func utc(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func mustDate(s string) time.Time {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return t
}

// addDays shifts a YYYY-MM-DD date.
func addDays(s string, n int) string { return mustDate(s).AddDate(0, 0, n).Format("2006-01-02") }

// mdy turns YYYY-MM-DD into the MM-DD-YYYY of 13F XML.
func mdy(s string) string { return s[5:7] + "-" + s[8:10] + "-" + s[0:4] }

// film returns a plausible film number for a filing date.
func film(date, acc string) string {
	d := mustDate(date)
	return fmt.Sprintf("%02d%03d%04d", d.Year()%100, d.YearDay(), hash(acc, 10000))
}

// noDashes removes the dashes of an accession number.
func noDashes(acc string) string { return strings.ReplaceAll(acc, "-", "") }

// folder returns the mirror path of a filing's folder.
func folder(cik int, acc string) string {
	return fmt.Sprintf("www.sec.gov/Archives/edgar/data/%d/%s/", cik, noDashes(acc))
}

// xsl13F returns the rendered primaryDocument of a 13F filed on date.
func xsl13F(filed string) string {
	if filed < "2023-01-01" {
		return "xslForm13F_X01/primary_doc.xml"
	}
	return "xslForm13F_X02/primary_doc.xml"
}

// replaceOnce replaces the single occurrence of old in s, or panics: the
// templates are fixed real documents, so a miss is a programming error.
func replaceOnce(s, old, repl string) string {
	if strings.Count(s, old) != 1 {
		panic(fmt.Sprintf("mkmirror: %q occurs %d times in template", old, strings.Count(s, old)))
	}
	return strings.Replace(s, old, repl, 1)
}

// addresses is the submissions API addresses object, mailing first.
type addresses struct {
	Mailing  address `json:"mailing"`
	Business address `json:"business"`
}
