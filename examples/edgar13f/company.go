package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/companies"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
)

// This file holds the company data commands: company, filings, facts and
// section.

var (
	noDisclaimer    = ""
	factsDisclaimer = wire.FactsDisclaimer
)

func init() { commands = append(commands, companyCommands...) }

var companyCommands = []command{
	{
		name: "company", args: "NAME...", positional: -1, disclaimer: &noDisclaimer,
		about: "Find a company's CIK by name or ticker in EDGAR's company_tickers.json, best first:\n" +
			"exact ticker, exact name, name prefix, substring, shared words. Names and tickers are\n" +
			"current, not as of any date.",
		examples: "  edgar13f company apple\n  edgar13f company BRK.B --format json\n",
		flags:    func(fs *flag.FlagSet, o *opts) { fs.IntVar(&o.limit, "limit", 0, "most matches (1-100, default 5)") },
		run:      runCompany,
	},
	{
		name: "filings", args: "CIK", positional: 1, disclaimer: &noDisclaimer,
		about: "List the filings of any form a company had made by --as-of, newest first, every page\n" +
			"of EDGAR's filing list included. --form keeps one form exactly (10-K does not include\n" +
			"10-K/A). For a manager's 13F filings with their cover facts, use 13f-filings.",
		examples: "  edgar13f filings 320193 --as-of 2024-11-01 --form 10-K\n  edgar13f filings 320193 --as-of 2010-06-01 --limit 20 --format csv\n",
		flags: func(fs *flag.FlagSet, o *opts) {
			fs.StringVar(&o.form, "form", "", "only filings of this form, e.g. 10-K (case-insensitive, exact)")
			fs.IntVar(&o.limit, "limit", 0, "most filings (1-100, default 10)")
		},
		run: runCompanyFilings,
	},
	{
		name: "facts", args: "CIK CONCEPT", positional: 2, disclaimer: &factsDisclaimer,
		about: "Print a company's annual values of one concept as known on --as-of: per fiscal year the\n" +
			"value of the latest 10-K-family filing made by then, the value first reported, and\n" +
			"whether it was restated. CONCEPT is an alias (revenue, net_income, eps_diluted,\n" +
			"total_assets, shares_outstanding, ...) or an XBRL tag such as us-gaap:Revenues.",
		examples: "  edgar13f facts 320193 revenue --as-of 2010-01-25\n  edgar13f facts 1045810 eps_diluted --as-of 2025-01-01 --years 5 --format csv\n",
		flags: func(fs *flag.FlagSet, o *opts) {
			fs.IntVar(&o.years, "years", 0, "fiscal years, newest first (1-30, default 3)")
		},
		run: runFacts,
	},
	{
		name: "section", args: "CIK ACCESSION ITEM", positional: 3, disclaimer: &noDisclaimer,
		about: "Print one Item of a 10-K or 10-Q as text, if the filing was made by --as-of: ITEM is\n" +
			"1A, 7, \"Item 7A\", ... for a 10-K and Part-qualified (I-2, II-1A) for a 10-Q. Find the\n" +
			"accession with \"edgar13f filings CIK --form 10-K\".",
		examples: "  edgar13f section 320193 0000320193-24-000123 1A --as-of 2024-11-01 --max-chars 2000\n",
		flags: func(fs *flag.FlagSet, o *opts) {
			fs.IntVar(&o.maxChars, "max-chars", 0, "most characters of text (1-100000, default 20000)")
		},
		run: runSection,
	},
}

func runCompany(ctx context.Context, c *edgar13f.Client, o *opts, args []string) (result, error) {
	var copts []companies.SearchOption
	if o.set["limit"] {
		copts = append(copts, companies.Limit(o.limit))
	}
	s, err := companies.New(c).Search(ctx, strings.Join(args, " "), copts...)
	return companyMatches{s}, err
}

func runCompanyFilings(ctx context.Context, c *edgar13f.Client, o *opts, args []string) (result, error) {
	var copts []companies.FilingsOption
	if o.set["form"] {
		copts = append(copts, companies.FormType(edgar13f.Form(o.form)))
	}
	if o.set["limit"] {
		copts = append(copts, companies.Limit(o.limit))
	}
	l, err := companies.New(c).Filings(ctx, args[0], o.asOfDate, copts...)
	return companyFilings{l}, err
}

func runFacts(ctx context.Context, c *edgar13f.Client, o *opts, args []string) (result, error) {
	var copts []companies.FactsOption
	if o.set["years"] {
		copts = append(copts, companies.Years(o.years))
	}
	f, err := companies.New(c).Facts(ctx, args[0], args[1], o.asOfDate, copts...)
	return facts{f}, err
}

func runSection(ctx context.Context, c *edgar13f.Client, o *opts, args []string) (result, error) {
	var copts []companies.SectionOption
	if o.set["max-chars"] {
		copts = append(copts, companies.MaxChars(o.maxChars))
	}
	s, err := companies.New(c).Section(ctx, args[0], args[1], args[2], o.asOfDate, copts...)
	return section{s}, err
}

type companyMatches struct{ s *companies.SearchResult }

func (r companyMatches) json(w io.Writer) error { return wire.WriteCompanySearch(w, r.s) }

func (r companyMatches) table(w io.Writer) error {
	fmt.Fprintf(w, "Companies matching %q\n%s\n\n", r.s.Query, r.s.Note)
	g := &grid{head: []string{"CIK", "NAME", "TICKERS", "MATCH"}, right: []bool{true, false, false, false}}
	for _, m := range r.s.Matches {
		g.add(m.CIK, m.Name, strings.Join(m.Tickers, ","), m.Rank)
	}
	return g.write(w)
}

func (r companyMatches) csv(w io.Writer) error {
	var rows [][]string
	for _, m := range r.s.Matches {
		ticker := ""
		if len(m.Tickers) > 0 {
			ticker = m.Tickers[0]
		}
		rows = append(rows, []string{m.CIK, m.Name, ticker, strings.Join(m.Tickers, ","), m.Rank, m.SourceURL})
	}
	return writeCSV(w, []string{"cik", "name", "ticker", "tickers", "match", "source_url"}, rows)
}

type companyFilings struct{ l *companies.FilingList }

func (r companyFilings) json(w io.Writer) error { return wire.WriteCompanyFilings(w, r.l) }

// dateOrEmpty formats d, "" for the zero Date.
func dateOrEmpty(d edgar13f.Date) string {
	if d.IsZero() {
		return ""
	}
	return d.String()
}

func (r companyFilings) table(w io.Writer) error {
	what := "filings"
	if r.l.FormType != "" {
		what = string(r.l.FormType) + " filings"
	}
	fmt.Fprintf(w, "CIK %s (%s): %d %s made by %s, newest first\n\n", r.l.CIK, r.l.EntityName, len(r.l.Filings), what, r.l.AsOf)
	g := &grid{head: []string{"FILED", "ACCESSION", "FORM", "REPORT DATE", "DOCUMENT"}, right: make([]bool, 5)}
	for _, f := range r.l.Filings {
		doc := f.DocumentURL
		if doc == "" {
			doc = f.IndexURL
		}
		g.add(f.FilingDate.String(), f.Accession, string(f.Form), dateOrEmpty(f.Period), doc)
	}
	return g.write(w)
}

func (r companyFilings) csv(w io.Writer) error {
	var rows [][]string
	for _, f := range r.l.Filings {
		rows = append(rows, []string{f.Accession, string(f.Form), f.FilingDate.String(), dateOrEmpty(f.Period), f.PrimaryDocument, f.DocumentURL, f.IndexURL})
	}
	return writeCSV(w, []string{"accession_number", "form", "filing_date", "report_date", "primary_document", "document_url", "index_url"}, rows)
}

type facts struct{ f *companies.Facts }

func (r facts) json(w io.Writer) error { return wire.WriteFacts(w, r.f) }

// amount formats a value as filed with thousands separators when it is a
// whole number.
func amount(v string) string {
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		return num(n)
	}
	return v
}

func (r facts) table(w io.Writer) error {
	f := r.f
	tag := "no value visible"
	if f.Tag != "" {
		tag = f.Tag + ", " + f.Unit
	}
	fmt.Fprintf(w, "CIK %s (%s): %s (%s) as known on %s\n%s\n\n", f.CIK, f.EntityName, f.Concept, tag, f.AsOf, wire.FactsDisclaimer)
	g := &grid{head: []string{"FY", "PERIOD", "VALUE", "FORM", "FILED", "ACCESSION", "FIRST REPORTED", "FIRST ACCESSION", "RESTATED"},
		right: []bool{true, false, true, false, false, false, true, false, false}}
	for _, v := range f.Values {
		period := v.PeriodEnd.String()
		if !v.PeriodStart.IsZero() {
			period = v.PeriodStart.String() + ".." + period
		}
		restated := ""
		if v.Restated {
			restated = "yes"
		}
		g.add(strconv.Itoa(v.FiscalYear), period, amount(v.Value), string(v.Filing.Form), v.Filing.FilingDate.String(), v.Filing.Accession,
			amount(v.FirstReportedValue), v.FirstReported.Accession, restated)
	}
	return g.write(w)
}

func (r facts) csv(w io.Writer) error {
	var rows [][]string
	for _, v := range r.f.Values {
		rows = append(rows, []string{strconv.Itoa(v.FiscalYear), v.FiscalPeriod, dateOrEmpty(v.PeriodStart), v.PeriodEnd.String(), v.Value,
			v.Filing.Accession, string(v.Filing.Form), v.Filing.FilingDate.String(), v.Filing.URL,
			v.FirstReportedValue, v.FirstReported.Accession, strconv.FormatBool(v.Restated)})
	}
	return writeCSV(w, []string{"fiscal_year", "fiscal_period", "period_start", "period_end", "value", "accession_number", "form", "filed", "filing_url",
		"first_reported_value", "first_reported_accession", "restated"}, rows)
}

type section struct{ s *companies.Section }

func (r section) json(w io.Writer) error { return wire.WriteSection(w, r.s) }

func (r section) table(w io.Writer) error {
	s := r.s
	fmt.Fprintf(w, "CIK %s: %s %s filed %s, Item %s", s.CIK, s.Filing.Form, s.Filing.Accession, s.Filing.FilingDate, s.Item)
	if s.Title != "" {
		fmt.Fprintf(w, " (%s)", s.Title)
	}
	fmt.Fprintf(w, "\nsource: %s\n", s.SourceURL)
	if s.Truncated {
		fmt.Fprintf(w, "truncated: %d of %d characters shown (--max-chars)\n", len([]rune(s.Text)), s.Chars)
	}
	_, err := fmt.Fprintf(w, "\n%s\n", s.Text)
	return err
}

func (r section) csv(w io.Writer) error {
	s := r.s
	return writeCSV(w, []string{"cik", "accession_number", "form", "filing_date", "item", "title", "truncated", "source_url", "text"},
		[][]string{{s.CIK, s.Filing.Accession, string(s.Filing.Form), s.Filing.FilingDate.String(), s.Item, s.Title, strconv.FormatBool(s.Truncated), s.SourceURL, s.Text}})
}
