package datasets

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/amend"
	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/edgartest"
	"github.com/edgar13f/edgar13f/mirror"
)

// TestBulkRuleFailureFailsQuery: when the amendment rule fails for one
// manager (a cover that cannot be read or parsed), Holdings, Holders and
// Panel fail with that error; none answers without the manager as if it
// held nothing.
func TestBulkRuleFailureFailsQuery(t *testing.T) {
	ctx := context.Background()
	c, err := edgar13f.NewClient(edgar13f.WithFetcher(mirror.NewFetcher(edgartest.MirrorFS(t))), edgar13f.WithCacheDir(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(c)
	if err != nil {
		t.Fatal(err)
	}
	period, asOf := edgar13f.MustParseDate("2023-09-30"), edgar13f.MustParseDate("2024-05-15")
	if _, err := d.SyncFor(ctx, period, asOf); err != nil {
		t.Fatal(err)
	}
	// Berkshire holds the CUSIP, and is in the panel, while its rule works.
	hl, err := d.Holders(ctx, "037833100", period, asOf)
	if err != nil || !slices.ContainsFunc(hl.Holders, func(h Holder) bool { return h.CIK == "1067983" }) {
		t.Fatalf("holders: %+v, %v", hl, err)
	}
	broken := &edgar13f.ParseError{Document: "https://www.sec.gov/Archives/edgar/data/1067983/000095012324005653/primary_doc.xml", Err: errors.New("unexpected EOF")}
	d.resolve = func(fs []amend.Filing, period, asOf civil.Day) (int, []int, error) {
		if slices.ContainsFunc(fs, func(f amend.Filing) bool { return f.Accession == "0000950123-24-005653" }) {
			return -1, nil, broken
		}
		return resolveCovered(fs, period, asOf)
	}
	if _, err := d.Holdings(ctx, "1067983", period, asOf); !errors.Is(err, broken) {
		t.Errorf("holdings: %v", err)
	}
	if hl, err := d.Holders(ctx, "037833100", period, asOf); !errors.Is(err, broken) {
		t.Errorf("holders: %+v, %v", hl, err)
	}
	rows := 0
	var perr error
	for _, err := range d.Panel(ctx, period, asOf) {
		if err != nil {
			perr = err
			break
		}
		rows++
	}
	if !errors.Is(perr, broken) || rows != 0 {
		t.Errorf("panel: %d rows, then %v", rows, perr)
	}
}
