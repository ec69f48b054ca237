package edgar13f_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/edgartest"
)

// berkshireAcrossUnits diffs Berkshire's real 2022Q3 report (filed
// 2022-11-14, values in thousands) against its 2022Q4 report (filed
// 2023-02-14, values in dollars).
func berkshireAcrossUnits(t *testing.T, opts ...edgar13f.Option) *edgar13f.Comparison {
	t.Helper()
	c, _ := edgartest.MirrorClient(t)
	cmpn, err := c.Diff(context.Background(), "1067983", date("2022-09-30"), date("2022-12-31"), date("2023-02-15"), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return cmpn
}

// TestDiffValueUSDAcrossUnitsChange: across the 2023-01-03 units change the
// as-filed values of a diff add thousands to dollars (Apple "up" by 116
// billion); the dollar values convert each side by its own filing date
// (Apple down by 7.4 billion).
func TestDiffValueUSDAcrossUnitsChange(t *testing.T) {
	cmpn := berkshireAcrossUnits(t)
	if len(cmpn.Changes) < 40 {
		t.Fatalf("%d changes", len(cmpn.Changes))
	}
	var apple *edgar13f.Change
	for i := range cmpn.Changes {
		ch := &cmpn.Changes[i]
		// Side A was filed in thousands, side B in dollars.
		if ch.ValueUSDA != ch.ValueA*1000 || ch.ValueUSDB != ch.ValueB || ch.ValueUSDDelta != ch.ValueUSDB-ch.ValueUSDA {
			t.Errorf("%s %s: value_usd %d -> %d (delta %d); as filed %d -> %d", ch.CUSIP, ch.NameOfIssuer, ch.ValueUSDA, ch.ValueUSDB, ch.ValueUSDDelta, ch.ValueA, ch.ValueB)
		}
		if ch.ValueDelta != ch.ValueB-ch.ValueA {
			t.Errorf("%s: as-filed delta %d, want %d", ch.CUSIP, ch.ValueDelta, ch.ValueB-ch.ValueA)
		}
		if ch.CUSIP == "037833100" && ch.PutCall == "" {
			apple = ch
		}
	}
	if apple == nil {
		t.Fatal("no Apple change")
	}
	want := edgar13f.Change{
		CUSIP: "037833100", NameOfIssuer: "APPLE INC", ShPrn: edgar13f.Shares,
		SharesA: 894802319, SharesB: 895136175, SharesDelta: 333856,
		ValueA: 123661679, ValueB: 116305043218, ValueDelta: 116181381539,
		ValueUSDA: 123661679000, ValueUSDB: 116305043218, ValueUSDDelta: -7356635782,
		Type: edgar13f.Increased,
	}
	if diff := cmp.Diff(want, *apple); diff != "" {
		t.Errorf("Apple change (-want +got):\n%s", diff)
	}
}

// TestDiffLimitRanksByDollars: with Limit a diff ranks by
// |value_usd delta|. By the as-filed delta the top three would be Apple,
// Bank of America and Chevron (each "up" by its 2022Q4 value in dollars);
// in dollars Taiwan Semiconductor, mostly sold in 2022Q4, is third.
func TestDiffLimitRanksByDollars(t *testing.T) {
	all := berkshireAcrossUnits(t)
	top := berkshireAcrossUnits(t, edgar13f.Limit(3))
	var got []string
	for _, ch := range top.Changes {
		got = append(got, ch.NameOfIssuer)
	}
	want := []string{"APPLE INC", "CHEVRON CORP NEW", "TAIWAN SEMICONDUCTOR MFG LTD"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("top 3 changes (-want +got):\n%s", diff)
	}
	if top.Order != edgar13f.AbsValueDeltaDesc || !top.Truncated || top.TotalPositions != len(all.Changes) {
		t.Errorf("order %q truncated %v total %d; want %q true %d", top.Order, top.Truncated, top.TotalPositions, edgar13f.AbsValueDeltaDesc, len(all.Changes))
	}
	// No change left out moved more dollars than the last one kept.
	last := abs(top.Changes[len(top.Changes)-1].ValueUSDDelta)
	kept := map[string]bool{}
	for _, ch := range top.Changes {
		kept[ch.CUSIP+string(ch.PutCall)+string(ch.ShPrn)] = true
	}
	for _, ch := range all.Changes {
		if !kept[ch.CUSIP+string(ch.PutCall)+string(ch.ShPrn)] && abs(ch.ValueUSDDelta) > last {
			t.Errorf("%s (|value_usd delta| %d) left out; the last kept moved %d", ch.NameOfIssuer, abs(ch.ValueUSDDelta), last)
		}
	}
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
