package companies_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/companies"
	"github.com/edgar13f/edgar13f/internal/edgartest"
	"github.com/edgar13f/edgar13f/mirror"
)

// TestCompanySections: every Item of Apple's 10-K for fiscal 2024, whole,
// in document order, with the filing's citation facts; each Item's text is
// what Section gives for it.
func TestCompanySections(t *testing.T) {
	c, f := edgartest.MirrorClient(t)
	cs := companies.New(c)
	ctx := context.Background()
	ss, err := cs.Sections(ctx, appleCIK, strings.ReplaceAll(apple10K2024, "-", ""), date("2024-11-01"))
	if err != nil {
		t.Fatal(err)
	}
	want := companies.Filing{
		Accession: apple10K2024, Form: "10-K", FilingDate: date("2024-11-01"), Period: date("2024-09-28"),
		PrimaryDocument: "aapl-20240928.htm",
		DocumentURL:     "https://www.sec.gov/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm",
		IndexURL:        "https://www.sec.gov/Archives/edgar/data/320193/000032019324000123/0000320193-24-000123-index.htm",
	}
	if ss.CIK != appleCIK || ss.Filing != want {
		t.Errorf("Sections: CIK %s, filing %+v; want %s, %+v", ss.CIK, ss.Filing, appleCIK, want)
	}
	var items []string
	for _, it := range ss.Items {
		items = append(items, it.Item)
	}
	if got := strings.Join(items, " "); got != "1 1A 1B 1C 2 3 4 5 6 7 7A 8 9 9A 9B 9C 10 11 12 13 14 15 16" {
		t.Errorf("Items %s", got)
	}
	if urls := f.Take(); len(urls) != 2 {
		t.Errorf("Sections fetched %v; want the filing list and the document", urls)
	}
	total := 0
	for _, it := range ss.Items {
		s, err := cs.Section(ctx, appleCIK, apple10K2024, it.Item, date("2024-11-01"), companies.MaxChars(companies.MaxSectionChars))
		if err != nil {
			t.Fatalf("Section(%s): %v", it.Item, err)
		}
		if s.Truncated || it.Text != s.Text || it.Title != s.Title || it.Chars != s.Chars || it.Chars != utf8.RuneCountInString(it.Text) {
			t.Errorf("Item %s: Sections gives %d chars titled %q, Section %d (truncated %v) titled %q", it.Item, it.Chars, it.Title, s.Chars, s.Truncated, s.Title)
		}
		total += it.Chars
	}
	// Whole texts, not cut to Section's default limit: Item 1A alone has
	// more than 60,000 characters.
	if ss.Items[1].Chars < 60000 || total < 150000 {
		t.Errorf("Item 1A has %d chars, all Items %d: texts were cut", ss.Items[1].Chars, total)
	}
	if urls := f.Take(); len(urls) != 0 {
		t.Errorf("Section after Sections fetched %v; the document is cached", urls)
	}
}

// TestCompanySectionsDeclines: the declines of Sections, the same as
// Section's; a filing made after asOf declines not_yet_filed telling
// nothing of it, and its document is not read.
func TestCompanySectionsDeclines(t *testing.T) {
	c, f := edgartest.MirrorClient(t)
	cs := companies.New(c)
	ctx := context.Background()
	for _, tc := range []struct {
		cik, acc, asOf string
		want           edgar13f.Reason
	}{
		{"x", apple10K2024, "2025-01-01", edgar13f.InvalidArgument},
		{appleCIK, "0000320193-24-00012", "2025-01-01", edgar13f.InvalidArgument},
		{appleCIK, apple10K2024, "", edgar13f.InvalidArgument},
		{"1234567", apple10K2024, "2025-01-01", edgar13f.UnknownCIK},
		{appleCIK, apple10K2024, "2024-10-31", edgar13f.NotYetFiled},
		{appleCIK, "0000320193-99-000001", "2025-01-01", edgar13f.NotYetFiled},     // not in the list
		{appleCIK, nvidia10K, "2025-03-01", edgar13f.NotYetFiled},                  // another filer's
		{appleCIK, "0000320193-24-000120", "2025-01-01", edgar13f.SectionNotFound}, // an 8-K
	} {
		var asOf edgar13f.Date
		if tc.asOf != "" {
			asOf = date(tc.asOf)
		}
		ss, err := cs.Sections(ctx, tc.cik, tc.acc, asOf)
		if edgartest.Reason(err) != tc.want || ss != nil {
			t.Errorf("Sections(%q, %q, %q) = %v, %v; want %s", tc.cik, tc.acc, tc.asOf, ss, err, tc.want)
		}
	}
	f.Take()
	_, err := cs.Sections(ctx, appleCIK, apple10K2024, date("2024-10-31"))
	for _, leak := range []string{"2024-11-01", "2024-09-28", "10-K", "Risk", "aapl-20240928", "Apple"} {
		if strings.Contains(err.Error(), leak) {
			t.Errorf("not_yet_filed decline %q tells %q of the filing", err, leak)
		}
	}
	_, err2 := cs.Sections(ctx, appleCIK, "0000320193-24-999999", date("2024-10-31"))
	if got, want := err.Error(), strings.ReplaceAll(err2.Error(), "0000320193-24-999999", apple10K2024); got != want {
		t.Errorf("a future filing declines as %q, a missing one as %q: they must read alike", got, err2)
	}
	for _, u := range f.Take() {
		if strings.Contains(u, "Archives") {
			t.Errorf("a not-yet-filed filing's sections read %s", u)
		}
	}
}

// overlayClient returns a Client reading the mirror, with one filing list
// and one primary document served from memory.
func overlayClient(t *testing.T, cik, list, docURL string, doc []byte) *edgar13f.Client {
	t.Helper()
	c, err := edgar13f.NewClient(edgar13f.WithCache(nil), edgar13f.WithFetcher(overlayFetcher{
		next: mirror.NewFetcher(edgartest.MirrorFS(t)),
		files: map[string][]byte{
			"https://data.sec.gov/submissions/CIK" + strings.Repeat("0", 10-len(cik)) + cik + ".json": []byte(list),
			docURL: doc,
		},
	}))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCompanySectionsJNJ: Johnson & Johnson's real 10-K for fiscal 2024,
// served as the primary document of a synthetic filing list (the
// accession is invented), puts "Item 6. Reserved" right before "Item 7.
// Management’s discussion and analysis of results of operations and
// financial condition": Item 7 holds the MD&A and Item 6 only its heading.
func TestCompanySectionsJNJ(t *testing.T) {
	doc := gunzipFile(t, "../testdata/documents/jnj-10-k-2025-02-13.htm.gz")
	const acc = "0000200406-25-900001"
	list := `{"cik":"200406","name":"JOHNSON & JOHNSON","filings":{"recent":{"accessionNumber":["` + acc + `"],"filingDate":["2025-02-13"],"reportDate":["2024-12-29"],"acceptanceDateTime":[""],"form":["10-K"],"primaryDocument":["jnj-20241229.htm"],"size":[1]},"files":[]}}`
	c := overlayClient(t, "200406", list, "https://www.sec.gov/Archives/edgar/data/200406/000020040625900001/jnj-20241229.htm", doc)
	ctx := context.Background()
	ss, err := companies.New(c).Sections(ctx, "200406", acc, date("2025-02-13"))
	if err != nil {
		t.Fatal(err)
	}
	byItem := map[string]companies.ItemSection{}
	var items []string
	for _, it := range ss.Items {
		byItem[it.Item] = it
		items = append(items, it.Item)
	}
	if got := strings.Join(items, " "); got != "1 1A 1B 1C 2 3 4 5 6 7 7A 8 9 9A 9B 9C 10 11 12 13 14 15 16" {
		t.Errorf("Items %s", got)
	}
	if it := byItem["6"]; it.Text != "Item 6. Reserved" {
		t.Errorf("Item 6 = %.200q", it.Text)
	}
	if it := byItem["7"]; !strings.HasPrefix(it.Text, "Item 7. Management’s discussion and analysis of results of operations and financial condition\nOrganization and business segments") ||
		it.Chars < 50000 || !strings.Contains(it.Text, "Liquidity and capital resources") {
		t.Errorf("Item 7: %d chars, %.200q", it.Chars, it.Text)
	}
	s, err := companies.New(c).Section(ctx, "200406", acc, "7", date("2025-02-13"), companies.MaxChars(200))
	if err != nil || !strings.HasPrefix(s.Text, "Item 7. Management’s discussion") || s.Title != "Management’s discussion and analysis of results of operations and financial condition" {
		t.Errorf("Section(7) = %+v, %v", s, err)
	}
	if _, err := companies.New(c).Sections(ctx, "200406", acc, date("2025-02-12")); edgartest.Reason(err) != edgar13f.NotYetFiled {
		t.Errorf("Sections the day before filing: %v; want not_yet_filed", err)
	}
}

// TestCompanySectionsCrossReference: a 10-K without Item headings (GE's
// cross-reference index) declines section_not_found saying why, rather
// than answering with no Items.
func TestCompanySectionsCrossReference(t *testing.T) {
	ge, err := os.ReadFile("../testdata/documents/ge-10k-cross-reference-fragment.html")
	if err != nil {
		t.Fatal(err)
	}
	list := `{"cik":"40545","name":"GENERAL ELECTRIC CO","filings":{"recent":{"accessionNumber":["0000040545-24-000010"],"filingDate":["2024-02-02"],"reportDate":["2023-12-31"],"acceptanceDateTime":[""],"form":["10-K"],"primaryDocument":["ge-20231231.htm"],"size":[1]},"files":[]}}`
	c := overlayClient(t, "40545", list, "https://www.sec.gov/Archives/edgar/data/40545/000004054524000010/ge-20231231.htm", ge)
	ss, err := companies.New(c).Sections(context.Background(), "40545", "0000040545-24-000010", date("2024-03-01"))
	if !errors.Is(err, edgar13f.SectionNotFound) || !strings.Contains(err.Error(), "cross-reference index") || ss != nil {
		t.Errorf("GE: %v, %v; want section_not_found naming the cross-reference index", ss, err)
	}
}

// withoutFiles is a mirror tree in which the files named in hide are
// missing.
type withoutFiles struct {
	fsys fs.FS
	hide map[string]bool
}

func (w withoutFiles) Open(name string) (fs.File, error) {
	if w.hide[name] {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return w.fsys.Open(name)
}

// TestSectionBeforeFilingWithoutOlderPage: Apple's real filing list (its
// recent rows, as the mirror holds them) lists the 10-K 0000320193-24-000123
// with filing date 2024-11-01. Asked on 2024-10-31, Section and Sections
// decline not_yet_filed from that row alone: the older page of the list
// (absent here, as on a mirror holding only the submissions JSON) cannot
// hold the filing and is not read. The decline reads like that of an
// accession no page lists, and tells nothing of the filing.
func TestSectionBeforeFilingWithoutOlderPage(t *testing.T) {
	const page = "data.sec.gov/submissions/CIK0000320193-submissions-001.json"
	f := &edgartest.CountingFetcher{Next: mirror.NewFetcher(withoutFiles{edgartest.MirrorFS(t), map[string]bool{page: true}})}
	c, err := edgar13f.NewClient(edgar13f.WithCache(nil), edgar13f.WithFetcher(f))
	if err != nil {
		t.Fatal(err)
	}
	cs := companies.New(c)
	ctx := context.Background()
	asOf := date("2024-10-31")
	_, errOne := cs.Section(ctx, appleCIK, apple10K2024, "1A", asOf)
	_, errAll := cs.Sections(ctx, appleCIK, apple10K2024, asOf)
	for name, err := range map[string]error{"Section": errOne, "Sections": errAll} {
		if !errors.Is(err, edgar13f.NotYetFiled) {
			t.Errorf("%s(%s, 1A, %s) = %v; want not_yet_filed", name, apple10K2024, asOf, err)
			continue
		}
		for _, leak := range []string{"2024-11-01", "2024-09-28", "10-K", "aapl-20240928", "Apple", "submissions-001"} {
			if strings.Contains(err.Error(), leak) {
				t.Errorf("%s: not_yet_filed decline %q tells %q", name, err, leak)
			}
		}
	}
	for _, u := range f.Take() {
		if strings.Contains(u, "submissions-001") || strings.Contains(u, "Archives") {
			t.Errorf("a filing the recent list dates after asOf read %s", u)
		}
	}
	// The same question on the full mirror declines alike.
	full, _ := edgartest.MirrorClient(t)
	_, errFull := companies.New(full).Section(ctx, appleCIK, apple10K2024, "1A", asOf)
	if errOne == nil || errFull == nil || errOne.Error() != errFull.Error() {
		t.Errorf("without the older page: %v; with it: %v; want the same decline", errOne, errFull)
	}
}

// TestSectionItemNames: Section reads every name of the shared table of
// Item names (edgartest.ItemNames) as the filing search's Item filter
// does: on Apple's 10-K of 2024 and its 10-Q of 2025-08-01 (the real
// document, served as the primary document of a synthetic filing list),
// the Item the table gives, or invalid_argument where it gives none.
func TestSectionItemNames(t *testing.T) {
	doc := gunzipFile(t, "../testdata/documents/aapl-10-q-2025-08-01.htm.gz")
	const tenQ = "0000320193-25-900001"
	list := `{"cik":"320193","name":"Apple Inc.","filings":{"recent":{"accessionNumber":["` + tenQ + `","` + apple10K2024 + `"],"filingDate":["2025-08-01","2024-11-01"],"reportDate":["2025-06-28","2024-09-28"],"acceptanceDateTime":["",""],"form":["10-Q","10-K"],"primaryDocument":["aapl-20250628.htm","aapl-20240928.htm"],"size":[1,1]},"files":[]}}`
	c := overlayClient(t, appleCIK, list, "https://www.sec.gov/Archives/edgar/data/320193/000032019325900001/aapl-20250628.htm", doc)
	ctx := context.Background()
	for _, tc := range edgartest.ItemNames {
		for _, f := range []struct{ form, acc, want string }{{"10-K", apple10K2024, tc.TenK}, {"10-Q", tenQ, tc.TenQ}} {
			s, err := companies.New(c).Section(ctx, appleCIK, f.acc, tc.Name, date("2025-08-01"), companies.MaxChars(100))
			switch {
			case f.want == "":
				if !errors.Is(err, edgar13f.InvalidArgument) {
					t.Errorf("Section(%s, %q) = %+v, %v; want invalid_argument", f.form, tc.Name, s, err)
				}
			case err != nil || s.Item != f.want || s.Filing.Form != edgar13f.Form(f.form):
				t.Errorf("Section(%s, %q) = %+v, %v; want Item %s", f.form, tc.Name, s, err, f.want)
			}
		}
	}
}

// gunzipFile returns the decompressed content of the gzip file at path.
func gunzipFile(t *testing.T, path string) []byte {
	t.Helper()
	gz, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	z, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}
