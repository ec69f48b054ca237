package submissions

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f/internal/edgarid"
	"github.com/edgar13f/edgar13f/internal/edgartest/edgarfiles"
	"github.com/google/go-cmp/cmp"
)

var mirror = edgarfiles.Mirror + "/data.sec.gov/submissions"

var (
	buffettFile = filepath.Join(mirror, "CIK0000315090.json")
	carboFile   = filepath.Join(mirror, "CIK0001009672.json")
	carboPage1  = filepath.Join(mirror, "CIK0001009672-submissions-001.json")
	siemensFile = filepath.Join("testdata", "CIK0000940418-siemens-ag.json")
)

func read(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func decodeFile(t *testing.T, name string) *List {
	t.Helper()
	l, err := Decode(read(t, name))
	if err != nil {
		t.Fatalf("Decode(%s): %v", name, err)
	}
	return l
}

func count13F(fs []Filing) map[string]int {
	m := map[string]int{}
	for _, f := range fs {
		if edgarid.Is13F(f.Form) {
			m[f.Form]++
		}
	}
	return m
}

func TestDecodeReal(t *testing.T) {
	tests := []struct {
		file      string
		cik, name string
		fye       string
		n         int
		pages     []Page
		forms     map[string]int
		entries   map[int]Filing
	}{
		{
			file: buffettFile, cik: "0000315090", name: "BUFFETT WARREN E", fye: "", n: 523, // fiscalYearEnd null
			forms: map[string]int{"13F-NT": 75, "13F-HR": 18, "13F-HR/A": 1},
			entries: map[int]Filing{
				0:   {"0001193125-26-054947", "4", "2026-02-17", "2026-01-06", "2026-02-17T21:49:25.000Z", "xslF345X05/ownership.xml", 23493},
				124: {"0000950123-23-002648", "13F-NT", "2023-02-14", "2022-12-31", "2023-02-14T21:06:39.000Z", "xslForm13F_X02/primary_doc.xml", 2875},
				463: {"0000950129-04-007824", "13F-HR/A", "2004-10-15", "2004-06-30", "2004-10-15T20:58:17.000Z", "a02420a1e13fvhrza.txt", 8938},
				475: {"0000950150-03-001326", "13F-HR", "2003-11-13", "2003-09-30", "2003-11-12T23:53:03.000Z", "a94337wbe13fvhr.txt", 4899},
			},
		},
		{
			file: carboFile, cik: "0001009672", name: "CARBO CERAMICS INC", fye: "1231", n: 1000,
			pages: []Page{{"CIK0001009672-submissions-001.json", 205, "1996-06-03", "2003-12-08"}},
			forms: map[string]int{},
			entries: map[int]Filing{
				0:   {"0001193125-20-329449", "15-12B", "2020-12-30", "", "2020-12-30T12:25:58.000Z", "d86171d1512b.htm", 11711},
				999: {"0001135080-03-000119", "4", "2003-12-09", "2003-12-08", "2003-12-09T14:50:26.000Z", "xslF345X02/primary_doc.xml", 5832},
			},
		},
		{
			file: siemensFile, cik: "0000940418", name: "SIEMENS AG", fye: "1231", n: 31,
			forms: map[string]int{"13F-HR": 16},
			entries: map[int]Filing{
				0:  {"0001193125-25-281447", "13F-HR", "2025-11-14", "2025-09-30", "2025-11-14T06:52:19.000Z", "xslForm13F_X02/primary_doc.xml", 4408},
				22: {"0000950123-23-002727", "13F-HR", "2023-02-14", "2022-12-31", "2023-02-15T08:15:38.000Z", "xslForm13F_X02/primary_doc.xml", 4601},
			},
		},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.file), func(t *testing.T) {
			l := decodeFile(t, tt.file)
			if l.CIK != tt.cik || l.Name != tt.name || l.FiscalYearEnd != tt.fye || len(l.Recent) != tt.n {
				t.Errorf("got CIK %q name %q fiscal year end %q %d recent, want %q %q %q %d", l.CIK, l.Name, l.FiscalYearEnd, len(l.Recent), tt.cik, tt.name, tt.fye, tt.n)
			}
			if diff := cmp.Diff(tt.pages, l.Pages); diff != "" {
				t.Errorf("Pages (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.forms, count13F(l.Recent)); diff != "" {
				t.Errorf("13F form counts (-want +got):\n%s", diff)
			}
			for i, want := range tt.entries {
				if diff := cmp.Diff(want, l.Recent[i]); diff != "" {
					t.Errorf("Recent[%d] (-want +got):\n%s", i, diff)
				}
			}
		})
	}
}

// TestBuffettPrimaryDocuments checks the primary documents of Buffett's 13F
// filings: text until the XML era began in mid-2013, then the X01 rendering
// until 2022 and X02 from 2023.
func TestBuffettPrimaryDocuments(t *testing.T) {
	l := decodeFile(t, buffettFile)
	got := map[string]int{}
	for _, f := range l.Recent {
		if !edgarid.Is13F(f.Form) {
			continue
		}
		var want string
		switch {
		case f.Form != "13F-NT":
			want = ".txt"
		case f.FilingDate < "2013-06-01":
			want = ".txt"
		case f.FilingDate < "2023-01-01":
			want = "xslForm13F_X01/primary_doc.xml"
		default:
			want = "xslForm13F_X02/primary_doc.xml"
		}
		kind := f.PrimaryDocument
		if strings.HasSuffix(kind, ".txt") {
			kind = ".txt"
		}
		if kind != want {
			t.Errorf("%s %s filed %s: primaryDocument %q, want %q", f.Accession, f.Form, f.FilingDate, f.PrimaryDocument, want)
		}
		name, ok := RawCoverName(f.PrimaryDocument)
		wantName, wantOK := "primary_doc.xml", true
		if kind == ".txt" {
			wantName, wantOK = "", false
		}
		if name != wantName || ok != wantOK {
			t.Errorf("RawCoverName(%q) = %q, %v; want %q, %v", f.PrimaryDocument, name, ok, wantName, wantOK)
		}
		got[f.Form+" "+kind]++
	}
	want := map[string]int{
		"13F-HR .txt":                           18,
		"13F-HR/A .txt":                         1,
		"13F-NT .txt":                           24,
		"13F-NT xslForm13F_X01/primary_doc.xml": 38,
		"13F-NT xslForm13F_X02/primary_doc.xml": 13,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("primary document kinds (-want +got):\n%s", diff)
	}
}

// TestAcceptanceAfterFilingDate pins a real 13F-NT whose UTC acceptance time
// falls on the day after its filing date. Both are reported as given;
// visibility uses FilingDate only (2011-02-14 here, not 2011-02-15).
func TestAcceptanceAfterFilingDate(t *testing.T) {
	l := decodeFile(t, buffettFile)
	var got []Filing
	for _, f := range l.Recent {
		if edgarid.Is13F(f.Form) && f.AcceptanceDateTime[:10] > f.FilingDate {
			got = append(got, f)
		}
	}
	want := []Filing{{
		Accession:          "0000950123-11-013666",
		Form:               "13F-NT",
		FilingDate:         "2011-02-14",
		ReportDate:         "2010-12-31",
		AcceptanceDateTime: "2011-02-15T00:27:45.000Z",
		PrimaryDocument:    "v58511se13fvnt.txt",
		Size:               3556,
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("13F filings accepted (UTC) after their filing date (-want +got):\n%s", diff)
	}
}

func TestDecodePage(t *testing.T) {
	fs, err := DecodePage(read(t, carboPage1))
	if err != nil {
		t.Fatal(err)
	}
	l := decodeFile(t, carboFile)
	p := l.Pages[0]
	if len(fs) != p.FilingCount || len(fs) != 205 {
		t.Fatalf("got %d filings, want 205 (page entry says %d)", len(fs), p.FilingCount)
	}
	lo, hi := fs[0].FilingDate, fs[0].FilingDate
	for _, f := range fs {
		lo, hi = min(lo, f.FilingDate), max(hi, f.FilingDate)
	}
	if lo != p.FilingFrom || hi != p.FilingTo {
		t.Errorf("filing dates span %s..%s, page entry says %s..%s", lo, hi, p.FilingFrom, p.FilingTo)
	}
	want := map[int]Filing{
		0:   {"0001135080-03-000118", "4", "2003-12-08", "2003-12-05", "2003-12-08T11:29:36.000Z", "xslF345X02/primary_doc.xml", 5831},
		204: {"0000930661-96-000556", "10-Q", "1996-06-03", "1996-03-31", "1996-06-03T00:00:00.000Z", "", 31274},
	}
	for i, w := range want {
		if diff := cmp.Diff(w, fs[i]); diff != "" {
			t.Errorf("filing %d (-want +got):\n%s", i, diff)
		}
	}
	// A main document is not a page: it has no top-level columns.
	if _, err := DecodePage(read(t, carboFile)); err == nil {
		t.Error("DecodePage(main document) succeeded, want error")
	}
}

const acc1, acc2 = "0000950123-23-011029", "0000950123-23-011030"

func TestDecodeSynthetic(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want *List
	}{
		{
			name: "numeric cik, optional columns missing",
			in:   `{"cik":315090,"name":"X","filings":{"recent":{"accessionNumber":["` + acc1 + `"],"form":["13F-HR"],"filingDate":["2023-11-14"]}}}`,
			want: &List{CIK: "315090", Name: "X", Recent: []Filing{{Accession: acc1, Form: "13F-HR", FilingDate: "2023-11-14"}}},
		},
		{
			name: "unpadded string cik, unknown fields, null optional column",
			in:   `{"cik":"315090","extra":{"a":[1]},"filings":{"recent":{"accessionNumber":["` + acc1 + `","` + acc2 + `"],"form":["13F-NT","13F-HR/A"],"filingDate":["2023-11-14","2023-11-15"],"reportDate":["2023-09-30",""],"primaryDocument":null,"size":[1,2]},"files":[]}}`,
			want: &List{CIK: "315090", Recent: []Filing{
				{Accession: acc1, Form: "13F-NT", FilingDate: "2023-11-14", ReportDate: "2023-09-30", Size: 1},
				{Accession: acc2, Form: "13F-HR/A", FilingDate: "2023-11-15", Size: 2},
			}},
		},
		{
			// size is only a hint: odd values and a column of the wrong
			// length are ignored rather than failing the list.
			name: "odd size column",
			in:   `{"cik":"1","filings":{"recent":{"accessionNumber":["` + acc1 + `","` + acc2 + `"],"form":["13F-NT","13F-HR"],"filingDate":["2023-11-14","2023-11-15"],"size":["12",-5]}}}`,
			want: &List{CIK: "1", Recent: []Filing{
				{Accession: acc1, Form: "13F-NT", FilingDate: "2023-11-14"},
				{Accession: acc2, Form: "13F-HR", FilingDate: "2023-11-15"},
			}},
		},
		{
			name: "size column of the wrong length",
			in:   `{"cik":"1","filings":{"recent":{"accessionNumber":["` + acc1 + `"],"form":["13F-NT"],"filingDate":["2023-11-14"],"size":[7,8]}}}`,
			want: &List{CIK: "1", Recent: []Filing{
				{Accession: acc1, Form: "13F-NT", FilingDate: "2023-11-14"},
			}},
		},
		{
			name: "fiscal year end kept when it is a month and day",
			in:   `{"cik":"1","fiscalYearEnd":"0229","filings":{"recent":{"accessionNumber":[],"form":[],"filingDate":[]}}}`,
			want: &List{CIK: "1", FiscalYearEnd: "0229", Recent: []Filing{}},
		},
		{
			name: "odd fiscal year end dropped",
			in:   `{"cik":"1","fiscalYearEnd":"1332","filings":{"recent":{"accessionNumber":[],"form":[],"filingDate":[]}}}`,
			want: &List{CIK: "1", Recent: []Filing{}},
		},
		{
			name: "empty list",
			in:   `{"cik":"0000000001","filings":{"recent":{"accessionNumber":[],"form":[],"filingDate":[]}}}`,
			want: &List{CIK: "0000000001", Recent: []Filing{}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Decode([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Decode (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	cols := func(acc, form, fd, rd string) string {
		return `"accessionNumber":[` + acc + `],"form":[` + form + `],"filingDate":[` + fd + `],"reportDate":[` + rd + `]`
	}
	doc := func(c string) string { return `{"cik":"1","filings":{"recent":{` + c + `}}}` }
	good := cols(`"`+acc1+`"`, `"13F-HR"`, `"2023-11-14"`, `"2023-09-30"`)
	buffett := string(read(t, buffettFile))
	tests := []struct {
		name string
		in   string
		page bool
		want string // the whole error message, or a prefix ending in "..."
	}{
		{name: "unequal arrays", in: doc(cols(`"`+acc1+`","`+acc2+`"`, `"13F-HR"`, `"2023-11-14","2023-11-14"`, `"",""`)),
			want: "submissions: column lengths differ: accessionNumber has 2 entries, form has 1"},
		{name: "unequal optional array", in: doc(cols(`"`+acc1+`"`, `"13F-HR"`, `"2023-11-14"`, `"",""`)),
			want: "submissions: column lengths differ: accessionNumber has 1 entries, reportDate has 2"},
		{name: "unequal page arrays", page: true, in: `{` + good + `,"primaryDocument":[]}`,
			want: "submissions: column lengths differ: accessionNumber has 1 entries, primaryDocument has 0"},
		{name: "missing filings", in: `{"cik":"0000315090","name":"X"}`,
			want: "submissions: document has no filings object"},
		{name: "null filings", in: `{"cik":"0000315090","filings":null}`,
			want: "submissions: document has no filings object"},
		{name: "missing recent", in: `{"cik":"0000315090","filings":{"files":[]}}`,
			want: "submissions: document has no filings.recent object"},
		{name: "missing form column", in: doc(`"accessionNumber":[],"filingDate":[]`),
			want: "submissions: required column form is missing"},
		{name: "missing accession column in page", page: true, in: `{"form":[],"filingDate":[]}`,
			want: "submissions: required column accessionNumber is missing"},
		{name: "bad filingDate", in: doc(cols(`"`+acc1+`"`, `"13F-HR"`, `"2023-11-4"`, `""`)),
			want: `submissions: entry 0 (0000950123-23-011029): filingDate "2023-11-4" is not YYYY-MM-DD`},
		{name: "impossible filingDate", in: doc(cols(`"`+acc1+`"`, `"13F-HR"`, `"2023-02-30"`, `""`)),
			want: `submissions: entry 0 (0000950123-23-011029): filingDate "2023-02-30" is not YYYY-MM-DD`},
		{name: "bad reportDate", in: doc(cols(`"`+acc1+`"`, `"13F-HR"`, `"2023-11-14"`, `"09/30/2023"`)),
			want: `submissions: entry 0 (0000950123-23-011029): reportDate "09/30/2023" is neither YYYY-MM-DD nor empty`},
		{name: "undashed accession", in: doc(cols(`"000095012323011029"`, `"13F-HR"`, `"2023-11-14"`, `""`)),
			want: `submissions: entry 0: accessionNumber "000095012323011029" is not of the form 0000000000-00-000000`},
		{name: "bad page entry", in: `{"filings":{"recent":{` + good + `},"files":[{"name":"p.json","filingCount":1,"filingFrom":"1996","filingTo":"2003-12-08"}]}}`,
			want: `submissions: filings.files[0] (p.json): filingFrom "1996" or filingTo "2003-12-08" is not YYYY-MM-DD`},
		{name: "fractional cik", in: `{"cik":1.5,"filings":{"recent":{` + good + `}}}`,
			want: "submissions: decoding document: cik 1.5 is neither a string nor a non-negative integer"},
		{name: "column of numbers", in: doc(`"accessionNumber":[1],"form":[],"filingDate":[]`),
			want: "submissions: decoding document: ..."},
		{name: "html", in: "<!DOCTYPE html>\n<html><body>Request Rate Threshold Exceeded</body></html>",
			want: "submissions: input is HTML or XML, not JSON"},
		{name: "html page", page: true, in: "  <html></html>",
			want: "submissions: input is HTML or XML, not JSON"},
		{name: "empty", in: " \n", want: "submissions: empty input"},
		{name: "array", in: `[{"filings":{}}]`, want: "submissions: input is not a JSON object"},
		{name: "null page", page: true, in: `null`, want: "submissions: input is not a JSON object"},
		{name: "truncated", in: buffett[:len(buffett)/2], want: "submissions: decoding document: unexpected end of JSON input"},
		{name: "truncated page", page: true, in: `{"accessionNumber":["` + acc1, want: "submissions: decoding page: unexpected end of JSON input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.page {
				_, err = DecodePage([]byte(tt.in))
			} else {
				_, err = Decode([]byte(tt.in))
			}
			if err == nil {
				t.Fatalf("got no error, want %q", tt.want)
			}
			got := err.Error()
			if prefix, ok := strings.CutSuffix(tt.want, "..."); ok && strings.HasPrefix(got, prefix) {
				return
			}
			if got != tt.want {
				t.Errorf("error = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestIs13F(t *testing.T) {
	tests := map[string]bool{
		"13F-HR": true, "13F-HR/A": true, "13F-NT": true, "13F-NT/A": true,
		"13F-E": false, "13F-HR/A ": false, "13f-hr": false, "13F": false, "4": false, "": false,
	}
	for form, want := range tests {
		if got := edgarid.Is13F(form); got != want {
			t.Errorf("Is13F(%q) = %v, want %v", form, got, want)
		}
	}
}

func TestRawCoverName(t *testing.T) {
	type result struct {
		Name string
		OK   bool
	}
	tests := map[string]result{
		"xslForm13F_X02/primary_doc.xml": {"primary_doc.xml", true},
		"xslForm13F_X01/primary_doc.xml": {"primary_doc.xml", true},
		"primary_doc.xml":                {"primary_doc.xml", true},
		"a94337wbe13fvhr.txt":            {"", false},
		"d86171d1512b.htm":               {"", false},
		"":                               {"", false},
		"xslForm13F_X02/":                {"", false},
		".xml":                           {"", false},
	}
	for in, want := range tests {
		var got result
		got.Name, got.OK = RawCoverName(in)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("RawCoverName(%q) (-want +got):\n%s", in, diff)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, name := range []string{buffettFile, carboFile, carboPage1, siemensFile} {
		f.Add(read(f, name))
	}
	f.Add([]byte(`{"cik":1,"filings":{"recent":{"accessionNumber":["` + acc1 + `"],"form":["13F-HR"],"filingDate":["2023-11-14"]},"files":[{"name":"x","filingCount":1,"filingFrom":"2000-01-01","filingTo":"2000-01-02"}]}}`))
	f.Add([]byte(`<html></html>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var fs []Filing
		if l, err := Decode(data); err == nil {
			fs = l.Recent
		}
		if p, err := DecodePage(data); err == nil {
			fs = append(fs, p...)
		}
		for _, x := range fs {
			if !edgarid.IsAccession(x.Accession) || !isDate(x.FilingDate) || (x.ReportDate != "" && !isDate(x.ReportDate)) {
				t.Errorf("accepted invalid filing %+v", x)
			}
		}
	})
}
