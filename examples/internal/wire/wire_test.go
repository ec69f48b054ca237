package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/datasets"
	"github.com/edgar13f/edgar13f/examples/internal/testkit"
)

func TestAppendString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `""`},
		{"APPLE INC", `"APPLE INC"`},
		{`a"b\c`, `"a\"b\\c"`},
		{"tab\tnl\ncr\r", `"tab\tnl\ncr\r"`},
		{"\x00\x1f", `"\u0000\u001f"`},
		{"L\u2028S\u2029", `"L\u2028S\u2029"`},
		{"caf\xe9", `"caf\ufffd"`},
		{"Société Générale", `"Société Générale"`},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			got := string(appendString(nil, tt.in))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("appendString(%q) (-want +got):\n%s", tt.in, diff)
			}
			if !json.Valid([]byte(got)) {
				t.Errorf("appendString(%q) = %s, not valid JSON", tt.in, got)
			}
		})
	}
}

func decode(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("answer is not one JSON object: %v\n%s", err, b)
	}
	return m
}

var (
	d1 = edgar13f.MustParseDate("2023-09-30")
	d2 = edgar13f.MustParseDate("2023-11-15")
	c1 = edgar13f.Citation{Accession: "0000950123-23-011029", Form: edgar13f.Form13FHRA, FilingDate: d2}
	c2 = edgar13f.Citation{Accession: "0000950123-24-005653", Form: edgar13f.Form13FHRA, FilingDate: d2}
)

// writeCase is one answer of this package and the JSON it must be.
type writeCase struct {
	name  string
	write func(io.Writer) error
	want  string
}

// writeCases are an answer of each kind.
func writeCases() []writeCase {
	snap := &edgar13f.Snapshot{
		CIK: "1067983", Period: d1, AsOf: d2, Base: c1, Sources: []edgar13f.Citation{c1, c2},
		Holdings: []edgar13f.Holding{
			{Accession: c1.Accession, FilingDate: d2, NameOfIssuer: "APPLE INC", TitleOfClass: "COM", CUSIP: "037833100", Value: 10, ValueUSD: 10, SharesOrPrincipal: 20, ShPrn: edgar13f.Shares, InvestmentDiscretion: "DFND", OtherManager: "4,8", VotingSole: 1, VotingShared: 2, VotingNone: 3},
			{Accession: c2.Accession, FilingDate: edgar13f.MustParseDate("2022-11-14"), NameOfIssuer: "X", TitleOfClass: "CALL", CUSIP: "12345678a", FIGI: "BBG000B9XRY4", Value: 5, ValueUSD: 5000, SharesOrPrincipal: 6, ShPrn: edgar13f.Principal, PutCall: edgar13f.Call, InvestmentDiscretion: "SOLE"},
		},
		Reconciliations: []edgar13f.Reconciliation{
			{Citation: c1, Cover: edgar13f.Totals{Stated: true, Entries: 1, Value: 10}, Matched: true},
			{Citation: c2},
		},
		MatchedCUSIPs: []string{}, TotalPositions: 7, Truncated: true, Order: edgar13f.ValueDesc,
	}
	cmpn := &edgar13f.Comparison{
		CIK: "9000001", PeriodA: d1, PeriodB: edgar13f.MustParseDate("2023-12-31"), AsOf: d2,
		BaseA: c1, BaseB: c2, SourcesA: []edgar13f.Citation{c1}, SourcesB: []edgar13f.Citation{c2},
		ReconciliationsA: []edgar13f.Reconciliation{{Citation: c1, Cover: edgar13f.Totals{Stated: true, Entries: 1, Value: 10}, Matched: true}},
		ReconciliationsB: []edgar13f.Reconciliation{{Citation: c2, Cover: edgar13f.Totals{Stated: true, Entries: 2, Value: 41}}},
		Changes: []edgar13f.Change{{CUSIP: "037833100", NameOfIssuer: "APPLE INC", ShPrn: edgar13f.Shares, SharesA: 1, SharesB: 3, SharesDelta: 2, ValueA: 10, ValueB: 40, ValueDelta: 30,
			ValueUSDA: 10000, ValueUSDB: 40, ValueUSDDelta: -9960, Type: edgar13f.Increased}},
	}
	filings := []edgar13f.Filing{
		{Accession: "a-1", Form: edgar13f.Form13FHR, FilingDate: d2, Period: d1, ReportType: "13F HOLDINGS REPORT", ManagerName: "M", IndexURL: "u"},
		{Accession: "a-2", Form: edgar13f.Form13FHRA, FilingDate: d2, Period: d1, IsAmendment: true, AmendmentNo: 2, AmendmentType: edgar13f.NewHoldings, IndexURL: "v"},
	}
	return []writeCase{
		{"holdings", func(w io.Writer) error { return WriteHoldings(w, snap, true) }, `{"status":"ok","disclaimer":"` + Disclaimer + `","cik":"1067983","period":"2023-09-30","as_of":"2023-11-15",
			"accession_number":"0000950123-23-011029","source_accessions":["0000950123-23-011029","0000950123-24-005653"],"filing_date":"2023-11-15",
			"source_reconciliation":[{"accession_number":"0000950123-23-011029","table_entry_total":1,"table_value_total":10,"value_unit":"dollars","matched":true},
			{"accession_number":"0000950123-24-005653","table_entry_total":null,"table_value_total":null,"value_unit":"dollars","matched":false}],
			"matched_cusips":[],"total_positions":7,"truncated":true,"order":"value_desc","auto_limited":true,"holdings":[
			{"accession_number":"0000950123-23-011029","name_of_issuer":"APPLE INC","title_of_class":"COM","cusip":"037833100","figi":null,"value":10,"shares_or_principal_amount":20,"sh_prn":"SH","put_call":null,"investment_discretion":"DFND","other_manager":"4,8","voting_authority_sole":1,"voting_authority_shared":2,"voting_authority_none":3,"value_usd":10,"filing_date":"2023-11-15"},
			{"accession_number":"0000950123-24-005653","name_of_issuer":"X","title_of_class":"CALL","cusip":"12345678a","figi":"BBG000B9XRY4","value":5,"shares_or_principal_amount":6,"sh_prn":"PRN","put_call":"CALL","investment_discretion":"SOLE","other_manager":null,"voting_authority_sole":0,"voting_authority_shared":0,"voting_authority_none":0,"value_usd":5000,"filing_date":"2022-11-14"}]}`},
		{"diff", func(w io.Writer) error { return WriteDiff(w, cmpn, false) }, `{"status":"ok","disclaimer":"` + Disclaimer + `","cik":"9000001","period_a":"2023-09-30","period_b":"2023-12-31","as_of":"2023-11-15",
			"accession_a":"0000950123-23-011029","accession_b":"0000950123-24-005653","source_accessions_a":["0000950123-23-011029"],"source_accessions_b":["0000950123-24-005653"],
			"source_reconciliation_a":[{"accession_number":"0000950123-23-011029","table_entry_total":1,"table_value_total":10,"value_unit":"dollars","matched":true}],
			"source_reconciliation_b":[{"accession_number":"0000950123-24-005653","table_entry_total":2,"table_value_total":41,"value_unit":"dollars","matched":false}],
			"changes":[{"cusip":"037833100","name_of_issuer":"APPLE INC","put_call":null,"sh_prn":"SH","shares_a":1,"shares_b":3,"shares_delta":2,"value_a":10,"value_b":40,"value_delta":30,"value_usd_a":10000,"value_usd_b":40,"value_usd_delta":-9960,"change_type":"increased"}]}`},
		{"filings", func(w io.Writer) error { return WriteFilings(w, "1067983", d2, filings) }, `{"status":"ok","disclaimer":"` + Disclaimer + `","cik":"1067983","as_of":"2023-11-15","filings":[
			{"accession_number":"a-1","form_type":"13F-HR","filing_date":"2023-11-15","period_of_report":"2023-09-30","is_amendment":false,"amendment_no":null,"amendment_type":null,"report_type":"13F HOLDINGS REPORT","filing_manager_name":"M","edgar_url":"u"},
			{"accession_number":"a-2","form_type":"13F-HR/A","filing_date":"2023-11-15","period_of_report":"2023-09-30","is_amendment":true,"amendment_no":2,"amendment_type":"NEW HOLDINGS","report_type":"","filing_manager_name":"","edgar_url":"v"}]}`},
		{"no filings", func(w io.Writer) error { return WriteFilings(w, "0", d2, nil) }, `{"status":"ok","disclaimer":"` + Disclaimer + `","cik":"0","as_of":"2023-11-15","filings":[]}`},
		{"managers", func(w io.Writer) error {
			return WriteManagers(w, "berk", []edgar13f.Manager{{CIK: "1067983", Name: "BERKSHIRE HATHAWAY INC", Has13F: true}, {CIK: "9000011", Name: "B \"H\"", Has13F: false}})
		}, `{"status":"ok","disclaimer":"` + Disclaimer + `","query":"berk","candidates":[{"cik":"1067983","entity_name":"BERKSHIRE HATHAWAY INC","has_13f_filings":true},
			{"cik":"9000011","entity_name":"B \"H\"","has_13f_filings":false}],"note":"` + ManagerNote + `"}`},
		{"no managers", func(w io.Writer) error { return WriteManagers(w, "zzz", nil) },
			`{"status":"ok","disclaimer":"` + Disclaimer + `","query":"zzz","candidates":[],"note":"` + ManagerNote + `"}`},
		{"decline", func(w io.Writer) error {
			return WriteDecline(w, edgar13f.Decline(edgar13f.NotYetFiled, "m"))
		}, `{"status":"declined","disclaimer":"` + Disclaimer + `","reason":"not_yet_filed","message":"m"}`},
		{"error", func(w io.Writer) error { return WriteError(w, "boom") },
			`{"status":"error","disclaimer":"` + Disclaimer + `","message":"internal error: boom"}`},
		{"error without disclaimer", func(w io.Writer) error { return WriteErrorWith(w, "boom", "") },
			`{"status":"error","message":"internal error: boom"}`},
		{"error with the facts disclaimer", func(w io.Writer) error { return WriteErrorWith(w, "boom", FactsDisclaimer) },
			`{"status":"error","disclaimer":"` + FactsDisclaimer + `","message":"internal error: boom"}`},
	}
}

func TestWrite(t *testing.T) {
	for _, tt := range writeCases() {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := tt.write(&buf); err != nil {
				t.Fatal(err)
			}
			if bytes.Count(buf.Bytes(), []byte("\n")) != 1 || !bytes.HasSuffix(buf.Bytes(), []byte("\n")) {
				t.Errorf("answer is not one line: %q", buf.String())
			}
			if diff := cmp.Diff(decode(t, []byte(tt.want)), decode(t, buf.Bytes())); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestAsDecline(t *testing.T) {
	d := edgar13f.Decline(edgar13f.UnknownCIK, "m")
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"decline", d, true},
		{"wrapped", fmt.Errorf("x: %w", d), true},
		{"other", edgar13f.ErrNoUserAgent, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := AsDecline(tt.err)
			if ok != tt.want || ok && got != d {
				t.Errorf("AsDecline(%v) = %v, %v; want %v", tt.err, got, ok, tt.want)
			}
		})
	}
}

// TestAsDeclineCoverage: a CoverageError is an ordinary decline,
// unsupported_request, whose message says why in the tools' words.
func TestAsDeclineCoverage(t *testing.T) {
	day := edgar13f.MustParseDate
	q := datasets.CoverageError{Period: day("2010-03-31"), AsOf: day("2010-05-15"), From: day("2010-04-01"), Through: day("2010-05-15")}
	published, empty, before := q, q, q
	published.PublishedFrom = day("2013-07-01")
	before.DataFrom, before.DataThrough = day("2023-07-01"), day("2024-05-31")
	for _, tt := range []struct {
		name string
		err  *datasets.CoverageError
		want string
	}{
		{"published", &published, "an answer for period 2010-03-31 as of 2010-05-15 rests on the filings dated from 2010-04-01 through 2010-05-15, but SEC's Form 13F Data Sets begin with filings of 2013-07-01: ask for one manager's holdings instead, which are read from EDGAR"},
		{"nothing imported", &empty, "an answer for period 2010-03-31 as of 2010-05-15 rests on the filings dated from 2010-04-01 through 2010-05-15, and no Form 13F Data Sets window holding them is imported (SEC publishes each window after it ends)"},
		{"before the span", &before, "an answer for period 2010-03-31 as of 2010-05-15 rests on the filings dated from 2010-04-01 through 2010-05-15, and the Form 13F Data Sets imported cover filings from 2023-07-01 through 2024-05-31 only"},
	} {
		d, ok := AsDecline(fmt.Errorf("holders: %w", tt.err))
		if !ok || d.Reason != edgar13f.UnsupportedRequest || d.Message != tt.want {
			t.Errorf("%s: %v, %v", tt.name, d, ok)
		}
	}
}

func TestWriteHoldingsLarge(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteHoldings(&buf, testkit.Snapshot(50000), false); err != nil {
		t.Fatal(err)
	}
	var got struct{ Holdings []map[string]any }
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Holdings) != 50000 || got.Holdings[49999]["cusip"] != "000049999" {
		t.Errorf("got %d rows, last %v", len(got.Holdings), got.Holdings[len(got.Holdings)-1])
	}
}

// BenchmarkWriteHoldings50k writes a 50,000-row holdings answer as JSON
// (json) and as the inside of a JSON string, for an MCP text block (text).
func BenchmarkWriteHoldings50k(b *testing.B) {
	s := testkit.Snapshot(50000)
	for _, tt := range []struct {
		name string
		wrap func(io.Writer) io.WriteCloser
	}{
		{"json", func(w io.Writer) io.WriteCloser { return nopCloser{w} }},
		{"text", func(w io.Writer) io.WriteCloser { return NewTextWriter(w) }},
	} {
		b.Run(tt.name, func(b *testing.B) {
			var cw countWriter
			b.ReportAllocs()
			for b.Loop() {
				cw = 0
				w := tt.wrap(&cw)
				if err := WriteHoldings(w, s, false); err != nil {
					b.Fatal(err)
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cw), "bytes")
		})
	}
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

type countWriter int

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }
