package main

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edgar13f/edgar13f/examples/internal/testkit"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
)

// The 13F tools' wire contract: the answers of the reference server that
// agents and clients are written against. Each rule is checked here on the
// wire, through the server binary and its stdio transport, against the
// recorded EDGAR mirror, so that no change of the library's own types or
// orders can move an answer without a failing test. The goldens of
// TestCalls pin whole answers; this table pins the rules themselves.

// contractDisclaimer is the disclaimer of every 13F answer, decline and
// failure, spelled out rather than taken from package wire.
const contractDisclaimer = "13F reports long positions only; data may lag the period end by up to 45 days."

// Key sets of the success shapes. The members beyond the contract's list
// (source_reconciliation, source_reconciliation_a and _b) are this
// server's additions, documented in examples/README.md; any other member
// appearing or going fails.
var (
	listKeys       = members("status", "disclaimer", "cik", "as_of", "filings")
	listFilingKeys = members("accession_number", "form_type", "filing_date", "period_of_report", "is_amendment", "amendment_no",
		"amendment_type", "report_type", "filing_manager_name", "edgar_url")
	holdingsKeys = members("status", "disclaimer", "cik", "period", "as_of", "accession_number", "source_accessions", "filing_date", "holdings",
		"source_reconciliation")
	holdingRowKeys = members("accession_number", "name_of_issuer", "title_of_class", "cusip", "figi", "value", "shares_or_principal_amount",
		"sh_prn", "put_call", "investment_discretion", "other_manager", "voting_authority_sole", "voting_authority_shared",
		"voting_authority_none", "value_usd", "filing_date")
	diffKeys = members("status", "disclaimer", "cik", "period_a", "period_b", "as_of", "accession_a", "accession_b", "source_accessions_a",
		"source_accessions_b", "changes", "source_reconciliation_a", "source_reconciliation_b")
	diffChangeKeys = members("cusip", "name_of_issuer", "put_call", "sh_prn", "shares_a", "shares_b", "shares_delta", "value_a", "value_b",
		"value_delta", "value_usd_a", "value_usd_b", "value_usd_delta", "change_type")
	managerKeys   = members("status", "disclaimer", "query", "candidates", "note")
	candidateKeys = members("cik", "entity_name", "has_13f_filings")
	declineKeys   = members("status", "disclaimer", "reason", "message")
	issuerKeys    = members("matched_cusips")
	maxKeys       = members("total_positions", "truncated", "order")
	autoKeys      = members("auto_limited")
)

// members returns names, a set of member names.
func members(names ...string) []string { return names }

// union returns the union of key sets, sorted.
func union(sets ...[]string) []string {
	var out []string
	for _, s := range sets {
		out = append(out, s...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// keySet returns the sorted member names of v, a JSON object.
func keySet(t *testing.T, what string, v any) []string {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s is %T, want a JSON object", what, v)
	}
	return keys(m)
}

// wantKeys checks that the object v has exactly the members want.
func wantKeys(t *testing.T, what string, v any, want []string) {
	t.Helper()
	if diff := cmp.Diff(union(want), keySet(t, what, v)); diff != "" {
		t.Errorf("%s members (-want +got):\n%s", what, diff)
	}
}

// eachKeys checks that every object of the array v has exactly the
// members want, and that the array is not empty (a rule checked on no
// rows checks nothing).
func eachKeys(t *testing.T, what string, v any, want []string) {
	t.Helper()
	items, ok := v.([]any)
	if !ok || len(items) == 0 {
		t.Fatalf("%s is %v, want a non-empty array", what, v)
	}
	for _, it := range items {
		wantKeys(t, what+"[]", it, want)
	}
}

// contractCall calls tool on s and checks what every 13F result must be:
// isError false, a first content block of text that is exactly one JSON
// object carrying the disclaimer, and structured content, when sent,
// identical to it. It returns that object.
func contractCall(t *testing.T, s *mcp.ClientSession, tool, args string) map[string]any {
	t.Helper()
	res, err := s.CallTool(testkit.Context(t), &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("%s(%s): protocol error %v", tool, args, err)
	}
	if res.IsError {
		t.Errorf("%s(%s): isError true", tool, args)
	}
	if len(res.Content) == 0 {
		t.Fatalf("%s(%s): no content", tool, args)
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("%s(%s): first block is %T, want text", tool, args, res.Content[0])
	}
	raw := []byte(text.Text)
	var obj map[string]any
	if !bytes.HasPrefix(raw, []byte("{")) || json.Unmarshal(raw, &obj) != nil {
		t.Fatalf("%s(%s): first text block is not one JSON object:\n%s", tool, args, text.Text)
	}
	if obj["disclaimer"] != contractDisclaimer {
		t.Errorf("%s(%s): disclaimer %q, want %q", tool, args, obj["disclaimer"], contractDisclaimer)
	}
	if res.StructuredContent != nil {
		sc, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		var got any
		if err := json.Unmarshal(sc, &got); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(any(obj), got); diff != "" {
			t.Errorf("%s(%s): structured content differs from the text block (-text +structured):\n%s", tool, args, diff)
		}
	}
	return obj
}

// accessionsOf returns the accession numbers of a list answer's filings.
func accessionsOf(obj map[string]any) []string {
	var out []string
	fs, _ := obj["filings"].([]any)
	for _, f := range fs {
		a, _ := f.(map[string]any)["accession_number"].(string)
		out = append(out, a)
	}
	return out
}

// checkContractOrder checks that a list answer's filings are sorted by
// (filing_date, accession_number) ascending.
func checkContractOrder(t *testing.T, obj map[string]any) {
	t.Helper()
	fs, _ := obj["filings"].([]any)
	type key struct{ date, accession string }
	var got []key
	for _, f := range fs {
		m := f.(map[string]any)
		d, _ := m["filing_date"].(string)
		a, _ := m["accession_number"].(string)
		got = append(got, key{d, a})
	}
	sorted := slices.SortedFunc(slices.Values(got), func(x, y key) int {
		return strings.Compare(x.date+" "+x.accession, y.date+" "+y.accession)
	})
	if !slices.Equal(got, sorted) {
		t.Errorf("filings not sorted by (filing_date, accession_number) ascending:\n got %v\nwant %v", got, sorted)
	}
}

// Decline reasons, the closed set.
var contractReasons = []string{"invalid_argument", "invalid_period", "unsupported_request", "unknown_cik", "notice_only", "not_yet_filed"}

// checkDecline checks a decline's shape and its reason.
func checkDecline(t *testing.T, obj map[string]any, reason string) {
	t.Helper()
	wantKeys(t, "decline", obj, declineKeys)
	if obj["status"] != "declined" || obj["reason"] != reason {
		t.Errorf("status %v, reason %v; want declined, %s (message %v)", obj["status"], obj["reason"], reason, obj["message"])
	}
	if !slices.Contains(contractReasons, reason) {
		t.Errorf("reason %q is not one of %v", reason, contractReasons)
	}
	if m, ok := obj["message"].(string); !ok || m == "" {
		t.Errorf("message %v, want a non-empty string", obj["message"])
	}
}

// isInt reports whether v is a JSON number without fraction.
func isInt(v any) bool {
	f, ok := v.(float64)
	return ok && f == math.Trunc(f)
}

// checkFilingTypes checks the JSON types of a list answer's filings.
func checkFilingTypes(t *testing.T, obj map[string]any) {
	t.Helper()
	fs, _ := obj["filings"].([]any)
	for _, f := range fs {
		m := f.(map[string]any)
		for _, k := range []string{"accession_number", "form_type", "filing_date", "period_of_report", "report_type", "filing_manager_name", "edgar_url"} {
			if _, ok := m[k].(string); !ok {
				t.Errorf("filing %v: %s is %T, want a string", m["accession_number"], k, m[k])
			}
		}
		if _, ok := m["is_amendment"].(bool); !ok {
			t.Errorf("filing %v: is_amendment is %T, want a boolean", m["accession_number"], m["is_amendment"])
		}
		if n := m["amendment_no"]; n != nil && !isInt(n) {
			t.Errorf("filing %v: amendment_no %v, want an integer or null", m["accession_number"], n)
		}
		if at := m["amendment_type"]; at != nil && at != "RESTATEMENT" && at != "NEW HOLDINGS" {
			t.Errorf("filing %v: amendment_type %v, want RESTATEMENT, NEW HOLDINGS or null", m["accession_number"], at)
		}
	}
}

// checkUnpadded checks that the member cik of obj is cik as digits
// without leading zeros.
func checkUnpadded(t *testing.T, obj map[string]any, want string) {
	t.Helper()
	if obj["cik"] != want {
		t.Errorf("cik %v, want %q (without leading zeros)", obj["cik"], want)
	}
}

func TestContract(t *testing.T) {
	plain := testkit.Connect(t, command(t, "EDGAR13F_FIXTURE_DIR="+mirror))
	agent := testkit.Connect(t, command(t, "EDGAR13F_FIXTURE_DIR="+mirror, "EDGAR13F_AGENT_MODE=on"))
	const (
		brk      = `"cik":"1067983"`
		brkQ3    = brk + `,"period":"2023-09-30","as_of":"2024-05-15"`
		brkDiff  = brk + `,"period_a":"2023-09-30","period_b":"2023-12-31","as_of":"2024-05-16"`
		padded   = `"cik":"0001067983"`
		ia       = "invalid_argument"
		holdings = "get_holdings_as_of"
		diff     = "diff_holdings"
		list     = "list_13f_filings"
		find     = "find_manager"
	)
	tests := []struct {
		rule, name, tool, args string
		agentMode              bool
		check                  func(t *testing.T, obj map[string]any)
	}{
		// filings sorted by (filing_date, accession_number) ascending.
		{"order", "one period", list, `{` + brkQ3 + `}`, false, func(t *testing.T, obj map[string]any) {
			want := []string{"0000950123-23-010898", "0000950123-23-011029", "0000950123-24-005653"}
			if diff := cmp.Diff(want, accessionsOf(obj)); diff != "" {
				t.Errorf("filings (-want +got):\n%s", diff)
			}
			checkContractOrder(t, obj)
		}},
		{"order", "notices and amendments", list, `{"cik":"9000002","as_of":"2025-08-21"}`, false, func(t *testing.T, obj map[string]any) {
			want := []string{"0009000002-25-000001", "0009000002-25-000002", "0009000002-25-000003"}
			if diff := cmp.Diff(want, accessionsOf(obj)); diff != "" {
				t.Errorf("filings (-want +got):\n%s", diff)
			}
			checkContractOrder(t, obj)
		}},
		// Every filing of a manager with filings made on the same day: the
		// accession number breaks the tie.
		{"order", "same filing dates", list, `{` + brk + `,"as_of":"2025-12-31"}`, false, func(t *testing.T, obj map[string]any) {
			checkContractOrder(t, obj)
			fs, _ := obj["filings"].([]any)
			dates := map[any]int{}
			for _, f := range fs {
				dates[f.(map[string]any)["filing_date"]]++
			}
			if len(fs) < 10 || len(dates) == len(fs) {
				t.Errorf("%d filings on %d dates: want many, some on the same date, to check the order on", len(fs), len(dates))
			}
		}},
		{"order", "a timeline of amendments", list, `{"cik":"9000001","as_of":"2025-12-31"}`, false, checkContractOrder},

		// cik is echoed without leading zeros.
		{"unpadded cik", "list", list, `{` + padded + `,"as_of":"2024-05-15"}`, false, func(t *testing.T, obj map[string]any) { checkUnpadded(t, obj, "1067983") }},
		{"unpadded cik", "holdings", holdings, `{` + padded + `,"period":"2023-09-30","as_of":"2024-05-15","max_positions":1}`, false,
			func(t *testing.T, obj map[string]any) { checkUnpadded(t, obj, "1067983") }},
		{"unpadded cik", "diff", diff, `{` + padded + `,"period_a":"2023-09-30","period_b":"2023-12-31","as_of":"2024-05-16","max_positions":1}`, false,
			func(t *testing.T, obj map[string]any) { checkUnpadded(t, obj, "1067983") }},
		{"unpadded cik", "find_manager", find, `{"name":"berkshire"}`, false, func(t *testing.T, obj map[string]any) {
			cs, _ := obj["candidates"].([]any)
			if len(cs) == 0 {
				t.Fatal("no candidates")
			}
			for _, c := range cs {
				cik, _ := c.(map[string]any)["cik"].(string)
				if cik == "" || strings.HasPrefix(cik, "0") || strings.Trim(cik, "0123456789") != "" {
					t.Errorf("candidate cik %q, want digits without leading zeros", cik)
				}
			}
		}},

		// Declines: the shape, for every reason, from every tool.
		{"decline shape", "invalid_period", holdings, `{` + brk + `,"period":"2023-09-29","as_of":"2024-05-15"}`, false,
			func(t *testing.T, obj map[string]any) { checkDecline(t, obj, "invalid_period") }},
		{"decline shape", "unsupported_request", holdings, `{` + brkQ3 + `,"position_type":"short"}`, false,
			func(t *testing.T, obj map[string]any) { checkDecline(t, obj, "unsupported_request") }},
		{"decline shape", "unknown_cik", list, `{"cik":"9000003","as_of":"2025-05-14"}`, false,
			func(t *testing.T, obj map[string]any) { checkDecline(t, obj, "unknown_cik") }},
		{"decline shape", "notice_only", holdings, `{"cik":"315090","period":"2024-12-31","as_of":"2025-03-01"}`, false,
			func(t *testing.T, obj map[string]any) { checkDecline(t, obj, "notice_only") }},
		{"decline shape", "not_yet_filed", diff, `{"cik":"9000001","period_a":"2025-06-30","period_b":"2025-12-31","as_of":"2025-11-13"}`, false,
			func(t *testing.T, obj map[string]any) { checkDecline(t, obj, "not_yet_filed") }},
		{"decline shape", "invalid_argument", find, `{"name":"be"}`, false,
			func(t *testing.T, obj map[string]any) { checkDecline(t, obj, ia) }},
		{"decline shape", "in agent mode", holdings, `{"cik":"9000001","period":"2025-12-31","as_of":"2025-11-13"}`, true,
			func(t *testing.T, obj map[string]any) { checkDecline(t, obj, "not_yet_filed") }},

		// Unknown argument names, on every tool.
		{"unknown argument", "list", list, `{` + brk + `,"as_of":"2024-05-15","limit":3}`, false, declined(ia)},
		{"unknown argument", "holdings", holdings, `{` + brkQ3 + `,"max_rows":3}`, false, declined(ia)},
		{"unknown argument", "diff", diff, `{` + brkDiff + `,"period":"2023-09-30"}`, false, declined(ia)},
		{"unknown argument", "find_manager", find, `{"name":"berkshire","cik":"1067983"}`, false, declined(ia)},
		{"unknown argument", "case matters", list, `{"CIK":"1067983","as_of":"2024-05-15"}`, false, declined(ia)},

		// Strict JSON types.
		{"strict types", "cik number", list, `{"cik":1067983,"as_of":"2024-05-15"}`, false, declined(ia)},
		{"strict types", "as_of number", holdings, `{` + brk + `,"period":"2023-09-30","as_of":20240515}`, false, declined(ia)},
		{"strict types", "period number", diff, `{` + brk + `,"period_a":20230930,"period_b":"2023-12-31","as_of":"2024-05-16"}`, false, declined(ia)},
		{"strict types", "name number", find, `{"name":1067983}`, false, declined(ia)},
		{"strict types", "issuer number", holdings, `{` + brkQ3 + `,"issuer":7}`, false, declined(ia)},
		{"strict types", "cusip string", holdings, `{` + brkQ3 + `,"cusip":"037833100"}`, false, declined(ia)},
		{"strict types", "cusip object", diff, `{` + brkDiff + `,"cusip":{"0":"037833100"}}`, false, declined(ia)},
		{"strict types", "cusip of numbers", holdings, `{` + brkQ3 + `,"cusip":[37833100]}`, false, declined(ia)},
		{"strict types", "max_positions true", holdings, `{` + brkQ3 + `,"max_positions":true}`, false, declined(ia)},
		{"strict types", "max_positions 1.0", holdings, `{` + brkQ3 + `,"max_positions":1.0}`, false, declined(ia)},
		{"strict types", "max_positions \"5\"", diff, `{` + brkDiff + `,"max_positions":"5"}`, false, declined(ia)},
		{"strict types", "max_positions 1e1", holdings, `{` + brkQ3 + `,"max_positions":1e1}`, false, declined(ia)},
		{"strict types", "limit \"3\"", find, `{"name":"berkshire","limit":"3"}`, false, declined(ia)},

		// Success shapes: the members of each answer and of its items.
		{"shape", "list", list, `{` + brkQ3 + `}`, false, func(t *testing.T, obj map[string]any) {
			wantKeys(t, "list", obj, listKeys)
			eachKeys(t, "filings", obj["filings"], listFilingKeys)
			checkFilingTypes(t, obj)
		}},
		{"shape", "list of notices and amendments", list, `{"cik":"9000002","as_of":"2025-08-21"}`, false, func(t *testing.T, obj map[string]any) {
			wantKeys(t, "list", obj, listKeys)
			eachKeys(t, "filings", obj["filings"], listFilingKeys)
			checkFilingTypes(t, obj)
		}},
		{"shape", "holdings", holdings, `{` + brkQ3 + `}`, false, func(t *testing.T, obj map[string]any) {
			wantKeys(t, "holdings answer", obj, holdingsKeys)
			eachKeys(t, "holdings", obj["holdings"], holdingRowKeys)
		}},
		{"shape", "diff", diff, `{` + brkDiff + `}`, false, func(t *testing.T, obj map[string]any) {
			wantKeys(t, "diff answer", obj, diffKeys)
			eachKeys(t, "changes", obj["changes"], diffChangeKeys)
		}},
		{"shape", "find_manager", find, `{"name":"berkshire","limit":3}`, false, func(t *testing.T, obj map[string]any) {
			wantKeys(t, "find_manager answer", obj, managerKeys)
			eachKeys(t, "candidates", obj["candidates"], candidateKeys)
			if n, _ := obj["note"].(string); !strings.Contains(n, "current") || !strings.Contains(n, "not as of") {
				t.Errorf("note %q does not say names are current, not point in time", n)
			}
		}},

		// With issuer: matched_cusips; with max_positions: total_positions,
		// truncated, order; with both, all four.
		{"filters", "holdings issuer", holdings, `{` + brkQ3 + `,"issuer":"apple"}`, false, func(t *testing.T, obj map[string]any) {
			wantKeys(t, "holdings answer", obj, union(holdingsKeys, issuerKeys))
			if diff := cmp.Diff([]any{"037833100"}, obj["matched_cusips"]); diff != "" {
				t.Errorf("matched_cusips (-want +got):\n%s", diff)
			}
		}},
		{"filters", "holdings max_positions", holdings, `{` + brkQ3 + `,"max_positions":2}`, false, func(t *testing.T, obj map[string]any) {
			wantKeys(t, "holdings answer", obj, union(holdingsKeys, maxKeys))
			got := []any{obj["total_positions"], obj["truncated"], obj["order"]}
			if diff := cmp.Diff([]any{44.0, true, "value_desc"}, got); diff != "" {
				t.Errorf("total_positions, truncated, order (-want +got):\n%s", diff)
			}
		}},
		{"filters", "holdings both", holdings, `{` + brkQ3 + `,"issuer":"inc","max_positions":1}`, false, func(t *testing.T, obj map[string]any) {
			wantKeys(t, "holdings answer", obj, union(holdingsKeys, issuerKeys, maxKeys))
		}},
		{"filters", "holdings cusip", holdings, `{` + brkQ3 + `,"cusip":["037833100"]}`, false, func(t *testing.T, obj map[string]any) {
			wantKeys(t, "holdings answer", obj, holdingsKeys)
		}},
		{"filters", "diff issuer", diff, `{` + brkDiff + `,"issuer":"apple"}`, false, func(t *testing.T, obj map[string]any) {
			wantKeys(t, "diff answer", obj, union(diffKeys, issuerKeys))
		}},
		{"filters", "diff max_positions", diff, `{` + brkDiff + `,"max_positions":5}`, false, func(t *testing.T, obj map[string]any) {
			wantKeys(t, "diff answer", obj, union(diffKeys, maxKeys))
			got := []any{obj["total_positions"], obj["truncated"], obj["order"]}
			if diff := cmp.Diff([]any{44.0, true, "abs_value_delta_desc"}, got); diff != "" {
				t.Errorf("total_positions, truncated, order (-want +got):\n%s", diff)
			}
		}},

		// EDGAR13F_AGENT_MODE=on: an unfiltered holdings or diff answer is
		// cut to 50 positions and says auto_limited; a filtered one is not.
		{"agent mode", "holdings unfiltered", holdings, `{` + brkQ3 + `}`, true, func(t *testing.T, obj map[string]any) {
			wantKeys(t, "holdings answer", obj, union(holdingsKeys, maxKeys, autoKeys))
			if obj["auto_limited"] != true || obj["order"] != "value_desc" {
				t.Errorf("auto_limited %v, order %v; want true, value_desc", obj["auto_limited"], obj["order"])
			}
		}},
		{"agent mode", "diff unfiltered", diff, `{` + brkDiff + `}`, true, func(t *testing.T, obj map[string]any) {
			wantKeys(t, "diff answer", obj, union(diffKeys, maxKeys, autoKeys))
			if obj["auto_limited"] != true {
				t.Errorf("auto_limited %v, want true", obj["auto_limited"])
			}
		}},
		{"agent mode", "holdings with max_positions", holdings, `{` + brkQ3 + `,"max_positions":2}`, true, func(t *testing.T, obj map[string]any) {
			wantKeys(t, "holdings answer", obj, union(holdingsKeys, maxKeys))
		}},
		{"agent mode", "holdings with issuer", holdings, `{` + brkQ3 + `,"issuer":"apple"}`, true, func(t *testing.T, obj map[string]any) {
			wantKeys(t, "holdings answer", obj, union(holdingsKeys, issuerKeys))
		}},
		{"agent mode", "diff with cusip", diff, `{` + brkDiff + `,"cusip":["037833100"]}`, true, func(t *testing.T, obj map[string]any) {
			wantKeys(t, "diff answer", obj, diffKeys)
		}},
		{"agent mode", "list unchanged", list, `{` + brkQ3 + `}`, true, func(t *testing.T, obj map[string]any) {
			wantKeys(t, "list", obj, listKeys)
			checkContractOrder(t, obj)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.rule+"/"+tt.name, func(t *testing.T) {
			s := plain
			if tt.agentMode {
				s = agent
			}
			tt.check(t, contractCall(t, s, tt.tool, tt.args))
		})
	}
}

// declined returns a check that the answer is a decline for reason.
func declined(reason string) func(t *testing.T, obj map[string]any) {
	return func(t *testing.T, obj map[string]any) { t.Helper(); checkDecline(t, obj, reason) }
}

// TestContractDisclaimer: the disclaimer the server writes is the
// contract's, word for word.
func TestContractDisclaimer(t *testing.T) {
	if wire.Disclaimer != contractDisclaimer {
		t.Errorf("wire.Disclaimer %q, want %q", wire.Disclaimer, contractDisclaimer)
	}
}

// TestContractDescribed: list_13f_filings tells a model the order its
// filings come in, the contract's.
func TestContractDescribed(t *testing.T) {
	s := testkit.Connect(t, command(t, "EDGAR13F_FIXTURE_DIR="+mirror))
	res, err := s.ListTools(testkit.Context(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range res.Tools {
		if tl.Name == "list_13f_filings" {
			if !strings.Contains(tl.Description, "oldest first (by filing date, then accession number)") {
				t.Errorf("list_13f_filings description does not give the order of its filings: %s", tl.Description)
			}
			return
		}
	}
	t.Error("no list_13f_filings in tools/list")
}
