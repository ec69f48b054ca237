package wire

import (
	"io"

	"github.com/edgar13f/edgar13f/datasets"
)

// WriteHolders writes the get_holders_as_of answer of l.
func WriteHolders(w io.Writer, l *datasets.HolderList) error {
	o := newWriter(w)
	o.head("ok")
	o.str("cusip", l.CUSIP)
	o.str("period", date(l.Period))
	o.str("as_of", date(l.AsOf))
	o.strOrNull("data_from", date(l.DataFrom))
	o.strOrNull("data_through", date(l.DataThrough))
	o.bool("complete", l.Complete)
	o.int("total_holders", int64(l.TotalHolders))
	o.array("holders", len(l.Holders), func(i int) {
		h := &l.Holders[i]
		o.str("cik", h.CIK)
		o.str("manager_name", h.ManagerName)
		o.str("accession_number", h.Base.Accession)
		o.strs("source_accessions", accessions(h.Sources))
		o.str("filing_date", date(h.Base.FilingDate))
		o.strOrNull("put_call", string(h.PutCall))
		o.str("sh_prn", string(h.ShPrn))
		o.int("shares", h.Shares)
		o.int("value_usd", h.ValueUSD)
		o.array("rows", len(h.Holdings), func(j int) { o.holdingFields(&h.Holdings[j]) })
	})
	o.close()
	return o.done()
}
