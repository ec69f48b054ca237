package eval

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/edgartest/edgarfiles"
	"github.com/edgar13f/edgar13f/mirror"
	"github.com/edgar13f/edgar13f/search"
	"github.com/edgar13f/edgar13f/search/store/embedded"
)

// corpusFiling is one report of the evaluation corpus: a real primary
// document from the repository's testdata and the facts of its filing as
// EDGAR lists them (accession, dates, primary document name).
type corpusFiling struct {
	ticker, cik, company, fye string
	form, accession           string
	filed, report             string
	primary                   string // the primary document's name on EDGAR
	file                      string // the document in the repository, under ../../testdata
}

// corpus is every 10-K and 10-Q primary document the repository holds:
// ten reports of five companies (the reference system indexed eight).
var corpus = []corpusFiling{
	{"AAPL", "320193", "Apple Inc.", "0928", "10-K", "0000320193-24-000123", "2024-11-01", "2024-09-28", "aapl-20240928.htm", "mirror/www.sec.gov/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm"},
	{"AAPL", "320193", "Apple Inc.", "0928", "10-Q", "0000320193-25-000073", "2025-08-01", "2025-06-28", "aapl-20250628.htm", "documents/aapl-10-q-2025-08-01.htm.gz"},
	{"NVDA", "1045810", "NVIDIA CORP", "0126", "10-K", "0001045810-25-000023", "2025-02-26", "2025-01-26", "nvda-20250126.htm", "mirror/www.sec.gov/Archives/edgar/data/1045810/000104581025000023/nvda-20250126.htm"},
	{"NVDA", "1045810", "NVIDIA CORP", "0126", "10-Q", "0001045810-25-000209", "2025-08-27", "2025-07-27", "nvda-20250727.htm", "documents/nvda-10-q-2025-08-27.htm.gz"},
	{"TSLA", "1318605", "Tesla, Inc.", "1231", "10-K", "0001628280-25-003063", "2025-01-30", "2024-12-31", "tsla-20241231.htm", "documents/tsla-10-k-2025-01-30.htm.gz"},
	{"TSLA", "1318605", "Tesla, Inc.", "1231", "10-K/A", "0001104659-25-042659", "2025-04-30", "2024-12-31", "tm252787d2_10ka.htm", "documents/tsla-10-k-2025-04-30.htm.gz"},
	{"TSLA", "1318605", "Tesla, Inc.", "1231", "10-Q", "0001628280-25-035806", "2025-07-24", "2025-06-30", "tsla-20250630.htm", "documents/tsla-10-q-2025-07-24.htm.gz"},
	{"JNJ", "200406", "JOHNSON & JOHNSON", "1228", "10-K", "0000200406-25-000038", "2025-02-13", "2024-12-29", "jnj-20241229.htm", "documents/jnj-10-k-2025-02-13.htm.gz"},
	{"JNJ", "200406", "JOHNSON & JOHNSON", "1228", "10-Q", "0000200406-25-000178", "2025-07-24", "2025-06-29", "jnj-20250629.htm", "documents/jnj-10-q-2025-07-24.htm.gz"},
	{"WMT", "104169", "Walmart Inc.", "0131", "10-K", "0000104169-25-000021", "2025-03-14", "2025-01-31", "wmt-20250131.htm", "documents/wmt-10-k-2025-03-14.htm.gz"},
}

// corpusAsOf is a day after every filing of the corpus.
var corpusAsOf = edgar13f.MustParseDate("2025-09-01")

var evalTable = flag.Bool("evaltable", false, "print the evaluation table of TestReferenceQueriesOnCorpus")

// corpusMirror returns an EDGAR mirror tree holding the corpus: EDGAR's
// ticker list from the repository's mirror, a filing list per company
// naming the corpus filings (built here from the table above; the
// documents are real) and the primary documents.
func corpusMirror(t testing.TB) fstest.MapFS {
	t.Helper()
	testdata := edgarfiles.Testdata + "/"
	tickers, err := os.ReadFile(testdata + "mirror/www.sec.gov/files/company_tickers.json")
	if err != nil {
		t.Fatal(err)
	}
	m := fstest.MapFS{"www.sec.gov/files/company_tickers.json": {Data: tickers}}
	type columns struct {
		AccessionNumber, FilingDate, ReportDate, AcceptanceDateTime, Form, PrimaryDocument []string
	}
	lists := map[string]*columns{}
	var order []corpusFiling
	for _, f := range corpus {
		doc, err := os.ReadFile(testdata + f.file)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(f.file, ".gz") {
			zr, err := gzip.NewReader(bytes.NewReader(doc))
			if err != nil {
				t.Fatal(err)
			}
			if doc, err = io.ReadAll(zr); err != nil {
				t.Fatal(err)
			}
		}
		folder := strings.ReplaceAll(f.accession, "-", "")
		m[path.Join("www.sec.gov/Archives/edgar/data", f.cik, folder, f.primary)] = &fstest.MapFile{Data: doc}
		c := lists[f.cik]
		if c == nil {
			c = &columns{}
			lists[f.cik] = c
			order = append(order, f)
		}
		c.AccessionNumber = append(c.AccessionNumber, f.accession)
		c.FilingDate = append(c.FilingDate, f.filed)
		c.ReportDate = append(c.ReportDate, f.report)
		c.AcceptanceDateTime = append(c.AcceptanceDateTime, f.filed+"T16:05:00.000Z")
		c.Form = append(c.Form, f.form)
		c.PrimaryDocument = append(c.PrimaryDocument, f.primary)
	}
	for _, f := range order {
		c := lists[f.cik]
		list := map[string]any{
			"cik": f.cik, "name": f.company, "tickers": []string{f.ticker}, "fiscalYearEnd": f.fye,
			"filings": map[string]any{
				"recent": map[string]any{
					"accessionNumber": c.AccessionNumber, "filingDate": c.FilingDate, "reportDate": c.ReportDate,
					"acceptanceDateTime": c.AcceptanceDateTime, "form": c.Form, "primaryDocument": c.PrimaryDocument,
				},
				"files": []any{},
			},
		}
		data, err := json.Marshal(list)
		if err != nil {
			t.Fatal(err)
		}
		m["data.sec.gov/submissions/CIK"+strings.Repeat("0", 10-len(f.cik))+f.cik+".json"] = &fstest.MapFile{Data: data}
	}
	return m
}

// indexCorpus indexes the corpus into a new embedded store (BM25 only: no
// embedding model can run here) and returns the Engine.
func indexCorpus(t testing.TB) *search.Engine {
	t.Helper()
	ctx := context.Background()
	c, err := edgar13f.NewClient(edgar13f.WithFetcher(mirror.NewFetcher(corpusMirror(t))), edgar13f.WithCache(nil),
		edgar13f.WithClock(fixedClock(time.Date(2025, 9, 1, 12, 0, 0, 0, time.UTC))))
	if err != nil {
		t.Fatal(err)
	}
	st, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e, err := search.New(c, st)
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Index(ctx, []string{"AAPL", "NVDA", "TSLA", "JNJ", "WMT"}, corpusAsOf, search.FormType("10-K"), search.FormType("10-K/A"), search.FormType("10-Q"))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Indexed) != len(corpus) {
		t.Fatalf("indexed %d filings; want the %d of the corpus: %+v", len(res.Indexed), len(corpus), res.Indexed)
	}
	for _, x := range res.Indexed {
		if x.Skipped != "" || x.Chunks == 0 {
			t.Errorf("%s %s: skipped %q, %d chunks", x.Ticker, x.Form, x.Skipped, x.Chunks)
		}
	}
	t.Logf("corpus: %d filings, %d chunks", len(res.Indexed), res.ChunksTotal)
	return e
}

// TestReferenceQueriesOnCorpus runs the reference system's published query
// set by BM25 over every report of the corpus (ten filings of five
// companies, more than the reference's eight) and requires at least the
// reference's own BM25 figures, unfiltered and filtered to the label's
// ticker. Run with -v -evaltable to see the table.
func TestReferenceQueriesOnCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes ten reports")
	}
	qs := shippedQueries(t)
	e := indexCorpus(t)
	rep, err := Run(context.Background(), e, qs, corpusAsOf, []search.Mode{search.BM25})
	if err != nil {
		t.Fatal(err)
	}
	var table bytes.Buffer
	if err := WriteTable(&table, rep); err != nil {
		t.Fatal(err)
	}
	if *evalTable {
		t.Log("\n" + table.String())
		for _, r := range rep.Rows {
			for _, i := range r.Misses {
				t.Logf("%s %s: no relevant hit within 10 for %q (%s, Item %q, %q)", r.Setting(), r.Mode, qs[i].Q, qs[i].Ticker, qs[i].Item, qs[i].Must)
			}
		}
	}
	for _, r := range rep.Rows {
		ref := Reference[r.Setting()][r.Mode]
		if r.Queries != len(qs) {
			t.Errorf("%s %s: %d queries run; want %d", r.Setting(), r.Mode, r.Queries, len(qs))
		}
		if r.Hit1 < ref[0] || r.Hit5 < ref[1] || r.MRR10 < ref[2] {
			t.Errorf("%s %s: hit@1 %.3f, hit@5 %.3f, MRR@10 %.3f; the reference has %.3f / %.3f / %.3f\n%s",
				r.Setting(), r.Mode, r.Hit1, r.Hit5, r.MRR10, ref[0], ref[1], ref[2], table.String())
		}
	}
}

// fixedClock is a Clock stopped at one instant.
type fixedClock time.Time

func (c fixedClock) Now() time.Time { return time.Time(c) }
