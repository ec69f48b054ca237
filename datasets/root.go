package datasets

import (
	"github.com/edgar13f/edgar13f"
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
func checkDate(name string, d edgar13f.Date) error { return rootlink.CheckDate(name, d) }

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
func checkQuarterEnd(period edgar13f.Date) error { return rootlink.CheckQuarterEnd(period) }

// dayOf and dateOf convert between a Date and the store's days.
func dayOf(d edgar13f.Date) civil.Day { return civil.DayOf(d.Year, d.Month, d.Day) }

func dateOf(d civil.Day) edgar13f.Date {
	y, m, dd := d.Date()
	return edgar13f.Date{Year: y, Month: m, Day: dd}
}
