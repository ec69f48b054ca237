package edgar13f

import (
	"cmp"
	"slices"
	"strings"

	"github.com/edgar13f/edgar13f/internal/check"
	"github.com/edgar13f/edgar13f/internal/fold"
)

// This file validates the arguments of a query and applies the filters of
// Holdings and Diff (CUSIPs, Issuer, Limit) after the amendment rule.

// query is a validated request.
type query struct {
	cik  string // without leading zeros
	opts queryOptions
	// issuerKey is the Issuer text folded for matching; cusipSet the upper-case CUSIP filter.
	issuerKey string
	cusipSet  map[string]bool
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
			opt.applyQuery(&q.opts)
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
	o := &q.opts
	c, f := check.Holdings(cik, named, ps, check.Options{
		CUSIPs: o.cusips, CUSIPsSet: o.cusipsSet,
		Issuer: o.issuer, IssuerSet: o.issuerSet,
		Limit: o.limit, LimitSet: o.limitSet,
		PositionType: o.positionType, PositionTypeSet: o.positionSet,
	})
	if f != nil {
		return nil, declineOfCheck(f)
	}
	q.cik, q.cusipSet, q.issuerKey = c.CIK, c.CUSIPSet, c.IssuerKey
	return q, nil
}

// positionKey identifies a position: CUSIP (upper case), PutCall and ShPrn.
type positionKey struct {
	CUSIP   string
	PutCall PutCall
	ShPrn   ShPrn
}

func keyOf(h *Holding) positionKey {
	return positionKey{CUSIP: strings.ToUpper(h.CUSIP), PutCall: h.PutCall, ShPrn: h.ShPrn}
}

// comparePositionKeys is the tie-break order of every ranking: CUSIP, then PutCall
// with none first, then SH/PRN.
func comparePositionKeys(a, b positionKey) int {
	if c := cmp.Compare(a.CUSIP, b.CUSIP); c != 0 {
		return c
	}
	if c := cmp.Compare(a.PutCall, b.PutCall); c != 0 {
		return c
	}
	return cmp.Compare(a.ShPrn, b.ShPrn)
}

// keepRow reports whether a row passes the CUSIP and issuer filters.
func (q *query) keepRow(h *Holding) bool {
	if q.cusipSet != nil && !q.cusipSet[strings.ToUpper(h.CUSIP)] {
		return false
	}
	if q.opts.issuerSet && !strings.Contains(fold.String(h.NameOfIssuer), q.issuerKey) {
		return false
	}
	return true
}

// filterRows applies the CUSIP and issuer filters and returns the kept rows.
func (q *query) filterRows(rows []Holding) []Holding {
	if q.cusipSet == nil && !q.opts.issuerSet {
		return rows
	}
	kept := rows[:0:0]
	for i := range rows {
		if q.keepRow(&rows[i]) {
			kept = append(kept, rows[i])
		}
	}
	return kept
}

func matchedCUSIPs(sets ...[]Holding) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, rows := range sets {
		for i := range rows {
			c := strings.ToUpper(rows[i].CUSIP)
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	slices.Sort(out)
	return out
}

func (q *query) filterSnapshot(s *Snapshot) {
	s.Holdings = q.filterRows(s.Holdings)
	if q.opts.issuerSet {
		s.MatchedCUSIPs = matchedCUSIPs(s.Holdings)
	}
	if !q.opts.limitSet {
		return
	}
	type group struct {
		key   positionKey
		value int64
	}
	sums := map[positionKey]int64{}
	var groups []group
	for i := range s.Holdings {
		k := keyOf(&s.Holdings[i])
		if _, ok := sums[k]; !ok {
			groups = append(groups, group{key: k})
		}
		sums[k] = addSat(sums[k], s.Holdings[i].ValueUSD)
	}
	for i := range groups {
		groups[i].value = sums[groups[i].key]
	}
	slices.SortFunc(groups, func(a, b group) int {
		if c := cmp.Compare(b.value, a.value); c != 0 {
			return c
		}
		return comparePositionKeys(a.key, b.key)
	})
	s.TotalPositions = len(groups)
	s.Order = ValueDesc
	n := min(q.opts.limit, len(groups))
	s.Truncated = len(groups) > n
	// Positions in rank order; the rows of one position in filed order.
	rank := make(map[positionKey]int, n)
	for i, g := range groups[:n] {
		rank[g.key] = i
	}
	byRank := make([][]Holding, n)
	for _, h := range s.Holdings {
		if i, ok := rank[keyOf(&h)]; ok {
			byRank[i] = append(byRank[i], h)
		}
	}
	kept := make([]Holding, 0, len(s.Holdings))
	for _, rows := range byRank {
		kept = append(kept, rows...)
	}
	s.Holdings = kept
}

// addSat adds without wrapping past the int64 range.
func addSat(a, b int64) int64 {
	s := a + b
	if (s > a) == (b > 0) {
		return s
	}
	if b > 0 {
		return 1<<63 - 1
	}
	return -1 << 63
}
