package check

import (
	"strings"
	"testing"
	"time"
)

func TestMessages(t *testing.T) {
	long := Options{LimitSet: true, Limit: 0}
	cases := []struct {
		name string
		f    *Failure
		want Failure
	}{
		{"day", Day("asOf", Date{2024, time.February, 30}), Failure{InvalidArgument, "asOf 2024-02-30 is not a valid date"}},
		{"zero day", Day("period", Date{}), Failure{InvalidArgument, "period 0000-00-00 is not a valid date"}},
		{"quarter end", QuarterEnd(Date{2024, time.June, 29}), Failure{InvalidPeriod, "period 2024-06-29 is not a calendar quarter end (03-31, 06-30, 09-30 or 12-31)"}},
		{"cik", second(CIK("12a")), Failure{InvalidArgument, `CIK "12a" must be 1 to 10 digits`}},
		{"trimmed cik", second(TrimmedCIK(" 12345678901 ")), Failure{InvalidArgument, `CIK " 12345678901 " must be 1 to 10 digits`}},
		{"limit", second(Holdings("1", nil, nil, long)), Failure{InvalidArgument, "Limit 0 is outside 1 to 200"}},
		{"cusips", second(Holdings("1", nil, nil, Options{CUSIPsSet: true})), Failure{InvalidArgument, "CUSIP list must hold 1 to 50 CUSIPs, not 0"}},
		{"cusip twice", second(Holdings("1", nil, nil, Options{CUSIPsSet: true, CUSIPs: []string{"037833100", "037833100"}})), Failure{InvalidArgument, `CUSIP "037833100" is listed twice`}},
		{"issuer", second(Holdings("1", nil, nil, Options{IssuerSet: true, Issuer: "a"})), Failure{InvalidArgument, "issuer text must be 2 to 100 characters, not 1"}},
		{"periods", second(Holdings("1", nil, []Date{{2024, time.June, 30}, {2024, time.March, 31}}, Options{})), Failure{InvalidPeriod, "period B 2024-03-31 must be after period A 2024-06-30"}},
		{"position", second(Holdings("1", nil, nil, Options{PositionTypeSet: true, PositionType: "short"})), Failure{UnsupportedRequest, `position type "short": Form 13F reports long positions only`}},
		// Precedence: a bad date before a bad option, a bad option before a bad period.
		{"date first", second(Holdings("1", []NamedDate{{"asOf", Date{2024, time.April, 31}}}, []Date{{2024, time.April, 1}}, long)), Failure{InvalidArgument, "asOf 2024-04-31 is not a valid date"}},
		{"option before period", second(Holdings("1", nil, []Date{{2024, time.April, 1}}, long)), Failure{InvalidArgument, "Limit 0 is outside 1 to 200"}},
		{"period before position", second(Holdings("1", nil, []Date{{2024, time.April, 1}}, Options{PositionTypeSet: true, PositionType: "short"})), Failure{InvalidPeriod, "period 2024-04-01 is not a calendar quarter end (03-31, 06-30, 09-30 or 12-31)"}},
	}
	for _, c := range cases {
		if c.f == nil || *c.f != c.want {
			t.Errorf("%s: got %+v, want %+v", c.name, c.f, c.want)
		}
	}
	for _, ok := range []Date{{2024, time.March, 31}, {2024, time.June, 30}, {2024, time.September, 30}, {2024, time.December, 31}} {
		if f := QuarterEnd(ok); f != nil {
			t.Errorf("QuarterEnd(%s) = %+v", ok, f)
		}
	}
	q, f := Holdings("0001067983", []NamedDate{{"asOf", Date{2024, time.May, 15}}}, []Date{{2024, time.March, 31}},
		Options{CUSIPsSet: true, CUSIPs: []string{"037833100"}, IssuerSet: true, Issuer: "Apple", LimitSet: true, Limit: 5, PositionTypeSet: true, PositionType: " LONG "})
	if f != nil || q.CIK != "1067983" || !q.CUSIPSet["037833100"] || !strings.Contains(q.IssuerKey, "apple") {
		t.Errorf("valid question: %+v, %+v", q, f)
	}
}

func second[T any](_ T, f *Failure) *Failure { return f }
