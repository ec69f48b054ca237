package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f/examples/internal/testkit"
)

// wantTools are the tools the server offers, sorted.
var wantTools = []string{"diff_holdings", "find_manager", "get_chunk", "get_filing_section", "get_financial_facts", "get_frame", "get_holders_as_of", "get_holdings_as_of",
	"index_filings", "list_13f_filings", "list_filings", "search_company", "search_filings"}

// summary picks the members of an answer that the environment changes.
func summary(r result) map[string]any {
	m := map[string]any{"isError": r.isError, "status": r.obj["status"]}
	for _, k := range []string{"auto_limited", "total_positions", "truncated", "order", "accession_number", "reason"} {
		if v, ok := r.obj[k]; ok {
			m[k] = v
		}
	}
	for _, k := range []string{"holdings", "changes"} {
		if v, ok := r.obj[k].([]any); ok {
			m[k] = float64(len(v))
		}
	}
	return m
}

func TestAgentMode(t *testing.T) {
	s := testkit.Connect(t, command(t, "EDGAR13F_FIXTURE_DIR="+mirror, "EDGAR13F_AGENT_MODE=on"))
	const q = `"cik":"1067983","period":"2023-09-30","as_of":"2024-05-15"`
	tests := []struct {
		name, tool, args string
		want             map[string]any
	}{
		{"holdings unfiltered", "get_holdings_as_of", `{` + q + `}`, map[string]any{
			"isError": false, "status": "ok", "auto_limited": true, "total_positions": 44.0, "truncated": false, "order": "value_desc",
			"accession_number": "0000950123-23-011029", "holdings": 151.0}},
		{"holdings with max_positions", "get_holdings_as_of", `{` + q + `,"max_positions":2}`, map[string]any{
			"isError": false, "status": "ok", "total_positions": 44.0, "truncated": true, "order": "value_desc",
			"accession_number": "0000950123-23-011029", "holdings": 25.0}},
		{"holdings with issuer", "get_holdings_as_of", `{` + q + `,"issuer":"apple"}`, map[string]any{
			"isError": false, "status": "ok", "accession_number": "0000950123-23-011029", "holdings": 12.0}},
		{"diff unfiltered", "diff_holdings", `{"cik":"1067983","period_a":"2023-09-30","period_b":"2023-12-31","as_of":"2024-05-16"}`, map[string]any{
			"isError": false, "status": "ok", "auto_limited": true, "total_positions": 44.0, "truncated": false, "order": "abs_value_delta_desc", "changes": 44.0}},
		{"decline unchanged", "get_holdings_as_of", `{"cik":"9000001","period":"2025-12-31","as_of":"2025-11-13"}`, map[string]any{
			"isError": false, "status": "declined", "reason": "not_yet_filed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, summary(call(t, s, tt.tool, tt.args))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestEnvironment(t *testing.T) {
	srv, requests := testkit.MirrorServer(t, nil)
	const ua = "SEC_USER_AGENT=edgar13f tests test@example.com"
	const q = `{"cik":"1067983","period":"2023-09-30","as_of":"2024-05-15"}`
	tests := []struct {
		name         string
		env          []string
		want         map[string]any
		wantRequests bool
		wantMessage  string
	}{
		{"redaction on over HTTP", []string{ua, "EDGAR13F_BASE_URL=" + srv.URL}, map[string]any{
			"isError": false, "status": "ok", "accession_number": "0000950123-23-011029", "holdings": 151.0}, true, ""},
		{"redaction off over HTTP", []string{ua, "EDGAR13F_BASE_URL=" + srv.URL, "EDGAR13F_REDACT=off"}, map[string]any{
			"isError": false, "status": "ok", "accession_number": "0000950123-23-011029", "holdings": 153.0}, true, ""},
		{"redaction not exactly off", []string{ua, "EDGAR13F_BASE_URL=" + srv.URL, "EDGAR13F_REDACT=OFF"}, map[string]any{
			"isError": false, "status": "ok", "accession_number": "0000950123-23-011029", "holdings": 151.0}, true, ""},
		{"no user agent", []string{"EDGAR13F_BASE_URL=" + srv.URL}, map[string]any{"isError": true, "status": "error"}, false,
			`internal error: no User-Agent for EDGAR: set SEC_USER_AGENT to "Name email@domain" (SEC's fair-access policy requires one naming you)`},
		{"user agent without email", []string{"SEC_USER_AGENT=nobody", "EDGAR13F_BASE_URL=" + srv.URL}, map[string]any{"isError": true, "status": "error"}, false,
			`internal error: User-Agent "nobody" has no email address: set SEC_USER_AGENT to "Name email@domain" (SEC's fair-access policy requires one naming you)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := testkit.Connect(t, command(t, tt.env...))
			before := requests.Load()
			r := call(t, s, "get_holdings_as_of", q)
			got := summary(r)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if sent := requests.Load() > before; sent != tt.wantRequests {
				t.Errorf("requests sent: %v, want %v", sent, tt.wantRequests)
			}
			if m, _ := r.obj["message"].(string); tt.wantMessage != m {
				t.Errorf("message %q, want %q", m, tt.wantMessage)
			}
		})
	}
}
