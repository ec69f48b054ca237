package edgar13f

import (
	"github.com/edgar13f/edgar13f/internal/check"
	"github.com/edgar13f/edgar13f/internal/holdfilter"
)

// This file validates the arguments of a query and applies the filters of
// Holdings and Diff (CUSIPs, Issuer, Limit) after the amendment rule.

// query is a validated request: its CIK without leading zeros, the
// options as given and as checked.
type query struct {
	cik     string
	opts    check.Options
	checked *check.Query
}

// parseCIK validates a CIK of 1 to 10 ASCII digits and drops leading zeros.
func parseCIK(s string) (string, error) {
	cik, f := check.CIK(s)
	if f != nil {
		return "", declineOfCheck(f)
	}
	return cik, nil
}

// declineOfCheck is a failed check as this package's decline.
func declineOfCheck(f *check.Failure) *DeclineError {
	return Decline(Reason(f.Reason), "%s", f.Message)
}

// checkDateOf is a Date as the checks take it.
func checkDateOf(d Date) check.Date { return check.Date{Year: d.Year, Month: d.Month, Day: d.Day} }

// checkDate declines a date that names no calendar day.
func checkDate(name string, d Date) error {
	if f := check.Day(name, checkDateOf(d)); f != nil {
		return declineOfCheck(f)
	}
	return nil
}

// newQuery validates a query's arguments in the precedence of the decline
// reasons (check.Holdings): every invalid_argument check first, then the
// periods, then unsupported requests.
// periods are checked to be quarter ends; a diff also needs B after A.
func newQuery(cik string, dates map[string]Date, periods []Date, opts []Option) (*query, error) {
	q := &query{}
	for _, opt := range opts {
		if opt != nil {
			opt.Apply(&q.opts)
		}
	}
	var named []check.NamedDate
	for _, name := range []string{"asOf", "period", "periodA", "periodB"} {
		if d, ok := dates[name]; ok {
			named = append(named, check.NamedDate{Name: name, Date: checkDateOf(d)})
		}
	}
	ps := make([]check.Date, len(periods))
	for i, p := range periods {
		ps[i] = checkDateOf(p)
	}
	c, f := check.Holdings(cik, named, ps, q.opts)
	if f != nil {
		return nil, declineOfCheck(f)
	}
	q.cik, q.checked = c.CIK, c
	return q, nil
}

// positionKey identifies a position: CUSIP (upper case), PutCall and ShPrn.
type positionKey = holdfilter.Position

// filterRow is what the filters (internal/holdfilter) read of a row.
func filterRow(h *Holding) holdfilter.Row {
	return holdfilter.Row{CUSIP: h.CUSIP, Issuer: h.NameOfIssuer, PutCall: string(h.PutCall), ShPrn: string(h.ShPrn), ValueUSD: h.ValueUSD}
}

func keyOf(h *Holding) positionKey { return holdfilter.PositionOf(filterRow(h)) }

// comparePositionKeys is the tie-break order of every ranking: CUSIP, then PutCall
// with none first, then SH/PRN.
func comparePositionKeys(a, b positionKey) int { return holdfilter.ComparePositions(a, b) }

// filterRows applies the CUSIP and issuer filters and returns the kept rows.
func (q *query) filterRows(rows []Holding) []Holding {
	return holdfilter.Rows(rows, filterRow, q.checked, &q.opts)
}

func matchedCUSIPs(sets ...[]Holding) []string { return holdfilter.MatchedCUSIPs(filterRow, sets...) }

// filterSnapshot applies the filters of q to s (internal/holdfilter, as
// package datasets does).
func (q *query) filterSnapshot(s *Snapshot) {
	r := holdfilter.Snapshot(s.Holdings, filterRow, q.checked, &q.opts)
	s.Holdings = r.Rows
	if r.Matched != nil {
		s.MatchedCUSIPs = r.Matched
	}
	if r.Ranked {
		s.TotalPositions, s.Truncated, s.Order = r.Total, r.Truncated, ValueDesc
	}
}

// addSat adds without wrapping past the int64 range.
func addSat(a, b int64) int64 { return holdfilter.AddSat(a, b) }
