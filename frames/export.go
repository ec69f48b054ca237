package frames

import (
	"encoding/csv"
	"fmt"
	"io"
	"iter"
	"strconv"

	"github.com/parquet-go/parquet-go"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/parquetdir"
)

// Columns are the columns of an export, in order (CSV header and Parquet
// schema alike). value is the value as filed: in CSV its exact decimal
// text; in Parquet a double, with value_text the exact text beside it.
var Columns = []string{"concept", "period", "unit", "as_of", "cik", "entity_name", "tag", "period_start", "period_end",
	"value", "value_text", "accession_number", "form", "filed", "first_reported_value", "first_reported_accession",
	"first_reported_filed", "restated"}

// exportRow is a row of a Parquet export.
type exportRow struct {
	Concept                string    `parquet:"concept,dict"`
	Period                 string    `parquet:"period,dict"`
	Unit                   string    `parquet:"unit,dict"`
	AsOf                   civil.Day `parquet:"as_of,date"`
	CIK                    string    `parquet:"cik"`
	EntityName             string    `parquet:"entity_name,dict"`
	Tag                    string    `parquet:"tag,dict"`
	PeriodStart            civil.Day `parquet:"period_start,date,optional"` // null for an instant
	PeriodEnd              civil.Day `parquet:"period_end,date"`
	Value                  float64   `parquet:"value"`
	ValueText              string    `parquet:"value_text"`
	Accession              string    `parquet:"accession_number"`
	Form                   string    `parquet:"form,dict"`
	Filed                  civil.Day `parquet:"filed,date"`
	FirstReportedValue     string    `parquet:"first_reported_value"`
	FirstReportedAccession string    `parquet:"first_reported_accession"`
	FirstReportedFiled     civil.Day `parquet:"first_reported_filed,date"`
	Restated               bool      `parquet:"restated"`
}

func dayOf(d edgar13f.Date) civil.Day {
	if d.IsZero() {
		return 0
	}
	return civil.DayOf(d.Year, d.Month, d.Day)
}

func dateText(d edgar13f.Date) string {
	if d.IsZero() {
		return ""
	}
	return d.String()
}

// WriteCSV writes rows (a [Store.Panel], or a frame's rows) to w as CSV
// with a header of [Columns], row by row as they come: value is the exact
// decimal text as filed, value_text repeats it, period_start is empty for
// an instant, restated is true or false. It returns the rows written; a
// decline or error of the stream stops it and is returned.
func WriteCSV(w io.Writer, rows iter.Seq2[PanelRow, error]) (int64, error) {
	cw := csv.NewWriter(w)
	if err := cw.Write(Columns); err != nil {
		return 0, err
	}
	var n int64
	for r, err := range rows {
		if err != nil {
			cw.Flush()
			return n, err
		}
		rec := []string{r.Concept, r.Period, r.Unit, r.AsOf.String(), r.CIK, r.EntityName, r.Tag,
			dateText(r.PeriodStart), r.PeriodEnd.String(), r.Value, r.Value, r.Accession, r.Form, r.Filed.String(),
			r.FirstReportedValue, r.FirstReportedAccession, r.FirstReportedFiled.String(), strconv.FormatBool(r.Restated)}
		if err := cw.Write(rec); err != nil {
			return n, err
		}
		n++
	}
	cw.Flush()
	return n, cw.Error()
}

// WriteParquet writes rows (a [Store.Panel], or a frame's rows) to w as
// one Apache Parquet file of the columns [Columns] (dates as DATE,
// period_start null for an instant, value a DOUBLE and value_text the
// exact decimal text), a row group at a time: at most one row group (64Ki
// rows) is in memory. It returns the rows written; a decline or error of
// the stream stops it and is returned (w then holds no valid file).
func WriteParquet(w io.Writer, rows iter.Seq2[PanelRow, error]) (int64, error) {
	pw := parquet.NewGenericWriter[exportRow](w,
		parquet.Compression(parquetdir.SnappyCodec{}),
		parquet.MaxRowsPerRowGroup(64<<10),
		parquet.CreatedBy("edgar13f", "", ""))
	buf := make([]exportRow, 0, 1024)
	var n int64
	flush := func() error {
		if _, err := pw.Write(buf); err != nil {
			return fmt.Errorf("frames: %w", err)
		}
		n += int64(len(buf))
		buf = buf[:0]
		return nil
	}
	for r, err := range rows {
		if err != nil {
			return n, err
		}
		buf = append(buf, exportRow{Concept: r.Concept, Period: r.Period, Unit: r.Unit, AsOf: dayOf(r.AsOf), CIK: r.CIK,
			EntityName: r.EntityName, Tag: r.Tag, PeriodStart: dayOf(r.PeriodStart), PeriodEnd: dayOf(r.PeriodEnd),
			Value: r.ValueFloat, ValueText: r.Value, Accession: r.Accession, Form: r.Form, Filed: dayOf(r.Filed),
			FirstReportedValue: r.FirstReportedValue, FirstReportedAccession: r.FirstReportedAccession,
			FirstReportedFiled: dayOf(r.FirstReportedFiled), Restated: r.Restated})
		if len(buf) == cap(buf) {
			if err := flush(); err != nil {
				return n, err
			}
		}
	}
	if err := flush(); err != nil {
		return n, err
	}
	if err := pw.Close(); err != nil {
		return n, fmt.Errorf("frames: %w", err)
	}
	return n, nil
}
