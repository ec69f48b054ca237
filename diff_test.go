package edgar13f_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/infotable"
)

// row returns a row filed in 2024, whose value is in dollars.
func row(cusip string, pc edgar13f.PutCall, sp edgar13f.ShPrn, name string, shares, value int64) edgar13f.Holding {
	return priced(edgar13f.Holding{CUSIP: cusip, PutCall: pc, ShPrn: sp, NameOfIssuer: name, SharesOrPrincipal: shares, Value: value, FilingDate: edgar13f.Date{2024, 2, 14}})
}

// priced sets a row's ValueUSD from its Value and FilingDate, as the
// readers of information tables do.
func priced(h edgar13f.Holding) edgar13f.Holding {
	h.ValueUSD = infotable.ValueUSD(h.Value, civil.DayOf(h.FilingDate.Year, h.FilingDate.Month, h.FilingDate.Day))
	return h
}

func TestCompareHoldingsConsolidatesAndClassifies(t *testing.T) {
	a := []edgar13f.Holding{
		row("037833100", "", edgar13f.Shares, "APPLE INC", 100, 1000),
		row("037833100", "", edgar13f.Shares, "APPLE INC", 50, 500), // same position, another manager
		row("594918104", "", edgar13f.Shares, "MICROSOFT CORP", 10, 100),
		row("023135106", "", edgar13f.Shares, "AMAZON COM INC", 7, 70),
		row("67066G104", edgar13f.Put, edgar13f.Shares, "NVIDIA CORPORATION", 5, 50),
		row("30303M102", "", edgar13f.Shares, "META PLATFORMS INC", 3, 30),
	}
	b := []edgar13f.Holding{
		row("037833100", "", edgar13f.Shares, "APPLE INC NEW NAME", 150, 2000), // shares unchanged in total, value up
		row("594918104", "", edgar13f.Shares, "MICROSOFT CORP", 20, 250),
		row("023135106", "", edgar13f.Shares, "AMAZON COM INC", 1, 9),
		row("67066g104", "", edgar13f.Shares, "NVIDIA CORPORATION", 8, 80), // lower-case CUSIP, stock not put
		row("30303M102", "", edgar13f.Principal, "META PLATFORMS INC", 1000, 1000),
	}
	got := edgar13f.CompareHoldings(a, b)
	want := []edgar13f.Change{
		{CUSIP: "023135106", NameOfIssuer: "AMAZON COM INC", ShPrn: edgar13f.Shares, SharesA: 7, SharesB: 1, SharesDelta: -6, ValueA: 70, ValueB: 9, ValueDelta: -61, Type: edgar13f.Decreased},
		{CUSIP: "037833100", NameOfIssuer: "APPLE INC NEW NAME", ShPrn: edgar13f.Shares, SharesA: 150, SharesB: 150, ValueA: 1500, ValueB: 2000, ValueDelta: 500, Type: edgar13f.Unchanged},
		{CUSIP: "30303M102", NameOfIssuer: "META PLATFORMS INC", ShPrn: edgar13f.Principal, SharesB: 1000, SharesDelta: 1000, ValueB: 1000, ValueDelta: 1000, Type: edgar13f.Added},
		{CUSIP: "30303M102", NameOfIssuer: "META PLATFORMS INC", ShPrn: edgar13f.Shares, SharesA: 3, SharesDelta: -3, ValueA: 30, ValueDelta: -30, Type: edgar13f.Removed},
		{CUSIP: "594918104", NameOfIssuer: "MICROSOFT CORP", ShPrn: edgar13f.Shares, SharesA: 10, SharesB: 20, SharesDelta: 10, ValueA: 100, ValueB: 250, ValueDelta: 150, Type: edgar13f.Increased},
		{CUSIP: "67066G104", NameOfIssuer: "NVIDIA CORPORATION", ShPrn: edgar13f.Shares, SharesB: 8, SharesDelta: 8, ValueB: 80, ValueDelta: 80, Type: edgar13f.Added},
		{CUSIP: "67066G104", NameOfIssuer: "NVIDIA CORPORATION", PutCall: edgar13f.Put, ShPrn: edgar13f.Shares, SharesA: 5, SharesDelta: -5, ValueA: 50, ValueDelta: -50, Type: edgar13f.Removed},
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(edgar13f.Change{}, "ValueUSDA", "ValueUSDB", "ValueUSDDelta")); diff != "" {
		t.Errorf("compareHoldings mismatch (-want +got):\n%s", diff)
	}
	for _, ch := range got { // filed in dollars: the dollar values are the values as filed
		if ch.ValueUSDA != ch.ValueA || ch.ValueUSDB != ch.ValueB || ch.ValueUSDDelta != ch.ValueDelta {
			t.Errorf("%s: value_usd %d %d %d; as filed %d %d %d", ch.CUSIP, ch.ValueUSDA, ch.ValueUSDB, ch.ValueUSDDelta, ch.ValueA, ch.ValueB, ch.ValueDelta)
		}
	}
}

func TestFilterSnapshotLimit(t *testing.T) {
	rows := []edgar13f.Holding{
		row("AAAAAAAA1", "", edgar13f.Shares, "ALPHA", 1, 10),
		row("BBBBBBBB2", "", edgar13f.Shares, "BETA", 1, 30),
		row("AAAAAAAA1", "", edgar13f.Shares, "ALPHA", 1, 25), // ALPHA sums to 35
		row("CCCCCCCC3", edgar13f.Call, edgar13f.Shares, "GAMMA", 1, 30),
		row("CCCCCCCC3", "", edgar13f.Shares, "GAMMA", 1, 30), // ties with BETA and the call: CUSIP, then none before CALL
		row("DDDDDDDD4", "", edgar13f.Shares, "DELTA", 1, 1),
	}
	for _, tc := range []struct {
		n         int
		wantNames []string
		truncated bool
	}{
		{1, []string{"ALPHA", "ALPHA"}, true},
		{2, []string{"ALPHA", "ALPHA", "BETA"}, true},
		{3, []string{"ALPHA", "ALPHA", "BETA", "GAMMA"}, true},
		{4, []string{"ALPHA", "ALPHA", "BETA", "GAMMA", "GAMMA"}, true},
		{5, []string{"ALPHA", "ALPHA", "BETA", "GAMMA", "GAMMA", "DELTA"}, false},
		{200, []string{"ALPHA", "ALPHA", "BETA", "GAMMA", "GAMMA", "DELTA"}, false},
	} {
		q, err := edgar13f.NewQuery("1", nil, nil, []edgar13f.Option{edgar13f.Limit(tc.n)})
		if err != nil {
			t.Fatal(err)
		}
		s := &edgar13f.Snapshot{Holdings: append([]edgar13f.Holding(nil), rows...)}
		q.FilterSnapshot(s)
		var names []string
		for _, h := range s.Holdings {
			names = append(names, h.NameOfIssuer)
		}
		if diff := cmp.Diff(tc.wantNames, names); diff != "" {
			t.Errorf("Limit(%d) rows mismatch (-want +got):\n%s", tc.n, diff)
		}
		if s.TotalPositions != 5 || s.Truncated != tc.truncated || s.Order != edgar13f.ValueDesc {
			t.Errorf("Limit(%d): total=%d truncated=%v order=%q; want 5 %v %q", tc.n, s.TotalPositions, s.Truncated, s.Order, tc.truncated, edgar13f.ValueDesc)
		}
	}
	// The call of GAMMA must rank after GAMMA's stock at equal value, and
	// rows of one position keep their filed order.
	q, _ := edgar13f.NewQuery("1", nil, nil, []edgar13f.Option{edgar13f.Limit(4)})
	s := &edgar13f.Snapshot{Holdings: append([]edgar13f.Holding(nil), rows...)}
	q.FilterSnapshot(s)
	if s.Holdings[3].PutCall != "" || s.Holdings[4].PutCall != edgar13f.Call {
		t.Errorf("Limit(4): GAMMA's CALL ranked before its stock at equal value")
	}
	if s.Holdings[0].Value != 10 || s.Holdings[1].Value != 25 {
		t.Errorf("Limit: rows of one position not in filed order: %d, %d", s.Holdings[0].Value, s.Holdings[1].Value)
	}
}

func TestFilterSnapshotIssuerAndCUSIP(t *testing.T) {
	rows := []edgar13f.Holding{
		row("037833100", "", edgar13f.Shares, "APPLE  INC", 1, 1),
		row("037833100", edgar13f.Call, edgar13f.Shares, "Apple Inc", 1, 1),
		row("594918104", "", edgar13f.Shares, "MICROSOFT CORP", 1, 1),
		row("02079k305", "", edgar13f.Shares, "ALPHABET INC", 1, 1),
	}
	q, err := edgar13f.NewQuery("1", nil, nil, []edgar13f.Option{edgar13f.Issuer("apple inc")})
	if err != nil {
		t.Fatal(err)
	}
	s := &edgar13f.Snapshot{Holdings: append([]edgar13f.Holding(nil), rows...)}
	q.FilterSnapshot(s)
	if len(s.Holdings) != 2 || cmp.Diff([]string{"037833100"}, s.MatchedCUSIPs) != "" {
		t.Errorf("Issuer(apple inc): %d rows, matched %q; want 2 rows, [037833100]", len(s.Holdings), s.MatchedCUSIPs)
	}
	q, _ = edgar13f.NewQuery("1", nil, nil, []edgar13f.Option{edgar13f.Issuer("INC"), edgar13f.CUSIPs("02079K305", "037833100")})
	s = &edgar13f.Snapshot{Holdings: append([]edgar13f.Holding(nil), rows...)}
	q.FilterSnapshot(s)
	if diff := cmp.Diff([]string{"02079K305", "037833100"}, s.MatchedCUSIPs); diff != "" || len(s.Holdings) != 3 {
		t.Errorf("Issuer+CUSIPs: %d rows, matched mismatch (-want +got):\n%s", len(s.Holdings), diff)
	}
	if s.Holdings[2].CUSIP != "02079k305" {
		t.Errorf("CUSIP not returned as filed: %q", s.Holdings[2].CUSIP)
	}
}
