package bulkstore

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/cover"
	"github.com/edgar13f/edgar13f/internal/datasetzip"
	"github.com/edgar13f/edgar13f/internal/edgartest/edgarfiles"
	"github.com/edgar13f/edgar13f/internal/infotable"
	"github.com/edgar13f/edgar13f/internal/mirror"
	"github.com/edgar13f/edgar13f/internal/oracle"
)

var mirrorRoot = edgarfiles.Mirror

// testRule names the redaction rule of the test stores.
const testRule = "test-rule"

// noRedact is the test predicate for the mirror, whose tables hold no
// redacted instrument.
func noRedact(string, string, string) bool { return false }

// oracleResolve is the reference amendment rule as a Resolver.
func oracleResolve(fs []Filing, period, asOf civil.Day) (Resolution, error) {
	of := make([]oracle.Filing, len(fs))
	for i, f := range fs {
		of[i] = oracle.Filing{Accession: f.Accession, Form: f.Form, Filed: int(f.FilingDate), Period: int(f.Period),
			AmendNo: int(f.AmendmentNo), AmendType: f.AmendmentType}
	}
	a := oracle.Resolve(of, int(period), int(asOf))
	return Resolution{Base: a.Base, Supplements: a.Supplements, Reason: a.Reason}, nil
}

// windowZips returns the mirror's window zips, by window name, found
// through its landing page.
func windowZips(t testing.TB) map[string]string {
	t.Helper()
	fsys := os.DirFS(mirrorRoot)
	page, err := fs.ReadFile(fsys, "www.sec.gov/data-research/sec-markets-data/form-13f-data-sets")
	if err != nil {
		t.Fatal(err)
	}
	links, err := datasetzip.ParseLandingPage(page, datasetzip.LandingPageURL)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, l := range links {
		p, err := mirror.PathFor(l.URL)
		if err != nil {
			t.Fatal(err)
		}
		out[l.Window.Name] = filepath.Join(mirrorRoot, filepath.FromSlash(p))
	}
	return out
}

// importFile imports one zip file.
func importFile(t testing.TB, s *Store, window, path string, opt Options) Stats {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	stats, err := s.Import(context.Background(), window, f, st.Size(), opt)
	if err != nil {
		t.Fatal(err)
	}
	return stats
}

var (
	mirrorStoreOnce sync.Once
	mirrorStoreDir  string
)

// mirrorStore returns a store holding every window of the mirror, shared
// by the tests of this package (read-only).
func mirrorStore(t testing.TB) *Store {
	t.Helper()
	mirrorStoreOnce.Do(func() {
		dir, err := os.MkdirTemp("", "bulkstore-mirror-")
		if err != nil {
			t.Fatal(err)
		}
		s, err := Open(dir, testRule)
		if err != nil {
			t.Fatal(err)
		}
		for name, path := range windowZips(t) {
			importFile(t, s, name, path, Options{Redact: noRedact})
		}
		mirrorStoreDir = dir
	})
	s, err := Open(mirrorStoreDir, testRule)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestMain(m *testing.M) {
	code := m.Run()
	if mirrorStoreDir != "" {
		os.RemoveAll(mirrorStoreDir)
	}
	os.Exit(code)
}

// xmlFiling is a filing of the mirror as the per-manager path reads it:
// the submissions file's row, its XML cover and its XML table.
type xmlFiling struct {
	Filing
	rows []Row
}

// mirrorFilings reads every 13F filing of the mirror that has an XML cover
// and a window, with its information-table rows parsed from the XML.
func mirrorFilings(t testing.TB) map[int64][]xmlFiling {
	t.Helper()
	dir := filepath.Join(mirrorRoot, "data.sec.gov", "submissions")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int64][]xmlFiling{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		var cols struct {
			Accession  []string `json:"accessionNumber"`
			FilingDate []string `json:"filingDate"`
			ReportDate []string `json:"reportDate"`
			Form       []string `json:"form"`
		}
		if strings.Contains(e.Name(), "-submissions-") {
			err = json.Unmarshal(b, &cols)
		} else {
			var doc struct {
				Filings struct{ Recent json.RawMessage } `json:"filings"`
			}
			if err = json.Unmarshal(b, &doc); err == nil {
				err = json.Unmarshal(doc.Filings.Recent, &cols)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		cik, _ := strconv.ParseInt(e.Name()[3:13], 10, 64)
		for i, acc := range cols.Accession {
			form := cols.Form[i]
			if !strings.HasPrefix(form, "13F-") {
				continue
			}
			filed, _ := civil.ParseISO(cols.FilingDate[i])
			if _, ok := datasetzip.WindowOf(filed); !ok {
				continue
			}
			folder := filepath.Join(mirrorRoot, "www.sec.gov", "Archives", "edgar", "data", strconv.FormatInt(cik, 10), strings.ReplaceAll(acc, "-", ""))
			cb, err := os.ReadFile(filepath.Join(folder, "primary_doc.xml"))
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			c, err := cover.Parse(cb)
			if err != nil {
				t.Fatal(err)
			}
			f := xmlFiling{Filing: Filing{CIK: cik, Accession: acc, Form: form, FilingDate: filed,
				AmendmentType: c.AmendmentType, ManagerName: c.ManagerName, ReportType: c.ReportType}}
			if form != oracle.FormHR && form != oracle.FormNT {
				f.AmendmentNo = int32(c.AmendmentNo)
			}
			period := c.Period()
			if period == "" {
				period = cols.ReportDate[i]
			}
			var ok bool
			if f.Period, ok = civil.ParseISO(period); !ok {
				t.Fatalf("%s: period %q is not YYYY-MM-DD", acc, period)
			}
			docs, _ := os.ReadDir(folder)
			for _, d := range docs {
				if d.Name() == "primary_doc.xml" || !strings.HasSuffix(d.Name(), ".xml") {
					continue
				}
				tb, err := os.ReadFile(filepath.Join(folder, d.Name()))
				if err != nil {
					t.Fatal(err)
				}
				rows, err := infotable.Parse(tb, nil)
				if err != nil {
					t.Fatal(err)
				}
				var tally infotable.Tally
				for n, r := range rows {
					tally.Add(r.Value)
					f.rows = append(f.rows, Row{CUSIPKey: strings.ToUpper(r.CUSIP), Period: f.Period, CIK: cik,
						FilingDate: filed, Accession: acc, RowNo: int32(n + 1), NameOfIssuer: r.NameOfIssuer,
						TitleOfClass: r.TitleOfClass, CUSIP: r.CUSIP, FIGI: r.FIGI, Value: r.Value,
						ValueUSD: infotable.ValueUSD(r.Value, filed), Shares: r.Shares, ShPrn: r.ShPrn,
						PutCall: r.PutCall, InvestmentDiscretion: r.InvestmentDiscretion, OtherManager: r.OtherManager,
						VotingSole: r.VotingSole, VotingShared: r.VotingShared, VotingNone: r.VotingNone})
				}
				f.TableRows, f.TableValue = tally.Rows, tally.Value
			}
			out[cik] = append(out[cik], f)
		}
	}
	if len(out) < 8 {
		t.Fatalf("%d CIKs in the mirror", len(out))
	}
	return out
}

// expectHoldings resolves the XML filings with the oracle.
func expectHoldings(fs []xmlFiling, period, asOf civil.Day) (Resolution, []Row) {
	var vis []Filing
	for _, f := range fs {
		if f.FilingDate <= asOf {
			vis = append(vis, f.Filing)
		}
	}
	slices.SortFunc(vis, compareFiled)
	r, _ := oracleResolve(vis, period, asOf)
	var rows []Row
	if r.Base != "" {
		for _, acc := range append([]string{r.Base}, r.Supplements...) {
			for _, f := range fs {
				if f.Accession == acc {
					rows = append(rows, f.rows...)
				}
			}
		}
	}
	return r, rows
}

// asOfs returns the day before, of and after every filing date of fs.
func asOfs(fs []xmlFiling) []civil.Day {
	var out []civil.Day
	for _, f := range fs {
		out = append(out, f.FilingDate-1, f.FilingDate, f.FilingDate+1)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// periods returns the distinct periods of fs.
func periods(fs []xmlFiling) []civil.Day {
	var out []civil.Day
	for _, f := range fs {
		out = append(out, f.Period)
	}
	slices.Sort(out)
	return slices.Compact(out)
}
