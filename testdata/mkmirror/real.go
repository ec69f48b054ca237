package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// bkFiling is one line of shared/edgar/berkshire/FILINGS.md.
type bkFiling struct {
	acc, form, filed, period string
	amendNo                  int
	amendType, reportType    string
}

// bkReal maps the Berkshire filings whose real cover and table are in the
// shared collection to their folder there and the table's EDGAR file name.
var bkReal = map[string][2]string{
	"0000950123-22-012275": {"berkshire/2022q3-13f-hr-thousands", "18337.xml"},
	"0000950123-23-002585": {"berkshire/2022q4-13f-hr-dollars", "20651.xml"},
	"0000950123-23-010898": {"berkshire/2023q3-13f-hr-original", "infotable.xml"},
	"0000950123-23-011029": {"berkshire/2023q3-13f-hr-a-restatement", "28498.xml"},
	"0000950123-24-002518": {"berkshire/2023q4-13f-hr-original", "infotable.xml"},
	"0000950123-24-005653": {"berkshire/2023q3-13f-hr-a-new-holdings", "infotable.xml"},
	"0000950123-24-005664": {"berkshire/2023q4-13f-hr-a-new-holdings", "32498.xml"},
}

// bkAccepted holds the real acceptance times (UTC) and the chosen ones
// that must order same-day filings or cross midnight UTC.
var bkAccepted = map[string]time.Time{
	"0000950123-22-012275": utc("2022-11-14T21:01:07Z"), // real
	"0000950123-23-002585": utc("2023-02-14T21:00:08Z"), // real
	"0000950123-23-011029": utc("2023-11-16T21:46:50Z"), // real
	"0000950123-24-005664": utc("2024-05-15T20:16:06Z"), // real
	"0000950123-21-002781": atEastern("2021-02-16", 16, 2, 11),
	"0000950123-21-002786": atEastern("2021-02-16", 16, 5, 47),
	"0000950123-24-005622": atEastern("2024-05-15", 16, 3, 25),
	"0000950123-24-005653": atEastern("2024-05-15", 16, 10, 52),
	"0000950123-25-008343": atEastern("2025-08-14", 16, 4, 9),
	"0000950123-25-008361": utc("2025-08-15T00:12:31Z"), // 20:12:31 Eastern on the filing date
}

func (g *gen) berkshireFilings() ([]bkFiling, error) {
	md, err := g.readShared("berkshire/FILINGS.md")
	if err != nil {
		return nil, err
	}
	var fs []bkFiling
	sc := bufio.NewScanner(bytes.NewReader(md))
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "| 0") {
			continue
		}
		c := strings.Split(line, "|")
		for i := range c {
			c[i] = strings.TrimSpace(c[i])
		}
		f := bkFiling{acc: c[1], form: c[2], filed: c[3], period: c[4], amendType: c[6], reportType: c[7]}
		if c[5] != "" {
			if f.amendNo, err = strconv.Atoi(c[5]); err != nil {
				return nil, fmt.Errorf("mkmirror: FILINGS.md: %w", err)
			}
		}
		fs = append(fs, f)
	}
	if len(fs) != 36 {
		return nil, fmt.Errorf("mkmirror: FILINGS.md lists %d filings, want 36", len(fs))
	}
	return fs, nil
}

const bkCIK = 1067983

func (g *gen) berkshire() error {
	fs, err := g.berkshireFilings()
	if err != nil {
		return err
	}
	holdTmpl, err := g.readShared("berkshire/2023q4-13f-hr-original/primary_doc.xml")
	if err != nil {
		return err
	}
	combTmpl, err := g.readShared("berkshire/2022q4-13f-hr-dollars/primary_doc.xml")
	if err != nil {
		return err
	}
	originalFiled := map[string]string{}
	laterNewHoldings := map[string]bool{}
	for _, f := range fs {
		if f.form == "13F-HR" {
			originalFiled[f.period] = f.filed
		}
		if f.amendType == "NEW HOLDINGS" {
			laterNewHoldings[f.period] = true
		}
	}
	var rows []row
	var recs []rec
	for _, f := range fs {
		at, ok := bkAccepted[f.acc]
		if !ok {
			at = afternoon(f.filed, f.acc)
		}
		r := row{acc: f.acc, filed: f.filed, report: f.period, accepted: at, act: "", form: f.form,
			fileNo: "028-04545", film: film(f.filed, f.acc), doc: xsl13F(f.filed),
			size: 40000 + hash(f.acc+"size", 50000)}
		dir := folder(bkCIK, f.acc)
		rc := rec{acc: f.acc, form: f.form, filed: f.filed, period: f.period, amendNo: f.amendNo, kind: kindOf(f.form, f.amendType)}
		if src, ok := bkReal[f.acc]; ok {
			cover, err := g.readShared(src[0] + "/primary_doc.xml")
			if err != nil {
				return err
			}
			table, err := g.readShared(src[0] + "/information_table.xml")
			if err != nil {
				return err
			}
			what := fmt.Sprintf("Berkshire %s %s cover, period %s", f.form, f.acc, f.period)
			if err := g.copyShared(src[0]+"/primary_doc.xml", dir+"primary_doc.xml", what); err != nil {
				return err
			}
			if err := g.copyShared(src[0]+"/information_table.xml", dir+src[1], "its information table"); err != nil {
				return err
			}
			txt := container(bkHeader(f, at, r.film), []doc{
				{typ: f.form, filename: "primary_doc.xml", body: cover},
				{typ: "INFORMATION TABLE", filename: src[1], body: table},
			})
			r.size = len(txt)
			note := fmt.Sprintf("complete submission of Berkshire %s %s: synthetic SEC-HEADER (modelled on the real containers) around the real cover and table bytes of shared/edgar/%s", f.form, f.acc, src[0])
			if err := g.put(dir+f.acc+".txt", txt, false, note); err != nil {
				return err
			}
			rc.rows, rc.sum, rc.hasTable = tableStats(table)
		} else {
			tmpl, ref := string(holdTmpl), bkTemplateFacts{"12-31-2023", "02-14-2024", "<tableEntryTotal>138</tableEntryTotal><tableValueTotal>347358074461</tableValueTotal>", "true"}
			if f.reportType == "13F COMBINATION REPORT" {
				tmpl, ref = string(combTmpl), bkTemplateFacts{"12-31-2022", "02-14-2023", "<tableEntryTotal>172</tableEntryTotal><tableValueTotal>299007622119</tableValueTotal>", "false"}
			}
			cover := bkCover(tmpl, ref, f, originalFiled[f.period], f.form == "13F-HR" && laterNewHoldings[f.period])
			note := fmt.Sprintf("%sBerkshire 13F covers without a real copy: shared/edgar/berkshire/{2023q4-13f-hr-original (HOLDINGS REPORT), 2022q4-13f-hr-dollars (COMBINATION REPORT)}/primary_doc.xml with submissionType, periodOfReport, reportCalendarOrQuarter, isAmendment/amendmentNo/amendmentInfo, signatureDate (= filing date), isConfidentialOmitted (true on an original later completed by NEW HOLDINGS) set from FILINGS.md, schemaVersion dropped for filings before 2023-01-03, tableEntryTotal/tableValueTotal 0; no table and no .txt", groupPrefix)
			if err := g.put(dir+"primary_doc.xml", []byte(cover), false, note); err != nil {
				return err
			}
		}
		rows = append(rows, r)
		recs = append(recs, rc)
	}
	rows = append(rows, bkOtherFilings()...)
	if err := checkUnique(rows); err != nil {
		return err
	}
	e := entity{CIK: "0001067983", EntityType: "operating", SIC: "6331", SICDescription: "Fire, Marine & Casualty Insurance",
		OwnerOrg: strp("02 Finance"), InsiderTransactionForOwnerExists: 1, InsiderTransactionForIssuerExists: 1,
		Name: "BERKSHIRE HATHAWAY INC", Tickers: []string{"BRK-B", "BRK-A"}, Exchanges: []string{"NYSE", "NYSE"},
		EIN: strp("470813844"), Category: "Large accelerated filer", FiscalYearEnd: strp("1231"),
		StateOfIncorporation: "DE", StateOfIncorporationDescription: "DE",
		Addresses: addresses{Mailing: usAddress("3555 FARNAM STREET", "", "OMAHA", "NE", "68131"), Business: usAddress("3555 FARNAM STREET", "", "OMAHA", "NE", "68131")},
		Phone:     "4023461400", FormerNames: []formerName{{Name: "NEW BKH CORP", From: "1998-08-10T00:00:00.000Z", To: "1999-01-04T00:00:00.000Z"}}}
	e.Filings.Recent = makeColumns(rows)
	e.Filings.Files = []pageRef{}
	if err := g.putJSON("CIK0001067983.json", e, fmt.Sprintf("Berkshire submissions: top-level facts of the real company, recent = its 36 13F filings from shared/edgar/berkshire/FILINGS.md (act \"\", fileNumber 028-04545, X01/X02 by filing year; film numbers, sizes and non-real acceptance times invented) plus %d invented non-13F filings (10-K, 10-Q, 8-K, 4, SC 13G/A, SCHEDULE 13G/A)", len(rows)-36)); err != nil {
		return err
	}
	g.scen = append(g.scen, filerScenario{cik: bkCIK, name: "BERKSHIRE HATHAWAY INC (real tables where present)", recs: recs, berkshire: true})
	return nil
}

// bkTemplateFacts are the strings of a real Berkshire cover that change.
type bkTemplateFacts struct{ period, signed, totals, confOmitted string }

// bkCover builds a Berkshire cover from a real one.
func bkCover(tmpl string, ref bkTemplateFacts, f bkFiling, originalFiled string, confOmitted bool) string {
	s := replaceOnce(tmpl, "<submissionType>13F-HR</submissionType>", "<submissionType>"+f.form+"</submissionType>")
	s = replaceOnce(s, "<periodOfReport>"+ref.period+"</periodOfReport>", "<periodOfReport>"+mdy(f.period)+"</periodOfReport>")
	s = replaceOnce(s, "<reportCalendarOrQuarter>"+ref.period+"</reportCalendarOrQuarter>", "<reportCalendarOrQuarter>"+mdy(f.period)+"</reportCalendarOrQuarter>")
	s = replaceOnce(s, "<signatureDate>"+ref.signed+"</signatureDate>", "<signatureDate>"+mdy(f.filed)+"</signatureDate>")
	s = replaceOnce(s, ref.totals, "<tableEntryTotal>0</tableEntryTotal><tableValueTotal>0</tableValueTotal>")
	s = replaceOnce(s, "<isConfidentialOmitted>"+ref.confOmitted+"</isConfidentialOmitted>", fmt.Sprintf("<isConfidentialOmitted>%t</isConfidentialOmitted>", confOmitted))
	if f.amendNo > 0 {
		info := "<amendmentType>" + f.amendType + "</amendmentType><confDeniedExpired>false</confDeniedExpired>"
		if f.amendType == "NEW HOLDINGS" {
			info = "<amendmentType>NEW HOLDINGS</amendmentType><confDeniedExpired>true</confDeniedExpired><dateDeniedExpired>" + mdy(f.filed) +
				"</dateDeniedExpired><dateReported>" + mdy(originalFiled) + "</dateReported><reasonForNonConfidentiality>Confidential Treatment Expired</reasonForNonConfidentiality>"
		}
		s = replaceOnce(s, "<isAmendment>false</isAmendment>", fmt.Sprintf("<isAmendment>true</isAmendment><amendmentNo>%d</amendmentNo><amendmentInfo>%s</amendmentInfo>", f.amendNo, info))
	}
	if f.filed < "2023-01-03" {
		s = replaceOnce(s, "<schemaVersion>X0202</schemaVersion>", "")
	}
	return s
}

func bkHeader(f bkFiling, at time.Time, filmNo string) header {
	return header{acc: f.acc, form: f.form, period: f.period, filed: f.filed, accepted: at,
		name: "BERKSHIRE HATHAWAY INC", cik10: "0001067983", sic: "FIRE, MARINE & CASUALTY INSURANCE [6331]",
		irs: "470813844", stateInc: "DE", fye: "1231", fileNo: "028-04545", film: filmNo,
		street1: "3555 FARNAM STREET", city: "OMAHA", state: "NE", zip: "68131", phone: "4023461400"}
}

// bkOtherFilings returns invented non-13F filings of Berkshire, 2019-2026.
func bkOtherFilings() []row {
	var rs []row
	add := func(form, filed, report, prefix, doc, desc, items string, xbrl int) {
		d := mustDate(filed)
		acc := fmt.Sprintf("%s-%02d-%06d", prefix, d.Year()%100, 1000+d.YearDay()*1100+hash(form+filed, 1000))
		fileNo, act := "001-14905", "34"
		if form == "4" {
			fileNo, act = "", ""
		}
		if strings.Contains(form, "13G") {
			fileNo, act = "005-"+fmt.Sprint(10000+hash(filed, 90000)), "34"
		}
		rs = append(rs, row{acc: acc, filed: filed, report: report, accepted: atEastern(filed, 8+hash(acc, 9), hash(acc+"m", 60), hash(acc+"s", 60)),
			act: act, form: form, fileNo: fileNo, film: film(filed, acc), items: items, size: 20000 + hash(acc, 4000000),
			xbrl: xbrl, ixbrl: xbrl, doc: doc, docDesc: desc})
	}
	agent := func(filed string) string {
		if filed < "2021-01-01" {
			return "0001564590"
		}
		return "0000950170"
	}
	for _, p := range [][2]string{{"2019-02-25", "2018-12-31"}, {"2020-02-24", "2019-12-31"}, {"2021-03-01", "2020-12-31"},
		{"2022-02-28", "2021-12-31"}, {"2023-02-27", "2022-12-31"}, {"2024-02-26", "2023-12-31"}, {"2025-02-24", "2024-12-31"}, {"2026-03-02", "2025-12-31"}} {
		add("10-K", p[0], p[1], agent(p[0]), "brka-"+compact(p[1])+".htm", "10-K", "", 1)
	}
	for _, p := range [][2]string{{"2019-05-06", "2019-03-31"}, {"2019-08-05", "2019-06-30"}, {"2019-11-04", "2019-09-30"},
		{"2020-05-04", "2020-03-31"}, {"2020-08-10", "2020-06-30"}, {"2020-11-09", "2020-09-30"},
		{"2021-05-03", "2021-03-31"}, {"2021-08-09", "2021-06-30"}, {"2021-11-08", "2021-09-30"},
		{"2022-05-02", "2022-03-31"}, {"2022-08-08", "2022-06-30"}, {"2022-11-07", "2022-09-30"},
		{"2023-05-08", "2023-03-31"}, {"2023-08-07", "2023-06-30"}, {"2023-11-06", "2023-09-30"},
		{"2024-05-06", "2024-03-31"}, {"2024-08-05", "2024-06-30"}, {"2024-11-04", "2024-09-30"},
		{"2025-05-05", "2025-03-31"}, {"2025-08-04", "2025-06-30"}, {"2025-11-03", "2025-09-30"}, {"2026-05-04", "2026-03-31"}} {
		add("10-Q", p[0], p[1], agent(p[0]), "brka-"+compact(p[1])+".htm", "10-Q", "", 1)
	}
	for _, p := range [][2]string{{"2019-05-07", "2019-05-04"}, {"2020-05-05", "2020-05-02"}, {"2021-05-04", "2021-05-01"},
		{"2022-05-03", "2022-04-30"}, {"2023-05-09", "2023-05-06"}, {"2024-05-07", "2024-05-04"}, {"2025-05-06", "2025-05-03"}} {
		d := mustDate(p[0])
		add("8-K", p[0], p[1], "0001193125", fmt.Sprintf("d%06dd8k.htm", 100000+d.YearDay()*2000+d.Year()%100), "8-K", "5.07,9.01", 0)
	}
	for _, p := range [][2]string{{"2020-11-23", "2020-11-19"}, {"2022-06-24", "2022-06-22"}, {"2024-06-28", "2024-06-26"}, {"2025-06-27", "2025-06-25"}} {
		doc := "xslF345X03/doc4.xml"
		if p[0] >= "2023-01-01" {
			doc = "xslF345X05/ownership.xml"
		}
		add("4", p[0], p[1], "0001193125", doc, "FORM 4", "", 0)
	}
	add("SC 13G/A", "2022-02-11", "", "0000950123", "d296512dsc13ga.htm", "SC 13G/A", "", 0)
	add("SC 13G/A", "2024-02-13", "", "0000950123", "d786421dsc13ga.htm", "SC 13G/A", "", 0)
	add("SCHEDULE 13G/A", "2025-02-13", "2024-12-31", "0000950123", "xslSCHEDULE_13G_X01/primary_doc.xml", "", "", 0)
	return rs
}

func checkUnique(rows []row) error {
	seen := map[string]bool{}
	for _, r := range rows {
		if seen[r.acc] {
			return fmt.Errorf("mkmirror: duplicate accession %s", r.acc)
		}
		seen[r.acc] = true
	}
	return nil
}

// putJSON writes a submissions API document.
func (g *gen) putJSON(name string, v any, note string) error {
	b, err := compactJSON(v)
	if err != nil {
		return err
	}
	return g.put("data.sec.gov/submissions/"+name, b, false, note)
}

const sorosCIK = 1029160

func (g *gen) soros() error {
	const acc = "0000902664-26-003507"
	dir := folder(sorosCIK, acc)
	if err := g.copyShared("soros-2026q2-options/primary_doc.xml", dir+"primary_doc.xml", "Soros 13F-HR "+acc+" cover"); err != nil {
		return err
	}
	if err := g.copyShared("soros-2026q2-options/information_table.xml", dir+"infotable.xml", "its information table"); err != nil {
		return err
	}
	cover, err := g.readShared("soros-2026q2-options/primary_doc.xml")
	if err != nil {
		return err
	}
	table, err := g.readShared("soros-2026q2-options/information_table.xml")
	if err != nil {
		return err
	}
	at := utc("2026-08-14T20:10:21Z")
	h := header{acc: acc, form: "13F-HR", period: "2026-06-30", filed: "2026-08-14", accepted: at,
		name: "SOROS FUND MANAGEMENT LLC", cik10: "0001029160", irs: "133807581", stateInc: "DE", fye: "1231",
		fileNo: "028-06420", film: film("2026-08-14", acc), street1: "250 WEST 55TH STREET, FLOOR 29",
		city: "NEW YORK", state: "NY", zip: "10019", phone: "212-320-5000"}
	txt := container(h, []doc{{typ: "13F-HR", filename: "primary_doc.xml", body: cover}, {typ: "INFORMATION TABLE", filename: "infotable.xml", body: table}})
	if err := g.put(dir+acc+".txt", txt, false, "complete submission of Soros "+acc+": synthetic SEC-HEADER around the real cover and table bytes of shared/edgar/soros-2026q2-options"); err != nil {
		return err
	}
	rows := []row{{acc: acc, filed: "2026-08-14", report: "2026-06-30", accepted: at, act: "34", form: "13F-HR", fileNo: "028-06420",
		film: h.film, size: len(txt), doc: xsl13F("2026-08-14")}}
	for _, o := range [][4]string{
		{"0000902664-26-001873", "SCHEDULE 13G/A", "2026-05-11", "2026-03-31"},
		{"0000902664-26-000941", "SCHEDULE 13G", "2026-02-13", "2025-12-31"},
		{"0000902664-25-004410", "SCHEDULE 13D/A", "2025-09-22", "2025-09-18"},
		{"0000902664-24-001102", "SC 13G/A", "2024-02-14", ""},
	} {
		doc := "xslSCHEDULE_13G_X01/primary_doc.xml"
		if strings.Contains(o[1], "13D") {
			doc = "xslSCHEDULE_13D_X01/primary_doc.xml"
		}
		if o[1] == "SC 13G/A" {
			doc = "p24-0411sc13ga.htm"
		}
		rows = append(rows, row{acc: o[0], filed: o[2], report: o[3], accepted: afternoon(o[2], o[0]), act: "34", form: o[1],
			fileNo: "005-" + fmt.Sprint(40000+hash(o[0], 50000)), film: film(o[2], o[0]), size: 9000 + hash(o[0], 30000), doc: doc})
	}
	e := entity{CIK: "0001029160", EntityType: "other", InsiderTransactionForOwnerExists: 1,
		Name: "SOROS FUND MANAGEMENT LLC", Tickers: []string{}, Exchanges: []string{}, EIN: strp("133807581"),
		FiscalYearEnd: strp("1231"), StateOfIncorporation: "DE", StateOfIncorporationDescription: "DE",
		Addresses: addresses{Mailing: usAddress("250 WEST 55TH STREET", "FLOOR 29", "NEW YORK", "NY", "10019"), Business: usAddress("250 WEST 55TH STREET", "FLOOR 29", "NEW YORK", "NY", "10019")},
		Phone:     "212-320-5000", FormerNames: []formerName{}}
	e.Filings.Recent = makeColumns(rows)
	e.Filings.Files = []pageRef{}
	return g.putJSON("CIK0001029160.json", e, "Soros submissions: its real 13F-HR "+acc+" (real acceptance time) plus 4 invented ownership filings")
}

// single describes a real complete submission of the shared collection.
type single struct {
	src                       string
	cik                       int
	entityType, sic, sicDesc  string
	tickers, exchanges        []string
	insiderOwner, insiderIssu int
}

var singles = []single{
	{src: "full-submission/lts-one-13f-hr-2023q3-0001894188-23-000007.txt", cik: 1894188, entityType: "other"},
	{src: "full-submission/actiam-13f-hr-2020q4-ns1-0001619124-21-000002.txt", cik: 1619124, entityType: "other"},
	{src: "full-submission/bull-street-13f-hr-2022q4-thousands-after-cutover-0001790837-23-000002.txt", cik: 1790837, entityType: "other"},
	{src: "full-submission/metlife-13f-hr-combination-2021q4-filed2023-0001140361-23-013281.txt", cik: 1099219, entityType: "operating",
		sic: "6311", sicDesc: "Life Insurance", tickers: []string{"MET", "MET-PA", "MET-PE"}, exchanges: []string{"NYSE", "NYSE", "NYSE"}, insiderIssu: 1},
}

func (g *gen) singleFilings() error {
	for _, s := range singles {
		txt, err := g.readShared(s.src)
		if err != nil {
			return err
		}
		h, docs, err := splitContainer(txt)
		if err != nil {
			return fmt.Errorf("%w in %s", err, s.src)
		}
		acc := h["ACCESSION NUMBER"]
		dir := folder(s.cik, acc)
		if err := g.copyShared(s.src, dir+acc+".txt", "complete submission "+acc); err != nil {
			return err
		}
		for _, d := range docs {
			note := fmt.Sprintf("%s document %s, cut byte-exactly (the bytes between \"<XML>\\n\" and \"</XML>\") from shared/edgar/%s (%s)", d.typ, d.filename, s.src, fidelity(s.src))
			if err := g.put(dir+d.filename, d.body, true, note); err != nil {
				return err
			}
		}
		at, err := time.ParseInLocation("20060102150405", h["ACCEPTANCE-DATETIME"], eastern)
		if err != nil {
			return fmt.Errorf("mkmirror: %s: %w", s.src, err)
		}
		filed := isoDate(h["FILED AS OF DATE"])
		rows := []row{{acc: acc, filed: filed, report: isoDate(h["CONFORMED PERIOD OF REPORT"]), accepted: at, act: "34",
			form: h["CONFORMED SUBMISSION TYPE"], fileNo: h["FILING VALUES/SEC FILE NUMBER"], film: h["FILING VALUES/FILM NUMBER"],
			size: len(txt), doc: xsl13F(filed)}}
		name := h["COMPANY DATA/COMPANY CONFORMED NAME"]
		addr := func(sec string) address {
			return usAddress(h[sec+"/STREET 1"], h[sec+"/STREET 2"], h[sec+"/CITY"], h[sec+"/STATE"], h[sec+"/ZIP"])
		}
		e := entity{CIK: fmt.Sprintf("%010d", s.cik), EntityType: s.entityType, SIC: s.sic, SICDescription: s.sicDesc,
			InsiderTransactionForOwnerExists: s.insiderOwner, InsiderTransactionForIssuerExists: s.insiderIssu,
			Name: name, Tickers: orEmpty(s.tickers), Exchanges: orEmpty(s.exchanges), EIN: strp(h["COMPANY DATA/IRS NUMBER"]),
			FiscalYearEnd: strp(h["COMPANY DATA/FISCAL YEAR END"]), StateOfIncorporation: h["COMPANY DATA/STATE OF INCORPORATION"],
			StateOfIncorporationDescription: h["COMPANY DATA/STATE OF INCORPORATION"],
			Addresses:                       addresses{Mailing: addr("MAIL ADDRESS"), Business: addr("BUSINESS ADDRESS")},
			Phone:                           h["BUSINESS ADDRESS/BUSINESS PHONE"], FormerNames: []formerName{}}
		e.Filings.Recent = makeColumns(rows)
		e.Filings.Files = []pageRef{}
		note := fmt.Sprintf("submissions of %s: only its 13F-HR %s, every value taken from the header of shared/edgar/%s (acceptance converted from Eastern to UTC, reportDate = CONFORMED PERIOD OF REPORT, size = container length)", name, acc, s.src)
		if err := g.putJSON(fmt.Sprintf("CIK%010d.json", s.cik), e, note); err != nil {
			return err
		}
	}
	return nil
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// isoDate turns YYYYMMDD into YYYY-MM-DD.
func isoDate(s string) string {
	if len(s) != 8 {
		return s
	}
	return s[:4] + "-" + s[4:6] + "-" + s[6:]
}

const buffettCIK = 315090

// buffett copies Warren Buffett's real submissions JSON and synthesises a
// notice cover for every XML-era 13F-NT in it.
func (g *gen) buffett() error {
	if err := g.copyShared("submissions-json/CIK0000315090-buffett-warren-e.json", "data.sec.gov/submissions/CIK0000315090.json", "Warren E. Buffett submissions"); err != nil {
		return err
	}
	if err := g.copyShared("submissions-json/CIK0001009672-carbo-ceramics.json", "data.sec.gov/submissions/CIK0001009672.json", "CARBO Ceramics submissions, page 0 (pagination example)"); err != nil {
		return err
	}
	if err := g.copyShared("submissions-json/CIK0001009672-submissions-001.json", "data.sec.gov/submissions/CIK0001009672-submissions-001.json", "CARBO Ceramics submissions, page 1"); err != nil {
		return err
	}
	b, err := g.readShared("submissions-json/CIK0000315090-buffett-warren-e.json")
	if err != nil {
		return err
	}
	var e struct {
		Filings struct {
			Recent columns `json:"recent"`
		} `json:"filings"`
	}
	if err := json.Unmarshal(b, &e); err != nil {
		return fmt.Errorf("mkmirror: %w", err)
	}
	c := e.Filings.Recent
	note := groupPrefix + "13F NOTICE covers of Warren E. Buffett (CIK 315090), one per 13F-NT of his real submissions JSON whose primaryDocument is xslForm13F_X0N/primary_doc.xml: shared/edgar/sec-samples/Sample_13F-NT.xml reshaped as a disseminated cover in the collapsed style of the Berkshire covers (no contact block, flags empty, ns1: common prefix; schemaVersion X0202 for X02-era filings), submissionType = form, periodOfReport/reportCalendarOrQuarter = reportDate, signatureDate = filing date, manager Buffett Warren E (028-00554), otherManagersInfo Berkshire Hathaway Inc (CIK 0001067983, 028-04545)"
	for i, form := range c.Form {
		if (form != "13F-NT" && form != "13F-NT/A") || !strings.HasPrefix(c.PrimaryDocument[i], "xslForm13F_X0") {
			continue
		}
		cover := buffettNotice(form, c.ReportDate[i], c.FilingDate[i], strings.HasPrefix(c.PrimaryDocument[i], "xslForm13F_X02"))
		if err := g.put(folder(buffettCIK, c.AccessionNumber[i])+"primary_doc.xml", []byte(cover), false, note); err != nil {
			return err
		}
	}
	return nil
}

func buffettNotice(form, period, filed string, x02 bool) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><edgarSubmission xsi:schemaLocation="http://www.sec.gov/edgar/thirteenffiler eis_13F_Filer.xsd" xmlns:ns1="http://www.sec.gov/edgar/common" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="http://www.sec.gov/edgar/thirteenffiler">`)
	if x02 {
		b.WriteString("<schemaVersion>X0202</schemaVersion>")
	}
	fmt.Fprintf(&b, "<headerData><submissionType>%s</submissionType><filerInfo><liveTestFlag>LIVE</liveTestFlag><flags/><filer><credentials><cik>0000315090</cik><ccc>XXXXXXXX</ccc></credentials></filer><periodOfReport>%s</periodOfReport></filerInfo></headerData>", form, mdy(period))
	fmt.Fprintf(&b, "<formData><coverPage><reportCalendarOrQuarter>%s</reportCalendarOrQuarter><isAmendment>%t</isAmendment>", mdy(period), form == "13F-NT/A")
	b.WriteString("<filingManager><name>Buffett Warren E</name><address><ns1:street1>3555 Farnam Street</ns1:street1><ns1:city>Omaha</ns1:city><ns1:stateOrCountry>NE</ns1:stateOrCountry><ns1:zipCode>68131</ns1:zipCode></address></filingManager>")
	b.WriteString("<reportType>13F NOTICE</reportType><form13FFileNumber>028-00554</form13FFileNumber><otherManagersInfo><otherManager><cik>0001067983</cik><form13FFileNumber>028-04545</form13FFileNumber><name>Berkshire Hathaway Inc</name></otherManager></otherManagersInfo><provideInfoForInstruction5>N</provideInfoForInstruction5></coverPage>")
	fmt.Fprintf(&b, "<signatureBlock><name>Warren E. Buffett</name><title>Individual</title><phone>402-346-1400</phone><signature>Warren E. Buffett</signature><city>Omaha</city><stateOrCountry>NE</stateOrCountry><signatureDate>%s</signatureDate></signatureBlock></formData></edgarSubmission>\n", mdy(filed))
	return b.String()
}
