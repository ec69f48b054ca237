package datasets

import (
	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/amend"
	"github.com/edgar13f/edgar13f/internal/check"
	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/holdfilter"
)

// This file holds how the package answers by package edgar13f's rules:
// the checks of the arguments (internal/check), the filters of a holdings
// question (internal/holdfilter) and the amendment rule (internal/amend),
// the very functions package edgar13f calls, and the conversion of days.

// holdingsQuery checks a Holdings question as [edgar13f.Client.Holdings]
// does, in the same precedence (the CIK, asOf, period, the options, then
// whether period is a quarter end), and returns the CIK without leading
// zeros and the function that filters the answer by opts as
// Client.Holdings filters its own.
func holdingsQuery(cik string, period, asOf edgar13f.Date, opts []edgar13f.Option) (string, func(*edgar13f.Snapshot), error) {
	var o check.Options
	for _, opt := range opts {
		if opt != nil {
			opt.Apply(&o)
		}
	}
	named := []check.NamedDate{{Name: "asOf", Date: checkDateOf(asOf)}, {Name: "period", Date: checkDateOf(period)}}
	q, f := check.Holdings(cik, named, []check.Date{checkDateOf(period)}, o)
	if f != nil {
		return "", nil, declineOfCheck(f)
	}
	return q.CIK, func(s *edgar13f.Snapshot) {
		r := holdfilter.Snapshot(s.Holdings, filterRow, q, &o)
		s.Holdings = r.Rows
		if r.Matched != nil {
			s.MatchedCUSIPs = r.Matched
		}
		if r.Ranked {
			s.TotalPositions, s.Truncated, s.Order = r.Total, r.Truncated, edgar13f.ValueDesc
		}
	}, nil
}

// filterRow is what the filters read of a row.
func filterRow(h *edgar13f.Holding) holdfilter.Row {
	return holdfilter.Row{CUSIP: h.CUSIP, Issuer: h.NameOfIssuer, PutCall: string(h.PutCall), ShPrn: string(h.ShPrn), ValueUSD: h.ValueUSD}
}

// checkDate declines a date that names no calendar day, as package
// edgar13f does.
func checkDate(name string, d edgar13f.Date) error {
	if f := check.Day(name, checkDateOf(d)); f != nil {
		return declineOfCheck(f)
	}
	return nil
}

// checkDateOf is a Date as the checks take it.
func checkDateOf(d edgar13f.Date) check.Date {
	return check.Date{Year: d.Year, Month: d.Month, Day: d.Day}
}

// declineOfCheck is a failed argument check as package edgar13f's decline.
func declineOfCheck(f *check.Failure) error {
	return edgar13f.Decline(edgar13f.Reason(f.Reason), "%s", f.Message)
}

// checkPeriodAsOf checks that the dates of a bulk question are well formed
// (whether the period is a quarter end is checked after the other
// arguments, in the precedence of the declines).
func checkPeriodAsOf(period, asOf edgar13f.Date) error {
	if err := checkDate("period", period); err != nil {
		return err
	}
	return checkDate("asOf", asOf)
}

// checkQuarterEnd declines a period that is not a calendar quarter end,
// as package edgar13f does.
func checkQuarterEnd(period edgar13f.Date) error {
	if f := check.QuarterEnd(checkDateOf(period)); f != nil {
		return declineOfCheck(f)
	}
	return nil
}

// resolveCovered applies the amendment rule, and the declines that follow
// from one CIK's filing list, to fs (one CIK's filings with their cover
// facts) for period as of asOf, as [edgar13f.Client.Holdings] applies it.
// It returns the index in fs of the base and of each supplement in order,
// or the decline (an *edgar13f.DeclineError).
func resolveCovered(fs []amend.Filing, period, asOf civil.Day) (int, []int, error) {
	base, supplements, d, err := amend.ResolveCovered(fs, period, asOf)
	switch {
	case err != nil:
		return -1, nil, err
	case d != nil:
		return -1, nil, edgar13f.Decline(edgar13f.Reason(d.Reason), "%s", d.Message)
	}
	return base, supplements, nil
}

// dayOf and dateOf convert between a Date and the store's days.
func dayOf(d edgar13f.Date) civil.Day { return civil.DayOf(d.Year, d.Month, d.Day) }

func dateOf(d civil.Day) edgar13f.Date {
	y, m, dd := d.Date()
	return edgar13f.Date{Year: y, Month: m, Day: dd}
}
