// Package check holds the checks of the arguments the module's questions
// take (dates, quarter-end periods, CIKs, the options of a holdings
// question), over plain types, with the messages of their declines.
// Package edgar13f and its sub-packages (datasets, search) call these one
// checks and turn a Failure into their own decline error.
package check

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/edgar13f/edgar13f/internal/bounds"
	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/edgarid"
	"github.com/edgar13f/edgar13f/internal/fold"
)

// The reasons of the declines the checks give, as package edgar13f spells
// them.
const (
	InvalidArgument    = "invalid_argument"
	InvalidPeriod      = "invalid_period"
	UnsupportedRequest = "unsupported_request"
)

// The limits of a holdings question's options (package edgar13f exports
// them as MaxCUSIPs, MinIssuerLen, MaxIssuerLen and MaxPositions).
const (
	MaxCUSIPs    = 50
	MinIssuerLen = 2
	MaxIssuerLen = 100
	MaxPositions = 200
)

// A Failure is an argument a check refuses: the reason of the decline and
// its message.
type Failure struct {
	Reason  string
	Message string
}

func fail(reason, format string, args ...any) *Failure {
	return &Failure{Reason: reason, Message: fmt.Sprintf(format, args...)}
}

// A Date is a calendar date as given, perhaps one that names no day.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// after reports whether d is a later date than e.
func (d Date) after(e Date) bool {
	if d.Year != e.Year {
		return d.Year > e.Year
	}
	if d.Month != e.Month {
		return d.Month > e.Month
	}
	return d.Day > e.Day
}

// String returns d as YYYY-MM-DD.
func (d Date) String() string { return fmt.Sprintf("%04d-%02d-%02d", d.Year, int(d.Month), d.Day) }

// Day checks that d, the argument called name, names a calendar day in
// years 1 to 9999 (InvalidArgument).
func Day(name string, d Date) *Failure {
	if !civil.Valid(d.Year, d.Month, d.Day) {
		return fail(InvalidArgument, "%s %s is not a valid date", name, d)
	}
	return nil
}

// QuarterEnd checks that period is a calendar quarter end (InvalidPeriod).
func QuarterEnd(period Date) *Failure {
	switch {
	case (period.Month == time.March || period.Month == time.December) && period.Day == 31,
		(period.Month == time.June || period.Month == time.September) && period.Day == 30:
		return nil
	}
	return fail(InvalidPeriod, "period %s is not a calendar quarter end (03-31, 06-30, 09-30 or 12-31)", period)
}

// CIK checks a CIK of 1 to 10 ASCII digits, as written in s, and returns
// it without leading zeros (InvalidArgument).
func CIK(s string) (string, *Failure) {
	n, ok := edgarid.ParseCIK(s)
	if !ok {
		return "", fail(InvalidArgument, "CIK %q must be 1 to 10 digits", s)
	}
	return strconv.FormatUint(n, 10), nil
}

// TrimmedCIK is CIK for an argument whose surrounding white space is
// ignored; the message quotes s as given.
func TrimmedCIK(s string) (string, *Failure) {
	cik, f := CIK(strings.TrimSpace(s))
	if f != nil {
		return "", fail(InvalidArgument, "CIK %q must be 1 to 10 digits", s)
	}
	return cik, nil
}

// A NamedDate is a date argument with its name.
type NamedDate struct {
	Name string
	Date Date
}

// Options are the options of a holdings question, as given.
type Options struct {
	CUSIPs          []string
	CUSIPsSet       bool
	Issuer          string
	IssuerSet       bool
	Limit           int
	LimitSet        bool
	PositionType    string
	PositionTypeSet bool
}

// A Query is a checked holdings question.
type Query struct {
	CIK       string          // without leading zeros
	CUSIPSet  map[string]bool // the CUSIP filter, upper case; nil when none
	IssuerKey string          // the Issuer text folded for matching
}

// Holdings checks the arguments of a holdings (or diff) question in the
// precedence of the decline reasons: every invalid_argument check first
// (the CIK, the dates in the order given, the options), then the periods
// (each a quarter end; of two, the second after the first), then
// unsupported requests.
func Holdings(cik string, dates []NamedDate, periods []Date, o Options) (*Query, *Failure) {
	q := &Query{}
	var f *Failure
	if q.CIK, f = CIK(cik); f != nil {
		return nil, f
	}
	for _, d := range dates {
		if f := Day(d.Name, d.Date); f != nil {
			return nil, f
		}
	}
	if o.CUSIPsSet {
		if len(o.CUSIPs) < 1 || len(o.CUSIPs) > MaxCUSIPs {
			return nil, fail(InvalidArgument, "CUSIP list must hold 1 to %d CUSIPs, not %d", MaxCUSIPs, len(o.CUSIPs))
		}
		q.CUSIPSet = make(map[string]bool, len(o.CUSIPs))
		seen := make(map[string]bool, len(o.CUSIPs))
		for _, c := range o.CUSIPs {
			if !edgarid.IsCUSIP(c) {
				return nil, fail(InvalidArgument, "CUSIP %q must be 9 letters or digits", c)
			}
			if seen[c] {
				return nil, fail(InvalidArgument, "CUSIP %q is listed twice", c)
			}
			seen[c] = true
			q.CUSIPSet[strings.ToUpper(c)] = true
		}
	}
	if o.IssuerSet {
		q.IssuerKey = fold.String(o.Issuer)
		if n := utf8.RuneCountInString(q.IssuerKey); n < MinIssuerLen || n > MaxIssuerLen || !utf8.ValidString(o.Issuer) {
			return nil, fail(InvalidArgument, "issuer text must be %d to %d characters, not %d", MinIssuerLen, MaxIssuerLen, n)
		}
	}
	if o.LimitSet {
		if err := bounds.Check("Limit", o.Limit, 1, MaxPositions); err != nil {
			return nil, fail(InvalidArgument, "%v", err)
		}
	}
	for _, p := range periods {
		if f := QuarterEnd(p); f != nil {
			return nil, f
		}
	}
	if len(periods) == 2 && !periods[1].after(periods[0]) {
		return nil, fail(InvalidPeriod, "period B %s must be after period A %s", periods[1], periods[0])
	}
	if o.PositionTypeSet && !strings.EqualFold(strings.TrimSpace(o.PositionType), "long") {
		return nil, fail(UnsupportedRequest, "position type %q: Form 13F reports long positions only", o.PositionType)
	}
	return q, nil
}
