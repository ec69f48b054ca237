package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
)

// companyLists writes the filing lists of Apple and NVIDIA for the company
// data tests: the real submissions excerpts of shared/edgar/xbrl with two
// documented changes each.
//
//   - The older page the excerpt names in filings.files (1,113 and 1,096
//     real filings) is not in the collection. In its place the mirror holds
//     a synthetic page of the same name listing the filings of that page's
//     date range that the company's real companyfacts cite: accession, form
//     and filing date as companyfacts gives them, report date the latest end
//     of the filing's duration facts, no primary document, acceptance time,
//     size or film number. The main list's filingCount is set to that page's
//     count; nothing else of the main list changes.
//   - NVIDIA's excerpt ends on 2025-01-08, before its 10-K of 2025-02-26
//     (accession 0001045810-25-000023, whose primary document the mirror
//     holds). One synthetic row for that filing is put first in
//     filings.recent: accession, form, filing date, report date and primary
//     document as EDGAR gives them; acceptance time 2025-02-26T21:30:00Z,
//     size, film and file numbers invented. Filings of 2025-01-09 to
//     2025-02-25 are not listed.
//   - For the agent's evaluation questions, one synthetic row each for
//     Apple's 10-Q 0000320193-25-000073 of 2025-08-01 and NVIDIA's 10-Q
//     0001045810-25-000209 of 2025-08-27 (whose primary documents the
//     mirror holds; see reportDocs), made the same way; the filings between
//     the excerpt's last row and them are not listed.
func (g *gen) companyLists() error {
	lists := []struct {
		cik                  int
		excerpt, facts, what string
		extra                [][]string // column values of synthetic first rows, in key order, oldest first
	}{
		{cik: 320193, excerpt: "xbrl/submissions-CIK0000320193-excerpt.json", facts: "xbrl/CIK0000320193.json",
			what:  "Apple Inc. submissions: shared/edgar/xbrl/submissions-CIK0000320193-excerpt.json (62 real rows of filings.recent) with filings.files[0].filingCount set to the synthetic older page's count and one synthetic first row for the 10-Q 0000320193-25-000073 of 2025-08-01 (accession, form, filing date, report date 2025-06-28 and primary document aapl-20250628.htm as EDGAR gives them; acceptance time, size, film and file numbers invented; filings of 2025-01-11 to 2025-07-31 not listed)",
			extra: [][]string{{`"0000320193-25-000073"`, `"2025-08-01"`, `"2025-06-28"`, `"2025-08-01T20:01:00.000Z"`, `"34"`, `"10-Q"`, `"001-36743"`, `"25000002"`, `""`, `"10-Q"`, `1000000`, `1`, `1`, `"aapl-20250628.htm"`, `"10-Q"`}}},
		{cik: 1045810, excerpt: "xbrl/submissions-CIK0001045810-excerpt.json", facts: "xbrl/CIK0001045810.json",
			what: "NVIDIA CORP submissions: shared/edgar/xbrl/submissions-CIK0001045810-excerpt.json (52 real rows of filings.recent) with filings.files[0].filingCount set to the synthetic older page's count and two synthetic first rows: the 10-K 0001045810-25-000023 of 2025-02-26 (accession, form, filing date, report date 2025-01-26 and primary document nvda-20250126.htm as EDGAR gives them; acceptance time, size, film and file numbers invented; filings of 2025-01-09 to 2025-02-25 not listed) and, made the same way, the 10-Q 0001045810-25-000209 of 2025-08-27 (report date 2025-07-27, primary document nvda-20250727.htm; filings of 2025-02-27 to 2025-08-26 not listed)",
			extra: [][]string{
				{`"0001045810-25-000023"`, `"2025-02-26"`, `"2025-01-26"`, `"2025-02-26T21:30:00.000Z"`, `"34"`, `"10-K"`, `"000-23985"`, `"25600001"`, `""`, `"10-K"`, `4200000`, `1`, `1`, `"nvda-20250126.htm"`, `"10-K"`},
				{`"0001045810-25-000209"`, `"2025-08-27"`, `"2025-07-27"`, `"2025-08-27T20:20:00.000Z"`, `"34"`, `"10-Q"`, `"000-23985"`, `"25000003"`, `""`, `"10-Q"`, `1400000`, `1`, `1`, `"nvda-20250727.htm"`, `"10-Q"`},
			}},
	}
	keys := []string{"accessionNumber", "filingDate", "reportDate", "acceptanceDateTime", "act", "form", "fileNumber", "filmNumber", "items", "core_type", "size", "isXBRL", "isInlineXBRL", "primaryDocument", "primaryDocDescription"}
	for _, l := range lists {
		b, err := g.readShared(l.excerpt)
		if err != nil {
			return err
		}
		var head struct {
			Filings struct {
				Files []pageRef `json:"files"`
			} `json:"filings"`
		}
		if err := json.Unmarshal(b, &head); err != nil || len(head.Filings.Files) != 1 {
			return fmt.Errorf("mkmirror: %s: want one older page (%v)", l.excerpt, err)
		}
		p := head.Filings.Files[0]
		fb, err := g.readShared(l.facts)
		if err != nil {
			return err
		}
		rows, err := factFilings(fb, p.FilingFrom, p.FilingTo)
		if err != nil {
			return fmt.Errorf("mkmirror: %s: %w", l.facts, err)
		}
		cols := makeColumns(rows)
		for i := range cols.AcceptanceDateTime {
			cols.AcceptanceDateTime[i] = "" // not known
		}
		page, err := json.Marshal(cols)
		if err != nil {
			return err
		}
		old := fmt.Sprintf(`"filingCount":%d,`, p.FilingCount)
		if bytes.Count(b, []byte(old)) != 1 {
			return fmt.Errorf("mkmirror: %s: %s not found once", l.excerpt, old)
		}
		b = bytes.Replace(b, []byte(old), []byte(fmt.Sprintf(`"filingCount":%d,`, len(rows))), 1)
		for _, extra := range l.extra {
			for i, v := range extra {
				col := []byte(`"` + keys[i] + `":[`)
				if bytes.Count(b, col) != 1 {
					return fmt.Errorf("mkmirror: %s: column %s not found once", l.excerpt, keys[i])
				}
				b = bytes.Replace(b, col, append(col, v+","...), 1)
			}
		}
		if err := g.put("data.sec.gov/submissions/"+fmt.Sprintf("CIK%010d.json", l.cik), b, false, l.what); err != nil {
			return err
		}
		note := fmt.Sprintf("synthetic older page of CIK %d's filing list (the real page of %d filings, %s to %s, is not in the collection): the %d filings of that range that %s cites, with accession, form and filing date as given there, report date the latest end of the filing's duration facts, no primary document, acceptance time, size or film number",
			l.cik, p.FilingCount, p.FilingFrom, p.FilingTo, len(rows), "shared/edgar/"+l.facts)
		if err := g.put("data.sec.gov/submissions/"+p.Name, page, false, note); err != nil {
			return err
		}
	}
	return nil
}

// factFilings lists the filings a companyfacts document cites whose filing
// date lies in [from, to], newest first.
func factFilings(b []byte, from, to string) ([]row, error) {
	var doc struct {
		Facts map[string]map[string]struct {
			Units map[string][]struct {
				Start string `json:"start"`
				End   string `json:"end"`
				Accn  string `json:"accn"`
				Form  string `json:"form"`
				Filed string `json:"filed"`
			} `json:"units"`
		} `json:"facts"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	byAcc := map[string]*row{}
	for _, tags := range doc.Facts {
		for _, tag := range tags {
			for _, facts := range tag.Units {
				for _, f := range facts {
					if f.Filed < from || f.Filed > to {
						continue
					}
					r := byAcc[f.Accn]
					if r == nil {
						r = &row{acc: f.Accn, form: f.Form, filed: f.Filed}
						byAcc[f.Accn] = r
					}
					if r.form != f.Form || r.filed != f.Filed {
						return nil, fmt.Errorf("accession %s cited as %s %s and %s %s", f.Accn, r.form, r.filed, f.Form, f.Filed)
					}
					if f.Start != "" && f.End > r.report {
						r.report = f.End
					}
				}
			}
		}
	}
	rows := make([]row, 0, len(byAcc))
	for _, r := range byAcc {
		rows = append(rows, *r)
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].acc < rows[j].acc })
	return rows, nil
}
