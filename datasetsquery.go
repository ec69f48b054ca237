package edgar13f

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strconv"

	"github.com/edgar13f/edgar13f/internal/bulkstore"
	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/infotable"
)

// This file answers the bulk source's questions (Holdings, Holders,
// Panel) from the store, with the amendment rule of pit.go (decide) run
// on the filings the store holds: the Data Sets carry every cover fact the
// rule needs, so it never asks for more.

// A BulkSnapshot is [Datasets.Holdings]'s answer: a [Snapshot] as
// [Client.Holdings] gives it, and how far the imported windows reach.
type BulkSnapshot struct {
	Snapshot
	DataFrom    Date // first filing date of the imported span (see [Coverage])
	DataThrough Date // last filing date covered without a gap from DataFrom
	Complete    bool // every filing date of the period through AsOf is in the span ([Coverage.Complete])
}

// Holdings returns cik's holdings for period as known on asOf, from the
// imported windows, by the rules and in the shape of [Client.Holdings]
// (the same options, declines and citations; Reconciliations too, see
// below).
//
// The answer rests on the filings dated from the day after the period end
// through asOf, and on whether the CIK had filed anything by asOf. When
// the first of those dates precede the imported span, or asOf does, it
// fails with a [*CoverageError] (the filings that decide the answer may
// not be imported). When asOf is after DataThrough, the answer (or
// decline) is the one known on DataThrough and Complete is false. A CIK
// with no filing in the span declines [UnknownCIK]: the Data Sets cannot
// tell a CIK that never filed from one whose filings all precede them,
// and the message names the span.
//
// Reconciliations count each source table before redaction, as the
// per-manager path does: the store records every filing's row count and
// value sum at import, redacted rows included.
func (d *Datasets) Holdings(ctx context.Context, cik string, period, asOf Date, opts ...Option) (*BulkSnapshot, error) {
	q, err := newQuery(cik, map[string]Date{"period": period, "asOf": asOf}, []Date{period}, opts)
	if err != nil {
		return nil, err
	}
	st, cov, err := d.open(ctx, asOf)
	if err != nil {
		return nil, err
	}
	if err := cov.check(period, asOf, true); err != nil {
		return nil, err
	}
	read := cov.readAsOf(asOf)
	complete := cov.Complete(period, asOf)
	fs, err := st.Filings(cikNumber(q.cik), read.day())
	if err != nil {
		return nil, err
	}
	dec := d.decideFn()(fs, period, read)
	var de *DeclineError
	if errors.As(dec.err, &de) && (!complete || de.Reason == UnknownCIK) {
		// Say what the decline rests on: the span imported.
		only := ""
		if !complete {
			only = " only"
		}
		return nil, &DeclineError{Reason: de.Reason, Message: fmt.Sprintf("%s (from the Form 13F Data Sets imported, which cover filings from %s through %s%s)", de.Message, cov.DataFrom, cov.DataThrough, only)}
	}
	if dec.err != nil {
		return nil, dec.err
	}
	src := sourcesOf(dec.res, fs)
	rows, err := st.Rows(src)
	if err != nil {
		return nil, err
	}
	snap := &BulkSnapshot{Snapshot: Snapshot{CIK: q.cik, Period: period, AsOf: asOf}, DataFrom: cov.DataFrom, DataThrough: cov.DataThrough, Complete: complete}
	snap.Holdings = make([]Holding, 0, len(rows))
	for i := range rows {
		snap.Holdings = append(snap.Holdings, holdingOfRow(&rows[i]))
	}
	for _, f := range src {
		c := citationOf(q.cik, f)
		snap.Sources = append(snap.Sources, c)
		snap.Reconciliations = append(snap.Reconciliations, reconcileBulk(c, f))
	}
	snap.Base = snap.Sources[0]
	q.filterSnapshot(&snap.Snapshot)
	return snap, nil
}

// ErrNotImported is matched (with [errors.Is]) by the [*CoverageError] of
// the queries of [Datasets] when no window is imported: the bulk source
// knows nothing yet. [Datasets.SyncFor] imports what a question needs,
// [Datasets.Sync] a range of filing dates.
var ErrNotImported = errors.New("edgar13f: no Form 13F Data Sets window is imported yet (import with Datasets.SyncFor or Datasets.Sync)")

// open opens the store and the windows a question as of asOf reads, and
// reads the coverage. A window found damaged is moved aside by the store
// (the next Sync or SyncFor imports it again), so the coverage read after
// it says what the answer can rest on.
func (d *Datasets) open(ctx context.Context, asOf Date) (*bulkstore.Store, Coverage, error) {
	st, err := d.store()
	if err != nil {
		return nil, Coverage{}, err
	}
	if _, err := st.OpenWindows(asOf.day()); err != nil {
		return nil, Coverage{}, err
	}
	cov, err := d.Coverage(ctx)
	return st, cov, err
}

// decideBulk runs the amendment rule (decide) on one CIK's filings from
// the store. Every filing's cover facts are known, so it always decides.
func decideBulk(fs []bulkstore.Filing, period, asOf Date) decision {
	listed := make([]listedFiling, len(fs))
	covers := make(map[string]coverFacts, len(fs))
	for i, f := range fs {
		l := listedFiling{Accession: f.Accession, Form: Form(f.Form), FilingDate: dateOfDay(f.FilingDate), Period: dateOfDay(f.Period)}
		listed[i] = l
		if l.Form.isHoldingsReport() {
			covers[f.Accession] = coverFacts{Period: l.Period, AmendmentNo: int(f.AmendmentNo), Kind: kindOf(l.Form, AmendmentType(f.AmendmentType))}
		}
	}
	d := decide(listed, period, asOf, covers)
	if len(d.need) > 0 { // cannot happen: every cover is given
		d.err = errors.New("edgar13f: bulk source: the amendment rule asked for a cover the Data Sets hold")
	}
	return d
}

// decideFn returns the amendment rule the queries apply: decideBulk, or
// what a test put in its place.
func (d *Datasets) decideFn() func([]bulkstore.Filing, Date, Date) decision {
	if d.decide != nil {
		return d.decide
	}
	return decideBulk
}

// resolver returns the amendment rule as a bulkstore.Resolver, for
// Holders and Panel: a decline leaves the manager out of the answer (it
// holds nothing for the period as of asOf); any other error fails the
// query, so that no manager is left out because its rule failed.
func (d *Datasets) resolver() bulkstore.Resolver {
	decide := d.decideFn()
	return func(fs []bulkstore.Filing, period, asOf civil.Day) (bulkstore.Resolution, error) {
		dec := decide(fs, dateOfDay(period), dateOfDay(asOf))
		var de *DeclineError
		switch {
		case errors.As(dec.err, &de):
			return bulkstore.Resolution{Reason: string(de.Reason)}, nil
		case dec.err != nil:
			return bulkstore.Resolution{}, dec.err
		}
		r := bulkstore.Resolution{Base: dec.res.Base.Accession}
		for _, s := range dec.res.Supplements {
			r.Supplements = append(r.Supplements, s.Accession)
		}
		return r, nil
	}
}

// sourcesOf returns the store's filings of a resolution: base, then
// supplements.
func sourcesOf(res resolution, fs []bulkstore.Filing) []bulkstore.Filing {
	want := append([]classified{res.Base}, res.Supplements...)
	out := make([]bulkstore.Filing, 0, len(want))
	for _, w := range want {
		for _, f := range fs {
			if f.Accession == w.Accession {
				out = append(out, f)
				break
			}
		}
	}
	return out
}

// reconcileBulk checks a source filing's table, as tallied at import
// before redaction, against the totals its cover states.
func reconcileBulk(c Citation, f bulkstore.Filing) Reconciliation {
	return reconcile(c, Totals{Stated: f.HasTotals, Entries: f.TableEntryTotal, Value: f.TableValueTotal},
		infotable.Tally{Rows: f.TableRows, Value: f.TableValue})
}

// citationOf cites a filing of the store.
func citationOf(cik string, f bulkstore.Filing) Citation {
	return Citation{Accession: f.Accession, Form: Form(f.Form), FilingDate: dateOfDay(f.FilingDate), URL: indexURL(cik, f.Accession)}
}

// holdingOfRow converts a stored row.
func holdingOfRow(r *bulkstore.Row) Holding {
	return Holding{
		Accession:            r.Accession,
		FilingDate:           dateOfDay(r.FilingDate),
		NameOfIssuer:         r.NameOfIssuer,
		TitleOfClass:         r.TitleOfClass,
		CUSIP:                r.CUSIP,
		FIGI:                 r.FIGI,
		Value:                r.Value,
		SharesOrPrincipal:    r.Shares,
		ShPrn:                ShPrn(r.ShPrn),
		PutCall:              PutCall(r.PutCall),
		InvestmentDiscretion: r.InvestmentDiscretion,
		OtherManager:         r.OtherManager,
		VotingSole:           r.VotingSole,
		VotingShared:         r.VotingShared,
		VotingNone:           r.VotingNone,
	}
}

// The range of [Limit] for [Datasets.Holders].
const (
	MaxHolders     = 500 // largest [Limit] of [Datasets.Holders]
	DefaultHolders = 100 // holders [Datasets.Holders] returns without [Limit]
)

// Former names of [MaxHolders] and [DefaultHolders].
//
// Deprecated: use [MaxHolders] and [DefaultHolders].
const (
	MaxHoldersLimit   = MaxHolders
	DefaultMaxHolders = DefaultHolders
)

// A HoldersOption configures [Datasets.Holders]: [Limit].
type HoldersOption interface{ applyHolders(*holdersOptions) }

type holdersOptions struct {
	max    int
	maxSet bool
}

// A Holder is one manager's position in a security for a period: the rows
// of its effective holdings with the CUSIP that share a put/call and SH/PRN.
type Holder struct {
	CIK         string     // without leading zeros
	ManagerName string     // on the base's cover
	Base        Citation   // the manager's base report for the period
	Sources     []Citation // base, then new-holdings supplements
	PutCall     PutCall    // "" unless an option
	ShPrn       ShPrn
	Shares      int64     // summed as filed
	ValueUSD    int64     // summed value in whole dollars, each row by its own filing's date
	Holdings    []Holding // the rows as filed, base first, each filing's rows in filed order
}

// A HolderList is [Datasets.Holders]'s answer.
type HolderList struct {
	CUSIP        string // as asked
	Period, AsOf Date
	DataFrom     Date // first filing date of the imported span (see [Coverage])
	DataThrough  Date // last filing date covered without a gap from DataFrom
	Complete     bool // every filing date of the period through AsOf is in the span ([Coverage.Complete])
	TotalHolders int  // holders before the MaxHolders cut
	Holders      []Holder
}

// Holders returns every manager whose effective holdings for period, as
// known on asOf, hold the CUSIP (compared case-insensitively): one entry
// per (CIK, put/call, SH/PRN), ordered by summed value in dollars
// descending, then CIK (numerically), put/call (none first) and SH/PRN.
// Each manager's holdings are resolved exactly as [Client.Holdings]
// resolves them. A redacted CUSIP is an ordinary answer with no holders.
// It declines InvalidArgument for a malformed CUSIP or date or an
// out-of-range MaxHolders, and InvalidPeriod for a period that is not a
// quarter end.
//
// The answer rests on the period's filings dated from the day after the
// period end through asOf. When the first of those dates precede the
// imported span ([Coverage]), it fails with a [*CoverageError]: a list
// missing the managers whose reports precede the span is not given. When
// asOf is after DataThrough, the list is the one known on DataThrough and
// Complete is false. A manager whose holdings cannot be resolved (anything
// but a decline) fails the query: no manager is left out of the list
// because its rule failed.
func (d *Datasets) Holders(ctx context.Context, cusip string, period, asOf Date, opts ...HoldersOption) (*HolderList, error) {
	o := holdersOptions{max: DefaultHolders}
	for _, opt := range opts {
		if opt != nil {
			opt.applyHolders(&o)
		}
	}
	if !isCUSIP(cusip) {
		return nil, declinef(InvalidArgument, "CUSIP %q must be 9 letters or digits", cusip)
	}
	if err := checkPeriodAsOf(period, asOf); err != nil {
		return nil, err
	}
	if o.max < 1 || o.max > MaxHolders {
		return nil, declinef(InvalidArgument, "Limit %d is outside 1 to %d", o.max, MaxHolders)
	}
	if !period.IsQuarterEnd() {
		return nil, declinef(InvalidPeriod, "period %s is not a calendar quarter end (03-31, 06-30, 09-30 or 12-31)", period)
	}
	st, cov, err := d.open(ctx, asOf)
	if err != nil {
		return nil, err
	}
	if err := cov.Check(period, asOf); err != nil {
		return nil, err
	}
	hs, err := st.Holders(cusip, period.day(), cov.readAsOf(asOf).day(), d.resolver())
	if err != nil {
		return nil, err
	}
	out := &HolderList{CUSIP: cusip, Period: period, AsOf: asOf, DataFrom: cov.DataFrom, DataThrough: cov.DataThrough,
		Complete: cov.Complete(period, asOf), TotalHolders: len(hs), Holders: []Holder{}}
	for _, h := range hs[:min(len(hs), o.max)] {
		cik := itoa(h.CIK)
		x := Holder{CIK: cik, ManagerName: h.ManagerName, Base: citationOf(cik, h.Base), PutCall: PutCall(h.PutCall),
			ShPrn: ShPrn(h.ShPrn), Shares: h.Shares, ValueUSD: h.ValueUSD}
		for _, f := range h.Sources {
			x.Sources = append(x.Sources, citationOf(cik, f))
		}
		for i := range h.Rows {
			x.Holdings = append(x.Holdings, holdingOfRow(&h.Rows[i]))
		}
		out.Holders = append(out.Holders, x)
	}
	return out, nil
}

// A PanelRow is one row of a period's panel: a manager, the base report
// its rows resolve to, and one row of its effective holdings as filed.
type PanelRow struct {
	CIK         string // without leading zeros
	ManagerName string // on the base's cover
	Base        string // accession of the manager's base report
	Holding            // the row as filed, with its own filing's accession and date
	ValueUSD    int64  // Holding.Value in whole dollars by the row's filing date
}

// Panel streams every manager's effective holdings for period as known on
// asOf: by CIK (numerically), each manager's rows base first then each
// supplement, each filing's rows in filed order, resolved exactly as
// [Client.Holdings] resolves them. It holds one manager's rows at a time,
// never the panel. A decline (a malformed date, a period that is not a
// quarter end), a [*CoverageError] (as for [Datasets.Holders]: the
// period's first filing dates precede the imported span) or a failure (a
// manager whose holdings cannot be resolved among them: every manager is
// resolved before the first row) is yielded as the error of a last pair. The coverage of the answer is
// [Datasets.Coverage]: when asOf is after DataThrough the panel is the one
// known on DataThrough ([Coverage.Complete] is false).
func (d *Datasets) Panel(ctx context.Context, period, asOf Date) iter.Seq2[PanelRow, error] {
	return func(yield func(PanelRow, error) bool) {
		if err := checkPeriodAsOf(period, asOf); err != nil {
			yield(PanelRow{}, err)
			return
		}
		if !period.IsQuarterEnd() {
			yield(PanelRow{}, declinef(InvalidPeriod, "period %s is not a calendar quarter end (03-31, 06-30, 09-30 or 12-31)", period))
			return
		}
		st, cov, err := d.open(ctx, asOf)
		if err == nil {
			err = cov.Check(period, asOf)
		}
		if err != nil {
			yield(PanelRow{}, err)
			return
		}
		read := cov.readAsOf(asOf).day()
		// Manager names by base accession: the period's filing list, one
		// entry per filing, not per row.
		fs, err := st.PeriodFilings(period.day(), read)
		if err != nil {
			yield(PanelRow{}, err)
			return
		}
		names := make(map[string]string, len(fs))
		for _, f := range fs {
			names[f.Accession] = f.ManagerName
		}
		var cik string
		var lastCIK int64 = -1
		for r, err := range st.Panel(period.day(), read, d.resolver()) {
			if err == nil {
				err = ctx.Err()
			}
			if err != nil {
				yield(PanelRow{}, err)
				return
			}
			if r.CIK != lastCIK {
				lastCIK, cik = r.CIK, itoa(r.CIK)
			}
			row := PanelRow{CIK: cik, ManagerName: names[r.Base], Base: r.Base, Holding: holdingOfRow(&r.Row), ValueUSD: r.ValueUSD}
			if !yield(row, nil) {
				return
			}
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
