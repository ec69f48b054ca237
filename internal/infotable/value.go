package infotable

import (
	"math"

	"github.com/edgar13f/edgar13f/internal/civil"
)

// DollarsFrom is the first filing date whose 13F values are whole
// dollars: Form 13F values were reported in thousands of dollars before
// 2023-01-03.
var DollarsFrom = civil.DayOf(2023, 1, 3)

// ValueUSD returns a row's value in whole dollars by the filing date of
// the row's own filing: x1000 when filed before DollarsFrom, unchanged
// since. A product beyond int64 is math.MaxInt64. Filers that kept
// reporting thousands after the change cannot be repaired by this rule.
// It is the one place the rule is written, for the per-manager and the
// bulk answers alike.
func ValueUSD(value int64, filed civil.Day) int64 {
	if filed >= DollarsFrom {
		return value
	}
	if value > math.MaxInt64/1000 {
		return math.MaxInt64
	}
	return value * 1000
}
