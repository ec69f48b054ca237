// Package wire holds what the example binaries share: the snake_case JSON
// answers of the MCP tools written from the library's types, the decline
// and error objects, strict decoding of tool arguments, the environment
// settings and the messages that name them.
//
// Answers are written straight to an io.Writer, row by row, so that a
// holdings answer of tens of thousands of rows needs no intermediate
// structures. Written to a TextWriter, an answer comes out as the inside
// of a JSON string, ready for an MCP text block, in the same single pass.
package wire

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/datasets"
)

// Disclaimer is carried by every JSON object the examples answer with.
const Disclaimer = "13F reports long positions only; data may lag the period end by up to 45 days."

// flushAt is the buffered size at which a writer hands bytes to w.
const flushAt = 64 << 10

// writer buffers one answer and passes it to w in chunks.
type writer struct {
	obj
	w   io.Writer
	err error
}

// newWriter returns a writer of one answer to w. Given a TextWriter that
// holds nothing yet, it writes the answer as the inside of a JSON string
// itself, in the same bytes and without a second pass over them.
func newWriter(w io.Writer) *writer {
	o := &writer{obj: obj{b: make([]byte, 0, flushAt+4096)}, w: w}
	if t, ok := w.(*TextWriter); ok && t.empty() {
		o.w, o.inText = escaped{t}, true
	}
	return o
}

// maybeFlush passes the buffer on once it is large.
func (w *writer) maybeFlush() {
	if len(w.b) >= flushAt {
		w.flush()
	}
}

// array writes the member k, an array of n objects written by each.
func (w *writer) array(k string, n int, each func(i int)) {
	w.key(k)
	w.b = append(w.b, '[')
	for i := range n {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		m := w.n
		w.open()
		each(i)
		w.close()
		w.n = m
		w.maybeFlush()
	}
	w.b = append(w.b, ']')
}

func (w *writer) flush() {
	if w.err == nil && len(w.b) > 0 {
		_, w.err = w.w.Write(w.b)
	}
	w.b = w.b[:0]
}

// done ends the answer with a newline (none inside a JSON string) and
// flushes it.
func (w *writer) done() error {
	if !w.inText {
		w.b = append(w.b, '\n')
	}
	w.flush()
	return w.err
}

// head opens an answer object with its status and the disclaimer.
func (w *writer) head(status string) {
	w.open()
	w.str("status", status)
	w.str("disclaimer", Disclaimer)
}

func date(d edgar13f.Date) string {
	if d.IsZero() {
		return ""
	}
	return d.String()
}

// OldestFirst returns a copy of filings sorted by filing date, then
// accession number, both ascending: the order of the filings of a
// list_13f_filings answer, the reference server's frozen contract, whatever
// order the library lists them in ([edgar13f.FilingList] is newest first).
func OldestFirst(filings []edgar13f.Filing) []edgar13f.Filing {
	return slices.SortedStableFunc(slices.Values(filings), func(a, b edgar13f.Filing) int {
		if c := a.FilingDate.Compare(b.FilingDate); c != 0 {
			return c
		}
		return strings.Compare(a.Accession, b.Accession)
	})
}

// WriteFilings writes the list_13f_filings answer for cik on asOf, its
// filings in the contract's order (see [OldestFirst]) whatever their order
// in filings; cik is as the library returns it ([edgar13f.FilingList.CIK],
// without leading zeros).
func WriteFilings(w io.Writer, cik string, asOf edgar13f.Date, filings []edgar13f.Filing) error {
	filings = OldestFirst(filings)
	o := newWriter(w)
	o.head("ok")
	o.str("cik", cik)
	o.str("as_of", date(asOf))
	o.array("filings", len(filings), func(i int) {
		f := &filings[i]
		o.str("accession_number", f.Accession)
		o.str("form_type", string(f.Form))
		o.str("filing_date", date(f.FilingDate))
		o.str("period_of_report", date(f.Period))
		o.bool("is_amendment", f.IsAmendment)
		if f.AmendmentNo == 0 {
			o.key("amendment_no")
			o.b = append(o.b, "null"...)
		} else {
			o.int("amendment_no", int64(f.AmendmentNo))
		}
		o.strOrNull("amendment_type", string(f.AmendmentType))
		o.str("report_type", f.ReportType)
		o.str("filing_manager_name", f.ManagerName)
		o.str("edgar_url", f.IndexURL)
	})
	o.close()
	return o.done()
}

func accessions(cs []edgar13f.Citation) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Accession
	}
	return out
}

// reconciliations writes, under name, each source filing's check of its
// table against its cover: the cover's totals as filed (null when it states
// none) and whether the table, counted before redaction, matched them.
func (w *writer) reconciliations(name string, rs []edgar13f.Reconciliation) {
	w.array(name, len(rs), func(i int) {
		r := &rs[i]
		w.str("accession_number", r.Accession)
		if r.Cover.Stated {
			w.int("table_entry_total", r.Cover.Entries)
			w.int("table_value_total", r.Cover.Value)
		} else {
			w.key("table_entry_total")
			w.b = append(w.b, "null"...)
			w.key("table_value_total")
			w.b = append(w.b, "null"...)
		}
		w.str("value_unit", string(edgar13f.ValueUnitOf(r.FilingDate)))
		w.bool("matched", r.Matched)
	})
}

// filters writes the members that the issuer and max_positions filters and
// agent mode add to an answer.
func (w *writer) filters(matched []string, order edgar13f.Order, total int, truncated, autoLimited bool) {
	if matched != nil {
		w.strs("matched_cusips", matched)
	}
	if order != "" {
		w.int("total_positions", int64(total))
		w.bool("truncated", truncated)
		w.str("order", string(order))
	}
	if autoLimited {
		w.bool("auto_limited", true)
	}
}

// WriteHoldings writes the get_holdings_as_of answer of s. autoLimited
// marks an answer cut to the agent-mode default.
func WriteHoldings(w io.Writer, s *edgar13f.Snapshot, autoLimited bool) error {
	o := newWriter(w)
	o.head("ok")
	o.str("cik", s.CIK)
	o.str("period", date(s.Period))
	o.str("as_of", date(s.AsOf))
	o.str("accession_number", s.Base.Accession)
	o.strs("source_accessions", accessions(s.Sources))
	o.str("filing_date", date(s.Base.FilingDate))
	o.reconciliations("source_reconciliation", s.Reconciliations)
	o.filters(s.MatchedCUSIPs, s.Order, s.TotalPositions, s.Truncated, autoLimited)
	o.array("holdings", len(s.Holdings), func(i int) { o.holdingFields(&s.Holdings[i]) })
	o.close()
	return o.done()
}

// holdingFields writes the members of one information-table row.
func (o *writer) holdingFields(h *edgar13f.Holding) {
	o.str("accession_number", h.Accession)
	o.str("name_of_issuer", h.NameOfIssuer)
	o.str("title_of_class", h.TitleOfClass)
	o.str("cusip", h.CUSIP)
	o.strOrNull("figi", h.FIGI)
	o.int("value", h.Value)
	o.int("shares_or_principal_amount", h.SharesOrPrincipal)
	o.str("sh_prn", string(h.ShPrn))
	o.strOrNull("put_call", string(h.PutCall))
	o.str("investment_discretion", h.InvestmentDiscretion)
	o.strOrNull("other_manager", h.OtherManager)
	o.int("voting_authority_sole", h.VotingSole)
	o.int("voting_authority_shared", h.VotingShared)
	o.int("voting_authority_none", h.VotingNone)
	o.int("value_usd", h.ValueUSD)
	o.str("filing_date", date(h.FilingDate))
}

// WriteDiff writes the diff_holdings answer of c. autoLimited marks an
// answer cut to the agent-mode default.
func WriteDiff(w io.Writer, c *edgar13f.Comparison, autoLimited bool) error {
	o := newWriter(w)
	o.head("ok")
	o.str("cik", c.CIK)
	o.str("period_a", date(c.PeriodA))
	o.str("period_b", date(c.PeriodB))
	o.str("as_of", date(c.AsOf))
	o.str("accession_a", c.BaseA.Accession)
	o.str("accession_b", c.BaseB.Accession)
	o.strs("source_accessions_a", accessions(c.SourcesA))
	o.strs("source_accessions_b", accessions(c.SourcesB))
	o.reconciliations("source_reconciliation_a", c.ReconciliationsA)
	o.reconciliations("source_reconciliation_b", c.ReconciliationsB)
	o.filters(c.MatchedCUSIPs, c.Order, c.TotalPositions, c.Truncated, autoLimited)
	o.array("changes", len(c.Changes), func(i int) {
		ch := &c.Changes[i]
		o.str("cusip", ch.CUSIP)
		o.str("name_of_issuer", ch.NameOfIssuer)
		o.strOrNull("put_call", string(ch.PutCall))
		o.str("sh_prn", string(ch.ShPrn))
		o.int("shares_a", ch.SharesA)
		o.int("shares_b", ch.SharesB)
		o.int("shares_delta", ch.SharesDelta)
		o.int("value_a", ch.ValueA)
		o.int("value_b", ch.ValueB)
		o.int("value_delta", ch.ValueDelta)
		o.int("value_usd_a", ch.ValueUSDA)
		o.int("value_usd_b", ch.ValueUSDB)
		o.int("value_usd_delta", ch.ValueUSDDelta)
		o.str("change_type", string(ch.Type))
	})
	o.close()
	return o.done()
}

// WriteDecline writes the answer for a declined question, with the 13F
// disclaimer.
func WriteDecline(w io.Writer, d *edgar13f.DeclineError) error {
	return WriteDeclineWith(w, d, Disclaimer)
}

// WriteError writes the object a 13F tool sends with isError for a
// failure that is not a decline (EDGAR unreachable, no User-Agent, ...);
// message says what failed (see Config.Explain).
func WriteError(w io.Writer, message string) error {
	return WriteErrorWith(w, message, Disclaimer)
}

// WriteErrorWith is WriteError carrying the given disclaimer ("" for none),
// as the tool's answers and declines do: the company tools carry their
// own or none.
func WriteErrorWith(w io.Writer, message, disclaimer string) error {
	o := newWriter(w)
	o.headWith("error", disclaimer)
	o.str("message", "internal error: "+message)
	o.close()
	return o.done()
}

// AsDecline returns the decline inside err, if there is one. A
// [*datasets.CoverageError] (the Form 13F Data Sets imported, or published,
// do not hold the filings a holders or panel answer rests on) is an
// ordinary decline too, unsupported_request: the bulk source cannot give
// that answer.
func AsDecline(err error) (*edgar13f.DeclineError, bool) {
	var d *edgar13f.DeclineError
	if errors.As(err, &d) {
		return d, true
	}
	var ce *datasets.CoverageError
	if errors.As(err, &ce) {
		return coverageDecline(ce), true
	}
	return nil, false
}

// coverageDecline says what a CoverageError means to a user of the tools,
// who imports nothing by hand.
func coverageDecline(ce *datasets.CoverageError) *edgar13f.DeclineError {
	q := fmt.Sprintf("an answer for period %s as of %s rests on the filings dated from %s through %s", ce.Period, ce.AsOf, ce.From, ce.Through)
	var m string
	switch {
	case !ce.PublishedFrom.IsZero():
		m = fmt.Sprintf("%s, but SEC's Form 13F Data Sets begin with filings of %s: ask for one manager's holdings instead, which are read from EDGAR", q, ce.PublishedFrom)
	case ce.DataFrom.IsZero():
		m = fmt.Sprintf("%s, and no Form 13F Data Sets window holding them is imported (SEC publishes each window after it ends)", q)
	default:
		m = fmt.Sprintf("%s, and the Form 13F Data Sets imported cover filings from %s through %s only", q, ce.DataFrom, ce.DataThrough)
	}
	return edgar13f.Decline(edgar13f.UnsupportedRequest, "%s", m)
}

// ManagerNote is the note of every find_manager answer.
const ManagerNote = "Names are EDGAR's current names, not as of as_of; only has_13f_filings is point in time. Use the cik with the other tools."

// WriteManagers writes the find_manager answer for the name query.
func WriteManagers(w io.Writer, query string, ms []edgar13f.Manager) error {
	o := newWriter(w)
	o.head("ok")
	o.str("query", query)
	o.array("candidates", len(ms), func(i int) {
		o.str("cik", ms[i].CIK)
		o.str("entity_name", ms[i].Name)
		o.bool("has_13f_filings", ms[i].Has13F)
	})
	o.str("note", ManagerNote)
	o.close()
	return o.done()
}
