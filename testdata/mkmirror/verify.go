package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// coverXML holds the cover fields the checks compare.
type coverXML struct {
	SubmissionType string `xml:"headerData>submissionType"`
	Period         string `xml:"formData>coverPage>reportCalendarOrQuarter"`
	Entries        string `xml:"formData>summaryPage>tableEntryTotal"`
	Value          string `xml:"formData>summaryPage>tableValueTotal"`
}

func parseCover(b []byte) (coverXML, error) {
	var c coverXML
	if err := xml.Unmarshal(trimLeadingSpace(b), &c); err != nil {
		return c, fmt.Errorf("mkmirror: cover: %w", err)
	}
	return c, nil
}

var jsonName = regexp.MustCompile(`^CIK(\d{10})(-submissions-\d{3})?\.json$`)

// verify checks the whole mirror tree.
func (g *gen) verify() error {
	var nJSON, nCovers, nTxt, nTables int
	err := filepath.WalkDir(g.out, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(g.out, path)
		rel = filepath.ToSlash(rel)
		switch {
		case strings.HasPrefix(rel, "data.sec.gov/submissions/"):
			m := jsonName.FindStringSubmatch(filepath.Base(path))
			if m == nil {
				return fmt.Errorf("mkmirror: unexpected file %s", rel)
			}
			cik, _ := strconv.Atoi(m[1])
			n, err := g.checkJSON(b, cik, m[2] != "")
			if err != nil {
				return fmt.Errorf("%w (%s)", err, rel)
			}
			nJSON++
			nCovers += n
		case strings.HasSuffix(rel, ".txt") && strings.HasPrefix(rel, "www.sec.gov/Archives/edgar/data/"):
			t, err := g.checkContainer(b, filepath.Dir(path))
			if err != nil {
				return fmt.Errorf("%w (%s)", err, rel)
			}
			nTxt++
			nTables += t
		}
		return nil
	})
	if err != nil {
		return err
	}
	log.Printf("mkmirror: checked %d submissions files (%d 13F covers), %d containers (%d tables)", nJSON, nCovers, nTxt, nTables)
	return nil
}

// companyListCIKs are the CIKs whose filing lists serve the company data
// tests (companylists.go): their 13F rows are listed without covers.
var companyListCIKs = map[int]bool{320193: true, 1045810: true}

// checkJSON checks a submissions file: all columns of equal length, and a
// cover agreeing with the row for every XML-era 13F. It returns the number
// of covers checked.
func (g *gen) checkJSON(b []byte, cik int, isPage bool) (int, error) {
	var cols map[string][]any
	if isPage {
		if err := json.Unmarshal(b, &cols); err != nil {
			return 0, fmt.Errorf("mkmirror: %w", err)
		}
	} else {
		var e struct {
			Filings struct {
				Recent map[string][]any `json:"recent"`
				Files  []pageRef        `json:"files"`
			} `json:"filings"`
		}
		if err := json.Unmarshal(b, &e); err != nil {
			return 0, fmt.Errorf("mkmirror: %w", err)
		}
		cols = e.Filings.Recent
		for _, p := range e.Filings.Files {
			if _, err := os.Stat(filepath.Join(g.out, "data.sec.gov", "submissions", p.Name)); err != nil {
				return 0, fmt.Errorf("mkmirror: page %s missing", p.Name)
			}
		}
	}
	if len(cols) != 15 {
		return 0, fmt.Errorf("mkmirror: %d columns, want 15", len(cols))
	}
	n := len(cols["accessionNumber"])
	for k, v := range cols {
		if len(v) != n {
			return 0, fmt.Errorf("mkmirror: column %s has %d entries, want %d", k, len(v), n)
		}
	}
	covers := 0
	for i := 0; i < n; i++ {
		form, _ := cols["form"][i].(string)
		docName, _ := cols["primaryDocument"][i].(string)
		if !strings.HasPrefix(form, "13F") || !strings.HasPrefix(docName, "xslForm13F_X0") || companyListCIKs[cik] {
			continue
		}
		acc := cols["accessionNumber"][i].(string)
		cb, err := os.ReadFile(filepath.Join(g.out, filepath.FromSlash(folder(cik, acc)), "primary_doc.xml"))
		if err != nil {
			return 0, fmt.Errorf("mkmirror: cover of %s: %w", acc, err)
		}
		c, err := parseCover(cb)
		if err != nil {
			return 0, fmt.Errorf("%w (%s)", err, acc)
		}
		if c.SubmissionType != form || c.Period != mdy(cols["reportDate"][i].(string)) {
			return 0, fmt.Errorf("mkmirror: cover of %s says %s %s, list says %s %s", acc, c.SubmissionType, c.Period, form, cols["reportDate"][i])
		}
		covers++
	}
	return covers, nil
}

// checkContainer checks a complete submission against the loose files of
// its folder and its table against the cover's totals. It returns the
// number of tables checked.
func (g *gen) checkContainer(b []byte, dir string) (int, error) {
	_, docs, err := splitContainer(b)
	if err != nil {
		return 0, err
	}
	var cover *coverXML
	tables := 0
	for _, d := range docs {
		loose, err := os.ReadFile(filepath.Join(dir, d.filename))
		if err != nil {
			return 0, fmt.Errorf("mkmirror: loose %s: %w", d.filename, err)
		}
		if !bytes.Equal(loose, d.body) {
			return 0, fmt.Errorf("mkmirror: %s differs from its <XML> block", d.filename)
		}
		switch {
		case d.filename == "primary_doc.xml":
			c, err := parseCover(d.body)
			if err != nil {
				return 0, err
			}
			if c.SubmissionType != d.typ {
				return 0, fmt.Errorf("mkmirror: cover submissionType %s, document TYPE %s", c.SubmissionType, d.typ)
			}
			cover = &c
		case d.typ == "INFORMATION TABLE":
			if cover == nil {
				return 0, fmt.Errorf("mkmirror: table before cover")
			}
			n, sum, _ := tableStats(d.body)
			match := fmt.Sprint(n) == cover.Entries && fmt.Sprint(sum) == cover.Value
			if planted := plantedMismatches()[filepath.Base(dir)]; match == planted {
				return 0, fmt.Errorf("mkmirror: table %s has %d rows summing to %d, cover says %s / %s (planted mismatch: %t)", d.filename, n, sum, cover.Entries, cover.Value, planted)
			}
			tables++
		}
	}
	return tables, nil
}
