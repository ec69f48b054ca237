package main

import (
	"fmt"
	"strings"
	"time"
)

// stock is an ordinary large-cap stock used in synthetic tables.
type stock struct{ issuer, class, cusip string }

var (
	aapl  = stock{"APPLE INC", "COM", "037833100"}
	msft  = stock{"MICROSOFT CORP", "COM", "594918104"}
	amzn  = stock{"AMAZON COM INC", "COM", "023135106"}
	meta  = stock{"META PLATFORMS INC", "CL A", "30303M102"}
	googl = stock{"ALPHABET INC", "CAP STK CL A", "02079K305"}
)

// holding is one synthetic information-table row.
type holding struct {
	s          stock
	shares     int64
	priceCents int64
}

// value returns the row's value in dollars, or in thousands of dollars
// (rounded half up) for a filing made before 2023-01-03.
func (h holding) value(thousands bool) int64 {
	if thousands {
		return (h.shares*h.priceCents + 50000) / 100000
	}
	return h.shares * h.priceCents / 100
}

// synFiling is one 13F filing of a synthetic filer.
type synFiling struct {
	acc, form, filed, period string
	amendNo                  int
	amendType                string // "", RESTATEMENT, NEW HOLDINGS or UNSPECIFIED (no amendmentInfo)
	rows                     []holding
	// missing are rows the cover counts in its totals but the table lacks:
	// a planted mismatch of table and cover.
	missing  []holding
	accepted time.Time // zero: a plausible afternoon time
	onPage   bool      // listed on the older submissions page
}

// synFiler is an invented 13F filer.
type synFiler struct {
	cik                 int
	name, coverName     string
	street, city, state string
	zip, phone, fileNo  string
	table               string // information table file name
	filings             []synFiling
	others              []row // non-13F filings (onPage ones carry report "page:")
	page                *pageRef
	extraPeriods        []string // periods with no filing, for SCENARIOS.md
	story               string
}

func synFilers() []synFiler {
	const p4q24, p1q25, p2q25, p3q25 = "2024-12-31", "2025-03-31", "2025-06-30", "2025-09-30"
	return []synFiler{{
		cik: 9000001, name: "TIMELINE CAPITAL LLC", coverName: "Timeline Capital LLC",
		street: "410 PARK AVENUE, 12TH FLOOR", city: "NEW YORK", state: "NY", zip: "10022", phone: "212-555-0141",
		fileNo: "028-99001", table: "infotable.xml",
		story: "Amendment chains: NEW HOLDINGS on an original, a RESTATEMENT that supersedes it, NEW HOLDINGS on the restatement (2024-12-31); two amendments filed the same day whose accession order disagrees with their amendment numbers (2025-03-31); an amendment without amendmentInfo, i.e. UNSPECIFIED, treated as a restatement (2025-06-30); two originals for one period, the later wins (2025-09-30). 2025-05-10 and 2025-08-10 are weekend days; the dates are used as given.",
		filings: []synFiling{
			{acc: "0009000001-25-000001", form: "13F-HR", filed: "2025-02-10", period: p4q24,
				rows: []holding{{aapl, 10000, 25042}, {msft, 5000, 42150}, {amzn, 8000, 21939}}},
			{acc: "0009000001-25-000002", form: "13F-HR/A", filed: "2025-02-20", period: p4q24, amendNo: 1, amendType: "NEW HOLDINGS",
				rows: []holding{{meta, 1500, 58551}}},
			{acc: "0009000001-25-000003", form: "13F-HR/A", filed: "2025-03-05", period: p4q24, amendNo: 2, amendType: "RESTATEMENT",
				rows: []holding{{aapl, 12000, 25042}, {msft, 4000, 42150}, {amzn, 8500, 21939}}},
			{acc: "0009000001-25-000004", form: "13F-HR/A", filed: "2025-04-01", period: p4q24, amendNo: 3, amendType: "NEW HOLDINGS",
				rows: []holding{{googl, 3000, 18930}}},
			{acc: "0009000001-25-000005", form: "13F-HR", filed: "2025-05-10", period: p1q25,
				rows: []holding{{aapl, 10000, 22213}, {msft, 5000, 37539}}},
			{acc: "0009000001-25-000006", form: "13F-HR/A", filed: "2025-05-20", period: p1q25, amendNo: 2, amendType: "NEW HOLDINGS",
				rows: []holding{{meta, 1500, 57636}}, accepted: atEastern("2025-05-20", 16, 21, 5)},
			{acc: "0009000001-25-000007", form: "13F-HR/A", filed: "2025-05-20", period: p1q25, amendNo: 1, amendType: "RESTATEMENT",
				rows: []holding{{aapl, 11000, 22213}, {msft, 5500, 37539}}, accepted: atEastern("2025-05-20", 16, 34, 40)},
			{acc: "0009000001-25-000008", form: "13F-HR", filed: "2025-08-10", period: p2q25,
				rows: []holding{{aapl, 10000, 20517}, {amzn, 7000, 21939}}},
			{acc: "0009000001-25-000009", form: "13F-HR/A", filed: "2025-08-20", period: p2q25, amendNo: 1, amendType: "UNSPECIFIED",
				rows: []holding{{aapl, 10000, 20517}, {amzn, 7500, 21939}}},
			{acc: "0009000001-25-000010", form: "13F-HR", filed: "2025-11-10", period: p3q25,
				rows: []holding{{aapl, 9000, 25463}, {msft, 4000, 51795}}},
			{acc: "0009000001-25-000011", form: "13F-HR", filed: "2025-11-12", period: p3q25,
				rows: []holding{{aapl, 9000, 25463}, {googl, 5000, 24310}}},
		},
		extraPeriods: []string{"2025-12-31"},
	}, {
		cik: 9000002, name: "NOTICE PARTNERS LP", coverName: "Notice Partners LP",
		street: "200 CLARENDON STREET", city: "BOSTON", state: "MA", zip: "02116", phone: "617-555-0187",
		fileNo: "028-99002", table: "form13fInfoTable.xml",
		story: "A notice (13F-NT) for 2024-12-31, and a notice amendment (13F-NT/A, amendment 1, amendmentType RESTATEMENT as real notice amendments carry) filed 2025-09-05; an ordinary holdings report for 2025-03-31; for 2025-06-30 only a NEW HOLDINGS amendment, with no original: no base.",
		filings: []synFiling{
			{acc: "0009000002-25-000001", form: "13F-NT", filed: "2025-02-14", period: p4q24},
			{acc: "0009000002-25-000002", form: "13F-HR", filed: "2025-05-15", period: p1q25,
				rows: []holding{{aapl, 4000, 22213}, {msft, 2500, 37539}}},
			{acc: "0009000002-25-000003", form: "13F-HR/A", filed: "2025-08-20", period: p2q25, amendNo: 1, amendType: "NEW HOLDINGS",
				rows: []holding{{meta, 1200, 73809}}},
			{acc: "0009000002-25-000004", form: "13F-NT/A", filed: "2025-09-05", period: p4q24, amendNo: 1, amendType: "RESTATEMENT"},
		},
		extraPeriods: []string{p3q25},
	}, {
		cik: 9000003, name: "FRESH START ADVISORS LP", coverName: "Fresh Start Advisors LP",
		street: "1 MARKET STREET, SUITE 900", city: "SAN FRANCISCO", state: "CA", zip: "94105", phone: "415-555-0119",
		fileNo: "028-99003", table: "FreshStart_13F_Q1_2025.xml",
		story: "A Form D long before its first 13F: the CIK is unknown to 13F until 2025-05-15. Its 2025-06-30 report is a planted mismatch of table and cover: the cover's totals count 3 rows (value 2212450), the table holds 2 of them (rows and sums below are the table's).",
		filings: []synFiling{
			{acc: "0009000003-25-000001", form: "13F-HR", filed: "2025-05-15", period: p1q25,
				rows: []holding{{googl, 6000, 15464}, {amzn, 3000, 19026}}},
			{acc: "0009000003-25-000002", form: "13F-HR", filed: "2025-08-14", period: p2q25,
				rows: []holding{{googl, 6000, 17613}, {amzn, 3000, 21939}}, missing: []holding{{msft, 1000, 49750}}},
		},
		others:       []row{{acc: "0009000003-24-000001", form: "D", filed: "2024-06-03", doc: "xslFormDX01/primary_doc.xml", fileNo: "021-512345"}},
		extraPeriods: []string{p4q24},
	}, {
		cik: 9000004, name: "OLD PAGE HOLDINGS", coverName: "Old Page Holdings",
		street: "100 N TRYON STREET", city: "CHARLOTTE", state: "NC", zip: "28202", phone: "704-555-0166",
		fileNo: "028-99004", table: "OPH_13F_2014Q1.xml",
		story: "Its only 13F is on the older page listed in filings.files; recent holds only non-13F filings from 2020 on. Values in thousands (filed 2014).",
		filings: []synFiling{
			{acc: "0009000004-14-000001", form: "13F-HR", filed: "2014-05-15", period: "2014-03-31", onPage: true,
				rows: []holding{{aapl, 20000, 53674}, {msft, 50000, 4099}}},
		},
		others: []row{
			{acc: "0009000004-13-000001", form: "D", filed: "2013-03-14", doc: "xslFormDX01/primary_doc.xml", fileNo: "021-198765", report: "page:"},
			{acc: "0009000004-16-000001", form: "SC 13G", filed: "2016-02-10", doc: "oph13g.htm", fileNo: "005-87654", report: "page:"},
			{acc: "0009000004-19-000001", form: "D/A", filed: "2019-06-03", doc: "xslFormDX01/primary_doc.xml", fileNo: "021-198765", report: "page:"},
			{acc: "0009000004-20-000001", form: "SC 13G/A", filed: "2020-02-12", doc: "oph13ga.htm", fileNo: "005-87654"},
			{acc: "0009000004-22-000001", form: "D/A", filed: "2022-03-01", doc: "xslFormDX01/primary_doc.xml", fileNo: "021-198765"},
			{acc: "0009000004-24-000001", form: "SC 13G/A", filed: "2024-02-13", doc: "oph13ga.htm", fileNo: "005-87654"},
		},
		page:         &pageRef{Name: "CIK0009000004-submissions-001.json", FilingFrom: "2013-01-01", FilingTo: "2019-12-31"},
		extraPeriods: []string{"2013-12-31"},
	}}
}

func kindOf(form, amendType string) string {
	switch {
	case form == "13F-HR":
		return "ORIGINAL"
	case form == "13F-HR/A" && amendType == "":
		return "UNSPECIFIED"
	case form == "13F-HR/A":
		return amendType
	}
	return "NOTICE"
}

func (g *gen) synthetic() error {
	for _, f := range synFilers() {
		if err := g.synFiler(f); err != nil {
			return err
		}
	}
	return nil
}

func (g *gen) synFiler(f synFiler) error {
	var recent, page []row
	var recs []rec
	cik10 := fmt.Sprintf("%010d", f.cik)
	for _, sf := range f.filings {
		at := sf.accepted
		if at.IsZero() {
			at = afternoon(sf.filed, sf.acc)
		}
		thousands := sf.filed < "2023-01-03"
		var count, sum int64
		for _, h := range sf.rows {
			count++
			sum += h.value(thousands)
		}
		coverCount, coverSum := count, sum
		for _, h := range sf.missing {
			coverCount++
			coverSum += h.value(thousands)
		}
		dir := folder(f.cik, sf.acc)
		cover := synCover(f, sf, coverCount, coverSum)
		docs := []doc{{typ: sf.form, filename: "primary_doc.xml", body: []byte(cover)}}
		what := fmt.Sprintf("%s %s %s period %s", f.name, sf.form, sf.acc, sf.period)
		if err := g.put(dir+"primary_doc.xml", []byte(cover), false, "invented cover of "+what); err != nil {
			return err
		}
		notice := strings.HasPrefix(sf.form, "13F-NT")
		if !notice {
			table := synTable(sf.rows, thousands)
			docs = append(docs, doc{typ: "INFORMATION TABLE", filename: f.table, body: []byte(table)})
			if err := g.put(dir+f.table, []byte(table), false, fmt.Sprintf("invented information table of %s (rows %d, value sum %d)", what, count, sum)); err != nil {
				return err
			}
		}
		h := header{acc: sf.acc, form: sf.form, period: sf.period, filed: sf.filed, accepted: at, name: f.name, cik10: cik10,
			irs: fmt.Sprintf("%09d", 880000000+f.cik%1000*1111), stateInc: "DE", fye: "1231", fileNo: f.fileNo, film: film(sf.filed, sf.acc),
			street1: f.street, city: f.city, state: f.state, zip: f.zip, phone: f.phone}
		txt := container(h, docs)
		parts := "its cover and table"
		if len(docs) == 1 {
			parts = "its cover only"
		}
		if err := g.put(dir+sf.acc+".txt", txt, false, "invented complete submission of "+what+" ("+parts+", in the layout of the real containers)"); err != nil {
			return err
		}
		r := row{acc: sf.acc, filed: sf.filed, report: sf.period, accepted: at, act: "34", form: sf.form, fileNo: f.fileNo,
			film: h.film, size: len(txt), doc: xsl13F(sf.filed)}
		if sf.onPage {
			page = append(page, r)
		} else {
			recent = append(recent, r)
		}
		recs = append(recs, rec{acc: sf.acc, form: sf.form, filed: sf.filed, period: sf.period, amendNo: sf.amendNo,
			kind: kindOf(sf.form, strings.TrimPrefix(sf.amendType, "UNSPECIFIED")), rows: int(count), sum: sum, hasTable: !notice})
	}
	var otherDates []string
	for _, o := range f.others {
		onPage := o.report == "page:"
		o.report = ""
		o.accepted = atEastern(o.filed, 9+hash(o.acc, 8), hash(o.acc+"m", 60), hash(o.acc+"s", 60))
		o.act = "33"
		if strings.Contains(o.form, "13G") {
			o.act = "34"
		}
		o.film = film(o.filed, o.acc)
		o.size = 5000 + hash(o.acc, 20000)
		if onPage {
			page = append(page, o)
		} else {
			recent = append(recent, o)
		}
		otherDates = append(otherDates, o.filed)
	}
	e := entity{CIK: cik10, EntityType: "other", Name: f.name, Tickers: []string{}, Exchanges: []string{},
		EIN: strp("000000000"), FiscalYearEnd: strp("1231"), StateOfIncorporation: "DE", StateOfIncorporationDescription: "DE",
		Addresses: addresses{Mailing: usAddress(f.street, "", f.city, f.state, f.zip), Business: usAddress(f.street, "", f.city, f.state, f.zip)},
		Phone:     f.phone, FormerNames: []formerName{}}
	e.Filings.Recent = makeColumns(recent)
	e.Filings.Files = []pageRef{}
	if f.page != nil {
		p := *f.page
		p.FilingCount = len(page)
		e.Filings.Files = []pageRef{p}
		b, err := compactJSON(makeColumns(page))
		if err != nil {
			return err
		}
		if err := g.put("data.sec.gov/submissions/"+p.Name, b, false, fmt.Sprintf("invented older submissions page of %s: the bare column object, %d filings 2013-2019 incl. its only 13F", f.name, len(page))); err != nil {
			return err
		}
	}
	if err := g.putJSON("CIK"+cik10+".json", e, fmt.Sprintf("invented submissions of %s (%d recent filings)", f.name, len(recent))); err != nil {
		return err
	}
	g.scen = append(g.scen, filerScenario{cik: f.cik, name: f.name, story: f.story, recs: recs, otherDates: otherDates, extraPeriods: f.extraPeriods})
	return nil
}

// synCover returns an invented cover in EDGAR's indented layout.
func synCover(f synFiler, sf synFiling, count, sum int64) string {
	var b strings.Builder
	w := func(indent int, format string, a ...any) {
		b.WriteString(strings.Repeat("  ", indent))
		fmt.Fprintf(&b, format, a...)
		b.WriteString("\n")
	}
	w(0, `<?xml version="1.0" encoding="UTF-8"?>`)
	w(0, `<edgarSubmission xmlns="http://www.sec.gov/edgar/thirteenffiler" xmlns:ns1="http://www.sec.gov/edgar/common">`)
	if sf.filed >= "2023-01-03" {
		w(1, "<schemaVersion>X0202</schemaVersion>")
	}
	w(1, "<headerData>")
	w(2, "<submissionType>%s</submissionType>", sf.form)
	w(2, "<filerInfo>")
	w(3, "<liveTestFlag>LIVE</liveTestFlag>")
	w(3, "<flags>")
	w(4, "<confirmingCopyFlag>false</confirmingCopyFlag>")
	w(4, "<returnCopyFlag>false</returnCopyFlag>")
	w(4, "<overrideInternetFlag>false</overrideInternetFlag>")
	w(3, "</flags>")
	w(3, "<filer>")
	w(4, "<credentials>")
	w(5, "<cik>%010d</cik>", f.cik)
	w(5, "<ccc>XXXXXXXX</ccc>")
	w(4, "</credentials>")
	w(3, "</filer>")
	w(3, "<periodOfReport>%s</periodOfReport>", mdy(sf.period))
	w(2, "</filerInfo>")
	w(1, "</headerData>")
	w(1, "<formData>")
	w(2, "<coverPage>")
	w(3, "<reportCalendarOrQuarter>%s</reportCalendarOrQuarter>", mdy(sf.period))
	w(3, "<isAmendment>%t</isAmendment>", sf.amendNo > 0)
	if sf.amendNo > 0 {
		w(3, "<amendmentNo>%d</amendmentNo>", sf.amendNo)
		if sf.amendType != "UNSPECIFIED" {
			w(3, "<amendmentInfo>")
			w(4, "<amendmentType>%s</amendmentType>", sf.amendType)
			w(4, "<confDeniedExpired>false</confDeniedExpired>")
			w(3, "</amendmentInfo>")
		}
	}
	w(3, "<filingManager>")
	w(4, "<name>%s</name>", f.coverName)
	w(4, "<address>")
	w(5, "<ns1:street1>%s</ns1:street1>", f.street)
	w(5, "<ns1:city>%s</ns1:city>", f.city)
	w(5, "<ns1:stateOrCountry>%s</ns1:stateOrCountry>", f.state)
	w(5, "<ns1:zipCode>%s</ns1:zipCode>", f.zip)
	w(4, "</address>")
	w(3, "</filingManager>")
	notice := strings.HasPrefix(sf.form, "13F-NT")
	if notice {
		w(3, "<reportType>13F NOTICE</reportType>")
	} else {
		w(3, "<reportType>13F HOLDINGS REPORT</reportType>")
	}
	w(3, "<form13FFileNumber>%s</form13FFileNumber>", f.fileNo)
	if notice {
		w(3, "<otherManagersInfo>")
		w(4, "<otherManager>")
		w(5, "<cik>0009000001</cik>")
		w(5, "<form13FFileNumber>028-99001</form13FFileNumber>")
		w(5, "<name>Timeline Capital LLC</name>")
		w(4, "</otherManager>")
		w(3, "</otherManagersInfo>")
	}
	w(3, "<provideInfoForInstruction5>N</provideInfoForInstruction5>")
	w(2, "</coverPage>")
	w(2, "<signatureBlock>")
	w(3, "<name>Jane Q. Example</name>")
	w(3, "<title>Chief Compliance Officer</title>")
	w(3, "<phone>%s</phone>", f.phone)
	w(3, "<signature>/s/ Jane Q. Example</signature>")
	w(3, "<city>%s</city>", f.city)
	w(3, "<stateOrCountry>%s</stateOrCountry>", f.state)
	w(3, "<signatureDate>%s</signatureDate>", mdy(sf.filed))
	w(2, "</signatureBlock>")
	if !notice {
		w(2, "<summaryPage>")
		w(3, "<otherIncludedManagersCount>0</otherIncludedManagersCount>")
		w(3, "<tableEntryTotal>%d</tableEntryTotal>", count)
		w(3, "<tableValueTotal>%d</tableValueTotal>", sum)
		w(3, "<isConfidentialOmitted>false</isConfidentialOmitted>")
		w(2, "</summaryPage>")
	}
	w(1, "</formData>")
	w(0, "</edgarSubmission>")
	return b.String()
}

// plantedMismatches returns the folders (accession without dashes) of the
// synthetic filings whose table is planted not to match its cover.
func plantedMismatches() map[string]bool {
	m := map[string]bool{}
	for _, f := range synFilers() {
		for _, sf := range f.filings {
			if len(sf.missing) > 0 {
				m[noDashes(sf.acc)] = true
			}
		}
	}
	return m
}

// synTable returns an invented information table.
func synTable(rows []holding, thousands bool) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<informationTable xmlns="http://www.sec.gov/edgar/document/thirteenf/informationtable" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">` + "\n")
	for _, h := range rows {
		fmt.Fprintf(&b, "  <infoTable>\n    <nameOfIssuer>%s</nameOfIssuer>\n    <titleOfClass>%s</titleOfClass>\n    <cusip>%s</cusip>\n    <value>%d</value>\n",
			h.s.issuer, h.s.class, h.s.cusip, h.value(thousands))
		fmt.Fprintf(&b, "    <shrsOrPrnAmt>\n      <sshPrnamt>%d</sshPrnamt>\n      <sshPrnamtType>SH</sshPrnamtType>\n    </shrsOrPrnAmt>\n", h.shares)
		fmt.Fprintf(&b, "    <investmentDiscretion>SOLE</investmentDiscretion>\n    <votingAuthority>\n      <Sole>%d</Sole>\n      <Shared>0</Shared>\n      <None>0</None>\n    </votingAuthority>\n  </infoTable>\n", h.shares)
	}
	b.WriteString("</informationTable>\n")
	return b.String()
}
