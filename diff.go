package edgar13f

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/edgar13f/edgar13f/internal/docerr"
)

// Diff compares cik's 13F holdings for periodA and periodB, both resolved as
// EDGAR had accepted them on asOf (see [Client.Holdings]). Each side's rows
// are consolidated by position (CUSIP compared case-insensitively, PutCall,
// ShPrn), summing shares and values; there is one [Change] for each position
// present in either period, classified by the sign of the shares change.
// Each change carries the values as filed and in whole dollars (see
// [Change]). Changes are ordered by CUSIP, PutCall (none first) and ShPrn;
// with [Limit](n), by the absolute change of value in dollars
// (|ValueUSDDelta|), largest first, with the same tie-breaks, keeping n.
// [CUSIPs] and [Issuer] filter rows before consolidation.
//
// periodB must be after periodA. It declines as [Client.Holdings] does; when
// both periods would decline, the decline of periodA is returned.
func (c *Client) Diff(ctx context.Context, cik string, periodA, periodB, asOf Date, opts ...Option) (*Comparison, error) {
	q, err := newQuery(cik, map[string]Date{"periodA": periodA, "periodB": periodB, "asOf": asOf}, []Date{periodA, periodB}, opts)
	if err != nil {
		return nil, err
	}
	from := periodA
	x, err := c.filings(ctx, q.cik, from, asOf)
	if err != nil {
		return nil, err
	}
	// The two periods are independent: read them concurrently, then report
	// period A's failure or decline before period B's. x holds every page
	// either period needs (c.filings read them from periodA on), so the
	// rule asks for none; shared makes readPages fail rather than race if
	// it ever did.
	x.shared = true
	var a, b *Snapshot
	var errA, errB error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		b, errB = c.snapshot(ctx, q.cik, x, periodB, asOf)
	}()
	a, errA = c.snapshot(ctx, q.cik, x, periodA, asOf)
	wg.Wait()
	if errA != nil {
		return nil, periodFailed(ctx, "A", periodA, errA)
	}
	if errB != nil {
		return nil, periodFailed(ctx, "B", periodB, errB)
	}
	rowsA, rowsB := q.filterRows(a.Holdings), q.filterRows(b.Holdings)
	cmpn := &Comparison{
		CIK: q.cik, PeriodA: periodA, PeriodB: periodB, AsOf: asOf,
		BaseA: a.Base, BaseB: b.Base, SourcesA: a.Sources, SourcesB: b.Sources,
		ReconciliationsA: a.Reconciliations, ReconciliationsB: b.Reconciliations,
		Changes: compareHoldings(rowsA, rowsB),
	}
	if q.opts.IssuerSet {
		cmpn.MatchedCUSIPs = matchedCUSIPs(rowsA, rowsB)
	}
	if q.opts.LimitSet {
		cmpn.TotalPositions = len(cmpn.Changes)
		cmpn.Order = AbsValueDeltaDesc
		slices.SortStableFunc(cmpn.Changes, func(x, y Change) int {
			if c := cmp.Compare(absSat(y.ValueUSDDelta), absSat(x.ValueUSDDelta)); c != 0 {
				return c
			}
			return comparePositionKeys(x.key(), y.key())
		})
		if n := q.opts.Limit; len(cmpn.Changes) > n {
			cmpn.Changes = slices.Clip(cmpn.Changes[:n])
			cmpn.Truncated = true
		}
	}
	return cmpn, nil
}

// periodFailed says which period of a diff err belongs to: a decline keeps
// its reason with the period named in its message; a failure is wrapped.
func periodFailed(ctx context.Context, side string, period Date, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
		return err
	}
	what := fmt.Sprintf("period %s (%s)", side, period)
	var d *DeclineError
	if errors.As(err, &d) {
		return Decline(d.Reason, "%s: %s", what, d.Message)
	}
	return docerr.Wrap(what, err)
}

func (ch Change) key() positionKey {
	return positionKey{CUSIP: ch.CUSIP, PutCall: string(ch.PutCall), ShPrn: string(ch.ShPrn)}
}

func absSat(v int64) int64 {
	if v >= 0 {
		return v
	}
	if v == -1<<63 {
		return 1<<63 - 1
	}
	return -v
}

// compareHoldings consolidates both sides by position and classifies each
// position's change. It is pure: rows in, changes out, ordered by position key.
func compareHoldings(a, b []Holding) []Change {
	type side struct {
		shares, value, usd int64
		name               string
		present            bool
	}
	type pos struct{ a, b side }
	positions := map[positionKey]*pos{}
	var keys []positionKey
	add := func(rows []Holding, pick func(*pos) *side) {
		for i := range rows {
			h := &rows[i]
			k := keyOf(h)
			p := positions[k]
			if p == nil {
				p = &pos{}
				positions[k] = p
				keys = append(keys, k)
			}
			s := pick(p)
			s.shares = addSat(s.shares, h.SharesOrPrincipal)
			s.value = addSat(s.value, h.Value)
			s.usd = addSat(s.usd, h.ValueUSD)
			if !s.present {
				s.name = h.NameOfIssuer
				s.present = true
			}
		}
	}
	add(a, func(p *pos) *side { return &p.a })
	add(b, func(p *pos) *side { return &p.b })
	slices.SortFunc(keys, comparePositionKeys)

	changes := make([]Change, 0, len(keys))
	for _, k := range keys {
		p := positions[k]
		ch := Change{
			CUSIP: k.CUSIP, PutCall: PutCall(k.PutCall), ShPrn: ShPrn(k.ShPrn),
			SharesA: p.a.shares, SharesB: p.b.shares, SharesDelta: addSat(p.b.shares, -p.a.shares),
			ValueA: p.a.value, ValueB: p.b.value, ValueDelta: addSat(p.b.value, -p.a.value),
			ValueUSDA: p.a.usd, ValueUSDB: p.b.usd, ValueUSDDelta: addSat(p.b.usd, -p.a.usd),
			NameOfIssuer: p.b.name,
		}
		if !p.b.present {
			ch.NameOfIssuer = p.a.name
		}
		switch {
		case !p.a.present:
			ch.Type = Added
		case !p.b.present:
			ch.Type = Removed
		case ch.SharesDelta > 0:
			ch.Type = Increased
		case ch.SharesDelta < 0:
			ch.Type = Decreased
		default:
			ch.Type = Unchanged
		}
		changes = append(changes, ch)
	}
	return changes
}
