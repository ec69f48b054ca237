package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/agent/model"
	"github.com/edgar13f/edgar13f/companies"
	"github.com/edgar13f/edgar13f/internal/tickers"
	"github.com/edgar13f/edgar13f/search"
)

// This file holds the agent's tools: their schemas as the model sees them,
// and their execution, bound to the asOf of the question. No tool takes a
// date: the model cannot move the question in time.

// A Searcher is the filing search the agent's tools use. An
// [*search.Engine] is one. Implementations must keep the Engine's
// contract: nothing of a filing made after asOf is returned, and a chunk
// of one declines [edgar13f.NotYetFiled] without revealing anything of it.
type Searcher interface {
	Search(ctx context.Context, query string, asOf edgar13f.Date, opts ...search.SearchOption) (*search.Result, error)
	Chunk(ctx context.Context, id string, asOf edgar13f.Date, opts ...search.ChunkOption) (*search.ChunkAnswer, error)
}

var _ Searcher = (*search.Engine)(nil)

// The names of the tools.
const (
	ToolResolveCompany = "resolve_company"
	ToolSearchFilings  = "search_filings"
	ToolGetChunk       = "get_chunk"
	ToolFinancialFacts = "get_financial_facts"
)

// Limits of the tools' arguments.
const (
	maxSearchK       = 10 // hits a search_filings call may ask for
	defaultSearchK   = 6
	maxChunkSpan     = 2
	maxFactYears     = 10
	maxCompanies     = 10
	maxQueryRunes    = 500
	maxToolsPerTurn  = 8 // tool calls run in one model turn; more are refused
	maxCoverageLines = 20
)

var factAliases = []string{"revenue", "cost_of_revenue", "gross_profit", "rd_expense", "operating_income", "net_income",
	"eps_basic", "eps_diluted", "cash", "total_assets", "total_liabilities", "stockholders_equity", "long_term_debt",
	"operating_cash_flow", "capex", "shares_outstanding"}

func object(required []string, props map[string]any) map[string]any {
	return map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}
}

// toolSpecs returns the tools the model is offered; the search tools only
// when there is a Searcher.
func toolSpecs(withSearch bool) []model.Tool {
	tools := []model.Tool{{
		Name: ToolResolveCompany,
		Description: "Find companies by name or ticker in EDGAR's list of companies. Returns CIK, name and tickers. " +
			"Names and tickers are EDGAR's current ones, not as of the question's date: a company may have been named differently then.",
		Parameters: object([]string{"name"}, map[string]any{
			"name":  map[string]any{"type": "string", "description": "company name or ticker, e.g. \"Apple\" or \"NVDA\""},
			"limit": map[string]any{"type": "integer", "minimum": 1, "maximum": maxCompanies, "description": "most matches, default 5"},
		}),
	}}
	if withSearch {
		tools = append(tools, model.Tool{
			Name: ToolSearchFilings,
			Description: "Search the text of the indexed 10-K and 10-Q reports filed on or before the question's date. " +
				"Returns chunks with chunk_id, company, form, fiscal year, Item, filing date and text. Filter by ticker and Item to focus " +
				"(10-K: 1 Business, 1A Risk Factors, 1C Cybersecurity, 3 Legal Proceedings, 5 Market for Equity, 7 MD&A, 7A Market Risk, 8 Financial Statements; " +
				"10-Q: I-1 Financial Statements, I-2 MD&A, II-1 Legal Proceedings, II-1A Risk Factors). Also lists the filings the index holds.",
			Parameters: object([]string{"query"}, map[string]any{
				"query":       map[string]any{"type": "string", "description": "what to look for, in the filings' own words"},
				"ticker":      map[string]any{"type": "string", "description": "only this company, e.g. \"AAPL\""},
				"cik":         map[string]any{"type": "string", "description": "only this company, by CIK"},
				"form":        map[string]any{"type": "string", "description": "only this form, exactly: \"10-K\", \"10-K/A\", \"10-Q\""},
				"item":        map[string]any{"type": "string", "description": "only this Item: \"1A\", \"7\", \"I-2\", \"II-1A\""},
				"fiscal_year": map[string]any{"type": "integer", "description": "only reports of this fiscal year (the company's own)"},
				"mode":        map[string]any{"type": "string", "enum": []string{"bm25", "knn", "hybrid"}, "description": "bm25 for exact words and figures, knn for meaning, hybrid for both (default bm25)"},
				"k":           map[string]any{"type": "integer", "minimum": 1, "maximum": maxSearchK, "description": "number of chunks, default 6"},
			}),
		}, model.Tool{
			Name:        ToolGetChunk,
			Description: "Return a chunk by its chunk_id with its neighbours in the same Item, to read a passage that was cut off.",
			Parameters: object([]string{"chunk_id"}, map[string]any{
				"chunk_id": map[string]any{"type": "string"},
				"span":     map[string]any{"type": "integer", "minimum": 0, "maximum": maxChunkSpan, "description": "neighbours on each side, default 1"},
			}),
		})
	}
	return append(tools, model.Tool{
		Name: ToolFinancialFacts,
		Description: "Return a company's annual XBRL values of one concept as known on the question's date, newest first, each with the " +
			"accession number of the filing it comes from and the value first reported. Values are as filed, in the unit named (USD are whole dollars).",
		Parameters: object([]string{"cik", "concept"}, map[string]any{
			"cik":     map[string]any{"type": "string", "description": "the company's CIK (resolve_company finds it)"},
			"concept": map[string]any{"type": "string", "description": "an alias (" + strings.Join(factAliases, ", ") + ") or an XBRL tag such as us-gaap:Revenues"},
			"years":   map[string]any{"type": "integer", "minimum": 1, "maximum": maxFactYears, "description": "fiscal years, default 3"},
		}),
	})
}

// toolbox runs the tools of one question, all bound to its asOf, and
// remembers what they returned: the chunks and the facts the answer may
// cite.
type toolbox struct {
	companies *companies.Companies
	searcher  Searcher
	asOf      edgar13f.Date
	tickers   []string // the question's tickers; empty for any

	chunks map[string]search.Hit // by lower-case chunk id
	facts  map[string]*factSet   // by accession
}

// factSet is what the fact tool returned of one filing.
type factSet struct {
	company, form string
	filed         edgar13f.Date
	url           string
	lines         []string
}

func newToolbox(cs *companies.Companies, s Searcher, asOf edgar13f.Date, tickers []string) *toolbox {
	return &toolbox{companies: cs, searcher: s, asOf: asOf, tickers: tickers,
		chunks: map[string]search.Hit{}, facts: map[string]*factSet{}}
}

// errTool is a failed or refused tool call: its message goes back to the
// model as the tool's result.
type errTool struct{ msg string }

func (e *errTool) Error() string { return e.msg }

func toolErrorf(format string, args ...any) error { return &errTool{msg: fmt.Sprintf(format, args...)} }

// run executes one tool call. The error is non-nil only when ctx ended;
// every other failure is a result with IsError set.
func (tb *toolbox) run(ctx context.Context, call model.ToolCall) (model.ToolResult, string, error) {
	var (
		content any
		summary string
		err     error
	)
	switch call.Name {
	case ToolResolveCompany:
		content, summary, err = tb.resolveCompany(ctx, call.Arguments)
	case ToolSearchFilings, ToolGetChunk:
		if tb.searcher == nil {
			err = toolErrorf("there is no tool named %s", call.Name)
		} else if call.Name == ToolSearchFilings {
			content, summary, err = tb.searchFilings(ctx, call.Arguments)
		} else {
			content, summary, err = tb.getChunk(ctx, call.Arguments)
		}
	case ToolFinancialFacts:
		content, summary, err = tb.financialFacts(ctx, call.Arguments)
	default:
		err = toolErrorf("there is no tool named %q", call.Name)
	}
	if ctx.Err() != nil {
		return model.ToolResult{}, "", ctx.Err()
	}
	if err != nil {
		msg, short := toolError(err)
		return model.ToolResult{CallID: call.ID, Content: msg, IsError: true}, short, nil
	}
	b, jerr := json.Marshal(content)
	if jerr != nil {
		return model.ToolResult{CallID: call.ID, Content: "error: " + jerr.Error(), IsError: true}, "error", nil
	}
	return model.ToolResult{CallID: call.ID, Content: string(b)}, summary, nil
}

// toolError turns an error into the message for the model and a short
// summary for the caller.
func toolError(err error) (string, string) {
	var d *edgar13f.DeclineError
	var te *errTool
	switch {
	case errors.As(err, &d):
		return "declined (" + string(d.Reason) + "): " + d.Message, "declined: " + string(d.Reason)
	case errors.As(err, &te):
		return "error: " + te.msg, "refused: " + te.msg
	}
	return "error: the tool failed: " + err.Error(), "failed: " + err.Error()
}

// decodeArgs decodes a tool's JSON arguments into v, refusing unknown
// arguments by name (as_of above all: the date is not the model's to set).
func decodeArgs(tool string, raw json.RawMessage, v any, allowed ...string) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage("{}")
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return toolErrorf("the arguments of %s must be a JSON object: %v", tool, err)
	}
	var unknown []string
	for k := range m {
		if !slices.Contains(allowed, k) {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	for _, k := range unknown {
		if k == "as_of" || k == "asof" || k == "date" || strings.Contains(strings.ToLower(k), "as_of") {
			return toolErrorf("%s takes no %q argument: the date of the question is fixed, and every tool answers with what was filed on or before it", tool, k)
		}
	}
	if len(unknown) > 0 {
		return toolErrorf("%s takes no argument %s; its arguments are %s", tool, strings.Join(quoteAll(unknown), ", "), strings.Join(allowed, ", "))
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return toolErrorf("bad arguments for %s: %v", tool, err)
	}
	return nil
}

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = fmt.Sprintf("%q", x)
	}
	return out
}

type companyMatch struct {
	CIK     string   `json:"cik"`
	Name    string   `json:"name"`
	Tickers []string `json:"tickers"`
}

func (tb *toolbox) resolveCompany(ctx context.Context, raw json.RawMessage) (any, string, error) {
	var a struct {
		Name  string `json:"name"`
		Limit *int   `json:"limit"`
	}
	if err := decodeArgs(ToolResolveCompany, raw, &a, "name", "limit"); err != nil {
		return nil, "", err
	}
	limit := 5
	if a.Limit != nil {
		if *a.Limit < 1 || *a.Limit > maxCompanies {
			return nil, "", toolErrorf("limit must be 1 to %d", maxCompanies)
		}
		limit = *a.Limit
	}
	res, err := tb.companies.Search(ctx, a.Name, companies.Limit(limit))
	if err != nil {
		return nil, "", err
	}
	out := struct {
		Matches []companyMatch `json:"matches"`
		Note    string         `json:"note"`
	}{Matches: []companyMatch{}, Note: res.Note}
	var names []string
	for _, m := range res.Matches {
		out.Matches = append(out.Matches, companyMatch{CIK: m.CIK, Name: m.Name, Tickers: m.Tickers})
		names = append(names, m.Name)
	}
	return out, fmt.Sprintf("%q: %d %s %s", a.Name, len(res.Matches), plural(len(res.Matches), "match", "matches"), strings.Join(names, "; ")), nil
}

// chunkOut is a chunk as the model reads it.
type chunkOut struct {
	ChunkID    string `json:"chunk_id"`
	Cite       string `json:"cite"`
	Company    string `json:"company"`
	Ticker     string `json:"ticker,omitempty"`
	CIK        string `json:"cik"`
	Form       string `json:"form"`
	FiscalYear int    `json:"fiscal_year"`
	FilingDate string `json:"filing_date"`
	ReportDate string `json:"report_date,omitempty"`
	Accession  string `json:"accession_number"`
	Item       string `json:"item"`
	ItemTitle  string `json:"item_title,omitempty"`
	Text       string `json:"text"`
}

func (tb *toolbox) remember(h search.Hit) chunkOut {
	tb.chunks[strings.ToLower(h.ChunkID)] = h
	out := chunkOut{ChunkID: h.ChunkID, Cite: "[c:" + h.ChunkID + "]", Company: h.Company, Ticker: h.Ticker, CIK: h.CIK,
		Form: h.Form, FiscalYear: h.FiscalYear, FilingDate: h.FilingDate.String(), Accession: h.Accession,
		Item: h.Item, ItemTitle: h.ItemTitle, Text: h.Text}
	if !h.Period.IsZero() {
		out.ReportDate = h.Period.String()
	}
	return out
}

func (tb *toolbox) searchFilings(ctx context.Context, raw json.RawMessage) (any, string, error) {
	var a struct {
		Query      string `json:"query"`
		Ticker     string `json:"ticker"`
		CIK        string `json:"cik"`
		Form       string `json:"form"`
		Item       string `json:"item"`
		FiscalYear *int   `json:"fiscal_year"`
		Mode       string `json:"mode"`
		K          *int   `json:"k"`
	}
	if err := decodeArgs(ToolSearchFilings, raw, &a, "query", "ticker", "cik", "form", "item", "fiscal_year", "mode", "k"); err != nil {
		return nil, "", err
	}
	q := strings.TrimSpace(a.Query)
	if q == "" || utf8.RuneCountInString(q) > maxQueryRunes {
		return nil, "", toolErrorf("query must be 1 to %d characters", maxQueryRunes)
	}
	k := defaultSearchK
	if a.K != nil {
		if *a.K < 1 || *a.K > maxSearchK {
			return nil, "", toolErrorf("k must be 1 to %d", maxSearchK)
		}
		k = *a.K
	}
	ticker := tickers.Norm(a.Ticker)
	if len(tb.tickers) > 0 {
		switch {
		case ticker == "" && len(tb.tickers) == 1:
			ticker = tb.tickers[0]
		case ticker == "":
			return nil, "", toolErrorf("this question is limited to %s: give one of them as ticker", strings.Join(tb.tickers, ", "))
		case !slices.Contains(tb.tickers, ticker):
			return nil, "", toolErrorf("this question is limited to %s, not %s", strings.Join(tb.tickers, ", "), ticker)
		}
	}
	opts := []search.SearchOption{search.Limit(k)}
	if ticker != "" {
		opts = append(opts, search.Ticker(ticker))
	}
	if c := strings.TrimSpace(a.CIK); c != "" {
		opts = append(opts, search.CIK(strings.TrimLeft(c, "0")))
	}
	if a.Form != "" {
		opts = append(opts, search.FormType(edgar13f.Form(strings.ToUpper(strings.TrimSpace(a.Form)))))
	}
	if a.Item != "" {
		opts = append(opts, search.Item(strings.TrimSpace(a.Item)))
	}
	if a.FiscalYear != nil {
		opts = append(opts, search.FiscalYear(*a.FiscalYear))
	}
	switch search.Mode(a.Mode) {
	case "":
	case search.BM25, search.KNN, search.Hybrid:
		opts = append(opts, search.Mode(a.Mode))
	default:
		return nil, "", toolErrorf("mode must be bm25, knn or hybrid")
	}
	res, err := tb.searcher.Search(ctx, q, tb.asOf, opts...)
	if err != nil {
		return nil, "", err
	}
	out := struct {
		Hits     []chunkOut `json:"hits"`
		Mode     string     `json:"mode"`
		Coverage []string   `json:"coverage"`
		More     int        `json:"coverage_more,omitempty"`
	}{Hits: []chunkOut{}, Mode: string(res.Mode), Coverage: []string{}}
	var from []string
	for _, h := range res.Hits {
		out.Hits = append(out.Hits, tb.remember(h))
		from = appendUnique(from, fmt.Sprintf("%s %s FY%d Item %s", nameOf(h), h.Form, h.FiscalYear, h.Item))
	}
	for i, f := range res.Coverage.Filings {
		if i == maxCoverageLines {
			out.More = len(res.Coverage.Filings) - i
			break
		}
		who := f.Ticker
		if who == "" {
			who = "CIK " + f.CIK
		}
		out.Coverage = append(out.Coverage, fmt.Sprintf("%s %s FY%d filed %s", who, f.Form, f.FiscalYear, f.FilingDate))
	}
	return out, fmt.Sprintf("%q: %d %s %s", q, len(res.Hits), plural(len(res.Hits), "hit", "hits"), strings.Join(from, "; ")), nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func nameOf(h search.Hit) string {
	if h.Ticker != "" {
		return h.Ticker
	}
	return h.Company
}

func appendUnique(s []string, v string) []string {
	if slices.Contains(s, v) {
		return s
	}
	return append(s, v)
}

func (tb *toolbox) getChunk(ctx context.Context, raw json.RawMessage) (any, string, error) {
	var a struct {
		ChunkID string `json:"chunk_id"`
		Span    *int   `json:"span"`
	}
	if err := decodeArgs(ToolGetChunk, raw, &a, "chunk_id", "span"); err != nil {
		return nil, "", err
	}
	span := 1
	if a.Span != nil {
		if *a.Span < 0 || *a.Span > maxChunkSpan {
			return nil, "", toolErrorf("span must be 0 to %d", maxChunkSpan)
		}
		span = *a.Span
	}
	id := strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(a.ChunkID), "c:"), "[c:")
	id = strings.TrimSuffix(id, "]")
	if id == "" {
		return nil, "", toolErrorf("chunk_id is required")
	}
	res, err := tb.searcher.Chunk(ctx, id, tb.asOf, search.Span(span))
	if err != nil {
		return nil, "", err
	}
	out := struct {
		Chunk     chunkOut   `json:"chunk"`
		Neighbors []chunkOut `json:"neighbors"`
	}{Chunk: tb.remember(res.Chunk), Neighbors: []chunkOut{}}
	for _, n := range res.Neighbors {
		out.Neighbors = append(out.Neighbors, tb.remember(n))
	}
	h := res.Chunk
	return out, fmt.Sprintf("%s: %s %s FY%d Item %s, %d neighbours", h.ChunkID, nameOf(h), h.Form, h.FiscalYear, h.Item, len(res.Neighbors)), nil
}

type factOut struct {
	FiscalYear             int    `json:"fiscal_year"`
	FiscalPeriod           string `json:"fiscal_period"`
	PeriodStart            string `json:"period_start,omitempty"`
	PeriodEnd              string `json:"period_end"`
	Value                  string `json:"value"`
	Accession              string `json:"accession_number"`
	Form                   string `json:"form"`
	Filed                  string `json:"filed"`
	Cite                   string `json:"cite"`
	FirstReportedValue     string `json:"first_reported_value"`
	FirstReportedAccession string `json:"first_reported_accession"`
	FirstReportedForm      string `json:"first_reported_form"`
	FirstReportedFiled     string `json:"first_reported_filed"`
	FirstReportedCite      string `json:"first_reported_cite"`
	Restated               bool   `json:"restated"`
}

func (tb *toolbox) financialFacts(ctx context.Context, raw json.RawMessage) (any, string, error) {
	var a struct {
		CIK     string `json:"cik"`
		Concept string `json:"concept"`
		Years   *int   `json:"years"`
	}
	if err := decodeArgs(ToolFinancialFacts, raw, &a, "cik", "concept", "years"); err != nil {
		return nil, "", err
	}
	years := 3
	if a.Years != nil {
		if *a.Years < 1 || *a.Years > maxFactYears {
			return nil, "", toolErrorf("years must be 1 to %d", maxFactYears)
		}
		years = *a.Years
	}
	ff, err := tb.companies.Facts(ctx, strings.TrimSpace(a.CIK), a.Concept, tb.asOf, companies.Years(years))
	if err != nil {
		return nil, "", err
	}
	out := struct {
		EntityName string    `json:"entity_name"`
		CIK        string    `json:"cik"`
		Concept    string    `json:"concept"`
		Tag        string    `json:"tag"`
		Unit       string    `json:"unit"`
		Values     []factOut `json:"values"`
		Note       string    `json:"note,omitempty"`
	}{EntityName: ff.EntityName, CIK: ff.CIK, Concept: ff.Concept, Tag: ff.Tag, Unit: ff.Unit, Values: []factOut{}}
	if len(ff.Values) == 0 {
		out.Note = "no annual value of this concept was filed on or before the question's date"
	}
	for _, v := range ff.Values {
		fo := factOut{FiscalYear: v.FiscalYear, FiscalPeriod: v.FiscalPeriod, PeriodEnd: v.PeriodEnd.String(), Value: v.Value,
			Accession: v.Filing.Accession, Form: string(v.Filing.Form), Filed: v.Filing.FilingDate.String(), Cite: "[f:" + v.Filing.Accession + "]",
			FirstReportedValue: v.FirstReportedValue, FirstReportedAccession: v.FirstReported.Accession,
			FirstReportedCite: "[f:" + v.FirstReported.Accession + "]", Restated: v.Restated,
			FirstReportedFiled: v.FirstReported.FilingDate.String(), FirstReportedForm: string(v.FirstReported.Form)}
		if !v.PeriodStart.IsZero() {
			fo.PeriodStart = v.PeriodStart.String()
		}
		out.Values = append(out.Values, fo)
		tb.rememberFact(ff, v, v.Filing, v.Value)
		tb.rememberFact(ff, v, v.FirstReported, v.FirstReportedValue)
	}
	summary := fmt.Sprintf("CIK %s %s: %d %s", ff.CIK, ff.Concept, len(ff.Values), plural(len(ff.Values), "value", "values"))
	if len(ff.Values) > 0 {
		v := ff.Values[0]
		summary += fmt.Sprintf(", FY%d = %s %s (%s)", v.FiscalYear, v.Value, ff.Unit, v.Filing.Accession)
	}
	return out, summary, nil
}

// rememberFact records a value the fact tool returned under the accession
// of the filing it comes from, as the text an answer citing that
// accession is checked against.
func (tb *toolbox) rememberFact(ff *companies.Facts, v companies.FactValue, c edgar13f.Citation, value string) {
	if c.Accession == "" {
		return
	}
	fs := tb.facts[c.Accession]
	if fs == nil {
		fs = &factSet{company: ff.EntityName, form: string(c.Form), filed: c.FilingDate, url: c.URL}
		tb.facts[c.Accession] = fs
	}
	period := v.PeriodEnd.String()
	if !v.PeriodStart.IsZero() {
		period = v.PeriodStart.String() + " to " + period
	}
	line := fmt.Sprintf("%s %s %s fiscal year %d %s: %s (%s filed %s)", ff.Concept, ff.Tag, ff.Unit, v.FiscalYear, period, value, c.Form, c.FilingDate)
	if !slices.Contains(fs.lines, line) {
		fs.lines = append(fs.lines, line)
	}
}
