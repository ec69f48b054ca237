// Package civil holds the one internal form of a calendar day: a Day,
// counted in days since 1970-01-01 (the Apache Parquet DATE
// representation), with the one "YYYY-MM-DD" parser of the module and the
// calendar rules behind both. Package edgar13f's public Date converts to
// and from a Day; every internal package that stores, compares or parses
// days uses a Day, so that one calendar (the proleptic Gregorian one,
// years 1 to 9999) and one parser serve them all.
package civil

import (
	"fmt"
	"time"
)

// A Day is a calendar day, counted in days since 1970-01-01.
type Day int32

// The range of days: 0001-01-01 to 9999-12-31, the dates "YYYY-MM-DD"
// can write.
const (
	MinDay Day = -719162 // 0001-01-01
	MaxDay Day = 2932896 // 9999-12-31
)

// DayOf returns the Day of a calendar date. Out-of-range months and days
// are normalised as time.Date does them (day 0 is the last day of the
// month before); use Valid to refuse them.
func DayOf(year int, month time.Month, day int) Day {
	if Valid(year, month, day) {
		return daysFromCivil(year, int(month), day)
	}
	return Day(time.Date(year, month, day, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

// Valid reports whether year, month and day name a real calendar day in
// years 1 to 9999.
func Valid(year int, month time.Month, day int) bool {
	return year >= 1 && year <= 9999 && month >= time.January && month <= time.December &&
		day >= 1 && day <= DaysIn(year, month)
}

// Time returns d as midnight UTC.
func (d Day) Time() time.Time { return time.Unix(int64(d)*86400, 0).UTC() }

// Date returns the calendar date of d.
func (d Day) Date() (year int, month time.Month, day int) { return d.Time().Date() }

// String returns d as "YYYY-MM-DD".
func (d Day) String() string {
	y, m, dd := d.Date()
	return fmt.Sprintf("%04d-%02d-%02d", y, int(m), dd)
}

// ParseISO reads "YYYY-MM-DD" without allocating: exactly ten bytes,
// ASCII digits, a year from 1 to 9999, and a date that exists. It is the
// one date parser of the module, with ParseYMD, which it is built on.
func ParseISO[T ~string | ~[]byte](s T) (Day, bool) {
	y, m, d, ok := ParseYMD(s)
	if !ok {
		return 0, false
	}
	return daysFromCivil(y, int(m), d), true
}

// ParseYMD is ParseISO giving the year, month and day themselves, for a
// caller that keeps a date in that form (package edgar13f's Date).
func ParseYMD[T ~string | ~[]byte](s T) (year int, month time.Month, day int, ok bool) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return 0, 0, 0, false
	}
	y, ok1 := Digits(s[0:4])
	m, ok2 := Digits(s[5:7])
	d, ok3 := Digits(s[8:10])
	if !ok1 || !ok2 || !ok3 || !Valid(y, time.Month(m), d) {
		return 0, 0, 0, false
	}
	return y, time.Month(m), d, true
}

// DaysIn returns the number of days in month m of year (proleptic
// Gregorian calendar).
func DaysIn(year int, m time.Month) int {
	switch m {
	case time.February:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case time.April, time.June, time.September, time.November:
		return 30
	}
	return 31
}

// Digits reads a fixed-width field of a written date (a year, month or
// day): ASCII digits only, no sign or spaces. ok is false for anything
// else. s should be short enough not to overflow an int.
func Digits[T ~string | ~[]byte](s T) (int, bool) {
	v := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

// daysFromCivil is the proleptic Gregorian day count of Howard Hinnant's
// "days_from_civil", for years from 1.
func daysFromCivil(y, m, d int) Day {
	if m <= 2 {
		y--
	}
	era := y / 400
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return Day(era*146097 + doe - 719468)
}
