package main

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f/internal/datasetzip"
)

// realLines returns the lines of a real excerpt in testdata/datasets.
func realLines(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "datasets", name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// member returns a table of a generated window zip in the mirror.
func member(t *testing.T, window, table string) []string {
	t.Helper()
	w, err := datasetzip.ParseWindow(window)
	if err != nil {
		t.Fatal(err)
	}
	var zb []byte
	for _, dir := range []string{structuredData, dsiData} {
		if zb, err = os.ReadFile(filepath.Join("..", "mirror", filepath.FromSlash(dir), w.FileName())); err == nil {
			break
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(zb), int64(len(zb)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		if filepath.Base(f.Name) == table+".tsv" {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(rc)
			rc.Close()
			if err != nil {
				t.Fatal(err)
			}
			return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		}
	}
	t.Fatalf("%s has no %s", window, table)
	return nil
}

// TestHeadersMatchReal checks the known columns against the real header
// lines.
func TestHeadersMatchReal(t *testing.T) {
	for file, table := range map[string]string{
		"01jun2025-31aug2025_COVERPAGE-excerpt.tsv": datasetzip.CoverPage,
		"01sep2025-30nov2025_COVERPAGE-excerpt.tsv": datasetzip.CoverPage,
		"01jun2025-31aug2025_INFOTABLE-excerpt.tsv": datasetzip.InfoTable,
		"SUMMARYPAGE-header.tsv":                    datasetzip.SummaryPage,
	} {
		if got, want := strings.Join(datasetzip.Columns[table], "\t"), realLines(t, file)[0]; got != want {
			t.Errorf("%s header:\n got %q\nwant %q", file, got, want)
		}
		if got := member(t, "01jun2025-31aug2025", table)[0]; got != realLines(t, file)[0] {
			t.Errorf("generated %s header %q", table, got)
		}
	}
}

// TestCoverRowsMatchReal compares the generated COVERPAGE rows of the
// Berkshire filings the real excerpts show (its NEW HOLDINGS amendment of
// 2025Q1 filed in the June-August window, its 2025Q2 and 2025Q3 originals)
// with the real rows: same window, same fields, byte for byte (the excerpt
// lost its trailing tabs, so those are ignored).
func TestCoverRowsMatchReal(t *testing.T) {
	checked := 0
	for _, window := range []string{"01jun2025-31aug2025", "01sep2025-30nov2025"} {
		gen := map[string]string{}
		for _, l := range member(t, window, datasetzip.CoverPage)[1:] {
			gen[strings.SplitN(l, "\t", 2)[0]] = l
		}
		for _, real := range realLines(t, window+"_COVERPAGE-excerpt.tsv")[1:] {
			acc := strings.SplitN(real, "\t", 2)[0]
			if !strings.HasPrefix(acc, "0000950123-25-0083") && acc != "0001193125-25-282901" || strings.Contains(real, "13F NOTICE") {
				continue // not in the mirror, or a notice whose mirror cover is synthetic
			}
			got, ok := gen[acc]
			if !ok {
				t.Errorf("%s: %s missing from the generated window", window, acc)
				continue
			}
			if strings.TrimRight(got, "\t") != strings.TrimRight(real, "\t") {
				t.Errorf("%s COVERPAGE row:\n got %q\nwant %q", acc, got, real)
			}
			checked++
		}
	}
	if checked != 3 {
		t.Fatalf("checked %d real rows, want 3", checked)
	}
}

// TestInfoRowsMatchReal writes the six real Palantir rows as the XML
// information tables they came from and checks the generator turns them
// back into the real lines (INFOTABLE_SK aside): blanks, FIGI, OTHERMANAGER
// "0" and blank, numbers.
func TestInfoRowsMatchReal(t *testing.T) {
	real := realLines(t, "01jun2025-31aug2025_INFOTABLE-excerpt.tsv")[1:]
	for _, line := range real {
		f := strings.Split(line, "\t")
		var x strings.Builder
		x.WriteString(`<informationTable xmlns="http://www.sec.gov/edgar/document/thirteenf/informationtable"><infoTable>`)
		x.WriteString("<nameOfIssuer>" + f[2] + "</nameOfIssuer><titleOfClass>" + f[3] + "</titleOfClass><cusip>" + f[4] + "</cusip>")
		if f[5] != "" {
			x.WriteString("<figi>" + f[5] + "</figi>")
		}
		x.WriteString("<value>" + f[6] + "</value><shrsOrPrnAmt><sshPrnamt>" + f[7] + "</sshPrnamt><sshPrnamtType>" + f[8] + "</sshPrnamtType></shrsOrPrnAmt>")
		x.WriteString("<investmentDiscretion>" + f[10] + "</investmentDiscretion>")
		if f[11] != "" {
			x.WriteString("<otherManager>" + f[11] + "</otherManager>")
		}
		x.WriteString("<votingAuthority><Sole>" + f[12] + "</Sole><Shared>" + f[13] + "</Shared><None>" + f[14] + "</None></votingAuthority></infoTable></informationTable>")
		sk := int64(0)
		rows, err := infoRows(f[0], []byte(x.String()), &sk)
		if err != nil {
			t.Fatal(err)
		}
		rows[0][1] = f[1]
		b, err := encodeTable(datasetzip.InfoTable, rows)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Split(string(b), "\n")[1]; got != line {
			t.Errorf("\n got %q\nwant %q", got, line)
		}
	}
}

// TestAmendmentInLaterWindow: the NEW HOLDINGS amendment of 2025Q1 sits in
// the window of its filing date, and the notices appear only in
// SUBMISSION, COVERPAGE and SIGNATURE.
func TestAmendmentInLaterWindow(t *testing.T) {
	sub := strings.Join(member(t, "01jun2025-31aug2025", datasetzip.Submission), "\n")
	if !strings.Contains(sub, "0000950123-25-008361\t14-AUG-2025\t13F-HR/A\t0001067983\t31-MAR-2025") {
		t.Errorf("amendment row missing:\n%s", sub)
	}
	notice := "0000950123-25-008374"
	for table, want := range map[string]bool{datasetzip.Submission: true, datasetzip.CoverPage: true, datasetzip.Signature: true,
		datasetzip.SummaryPage: false, datasetzip.InfoTable: false, datasetzip.OtherManager2: false} {
		if got := strings.Contains(strings.Join(member(t, "01jun2025-31aug2025", table), "\n"), notice); got != want {
			t.Errorf("notice in %s: %v, want %v", table, got, want)
		}
	}
	// 2013 files do not pad CIKs.
	for _, l := range member(t, "2013q3", datasetzip.Submission)[1:] {
		if strings.Split(l, "\t")[3][0] == '0' {
			t.Errorf("2013 CIK padded: %q", l)
		}
	}
}

// TestGeneratedUpToDate regenerates into a copy of the zips' names and
// checks the committed files are what the generator writes.
func TestGeneratedUpToDate(t *testing.T) {
	g := &gen{mirror: filepath.Join("..", "mirror")}
	if err := g.load(); err != nil {
		t.Fatal(err)
	}
	tables, err := g.build()
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range g.windows {
		z, err := zipWindow(w, tables[w.Name])
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(g.mirror, filepath.FromSlash(zipPath(w, i == len(g.windows)-1))))
		if err != nil || !bytes.Equal(got, z) {
			t.Errorf("%s is not what mkdatasets writes (%v): run go run ./testdata/mkdatasets", w.FileName(), err)
		}
	}
	page, err := os.ReadFile(filepath.Join(g.mirror, filepath.FromSlash(landingPage)))
	if err != nil || !bytes.Equal(page, g.landing()) {
		t.Errorf("landing page out of date (%v)", err)
	}
	links, err := datasetzip.ParseLandingPage(page, datasetzip.LandingPageURL)
	if err != nil || len(links) != len(g.windows) {
		t.Fatalf("landing page: %d links, %v", len(links), err)
	}
}
