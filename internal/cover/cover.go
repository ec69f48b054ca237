// Package cover parses the cover page of a Form 13F filing, the
// primary_doc.xml document whose root element is edgarSubmission.
//
// Elements are matched by local name and position only, so the namespace
// prefixes used by different filing agents (none, ns1:, com:) make no
// difference.
package cover

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"golang.org/x/net/html/charset"

	"github.com/edgar13f/edgar13f/internal/civil"
)

// A Cover holds the facts of a 13F cover page that edgar13f uses.
type Cover struct {
	SubmissionType          string // headerData/submissionType, e.g. "13F-HR/A"
	CIK                     string // headerData/filerInfo/filer/credentials/cik, as written
	PeriodOfReport          string // headerData/filerInfo/periodOfReport as "YYYY-MM-DD", "" if absent
	ReportCalendarOrQuarter string // formData/coverPage/reportCalendarOrQuarter as "YYYY-MM-DD", "" if absent
	IsAmendment             bool   // coverPage/isAmendment; false if absent
	AmendmentNo             int    // 0 if absent or empty
	AmendmentType           string // "RESTATEMENT", "NEW HOLDINGS" (upper-cased, inner whitespace collapsed) or "" if absent/empty
	ReportType              string // e.g. "13F HOLDINGS REPORT", "13F NOTICE", "13F COMBINATION REPORT" (trimmed)
	ManagerName             string // coverPage/filingManager/name
	SignatureDate           string // "YYYY-MM-DD" or "" if absent or malformed
	HasTotals               bool   // summaryPage has non-empty tableEntryTotal and tableValueTotal
	TableEntryTotal         int64  // summaryPage/tableEntryTotal; 0 unless HasTotals
	TableValueTotal         int64  // summaryPage/tableValueTotal; 0 unless HasTotals
	ConfidentialOmitted     bool   // summaryPage/isConfidentialOmitted == true (absent = false)
	OtherIncludedManagers   int    // summaryPage/otherIncludedManagersCount, 0 if absent/empty
}

// Period returns ReportCalendarOrQuarter, else PeriodOfReport.
func (c *Cover) Period() string {
	if c.ReportCalendarOrQuarter != "" {
		return c.ReportCalendarOrQuarter
	}
	return c.PeriodOfReport
}

// maxDepth bounds the nesting of elements below the root. Real cover pages
// nest about six deep; the bound keeps hostile documents from costing time
// quadratic in their depth.
const maxDepth = 64

// Element paths below the root, by local name.
const (
	pathSubmissionType  = "headerData/submissionType"
	pathCIK             = "headerData/filerInfo/filer/credentials/cik"
	pathPeriodOfReport  = "headerData/filerInfo/periodOfReport"
	pathReportCalendar  = "formData/coverPage/reportCalendarOrQuarter"
	pathIsAmendment     = "formData/coverPage/isAmendment"
	pathAmendmentNo     = "formData/coverPage/amendmentNo"
	pathAmendmentType   = "formData/coverPage/amendmentInfo/amendmentType"
	pathReportType      = "formData/coverPage/reportType"
	pathManagerName     = "formData/coverPage/filingManager/name"
	pathSignatureDate   = "formData/signatureBlock/signatureDate"
	pathOtherIncluded   = "formData/summaryPage/otherIncludedManagersCount"
	pathTableEntryTotal = "formData/summaryPage/tableEntryTotal"
	pathTableValueTotal = "formData/summaryPage/tableValueTotal"
	pathConfidential    = "formData/summaryPage/isConfidentialOmitted"
)

// Parse reads a cover page document (edgarSubmission).
//
// Leading white space and a UTF-8 byte order mark are skipped; a declared
// encoding other than UTF-8 is honoured. The root element must be
// edgarSubmission. A malformed reportCalendarOrQuarter or periodOfReport, a
// boolean that is not true/false/Y/N/1/0, or a count or total that is not a
// non-negative integer (commas allowed) is an error. Empty elements count as
// absent.
func Parse(data []byte) (*Cover, error) {
	data = bytes.TrimLeft(bytes.TrimPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("\ufeff")), " \t\r\n")
	if len(data) == 0 {
		return nil, errors.New("cover: empty document")
	}
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.CharsetReader = charset.NewReaderLabel

	var (
		c        Cover
		stack    []string // local names below the root
		path     string   // stack joined by "/"
		text     strings.Builder
		rootSeen bool
		rootDone bool
		entry    string
		value    string
	)
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("cover: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if rootDone {
				return nil, errors.New("cover: content after the root element")
			}
			if !rootSeen {
				if t.Name.Local != "edgarSubmission" {
					return nil, fmt.Errorf("cover: root element is %q, not edgarSubmission", t.Name.Local)
				}
				rootSeen = true
				continue
			}
			if len(stack) >= maxDepth {
				return nil, fmt.Errorf("cover: elements nested more than %d deep", maxDepth)
			}
			stack = append(stack, t.Name.Local)
			path = strings.Join(stack, "/")
			text.Reset()
		case xml.CharData:
			if len(stack) > 0 {
				text.Write(t)
			}
		case xml.EndElement:
			if len(stack) == 0 {
				rootDone = true
				continue
			}
			v := strings.TrimSpace(text.String())
			text.Reset()
			if err := c.set(path, v, &entry, &value); err != nil {
				return nil, err
			}
			stack = stack[:len(stack)-1]
			path = strings.Join(stack, "/")
		}
	}
	if !rootSeen {
		return nil, errors.New("cover: no edgarSubmission element")
	}
	if !rootDone {
		return nil, errors.New("cover: truncated document")
	}
	if entry != "" && value != "" {
		n, err := parseCount(pathTableEntryTotal, entry)
		if err != nil {
			return nil, err
		}
		m, err := parseCount(pathTableValueTotal, value)
		if err != nil {
			return nil, err
		}
		c.HasTotals, c.TableEntryTotal, c.TableValueTotal = true, n, m
	}
	return &c, nil
}

// set records the trimmed text v of the element at path. The two table
// totals are only collected into entry and value; Parse interprets them.
func (c *Cover) set(path, v string, entry, value *string) error {
	var err error
	switch path {
	case pathSubmissionType:
		c.SubmissionType = v
	case pathCIK:
		c.CIK = v
	case pathPeriodOfReport:
		if v != "" {
			if c.PeriodOfReport, err = parseDate(v); err != nil {
				return fmt.Errorf("cover: periodOfReport: %w", err)
			}
		}
	case pathReportCalendar:
		if v != "" {
			if c.ReportCalendarOrQuarter, err = parseDate(v); err != nil {
				return fmt.Errorf("cover: reportCalendarOrQuarter: %w", err)
			}
		}
	case pathIsAmendment:
		c.IsAmendment, err = parseBool(path, v)
	case pathAmendmentNo:
		var n int64
		n, err = parseCount(path, v)
		c.AmendmentNo = int(n)
	case pathAmendmentType:
		c.AmendmentType = strings.ToUpper(strings.Join(strings.Fields(v), " "))
	case pathReportType:
		c.ReportType = v
	case pathManagerName:
		c.ManagerName = v
	case pathSignatureDate:
		c.SignatureDate, _ = parseDate(v)
	case pathOtherIncluded:
		var n int64
		n, err = parseCount(path, v)
		c.OtherIncludedManagers = int(n)
	case pathTableEntryTotal:
		*entry = v
	case pathTableValueTotal:
		*value = v
	case pathConfidential:
		c.ConfidentialOmitted, err = parseBool(path, v)
	}
	return err
}

// elementName returns the last element of path.
func elementName(path string) string {
	return path[strings.LastIndexByte(path, '/')+1:]
}

// parseBool parses a cover page boolean; "" is false.
func parseBool(path, v string) (bool, error) {
	switch strings.ToLower(v) {
	case "", "false", "n", "0":
		return false, nil
	case "true", "y", "1":
		return true, nil
	}
	return false, fmt.Errorf("cover: %s: %q is not a boolean", elementName(path), v)
}

// parseCount parses a non-negative integer that may carry commas; "" is 0.
func parseCount(path, v string) (int64, error) {
	if v == "" {
		return 0, nil
	}
	s := strings.ReplaceAll(v, ",", "")
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return 0, fmt.Errorf("cover: %s: %q is not a non-negative integer", elementName(path), v)
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("cover: %s: %q is out of range", elementName(path), v)
	}
	return n, nil
}

// parseDate converts an M-D-YYYY date (one or two digits for month and day)
// to YYYY-MM-DD, rejecting impossible dates.
func parseDate(v string) (string, error) {
	parts := strings.Split(v, "-")
	if len(parts) != 3 || !digits(parts[0], 1, 2) || !digits(parts[1], 1, 2) || !digits(parts[2], 4, 4) {
		return "", fmt.Errorf("%q is not an MM-DD-YYYY date", v)
	}
	m, _ := strconv.Atoi(parts[0])
	d, _ := strconv.Atoi(parts[1])
	y, _ := strconv.Atoi(parts[2])
	if !civil.Valid(y, time.Month(m), d) {
		return "", fmt.Errorf("%q is not a valid date", v)
	}
	return fmt.Sprintf("%04d-%02d-%02d", y, m, d), nil
}

// digits reports whether s is between min and max ASCII digits long.
func digits(s string, min, max int) bool {
	if len(s) < min || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
