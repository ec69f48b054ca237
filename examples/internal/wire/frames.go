package wire

import (
	"io"

	"github.com/edgar13f/edgar13f/frames"
)

// WriteFrame writes the get_frame answer of f.
func WriteFrame(w io.Writer, f *frames.Frame) error {
	o := newWriter(w)
	o.headWith("ok", f.Disclaimer)
	o.str("concept", f.Concept)
	o.str("period", f.Period)
	o.str("unit", f.Unit)
	o.str("as_of", date(f.AsOf))
	o.strOrNull("data_through", date(f.DataThrough))
	o.bool("complete", f.Complete)
	o.int("total_companies", int64(f.TotalCompanies))
	o.bool("truncated", f.Truncated)
	o.array("companies", len(f.Companies), func(i int) {
		c := &f.Companies[i]
		o.str("cik", c.CIK)
		o.str("entity_name", c.EntityName)
		o.str("tag", c.Tag)
		o.strOrNull("period_start", date(c.PeriodStart))
		o.str("period_end", date(c.PeriodEnd))
		o.number("value", c.Value)
		o.str("accession_number", c.Accession)
		o.str("form", c.Form)
		o.str("filed", date(c.Filed))
		o.number("first_reported_value", c.FirstReportedValue)
		o.str("first_reported_accession", c.FirstReportedAccession)
		o.str("first_reported_filed", date(c.FirstReportedFiled))
		o.bool("restated", c.Restated)
	})
	o.close()
	return o.done()
}
