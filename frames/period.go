package frames

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/edgar13f/edgar13f/internal/civil"
)

// A period of a frame, in the frames API's syntax.
type period struct {
	name     string    // normalised: CY2023, CY2023Q4, CY2023Q4I
	instant  bool      // CYyyyyQnI
	from, to civil.Day // the calendar period: first and last day
	minDays  int       // durations: the day counts that fit
	maxDays  int
	nominal  int // 365, 91 or 0
}

// Fit rules of section 14: day counts are end - start + 1.
const (
	yearMinDays, yearMaxDays       = 335, 395
	quarterMinDays, quarterMaxDays = 70, 110
	instantWindow                  = 45 // days either side of the quarter's last day
)

// parsePeriod reads CYyyyy, CYyyyyQn or CYyyyyQnI (letters in either
// case).
func parsePeriod(s string) (period, error) {
	u := strings.ToUpper(strings.TrimSpace(s))
	bad := fmt.Errorf("period %q is not CYyyyy, CYyyyyQn or CYyyyyQnI (e.g. CY2023, CY2023Q4, CY2023Q4I)", s)
	rest, ok := strings.CutPrefix(u, "CY")
	if !ok || len(rest) < 4 {
		return period{}, bad
	}
	year, err := strconv.Atoi(rest[:4])
	if err != nil || rest[0] < '0' || rest[0] > '9' || year < 1900 {
		return period{}, bad
	}
	rest = rest[4:]
	p := period{name: u}
	if rest == "" {
		p.from, p.to = civil.DayOf(year, time.January, 1), civil.DayOf(year, time.December, 31)
		p.minDays, p.maxDays, p.nominal = yearMinDays, yearMaxDays, 365
		return p, nil
	}
	if len(rest) < 2 || rest[0] != 'Q' || rest[1] < '1' || rest[1] > '4' {
		return period{}, bad
	}
	q := int(rest[1] - '0')
	switch rest[2:] {
	case "":
	case "I":
		p.instant = true
	default:
		return period{}, bad
	}
	first := time.Month(3*q - 2)
	p.from = civil.DayOf(year, first, 1)
	p.to = civil.DayOf(year, first+2, civil.DaysIn(year, first+2))
	p.minDays, p.maxDays, p.nominal = quarterMinDays, quarterMaxDays, 91
	if p.instant {
		p.nominal = 0
	}
	return p, nil
}

// fits reports whether a fact of period (start, end) fits p: an instant
// (start 0) within 45 days of an instant period's day, or a duration of
// the period's day counts whose midpoint (start + (end-start)/2, rounded
// down) falls in the calendar period.
func (p period) fits(start, end civil.Day) bool {
	if p.instant {
		return start == 0 && absDays(end-p.to) <= instantWindow
	}
	if start == 0 {
		return false
	}
	days := int(end-start) + 1
	mid := start + (end-start)/2
	return p.minDays <= days && days <= p.maxDays && p.from <= mid && mid <= p.to
}

// closer reports whether period (s1, e1) is closer to p than (s2, e2):
// smaller |end - last day|, then smaller |days - nominal|, then the later
// end, then the later start (the shorter period; section 14 leaves this
// last tie open, and it must be broken for the answer to be one).
func (p period) closer(s1, e1, s2, e2 civil.Day) bool {
	if a, b := absDays(e1-p.to), absDays(e2-p.to); a != b {
		return a < b
	}
	if a, b := p.dayDiff(s1, e1), p.dayDiff(s2, e2); a != b {
		return a < b
	}
	if e1 != e2 {
		return e1 > e2
	}
	return s1 > s2
}

// dayDiff is |days - nominal| of a period (0 for an instant).
func (p period) dayDiff(start, end civil.Day) int {
	if start == 0 {
		return 0
	}
	return absDays(end - start + 1 - civil.Day(p.nominal))
}

func absDays(d civil.Day) int {
	if d < 0 {
		return int(-d)
	}
	return int(d)
}
