package datasets

import (
	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/amend"
	"github.com/edgar13f/edgar13f/internal/check"
	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/rootlink"
)

// This file holds what the package takes from package edgar13f beyond
// its API (through internal/rootlink, typed here), the checks of the
// arguments it takes itself, and the conversion of days.

// holdingsQuery checks a Holdings question as [edgar13f.Client.Holdings]
// does and returns the CIK without leading zeros and the function that
// filters the answer by opts.
func holdingsQuery(cik string, period, asOf edgar13f.Date, opts []edgar13f.Option) (string, func(*edgar13f.Snapshot), error) {
	cik, filter, err := rootlink.HoldingsQuery(cik, period, asOf, opts)
	if err != nil {
		return "", nil, err
	}
	return cik, func(s *edgar13f.Snapshot) { filter(s) }, nil
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
