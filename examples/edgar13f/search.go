package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
	"github.com/edgar13f/edgar13f/search"
	"github.com/edgar13f/edgar13f/search/eval"
	"github.com/edgar13f/edgar13f/search/store"
)

// This file holds the filing search commands: index, search, chunk and
// eval, over the embedded store under the cache directory.

var searchDisclaimer = wire.SearchDisclaimer

func init() { commands = append(commands, searchCommands...) }

var searchCommands = []command{
	{
		name: "index", args: "TICKER|CIK...", positional: -1, disclaimer: &searchDisclaimer, search: true,
		about: "Index companies' reports for \"edgar13f search\": for each company (a current ticker or a\n" +
			"CIK) its newest --filings reports of each --form made on or before --as-of: so many\n" +
			"original 10-K (or 10-Q) filings, each with its amendments (10-K/A) made by --as-of; an\n" +
			"amendment of an older report is never indexed. Each filing is read from EDGAR once,\n" +
			"split into Items and chunks of at most 450 tokens, embedded when an embedder is\n" +
			"configured (EDGAR13F_EMBED_URL), and stored under the cache directory. A filing\n" +
			"already indexed is reused, not read again; a filing is searchable only once all its\n" +
			"chunks are stored. Progress (filings and chunks) is shown on stderr on a terminal.",
		examples: "  edgar13f index AAPL NVDA --as-of 2025-03-01\n" +
			"  edgar13f index TSLA 200406 --form 10-K,10-Q --filings 2\n" +
			"  edgar13f index AAPL NVDA --as-of 2025-03-01 --fixture-dir testdata/mirror   # offline\n",
		flags: func(fs *flag.FlagSet, o *opts) {
			fs.Var(listFlag{&o.forms, "form"}, "form", "kinds of report to index (repeat, or separate with commas; default 10-K): 10-K, 10-Q, ...; 10-K/A is the same as 10-K")
			fs.IntVar(&o.filingsN, "filings", 0, "newest reports of each kind per company, each with its amendments (1-20, default 1)")
			fs.BoolVar(&o.reindex, "reindex", false, "read, chunk and store again filings already indexed")
			fs.BoolVar(&o.showProgress, "progress", false, "report progress on stderr even when it is not a terminal")
		},
		run: runIndex,
	},
	{
		name: "search", args: "QUERY...", positional: -1, disclaimer: &searchDisclaimer, search: true, offline: true,
		about: "Search the text of the indexed 10-K and 10-Q filings (see \"edgar13f index\") made on or\n" +
			"before --as-of: later filings neither show nor change the ranking. Modes: bm25 (words),\n" +
			"knn (meaning) and hybrid (both, fused); knn and hybrid need an embedder\n" +
			"(EDGAR13F_EMBED_URL); bm25 is the default (it measured best). Filters are exact. The answer lists the\n" +
			"filings searched (its coverage). Read a hit in context with \"edgar13f chunk ID\".",
		examples: "  edgar13f search export controls China --as-of 2025-03-01\n" +
			"  edgar13f search regulatory credits --ticker TSLA --item 7 --k 3\n" +
			"  edgar13f search \"talc litigation\" --form 10-K --fiscal-year 2024 --format json\n",
		flags: func(fs *flag.FlagSet, o *opts) {
			fs.StringVar(&o.ticker, "ticker", "", "only this company, by the ticker it was indexed under")
			fs.StringVar(&o.cik, "cik", "", "only this company, by CIK")
			fs.StringVar(&o.form, "form", "", "only filings of this form, exact: 10-K, 10-K/A, 10-Q")
			fs.StringVar(&o.item, "item", "", "only this Item: 1A, 7 in a 10-K; I-2, II-1A in a 10-Q")
			fs.IntVar(&o.fiscalYear, "fiscal-year", 0, "only reports of this fiscal year (the company's own)")
			fs.StringVar(&o.mode, "mode", "", "bm25, knn or hybrid (default bm25)")
			fs.IntVar(&o.k, "k", 0, "number of hits (1-50, default 10)")
		},
		run: runSearch,
	},
	{
		name: "chunk", args: "CHUNK_ID", positional: 1, disclaimer: &searchDisclaimer, search: true, offline: true,
		about: "Print one chunk of an indexed filing (a search hit's id) with up to --span chunks\n" +
			"before and after it in the same Item, if its filing was made by --as-of.",
		examples: "  edgar13f chunk f68c9722f86f2732 --as-of 2025-03-01\n  edgar13f chunk f68c9722f86f2732 --span 0 --format json\n",
		flags: func(fs *flag.FlagSet, o *opts) {
			fs.IntVar(&o.span, "span", search.DefaultSpan, "neighbouring chunks on each side (0-5)")
		},
		run: runChunk,
	},
	{
		name: "eval", args: "QUERY_FILE", positional: 1, disclaimer: &searchDisclaimer, search: true, offline: true, tableDefault: true,
		about: "Measure the filing search on a labelled query file (a JSON array of {q, ticker, item,\n" +
			"must}: a hit is relevant when its ticker is the label's, its Item the label's when it\n" +
			"names one, and its text holds the phrase must). Every query is searched in each mode,\n" +
			"over all indexed filings made by --as-of and filtered to its ticker; the answer is\n" +
			"hit@1, hit@5, MRR@10 and the average time per query, as a Markdown table beside the\n" +
			"reference system's published figures, then the queries each row missed. Index the\n" +
			"companies first.",
		examples: "  edgar13f eval search/eval/testdata/reference-queries.json --as-of 2025-09-01\n" +
			"  edgar13f eval search/eval/testdata/reference-queries.json --modes bm25 --format csv\n",
		flags: func(fs *flag.FlagSet, o *opts) {
			fs.StringVar(&o.modes, "modes", "", "modes to measure, comma-separated (default bm25, and knn,hybrid with an embedder)")
		},
		run: runEval,
	},
}

// offlineFetcher serves the commands that read only the search store when
// no User-Agent is set: it sends nothing.
type offlineFetcher struct{}

func (offlineFetcher) Fetch(context.Context, string) ([]byte, error) {
	return nil, errors.New("edgar13f: this command reads only the filing search's store and sends nothing to EDGAR")
}

// openSearch opens the filing search of o's settings. Opening a store of
// an earlier release makes its vectors' one-byte copies: with progress
// shown, that is shown too; without, the first kNN query makes them.
func openSearch(c *edgar13f.Client, o *opts) (*wire.Search, error) {
	if o.progress == nil {
		return wire.OpenSearchReporting(c, o.config(), nil)
	}
	defer o.progress.end()
	return wire.OpenSearchReporting(c, o.config(), func(step, line string) { o.progress.show(step, line, true) })
}

// openStore opens the filing search's store for a command that only reads
// it (search, chunk, eval): it creates nothing, and a store that does not
// exist for o's settings is a failure saying which ones do. The
// question's arguments are checked first, by ask on an engine over no
// store: a malformed one is a usage error still.
func openStore(c *edgar13f.Client, o *opts, ask func(*search.Engine) error) (*wire.Search, error) {
	missing := o.config().CheckSearchStore()
	if missing == nil {
		return openSearch(c, o)
	}
	emb, err := o.config().Embedder()
	if err != nil {
		return nil, err
	}
	var sopts []search.Option
	if emb != nil {
		sopts = append(sopts, search.WithEmbedder(emb))
	}
	e, err := search.New(c, noStore{}, sopts...)
	if err == nil {
		err = ask(e)
	}
	if d, ok := wire.AsDecline(err); ok && d.Reason == edgar13f.InvalidArgument {
		return nil, err
	}
	return nil, missing
}

// noStore is a filing search store holding nothing, written to by no one.
type noStore struct{}

func (noStore) Meta(context.Context) (store.Meta, error) { return store.Meta{}, nil }
func (noStore) Put(context.Context, store.Filing, []store.Chunk, [][]float32, store.Meta) error {
	return errors.New("edgar13f: no store to write to")
}
func (noStore) Filings(context.Context, edgar13f.Date) ([]store.Filing, error) { return nil, nil }
func (noStore) Lexical(context.Context, string, store.Filter, int) ([]store.Match, error) {
	return nil, nil
}
func (noStore) Nearest(context.Context, []float32, store.Filter, int) ([]store.Match, error) {
	return nil, nil
}
func (noStore) Chunk(context.Context, string) (store.Chunk, store.Filing, bool, error) {
	return store.Chunk{}, store.Filing{}, false, nil
}
func (noStore) ItemChunks(context.Context, string, string) ([]store.Chunk, error) { return nil, nil }
func (noStore) Close() error                                                      { return nil }

func runIndex(ctx context.Context, c *edgar13f.Client, o *opts, args []string) (result, error) {
	var iopts []search.IndexOption
	if o.set["form"] {
		for _, f := range o.forms {
			iopts = append(iopts, search.FormType(edgar13f.Form(f)))
		}
	}
	if o.set["filings"] {
		iopts = append(iopts, search.Limit(o.filingsN))
	}
	if o.reindex {
		iopts = append(iopts, search.Reindex())
	}
	if o.progress != nil {
		iopts = append(iopts, search.ReportProgress(func(p search.Progress) {
			if p.Accession == "" {
				o.progress.show(p.Company, p.Company+": listing filings", true)
				return
			}
			line := fmt.Sprintf("%s: %s; %d of %d filings indexed, %d chunks", p.Company, p.Accession, p.Filings, p.FilingsPlan, p.Chunks)
			if p.ChunksPerSecond > 0 {
				line += fmt.Sprintf(", %.1f chunks/s, about %s left", p.ChunksPerSecond, p.Left.Round(time.Second))
			}
			o.progress.show(p.Company+" "+p.Accession, line, true)
		}))
	}
	s, err := openSearch(c, o)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	res, err := s.Engine.Index(ctx, args, o.asOfDate, iopts...)
	if o.progress != nil {
		o.progress.end()
	}
	return indexResult{res, s.Dir}, err
}

func runSearch(ctx context.Context, c *edgar13f.Client, o *opts, args []string) (result, error) {
	var sopts []search.SearchOption
	for _, f := range []struct {
		flag string
		opt  func() search.SearchOption
	}{
		{"ticker", func() search.SearchOption { return search.Ticker(o.ticker) }},
		{"cik", func() search.SearchOption { return search.CIK(o.cik) }},
		{"form", func() search.SearchOption { return search.FormType(edgar13f.Form(o.form)) }},
		{"item", func() search.SearchOption { return search.Item(o.item) }},
		{"fiscal-year", func() search.SearchOption { return search.FiscalYear(o.fiscalYear) }},
		{"mode", func() search.SearchOption { return search.Mode(o.mode) }},
		{"k", func() search.SearchOption { return search.Limit(o.k) }},
	} {
		if o.set[f.flag] {
			sopts = append(sopts, f.opt())
		}
	}
	q := strings.Join(args, " ")
	s, err := openStore(c, o, func(e *search.Engine) error { _, err := e.Search(ctx, q, o.asOfDate, sopts...); return err })
	if err != nil {
		return nil, err
	}
	defer s.Close()
	res, err := s.Engine.Search(ctx, q, o.asOfDate, sopts...)
	return searchResult{res}, err
}

func runChunk(ctx context.Context, c *edgar13f.Client, o *opts, args []string) (result, error) {
	s, err := openStore(c, o, func(e *search.Engine) error {
		_, err := e.Chunk(ctx, args[0], o.asOfDate, search.Span(o.span))
		return err
	})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	a, err := s.Engine.Chunk(ctx, args[0], o.asOfDate, search.Span(o.span))
	return chunkResult{a, o.asOfDate}, err
}

func runEval(ctx context.Context, c *edgar13f.Client, o *opts, args []string) (result, error) {
	qs, err := eval.LoadFile(args[0])
	if err != nil {
		return nil, usagef("%s", strings.TrimPrefix(err.Error(), "eval: "))
	}
	emb, err := o.config().Embedder()
	if err != nil {
		return nil, err
	}
	modes := []search.Mode{search.BM25}
	if emb != nil {
		modes = append(modes, search.KNN, search.Hybrid)
	}
	if o.set["modes"] {
		modes = nil
		for _, m := range strings.Split(o.modes, ",") {
			switch m := search.Mode(strings.ToLower(strings.TrimSpace(m))); m {
			case search.BM25, search.KNN, search.Hybrid:
				modes = append(modes, m)
			default:
				return nil, usagef("--modes: %q is none of bm25, knn, hybrid", m)
			}
		}
	}
	s, err := openStore(c, o, func(e *search.Engine) error { _, err := eval.Run(ctx, e, qs, o.asOfDate, modes); return err })
	if err != nil {
		return nil, err
	}
	defer s.Close()
	// A query's decline (knn without an embedder, say) is the command's:
	// its reason decides the exit code.
	rep, err := eval.Run(ctx, s.Engine, qs, o.asOfDate, modes)
	if err != nil {
		return nil, err
	}
	fs, err := s.Store.Filings(ctx, o.asOfDate)
	if err != nil {
		return nil, err
	}
	cov := search.Coverage{Filings: fs}
	ciks := map[string]bool{}
	for _, f := range fs {
		ciks[f.CIK] = true
	}
	cov.Companies = len(ciks)
	return evalResult{rep, qs, cov, s.Embedder}, nil
}

// indexResult is the answer of index.
type indexResult struct {
	r   *search.IndexResult
	dir string
}

func (r indexResult) json(w io.Writer) error { return wire.WriteIndex(w, r.r) }

// embedderName names the embedder of an index or search.
func embedderName(e search.Embedder) string {
	if e == nil {
		return "none (BM25 only)"
	}
	return e.Model()
}

func (r indexResult) table(w io.Writer) error {
	emb := "none (BM25 only)"
	if r.r.Embedder != nil {
		emb = r.r.Embedder.String()
	}
	fmt.Fprintf(w, "Indexed as of %s: %d filings, %s chunks; embedder %s\nstore: %s\n\n", r.r.AsOf, len(r.r.Indexed), num(int64(r.r.ChunksTotal)), emb, r.dir)
	g := &grid{head: []string{"TICKER", "CIK", "FORM", "FILED", "REPORT DATE", "FY", "ACCESSION", "CHUNKS", "STATUS"},
		right: []bool{false, true, false, false, false, true, false, true, false}}
	for _, f := range r.r.Indexed {
		status := "indexed"
		switch {
		case f.Skipped != "":
			status = "skipped: " + f.Skipped
		case f.Reused:
			status = "already indexed"
		}
		g.add(f.Ticker, f.CIK, f.Form, f.FilingDate.String(), dateOrEmpty(f.Period), fy(f.FiscalYear), f.Accession, num(int64(f.Chunks)), status)
	}
	return g.write(w)
}

func (r indexResult) csv(w io.Writer) error {
	var rows [][]string
	for _, f := range r.r.Indexed {
		rows = append(rows, []string{f.Ticker, f.CIK, f.Form, f.Accession, f.FilingDate.String(), dateOrEmpty(f.Period), fy(f.FiscalYear),
			strconv.Itoa(f.Chunks), strconv.FormatBool(f.Reused), f.Skipped})
	}
	return writeCSV(w, []string{"ticker", "cik", "form", "accession_number", "filing_date", "report_date", "fiscal_year", "chunks", "reused", "skipped"}, rows)
}

// fy formats a fiscal year, "" when unknown.
func fy(y int) string {
	if y == 0 {
		return ""
	}
	return strconv.Itoa(y)
}

// searchResult is the answer of search.
type searchResult struct{ r *search.Result }

func (r searchResult) json(w io.Writer) error { return wire.WriteSearch(w, r.r) }

// clipText returns text on one line, cut to n characters.
func clipText(text string, n int) string {
	t := strings.Join(strings.Fields(text), " ")
	if utf8.RuneCountInString(t) <= n {
		return t
	}
	return string([]rune(t)[:n]) + " ..."
}

// coverageLines describes the filings a search could return.
func coverageLines(w io.Writer, c search.Coverage) {
	fmt.Fprintf(w, "Searched %d filings of %d companies:", len(c.Filings), c.Companies)
	for i, f := range c.Filings {
		sep := ","
		if i == 0 {
			sep = ""
		}
		who := f.Ticker
		if who == "" {
			who = "CIK " + f.CIK
		}
		fmt.Fprintf(w, "%s %s %s %s", sep, who, f.Form, f.FilingDate)
	}
	fmt.Fprintln(w)
}

// hitLine cites one hit or chunk.
func hitLine(h search.Hit) string {
	who := h.Ticker
	if who == "" {
		who = "CIK " + h.CIK
	}
	item := "Item " + h.Item
	if h.ItemTitle != "" {
		item += " (" + h.ItemTitle + ")"
	}
	year := ""
	if h.FiscalYear != 0 {
		year = fmt.Sprintf(", FY%d", h.FiscalYear)
	}
	return fmt.Sprintf("%s %s %s filed %s%s, %s, chunk %d [%s]", who, h.Form, h.Accession, h.FilingDate, year, item, h.ChunkIndex, h.ChunkID)
}

func (r searchResult) table(w io.Writer) error {
	res := r.r
	fmt.Fprintf(w, "%q as of %s, mode %s: %d hits\n", res.Query, res.AsOf, res.Mode, len(res.Hits))
	coverageLines(w, res.Coverage)
	fmt.Fprintf(w, "%s\n", wire.SearchDisclaimer)
	for _, h := range res.Hits {
		fmt.Fprintf(w, "\n%d. %s  score %.4f\n   %s\n   %s\n", h.Rank, hitLine(h), h.Score, clipText(h.Text, 300), h.URL)
	}
	if len(res.Hits) > 0 {
		fmt.Fprintln(w, "\nTexts are cut to 300 characters: \"edgar13f chunk ID\" or --format json prints them whole.")
	}
	return nil
}

func (r searchResult) csv(w io.Writer) error {
	var rows [][]string
	for _, h := range r.r.Hits {
		rows = append(rows, []string{strconv.Itoa(h.Rank), h.ChunkID, strconv.FormatFloat(h.Score, 'f', 6, 64), h.Ticker, h.CIK, h.Company, h.Form,
			h.Accession, h.FilingDate.String(), dateOrEmpty(h.Period), fy(h.FiscalYear), h.Item, h.ItemTitle, strconv.Itoa(h.ChunkIndex),
			strconv.Itoa(h.Tokens), h.URL, h.Text})
	}
	return writeCSV(w, []string{"rank", "chunk_id", "score", "ticker", "cik", "company", "form", "accession_number", "filing_date", "report_date",
		"fiscal_year", "item", "item_title", "chunk_index", "n_tokens", "url", "text"}, rows)
}

// chunkResult is the answer of chunk.
type chunkResult struct {
	a    *search.ChunkAnswer
	asOf edgar13f.Date
}

func (r chunkResult) json(w io.Writer) error { return wire.WriteChunk(w, r.a, r.asOf.String()) }

// inOrder returns the chunk and its neighbours in chunk order, and the
// position of the chunk.
func (r chunkResult) inOrder() ([]search.Hit, int) {
	var out []search.Hit
	at := -1
	for _, n := range r.a.Neighbors {
		if at < 0 && n.ChunkIndex > r.a.Chunk.ChunkIndex {
			at = len(out)
			out = append(out, r.a.Chunk)
		}
		out = append(out, n)
	}
	if at < 0 {
		at = len(out)
		out = append(out, r.a.Chunk)
	}
	return out, at
}

func (r chunkResult) table(w io.Writer) error {
	c := r.a.Chunk
	fmt.Fprintf(w, "%s\n%s, %d tokens\nsource: %s\n%s\n", hitLine(c), c.Company, c.Tokens, c.URL, wire.SearchDisclaimer)
	all, at := r.inOrder()
	for i, h := range all {
		mark := "neighbour"
		if i == at {
			mark = "this chunk"
		}
		fmt.Fprintf(w, "\n--- chunk %d [%s] (%s) ---\n%s\n", h.ChunkIndex, h.ChunkID, mark, h.Text)
	}
	return nil
}

func (r chunkResult) csv(w io.Writer) error {
	all, at := r.inOrder()
	var rows [][]string
	for i, h := range all {
		rows = append(rows, []string{h.ChunkID, strconv.FormatBool(i == at), h.Ticker, h.CIK, h.Company, h.Form, h.Accession, h.FilingDate.String(),
			dateOrEmpty(h.Period), fy(h.FiscalYear), h.Item, h.ItemTitle, strconv.Itoa(h.ChunkIndex), strconv.Itoa(h.Tokens), h.URL, h.Text})
	}
	return writeCSV(w, []string{"chunk_id", "is_chunk", "ticker", "cik", "company", "form", "accession_number", "filing_date", "report_date",
		"fiscal_year", "item", "item_title", "chunk_index", "n_tokens", "url", "text"}, rows)
}

// evalResult is the answer of eval.
type evalResult struct {
	rep      *eval.Report
	qs       []eval.Query
	cov      search.Coverage
	embedder search.Embedder
}

func (r evalResult) table(w io.Writer) error {
	fmt.Fprintf(w, "Retrieval evaluation as of %s: %d queries; embedder %s\n", r.rep.AsOf, len(r.qs), embedderName(r.embedder))
	coverageLines(w, r.cov)
	fmt.Fprintln(w)
	if err := eval.WriteTable(w, r.rep); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nReference: the reference system's published figures on its own 8 filings (about 2.1k chunks).")
	indexed := map[string]bool{}
	for _, f := range r.cov.Filings {
		indexed[strings.ToUpper(f.Ticker)] = true
	}
	var missing []string
	for _, q := range r.qs {
		if !indexed[q.Ticker] && !slices.Contains(missing, q.Ticker) {
			missing = append(missing, q.Ticker)
		}
	}
	if len(missing) > 0 {
		fmt.Fprintf(w, "No filing of %s is indexed as of %s: their queries cannot be answered (edgar13f index %s).\n",
			strings.Join(missing, ", "), r.rep.AsOf, strings.Join(missing, " "))
	}
	for _, row := range r.rep.Rows {
		if len(row.Misses) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s, %s: no relevant hit in the first 10 for\n", row.Setting(), row.Mode)
		for _, i := range row.Misses {
			q := r.qs[i]
			item := "any Item"
			if q.Item != "" {
				item = "Item " + q.Item
			}
			fmt.Fprintf(w, "- %d. %q (%s, %s, must %q)\n", i+1, q.Q, q.Ticker, item, q.Must)
		}
	}
	return nil
}

// rows are the figures of every row, as strings.
func (r evalResult) rows() [][]string {
	var rows [][]string
	for _, row := range r.rep.Rows {
		ref := []string{"", "", ""}
		if f, ok := eval.Reference[row.Setting()][row.Mode]; ok {
			for i := range ref {
				ref[i] = strconv.FormatFloat(f[i], 'f', 3, 64)
			}
		}
		misses := make([]string, len(row.Misses))
		for i, m := range row.Misses {
			misses[i] = strconv.Itoa(m + 1)
		}
		rows = append(rows, append([]string{row.Setting(), string(row.Mode), strconv.Itoa(row.Queries),
			strconv.FormatFloat(row.Hit1, 'f', 3, 64), strconv.FormatFloat(row.Hit5, 'f', 3, 64), strconv.FormatFloat(row.MRR10, 'f', 3, 64),
			strconv.FormatFloat(row.AvgMS, 'f', 1, 64)}, append(ref, strings.Join(misses, " "))...))
	}
	return rows
}

var evalHead = []string{"setting", "mode", "queries", "hit_at_1", "hit_at_5", "mrr_at_10", "avg_ms", "reference_hit_at_1", "reference_hit_at_5", "reference_mrr_at_10", "missed_queries"}

func (r evalResult) csv(w io.Writer) error { return writeCSV(w, evalHead, r.rows()) }

// evalRow is one row of the JSON answer of eval.
type evalRow struct {
	Setting   string      `json:"setting"`
	Mode      string      `json:"mode"`
	Queries   int         `json:"queries"`
	Hit1      float64     `json:"hit_at_1"`
	Hit5      float64     `json:"hit_at_5"`
	MRR10     float64     `json:"mrr_at_10"`
	AvgMS     float64     `json:"avg_ms"`
	Reference *[3]float64 `json:"reference"`      // hit@1, hit@5, MRR@10; null when the reference has none
	Missed    []int       `json:"missed_queries"` // from 1, in the query file's order
}

func (r evalResult) json(w io.Writer) error {
	rows := []evalRow{}
	for _, row := range r.rep.Rows {
		x := evalRow{Setting: row.Setting(), Mode: string(row.Mode), Queries: row.Queries, Hit1: row.Hit1, Hit5: row.Hit5, MRR10: row.MRR10,
			AvgMS: row.AvgMS, Missed: []int{}}
		if f, ok := eval.Reference[row.Setting()][row.Mode]; ok {
			x.Reference = &f
		}
		for _, m := range row.Misses {
			x.Missed = append(x.Missed, m+1)
		}
		rows = append(rows, x)
	}
	return json.NewEncoder(w).Encode(struct {
		Status  string    `json:"status"`
		AsOf    string    `json:"as_of"`
		Queries int       `json:"queries"`
		Rows    []evalRow `json:"rows"`
	}{"ok", r.rep.AsOf.String(), len(r.qs), rows})
}
