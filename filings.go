package edgar13f

import (
	"context"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"
)

// This file answers Filings: the filing list (filinglist.go) joined with
// each filing's cover page (documents.go).

// Filings returns every 13F submission (13F-HR, 13F-HR/A, 13F-NT, 13F-NT/A)
// of cik that EDGAR had accepted by asOf, newest first (filing date, then
// accession number, both descending, as package companies lists them), each with the facts of its cover page exactly as the cover
// states them, whatever the form (a 13F-NT/A may state an amendment number
// and type; the amendment rule of [Client.Holdings] still treats it as a
// notice). With [ForPeriod], only
// filings for that period of report are returned; none is not a decline.
//
// It declines with [InvalidArgument] (malformed CIK or date),
// [InvalidPeriod] (period not a quarter end) or [UnknownCIK] (no 13F filed
// on or before asOf). It reads EDGAR's filing list
// (data.sec.gov/submissions) and the cover page (primary_doc.xml) of each
// filing not yet cached; filings from before 2013 have no XML cover and
// carry only what the list says.
func (c *Client) Filings(ctx context.Context, cik string, asOf Date, opts ...FilingsOption) (*FilingList, error) {
	var o filingsOptions
	for _, opt := range opts {
		if opt != nil {
			opt.applyFilingList(&o)
		}
	}
	dates := map[string]Date{"asOf": asOf}
	var periods []Date
	var from Date // the period asked for; zero for all
	if o.periodSet {
		dates["period"] = o.period
		periods = []Date{o.period}
		from = o.period
	}
	q, err := newQuery(cik, dates, periods, nil)
	if err != nil {
		return nil, err
	}
	x, err := c.filings(ctx, q.cik, from, asOf)
	if err != nil {
		return nil, err
	}
	if !knownFiler(x.listed(), asOf) {
		return nil, Decline(UnknownCIK, "CIK %s filed no 13F on or before %s", q.cik, asOf)
	}
	var visible []listEntry
	for _, e := range x.entries {
		if visibleOn(e.FilingDate, asOf) && (from.IsZero() || e.Period == from || e.Period.IsZero()) {
			visible = append(visible, e)
		}
	}
	out := make([]Filing, len(visible))
	has := make([]bool, len(visible))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(4)
	for i, e := range visible {
		g.Go(func() error {
			f := Filing{
				Accession:   e.Accession,
				Form:        e.Form,
				FilingDate:  e.FilingDate,
				Period:      e.Period,
				IsAmendment: strings.HasSuffix(string(e.Form), "/A"),
				IndexURL:    indexURL(q.cik, e.Accession),
			}
			rec, ok, err := c.coverPage(gctx, q.cik, e)
			if err != nil {
				return err
			}
			if ok {
				f.Period = rec.Period
				f.IsAmendment = f.IsAmendment || rec.IsAmendment
				// Cover facts as the cover states them, whatever the form.
				f.AmendmentNo = rec.AmendmentNo
				f.AmendmentType = rec.AmendmentType
				f.ReportType = rec.ReportType
				f.ManagerName = rec.ManagerName
				f.Totals = rec.Totals
			}
			out[i], has[i] = f, true
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, ctxErr
		}
		return nil, err
	}
	result := out[:0]
	for i, f := range out {
		if has[i] && (from.IsZero() || f.Period == from) {
			result = append(result, f)
		}
	}
	// Newest first, as package companies' Filings and EDGAR's own lists order them.
	slices.Reverse(result)
	return &FilingList{CIK: q.cik, AsOf: asOf, Period: from, Filings: slices.Clip(result)}, nil
}
