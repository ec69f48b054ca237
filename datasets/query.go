package datasets

import (
	"context"
	"errors"
	"iter"
	"strconv"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/amend"
	"github.com/edgar13f/edgar13f/internal/bounds"
	"github.com/edgar13f/edgar13f/internal/bulkstore"
	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/edgarid"
	"github.com/edgar13f/edgar13f/internal/infotable"
)

// This file answers the bulk source's questions (Holdings, Holders,
// Panel) from the store, with the amendment rule of package edgar13f run
// on the filings the store holds: the Data Sets carry every cover fact the
// rule needs, so it never asks for more.

// A Snapshot is [Store.Holdings]'s answer: an [edgar13f.Snapshot] as
// [edgar13f.Client.Holdings] gives it, and how far the imported windows
// reach.
type Snapshot struct {
	edgar13f.Snapshot
	DataFrom    edgar13f.Date // first filing date of the imported span (see [Coverage])
	DataThrough edgar13f.Date // last filing date covered without a gap from DataFrom
	Complete    bool          // every filing date of the period through AsOf is in the span ([Coverage.Complete])
}

// Holdings returns cik's holdings for period as known on asOf, from the
// imported windows, by the rules and in the shape of
// [edgar13f.Client.Holdings] (the same options, declines and citations;
// Reconciliations too, see below).
//
// The answer rests on the filings dated from the day after the period end
// through asOf, and on whether the CIK had filed anything by asOf. When
// the first of those dates precede the imported span, or asOf does, it
// fails with a [*CoverageError] (the filings that decide the answer may
// not be imported). When asOf is after DataThrough, the answer (or
// decline) is the one known on DataThrough and Complete is false. A CIK
// with no filing in the span declines [edgar13f.UnknownCIK]: the Data Sets
// cannot tell a CIK that never filed from one whose filings all precede
// them, and the message names the span.
//
// Reconciliations count each source table before redaction, as the
// per-manager path does: the store records every filing's row count and
// value sum at import, redacted rows included.
func (s *Store) Holdings(ctx context.Context, cik string, period, asOf edgar13f.Date, opts ...edgar13f.Option) (*Snapshot, error) {
	cik, filter, err := holdingsQuery(cik, period, asOf, opts)
	if err != nil {
		return nil, err
	}
	cov, err := s.open(ctx, asOf)
	if err != nil {
		return nil, err
	}
	if err := cov.check(period, asOf, true); err != nil {
		return nil, err
	}
	read := cov.readAsOf(asOf)
	complete := cov.Complete(period, asOf)
	n, _ := strconv.ParseInt(cik, 10, 64) // checked by holdingsQuery
	fs, err := s.st.Filings(n, dayOf(read))
	if err != nil {
		return nil, err
	}
	base, supplements, err := s.resolve(ruleFilings(fs), dayOf(period), dayOf(read))
	var de *edgar13f.DeclineError
	if errors.As(err, &de) && (!complete || de.Reason == edgar13f.UnknownCIK) {
		// Say what the decline rests on: the span imported.
		only := ""
		if !complete {
			only = " only"
		}
		return nil, edgar13f.Decline(de.Reason, "%s (from the Form 13F Data Sets imported, which cover filings from %s through %s%s)", de.Message, cov.DataFrom, cov.DataThrough, only)
	}
	if err != nil {
		return nil, err
	}
	src := []bulkstore.Filing{fs[base]}
	for _, i := range supplements {
		src = append(src, fs[i])
	}
	rows, err := s.st.Rows(src)
	if err != nil {
		return nil, err
	}
	snap := &Snapshot{Snapshot: edgar13f.Snapshot{CIK: cik, Period: period, AsOf: asOf}, DataFrom: cov.DataFrom, DataThrough: cov.DataThrough, Complete: complete}
	snap.Holdings = make([]edgar13f.Holding, 0, len(rows))
	for i := range rows {
		snap.Holdings = append(snap.Holdings, holdingOf(&rows[i]))
	}
	for _, f := range src {
		c := citationOf(cik, f)
		snap.Sources = append(snap.Sources, c)
		snap.Reconciliations = append(snap.Reconciliations, reconcile(c, f))
	}
	snap.Base = snap.Sources[0]
	filter(&snap.Snapshot)
	return snap, nil
}

// open opens the windows a question as of asOf reads, and reads the
// coverage. A window found damaged is moved aside by the store (the next
// Sync or SyncFor imports it again), so the coverage read after it says
// what the answer can rest on.
func (s *Store) open(ctx context.Context, asOf edgar13f.Date) (Coverage, error) {
	if _, err := s.st.OpenWindows(dayOf(asOf)); err != nil {
		return Coverage{}, err
	}
	return s.Coverage(ctx)
}

// ruleFilings gives one CIK's filings of the store to the amendment rule.
func ruleFilings(fs []bulkstore.Filing) []amend.Filing {
	out := make([]amend.Filing, len(fs))
	for i, f := range fs {
		out[i] = amend.Filing{Accession: f.Accession, Form: f.Form, FilingDate: f.FilingDate, Period: f.Period,
			AmendmentNo: int(f.AmendmentNo), AmendmentType: f.AmendmentType}
	}
	return out
}

// resolver returns the amendment rule as a bulkstore.Resolver, for
// Holders and Panel: a decline leaves the manager out of the answer (it
// holds nothing for the period as of asOf); any other error fails the
// query, so that no manager is left out because its rule failed.
func (s *Store) resolver() bulkstore.Resolver {
	return func(fs []bulkstore.Filing, period, asOf civil.Day) (bulkstore.Resolution, error) {
		base, supplements, err := s.resolve(ruleFilings(fs), period, asOf)
		var de *edgar13f.DeclineError
		switch {
		case errors.As(err, &de):
			return bulkstore.Resolution{Reason: string(de.Reason)}, nil
		case err != nil:
			return bulkstore.Resolution{}, err
		}
		r := bulkstore.Resolution{Base: fs[base].Accession}
		for _, i := range supplements {
			r.Supplements = append(r.Supplements, fs[i].Accession)
		}
		return r, nil
	}
}

// reconcile checks a source filing's table, as tallied at import before
// redaction, against the totals its cover states.
func reconcile(c edgar13f.Citation, f bulkstore.Filing) edgar13f.Reconciliation {
	t := infotable.Tally{Rows: f.TableRows, Value: f.TableValue}
	return edgar13f.Reconciliation{Citation: c,
		Cover:   edgar13f.Totals{Stated: f.HasTotals, Entries: f.TableEntryTotal, Value: f.TableValueTotal},
		Matched: t.Matches(f.HasTotals, f.TableEntryTotal, f.TableValueTotal)}
}

// citationOf cites a filing of the store.
func citationOf(cik string, f bulkstore.Filing) edgar13f.Citation {
	return edgar13f.Citation{Accession: f.Accession, Form: edgar13f.Form(f.Form), FilingDate: dateOf(f.FilingDate), URL: edgarid.IndexURL(cik, f.Accession)}
}

// holdingOf converts a stored row.
func holdingOf(r *bulkstore.Row) edgar13f.Holding {
	return edgar13f.Holding{
		Accession:            r.Accession,
		FilingDate:           dateOf(r.FilingDate),
		NameOfIssuer:         r.NameOfIssuer,
		TitleOfClass:         r.TitleOfClass,
		CUSIP:                r.CUSIP,
		FIGI:                 r.FIGI,
		Value:                r.Value,
		ValueUSD:             r.ValueUSD,
		SharesOrPrincipal:    r.Shares,
		ShPrn:                edgar13f.ShPrn(r.ShPrn),
		PutCall:              edgar13f.PutCall(r.PutCall),
		InvestmentDiscretion: r.InvestmentDiscretion,
		OtherManager:         r.OtherManager,
		VotingSole:           r.VotingSole,
		VotingShared:         r.VotingShared,
		VotingNone:           r.VotingNone,
	}
}

// The range of [Limit] for [Store.Holders].
const (
	MaxHolders     = 500 // largest Limit
	DefaultHolders = 100 // holders returned without Limit
)

// A HoldersOption configures [Store.Holders]: [Limit].
type HoldersOption interface{ applyHolders(*holdersOptions) }

type holdersOptions struct {
	limit int
}

type holdersOption func(*holdersOptions)

func (f holdersOption) applyHolders(o *holdersOptions) { f(o) }

// Limit answers at most n holders, the first n in the answer's order: 1
// to [MaxHolders]; without it, [DefaultHolders]. Outside that range
// [Store.Holders] declines [edgar13f.InvalidArgument]. It is "at most n",
// as [edgar13f.Limit] is for the questions of package edgar13f.
func Limit(n int) HoldersOption {
	return holdersOption(func(o *holdersOptions) { o.limit = n })
}

// A Holder is one manager's position in a security for a period: the rows
// of its effective holdings with the CUSIP that share a put/call and SH/PRN.
type Holder struct {
	CIK         string              // without leading zeros
	ManagerName string              // on the base's cover
	Base        edgar13f.Citation   // the manager's base report for the period
	Sources     []edgar13f.Citation // base, then new-holdings supplements
	PutCall     edgar13f.PutCall    // "" unless an option
	ShPrn       edgar13f.ShPrn
	Shares      int64              // summed as filed
	ValueUSD    int64              // summed value in whole dollars, each row by its own filing's date
	Holdings    []edgar13f.Holding // the rows as filed, base first, each filing's rows in filed order
}

// A HolderList is [Store.Holders]'s answer.
type HolderList struct {
	CUSIP        string // as asked
	Period, AsOf edgar13f.Date
	DataFrom     edgar13f.Date // first filing date of the imported span (see [Coverage])
	DataThrough  edgar13f.Date // last filing date covered without a gap from DataFrom
	Complete     bool          // every filing date of the period through AsOf is in the span ([Coverage.Complete])
	TotalHolders int           // holders before the Limit cut
	Holders      []Holder
}

// Holders returns every manager whose effective holdings for period, as
// known on asOf, hold the CUSIP (compared case-insensitively): one entry
// per (CIK, put/call, SH/PRN), ordered by summed value in dollars
// descending, then CIK (numerically), put/call (none first) and SH/PRN.
// Each manager's holdings are resolved exactly as
// [edgar13f.Client.Holdings] resolves them. A redacted CUSIP is an
// ordinary answer with no holders. It declines
// [edgar13f.InvalidArgument] for a malformed CUSIP or date or an
// out-of-range [Limit], and [edgar13f.InvalidPeriod] for a period that is
// not a quarter end.
//
// The answer rests on the period's filings dated from the day after the
// period end through asOf. When the first of those dates precede the
// imported span ([Coverage]), it fails with a [*CoverageError]: a list
// missing the managers whose reports precede the span is not given. When
// asOf is after DataThrough, the list is the one known on DataThrough and
// Complete is false. A manager whose holdings cannot be resolved (anything
// but a decline) fails the query: no manager is left out of the list
// because its rule failed.
func (s *Store) Holders(ctx context.Context, cusip string, period, asOf edgar13f.Date, opts ...HoldersOption) (*HolderList, error) {
	o := holdersOptions{limit: DefaultHolders}
	for _, opt := range opts {
		if opt != nil {
			opt.applyHolders(&o)
		}
	}
	if !edgarid.IsCUSIP(cusip) {
		return nil, edgar13f.Decline(edgar13f.InvalidArgument, "CUSIP %q must be 9 letters or digits", cusip)
	}
	if err := checkPeriodAsOf(period, asOf); err != nil {
		return nil, err
	}
	if err := bounds.Check("Limit", o.limit, 1, MaxHolders); err != nil {
		return nil, edgar13f.Decline(edgar13f.InvalidArgument, "%v", err)
	}
	if err := checkQuarterEnd(period); err != nil {
		return nil, err
	}
	cov, err := s.open(ctx, asOf)
	if err != nil {
		return nil, err
	}
	if err := cov.Check(period, asOf); err != nil {
		return nil, err
	}
	hs, err := s.st.Holders(cusip, dayOf(period), dayOf(cov.readAsOf(asOf)), s.resolver())
	if err != nil {
		return nil, err
	}
	out := &HolderList{CUSIP: cusip, Period: period, AsOf: asOf, DataFrom: cov.DataFrom, DataThrough: cov.DataThrough,
		Complete: cov.Complete(period, asOf), TotalHolders: len(hs), Holders: []Holder{}}
	for _, h := range hs[:min(len(hs), o.limit)] {
		cik := strconv.FormatInt(h.CIK, 10)
		x := Holder{CIK: cik, ManagerName: h.ManagerName, Base: citationOf(cik, h.Base), PutCall: edgar13f.PutCall(h.PutCall),
			ShPrn: edgar13f.ShPrn(h.ShPrn), Shares: h.Shares, ValueUSD: h.ValueUSD}
		for _, f := range h.Sources {
			x.Sources = append(x.Sources, citationOf(cik, f))
		}
		for i := range h.Rows {
			x.Holdings = append(x.Holdings, holdingOf(&h.Rows[i]))
		}
		out.Holders = append(out.Holders, x)
	}
	return out, nil
}

// A PanelRow is one row of a period's panel: a manager, the base report
// its rows resolve to, and one row of its effective holdings as filed
// (with its value in whole dollars, ValueUSD).
type PanelRow struct {
	CIK              string // without leading zeros
	ManagerName      string // on the base's cover
	Base             string // accession of the manager's base report
	edgar13f.Holding        // the row as filed, with its own filing's accession and date
}

// Panel streams every manager's effective holdings for period as known on
// asOf: by CIK (numerically), each manager's rows base first then each
// supplement, each filing's rows in filed order, resolved exactly as
// [edgar13f.Client.Holdings] resolves them. It holds one manager's rows at
// a time, never the panel. A decline (a malformed date, a period that is
// not a quarter end), a [*CoverageError] (as for [Store.Holders]: the
// period's first filing dates precede the imported span) or a failure (a
// manager whose holdings cannot be resolved among them: every manager is
// resolved before the first row) is yielded as the error of a last pair.
// The coverage of the answer is [Store.Coverage]: when asOf is after
// DataThrough the panel is the one known on DataThrough
// ([Coverage.Complete] is false).
func (s *Store) Panel(ctx context.Context, period, asOf edgar13f.Date) iter.Seq2[PanelRow, error] {
	return func(yield func(PanelRow, error) bool) {
		if err := checkPeriodAsOf(period, asOf); err != nil {
			yield(PanelRow{}, err)
			return
		}
		if err := checkQuarterEnd(period); err != nil {
			yield(PanelRow{}, err)
			return
		}
		cov, err := s.open(ctx, asOf)
		if err == nil {
			err = cov.Check(period, asOf)
		}
		if err != nil {
			yield(PanelRow{}, err)
			return
		}
		read := dayOf(cov.readAsOf(asOf))
		// Manager names by base accession: the period's filing list, one
		// entry per filing, not per row.
		fs, err := s.st.PeriodFilings(dayOf(period), read)
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
		for r, err := range s.st.Panel(dayOf(period), read, s.resolver()) {
			if err == nil {
				err = ctx.Err()
			}
			if err != nil {
				yield(PanelRow{}, err)
				return
			}
			if r.CIK != lastCIK {
				lastCIK, cik = r.CIK, strconv.FormatInt(r.CIK, 10)
			}
			row := PanelRow{CIK: cik, ManagerName: names[r.Base], Base: r.Base, Holding: holdingOf(&r.Row)}
			if !yield(row, nil) {
				return
			}
		}
	}
}
