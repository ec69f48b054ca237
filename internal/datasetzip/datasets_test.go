package datasetzip

import (
	"archive/zip"
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/edgar13f/edgar13f/internal/civil"
)

func TestWindows(t *testing.T) {
	tests := []struct {
		name, want, from, to string
	}{
		{"2013q2_form13f.zip", "2013q2", "2013-04-01", "2013-06-30"},
		{"2023Q4", "2023q4", "2023-10-01", "2023-12-31"},
		{"01jan2024-29feb2024_form13f.zip", "01jan2024-29feb2024", "2024-01-01", "2024-02-29"},
		{"01MAR2024-31MAY2024_form13f.zip", "01mar2024-31may2024", "2024-03-01", "2024-05-31"},
		{"01dec2025-28feb2026", "01dec2025-28feb2026", "2025-12-01", "2026-02-28"},
		{"01jun2025-31aug2025", "01jun2025-31aug2025", "2025-06-01", "2025-08-31"},
	}
	for _, tt := range tests {
		w, err := ParseWindow(tt.name)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if w.Name != tt.want || w.From.String() != tt.from || w.To.String() != tt.to {
			t.Errorf("%s: got %s %s..%s", tt.name, w.Name, w.From, w.To)
		}
	}
	for _, bad := range []string{"2013q1", "2024q1", "01jan2024-31mar2024", "01apr2024-30jun2024", "01feb2024-29feb2024", "x", "01dec2024-28feb2025x"} {
		if _, err := ParseWindow(bad); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}

// TestWindowCalendar walks every day from 2013-04-01 to 2030: each lies in
// exactly one window, windows follow each other without gap, and every
// window's name parses back to it.
func TestWindowCalendar(t *testing.T) {
	if _, ok := WindowOf(civil.DayOf(2013, time.March, 31)); ok {
		t.Fatal("a window before 2013q2")
	}
	w, _ := WindowOf(civil.DayOf(2013, time.April, 1))
	n := 0
	for d := civil.DayOf(2013, time.April, 1); d < civil.DayOf(2030, 1, 1); d++ {
		got, ok := WindowOf(d)
		if !ok || got != w && got != w.Next() {
			t.Fatalf("%s: window %v after %v", d, got, w)
		}
		if got != w {
			if got.From != w.To+1 {
				t.Fatalf("gap between %s and %s", w.Name, got.Name)
			}
			w = got
			n++
		}
		if d < w.From || d > w.To {
			t.Fatalf("%s outside %s", d, w.Name)
		}
		back, err := ParseWindow(w.FileName())
		if err != nil || back != w {
			t.Fatalf("%s: %v %v", w.Name, back, err)
		}
	}
	if n < 60 {
		t.Fatalf("only %d windows", n)
	}
}

func TestParseDate(t *testing.T) {
	for s, want := range map[string]string{"30-JUN-2025": "2025-06-30", "29-feb-2024": "2024-02-29", "01-Jan-2013": "2013-01-01"} {
		d, err := ParseDate(s)
		if err != nil || d.String() != want {
			t.Errorf("%s: %v %v", s, d, err)
		}
		if FormatDate(d) != strings.ToUpper(s) {
			t.Errorf("FormatDate(%s) = %s", d, FormatDate(d))
		}
	}
	for _, s := range []string{"31-JUN-2025", "29-FEB-2025", "2025-06-30", "30-JUNE-2025", "3-JUN-2025", ""} {
		if _, err := ParseDate(s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
}

func TestLandingPage(t *testing.T) {
	page := `<html><body>
<a href="/files/structureddata/data/form-13f-data-sets/2013q2_form13f.zip">2013 Q2</a>
<a href="https://www.sec.gov/files/datastandardsinnovation/data/form-13f-data-sets/01jun2025-31aug2025_form13f.zip">June</a>
<a href="/files/structureddata/data/form-13f-data-sets/01jan2024-29feb2024_form13f.zip">Jan</a>
<a href="/files/structureddata/data/form-13f-data-sets/2013q2_form13f.zip">dup</a>
<a href="/about">about</a><a href="/files/other.zip">other</a>
</body></html>`
	links, err := ParseLandingPage([]byte(page), LandingPageURL)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"https://www.sec.gov/files/structureddata/data/form-13f-data-sets/2013q2_form13f.zip",
		"https://www.sec.gov/files/structureddata/data/form-13f-data-sets/01jan2024-29feb2024_form13f.zip",
		"https://www.sec.gov/files/datastandardsinnovation/data/form-13f-data-sets/01jun2025-31aug2025_form13f.zip",
	}
	if len(links) != len(want) {
		t.Fatalf("%d links: %v", len(links), links)
	}
	for i, l := range links {
		if l.URL != want[i] {
			t.Errorf("link %d: %s, want %s", i, l.URL, want[i])
		}
	}
	if _, err := ParseLandingPage([]byte(`<a href="/x/2099q1_form13f.zip">`), LandingPageURL); err == nil {
		t.Error("unknown window accepted")
	}
	if _, err := ParseLandingPage([]byte(`<p>nothing</p>`), LandingPageURL); err == nil {
		t.Error("page without links accepted")
	}
}

func TestSplitFields(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"a\tb\t", []string{"a", "b", ""}},
		{`"say ""hi"""` + "\tx", []string{`say "hi"`, "x"}},
		{`"unmatched` + "\tnext\tlast", []string{`"unmatched`, "next", "last"}},
		{`5" PIPE` + "\t" + `""`, []string{`5" PIPE`, ""}},
		{`"`, []string{`"`}},
	}
	for _, tt := range tests {
		var got []string
		for _, f := range splitFields(nil, []byte(tt.line)) {
			got = append(got, string(f))
		}
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%q: %q, want %q", tt.line, got, tt.want)
		}
	}
	for _, s := range []string{`plain`, `say "hi"`, `"`, `""`, `a"b"c`} {
		got := splitFields(nil, AppendField(nil, s))
		if len(got) != 1 || string(got[0]) != s {
			t.Errorf("round trip of %q: %q", s, got)
		}
	}
}

// zipOf builds a zip with the given members.
func zipOf(t *testing.T, members map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range members {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func header(table string) string { return strings.Join(Columns[table], "\t") + "\n" }

func minimal() map[string]string {
	return map[string]string{
		"01JUN2025-31AUG2025_form13f/SUBMISSION.tsv": header(Submission) +
			"0000950123-25-008361\t14-AUG-2025\t13F-HR/A\t1067983\t31-MAR-2025\n" +
			"0000950123-25-008374\t14-AUG-2025\t13F-NT\t0000315090\t30-JUN-2025\n",
		"01JUN2025-31AUG2025_form13f/COVERPAGE.tsv": header(CoverPage) +
			"0000950123-25-008361\t31-MAR-2025\tY\t1\tNEW  holdings\tY\t14-AUG-2025\t15-MAY-2025\tConfidential Treatment Expired\tBerkshire Hathaway Inc\t3555 Farnam Street\t\tOmaha\tNE\t68131\t13F HOLDINGS REPORT\t028-04545\t\t\tN\t\n" +
			"0000950123-25-008374\t30-JUN-2025\tN\t\t\t\t\t\t\tBuffett Warren E\t3555 Farnam St\tSTE 1440\tOmaha\tNE\t68131\t13F NOTICE\t028-00554\t\t\tN\t\n",
		"01JUN2025-31AUG2025_form13f/SUMMARYPAGE.tsv": header(SummaryPage) + "0000950123-25-008361\t14\t2\t1000\tN\n",
		"01JUN2025-31AUG2025_form13f/INFOTABLE.tsv": header(InfoTable) +
			"0000950123-25-008361\t118784438\t\"THE \"\"BEST\"\" CO\"\tCOM\t037833100\t\t600\t10\tSh\tCall\tdfnd\t0\t\t0\t10\n" +
			"0000950123-25-008361\t118784439\tCHEVRON CORP NEW\tCOM\t166764100\tBBG000K4ND22\t400.5\t20\tPRN\t\tSOLE\t\t5\t0\t15\n",
	}
}

func TestArchive(t *testing.T) {
	z := zipOf(t, minimal())
	a, err := Open(bytes.NewReader(z), int64(len(z)), "01jun2025-31aug2025")
	if err != nil {
		t.Fatal(err)
	}
	fs, err := a.Filings()
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 2 {
		t.Fatalf("%d filings", len(fs))
	}
	b := fs[0]
	if b.CIK != 1067983 || b.Form != "13F-HR/A" || b.FilingDate.String() != "2025-08-14" || b.Period.String() != "2025-03-31" ||
		!b.IsAmendment || b.AmendmentNo != 1 || b.AmendmentType != "NEW HOLDINGS" || b.ManagerName != "Berkshire Hathaway Inc" ||
		b.ReportType != "13F HOLDINGS REPORT" || !b.HasTotals || b.TableEntryTotal != 2 || b.TableValueTotal != 1000 || b.OtherIncludedManagers != 14 {
		t.Errorf("filing: %+v", b)
	}
	if n := fs[1]; n.CIK != 315090 || n.IsAmendment || n.HasTotals || n.ReportType != "13F NOTICE" {
		t.Errorf("notice: %+v", n)
	}
	tr, err := a.Table(InfoTable)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	var rows []InfoRow
	for tr.Next() {
		var r InfoRow
		if err := tr.InfoRow(&r); err != nil {
			t.Fatal(err)
		}
		r.NameOfIssuer = append([]byte(nil), r.NameOfIssuer...)
		r.OtherManager = append([]byte(nil), r.OtherManager...)
		rows = append(rows, r)
	}
	if tr.Err() != nil {
		t.Fatal(tr.Err())
	}
	if len(rows) != 2 {
		t.Fatalf("%d rows", len(rows))
	}
	r := rows[0]
	if string(r.NameOfIssuer) != `THE "BEST" CO` || r.PutCall != "CALL" || r.ShPrn != "SH" || r.InvestmentDiscretion != "DFND" ||
		string(r.OtherManager) != "0" || r.VotingShared != 0 || r.VotingNone != 10 || r.SK != 118784438 {
		t.Errorf("row 0: %+v", r)
	}
	if r := rows[1]; r.Value != 401 || r.PutCall != "" || r.ShPrn != "PRN" || len(r.OtherManager) != 0 || r.VotingSole != 5 {
		t.Errorf("row 1: %+v", r)
	}
}

// TestArchiveErrors plants each fault and checks the error names the
// window, the table and the line.
func TestArchiveErrors(t *testing.T) {
	tests := []struct {
		name   string
		change func(m map[string]string)
		want   string
	}{
		{"missing table", func(m map[string]string) { delete(m, "01JUN2025-31AUG2025_form13f/COVERPAGE.tsv") }, "window w, table COVERPAGE: table missing"},
		{"unknown header", func(m map[string]string) {
			k := "01JUN2025-31AUG2025_form13f/SUBMISSION.tsv"
			m[k] = strings.Replace(m[k], "CIK", "CIK_NUMBER", 1)
		}, "window w, table SUBMISSION, line 1: unknown header"},
		{"field count", func(m map[string]string) {
			k := "01JUN2025-31AUG2025_form13f/SUBMISSION.tsv"
			m[k] += "0000950123-25-000001\t14-AUG-2025\t13F-HR\n"
		}, "window w, table SUBMISSION, line 4: 3 fields, want 5"},
		{"bad date", func(m map[string]string) {
			k := "01JUN2025-31AUG2025_form13f/SUBMISSION.tsv"
			m[k] = strings.Replace(m[k], "14-AUG-2025", "2025-08-14", 1)
		}, "window w, table SUBMISSION, line 2: malformed FILING_DATE"},
		{"orphan cover", func(m map[string]string) {
			k := "01JUN2025-31AUG2025_form13f/COVERPAGE.tsv"
			m[k] = strings.Replace(m[k], "0000950123-25-008374", "0000950123-25-009999", 1)
		}, "window w, table COVERPAGE, line 3: cover page of accession"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := minimal()
			tt.change(m)
			z := zipOf(t, m)
			a, err := Open(bytes.NewReader(z), int64(len(z)), "w")
			if err == nil {
				_, err = a.Filings()
			}
			var e *Error
			if !errors.As(err, &e) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
		})
	}
	z := zipOf(t, minimal())
	if _, err := Open(bytes.NewReader(z[:len(z)/2]), int64(len(z)/2), "w"); err == nil || !strings.Contains(err.Error(), "window w: corrupt or truncated zip") {
		t.Errorf("truncated zip: %v", err)
	}
	// A flipped byte inside a compressed member fails its CRC or inflation.
	bad := bytes.Clone(z)
	i := bytes.Index(bad, []byte("SUBMISSION.tsv")) + 40
	bad[i] ^= 0xff
	a, err := Open(bytes.NewReader(bad), int64(len(bad)), "w")
	if err == nil {
		_, err = a.Filings()
	}
	if err == nil {
		t.Error("corrupt member accepted")
	}
}

func TestParseNumber(t *testing.T) {
	for s, want := range map[string]int64{"0": 0, "10.5": 11, "10.49": 10, " 42 ": 42, "9223372036854775807": 9223372036854775807} {
		if got, ok := parseNumber([]byte(s)); !ok || got != want {
			t.Errorf("%q: %d %v", s, got, ok)
		}
	}
	for _, s := range []string{"", "-1", "1,000", "1.", ".5", "9223372036854775808", "x"} {
		if _, ok := parseNumber([]byte(s)); ok {
			t.Errorf("%q accepted", s)
		}
	}
}
