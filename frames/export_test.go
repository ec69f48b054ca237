package frames_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"slices"
	"strconv"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/frames"
	"github.com/edgar13f/edgar13f/internal/edgartest"
)

var panelPeriods = []string{"CY2009", "CY2019", "CY2022", "CY2023"}

// wantPanel is the panel as the frames of each period give it.
func wantPanel(t *testing.T, s *frames.Store, concept string, asOf edgar13f.Date) []frames.PanelRow {
	t.Helper()
	var out []frames.PanelRow
	for _, p := range panelPeriods {
		f, err := s.Frame(context.Background(), concept, p, asOf, frames.Limit(frames.MaxLimit))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range f.Companies {
			out = append(out, frames.PanelRow{Concept: f.Concept, Period: f.Period, Unit: f.Unit, AsOf: asOf, Company: c})
		}
	}
	return out
}

// TestPanelEqualsFrames: the panel streams, period after period, the
// companies of each period's frame, in CIK order; Rows streams one frame.
func TestPanelEqualsFrames(t *testing.T) {
	s := mirrorFacts(t)
	ctx := context.Background()
	asOf := date("2024-11-30")
	want := wantPanel(t, s, "net_income", asOf)
	var got []frames.PanelRow
	for r, err := range s.Panel(ctx, "net_income", panelPeriods, asOf) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	if len(want) < 8 || !slices.Equal(got, want) {
		t.Fatalf("panel: %d rows, want %d:\n%+v\n%+v", len(got), len(want), got, want)
	}
	var rows []frames.Company
	for c, err := range s.Rows(ctx, "net_income", "CY2023", asOf) {
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, c)
	}
	f, _ := s.Frame(ctx, "net_income", "CY2023", asOf)
	if !slices.Equal(rows, f.Companies) {
		t.Errorf("Rows %+v, Frame %+v", rows, f.Companies)
	}
	// Declines come as the only element; a stopped stream stops.
	for _, seq := range []func(func(frames.Company, error) bool){
		s.Rows(ctx, "net_income", "CY2023Q9", asOf),
		s.Rows(ctx, "net_income", "CY2023", asOf, frames.Limit(5)),
		s.Rows(ctx, "us-gaap:NoSuchTag", "CY2023", asOf),
	} {
		n := 0
		for _, err := range seq {
			n++
			if err == nil || edgartest.Reason(err) == "" {
				t.Errorf("a stream of a declined question gave %v", err)
			}
		}
		if n != 1 {
			t.Errorf("%d elements", n)
		}
	}
	n := 0
	for range s.Panel(ctx, "net_income", panelPeriods, asOf) {
		n++
		break
	}
	if n != 1 {
		t.Errorf("break: %d", n)
	}
	for _, err := range s.Panel(ctx, "net_income", []string{"CY2023", "bad"}, asOf) {
		if edgartest.Reason(err) != edgar13f.InvalidArgument {
			t.Errorf("panel with a bad period: %v", err)
		}
	}
}

// TestExportCSVParquet: the panel written as CSV and as Parquet reads
// back as the panel, exact values included.
func TestExportCSVParquet(t *testing.T) {
	s := mirrorFacts(t)
	ctx := context.Background()
	asOf := date("2024-11-30")
	want := wantPanel(t, s, "eps_diluted", asOf)

	var b bytes.Buffer
	n, err := frames.WriteCSV(&b, s.Panel(ctx, "eps_diluted", panelPeriods, asOf))
	if err != nil || n != int64(len(want)) {
		t.Fatalf("WriteCSV: %d, %v", n, err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(recs[0], frames.Columns) || len(recs) != len(want)+1 {
		t.Fatalf("CSV: header %v, %d records", recs[0], len(recs))
	}
	for i, w := range want {
		r := recs[i+1]
		start := ""
		if !w.PeriodStart.IsZero() {
			start = w.PeriodStart.String()
		}
		exp := []string{"eps_diluted", w.Period, "USD/shares", "2024-11-30", w.CIK, w.EntityName, w.Tag, start, w.PeriodEnd.String(),
			w.Value, w.Value, w.Accession, w.Form, w.Filed.String(), w.FirstReportedValue, w.FirstReportedAccession,
			w.FirstReportedFiled.String(), strconv.FormatBool(w.Restated)}
		if !slices.Equal(r, exp) {
			t.Errorf("CSV row %d: %v, want %v", i, r, exp)
		}
	}

	b.Reset()
	n, err = frames.WriteParquet(&b, s.Panel(ctx, "eps_diluted", panelPeriods, asOf))
	if err != nil || n != int64(len(want)) {
		t.Fatalf("WriteParquet: %d, %v", n, err)
	}
	type row struct {
		Period      string  `parquet:"period"`
		CIK         string  `parquet:"cik"`
		Value       float64 `parquet:"value"`
		ValueText   string  `parquet:"value_text"`
		PeriodStart *int32  `parquet:"period_start,optional"`
		Restated    bool    `parquet:"restated"`
		FirstValue  string  `parquet:"first_reported_value"`
	}
	got, err := parquet.Read[row](bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil || len(got) != len(want) {
		t.Fatalf("Parquet: %d rows, %v", len(got), err)
	}
	for i, w := range want {
		g := got[i]
		if g.Period != w.Period || g.CIK != w.CIK || g.Value != w.ValueFloat || g.ValueText != w.Value || g.Restated != w.Restated ||
			g.FirstValue != w.FirstReportedValue || (g.PeriodStart == nil) != w.PeriodStart.IsZero() {
			t.Errorf("Parquet row %d: %+v, want %+v", i, g, w)
		}
	}
	f, _ := parquet.OpenFile(bytes.NewReader(b.Bytes()), int64(b.Len()))
	var names []string
	for _, c := range f.Schema().Fields() {
		names = append(names, c.Name())
	}
	if !slices.Equal(names, frames.Columns) {
		t.Errorf("Parquet columns %v", names)
	}
}
