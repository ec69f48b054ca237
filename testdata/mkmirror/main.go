// Command mkmirror builds the recorded EDGAR mirror used by the tests of
// edgar13f: testdata/mirror/<host>/<url path>, plus testdata/PROVENANCE.md
// and testdata/SCENARIOS.md beside it.
//
// Run from the module root:
//
//	go run ./testdata/mkmirror -shared ../shared/edgar -out testdata/mirror
//
// Real documents are copied from the shared collection byte for byte (or cut
// byte for byte out of a real complete submission); everything else is
// synthesised deterministically from the facts recorded in this program and
// in shared/edgar/berkshire/FILINGS.md. A file that already holds the wanted
// bytes is left untouched, so a second run changes nothing. After writing,
// the whole tree is checked: JSON columns of equal length, every filing
// container consistent with its loose documents, every information table
// summing to its cover's totals.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/edgar13f/edgar13f/testdata/internal/genfile"
)

func main() {
	shared := flag.String("shared", "../shared/edgar", "directory of the real EDGAR documents")
	out := flag.String("out", "testdata/mirror", "mirror root to write")
	flag.Parse()
	g := &gen{shared: *shared, out: *out, testdata: filepath.Dir(*out)}
	if err := g.run(); err != nil {
		log.Fatal(err)
	}
}

// gen holds the state of one generator run.
type gen struct {
	shared   string // shared/edgar directory
	out      string // mirror root
	testdata string // parent of the mirror root (PROVENANCE.md, SCENARIOS.md)

	prov  []provLine
	files genfile.Writer
	scen  []filerScenario
}

// provLine is one line of PROVENANCE.md: a file (relative to testdata/) and
// where its bytes come from.
type provLine struct {
	path string
	real bool
	note string
}

func (g *gen) run() error {
	steps := []func() error{
		g.berkshire,
		g.soros,
		g.singleFilings,
		g.buffett,
		g.company,
		g.companyLists,
		g.tenK,
		g.reportDocs,
		g.reportLists,
		g.synthetic,
		g.documents,
		g.verify,
		g.writeScenarios,
		g.writeProvenance,
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	log.Printf("mkmirror: %d files written, %d already up to date", g.files.Written, g.files.Unchanged)
	return nil
}

// readShared returns the bytes of a file of the shared collection.
func (g *gen) readShared(rel string) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(g.shared, filepath.FromSlash(rel)))
	if err != nil {
		return nil, fmt.Errorf("mkmirror: %w", err)
	}
	return b, nil
}

// put writes data to rel (relative to the mirror root) unless the file
// already holds exactly these bytes, and records its provenance.
func (g *gen) put(rel string, data []byte, real bool, note string) error {
	g.prov = append(g.prov, provLine{path: "mirror/" + rel, real: real, note: note})
	return g.writeIfChanged(filepath.Join(g.out, filepath.FromSlash(rel)), data)
}

func (g *gen) writeIfChanged(path string, data []byte) error {
	if err := g.files.Write(path, data); err != nil {
		return fmt.Errorf("mkmirror: %w", err)
	}
	return nil
}

// copyShared copies a real document into the mirror unchanged.
func (g *gen) copyShared(src, dst, what string) error {
	b, err := g.readShared(src)
	if err != nil {
		return err
	}
	return g.put(dst, b, true, fmt.Sprintf("%s; copy of shared/edgar/%s (%s)", what, src, fidelity(src)))
}

// documents checks that testdata/documents holds unchanged copies of the
// shared documents listed in docSources and records them for PROVENANCE.md.
func (g *gen) documents() error {
	names := make([]string, 0, len(docSources))
	for name := range docSources {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		src := docSources[name]
		want, err := g.readShared(src)
		if err != nil {
			return err
		}
		got, err := os.ReadFile(filepath.Join(g.testdata, "documents", name))
		if err != nil {
			return fmt.Errorf("mkmirror: %w", err)
		}
		if !bytes.Equal(got, want) {
			return fmt.Errorf("mkmirror: documents/%s differs from shared/edgar/%s", name, src)
		}
		g.prov = append(g.prov, provLine{path: "documents/" + name, real: true,
			note: fmt.Sprintf("copy of shared/edgar/%s (%s); not generated, checked by mkmirror", src, fidelity(src))})
	}
	return nil
}

// docSources maps the files of testdata/documents to their shared sources.
var docSources = map[string]string{
	"Sample_13F-NT.xml":                                 "sec-samples/Sample_13F-NT.xml",
	"Sample_13F-NTA.xml":                                "sec-samples/Sample_13F-NTA.xml",
	"abacus-wealth-13f-hr-2020q4-primary_doc.xml":       "cover/abacus-wealth-13f-hr-2020q4-primary_doc.xml",
	"accurate-investment-13f-hr-2018q3-primary_doc.xml": "cover/accurate-investment-13f-hr-2018q3-primary_doc.xml",
	"acorn-creek-13f-hr-2024q4-0001951757-25-000093.nc": "full-submission/acorn-creek-13f-hr-2024q4-0001951757-25-000093.nc",
	"bard-2021q3-com-cover.xml":                         "bard-financial-2021q3-ns1/primary_doc.xml",
	"bard-2021q3-ns1-infotable.xml":                     "bard-financial-2021q3-ns1/information_table.xml",
	"everhart-financial-13f-hr-2020q4-primary_doc.xml":  "cover/everhart-financial-13f-hr-2020q4-primary_doc.xml",
	"ge-10k-cross-reference-fragment.html":              "tenk/ge-cross-reference-fragment.html",
	"leading-newline-infotable.xml":                     "infotable/edgartools-13f-hr-infotable-unknown-filer.xml",
	"metlife-13f-combination-2021q4-primary_doc.xml":    "cover/metlife-13f-combination-2021q4-primary_doc.xml",
	"point72-13f-hr-combination-2025q3-primary_doc.xml": "cover/point72-13f-hr-combination-2025q3-primary_doc.xml",
	"sec-sample-infotable-figi.xml":                     "sec-samples/sample-information_table.xml",
	// Real 10-K and 10-Q primary documents, gzip-compressed (the section
	// tests read them through gzip).
	"jnj-10-k-2025-02-13.htm.gz":  "tenk/jnj-10-k-2025-02-13.htm.gz",
	"tsla-10-k-2025-01-30.htm.gz": "tenk/tsla-10-k-2025-01-30.htm.gz",
	"tsla-10-k-2025-04-30.htm.gz": "tenk/tsla-10-k-2025-04-30.htm.gz",
	"wmt-10-k-2025-03-14.htm.gz":  "tenk/wmt-10-k-2025-03-14.htm.gz",
	"aapl-10-q-2025-08-01.htm.gz": "tenq/aapl-10-q-2025-08-01.htm.gz",
	"jnj-10-q-2025-07-24.htm.gz":  "tenq/jnj-10-q-2025-07-24.htm.gz",
	"nvda-10-q-2025-08-27.htm.gz": "tenq/nvda-10-q-2025-08-27.htm.gz",
	"tsla-10-q-2025-07-24.htm.gz": "tenq/tsla-10-q-2025-07-24.htm.gz",
}

// fidelity returns the fidelity tag that shared/edgar/PROVENANCE.md gives a
// shared file.
func fidelity(src string) string {
	switch {
	case strings.HasPrefix(src, "berkshire/2022q4-13f-hr-dollars/information_table"):
		return "RAW-GIT"
	case strings.HasPrefix(src, "berkshire/2023q3-13f-hr-original/information_table"):
		return "TRANSCRIBED (reconstructed), COLLAPSED"
	case strings.HasPrefix(src, "berkshire/"), strings.HasPrefix(src, "soros-"),
		src == "cover/point72-13f-hr-combination-2025q3-primary_doc.xml":
		return "TRANSCRIBED, COLLAPSED"
	case strings.HasPrefix(src, "full-submission/") && strings.HasSuffix(src, ".txt") &&
		!strings.HasPrefix(src, "full-submission/lts-one"):
		return "RAW-VCR"
	case strings.HasPrefix(src, "submissions-json/"):
		return "RAW-VCR"
	case src == "cover/accurate-investment-13f-hr-2018q3-primary_doc.xml":
		return "RAW-GIT (source-reformatted)"
	}
	return "RAW-GIT"
}

func (g *gen) writeProvenance() error {
	var b strings.Builder
	b.WriteString(provHeader)
	sort.SliceStable(g.prov, func(i, j int) bool { return g.prov[i].path < g.prov[j].path })
	for _, kind := range []bool{true, false} {
		if kind {
			b.WriteString("\n## REAL (bytes as collected in shared/edgar, unchanged)\n\n")
		} else {
			b.WriteString("\n## SYNTHETIC (generated by testdata/mkmirror)\n\n")
		}
		groups := map[string][]string{}
		var order []string
		for _, p := range g.prov {
			if p.real != kind {
				continue
			}
			if strings.HasPrefix(p.note, groupPrefix) {
				if _, ok := groups[p.note]; !ok {
					order = append(order, p.note)
				}
				groups[p.note] = append(groups[p.note], p.path)
				continue
			}
			fmt.Fprintf(&b, "- `%s`: %s\n", p.path, p.note)
		}
		for _, note := range order {
			fmt.Fprintf(&b, "- %d files: %s:\n", len(groups[note]), strings.TrimPrefix(note, groupPrefix))
			for _, p := range groups[note] {
				fmt.Fprintf(&b, "  `%s`\n", p)
			}
		}
	}
	b.WriteString("\n- `mkmirror/*.go`: the generator itself.\n- `internal/genfile/*.go`: the file writer it shares with mkdatasets.\n- `PROVENANCE.md`, `SCENARIOS.md`: written by the generator.\n")
	path := filepath.Join(g.testdata, "PROVENANCE.md")
	// Sections written by hand (a heading saying so) describe files the
	// generator does not make: keep them.
	if old, err := os.ReadFile(path); err == nil {
		if i := handWritten.FindIndex(old); i != nil {
			b.WriteString("\n")
			b.Write(old[i[0]+1:])
		}
	}
	return g.writeIfChanged(path, []byte(b.String()))
}

// handWritten finds the first heading of a hand-written section of
// PROVENANCE.md.
var handWritten = regexp.MustCompile(`\n## [^\n]*written by hand`)

// groupPrefix marks a provenance note shared by many files, listed together.
const groupPrefix = "GROUP:"

const provHeader = `# Provenance of testdata/

Every file under testdata/ is listed below as REAL or SYNTHETIC, except the SEC
Form 13F Data Sets files (the window zips under mirror/www.sec.gov/files/, their
landing page and datasets/), which testdata/mkdatasets writes and DATASETS.md
lists. REAL files are
byte-for-byte copies of documents in the shared collection (shared/edgar; its
PROVENANCE.md gives sources and the fidelity tags quoted here: RAW-GIT, RAW-VCR,
TRANSCRIBED, COLLAPSED), byte-exact cuts of a real complete submission, or
(where the note says so) a real JSON document with its insignificant white
space removed.
SYNTHETIC files are generated; nothing in them was filed with the SEC.

Regenerate (deterministic; unchanged files are not rewritten) from the module root:

    go run ./testdata/mkmirror -shared ../shared/edgar -out testdata/mirror

The generator also writes this file and SCENARIOS.md, and checks the tree:
equal-length JSON columns, container documents equal to the loose files,
table row count and value sum equal to the cover's tableEntryTotal/tableValueTotal,
cover period equal to the submissions reportDate.

Gaps: the real filing lists are copied whole, but only the documents the
tests use are mirrored. A filing listed without its documents (Berkshire's
2023Q2 report 0000950123-23-008074, for one) cannot be answered from this
mirror: the query fails with an error naming the missing document and its
mirror file, never with a partial answer.

Acceptance timestamps (submissions JSON acceptanceDateTime, container
ACCEPTANCE-DATETIME): REAL for Berkshire 0000950123-22-012275 (2022-11-14T21:01:07Z),
0000950123-23-002585 (2023-02-14T21:00:08Z), 0000950123-23-011029 (2023-11-16T21:46:50Z),
0000950123-24-005664 (2024-05-15T20:16:06Z), Soros 0000902664-26-003507
(2026-08-14T20:10:21Z) and the four real containers (LTS One, ACTIAM, Bull Street,
MetLife: the header's Eastern time converted to UTC). All other timestamps are
invented; Berkshire 0000950123-25-008361 (filed 2025-08-14) is deliberately
2025-08-15T00:12:31.000Z (20:12:31 Eastern): its UTC date is the day after its
filing date. Film numbers and sizes of synthetic rows are invented.
`
