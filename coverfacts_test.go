package edgar13f_test

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/edgartest"
)

// TestFilingsCoverFactsAsFiled: Filings reports the facts of every cover as
// the cover states them, whatever the form. Notice Partners' 13F-NT/A
// (0009000002-25-000004) states amendment 1 of type RESTATEMENT, as real
// notice amendments do; its original notice and its holdings reports state
// their own facts.
func TestFilingsCoverFactsAsFiled(t *testing.T) {
	c, _ := edgartest.MirrorClient(t)
	ctx := context.Background()
	type facts struct {
		Accession     string
		Form          edgar13f.Form
		Period        edgar13f.Date
		IsAmendment   bool
		AmendmentNo   int
		AmendmentType edgar13f.AmendmentType
		ReportType    string
		ManagerName   string
	}
	want := []facts{
		{"0009000002-25-000001", edgar13f.Form13FNT, date("2024-12-31"), false, 0, "", "13F NOTICE", "Notice Partners LP"},
		{"0009000002-25-000002", edgar13f.Form13FHR, date("2025-03-31"), false, 0, "", "13F HOLDINGS REPORT", "Notice Partners LP"},
		{"0009000002-25-000003", edgar13f.Form13FHRA, date("2025-06-30"), true, 1, edgar13f.NewHoldings, "13F HOLDINGS REPORT", "Notice Partners LP"},
		{"0009000002-25-000004", edgar13f.Form13FNTA, date("2024-12-31"), true, 1, edgar13f.Restatement, "13F NOTICE", "Notice Partners LP"},
	}
	list, err := c.Filings(ctx, "9000002", date("2025-09-05"))
	if err != nil {
		t.Fatal(err)
	}
	var got []facts
	for _, f := range slices.Backward(list.Filings) { // Filings lists newest first; want is oldest first
		got = append(got, facts{f.Accession, f.Form, f.Period, f.IsAmendment, f.AmendmentNo, f.AmendmentType, f.ReportType, f.ManagerName})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Filings(9000002) cover facts (-want +got):\n%s", diff)
	}

	// The same facts when the period is asked for, and the amendment rule is
	// unchanged: a notice amendment is still only a notice.
	list, err = c.Filings(ctx, "9000002", date("2025-09-05"), edgar13f.ForPeriod(date("2024-12-31")))
	if err != nil {
		t.Fatal(err)
	}
	got = got[:0]
	for _, f := range list.Filings {
		got = append(got, facts{f.Accession, f.Form, f.Period, f.IsAmendment, f.AmendmentNo, f.AmendmentType, f.ReportType, f.ManagerName})
	}
	if diff := cmp.Diff([]facts{want[3], want[0]}, got); diff != "" {
		t.Errorf("Filings(9000002, 2024-12-31) cover facts (-want +got):\n%s", diff)
	}
	if _, err := c.Holdings(ctx, "9000002", date("2024-12-31"), date("2025-09-05")); edgartest.Reason(err) != edgar13f.NoticeOnly {
		t.Errorf("Holdings(9000002, 2024-12-31) = %v; want decline %s", err, edgar13f.NoticeOnly)
	}
}
