package wire

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/agent/model"
	"github.com/edgar13f/edgar13f/companies"
	"github.com/edgar13f/edgar13f/search"
)

// This file holds the tools that the MCP server and the HTTP API answer
// alike: search_company, search_filings, get_chunk and ask_filings, each
// from its arguments as one JSON object (the MCP call's arguments, or the
// HTTP request's parameters), checked strictly.

// An Answer writes one JSON answer object, or fails.
type Answer func(io.Writer) error

// An EngineFunc returns the filing search, opening it on first use.
type EngineFunc func() (*search.Engine, error)

// DeclineArg is an invalid_argument decline about one argument.
func DeclineArg(name, format string, args ...any) error {
	return edgar13f.Decline(edgar13f.InvalidArgument, "argument %q %s", name, fmt.Sprintf(format, args...))
}

// SearchCompany answers search_company (name[, limit]) with cs, which a
// program builds once for its Client and shares by every request (it keeps
// EDGAR's ticker list in memory).
func SearchCompany(ctx context.Context, cs *companies.Companies, raw json.RawMessage) (Answer, error) {
	a, err := ParseArgs(raw, "name", "limit")
	if err != nil {
		return nil, err
	}
	name, err := a.String("name", true)
	if err != nil {
		return nil, err
	}
	var opts []companies.SearchOption
	n, err := a.Int("limit", 1, companies.MaxMatches)
	if err != nil {
		return nil, err
	}
	if a.Has("limit") {
		opts = append(opts, companies.Limit(n))
	}
	res, err := cs.Search(ctx, name, opts...)
	if err != nil {
		return nil, err
	}
	return func(w io.Writer) error { return WriteCompanySearch(w, res) }, nil
}

// SearchFilings answers search_filings (query, as_of[, ticker][, cik][,
// form][, item][, fiscal_year][, mode][, k]) with the engine of engine.
func SearchFilings(ctx context.Context, engine EngineFunc, raw json.RawMessage) (Answer, error) {
	a, err := ParseArgs(raw, "query", "as_of", "ticker", "cik", "form", "item", "fiscal_year", "mode", "k")
	if err != nil {
		return nil, err
	}
	query, err := a.String("query", true)
	if err != nil {
		return nil, err
	}
	asOf, err := a.Date("as_of", true)
	if err != nil {
		return nil, err
	}
	var opts []search.SearchOption
	for _, f := range []struct {
		name string
		opt  func(string) search.SearchOption
	}{{"ticker", search.Ticker}, {"cik", search.CIK}, {"form", func(f string) search.SearchOption { return search.FormType(edgar13f.Form(f)) }}, {"item", search.Item}, {"mode", func(m string) search.SearchOption { return search.Mode(m) }}} {
		v, err := a.String(f.name, false)
		if err != nil {
			return nil, err
		}
		if a.Has(f.name) {
			opts = append(opts, f.opt(v))
		}
	}
	fy, err := a.Int("fiscal_year", math.MinInt, math.MaxInt)
	if err != nil {
		return nil, err
	}
	if a.Has("fiscal_year") {
		opts = append(opts, search.FiscalYear(fy))
	}
	k, err := a.IntOr("k", 1, search.MaxHits, search.DefaultHits)
	if err != nil {
		return nil, err
	}
	opts = append(opts, search.Limit(k))
	e, err := engine()
	if err != nil {
		return nil, err
	}
	res, err := e.Search(ctx, query, asOf, opts...)
	if err != nil {
		return nil, err
	}
	return func(w io.Writer) error { return WriteSearch(w, res) }, nil
}

// GetChunk answers get_chunk (chunk_id, as_of[, span]) with the engine of
// engine.
func GetChunk(ctx context.Context, engine EngineFunc, raw json.RawMessage) (Answer, error) {
	a, err := ParseArgs(raw, "chunk_id", "as_of", "span")
	if err != nil {
		return nil, err
	}
	id, err := a.String("chunk_id", true)
	if err != nil {
		return nil, err
	}
	asOf, err := a.Date("as_of", true)
	if err != nil {
		return nil, err
	}
	span, err := a.IntOr("span", 0, search.MaxSpan, search.DefaultSpan)
	if err != nil {
		return nil, err
	}
	e, err := engine()
	if err != nil {
		return nil, err
	}
	c, err := e.Chunk(ctx, id, asOf, search.Span(span))
	if err != nil {
		return nil, err
	}
	return func(w io.Writer) error { return WriteChunk(w, c, asOf.String()) }, nil
}

// AskFilings answers ask_filings (question, as_of[, tickers]) with model
// over c (its company data read through cs when not nil: a server's
// companies.Companies, shared by its answers) and the engine of engine,
// calling progress (when not nil) once
// per indexed filing and once per tool call of the model, numbered from 1.
func AskFilings(ctx context.Context, c *edgar13f.Client, cs *companies.Companies, engine EngineFunc, model model.Model, raw json.RawMessage, progress func(step int, msg string)) (Answer, error) {
	a, err := ParseArgs(raw, "question", "as_of", "tickers")
	if err != nil {
		return nil, err
	}
	q, err := a.String("question", true)
	if err != nil {
		return nil, err
	}
	asOf, err := a.Date("as_of", true)
	if err != nil {
		return nil, err
	}
	tickers, err := a.Strings("tickers", false)
	if err != nil {
		return nil, err
	}
	if a.Has("tickers") && (len(tickers) == 0 || len(tickers) > search.MaxCompanies) {
		return nil, DeclineArg("tickers", "must hold 1 to %d companies, not %d", search.MaxCompanies, len(tickers))
	}
	e, err := engine()
	if err != nil {
		return nil, err
	}
	res, err := Ask(ctx, c, cs, e, model, q, asOf, tickers, progress)
	if err != nil {
		return nil, err
	}
	return func(w io.Writer) error { return WriteAsk(w, res) }, nil
}
