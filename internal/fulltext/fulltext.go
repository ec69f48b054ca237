// Package fulltext splits an EDGAR complete submission text file
// (<accession>.txt, or the dissemination-feed .nc variant) into its header
// facts and its documents.
//
// Document bodies are never copied: each Document's Text is a sub-slice of
// the input, so that information tables of tens of megabytes cost no more
// than the bytes already read.
package fulltext

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/edgar13f/edgar13f/internal/civil"
)

// A Submission is a parsed complete submission text file.
type Submission struct {
	Accession          string // ACCESSION NUMBER (dashed)
	Type               string // CONFORMED SUBMISSION TYPE
	PeriodOfReport     string // CONFORMED PERIOD OF REPORT as YYYY-MM-DD, "" if absent
	FiledAsOf          string // FILED AS OF DATE as YYYY-MM-DD, "" if absent
	AcceptanceDateTime string // raw, e.g. "20230323112745" (US Eastern, no zone), "" if absent
	Documents          []Document
}

// A Document is one <DOCUMENT> of a submission.
type Document struct {
	Type        string // <TYPE>, e.g. "13F-HR", "INFORMATION TABLE"
	Sequence    string // <SEQUENCE>
	Filename    string // <FILENAME>
	Description string // <DESCRIPTION>, "" if absent
	// Text is the content between <XML> and </XML> when present (leading
	// white space trimmed), else between <TEXT> and </TEXT> (without the
	// line break that follows <TEXT>); nil if the document has no <TEXT>.
	// It is a sub-slice of the input, not a copy, with its capacity
	// limited to its length.
	Text []byte
}

// Document returns the first document whose Type equals typ
// (case-insensitively, ignoring surrounding space), or nil.
func (s *Submission) Document(typ string) *Document {
	typ = strings.TrimSpace(typ)
	for i := range s.Documents {
		if strings.EqualFold(strings.TrimSpace(s.Documents[i].Type), typ) {
			return &s.Documents[i]
		}
	}
	return nil
}

var (
	tagDocument    = []byte("<DOCUMENT>")
	tagDocumentEnd = []byte("</DOCUMENT>")
	tagText        = []byte("<TEXT>")
	tagTextEnd     = []byte("</TEXT>")
	tagXML         = []byte("<XML>")
	tagXMLEnd      = []byte("</XML>")
)

// Parse splits a complete submission into its header facts and documents.
//
// Line breaks may be LF, CRLF or CR. The header may be the tab-aligned
// "KEY:<tab>value" form of <accession>.txt or the SGML leaf tags of the
// dissemination feed (<ACCESSION-NUMBER>, <TYPE>, <PERIOD>, <FILING-DATE>).
// Input that does not begin with <SEC-DOCUMENT>, <SEC-HEADER> or
// <SUBMISSION>, a header without accession number or submission type, a
// malformed header date, a submission without documents and a document
// without its closing tags are errors.
func Parse(data []byte) (*Submission, error) {
	start := skipSpace(data)
	rest := data[start:]
	if len(rest) == 0 {
		return nil, errors.New("fulltext: empty input")
	}
	if !bytes.HasPrefix(rest, []byte("<SEC-DOCUMENT>")) && !bytes.HasPrefix(rest, []byte("<SEC-HEADER>")) &&
		!bytes.HasPrefix(rest, []byte("<SUBMISSION>")) {
		return nil, fmt.Errorf("fulltext: not a complete submission: starts with %q", head(rest))
	}

	first := indexAtLineStart(data, start, tagDocument)
	headerEnd := first
	if first < 0 {
		headerEnd = len(data)
	}
	s, err := parseHeader(data[start:headerEnd])
	if err != nil {
		return nil, err
	}
	if first < 0 {
		return nil, errors.New("fulltext: no <DOCUMENT> in submission")
	}

	for pos := first; pos >= 0; pos = indexAtLineStart(data, pos, tagDocument) {
		n := len(s.Documents) + 1
		body := pos + len(tagDocument)
		end := bytes.Index(data[body:], tagDocumentEnd)
		if end < 0 {
			return nil, fmt.Errorf("fulltext: document %d has no </DOCUMENT>", n)
		}
		end += body
		if next := indexAtLineStart(data[:end], body, tagDocument); next >= 0 {
			return nil, fmt.Errorf("fulltext: document %d has no </DOCUMENT>", n)
		}
		d, err := parseDocument(data[body:end])
		if err != nil {
			return nil, fmt.Errorf("fulltext: document %d: %w", n, err)
		}
		s.Documents = append(s.Documents, d)
		pos = end + len(tagDocumentEnd)
	}
	return s, nil
}

// parseHeader reads the header facts from the part of a submission before
// its first document.
func parseHeader(h []byte) (*Submission, error) {
	var s Submission
	var period, filed string
	set := func(dst *string, v string) {
		if *dst == "" {
			*dst = v
		}
	}
	for len(h) > 0 {
		var line []byte
		line, h = nextLine(h)
		line = bytes.TrimSpace(line)
		if tag, v, ok := leafTag(line); ok {
			switch tag {
			case "ACCEPTANCE-DATETIME":
				set(&s.AcceptanceDateTime, v)
			case "ACCESSION-NUMBER":
				set(&s.Accession, v)
			case "TYPE":
				set(&s.Type, v)
			case "PERIOD":
				set(&period, v)
			case "FILING-DATE":
				set(&filed, v)
			}
			continue
		}
		key, v, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		val := string(bytes.TrimSpace(v))
		switch string(bytes.TrimSpace(key)) {
		case "ACCESSION NUMBER":
			set(&s.Accession, val)
		case "CONFORMED SUBMISSION TYPE":
			set(&s.Type, val)
		case "CONFORMED PERIOD OF REPORT":
			set(&period, val)
		case "FILED AS OF DATE":
			set(&filed, val)
		}
	}
	if s.Accession == "" {
		return nil, errors.New("fulltext: header has no accession number")
	}
	acc, ok := dashAccession(s.Accession)
	if !ok {
		return nil, fmt.Errorf("fulltext: malformed accession number %q", s.Accession)
	}
	s.Accession = acc
	if s.Type == "" {
		return nil, errors.New("fulltext: header has no submission type")
	}
	var err error
	if s.PeriodOfReport, err = isoDate(period); err != nil {
		return nil, fmt.Errorf("fulltext: period of report: %w", err)
	}
	if s.FiledAsOf, err = isoDate(filed); err != nil {
		return nil, fmt.Errorf("fulltext: filed as of date: %w", err)
	}
	return &s, nil
}

// parseDocument reads one document, given the bytes between <DOCUMENT> and
// </DOCUMENT>.
func parseDocument(doc []byte) (Document, error) {
	var d Document
	rest := doc
	for len(rest) > 0 {
		var line []byte
		line, rest = nextLine(rest)
		tag, v, ok := leafTag(bytes.TrimSpace(line))
		if !ok {
			continue
		}
		switch tag {
		case "TYPE":
			d.Type = v
		case "SEQUENCE":
			d.Sequence = v
		case "FILENAME":
			d.Filename = v
		case "DESCRIPTION":
			d.Description = v
		}
		if tag == "TEXT" {
			break
		}
	}

	i := bytes.Index(doc, tagText)
	if i < 0 {
		return d, nil
	}
	body := i + len(tagText)
	j := bytes.LastIndex(doc, tagTextEnd)
	if j < body {
		return Document{}, errors.New("no </TEXT>")
	}
	text := doc[body:j]
	if k := skipSpace(text); bytes.HasPrefix(text[k:], tagXML) {
		x := text[k+len(tagXML):]
		e := bytes.LastIndex(x, tagXMLEnd)
		if e < 0 {
			return Document{}, errors.New("no </XML>")
		}
		x = x[skipSpace(x[:e]):e]
		d.Text = x[:len(x):len(x)]
		return d, nil
	}
	switch {
	case bytes.HasPrefix(text, []byte("\r\n")):
		text = text[2:]
	case len(text) > 0 && (text[0] == '\n' || text[0] == '\r'):
		text = text[1:]
	}
	d.Text = text[:len(text):len(text)]
	return d, nil
}

// leafTag splits a line such as "<TYPE>13F-HR" into its tag name and its
// trimmed value.
func leafTag(line []byte) (tag, value string, ok bool) {
	if len(line) < 3 || line[0] != '<' || line[1] == '/' {
		return "", "", false
	}
	end := bytes.IndexByte(line, '>')
	if end < 2 {
		return "", "", false
	}
	return string(line[1:end]), string(bytes.TrimSpace(line[end+1:])), true
}

// nextLine returns the first line of b, without its line break, and the
// rest of b. A line ends at LF, CRLF or CR.
func nextLine(b []byte) (line, rest []byte) {
	i := bytes.IndexAny(b, "\r\n")
	if i < 0 {
		return b, nil
	}
	if b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n' {
		return b[:i], b[i+2:]
	}
	return b[:i], b[i+1:]
}

// indexAtLineStart returns the index in data of the first occurrence of tag
// at or after from that begins a line, or -1.
func indexAtLineStart(data []byte, from int, tag []byte) int {
	for from <= len(data) {
		i := bytes.Index(data[from:], tag)
		if i < 0 {
			return -1
		}
		i += from
		if i == 0 || data[i-1] == '\n' || data[i-1] == '\r' {
			return i
		}
		from = i + len(tag)
	}
	return -1
}

// skipSpace returns the index of the first byte of b that is neither ASCII
// white space nor part of a UTF-8 byte order mark.
func skipSpace(b []byte) int {
	i := 0
	for i < len(b) {
		switch {
		case b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n':
			i++
		case bytes.HasPrefix(b[i:], []byte("\ufeff")):
			i += 3
		default:
			return i
		}
	}
	return i
}

// head returns up to the first 20 bytes of b, for error messages.
func head(b []byte) []byte {
	if len(b) > 20 {
		return b[:20]
	}
	return b
}

// dashAccession returns acc as 0000000000-00-000000, accepting the dashed
// form and 18 bare digits.
func dashAccession(acc string) (string, bool) {
	bare := strings.ReplaceAll(acc, "-", "")
	if len(bare) != 18 || strings.Trim(bare, "0123456789") != "" {
		return "", false
	}
	dashed := bare[:10] + "-" + bare[10:12] + "-" + bare[12:]
	if acc != bare && acc != dashed {
		return "", false
	}
	return dashed, true
}

// isoDate converts YYYYMMDD to YYYY-MM-DD; "" stays "".
func isoDate(v string) (string, error) {
	if v == "" {
		return "", nil
	}
	bad := fmt.Errorf("%q is not a YYYYMMDD date", v)
	if len(v) != 8 {
		return "", bad
	}
	y, ok1 := civil.Digits(v[:4])
	m, ok2 := civil.Digits(v[4:6])
	d, ok3 := civil.Digits(v[6:])
	if !ok1 || !ok2 || !ok3 || !civil.Valid(y, time.Month(m), d) {
		return "", bad
	}
	return v[:4] + "-" + v[4:6] + "-" + v[6:], nil
}
