package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
)

// result is an answer that can be printed in each format.
type result interface {
	table(io.Writer) error
	csv(io.Writer) error
	json(io.Writer) error
}

var commands = []command{
	{
		name: "find", args: "NAME...", positional: -1,
		about: "Find a manager's CIK by a part of its current or former EDGAR name (3-100 characters).\n" +
			"13F filers come first. Names are current, not as of --as-of; with --as-of, only\n" +
			"the 13F column is point in time. The first run reads EDGAR's name and form indexes\n" +
			"(about 140 requests, some 35 s at the default request spacing); later runs are instant.",
		examples: "  edgar13f find berkshire hathaway\n  edgar13f find 'fresh start' --as-of 2025-05-14 --limit 5\n",
		flags:    func(fs *flag.FlagSet, o *opts) { fs.IntVar(&o.limit, "limit", 0, "most candidates (1-20, default 10)") },
		run:      runFind,
	},
	{
		name: "13f-filings", args: "CIK", positional: 1,
		about: "List the 13F filings (13F-HR, 13F-HR/A, 13F-NT, 13F-NT/A) a manager had made by --as-of,\n" +
			"oldest first (by filing date, then accession number), in every format.",
		examples: "  edgar13f 13f-filings 1067983 --as-of 2024-05-15\n  edgar13f 13f-filings 1067983 --period 2023-09-30 --format csv\n",
		flags: func(fs *flag.FlagSet, o *opts) {
			fs.StringVar(&o.period, "period", "", "only filings for this period of report")
		},
		run: runFilings,
	},
	{
		name: "holdings", args: "CIK", positional: 1, required: []string{"period"},
		about: "Print a manager's 13F holdings for --period as EDGAR had them on --as-of: the base\n" +
			"report plus any new-holdings amendments filed by then, each row citing its filing.\n" +
			"json and csv give each value as filed (thousands of dollars before 2023-01-03, whole\n" +
			"dollars since) and value_usd in dollars; the table shows dollars, marking with * the\n" +
			"rows filed in thousands.",
		examples: "  edgar13f holdings 1067983 --period 2023-09-30 --as-of 2024-05-15 --top 10\n" +
			"  edgar13f holdings 1067983 --period 2023-09-30 --issuer apple --format csv\n" +
			"  edgar13f holdings 1067983 --period 2023-09-30 --cusip 037833100,023135106 --format json\n",
		flags: func(fs *flag.FlagSet, o *opts) {
			fs.StringVar(&o.period, "period", "", "period of report, a quarter end YYYY-MM-DD (required)")
			filterFlags(fs, o)
		},
		run: runHoldings,
	},
	{
		name: "diff", args: "CIK", positional: 1, required: []string{"period-a", "period-b"},
		about: "Compare a manager's 13F positions between two periods, both as EDGAR had them on --as-of.\n" +
			"With --top, the largest value changes come first.",
		examples: "  edgar13f diff 1067983 --period-a 2023-09-30 --period-b 2023-12-31 --as-of 2024-05-16 --top 10\n",
		flags: func(fs *flag.FlagSet, o *opts) {
			fs.StringVar(&o.periodA, "period-a", "", "earlier period, a quarter end (required)")
			fs.StringVar(&o.periodB, "period-b", "", "later period, a quarter end (required)")
			filterFlags(fs, o)
		},
		run: runDiff,
	},
}

func runFind(ctx context.Context, c *edgar13f.Client, o *opts, args []string) (result, error) {
	name := strings.Join(args, " ")
	var fopts []edgar13f.FindOption
	if o.asOf != "" {
		fopts = append(fopts, edgar13f.FiledBy(o.asOfDate))
	}
	if o.set["limit"] {
		fopts = append(fopts, edgar13f.Limit(o.limit))
	}
	if o.progress != nil {
		fopts = append(fopts, edgar13f.ReportProgress(func(p edgar13f.Progress) {
			o.progress.show(p.Stage, fmt.Sprintf("building the name index: %s %d/%d", p.Stage, p.Done, p.Total), true)
		}))
	}
	ms, err := c.FindManager(ctx, name, fopts...)
	if o.progress != nil {
		o.progress.end()
	}
	return managers{name, ms}, err
}

func runFilings(ctx context.Context, c *edgar13f.Client, o *opts, args []string) (result, error) {
	var fopts []edgar13f.FilingsOption
	if o.period != "" {
		fopts = append(fopts, edgar13f.ForPeriod(o.periodDate))
	}
	list, err := c.Filings(ctx, args[0], o.asOfDate, fopts...)
	if err != nil {
		return filings{args[0], o.asOfDate, nil}, err
	}
	// Oldest first in every format, as the MCP server answers (and as the
	// JSON format, the server's answer object, must).
	return filings{list.CIK, o.asOfDate, wire.OldestFirst(list.Filings)}, nil
}

func (o *opts) filters() []edgar13f.Option {
	var q []edgar13f.Option
	if o.set["cusip"] {
		q = append(q, edgar13f.CUSIPs(o.cusips...))
	}
	if o.set["issuer"] {
		q = append(q, edgar13f.Issuer(o.issuer))
	}
	if o.set["top"] { // --top 0 too: the library declines it
		q = append(q, edgar13f.Limit(o.top))
	}
	return q
}

func runHoldings(ctx context.Context, c *edgar13f.Client, o *opts, args []string) (result, error) {
	s, err := c.Holdings(ctx, args[0], o.periodDate, o.asOfDate, o.filters()...)
	return holdings{s}, err
}

func runDiff(ctx context.Context, c *edgar13f.Client, o *opts, args []string) (result, error) {
	cmp, err := c.Diff(ctx, args[0], o.periodADate, o.periodBDate, o.asOfDate, o.filters()...)
	return diff{cmp}, err
}

type managers struct {
	query string
	ms    []edgar13f.Manager
}

func (m managers) json(w io.Writer) error { return wire.WriteManagers(w, m.query, m.ms) }

type filings struct {
	cik  string
	asOf edgar13f.Date
	fs   []edgar13f.Filing
}

func (f filings) json(w io.Writer) error { return wire.WriteFilings(w, f.cik, f.asOf, f.fs) }

type holdings struct{ s *edgar13f.Snapshot }

func (h holdings) json(w io.Writer) error { return wire.WriteHoldings(w, h.s, false) }

type diff struct{ c *edgar13f.Comparison }

func (d diff) json(w io.Writer) error { return wire.WriteDiff(w, d.c, false) }
