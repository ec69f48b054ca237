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

// ParseDate parses s as YYYY-MM-DD, years 1 to 9999. A malformed or
// impossible date (such as 2023-02-30) is reported as a [*DeclineError]
// with reason [InvalidArgument].
func ParseDate(s string) (Date, error) {
	d, ok := parseISODate(s)
	if !ok {
		return Date{}, Decline(InvalidArgument, "date %q is not a valid YYYY-MM-DD date", s)
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

// parseISODate is ParseDate without the error: the module's one date
// parser (civil.ParseYMD, the parts of civil.ParseISO).
func parseISODate(s string) (Date, bool) {
	y, m, d, ok := civil.ParseYMD(s)
	return Date{Year: y, Month: m, Day: d}, ok
}

// DateOf returns the calendar date of t in t's own location.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date{Year: y, Month: m, Day: d}
}

// IsValid reports whether d names a real calendar day in years 1 to 9999:
// every method that takes a Date declines one that does not with
// [InvalidArgument]. The zero Date is not valid.
func (d Date) IsValid() bool { return civil.Valid(d.Year, d.Month, d.Day) }

// day and dateOfDay convert between a Date and the internal form of a
// day (civil.Day), which the stores, indexes and parsers under internal/
// use. Every conversion of this package goes through these two (package
// datasets, which cannot call them, has its pair at its own edge).
func (d Date) day() civil.Day { return civil.DayOf(d.Year, d.Month, d.Day) }

func dateOfDay(d civil.Day) Date {
	y, m, dd := d.Date()
	return Date{Year: y, Month: m, Day: dd}
}

// IsZero reports whether d is the zero Date.
func (d Date) IsZero() bool { return d == Date{} }

// String returns d as YYYY-MM-DD.
func (d Date) String() string {
	return fmt.Sprintf("%04d-%02d-%02d", d.Year, int(d.Month), d.Day)
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

// AddDays returns the date n days after d (before d if n is negative).
func (d Date) AddDays(n int) Date { return dateOfDay(d.day() + civil.Day(n)) }

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
