// Command mkdatasets turns the 13F filings of the recorded mirror into SEC
// Form 13F Data Sets windows, the way the SEC builds them from the same
// XML: one zip per filing-date window with the seven tab-separated tables,
// plus the landing page that links them.
//
// Run from the module root after mkmirror:
//
//	go run ./testdata/mkdatasets -mirror testdata/mirror
//
// It writes testdata/mirror/www.sec.gov/files/.../form-13f-data-sets/<window>_form13f.zip
// for every window from the first to the last filing date of the mirror's
// 13F filings (windows without filings hold the headers only), the landing
// page testdata/mirror/www.sec.gov/data-research/sec-markets-data/form-13f-data-sets,
// and testdata/DATASETS.md. Output is deterministic; unchanged files are
// not rewritten.
//
// What the generator does as the SEC does (checked by its test against the
// real rows in testdata/datasets/): members SUBMISSION, COVERPAGE,
// SUMMARYPAGE, INFOTABLE, OTHERMANAGER, OTHERMANAGER2, SIGNATURE (.tsv)
// and FORM13F_metadata.json / FORM13F_readme.htm, one header line, LF line
// ends, quoting of fields holding '"', DD-MON-YYYY dates, booleans as Y/N
// (blank when the XML omits them), text as filed on one line (PUTCALL "Put"/"Call",
// OTHERMANAGER as filed), numbers as integers, INFOTABLE_SK and
// OTHERMANAGER_SK as global surrogate keys, CIKs zero-padded except in the
// 2013 files, every filing in the window of its filing date (so amendments
// land in later windows than their bases), notices in SUBMISSION,
// COVERPAGE and SIGNATURE only. Quarterly files keep their members at the
// zip root, dated windows under a <WINDOW>_form13f/ folder; the newest
// window is linked under the datastandardsinnovation folder, the others
// under structureddata, as the SEC has done.
package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/datasetzip"
	"github.com/edgar13f/edgar13f/internal/infotable"
	"github.com/edgar13f/edgar13f/testdata/internal/genfile"
)

func main() {
	mirror := flag.String("mirror", "testdata/mirror", "mirror root")
	flag.Parse()
	g := &gen{mirror: *mirror}
	if err := g.run(); err != nil {
		log.Fatal(err)
	}
	log.Printf("mkdatasets: %d windows, %d filings, %d information-table rows; %d files written, %d unchanged",
		len(g.windows), g.nFilings, g.nRows, g.files.Written, g.files.Unchanged)
}

// URL folders of the zips.
const (
	structuredData = "www.sec.gov/files/structureddata/data/form-13f-data-sets/"
	dsiData        = "www.sec.gov/files/datastandardsinnovation/data/form-13f-data-sets/"
	landingPage    = "www.sec.gov/data-research/sec-markets-data/form-13f-data-sets"
)

// A filing is one 13F submission of the mirror with its documents.
type filing struct {
	cik        int64
	acc        string
	form       string
	filed      civil.Day
	reportDate string // submissions reportDate, YYYY-MM-DD
	cover      *element
	table      []byte // information table XML; nil when the mirror has none
}

type gen struct {
	mirror   string
	filings  []filing
	windows  []datasetzip.Window
	nFilings int
	nRows    int

	files        genfile.Writer
	infoSK, omSK int64
}

func (g *gen) run() error {
	if err := g.load(); err != nil {
		return err
	}
	tables, err := g.build()
	if err != nil {
		return err
	}
	for i, w := range g.windows {
		z, err := zipWindow(w, tables[w.Name])
		if err != nil {
			return err
		}
		if err := g.write(zipPath(w, i == len(g.windows)-1), z); err != nil {
			return err
		}
	}
	if err := g.write(landingPage, g.landing()); err != nil {
		return err
	}
	return g.writeProvenance()
}

// zipPath is where window w's zip sits in the mirror.
func zipPath(w datasetzip.Window, newest bool) string {
	if newest {
		return dsiData + w.FileName()
	}
	return structuredData + w.FileName()
}

// load reads the submissions JSON of every CIK and the XML documents of
// their 13F filings.
func (g *gen) load() error {
	dir := filepath.Join(g.mirror, "data.sec.gov", "submissions")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return err
		}
		cols, err := columnsOf(b, strings.Contains(e.Name(), "-submissions-"))
		if err != nil {
			return fmt.Errorf("%s: %w", e.Name(), err)
		}
		cik, _ := strconv.ParseInt(strings.TrimPrefix(strings.SplitN(e.Name(), "-", 2)[0][:13], "CIK"), 10, 64)
		for i := range cols.Accession {
			form := cols.Form[i]
			if form != "13F-HR" && form != "13F-HR/A" && form != "13F-NT" && form != "13F-NT/A" {
				continue
			}
			filed, ok := civil.ParseISO(cols.FilingDate[i])
			if !ok {
				return fmt.Errorf("filing date %q is not YYYY-MM-DD", cols.FilingDate[i])
			}
			if _, ok := datasetzip.WindowOf(filed); !ok || seen[cols.Accession[i]] {
				continue
			}
			f := filing{cik: cik, acc: cols.Accession[i], form: form, filed: filed, reportDate: cols.ReportDate[i]}
			folder := filepath.Join(g.mirror, "www.sec.gov", "Archives", "edgar", "data", strconv.FormatInt(cik, 10), strings.ReplaceAll(f.acc, "-", ""))
			cover, err := os.ReadFile(filepath.Join(folder, "primary_doc.xml"))
			if errors.Is(err, fs.ErrNotExist) {
				continue // no XML cover in the mirror: nothing to derive rows from
			}
			if err != nil {
				return err
			}
			if f.cover, err = parseXML(cover); err != nil {
				return fmt.Errorf("%s: %w", f.acc, err)
			}
			docs, err := os.ReadDir(folder)
			if err != nil {
				return err
			}
			for _, d := range docs {
				if d.Name() != "primary_doc.xml" && strings.HasSuffix(strings.ToLower(d.Name()), ".xml") {
					if f.table != nil {
						return fmt.Errorf("%s: two information tables", f.acc)
					}
					if f.table, err = os.ReadFile(filepath.Join(folder, d.Name())); err != nil {
						return err
					}
				}
			}
			seen[f.acc] = true
			g.filings = append(g.filings, f)
		}
	}
	if len(g.filings) == 0 {
		return errors.New("mkdatasets: no 13F filing with an XML cover in the mirror")
	}
	sort.Slice(g.filings, func(i, j int) bool {
		a, b := g.filings[i], g.filings[j]
		if a.filed != b.filed {
			return a.filed < b.filed
		}
		return a.acc < b.acc
	})
	first, _ := datasetzip.WindowOf(g.filings[0].filed)
	last, _ := datasetzip.WindowOf(g.filings[len(g.filings)-1].filed)
	for w := first; w.From <= last.From; w = w.Next() {
		g.windows = append(g.windows, w)
	}
	g.nFilings = len(g.filings)
	return nil
}

// submissionColumns are the columns of a submissions file that matter here.
type submissionColumns struct {
	Accession  []string `json:"accessionNumber"`
	FilingDate []string `json:"filingDate"`
	ReportDate []string `json:"reportDate"`
	Form       []string `json:"form"`
}

func columnsOf(b []byte, page bool) (submissionColumns, error) {
	var c submissionColumns
	if page {
		return c, json.Unmarshal(b, &c)
	}
	var e struct {
		Filings struct {
			Recent submissionColumns `json:"recent"`
		} `json:"filings"`
	}
	err := json.Unmarshal(b, &e)
	return e.Filings.Recent, err
}

// windowTables holds the lines of each table of one window.
type windowTables map[string][][]string

// build turns the filings into table rows, by window.
func (g *gen) build() (map[string]windowTables, error) {
	out := map[string]windowTables{}
	for _, w := range g.windows {
		out[w.Name] = windowTables{}
	}
	g.infoSK, g.omSK = 100000000, 5000000
	for _, f := range g.filings {
		w, _ := datasetzip.WindowOf(f.filed)
		t := out[w.Name]
		rows, err := g.filingRows(f, w)
		if err != nil {
			return nil, fmt.Errorf("mkdatasets: %s: %w", f.acc, err)
		}
		for table, lines := range rows {
			t[table] = append(t[table], lines...)
		}
	}
	return out, nil
}

// filingRows returns the table rows of one filing.
func (g *gen) filingRows(f filing, w datasetzip.Window) (map[string][][]string, error) {
	c := f.cover
	out := map[string][][]string{}
	cik := fmt.Sprintf("%010d", f.cik)
	if strings.HasPrefix(w.Name, "2013q") {
		cik = strconv.FormatInt(f.cik, 10)
	}
	period := date(c.str("headerData/filerInfo/periodOfReport"))
	if period == "" {
		period = isoToDS(f.reportDate)
	}
	out[datasetzip.Submission] = [][]string{{f.acc, datasetzip.FormatDate(f.filed), f.form, cik, period}}

	cp := "formData/coverPage/"
	out[datasetzip.CoverPage] = [][]string{{
		f.acc, date(c.str(cp + "reportCalendarOrQuarter")), yn(c.str(cp + "isAmendment")), c.str(cp + "amendmentNo"),
		c.str(cp + "amendmentInfo/amendmentType"), yn(c.str(cp + "amendmentInfo/confDeniedExpired")),
		date(c.str(cp + "amendmentInfo/dateDeniedExpired")), date(c.str(cp + "amendmentInfo/dateReported")),
		c.str(cp + "amendmentInfo/reasonForNonConfidentiality"),
		c.str(cp + "filingManager/name"), c.str(cp + "filingManager/address/street1"), c.str(cp + "filingManager/address/street2"),
		c.str(cp + "filingManager/address/city"), c.str(cp + "filingManager/address/stateOrCountry"),
		c.str(cp + "filingManager/address/zipCode"), c.str(cp + "reportType"), c.str(cp + "form13FFileNumber"),
		c.str(cp + "crdNumber"), c.str(cp + "secFileNumber"), yn(c.str(cp + "provideInfoForInstruction5")),
		c.str(cp + "additionalInformation"),
	}}
	for _, om := range c.all(cp+"otherManagersInfo", "otherManager") {
		g.omSK++
		out[datasetzip.OtherManager] = append(out[datasetzip.OtherManager], []string{f.acc, strconv.FormatInt(g.omSK, 10),
			om.str("cik"), om.str("form13FFileNumber"), om.str("crdNumber"), om.str("secFileNumber"), om.str("name")})
	}
	sb := "formData/signatureBlock/"
	out[datasetzip.Signature] = [][]string{{f.acc, c.str(sb + "name"), c.str(sb + "title"), c.str(sb + "phone"),
		c.str(sb + "signature"), c.str(sb + "city"), c.str(sb + "stateOrCountry"), date(c.str(sb + "signatureDate"))}}
	if strings.HasPrefix(f.form, "13F-NT") {
		return out, nil // notices: no summary page, no table
	}
	sp := "formData/summaryPage/"
	out[datasetzip.SummaryPage] = [][]string{{f.acc, c.str(sp + "otherIncludedManagersCount"), c.str(sp + "tableEntryTotal"),
		c.str(sp + "tableValueTotal"), yn(c.str(sp + "isConfidentialOmitted"))}}
	for _, om := range c.all(sp+"otherManagers2Info", "otherManager2") {
		out[datasetzip.OtherManager2] = append(out[datasetzip.OtherManager2], []string{f.acc, om.str("sequenceNumber"),
			om.str("otherManager/cik"), om.str("otherManager/form13FFileNumber"), om.str("otherManager/crdNumber"),
			om.str("otherManager/secFileNumber"), om.str("otherManager/name")})
	}
	if f.table == nil {
		return out, nil
	}
	rows, err := infoRows(f.acc, f.table, &g.infoSK)
	if err != nil {
		return nil, err
	}
	out[datasetzip.InfoTable] = rows
	g.nRows += len(rows)
	return out, nil
}

// infoRows returns the INFOTABLE rows of an information table: text as
// filed (from the XML elements), numbers as the per-manager parser reads
// them (thousands separators and fractions resolved), SK from *sk.
func infoRows(acc string, table []byte, sk *int64) ([][]string, error) {
	parsed, err := infotable.Parse(table, nil)
	if err != nil {
		return nil, err
	}
	root, err := parseXML(table)
	if err != nil {
		return nil, err
	}
	elems := root.all("", "infoTable")
	if len(elems) != len(parsed) {
		return nil, fmt.Errorf("%d infoTable elements, %d parsed rows", len(elems), len(parsed))
	}
	var out [][]string
	for i, e := range elems {
		r := parsed[i]
		*sk++
		out = append(out, []string{acc, strconv.FormatInt(*sk, 10), e.str("nameOfIssuer"), e.str("titleOfClass"),
			e.str("cusip"), e.str("figi"), num(r.Value), num(r.Shares), e.str("shrsOrPrnAmt/sshPrnamtType"),
			e.str("putCall"), e.str("investmentDiscretion"), e.str("otherManager"),
			num(r.VotingSole), num(r.VotingShared), num(r.VotingNone)})
	}
	return out, nil
}

func num(v int64) string { return strconv.FormatInt(v, 10) }

// date turns the XML's MM-DD-YYYY into DD-MON-YYYY ("" stays "").
func date(s string) string {
	if s == "" {
		return ""
	}
	t, err := time.Parse("01-02-2006", s)
	if err != nil {
		return s
	}
	return datasetzip.FormatDate(civil.DayOf(t.Year(), t.Month(), t.Day()))
}

// isoToDS turns YYYY-MM-DD into DD-MON-YYYY.
func isoToDS(s string) string {
	d, ok := civil.ParseISO(s)
	if !ok {
		return ""
	}
	return datasetzip.FormatDate(d)
}

// yn writes an XML boolean as the tables do: Y or N, blank when absent.
func yn(s string) string {
	switch strings.ToLower(s) {
	case "true", "y", "1":
		return "Y"
	case "false", "n", "0":
		return "N"
	}
	return s
}

// encodeTable writes a table: header, then rows, quoted as the SEC quotes.
func encodeTable(table string, rows [][]string) ([]byte, error) {
	var b []byte
	b = append(b, strings.Join(datasetzip.Columns[table], "\t")...)
	b = append(b, '\n')
	for _, r := range rows {
		if len(r) != len(datasetzip.Columns[table]) {
			return nil, fmt.Errorf("mkdatasets: %s row of %d fields", table, len(r))
		}
		for i, f := range r {
			f = flatten(f)
			if i > 0 {
				b = append(b, '\t')
			}
			b = datasetzip.AppendField(b, f)
		}
		b = append(b, '\n')
	}
	return b, nil
}

// flatten replaces each tab, CR and LF of a text by a space: the tables
// have none inside fields (multi-line cover texts such as
// additionalInformation come out on one line).
func flatten(s string) string {
	if !strings.ContainsAny(s, "\t\r\n") {
		return s
	}
	return strings.NewReplacer("\r\n", " ", "\t", " ", "\r", " ", "\n", " ").Replace(s)
}

// zipTime is the fixed modification time of every member, so that the
// zips are reproducible.
var zipTime = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// zipWindow builds a window's zip.
func zipWindow(w datasetzip.Window, t windowTables) ([]byte, error) {
	folder := ""
	if !strings.Contains(w.Name, "q") {
		folder = strings.ToUpper(w.Name) + "_form13f/"
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name string, data []byte) error {
		fw, err := zw.CreateHeader(&zip.FileHeader{Name: folder + name, Method: zip.Deflate, Modified: zipTime})
		if err != nil {
			return err
		}
		_, err = fw.Write(data)
		return err
	}
	for _, table := range []string{datasetzip.Submission, datasetzip.CoverPage, datasetzip.OtherManager, datasetzip.OtherManager2,
		datasetzip.Signature, datasetzip.SummaryPage, datasetzip.InfoTable} {
		b, err := encodeTable(table, t[table])
		if err != nil {
			return nil, err
		}
		if err := add(table+".tsv", b); err != nil {
			return nil, err
		}
	}
	meta := fmt.Sprintf(`{"title":"Form 13F Data Sets %s","note":"generated by edgar13f testdata/mkdatasets from the mirror's filings; not an SEC file","filingDates":{"from":"%s","to":"%s"}}`+"\n",
		w.Name, w.From, w.To)
	if err := add("FORM13F_metadata.json", []byte(meta)); err != nil {
		return nil, err
	}
	readme := "<html><body><p>Form 13F data sets, window " + w.Name + ", generated from the mirror's filings for tests. " +
		"Starting on January 3, 2023, market value is reported rounded to the nearest dollar. Previously, market value was reported in thousands.</p></body></html>\n"
	if err := add("FORM13F_readme.htm", []byte(readme)); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// landing writes the landing page linking every window, newest first.
func (g *gen) landing() []byte {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Form 13F Data Sets | SEC</title></head>\n<body>\n")
	b.WriteString("<h1>Form 13F Data Sets</h1>\n<p>Test page generated by edgar13f testdata/mkdatasets; it links the windows of the recorded mirror.</p>\n<table>\n")
	for i := len(g.windows) - 1; i >= 0; i-- {
		w := g.windows[i]
		fmt.Fprintf(&b, "<tr><td><a href=\"/%s\">%s</a></td><td>%s to %s</td></tr>\n",
			strings.TrimPrefix(zipPath(w, i == len(g.windows)-1), "www.sec.gov/"), w.FileName(), w.From, w.To)
	}
	b.WriteString("</table>\n</body></html>\n")
	return []byte(b.String())
}

// write writes rel (relative to the mirror root) unless it already holds
// data.
func (g *gen) write(rel string, data []byte) error {
	return g.files.Write(filepath.Join(g.mirror, filepath.FromSlash(rel)), data)
}

// writeProvenance writes testdata/DATASETS.md.
func (g *gen) writeProvenance() error {
	var b strings.Builder
	b.WriteString(`# Provenance of the Data Sets files in testdata/

Written by testdata/mkdatasets; do not edit by hand. Regenerate from the module root
(after testdata/mkmirror):

    go run ./testdata/mkdatasets -mirror testdata/mirror

## REAL

- ` + "`datasets/*.tsv`" + `: copies of shared/edgar/datasets (the header and real rows of two SEC
  windows, printed by a public run log that strips trailing tabs); the generator's test
  checks its output against them.

## SYNTHETIC (generated from the mirror's filings; nothing here was published by the SEC)

`)
	fmt.Fprintf(&b, "- `mirror/%s`: landing page linking the %d windows below (the newest under the\n  datastandardsinnovation folder, the others under structureddata).\n", landingPage, len(g.windows))
	for i, w := range g.windows {
		fmt.Fprintf(&b, "- `mirror/%s`\n", zipPath(w, i == len(g.windows)-1))
	}
	fmt.Fprintf(&b, "\n%d filings (every 13F-HR, 13F-HR/A, 13F-NT, 13F-NT/A of the mirror's submissions files\nfiled since 2013-04-01 whose XML cover is in the mirror), %d information-table rows.\n", g.nFilings, g.nRows)
	return g.files.Write(filepath.Join(filepath.Dir(g.mirror), "DATASETS.md"), []byte(b.String()))
}
