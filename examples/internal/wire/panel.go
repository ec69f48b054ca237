package wire

import (
	"io"
	"iter"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/datasets"
)

// WritePanel writes a period's panel as one JSON object, streaming the rows
// as rows yields them: status, period, as_of, data_from, data_through, complete, then
// rows[] (each a holding row with cik, manager_name and base_accession).
// An error yielded by rows ends the output unfinished and is returned.
func WritePanel(w io.Writer, period, asOf edgar13f.Date, cov datasets.Coverage, rows iter.Seq2[datasets.PanelRow, error]) error {
	o := newWriter(w)
	o.head("ok")
	o.str("period", date(period))
	o.str("as_of", date(asOf))
	o.strOrNull("data_from", date(cov.DataFrom))
	o.strOrNull("data_through", date(cov.DataThrough))
	o.bool("complete", cov.Complete(period, asOf))
	o.key("rows")
	o.b = append(o.b, '[')
	i := 0
	for r, err := range rows {
		if err != nil {
			o.flush()
			return err
		}
		if i > 0 {
			o.b = append(o.b, ',')
		}
		i++
		n := o.n
		o.open()
		o.str("cik", r.CIK)
		o.str("manager_name", r.ManagerName)
		o.str("base_accession", r.Base)
		o.holdingFields(&r.Holding)
		o.close()
		o.n = n
		o.maybeFlush()
	}
	o.b = append(o.b, ']')
	o.close()
	return o.done()
}
