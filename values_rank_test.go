package edgar13f_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f"
)

// TestLimitRanksByDollars: a period can mix units, a report filed
// before 2023-01-03 (thousands) with a new-holdings amendment filed since
// (dollars). Limit ranks positions by summed value in dollars: by
// the values as filed the amendment's $336,370 row (336370) would outrank
// the report's $10,735,000 row (10735).
func TestLimitRanksByDollars(t *testing.T) {
	thousands, dollars := edgar13f.Date{2014, 5, 15}, edgar13f.Date{2024, 2, 20}
	rows := []edgar13f.Holding{
		priced(edgar13f.Holding{Accession: "base", FilingDate: thousands, CUSIP: "037833100", NameOfIssuer: "APPLE INC", Value: 10735, ShPrn: edgar13f.Shares}),
		priced(edgar13f.Holding{Accession: "base", FilingDate: thousands, CUSIP: "594918104", NameOfIssuer: "MICROSOFT CORP", Value: 2050, ShPrn: edgar13f.Shares}),
		priced(edgar13f.Holding{Accession: "supplement", FilingDate: dollars, CUSIP: "023135106", NameOfIssuer: "AMAZON COM INC", Value: 336370, ShPrn: edgar13f.Shares}),
		priced(edgar13f.Holding{Accession: "supplement", FilingDate: dollars, CUSIP: "594918104", NameOfIssuer: "MICROSOFT CORP", Value: 9000000, ShPrn: edgar13f.Shares}),
	}
	for _, tc := range []struct {
		n    int
		want []string // issuer and accession of the kept rows, in order
	}{
		// Microsoft: $2,050,000 + $9,000,000; Apple $10,735,000; Amazon $336,370.
		{1, []string{"MICROSOFT CORP base", "MICROSOFT CORP supplement"}},
		{2, []string{"MICROSOFT CORP base", "MICROSOFT CORP supplement", "APPLE INC base"}},
		{3, []string{"MICROSOFT CORP base", "MICROSOFT CORP supplement", "APPLE INC base", "AMAZON COM INC supplement"}},
	} {
		q, err := edgar13f.NewQuery("9000004", map[string]edgar13f.Date{"period": {2014, 3, 31}, "asOf": dollars}, []edgar13f.Date{{2014, 3, 31}}, []edgar13f.Option{edgar13f.Limit(tc.n)})
		if err != nil {
			t.Fatal(err)
		}
		snap := &edgar13f.Snapshot{Holdings: append([]edgar13f.Holding(nil), rows...)}
		q.FilterSnapshot(snap)
		var got []string
		for _, h := range snap.Holdings {
			got = append(got, h.NameOfIssuer+" "+h.Accession)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("Limit(%d) (-want +got):\n%s", tc.n, diff)
		}
		if snap.Order != edgar13f.ValueDesc || snap.TotalPositions != 3 || snap.Truncated != (tc.n < 3) {
			t.Errorf("Limit(%d): order %q total %d truncated %v", tc.n, snap.Order, snap.TotalPositions, snap.Truncated)
		}
	}
}
