package bulkstore

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/parquet-go/parquet-go"
	"pgregory.net/rapid"

	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/datasetzip"
)

// tsvZip builds a window zip from table bodies (rows without header).
func tsvZip(t testing.TB, tables map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, table := range datasetzip.Tables {
		w, err := zw.Create(table + ".tsv")
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(strings.Join(datasetzip.Columns[table], "\t") + "\n" + tables[table]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// smallWindow is a window of two filings: an ordinary 13F-HR with an
// S&P 500 ETF row between two ordinary rows, and a notice.
func smallWindow(value string) map[string]string {
	return map[string]string{
		datasetzip.Submission: "0000000001-24-000001\t14-FEB-2024\t13F-HR\t0000000001\t31-DEC-2023\n" +
			"0000000002-24-000001\t15-FEB-2024\t13F-NT\t2\t31-DEC-2023\n",
		datasetzip.CoverPage: "0000000001-24-000001\t31-DEC-2023\tN\t\t\t\t\t\t\tONE LLC\t\t\t\t\t\t13F HOLDINGS REPORT\t028-1\t\t\tN\t\n" +
			"0000000002-24-000001\t31-DEC-2023\t\t\t\t\t\t\t\tTWO LP\t\t\t\t\t\t13F NOTICE\t028-2\t\t\tN\t\n",
		datasetzip.SummaryPage: "0000000001-24-000001\t0\t3\t600\tN\n",
		datasetzip.InfoTable: "0000000001-24-000001\t11\tAPPLE INC\tCOM\t037833100\t\t" + value + "\t10\tSH\t\tSOLE\t\t10\t0\t0\n" +
			"0000000001-24-000001\t12\tSPDR S&P 500 ETF TR\tTR UNIT\t78462F103\t\t200\t1\tSH\t\tSOLE\t\t1\t0\t0\n" +
			"0000000001-24-000001\t13\tCHEVRON CORP NEW\tCOM\t166764100\t\t300\t3\tSH\tPut\tSOLE\t0\t3\t0\t0\n",
	}
}

// spyRedacts removes the S&P 500 ETF by CUSIP and name.
func spyRedacts(issuer, class, cusip string) bool {
	return strings.EqualFold(cusip, "78462F103") || strings.Contains(strings.ToUpper(issuer), "S&P 500")
}

func importBytes(t testing.TB, s *Store, window string, z []byte, opt Options) (Stats, error) {
	t.Helper()
	return s.Import(context.Background(), window, bytes.NewReader(z), int64(len(z)), opt)
}

// allRows reads every row of a partition file.
func allRows(t testing.TB, path string) []Row {
	t.Helper()
	rows, err := parquet.ReadFile[Row](path)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestRedactionAtImport(t *testing.T) {
	s, err := Open(t.TempDir(), testRule)
	if err != nil {
		t.Fatal(err)
	}
	st, err := importBytes(t, s, "01jan2024-29feb2024", tsvZip(t, smallWindow("100")), Options{Redact: spyRedacts})
	if err != nil {
		t.Fatal(err)
	}
	if st.Rows != 2 || st.Redacted != 1 || st.Filings != 2 {
		t.Fatalf("stats %+v", st.Meta)
	}
	for _, table := range []string{HoldingsTable, ByCUSIPTable} {
		file := PartitionPath(s.Dir(), table, "01jan2024-29feb2024")
		rows := allRows(t, file)
		if len(rows) != 2 {
			t.Fatalf("%s: %d rows", file, len(rows))
		}
		for _, r := range rows {
			if r.CUSIP == "78462F103" {
				t.Fatalf("%s holds the redacted row", file)
			}
		}
		b, _ := os.ReadFile(file)
		if bytes.Contains(b, []byte("78462F103")) || bytes.Contains(b, []byte("SPDR")) {
			t.Fatalf("%s holds the redacted row's bytes", file)
		}
	}
	h, err := s.Holdings(1, civil.DayOf(2023, 12, 31), civil.DayOf(2024, 3, 1), oracleResolve)
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Rows) != 2 || h.Rows[0].RowNo != 1 || h.Rows[1].RowNo != 3 || h.Rows[1].PutCall != "PUT" || h.Rows[1].OtherManager != "0" {
		t.Fatalf("rows %+v", h.Rows)
	}
	if h.Rows[0].ValueUSD != 100 {
		t.Fatalf("value_usd %d for a 2024 filing", h.Rows[0].ValueUSD)
	}
	hs, err := s.Holders("78462f103", civil.DayOf(2023, 12, 31), civil.DayOf(2024, 3, 1), oracleResolve)
	if err != nil || len(hs) != 0 {
		t.Fatalf("holders of a redacted CUSIP: %v %v", hs, err)
	}
	// Without a predicate, only a store of rule "off" accepts the import.
	if _, err := importBytes(t, s, "01jan2024-29feb2024", tsvZip(t, smallWindow("100")), Options{}); err == nil {
		t.Fatal("import without a predicate accepted")
	}
}

// TestRuleMismatch: a store opened under another rule sees none of the
// partitions, and its import replaces them.
func TestRuleMismatch(t *testing.T) {
	dir := t.TempDir()
	a, _ := Open(dir, testRule)
	if _, err := importBytes(t, a, "01jan2024-29feb2024", tsvZip(t, smallWindow("100")), Options{Redact: spyRedacts}); err != nil {
		t.Fatal(err)
	}
	b, _ := Open(dir, RuleOff)
	c, err := b.Coverage()
	if err != nil || len(c.Windows) != 0 {
		t.Fatalf("rule off sees %v (%v)", c.Windows, err)
	}
	if fs, _ := b.Filings(1, civil.DayOf(2030, 1, 1)); len(fs) != 0 {
		t.Fatalf("rule off reads filings of another rule: %v", fs)
	}
	if _, err := importBytes(t, b, "01jan2024-29feb2024", tsvZip(t, smallWindow("100")), Options{}); err != nil {
		t.Fatal(err)
	}
	if rows := allRows(t, PartitionPath(dir, HoldingsTable, "01jan2024-29feb2024")); len(rows) != 3 {
		t.Fatalf("%d rows without redaction", len(rows))
	}
	if c, _ := a.Coverage(); len(c.Windows) != 0 {
		t.Fatalf("the redacting store serves an unredacted partition: %v", c.Windows)
	}
}

// TestOtherFormatIgnored: a partition recorded under another layout
// version (one without the columns this version reads) is never read, and
// a re-import replaces it.
func TestOtherFormatIgnored(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(dir, testRule)
	const window = "01jan2024-29feb2024"
	if _, err := importBytes(t, s, window, tsvZip(t, smallWindow("100")), Options{Redact: spyRedacts}); err != nil {
		t.Fatal(err)
	}
	meta := filepath.Join(dir, metaDir, window+".json")
	b, err := os.ReadFile(meta)
	if err != nil {
		t.Fatal(err)
	}
	old := strings.Replace(string(b), fmt.Sprintf(`"format": %d,`, FormatVersion), fmt.Sprintf(`"format": %d,`, FormatVersion-1), 1)
	if old == string(b) {
		t.Fatalf("no format in %s", b)
	}
	if err := os.WriteFile(meta, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	s2, _ := Open(dir, testRule)
	if c, err := s2.Coverage(); err != nil || len(c.Windows) != 0 {
		t.Fatalf("a version %d partition is served: %v (%v)", FormatVersion-1, c.Windows, err)
	}
	if fs, _ := s2.Filings(1, civil.DayOf(2030, 1, 1)); len(fs) != 0 {
		t.Fatalf("filings of another version read: %v", fs)
	}
	if _, err := importBytes(t, s2, window, tsvZip(t, smallWindow("100")), Options{Redact: spyRedacts}); err != nil {
		t.Fatal(err)
	}
	if c, _ := s2.Coverage(); len(c.Windows) != 1 {
		t.Fatalf("re-import: %v", c.Windows)
	}
}

// snapshot returns every file under dir (but the lock) with its bytes.
func snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == ".lock" {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestReimportReplacesOnlyThatWindow, and a failed import leaves the old
// state.
func TestReimportReplacesOnlyThatWindow(t *testing.T) {
	s, _ := Open(t.TempDir(), testRule)
	zips := windowZips(t)
	importFile(t, s, "01jun2025-31aug2025", zips["01jun2025-31aug2025"], Options{Redact: noRedact})
	if _, err := importBytes(t, s, "01jan2024-29feb2024", tsvZip(t, smallWindow("100")), Options{Redact: noRedact}); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, s.Dir())
	if _, err := importBytes(t, s, "01jan2024-29feb2024", tsvZip(t, smallWindow("999")), Options{Redact: noRedact}); err != nil {
		t.Fatal(err)
	}
	after := snapshot(t, s.Dir())
	for name, b := range before {
		changed := after[name] != b
		switch {
		case strings.Contains(name, "01jun2025-31aug2025") && changed:
			t.Errorf("%s of the other window changed", name)
		case name == filepath.Join(HoldingsTable, "window=01jan2024-29feb2024", partFile) && !changed:
			t.Errorf("%s was not replaced", name)
		}
	}
	h, _ := s.Holdings(1, civil.DayOf(2023, 12, 31), civil.DayOf(2024, 3, 1), oracleResolve)
	if len(h.Rows) == 0 || h.Rows[0].Value != 999 {
		t.Fatalf("re-import not visible: %+v", h.Rows)
	}
	// A failing import (truncated zip, then an unknown accession) changes nothing.
	z := tsvZip(t, smallWindow("5"))
	if _, err := importBytes(t, s, "01jan2024-29feb2024", z[:len(z)-30], Options{Redact: noRedact}); err == nil ||
		!strings.Contains(err.Error(), "01jan2024-29feb2024") {
		t.Fatalf("truncated zip: %v", err)
	}
	bad := smallWindow("5")
	bad[datasetzip.InfoTable] += "0000000009-24-000001\t14\tX\tCOM\t000000000\t\t1\t1\tSH\t\tSOLE\t\t0\t0\t0\n"
	_, err := importBytes(t, s, "01jan2024-29feb2024", tsvZip(t, bad), Options{Redact: noRedact})
	var de *datasetzip.Error
	if !errors.As(err, &de) || de.Table != datasetzip.InfoTable || de.Line != 5 {
		t.Fatalf("unknown accession: %v", err)
	}
	if got := snapshot(t, s.Dir()); !mapsEqual(got, after) {
		t.Fatal("a failed import changed the store")
	}
}

func mustRename(t *testing.T, from, to string) {
	t.Helper()
	if err := os.Rename(from, to); err != nil {
		t.Fatal(err)
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestCrashLeavesOldState simulates a crash in the middle of replacing a
// partition (old one moved aside, new one not yet in place, a build left
// behind) and checks Open puts the old partition back.
func TestCrashLeavesOldState(t *testing.T) {
	for _, partial := range []bool{false, true} {
		crashAndRecover(t, partial)
	}
}

func crashAndRecover(t *testing.T, partial bool) {
	dir := t.TempDir()
	s, _ := Open(dir, testRule)
	if _, err := importBytes(t, s, "01jan2024-29feb2024", tsvZip(t, smallWindow("100")), Options{Redact: noRedact}); err != nil {
		t.Fatal(err)
	}
	want := snapshot(t, dir)
	// The replacement had moved the metadata and the old table partitions
	// aside (all three, or only some) and put new ones in place.
	name := "01jan2024-29feb2024"
	staging := filepath.Join(dir, stagingDir)
	old := filepath.Join(staging, name+".old")
	os.MkdirAll(filepath.Join(staging, name+".build-123", ByCUSIPTable), 0o755)
	os.WriteFile(filepath.Join(staging, name+".build-123", ByCUSIPTable, partFile), []byte("half"), 0o644)
	os.Mkdir(old, 0o755)
	mustRename(t, filepath.Join(dir, metaDir, name+".json"), filepath.Join(old, metaBuild))
	moved := tables
	if partial {
		moved = tables[:2]
	}
	for _, table := range moved {
		mustRename(t, filepath.Dir(PartitionPath(dir, table, name)), filepath.Join(old, table))
	}
	if !partial {
		os.MkdirAll(filepath.Join(dir, FilingsTable, "window="+name), 0o755)
		os.WriteFile(PartitionPath(dir, FilingsTable, name), []byte("new, half"), 0o644)
	}
	if c, _ := s.Coverage(); len(c.Windows) != 0 {
		t.Fatalf("mid-replacement: %v visible", c.Windows)
	}
	s2, err := Open(dir, testRule)
	if err != nil {
		t.Fatal(err)
	}
	if got := snapshot(t, dir); !mapsEqual(got, want) {
		t.Fatalf("after recovery: %d files, want %d", len(got), len(want))
	}
	if c, _ := s2.Coverage(); len(c.Windows) != 1 {
		t.Fatalf("after recovery: %v", c.Windows)
	}
}

func TestProgressAndCoverage(t *testing.T) {
	s, _ := Open(t.TempDir(), testRule)
	var phases []string
	var last Progress
	zips := windowZips(t)
	f, _ := os.ReadFile(zips["01jun2025-31aug2025"])
	st, err := importBytes(t, s, "01jun2025-31aug2025_form13f.zip", f, Options{Redact: noRedact, Progress: func(p Progress) {
		if len(phases) == 0 || phases[len(phases)-1] != p.Phase {
			phases = append(phases, p.Phase)
		}
		last = p
	}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(phases, ",") != "filings,infotable,sorting,done" || last.Rows != st.Rows || last.Window != "01jun2025-31aug2025" {
		t.Fatalf("phases %v, last %+v", phases, last)
	}
	for _, w := range []string{"01mar2025-31may2025", "01dec2025-28feb2026"} {
		importFile(t, s, w, zips[w], Options{Redact: noRedact})
	}
	c, err := s.Coverage()
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Windows) != 3 || c.DataFrom.String() != "2025-03-01" || c.DataThrough.String() != "2025-08-31" {
		t.Fatalf("coverage %v from %s through %s", c.Windows, c.DataFrom, c.DataThrough)
	}
	d := civil.DayOf
	for _, tc := range []struct {
		from, to civil.Day
		want     bool
	}{
		{d(2025, 3, 1), d(2025, 8, 31), true},
		{d(2025, 4, 1), d(2025, 5, 15), true},
		{d(2025, 2, 28), d(2025, 5, 15), false}, // starts before the span
		{d(2025, 4, 1), d(2025, 9, 1), false},   // ends after it
		{d(2025, 12, 1), d(2026, 1, 1), false},  // in a window after the gap
		{d(2025, 1, 2), d(2025, 1, 1), true},    // empty
	} {
		if got := c.Covers(tc.from, tc.to); got != tc.want {
			t.Errorf("Covers(%s, %s) = %v", tc.from, tc.to, got)
		}
	}
	importFile(t, s, "01sep2025-30nov2025", zips["01sep2025-30nov2025"], Options{Redact: noRedact})
	if c, _ := s.Coverage(); c.DataThrough.String() != "2026-02-28" {
		t.Fatalf("gap filled: through %s", c.DataThrough)
	}
}

// TestImportOrderIndependent (rapid): importing any subset of the mirror's
// windows in any order gives the same files as importing them in date
// order.
func TestImportOrderIndependent(t *testing.T) {
	zips := windowZips(t)
	var names []string
	for n := range zips {
		names = append(names, n)
	}
	sort.Strings(names)
	data := map[string][]byte{}
	for _, n := range names {
		data[n], _ = os.ReadFile(zips[n])
	}
	ref := map[string]map[string]string{} // snapshot of one window's partition
	refDir := t.TempDir()
	rs, _ := Open(refDir, testRule)
	for _, n := range names {
		if _, err := importBytes(t, rs, n, data[n], Options{Redact: noRedact}); err != nil {
			t.Fatal(err)
		}
	}
	all := snapshot(t, refDir)
	for _, n := range names {
		ref[n] = map[string]string{}
		for k, v := range all {
			if strings.Contains(k, "window="+n+string(filepath.Separator)) || k == filepath.Join(metaDir, n+".json") {
				ref[n][k] = v
			}
		}
	}
	rapid.Check(t, func(rt *rapid.T) {
		order := rapid.Permutation(names).Draw(rt, "order")
		order = order[:rapid.IntRange(1, 3).Draw(rt, "n")]
		dir, err := os.MkdirTemp("", "bulkstore-order-")
		if err != nil {
			rt.Fatal(err)
		}
		defer os.RemoveAll(dir)
		s, _ := Open(dir, testRule)
		for _, n := range order {
			if _, err := importBytes(t, s, n, data[n], Options{Redact: noRedact}); err != nil {
				rt.Fatal(err)
			}
		}
		want := map[string]string{}
		for _, n := range order {
			for k, v := range ref[n] {
				want[k] = v
			}
		}
		if !mapsEqual(snapshot(t, dir), want) {
			rt.Fatalf("importing %v gives other files than the date-order import", order)
		}
	})
}

// TestNoFilingAfterAsOf (rapid): whatever the CIK, period, CUSIP and asOf,
// no filing dated after asOf reaches an answer (filings, sources, rows,
// holders, panel).
func TestNoFilingAfterAsOf(t *testing.T) {
	s := mirrorStore(t)
	all := mirrorFilings(t)
	var ciks []int64
	var pers []civil.Day
	var cusips []string
	for cik, fs := range all {
		ciks = append(ciks, cik)
		for _, f := range fs {
			pers = append(pers, f.Period)
			for _, r := range f.rows {
				cusips = append(cusips, r.CUSIP)
			}
		}
	}
	slices.Sort(ciks)
	pers = uniq(pers)
	slices.Sort(cusips)
	cusips = slices.Compact(cusips)
	rapid.Check(t, func(rt *rapid.T) {
		cik := rapid.SampledFrom(ciks).Draw(rt, "cik")
		period := rapid.SampledFrom(pers).Draw(rt, "period")
		asOf := civil.Day(rapid.Int32Range(int32(civil.DayOf(2013, 1, 1)), int32(civil.DayOf(2027, 1, 1))).Draw(rt, "asOf"))
		leak := func(what, acc string, filed civil.Day) {
			if filed > asOf {
				rt.Fatalf("%s %s filed %s reaches an answer as of %s", what, acc, filed, asOf)
			}
		}
		fs, err := s.Filings(cik, asOf)
		if err != nil {
			rt.Fatal(err)
		}
		for _, f := range fs {
			leak("filing", f.Accession, f.FilingDate)
		}
		h, err := s.Holdings(cik, period, asOf, oracleResolve)
		if err != nil {
			rt.Fatal(err)
		}
		for _, f := range h.Sources {
			leak("source", f.Accession, f.FilingDate)
		}
		for _, r := range h.Rows {
			leak("row of", r.Accession, r.FilingDate)
		}
		hs, err := s.Holders(rapid.SampledFrom(cusips).Draw(rt, "cusip"), period, asOf, oracleResolve)
		if err != nil {
			rt.Fatal(err)
		}
		for _, x := range hs {
			for _, f := range x.Sources {
				leak("holder source", f.Accession, f.FilingDate)
			}
			for _, r := range x.Rows {
				leak("holder row of", r.Accession, r.FilingDate)
			}
		}
		for pr, err := range s.Panel(period, asOf, oracleResolve) {
			if err != nil {
				rt.Fatal(err)
			}
			leak("panel row of", pr.Accession, pr.FilingDate)
		}
	})
}

// TestResolverCannotLeak: a resolver that names a filing the store did not
// hand it (such as one filed after asOf) is an error, not an answer.
func TestResolverCannotLeak(t *testing.T) {
	s := mirrorStore(t)
	future := func(fs []Filing, period, asOf civil.Day) (Resolution, error) {
		return Resolution{Base: "0000950123-25-008343"}, nil // filed 2025-08-14
	}
	if _, err := s.Holdings(1067983, civil.DayOf(2025, 6, 30), civil.DayOf(2025, 8, 13), future); err == nil {
		t.Fatal("a resolver's future filing was served")
	}
	for _, err := range s.Panel(civil.DayOf(2025, 6, 30), civil.DayOf(2025, 8, 13), future) {
		if err == nil {
			t.Fatal("panel served a future filing")
		}
	}
}

// TestResolverErrorFailsQuery: a resolver that cannot decide for one
// manager (a transport or parse failure behind it) fails Holdings, Holders
// and Panel; no answer leaves that manager out as if it held nothing.
func TestResolverErrorFailsQuery(t *testing.T) {
	s := mirrorStore(t)
	broken := errors.New("cover of 0000950123-24-005653 unreadable")
	const cik = 1067983
	resolve := func(fs []Filing, period, asOf civil.Day) (Resolution, error) {
		if len(fs) > 0 && fs[0].CIK == cik {
			return Resolution{}, broken
		}
		return oracleResolve(fs, period, asOf)
	}
	period, asOf := civil.DayOf(2023, 9, 30), civil.DayOf(2024, 5, 15)
	// The manager is among the holders and in the panel when it resolves.
	hs, err := s.Holders("037833100", period, asOf, oracleResolve)
	if err != nil || !slices.ContainsFunc(hs, func(h Holder) bool { return h.CIK == cik }) {
		t.Fatalf("holders: %v, %v", len(hs), err)
	}
	if _, err := s.Holdings(cik, period, asOf, resolve); !errors.Is(err, broken) {
		t.Errorf("holdings: %v", err)
	}
	if hs, err := s.Holders("037833100", period, asOf, resolve); !errors.Is(err, broken) {
		t.Errorf("holders: %d holders, %v", len(hs), err)
	}
	rows := 0
	var perr error
	for _, err := range s.Panel(period, asOf, resolve) {
		if err != nil {
			perr = err
			break
		}
		rows++
	}
	if !errors.Is(perr, broken) || rows != 0 {
		t.Errorf("panel: %d rows, then %v", rows, perr)
	}
}

// TestBucketsDoNotChangeFiles imports the mirror with buckets of a few
// rows (many filing-order buckets, CUSIP buckets split down to full
// CUSIPs) and checks the files are byte for byte those of a normal import.
func TestBucketsDoNotChangeFiles(t *testing.T) {
	zips := windowZips(t)
	normal, tiny := t.TempDir(), t.TempDir()
	for _, dir := range []string{normal, tiny} {
		if dir == tiny {
			old := bucketRows
			bucketRows = 2
			defer func() { bucketRows = old }()
		}
		s, _ := Open(dir, testRule)
		for name, path := range zips {
			importFile(t, s, name, path, Options{Redact: noRedact})
		}
	}
	a, b := snapshot(t, normal), snapshot(t, tiny)
	if len(a) < 100 || !mapsEqual(a, b) {
		t.Fatalf("tiny buckets give other files (%d files, %d files)", len(a), len(b))
	}
}

// TestPanelSourcesOutOfFileOrder: with a resolver that takes the latest
// filing as base and the earlier ones as supplements, latest first (so the
// panel meets later sources in the file before the base), the panel is
// still every manager's sources in the resolver's order, each in filed
// order, as Rows reads them.
func TestPanelSourcesOutOfFileOrder(t *testing.T) {
	s := mirrorStore(t)
	reverse := func(fs []Filing, period, asOf civil.Day) (Resolution, error) {
		var accs []string
		for i := len(fs) - 1; i >= 0; i-- {
			if fs[i].Period == period && fs[i].Form != "13F-NT" && fs[i].Form != "13F-NT/A" {
				accs = append(accs, fs[i].Accession)
			}
		}
		if len(accs) == 0 {
			return Resolution{Reason: "none"}, nil
		}
		return Resolution{Base: accs[0], Supplements: accs[1:]}, nil
	}
	cov, err := s.Coverage()
	if err != nil {
		t.Fatal(err)
	}
	periods := map[civil.Day]bool{}
	ps, _ := s.partitions()
	for _, p := range ps {
		if err := p.open(); err != nil {
			t.Fatal(err)
		}
		for _, f := range p.filings {
			periods[f.Period] = true
		}
	}
	multi := 0
	for period := range periods {
		asOf := cov.DataThrough
		all, err := s.PeriodFilings(period, asOf)
		if err != nil {
			t.Fatal(err)
		}
		var want []PanelRow
		for fs := range cikRuns(all) {
			r, _ := reverse(fs, period, asOf)
			src, err := sources(r, fs)
			if err != nil {
				t.Fatal(err)
			}
			if len(src) == 0 {
				continue
			}
			rows, err := s.Rows(src)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, r := range rows {
				want = append(want, PanelRow{Row: r, Base: src[0].Accession})
				if r.Accession != src[0].Accession {
					n++
				}
			}
			if n > 0 {
				multi++
			}
		}
		var got []PanelRow
		for pr, err := range s.Panel(period, asOf, reverse) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, pr)
		}
		if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("Panel(%s, %s) (-Rows +Panel):\n%s", period, asOf, diff)
		}
	}
	if multi == 0 {
		t.Fatal("no manager with rows from a supplement stored ahead of its base")
	}
}
