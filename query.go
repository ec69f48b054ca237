package edgar13f

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/sync/errgroup"

	"github.com/edgar13f/edgar13f/internal/infotable"
)

// Query limits (SPEC §4–5).
const (
	MaxCUSIPs       = 50  // most CUSIPs one [CUSIPs] filter may list
	MinIssuerLen    = 2   // shortest [Issuer] text, in characters
	MaxIssuerLen    = 100 // longest [Issuer] text, in characters
	MaxMaxPositions = 200 // largest [MaxPositions]
)

type queryOptions struct {
	cusips       []string
	cusipsSet    bool
	issuer       string
	issuerSet    bool
	maxPositions int
	maxSet       bool
	positionType string
	positionSet  bool
}

// An Option narrows the answer of [Client.Holdings] or [Client.Diff].
// Options only filter rows after the amendment rule and redaction have run:
// they never change which filings are cited. They are checked when the query
// runs; an out-of-range value is declined with [InvalidArgument].
type Option func(*queryOptions)

// CUSIPs keeps the rows whose CUSIP is one of cusips, compared
// case-insensitively (rows keep the CUSIP as filed). The list must hold 1 to
// [MaxCUSIPs] CUSIPs of 9 letters or digits, with no exact duplicates.
func CUSIPs(cusips ...string) Option {
	cs := slices.Clone(cusips)
	return func(o *queryOptions) { o.cusips, o.cusipsSet = cs, true }
}

// Issuer keeps the rows whose issuer name contains text, case-insensitively,
// with runs of white space in both counted as one space. text must be
// [MinIssuerLen] to [MaxIssuerLen] characters long. The answer then lists the
// distinct CUSIPs that matched (MatchedCUSIPs). With [CUSIPs], both filters apply.
func Issuer(text string) Option {
	return func(o *queryOptions) { o.issuer, o.issuerSet = text, true }
}

// MaxPositions keeps the n largest positions (1 to [MaxMaxPositions]). A
// position is the rows sharing CUSIP (case-insensitively), PutCall and
// ShPrn; positions rank by summed value, largest first, then by CUSIP,
// PutCall (none first) and ShPrn. A position is never split: the answer
// lists the kept positions in rank order, each with all its rows in filed
// order (base before supplements). For
// [Client.Diff], changes rank by the absolute value change instead. The
// answer then reports TotalPositions, Truncated and Order.
func MaxPositions(n int) Option {
	return func(o *queryOptions) { o.maxPositions, o.maxSet = n, true }
}

// PositionType states which positions are wanted. Form 13F reports long
// positions only, so "long" is the one accepted value; any other is declined
// with [UnsupportedRequest].
func PositionType(t string) Option {
	return func(o *queryOptions) { o.positionType, o.positionSet = t, true }
}

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
	if len(s) == 0 || len(s) > 10 {
		return "", declinef(InvalidArgument, "CIK %q must be 1 to 10 digits", s)
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return "", declinef(InvalidArgument, "CIK %q must be 1 to 10 digits", s)
		}
	}
	t := strings.TrimLeft(s, "0")
	if t == "" {
		t = "0"
	}
	return t, nil
}

func checkDate(name string, d Date) error {
	if !d.valid() {
		return declinef(InvalidArgument, "%s %04d-%02d-%02d is not a valid date", name, d.Year, int(d.Month), d.Day)
	}
	return nil
}

func isCUSIP(s string) bool {
	if len(s) != 9 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z') {
			return false
		}
	}
	return true
}

// foldSpace lower-cases s and collapses runs of white space to one space.
func foldSpace(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// newQuery validates a query's arguments in SPEC §4 order: every
// invalid_argument check first, then the periods, then unsupported requests.
// periods are checked to be quarter ends; a diff also needs B after A.
func newQuery(cik string, dates map[string]Date, periods []Date, opts []Option) (*query, error) {
	q := &query{}
	var err error
	if q.cik, err = parseCIK(cik); err != nil {
		return nil, err
	}
	for _, name := range []string{"asOf", "period", "periodA", "periodB"} {
		if d, ok := dates[name]; ok {
			if err := checkDate(name, d); err != nil {
				return nil, err
			}
		}
	}
	for _, opt := range opts {
		if opt != nil {
			opt(&q.opts)
		}
	}
	o := &q.opts
	if o.cusipsSet {
		if len(o.cusips) < 1 || len(o.cusips) > MaxCUSIPs {
			return nil, declinef(InvalidArgument, "CUSIP list must hold 1 to %d CUSIPs, not %d", MaxCUSIPs, len(o.cusips))
		}
		q.cusipSet = make(map[string]bool, len(o.cusips))
		seen := make(map[string]bool, len(o.cusips))
		for _, c := range o.cusips {
			if !isCUSIP(c) {
				return nil, declinef(InvalidArgument, "CUSIP %q must be 9 letters or digits", c)
			}
			if seen[c] {
				return nil, declinef(InvalidArgument, "CUSIP %q is listed twice", c)
			}
			seen[c] = true
			q.cusipSet[strings.ToUpper(c)] = true
		}
	}
	if o.issuerSet {
		q.issuerKey = foldSpace(o.issuer)
		if n := utf8.RuneCountInString(q.issuerKey); n < MinIssuerLen || n > MaxIssuerLen || !utf8.ValidString(o.issuer) {
			return nil, declinef(InvalidArgument, "issuer text must be %d to %d characters, not %d", MinIssuerLen, MaxIssuerLen, n)
		}
	}
	if o.maxSet && (o.maxPositions < 1 || o.maxPositions > MaxMaxPositions) {
		return nil, declinef(InvalidArgument, "max positions must be 1 to %d, not %d", MaxMaxPositions, o.maxPositions)
	}
	for _, p := range periods {
		if !p.IsQuarterEnd() {
			return nil, declinef(InvalidPeriod, "period %s is not a calendar quarter end (03-31, 06-30, 09-30 or 12-31)", p)
		}
	}
	if len(periods) == 2 && !periods[1].After(periods[0]) {
		return nil, declinef(InvalidPeriod, "period B %s must be after period A %s", periods[1], periods[0])
	}
	if o.positionSet && !strings.EqualFold(strings.TrimSpace(o.positionType), "long") {
		return nil, declinef(UnsupportedRequest, "position type %q: Form 13F reports long positions only", o.positionType)
	}
	return q, nil
}

// Filings returns every 13F submission (13F-HR, 13F-HR/A, 13F-NT, 13F-NT/A)
// of cik that EDGAR had accepted by asOf, sorted by filing date and
// accession, each with the facts of its cover page. With period (at most
// one), only filings for that period of report are returned; none is not a
// decline.
//
// It declines with [InvalidArgument] (malformed CIK or date),
// [InvalidPeriod] (period not a quarter end) or [UnknownCIK] (no 13F filed
// on or before asOf). It reads EDGAR's filing list
// (data.sec.gov/submissions) and the cover page (primary_doc.xml) of each
// filing not yet cached; filings from before 2013 have no XML cover and
// carry only what the list says.
func (c *Client) Filings(ctx context.Context, cik string, asOf Date, period ...Date) ([]Filing, error) {
	dates := map[string]Date{"asOf": asOf}
	if len(period) > 1 {
		return nil, declinef(InvalidArgument, "at most one period, not %d", len(period))
	}
	if len(period) == 1 {
		dates["period"] = period[0]
	}
	q, err := newQuery(cik, dates, period, nil)
	if err != nil {
		return nil, err
	}
	var from Date
	if len(period) == 1 {
		from = period[0]
	}
	x, err := c.filings(ctx, q.cik, from, asOf)
	if err != nil {
		return nil, err
	}
	if !knownFiler(x.listed(), asOf) {
		return nil, declinef(UnknownCIK, "CIK %s filed no 13F on or before %s", q.cik, asOf)
	}
	var visible []listEntry
	for _, e := range x.entries {
		if visibleOn(e.FilingDate, asOf) && (from.IsZero() || e.Period == from || e.Period.IsZero()) {
			visible = append(visible, e)
		}
	}
	out := make([]Filing, len(visible))
	has := make([]bool, len(visible))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(4)
	for i, e := range visible {
		g.Go(func() error {
			f := Filing{
				Accession:   e.Accession,
				Form:        e.Form,
				FilingDate:  e.FilingDate,
				Period:      e.Period,
				IsAmendment: strings.HasSuffix(string(e.Form), "/A"),
				URL:         indexURL(q.cik, e.Accession),
			}
			rec, ok, err := c.coverPage(gctx, q.cik, e)
			if err != nil {
				return err
			}
			if ok {
				f.Period = rec.Period
				f.IsAmendment = f.IsAmendment || rec.IsAmendment
				if f.Form != Form13FHR && f.Form != Form13FNT {
					f.AmendmentNo = rec.AmendmentNo
				}
				if f.Form == Form13FHRA {
					f.AmendmentType = rec.AmendmentType
				}
				f.ReportType = rec.ReportType
				f.ManagerName = rec.ManagerName
			}
			out[i], has[i] = f, true
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, ctxErr
		}
		return nil, err
	}
	result := out[:0]
	for i, f := range out {
		if has[i] && (from.IsZero() || f.Period == from) {
			result = append(result, f)
		}
	}
	return slices.Clip(result), nil
}

// Holdings returns cik's 13F holdings for period as EDGAR had accepted them
// on asOf (SPEC §3): the rows of the base report (the last original or
// restatement filed by asOf) followed by the rows of each new-holdings
// amendment filed after it, exactly as filed, each citing its filing.
// Filings accepted after asOf play no part in the answer.
//
// Options filter the rows afterwards ([CUSIPs], [Issuer], [MaxPositions],
// [PositionType]). It declines with [InvalidArgument], [InvalidPeriod],
// [UnsupportedRequest], [UnknownCIK], [NoticeOnly] or [NotYetFiled], in
// that precedence. It reads EDGAR's filing list and, for each holdings
// report of the period from the latest back to the base, the complete
// submission text file (one request holding cover and table), unless cached.
func (c *Client) Holdings(ctx context.Context, cik string, period, asOf Date, opts ...Option) (*Snapshot, error) {
	q, err := newQuery(cik, map[string]Date{"period": period, "asOf": asOf}, []Date{period}, opts)
	if err != nil {
		return nil, err
	}
	x, err := c.filings(ctx, q.cik, period, asOf)
	if err != nil {
		return nil, err
	}
	snap, err := c.snapshot(ctx, q.cik, x, period, asOf)
	if err != nil {
		return nil, err
	}
	q.filterSnapshot(snap)
	return snap, nil
}

// snapshot resolves one period and reads the rows of its base and supplements.
func (c *Client) snapshot(ctx context.Context, cik string, x *filingIndex, period, asOf Date) (*Snapshot, error) {
	sizes := make(map[string]int64, len(x.entries))
	for _, e := range x.entries {
		sizes[e.Accession] = e.Size
	}
	res, fetched, err := c.resolve(ctx, cik, x.listed(), period, asOf, sizes)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, ctxErr
		}
		return nil, err
	}
	snap := &Snapshot{CIK: cik, Period: period, AsOf: asOf}
	sources := append([]classified{res.Base}, res.Supplements...)
	tables := make([]table, len(sources))
	total := 0
	for i, f := range sources {
		snap.Sources = append(snap.Sources, Citation{Accession: f.Accession, Form: f.Form, FilingDate: f.FilingDate, URL: indexURL(cik, f.Accession)})
		t, err := c.table(ctx, cik, f.Accession, sizes[f.Accession], fetched)
		if err != nil {
			return nil, err
		}
		tables[i] = t
		total += t.n
	}
	snap.Holdings = make([]Holding, 0, total)
	for i, f := range sources {
		t := tables[i]
		if t.encoded == nil {
			for j := range t.rows {
				snap.Holdings = append(snap.Holdings, holdingOf(&t.rows[j], f.Accession, f.FilingDate))
			}
			continue
		}
		start := len(snap.Holdings)
		err := infotable.DecodeEach(t.encoded, func(r *infotable.Row) {
			snap.Holdings = append(snap.Holdings, holdingOf(r, f.Accession, f.FilingDate))
		})
		if err != nil {
			// A damaged cache entry: read the filing again.
			snap.Holdings = snap.Holdings[:start]
			r, err := c.fetchReport(ctx, cik, f.Accession, sizes[f.Accession])
			if err != nil {
				return nil, err
			}
			for j := range r.rows {
				snap.Holdings = append(snap.Holdings, holdingOf(&r.rows[j], f.Accession, f.FilingDate))
			}
		}
	}
	snap.Base = snap.Sources[0]
	return snap, nil
}

// resolve runs the amendment rule (decide) to its end, reading the covers
// it asks for: from the cache, else by fetching the filings' complete
// submissions, a filing-date group's uncached filings together (concurrently,
// within the rate limit). It returns the resolution and the reports fetched
// on the way, whose rows the answer may need.
func (c *Client) resolve(ctx context.Context, cik string, listed []listedFiling, period, asOf Date, sizes map[string]int64) (resolution, map[string]*report, error) {
	covers := map[string]coverFacts{}
	fetched := map[string]*report{}
	for {
		d := decide(listed, period, asOf, covers)
		if len(d.need) == 0 {
			return d.res, fetched, d.err
		}
		var todo []listedFiling
		for _, f := range d.need {
			if rec, ok := c.cachedCover(ctx, f.Accession); ok {
				covers[f.Accession] = rec.facts(f.Form)
			} else {
				todo = append(todo, f)
			}
		}
		reports := make([]*report, len(todo))
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(4)
		for i, f := range todo {
			g.Go(func() (err error) {
				reports[i], err = c.fetchReport(gctx, cik, f.Accession, sizes[f.Accession])
				return err
			})
		}
		if err := g.Wait(); err != nil {
			return resolution{}, nil, err
		}
		for i, f := range todo {
			fetched[f.Accession] = reports[i]
			covers[f.Accession] = reports[i].cover.facts(f.Form)
		}
	}
}

// A table is a filing's rows: parsed during this query, or still encoded
// as cached (decoded straight into the answer).
type table struct {
	rows    []infotable.Row
	encoded []byte
	n       int
}

// table returns a filing's rows: fetched during this query, cached, or read now.
func (c *Client) table(ctx context.Context, cik, accession string, size int64, fetched map[string]*report) (table, error) {
	if r, ok := fetched[accession]; ok {
		return table{rows: r.rows, n: len(r.rows)}, nil
	}
	if b, err := c.cache.Get(ctx, c.rowsKey(accession)); err == nil {
		if n, err := infotable.Count(b); err == nil {
			return table{encoded: b, n: n}, nil
		}
	}
	r, err := c.fetchReport(ctx, cik, accession, size)
	if err != nil {
		return table{}, err
	}
	return table{rows: r.rows, n: len(r.rows)}, nil
}

func holdingOf(r *infotable.Row, accession string, filed Date) Holding {
	return Holding{
		Accession:            accession,
		FilingDate:           filed,
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

// positionKey identifies a position: CUSIP (upper case), PutCall and ShPrn.
type positionKey struct {
	CUSIP   string
	PutCall PutCall
	ShPrn   ShPrn
}

func keyOf(h *Holding) positionKey {
	return positionKey{CUSIP: strings.ToUpper(h.CUSIP), PutCall: h.PutCall, ShPrn: h.ShPrn}
}

// comparePositionKeys is the tie-break order of SPEC §5: CUSIP, then PutCall
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
	if q.opts.issuerSet && !strings.Contains(foldSpace(h.NameOfIssuer), q.issuerKey) {
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
	if !q.opts.maxSet {
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
		sums[k] = addSat(sums[k], s.Holdings[i].Value)
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
	n := min(q.opts.maxPositions, len(groups))
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
