package frames

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/companyfacts"
	"github.com/edgar13f/edgar13f/internal/docerr"
	"github.com/edgar13f/edgar13f/internal/factstore"
)

// ErrNotImported is wrapped by the error of a question to a store with
// nothing imported; the error says how to import.
var ErrNotImported = errors.New(docerr.Prefix + "no company facts imported")

// Disclaimer is stated by every frame.
const Disclaimer = "Values as filed in XBRL company facts on or before as_of; not investment advice. " +
	"Entity names are as EDGAR gives them today, not point in time."

// Limits of a frame's length.
const (
	DefaultLimit = 100
	MaxLimit     = 10000
)

// Orders of a frame.
const (
	OrderCIK       = "cik"        // by CIK, ascending (the default)
	OrderValueDesc = "value_desc" // by value, largest first, then CIK
)

// A Frame is one fact for every company that reported it, as it could
// have been known on AsOf.
type Frame struct {
	Concept        string        // the alias, or the tag taxonomy:Name, as resolved
	Period         string        // CY2023, CY2023Q4 or CY2023Q4I
	Unit           string        // the unit of every value
	AsOf           edgar13f.Date // the knowledge date asked for
	DataThrough    edgar13f.Date // the latest filed date in the store
	Complete       bool          // AsOf is on or before DataThrough
	TotalCompanies int           // companies in the frame, before Limit
	Truncated      bool          // Limit cut the frame
	Companies      []Company
	Disclaimer     string
}

// A Company is one company's value in a frame.
type Company struct {
	CIK         string        // 10 digits
	EntityName  string        // as EDGAR gives it today (not point in time)
	Tag         string        // taxonomy:Name of the value as known
	PeriodStart edgar13f.Date // zero for an instant
	PeriodEnd   edgar13f.Date
	// Value is the value as known on asOf, exactly as filed (a decimal
	// number's text); ValueFloat is the same as a float.
	Value      string
	ValueFloat float64
	Accession  string // of the filing that reported Value
	Form       string
	Filed      edgar13f.Date
	// The value of the period as first reported (the same tag).
	FirstReportedValue     string
	FirstReportedAccession string
	FirstReportedFiled     edgar13f.Date
	Restated               bool // Value differs from FirstReportedValue
}

// An Option refines a frame: [Unit], [Limit], [Order].
type Option interface{ apply(*frameOptions) }

type option func(*frameOptions)

func (f option) apply(o *frameOptions) { f(o) }

type frameOptions struct {
	unit         string
	unitSet      bool
	limit        int
	limitSet     bool
	order        string
	orderOrLimit bool
}

// Unit names the unit of the values (USD, USD/shares, shares, EUR, pure,
// ...). Without it, the unit is USD, or USD/shares for per-share aliases
// and tags whose name holds "PerShare", or shares for share-count aliases.
func Unit(u string) Option { return option(func(o *frameOptions) { o.unit, o.unitSet = u, true }) }

// Limit keeps the first n companies (1 to MaxLimit; default DefaultLimit)
// after ordering; the frame says Truncated when it cut any.
func Limit(n int) Option {
	return option(func(o *frameOptions) { o.limit, o.limitSet, o.orderOrLimit = n, true, true })
}

// Order orders the companies: OrderCIK (the default) or OrderValueDesc.
func Order(order string) Option {
	return option(func(o *frameOptions) { o.order, o.orderOrLimit = order, true })
}

// query is a checked frame question.
type query struct {
	concept string // as resolved
	tags    []tagRef
	period  period
	unit    string
	asOf    civil.Day
	limit   int
	order   string
}

type tagRef struct{ taxonomy, name string }

func (t tagRef) String() string { return t.taxonomy + ":" + t.name }

// check checks the arguments of a frame question in the precedence of the
// declines: invalid_argument (date, period, unit, limit, order) first.
func check(concept, periodName string, asOf edgar13f.Date, opts []Option) (query, error) {
	var o frameOptions
	for _, opt := range opts {
		if opt != nil {
			opt.apply(&o)
		}
	}
	if !asOf.IsValid() {
		return query{}, edgar13f.Decline(edgar13f.InvalidArgument, "as_of %s is not a calendar date", asOf)
	}
	p, err := parsePeriod(periodName)
	if err != nil {
		return query{}, edgar13f.Decline(edgar13f.InvalidArgument, "%v", err)
	}
	q := query{period: p, asOf: civil.DayOf(asOf.Year, asOf.Month, asOf.Day), limit: DefaultLimit, order: OrderCIK}
	if o.unitSet && !validUnit(o.unit) {
		return query{}, edgar13f.Decline(edgar13f.InvalidArgument, "unit %q is not a unit name (USD, USD/shares, shares, EUR, pure, ...)", o.unit)
	}
	if o.limitSet {
		if o.limit < 1 || o.limit > MaxLimit {
			return query{}, edgar13f.Decline(edgar13f.InvalidArgument, "limit %d is not in 1-%d", o.limit, MaxLimit)
		}
		q.limit = o.limit
	}
	switch o.order {
	case "", OrderCIK:
	case OrderValueDesc:
		q.order = OrderValueDesc
	default:
		return query{}, edgar13f.Decline(edgar13f.InvalidArgument, "order %q is not %s or %s", o.order, OrderCIK, OrderValueDesc)
	}
	q.concept, q.tags, q.unit = resolveConcept(concept)
	if o.unitSet {
		q.unit = o.unit
	}
	return q, nil
}

// Concept resolves concept as [Store.Frame] does: the name a frame
// reports, the tags (taxonomy:Name) that stand for it in order of
// preference, and the unit used when none is named. A concept that is no
// alias and no well-formed tag has no tags. (The SQL of sql/frame_asof.sql
// takes the tags and unit as parameters.)
func Concept(concept string) (name string, tags []string, unit string) {
	name, refs, unit := resolveConcept(concept)
	for _, t := range refs {
		tags = append(tags, t.String())
	}
	return name, tags, unit
}

// validUnit reports whether u can be a companyfacts unit key.
func validUnit(u string) bool {
	if u == "" || len(u) > 64 {
		return false
	}
	for i := 0; i < len(u); i++ {
		c := u[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("/_-.*", c) >= 0) {
			return false
		}
	}
	return true
}

// resolveConcept reads an alias of section 11 (any case, synonyms too),
// a tag taxonomy:Name, or a bare Name (us-gaap). It returns the name to
// report, the tags in order, and the default unit. A concept that is no
// alias and not a well-formed tag gets no tags (no company has it).
func resolveConcept(s string) (string, []tagRef, string) {
	s = strings.TrimSpace(s)
	low := strings.ToLower(s)
	for _, a := range companyfacts.Aliases() {
		if low != a.Name && !slices.Contains(a.Synonyms, low) {
			continue
		}
		var tags []tagRef
		for _, t := range a.Tags {
			tax, name, _ := strings.Cut(t, ":")
			tags = append(tags, tagRef{tax, name})
		}
		unit := "USD"
		switch a.Kind {
		case companyfacts.PerShare:
			unit = "USD/shares"
		case companyfacts.Shares:
			unit = "shares"
		}
		return a.Name, tags, unit
	}
	tax, name, ok := strings.Cut(s, ":")
	if !ok {
		tax, name = "us-gaap", s
	}
	if !companyfacts.ValidName(name) || !companyfacts.ValidTaxonomy(tax) {
		return s, nil, "USD"
	}
	unit := "USD"
	if strings.Contains(name, "PerShare") {
		unit = "USD/shares"
	}
	return tax + ":" + name, []tagRef{{tax, name}}, unit
}

// snapshot returns the store's snapshot, or the error saying how to
// import one.
func (s *Store) snapshot() (*factstore.Snapshot, error) {
	sn, err := s.st.Snapshot()
	if errors.Is(err, factstore.ErrEmpty) {
		return nil, fmt.Errorf("%w: the frames store %s holds nothing imported (%v): import EDGAR's companyfacts.zip with Store.Sync "+
			"(or a local copy with Store.ImportFile, or a few companies with Store.SyncCompanies; "+
			"from the command line: edgar13f frames sync [--companies CIK,...])", ErrNotImported, s.Dir(), err)
	}
	if err != nil {
		return nil, fmt.Errorf("%s%w", docerr.Prefix, err)
	}
	return sn, nil
}

// known reports whether any company has a fact of one of q's tags (in
// any unit) filed on or before asOf: a concept no company had on asOf
// declines unknown_concept, whatever was filed later.
func known(sn *factstore.Snapshot, q query) bool {
	for _, t := range q.tags {
		for _, u := range sn.Units(t.taxonomy, t.name) {
			if u.FirstFiled <= q.asOf || planted.lateConcept {
				return true
			}
		}
	}
	return false
}

// Frame answers concept (an alias of section 11 such as net_income, a
// tag us-gaap:NetIncomeLoss or ifrs-full:Revenue, or a bare name, read in
// us-gaap) for period (CY2023: a year; CY2023Q4: a quarter; CY2023Q4I:
// an instant near a quarter's end) as it could have been known on asOf.
//
// For each company, V is its facts of the concept's tags in the unit,
// filed on or before asOf, whose period fits the frame: for a year,
// durations of 335 to 395 days (end - start + 1) whose midpoint (start +
// (end - start)/2, rounded down) falls in the calendar year; for a
// quarter, durations of 70 to 110 days whose midpoint falls in the
// quarter; for an instant, instants dated within 45 days either side of
// the quarter's last day. A company with no such fact is not in the
// frame. Its period P is the (start, end) of V closest to the calendar
// period: smallest |end - the period's last day|, then smallest |days -
// 365, 91 or 0|, then the later end, then the later start. Among V's
// facts for P, the value as known is the one with the greatest (filed,
// accn), ties to the earlier tag of an alias's list (then the smaller
// value text); its tag is the company's tag. The first-reported value is
// the one with the smallest (filed, accn) among V's facts for P of that
// tag; Restated says the two differ in value. Nothing filed after asOf
// influences the answer: not the period chosen, not the tag, not a value,
// not a count, not a decline.
//
// Declines: invalid_argument for a malformed asOf, period, unit, limit or
// order; unknown_concept for an alias or tag no company in the store had
// used in a filing on or before asOf. A frame with no company is an
// ordinary answer. A store with nothing imported is an error saying how
// to import.
func (s *Store) Frame(ctx context.Context, concept, period string, asOf edgar13f.Date, opts ...Option) (*Frame, error) {
	q, err := check(concept, period, asOf, opts)
	if err != nil {
		return nil, err
	}
	sn, err := s.snapshot()
	if err != nil {
		return nil, err
	}
	if !known(sn, q) {
		return nil, edgar13f.Decline(edgar13f.UnknownConcept, "no company in the store had used %s in a filing on or before %s", q.concept, asOf)
	}
	f := &Frame{Concept: q.concept, Period: q.period.name, Unit: q.unit, AsOf: asOf, Disclaimer: Disclaimer, Companies: []Company{}}
	f.DataThrough, f.Complete = coverage(sn, q.asOf)
	for c, err := range rows(ctx, sn, q) {
		if err != nil {
			return nil, err
		}
		f.Companies = append(f.Companies, c)
	}
	if q.order == OrderValueDesc {
		slices.SortStableFunc(f.Companies, func(a, b Company) int { return cmp.Compare(b.ValueFloat, a.ValueFloat) })
	}
	f.TotalCompanies = len(f.Companies)
	if len(f.Companies) > q.limit {
		f.Companies, f.Truncated = f.Companies[:q.limit:q.limit], true
	}
	return f, nil
}

// coverage returns data_through and complete for asOf.
func coverage(sn *factstore.Snapshot, asOf civil.Day) (edgar13f.Date, bool) {
	if sn.DataThrough == 0 {
		return edgar13f.Date{}, false
	}
	return dateOf(sn.DataThrough), asOf <= sn.DataThrough
}

// Rows streams the frame of concept, period and asOf company by company
// in CIK order, by the rule of [Store.Frame], without building it: the
// whole frame (Limit and Order do not apply to a stream and are declined
// invalid_argument). A decline comes as the only element; an error
// while reading ends the stream as its last element.
func (s *Store) Rows(ctx context.Context, concept, period string, asOf edgar13f.Date, opts ...Option) iter.Seq2[Company, error] {
	return func(yield func(Company, error) bool) {
		q, sn, err := s.streamQuery(concept, period, asOf, opts)
		if err != nil {
			yield(Company{}, err)
			return
		}
		for c, err := range rows(ctx, sn, q) {
			if !yield(c, err) || err != nil {
				return
			}
		}
	}
}

func (s *Store) streamQuery(concept, period string, asOf edgar13f.Date, opts []Option) (query, *factstore.Snapshot, error) {
	var o frameOptions
	for _, opt := range opts {
		if opt != nil {
			opt.apply(&o)
		}
	}
	if o.orderOrLimit {
		return query{}, nil, edgar13f.Decline(edgar13f.InvalidArgument, "limit and order apply to Frame, not to a stream (which is whole, in CIK order)")
	}
	q, err := check(concept, period, asOf, opts)
	if err != nil {
		return query{}, nil, err
	}
	sn, err := s.snapshot()
	if err != nil {
		return query{}, nil, err
	}
	if !known(sn, q) {
		return query{}, nil, edgar13f.Decline(edgar13f.UnknownConcept, "no company in the store had used %s in a filing on or before %s", q.concept, asOf)
	}
	return q, sn, nil
}

// A PanelRow is one company's value for one period of a panel.
type PanelRow struct {
	Concept string
	Period  string
	Unit    string
	AsOf    edgar13f.Date
	Company
}

// Panel streams the frames of concept for each of periods, all as of
// asOf, one after the other: rows in (period as given, CIK) order, never
// built in memory. Every period is checked before the first row; a
// decline or error comes as the last element.
func (s *Store) Panel(ctx context.Context, concept string, periods []string, asOf edgar13f.Date, opts ...Option) iter.Seq2[PanelRow, error] {
	return func(yield func(PanelRow, error) bool) {
		if len(periods) == 0 {
			yield(PanelRow{}, edgar13f.Decline(edgar13f.InvalidArgument, "no period"))
			return
		}
		var qs []query
		var sn *factstore.Snapshot
		for _, p := range periods {
			q, snap, err := s.streamQuery(concept, p, asOf, opts)
			if err != nil {
				yield(PanelRow{}, err)
				return
			}
			qs, sn = append(qs, q), snap
		}
		for _, q := range qs {
			for c, err := range rows(ctx, sn, q) {
				if err != nil {
					yield(PanelRow{}, err)
					return
				}
				if !yield(PanelRow{Concept: q.concept, Period: q.period.name, Unit: q.unit, AsOf: asOf, Company: c}, nil) {
					return
				}
			}
		}
	}
}

// rows applies the rule company by company: the facts of each tag come in
// CIK order from the store, and are merged by CIK.
func rows(ctx context.Context, sn *factstore.Snapshot, q query) iter.Seq2[Company, error] {
	return func(yield func(Company, error) bool) {
		type head struct {
			next func() (factstore.Fact, bool)
			stop func()
			cur  factstore.Fact
			ok   bool
		}
		var errs []error
		heads := make([]*head, len(q.tags))
		for i, t := range q.tags {
			seq := func(yield func(factstore.Fact) bool) {
				err := sn.Facts(t.taxonomy, t.name, q.unit, func(f *factstore.Fact) bool {
					if !q.period.fits(f.Start, f.End) || f.Filed > q.asOf && !planted.seen(f.Filed, q.asOf) {
						return true
					}
					return yield(*f)
				})
				if err != nil {
					errs = append(errs, err)
				}
			}
			next, stop := iter.Pull(seq)
			h := &head{next: next, stop: stop}
			h.cur, h.ok = next()
			heads[i] = h
		}
		defer func() {
			for _, h := range heads {
				h.stop()
			}
		}()
		var group []candidate
		for n := 0; ; n++ {
			if n%256 == 0 {
				if err := ctx.Err(); err != nil {
					yield(Company{}, err)
					return
				}
			}
			cik := int64(-1)
			for _, h := range heads {
				if h.ok && (cik < 0 || h.cur.CIK < cik) {
					cik = h.cur.CIK
				}
			}
			if len(errs) > 0 {
				yield(Company{}, fmt.Errorf("%s%w", docerr.Prefix, errs[0]))
				return
			}
			if cik < 0 {
				return
			}
			group = group[:0]
			for i, h := range heads {
				for h.ok && h.cur.CIK == cik {
					group = append(group, candidate{Fact: h.cur, tag: i})
					h.cur, h.ok = h.next()
				}
			}
			c, ok := decide(sn, q, cik, group)
			if ok && !yield(c, nil) {
				return
			}
		}
	}
}

// candidate is a fact of V and the index of its tag in the concept's list.
type candidate struct {
	factstore.Fact
	tag int
}

// decide applies the rule to V, one company's visible fitting facts (and,
// only with a leak planted by a test, facts filed later); ok is false when
// no fact is left.
func decide(sn *factstore.Snapshot, q query, cik int64, v []candidate) (co Company, ok bool) {
	p := &v[0]
	for i := range v {
		if q.period.closer(v[i].Start, v[i].End, p.Start, p.End) {
			p = &v[i]
		}
	}
	start, end := p.Start, p.End
	var known *candidate
	for i := range v {
		c := &v[i]
		if c.Start != start || c.End != end || !planted.counts(c.Filed, q.asOf) {
			continue
		}
		if known == nil || laterKnown(c, known) {
			known = c
		}
	}
	if known == nil {
		return Company{}, false
	}
	var first *candidate
	for i := range v {
		c := &v[i]
		if c.Start != start || c.End != end || c.tag != known.tag || !planted.counts(c.Filed, q.asOf) {
			continue
		}
		if first == nil || earlier(c, first) {
			first = c
		}
	}
	co = Company{
		CIK:                    fmt.Sprintf("%010d", cik),
		EntityName:             sn.EntityName(cik),
		Tag:                    q.tags[known.tag].String(),
		PeriodEnd:              dateOf(end),
		Value:                  known.ValueText,
		ValueFloat:             known.Value,
		Accession:              known.Accession,
		Form:                   known.Form,
		Filed:                  dateOf(known.Filed),
		FirstReportedValue:     first.ValueText,
		FirstReportedAccession: first.Accession,
		FirstReportedFiled:     dateOf(first.Filed),
		Restated:               !companyfacts.SameNumber(known.ValueText, first.ValueText),
	}
	if start != 0 {
		co.PeriodStart = dateOf(start)
	}
	return co, true
}

// leaks are faults a test plants to prove that its property test finds
// them; all false in every program.
type leaks struct {
	periodFromAll bool // the period is chosen among facts filed later too
	lateValues    bool // a later-filed fact can be the value
	lateConcept   bool // a tag first used after asOf is a known concept
	lateDays      int  // facts filed up to this many days after asOf are visible
}

// planted is the leak planted by a test.
var planted leaks

// seen reports whether a fact filed after asOf is let through by a
// planted leak.
func (l leaks) seen(filed, asOf civil.Day) bool {
	return l.periodFromAll || l.counts(filed, asOf)
}

// counts reports whether a fact filed on filed can be a value on asOf:
// exactly when filed <= asOf, unless a leak is planted.
func (l leaks) counts(filed, asOf civil.Day) bool {
	return filed <= asOf+civil.Day(l.lateDays) || l.lateValues
}

// laterKnown reports whether c beats b as the value as known: greater
// (filed, accn), then the earlier tag, then the smaller value text.
func laterKnown(c, b *candidate) bool {
	if c.Filed != b.Filed {
		return c.Filed > b.Filed
	}
	if c.Accession != b.Accession {
		return c.Accession > b.Accession
	}
	if c.tag != b.tag {
		return c.tag < b.tag
	}
	return c.ValueText < b.ValueText
}

// earlier reports whether c beats b as the first reported: smaller
// (filed, accn), then the smaller value text.
func earlier(c, b *candidate) bool {
	if c.Filed != b.Filed {
		return c.Filed < b.Filed
	}
	if c.Accession != b.Accession {
		return c.Accession < b.Accession
	}
	return c.ValueText < b.ValueText
}

func dateOf(d civil.Day) edgar13f.Date {
	y, m, dd := d.Date()
	return edgar13f.Date{Year: y, Month: m, Day: dd}
}
