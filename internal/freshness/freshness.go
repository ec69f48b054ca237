// Package freshness holds the rules that say how long a cached copy of
// what EDGAR keeps growing may still answer: the filing list's rule (also
// the rule of XBRL company facts and of final quarterly form indexes) and
// the day rule of the name file, the ticker file and quarterly form
// indexes not yet final. Package edgar13f and package companies read their
// copies by these rules, so both answer alike from one cache; the access
// layer keeps no policy of its own.
package freshness

import (
	"time"

	"github.com/edgar13f/edgar13f/internal/civil"
)

// ListFreshAfter is how many days after asOf a filing list must have been
// fetched to answer for asOf: filings accepted after hours are dated the
// next business day, and EDGAR's list can lag.
const ListFreshAfter = 2

// ListAnswers reports whether a filing list (or a copy under the same
// rule) fetched at fetched may answer for asOf.
func ListAnswers(fetched time.Time, asOf civil.Day) bool {
	y, m, d := fetched.UTC().Date()
	return civil.DayOf(y, m, d) >= asOf+ListFreshAfter
}

// RefreshAfter is how old a copy under the day rule may grow before it is
// fetched again.
const RefreshAfter = 24 * time.Hour

// Fresh reports whether a copy under the day rule, fetched at t, may still
// be used at now.
func Fresh(t, now time.Time) bool { return now.Sub(t) < RefreshAfter }
