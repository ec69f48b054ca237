package main

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/examples/internal/testkit"
	"github.com/edgar13f/edgar13f/frames"
)

// frameCall calls get_frame, whose answers and declines carry the frames
// disclaimer.
func frameCall(t *testing.T, s *mcp.ClientSession, args string) result {
	t.Helper()
	return callTool(t, s, "get_frame", args, frames.Disclaimer)
}

// TestFrame answers get_frame from the test mirror's companyfacts.zip,
// imported on first use: Apple's fiscal 2009 net income as first reported
// and as restated; declines name the reason.
func TestFrame(t *testing.T) {
	s := testkit.Connect(t, command(t, "EDGAR13F_FIXTURE_DIR="+mirror))
	for _, tc := range []struct {
		asOf     string
		value    float64
		restated bool
	}{{"2009-12-01", 5704e6, false}, {"2010-02-01", 8235e6, true}} {
		r := frameCall(t, s, `{"concept":"net_income","period":"CY2009","as_of":"`+tc.asOf+`"}`)
		if r.isError || r.obj["status"] != "ok" || r.obj["unit"] != "USD" || r.obj["data_through"] != "2025-05-30" || r.obj["complete"] != true {
			t.Fatalf("%s: %v", tc.asOf, r.obj)
		}
		cs, _ := r.obj["companies"].([]any)
		if len(cs) != 1 {
			t.Fatalf("%s: %v", tc.asOf, r.obj)
		}
		c := cs[0].(map[string]any)
		if c["cik"] != "0000320193" || c["value"] != tc.value || c["restated"] != tc.restated ||
			c["first_reported_value"] != 5704e6 || c["period_start"] != "2008-09-28" {
			t.Errorf("%s: %v", tc.asOf, c)
		}
	}
	r := frameCall(t, s, `{"concept":"total_assets","period":"CY2023Q4I","as_of":"2024-11-30","order":"value_desc","limit":1}`)
	if r.obj["truncated"] != true || r.obj["total_companies"] != 4.0 {
		t.Errorf("limit: %v", r.obj)
	}
	r = frameCall(t, s, `{"concept":"ifrs-full:Revenue","period":"CY2023","as_of":"2024-11-30","unit":"USD"}`)
	if cs, _ := r.obj["companies"].([]any); len(cs) != 1 {
		t.Errorf("unit: %v", r.obj)
	}
	ia, uc := edgar13f.InvalidArgument, edgar13f.UnknownConcept
	for _, tc := range []struct {
		args string
		want edgar13f.Reason
	}{
		{`{"concept":"net_income","period":"2023","as_of":"2024-01-01"}`, ia},
		{`{"concept":"net_income","period":"CY2023","as_of":"2024-02-30"}`, ia},
		{`{"concept":"net_income","period":"CY2023","as_of":"2024-01-01","limit":0}`, ia},
		{`{"concept":"net_income","period":"CY2023","as_of":"2024-01-01","order":"value"}`, ia},
		{`{"concept":"net_income","period":"CY2023","as_of":"2024-01-01","unit":"U S D"}`, ia},
		{`{"concept":"net_income","period":"CY2023","as_of":"2024-01-01","cik":"320193"}`, ia},
		{`{"concept":"us-gaap:NoSuchTag","period":"CY2023","as_of":"2024-01-01"}`, uc},
	} {
		r := frameCall(t, s, tc.args)
		if r.isError || r.obj["status"] != "declined" || r.obj["reason"] != string(tc.want) {
			t.Errorf("%s: %v", tc.args, r.obj)
		}
	}
}
