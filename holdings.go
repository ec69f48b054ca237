package edgar13f

import (
	"context"

	"github.com/edgar13f/edgar13f/internal/infotable"
	"golang.org/x/sync/errgroup"
)

// This file answers Holdings: it runs the amendment rule (pit.go), reading
// the covers the rule asks for, then reads the rows of the base and its
// supplements from the cache or EDGAR (documents.go).

// Holdings returns cik's 13F holdings for period as EDGAR had accepted them
// on asOf: the rows of the base report (the last original or
// restatement filed by asOf) followed by the rows of each new-holdings
// amendment filed after it, exactly as filed, each citing its filing.
// Filings accepted after asOf play no part in the answer.
//
// Options filter the rows afterwards ([CUSIPs], [Issuer], [Limit],
// [PositionType]). It declines with [InvalidArgument], [InvalidPeriod],
// [UnsupportedRequest], [UnknownCIK], [NoticeOnly] or [NotYetFiled], in
// that precedence. It reads EDGAR's filing list and, for each holdings
// report of the period from the latest back to the base, the complete
// submission text file (one request holding cover and table), unless cached.
func (c *Client) Holdings(ctx context.Context, cik string, period, asOf Date, opts ...Option) (*Snapshot, error) {
	q, err := newQuery(cik, map[string]Date{"period": period, "asOf": asOf}, []Date{period}, opts)
	if err != nil {
		return nil, err
	}
	x, err := c.index(ctx, q.cik, asOf)
	if err != nil {
		return nil, err
	}
	snap, err := c.snapshot(ctx, q.cik, x, period, asOf)
	if err != nil {
		return nil, err
	}
	q.filterSnapshot(snap)
	return snap, nil
}

// snapshot resolves one period and reads the rows of its base and
// supplements. x gains the older pages the rule asks for, unless it is
// shared by the two periods of a Diff (then it holds every page both need,
// and reading one fails).
func (c *Client) snapshot(ctx context.Context, cik string, x *filingIndex, period, asOf Date) (*Snapshot, error) {
	res, covers, fetched, err := c.resolve(ctx, cik, x, period, asOf)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, ctxErr
		}
		return nil, err
	}
	snap := &Snapshot{CIK: cik, Period: period, AsOf: asOf}
	sources := append([]classified{res.Base}, res.Supplements...)
	tables := make([]table, len(sources))
	total := 0
	for i, f := range sources {
		snap.Sources = append(snap.Sources, Citation{Accession: f.Accession, Form: f.Form, FilingDate: f.FilingDate, URL: indexURL(cik, f.Accession)})
		t, err := c.table(ctx, cik, f.Accession, x.sizes[f.Accession], fetched)
		if err != nil {
			return nil, err
		}
		tables[i] = t
		total += t.n
	}
	snap.Holdings = make([]Holding, 0, total)
	for i, f := range sources {
		t := tables[i]
		if t.encoded == nil {
			for j := range t.rows {
				snap.Holdings = append(snap.Holdings, holdingOf(&t.rows[j], f.Accession, f.FilingDate))
			}
			continue
		}
		start := len(snap.Holdings)
		err := infotable.DecodeEach(t.encoded, func(r *infotable.Row) {
			snap.Holdings = append(snap.Holdings, holdingOf(r, f.Accession, f.FilingDate))
		})
		if err != nil {
			// A damaged cache entry: read the filing again.
			snap.Holdings = snap.Holdings[:start]
			r, err := c.fetchReport(ctx, cik, f.Accession, x.sizes[f.Accession])
			if err != nil {
				return nil, err
			}
			for j := range r.rows {
				snap.Holdings = append(snap.Holdings, holdingOf(&r.rows[j], f.Accession, f.FilingDate))
			}
			tables[i].parsed = r.parsed
		}
	}
	for i, f := range sources {
		snap.Reconciliations = append(snap.Reconciliations, reconcile(snap.Sources[i], covers[f.Accession].Totals, tables[i].parsed))
	}
	snap.Base = snap.Sources[0]
	return snap, nil
}

// resolve runs the amendment rule (decide) to its end, one round of I/O
// per call of the rule, reading what it asks for: the older pages of x's
// filing list the period needs (in order, as Client.filings reads them),
// then covers, from the cache, else by fetching the filings' complete
// submissions, a filing-date group's uncached filings together
// (concurrently, within the rate limit). It returns the resolution, the
// covers read (by accession) and the reports fetched on the way, whose
// rows the answer may need.
func (c *Client) resolve(ctx context.Context, cik string, x *filingIndex, period, asOf Date) (resolution, map[string]coverRecord, map[string]*report, error) {
	facts := map[string]coverFacts{}
	covers := map[string]coverRecord{}
	fetched := map[string]*report{}
	listed := x.listed()
	for {
		d := decide(listed, x.rulePages(), period, asOf, facts)
		if len(d.needPages) > 0 {
			if err := c.readPages(ctx, x, d.needPages); err != nil {
				return resolution{}, nil, nil, err
			}
			listed = x.listed()
			continue
		}
		if len(d.need) == 0 {
			return d.res, covers, fetched, d.err
		}
		var todo []listedFiling
		for _, f := range d.need {
			if rec, ok := c.cachedCover(ctx, f.Accession); ok {
				facts[f.Accession] = rec.facts(f.Form)
				covers[f.Accession] = rec
			} else {
				todo = append(todo, f)
			}
		}
		reports := make([]*report, len(todo))
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(4)
		for i, f := range todo {
			g.Go(func() (err error) {
				reports[i], err = c.fetchReport(gctx, cik, f.Accession, x.sizes[f.Accession])
				return err
			})
		}
		if err := g.Wait(); err != nil {
			return resolution{}, nil, nil, err
		}
		for i, f := range todo {
			fetched[f.Accession] = reports[i]
			facts[f.Accession] = reports[i].cover.facts(f.Form)
			covers[f.Accession] = reports[i].cover
		}
	}
}

// A table is a filing's rows: parsed during this query, or still encoded
// as cached (decoded straight into the answer); parsed is its tally before
// redaction.
type table struct {
	rows    []infotable.Row
	encoded []byte
	n       int
	parsed  infotable.Tally
}

// table returns a filing's rows: fetched during this query, cached, or read now.
func (c *Client) table(ctx context.Context, cik, accession string, size int64, fetched map[string]*report) (table, error) {
	if r, ok := fetched[accession]; ok {
		return table{rows: r.rows, n: len(r.rows), parsed: r.parsed}, nil
	}
	if b, ok := c.edgar.Cached(ctx, c.rowsKey(accession)); ok {
		if n, parsed, err := infotable.Summary(b); err == nil {
			return table{encoded: b, n: n, parsed: parsed}, nil
		}
	}
	r, err := c.fetchReport(ctx, cik, accession, size)
	if err != nil {
		return table{}, err
	}
	return table{rows: r.rows, n: len(r.rows), parsed: r.parsed}, nil
}

func holdingOf(r *infotable.Row, accession string, filed Date) Holding {
	return Holding{
		Accession:            accession,
		FilingDate:           filed,
		NameOfIssuer:         r.NameOfIssuer,
		TitleOfClass:         r.TitleOfClass,
		CUSIP:                r.CUSIP,
		FIGI:                 r.FIGI,
		Value:                r.Value,
		ValueUSD:             infotable.ValueUSD(r.Value, filed.day()),
		SharesOrPrincipal:    r.Shares,
		ShPrn:                ShPrn(r.ShPrn),
		PutCall:              PutCall(r.PutCall),
		InvestmentDiscretion: r.InvestmentDiscretion,
		OtherManager:         r.OtherManager,
		VotingSole:           r.VotingSole,
		VotingShared:         r.VotingShared,
		VotingNone:           r.VotingNone,
	}
}
