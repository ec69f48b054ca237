package wire

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/companies"
)

// FactsDisclaimer is carried by every get_financial_facts object, answers
// and declines alike. The other company answers carry no disclaimer.
const FactsDisclaimer = "Annual XBRL values as the company filed them with the SEC in 10-K-family reports (10-K, 10-KT, 20-F, 40-F and amendments) on or before as_of; value is the latest of those filings, first_reported_value the earliest. Fiscal years are the company's own."

// headWith opens an answer object with its status and, when not empty, a
// disclaimer.
func (w *writer) headWith(status, disclaimer string) {
	w.open()
	w.str("status", status)
	if disclaimer != "" {
		w.str("disclaimer", disclaimer)
	}
}

// number writes v, a number as EDGAR serves it, as a JSON number, or as a
// string should it not be one.
func (w *writer) number(k, v string) {
	if v != "" && (v[0] == '-' || '0' <= v[0] && v[0] <= '9') && json.Valid([]byte(v)) {
		w.key(k)
		w.b = append(w.b, v...)
		return
	}
	w.strOrNull(k, v)
}

// WriteDeclineWith writes the answer for a declined question with the
// given disclaimer ("" for none).
func WriteDeclineWith(w io.Writer, d *edgar13f.DeclineError, disclaimer string) error {
	o := newWriter(w)
	o.headWith("declined", disclaimer)
	o.str("reason", string(d.Reason))
	o.str("message", d.Message)
	o.close()
	return o.done()
}

// WriteCompanySearch writes the search_company answer. cik is written
// without leading zeros, as every tool answers a CIK, whatever the library
// gives; ticker is the primary ticker (null when the company has none) and
// tickers all of them.
func WriteCompanySearch(w io.Writer, s *companies.SearchResult) error {
	o := newWriter(w)
	o.headWith("ok", "")
	o.str("query", s.Query)
	o.array("matches", len(s.Matches), func(i int) {
		m := s.Matches[i]
		o.str("cik", unpadded(m.CIK))
		o.str("name", m.Name)
		ticker := ""
		if len(m.Tickers) > 0 {
			ticker = m.Tickers[0]
		}
		o.strOrNull("ticker", ticker)
		o.strs("tickers", m.Tickers)
		o.str("source_url", m.SourceURL)
	})
	o.str("note", s.Note)
	o.close()
	return o.done()
}

// WriteCompanyFilings writes the list_filings answer.
func WriteCompanyFilings(w io.Writer, l *companies.FilingList) error {
	o := newWriter(w)
	o.headWith("ok", "")
	o.str("cik", l.CIK)
	o.str("entity_name", l.EntityName)
	o.str("as_of", date(l.AsOf))
	o.array("filings", len(l.Filings), func(i int) {
		f := l.Filings[i]
		o.str("accession_number", f.Accession)
		o.str("form", string(f.Form))
		o.str("filing_date", date(f.FilingDate))
		o.strOrNull("report_date", date(f.Period))
		o.strOrNull("primary_document", f.PrimaryDocument)
		o.strOrNull("document_url", f.DocumentURL)
		o.str("index_url", f.IndexURL)
	})
	o.close()
	return o.done()
}

// WriteFacts writes the get_financial_facts answer.
func WriteFacts(w io.Writer, f *companies.Facts) error {
	o := newWriter(w)
	o.headWith("ok", FactsDisclaimer)
	o.str("cik", f.CIK)
	o.str("entity_name", f.EntityName)
	o.str("concept", f.Concept)
	o.strOrNull("tag", f.Tag)
	o.strOrNull("unit", f.Unit)
	o.str("as_of", date(f.AsOf))
	o.array("values", len(f.Values), func(i int) {
		v := f.Values[i]
		o.int("fiscal_year", int64(v.FiscalYear))
		o.str("fiscal_period", v.FiscalPeriod)
		o.strOrNull("period_start", date(v.PeriodStart))
		o.str("period_end", date(v.PeriodEnd))
		o.number("value", v.Value)
		o.str("accession_number", v.Filing.Accession)
		o.str("form", string(v.Filing.Form))
		o.str("filed", date(v.Filing.FilingDate))
		o.str("filing_url", v.Filing.URL)
		o.number("first_reported_value", v.FirstReportedValue)
		o.str("first_reported_accession", v.FirstReported.Accession)
		o.bool("restated", v.Restated)
	})
	o.close()
	return o.done()
}

// WriteSection writes the get_filing_section answer.
func WriteSection(w io.Writer, s *companies.Section) error {
	o := newWriter(w)
	o.headWith("ok", "")
	o.str("cik", s.CIK)
	o.str("accession_number", s.Filing.Accession)
	o.str("form", string(s.Filing.Form))
	o.str("filing_date", date(s.Filing.FilingDate))
	o.str("item", s.Item)
	o.str("title", s.Title)
	o.str("text", s.Text)
	o.bool("truncated", s.Truncated)
	o.str("source_url", s.SourceURL)
	o.close()
	return o.done()
}

// unpadded returns the CIK cik without leading zeros.
func unpadded(cik string) string {
	if t := strings.TrimLeft(cik, "0"); t != "" {
		return t
	}
	return cik
}
