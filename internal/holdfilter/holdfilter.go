// Package holdfilter holds the filters of a holdings question (CUSIPs,
// Issuer, Limit), applied after the amendment rule, over rows of any type:
// a caller gives a function that reads the fields the filters need.
// Package edgar13f (Holdings and Diff) and package datasets (the bulk
// Holdings) run these very functions, with the options a question's
// sealed edgar13f.Option wrote into a check.Options and the query
// check.Holdings returned, so one copy of each rule serves both.
package holdfilter

import (
	"cmp"
	"slices"
	"strings"

	"github.com/edgar13f/edgar13f/internal/check"
	"github.com/edgar13f/edgar13f/internal/fold"
)

// Row is what the filters read of a row.
type Row struct {
	CUSIP, Issuer  string
	PutCall, ShPrn string
	ValueUSD       int64 // value in whole dollars
}

// A Position identifies a position: CUSIP (upper case), PutCall and ShPrn.
type Position struct {
	CUSIP, PutCall, ShPrn string
}

// PositionOf returns the position of r.
func PositionOf(r Row) Position {
	return Position{CUSIP: strings.ToUpper(r.CUSIP), PutCall: r.PutCall, ShPrn: r.ShPrn}
}

// ComparePositions is the tie-break order of every ranking: CUSIP, then
// PutCall with none first, then SH/PRN.
func ComparePositions(a, b Position) int {
	if c := cmp.Compare(a.CUSIP, b.CUSIP); c != 0 {
		return c
	}
	if c := cmp.Compare(a.PutCall, b.PutCall); c != 0 {
		return c
	}
	return cmp.Compare(a.ShPrn, b.ShPrn)
}

// keep reports whether a row passes the CUSIP and issuer filters.
func keep(q *check.Query, o *check.Options, r Row) bool {
	if q.CUSIPSet != nil && !q.CUSIPSet[strings.ToUpper(r.CUSIP)] {
		return false
	}
	if o.IssuerSet && !strings.Contains(fold.String(r.Issuer), q.IssuerKey) {
		return false
	}
	return true
}

// Rows applies the CUSIP and issuer filters and returns the kept rows (rows
// itself when neither filter is set).
func Rows[R any](rows []R, row func(*R) Row, q *check.Query, o *check.Options) []R {
	if q.CUSIPSet == nil && !o.IssuerSet {
		return rows
	}
	kept := rows[:0:0]
	for i := range rows {
		if keep(q, o, row(&rows[i])) {
			kept = append(kept, rows[i])
		}
	}
	return kept
}

// MatchedCUSIPs returns the distinct CUSIPs of the rows of sets, upper
// case, sorted.
func MatchedCUSIPs[R any](row func(*R) Row, sets ...[]R) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, rows := range sets {
		for i := range rows {
			c := strings.ToUpper(row(&rows[i]).CUSIP)
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	slices.Sort(out)
	return out
}

// A Result is a snapshot's rows after the filters, and what the answer
// reports of them.
type Result[R any] struct {
	Rows    []R
	Matched []string // the CUSIPs that matched an Issuer filter; nil without one
	// Ranked says that a Limit was given: the positions were ranked, Total
	// counts them and Truncated says some were left out.
	Ranked    bool
	Total     int
	Truncated bool
}

// Snapshot applies the filters of a holdings question to a snapshot's rows:
// CUSIPs and Issuer, then Limit, which keeps the n largest positions (rows
// sharing CUSIP, PutCall and ShPrn, ranked by summed ValueUSD, largest
// first, then by ComparePositions), in rank order, each with all its rows
// in filed order.
func Snapshot[R any](rows []R, row func(*R) Row, q *check.Query, o *check.Options) Result[R] {
	res := Result[R]{Rows: Rows(rows, row, q, o)}
	if o.IssuerSet {
		res.Matched = MatchedCUSIPs(row, res.Rows)
	}
	if !o.LimitSet {
		return res
	}
	type group struct {
		key   Position
		value int64
	}
	sums := map[Position]int64{}
	var groups []group
	for i := range res.Rows {
		r := row(&res.Rows[i])
		k := PositionOf(r)
		if _, ok := sums[k]; !ok {
			groups = append(groups, group{key: k})
		}
		sums[k] = AddSat(sums[k], r.ValueUSD)
	}
	for i := range groups {
		groups[i].value = sums[groups[i].key]
	}
	slices.SortFunc(groups, func(a, b group) int {
		if c := cmp.Compare(b.value, a.value); c != 0 {
			return c
		}
		return ComparePositions(a.key, b.key)
	})
	n := min(o.Limit, len(groups))
	res.Ranked, res.Total, res.Truncated = true, len(groups), len(groups) > n
	// Positions in rank order; the rows of one position in filed order.
	rank := make(map[Position]int, n)
	for i, g := range groups[:n] {
		rank[g.key] = i
	}
	byRank := make([][]R, n)
	for i := range res.Rows {
		if k, ok := rank[PositionOf(row(&res.Rows[i]))]; ok {
			byRank[k] = append(byRank[k], res.Rows[i])
		}
	}
	kept := make([]R, 0, len(res.Rows))
	for _, rs := range byRank {
		kept = append(kept, rs...)
	}
	res.Rows = kept
	return res
}

// AddSat adds without wrapping past the int64 range.
func AddSat(a, b int64) int64 {
	s := a + b
	if (s > a) == (b > 0) {
		return s
	}
	if b > 0 {
		return 1<<63 - 1
	}
	return -1 << 63
}
