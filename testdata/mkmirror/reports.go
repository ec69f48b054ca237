package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"time"
)

// report is a 10-K or 10-Q of the agent's evaluation questions
// (agent/testdata/questions.json) whose real primary document the shared
// collection holds gzip-compressed: accession, dates and primary document
// name as EDGAR lists them.
type report struct {
	cik, ticker, company, fye string
	form, acc, filed, period  string
	doc, src                  string // the primary document's name; its shared file
}

// reports are the filings the agent's questions need beyond the 10-Ks of
// Apple and NVIDIA that tenK copies.
var reports = []report{
	{"320193", "AAPL", "Apple Inc.", "0928", "10-Q", "0000320193-25-000073", "2025-08-01", "2025-06-28", "aapl-20250628.htm", "tenq/aapl-10-q-2025-08-01.htm.gz"},
	{"1045810", "NVDA", "NVIDIA CORP", "0126", "10-Q", "0001045810-25-000209", "2025-08-27", "2025-07-27", "nvda-20250727.htm", "tenq/nvda-10-q-2025-08-27.htm.gz"},
	{"1318605", "TSLA", "Tesla, Inc.", "1231", "10-K", "0001628280-25-003063", "2025-01-30", "2024-12-31", "tsla-20241231.htm", "tenk/tsla-10-k-2025-01-30.htm.gz"},
	{"1318605", "TSLA", "Tesla, Inc.", "1231", "10-K/A", "0001104659-25-042659", "2025-04-30", "2024-12-31", "tm252787d2_10ka.htm", "tenk/tsla-10-k-2025-04-30.htm.gz"},
	{"1318605", "TSLA", "Tesla, Inc.", "1231", "10-Q", "0001628280-25-035806", "2025-07-24", "2025-06-30", "tsla-20250630.htm", "tenq/tsla-10-q-2025-07-24.htm.gz"},
	{"200406", "JNJ", "JOHNSON & JOHNSON", "1228", "10-K", "0000200406-25-000038", "2025-02-13", "2024-12-29", "jnj-20241229.htm", "tenk/jnj-10-k-2025-02-13.htm.gz"},
	{"104169", "WMT", "Walmart Inc.", "0131", "10-K", "0000104169-25-000021", "2025-03-14", "2025-01-31", "wmt-20250131.htm", "tenk/wmt-10-k-2025-03-14.htm.gz"},
}

// reportDocs writes the primary documents of reports into the mirror,
// decompressed (the bytes inside the gzip stream are unchanged), at the
// archive paths of their filings.
func (g *gen) reportDocs() error {
	for _, r := range reports {
		gz, err := g.readShared(r.src)
		if err != nil {
			return err
		}
		zr, err := gzip.NewReader(bytes.NewReader(gz))
		if err != nil {
			return fmt.Errorf("mkmirror: %s: %w", r.src, err)
		}
		doc, err := io.ReadAll(zr)
		if err != nil {
			return fmt.Errorf("mkmirror: %s: %w", r.src, err)
		}
		dst := path.Join("www.sec.gov/Archives/edgar/data", r.cik, strings.ReplaceAll(r.acc, "-", ""), r.doc)
		what := fmt.Sprintf("%s %s %s (filed %s, period %s) primary document, for the agent's evaluation questions; shared/edgar/%s decompressed (%s inside the gzip stream)",
			r.company, r.form, r.acc, r.filed, r.period, r.src, fidelity(r.src))
		if err := g.put(dst, doc, true, what); err != nil {
			return err
		}
	}
	return nil
}

// reportRows returns the synthetic filing-list rows of the reports of cik:
// accession, form, dates and primary document as EDGAR gives them;
// acceptance time 16:05 UTC on the filing date, size, film and file
// numbers invented.
func reportRows(cik string) []row {
	var rows []row
	for _, r := range reports {
		if r.cik != cik {
			continue
		}
		filed, _ := time.Parse("2006-01-02", r.filed)
		rows = append(rows, row{acc: r.acc, filed: r.filed, report: r.period, accepted: filed.Add(16*time.Hour + 5*time.Minute),
			act: "34", form: r.form, fileNo: "001-00000", film: "25000001", size: 1000000, xbrl: 1, ixbrl: 1, doc: r.doc, docDesc: r.form})
	}
	return rows
}

// reportLists writes a filing list for each company of reports that the
// mirror has no real list of (Tesla, Johnson & Johnson, Walmart): only
// its reports, newest first, with no older page.
func (g *gen) reportLists() error {
	done := map[string]bool{"320193": true, "1045810": true} // real excerpts: see companyLists
	for _, r := range reports {
		if done[r.cik] {
			continue
		}
		done[r.cik] = true
		rows := reportRows(r.cik)
		list := struct {
			CIK           string   `json:"cik"`
			EntityType    string   `json:"entityType"`
			Name          string   `json:"name"`
			Tickers       []string `json:"tickers"`
			FiscalYearEnd string   `json:"fiscalYearEnd"`
			Filings       struct {
				Recent columns `json:"recent"`
				Files  []any   `json:"files"`
			} `json:"filings"`
		}{CIK: r.cik, EntityType: "operating", Name: r.company, Tickers: []string{r.ticker}, FiscalYearEnd: r.fye}
		list.Filings.Recent = makeColumns(rows)
		list.Filings.Files = []any{}
		b, err := json.Marshal(list)
		if err != nil {
			return err
		}
		var forms []string
		for _, x := range rows {
			forms = append(forms, x.form+" "+x.acc+" of "+x.filed)
		}
		what := fmt.Sprintf("synthetic filing list of %s (CIK %s; the real list is not in the collection): only the reports whose primary documents the mirror holds (%s), with accession, form, filing date, report date and primary document as EDGAR gives them; acceptance time, size, film and file numbers invented; every other filing of the company is missing",
			r.company, r.cik, strings.Join(forms, ", "))
		if err := g.put(fmt.Sprintf("data.sec.gov/submissions/CIK%010d.json", atoi(r.cik)), b, false, what); err != nil {
			return err
		}
	}
	return nil
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
