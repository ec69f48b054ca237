package eval

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing/fstest"
	"time"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/mirror"
	"github.com/edgar13f/edgar13f/search"
	"github.com/edgar13f/edgar13f/search/store"
)

// corpusFiling is one report of the evaluation corpus: a real primary
// document from the repository's testdata and the facts of its filing as
// EDGAR lists them (accession, dates, primary document name).
type corpusFiling struct {
	ticker, cik, company, fye string
	form, accession           string
	filed, report             string
	primary                   string // the primary document's name on EDGAR
	file                      string // the document in the repository, under its testdata directory
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

// CorpusAsOf is the date the evaluation corpus is searched as of: a day
// after every filing of it.
var CorpusAsOf = edgar13f.MustParseDate("2025-09-01")

// CorpusTickers are the companies of the evaluation corpus.
var CorpusTickers = []string{"AAPL", "NVDA", "TSLA", "JNJ", "WMT"}

// CorpusMirror returns an EDGAR mirror tree holding the evaluation corpus,
// read from testdata, the repository's testdata directory: EDGAR's ticker
// list from the repository's mirror, a filing list per company naming the
// corpus filings (built from the table of the corpus; the documents are
// real) and the primary documents: every 10-K and 10-Q primary document
// the repository holds, ten reports of five companies.
func CorpusMirror(testdata string) (fstest.MapFS, error) {
	tickers, err := os.ReadFile(filepath.Join(testdata, "mirror/www.sec.gov/files/company_tickers.json"))
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	m := fstest.MapFS{"www.sec.gov/files/company_tickers.json": {Data: tickers}}
	type columns struct {
		AccessionNumber, FilingDate, ReportDate, AcceptanceDateTime, Form, PrimaryDocument []string
	}
	lists := map[string]*columns{}
	var order []corpusFiling
	for _, f := range corpus {
		doc, err := os.ReadFile(filepath.Join(testdata, f.file))
		if err != nil {
			return nil, fmt.Errorf("eval: %w", err)
		}
		if strings.HasSuffix(f.file, ".gz") {
			zr, err := gzip.NewReader(bytes.NewReader(doc))
			if err != nil {
				return nil, fmt.Errorf("eval: %s: %w", f.file, err)
			}
			if doc, err = io.ReadAll(zr); err != nil {
				return nil, fmt.Errorf("eval: %s: %w", f.file, err)
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
			return nil, fmt.Errorf("eval: %w", err)
		}
		m["data.sec.gov/submissions/CIK"+strings.Repeat("0", 10-len(f.cik))+f.cik+".json"] = &fstest.MapFile{Data: data}
	}
	return m, nil
}

// IndexCorpus indexes the evaluation corpus (read from testdata, the
// repository's testdata directory) into st through a new Engine made with
// opts (an embedder, a fusion rule) and returns the Engine. It fails
// unless every report of the corpus is indexed with chunks.
func IndexCorpus(ctx context.Context, testdata string, st store.Store, opts ...search.Option) (*search.Engine, *search.IndexResult, error) {
	fsys, err := CorpusMirror(testdata)
	if err != nil {
		return nil, nil, err
	}
	c, err := edgar13f.NewClient(edgar13f.WithFetcher(mirror.NewFetcher(fsys)), edgar13f.WithCache(nil),
		edgar13f.WithClock(fixedClock(time.Date(2025, 9, 1, 12, 0, 0, 0, time.UTC))))
	if err != nil {
		return nil, nil, err
	}
	e, err := search.New(c, st, opts...)
	if err != nil {
		return nil, nil, err
	}
	res, err := e.Index(ctx, CorpusTickers, CorpusAsOf, search.FormType("10-K"), search.FormType("10-K/A"), search.FormType("10-Q"))
	if err != nil {
		return nil, nil, err
	}
	if len(res.Indexed) != len(corpus) {
		return nil, nil, fmt.Errorf("eval: indexed %d filings; want the %d of the corpus: %+v", len(res.Indexed), len(corpus), res.Indexed)
	}
	for _, x := range res.Indexed {
		if x.Skipped != "" || x.Chunks == 0 {
			return nil, nil, fmt.Errorf("eval: %s %s: skipped %q, %d chunks", x.Ticker, x.Form, x.Skipped, x.Chunks)
		}
	}
	return e, res, nil
}

// fixedClock is a Clock stopped at one instant: the corpus is read as of
// the day after its last filing, whatever the day it is evaluated.
type fixedClock time.Time

func (c fixedClock) Now() time.Time { return time.Time(c) }
