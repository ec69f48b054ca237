package edgar13f

import (
	"fmt"
	"time"

	"github.com/edgar13f/edgar13f/internal/civil"
)

// A Date is a calendar day with no time of day and no time zone. Every date
// in edgar13f (asOf, period of report, filing date) is a Date, so that a
// caller's time zone can never move a query to the next or previous day.
//
// The zero Date is not a valid date; methods that take a Date decline it with
// [InvalidArgument].
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// ParseDate parses s as YYYY-MM-DD. A malformed or impossible date (such as
// 2023-02-30) is reported as a [*DeclineError] with reason [InvalidArgument].
func ParseDate(s string) (Date, error) {
	d, ok := parseISODate(s)
	if !ok {
		return Date{}, declinef(InvalidArgument, "date %q is not a valid YYYY-MM-DD date", s)
	}
	return d, nil
}

// MustParseDate is like [ParseDate] but panics if s is not a valid date. It
// is meant for constants in tests and examples.
func MustParseDate(s string) Date {
	d, err := ParseDate(s)
	if err != nil {
		panic(err)
	}
	return d
}

// parseISODate parses exactly "YYYY-MM-DD" with a year from 1 to 9999.
func parseISODate(s string) (Date, bool) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return Date{}, false
	}
	y, ok1 := civil.Digits(s[0:4])
	m, ok2 := civil.Digits(s[5:7])
	d, ok3 := civil.Digits(s[8:10])
	if !ok1 || !ok2 || !ok3 || y < 1 {
		return Date{}, false
	}
	date := Date{Year: y, Month: time.Month(m), Day: d}
	if !date.valid() {
		return Date{}, false
	}
	return date, true
}

// DateOf returns the calendar date of t in t's own location.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date{Year: y, Month: m, Day: d}
}

// valid reports whether d names a real calendar day in years 1 to 9999.
func (d Date) valid() bool {
	if d.Year < 1 || d.Year > 9999 || d.Month < time.January || d.Month > time.December || d.Day < 1 {
		return false
	}
	return DateOf(d.midnight()) == d
}

// IsZero reports whether d is the zero Date.
func (d Date) IsZero() bool { return d == Date{} }

// String returns d as YYYY-MM-DD.
func (d Date) String() string {
	return fmt.Sprintf("%04d-%02d-%02d", d.Year, int(d.Month), d.Day)
}

// midnight returns the start of d in UTC.
func (d Date) midnight() time.Time {
	return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC)
}

// Compare returns -1 if d is before e, 0 if they are the same day and +1 if
// d is after e.
func (d Date) Compare(e Date) int {
	switch {
	case d.Year != e.Year:
		return cmpInt(d.Year, e.Year)
	case d.Month != e.Month:
		return cmpInt(int(d.Month), int(e.Month))
	default:
		return cmpInt(d.Day, e.Day)
	}
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Before reports whether d is before e.
func (d Date) Before(e Date) bool { return d.Compare(e) < 0 }

// After reports whether d is after e.
func (d Date) After(e Date) bool { return d.Compare(e) > 0 }

// AddDays returns the date n days after d (before d if n is negative).
func (d Date) AddDays(n int) Date { return DateOf(d.midnight().AddDate(0, 0, n)) }

// IsQuarterEnd reports whether d is the last day of a calendar quarter
// (March 31, June 30, September 30 or December 31), the only valid 13F
// periods of report.
func (d Date) IsQuarterEnd() bool {
	switch d.Month {
	case time.March, time.December:
		return d.Day == 31
	case time.June, time.September:
		return d.Day == 30
	}
	return false
}

// MarshalText implements [encoding.TextMarshaler]; it formats d as YYYY-MM-DD.
func (d Date) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText implements [encoding.TextUnmarshaler]; it parses YYYY-MM-DD.
func (d *Date) UnmarshalText(b []byte) error {
	v, err := ParseDate(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}
