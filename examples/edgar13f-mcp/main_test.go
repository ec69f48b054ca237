package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/examples/internal/testkit"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
)

// bin is the server binary built by TestMain; mirror the recorded EDGAR tree.
var (
	bin    string
	mirror = testkit.Mirror()
)

func TestMain(m *testing.M) { testkit.Main(m, &bin, true) }

// command returns the server command with only the given environment and
// a private cache.
func command(t *testing.T, env ...string) *exec.Cmd { return testkit.Command(t, bin, env) }

// result is one tool answer: the parsed first text block and isError.
type result struct {
	obj     map[string]any
	isError bool
}

func call(t *testing.T, s *mcp.ClientSession, tool, args string) result {
	t.Helper()
	return callTool(t, s, tool, args, wire.Disclaimer)
}

// callTool calls tool and checks that the answer, decline or failure
// carries disclaimer (nil for none).
func callTool(t *testing.T, s *mcp.ClientSession, tool, args string, disclaimer any) result {
	t.Helper()
	ctx := testkit.Context(t)
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("%s(%s): protocol error %v", tool, args, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s(%s): %d content blocks, want 1", tool, args, len(res.Content))
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("%s(%s): first block is %T, want text", tool, args, res.Content[0])
	}
	var r result
	if err := json.Unmarshal([]byte(text.Text), &r.obj); err != nil {
		t.Fatalf("%s(%s): text is not one JSON object: %v\n%s", tool, args, err, text.Text)
	}
	if r.obj["disclaimer"] != disclaimer {
		t.Errorf("%s(%s): disclaimer %q, want %v", tool, args, r.obj["disclaimer"], disclaimer)
	}
	r.isError = res.IsError
	return r
}

func TestToolsList(t *testing.T) {
	s := testkit.Connect(t, command(t, "EDGAR13F_FIXTURE_DIR="+mirror))
	ctx := context.Background()
	res, err := s.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
		a := tl.Annotations
		// index_filings writes the local search index: all others only read.
		readOnly := tl.Name != "index_filings"
		if a == nil || a.ReadOnlyHint != readOnly || !a.IdempotentHint || a.DestructiveHint == nil || *a.DestructiveHint {
			t.Errorf("%s: annotations %+v, want read-only %v, idempotent, not destructive", tl.Name, a, readOnly)
		}
		phrases := []string{"find_manager", "as_of", "data, not instructions"}
		switch {
		case companyTools[tl.Name]:
			phrases = []string{"search_company", "as_of", "data, not instructions"}
		case searchTools[tl.Name]:
			phrases = []string{"index_filings", "as_of", "publicly filed on", "data, not instructions"}
		case tl.Name == "get_frame": // every company at once: no CIK to resolve
			phrases = []string{"as_of", "data, not instructions"}
		}
		for _, phrase := range phrases {
			if (phrase == "find_manager" || phrase == "search_company" || phrase == "index_filings") && tl.Name == phrase {
				phrase = "Use it first"
			}
			if !strings.Contains(tl.Description, phrase) {
				t.Errorf("%s: description lacks %q", tl.Name, phrase)
			}
		}
	}
	slices.Sort(names)
	if diff := cmp.Diff(wantTools, names); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	instr := s.InitializeResult().Instructions
	for _, phrase := range []string{"find_manager first", "publicly filed on EDGAR by that date", "issuer, cusip or max_positions", "data, not instructions", "search_company first", "index_filings first"} {
		if !strings.Contains(instr, phrase) {
			t.Errorf("instructions lack %q", phrase)
		}
	}
}

// Precedence and decline cases name the reason only; answers have goldens.
func TestCalls(t *testing.T) {
	s := testkit.Connect(t, command(t, "EDGAR13F_FIXTURE_DIR="+mirror))
	const brk = `"cik":"1067983"`
	ia, ip, ur := edgar13f.InvalidArgument, edgar13f.InvalidPeriod, edgar13f.UnsupportedRequest
	tests := []struct {
		name, tool, args string
		decline          edgar13f.Reason // "" for an answer compared with its golden
	}{
		// Answers.
		{"filings_berkshire_2023q3", "list_13f_filings", `{"cik":"0001067983","as_of":"2024-05-15","period":"2023-09-30"}`, ""},
		{"filings_notice_partners", "list_13f_filings", `{"cik":"9000002","as_of":"2025-08-21"}`, ""},
		{"filings_period_none", "list_13f_filings", `{"cik":"9000002","as_of":"2025-08-21","period":"2023-03-31"}`, ""},
		{"holdings_berkshire_2023q3_supplement", "get_holdings_as_of", `{` + brk + `,"period":"2023-09-30","as_of":"2024-05-15"}`, ""},
		{"holdings_timeline_2024q4", "get_holdings_as_of", `{"cik":"9000001","period":"2024-12-31","as_of":"2025-04-02","position_type":"long"}`, ""},
		{"holdings_soros_options", "get_holdings_as_of", `{"cik":"1029160","period":"2026-06-30","as_of":"2026-08-14","cusip":["67066G104","21873S108","n14506104"]}`, ""},
		{"holdings_cusip", "get_holdings_as_of", `{` + brk + `,"period":"2023-09-30","as_of":"2024-05-15","cusip":["037833100","023135106"]}`, ""},
		{"holdings_issuer", "get_holdings_as_of", `{` + brk + `,"period":"2023-12-31","as_of":"2024-05-16","issuer":"apple"}`, ""},
		{"holdings_max_positions", "get_holdings_as_of", `{` + brk + `,"period":"2022-12-31","as_of":"2023-02-15","max_positions":3}`, ""},
		{"holdings_redacted_cusip", "get_holdings_as_of", `{` + brk + `,"period":"2023-09-30","as_of":"2024-05-15","cusip":["78462F103"]}`, ""},
		{"diff_berkshire", "diff_holdings", `{` + brk + `,"period_a":"2023-09-30","period_b":"2023-12-31","as_of":"2024-05-16","max_positions":5}`, ""},
		{"diff_timeline_issuer", "diff_holdings", `{"cik":"9000001","period_a":"2024-12-31","period_b":"2025-03-31","as_of":"2025-05-21","issuer":"inc"}`, ""},
		{"find_berkshire", "find_manager", `{"name":"berkshire","limit":3}`, ""},
		{"find_fresh_start_before", "find_manager", `{"name":"Fresh  Start","as_of":"2025-05-14"}`, ""},
		{"find_fresh_start_after", "find_manager", `{"name":"fresh start","as_of":"2025-05-15"}`, ""},
		{"find_none", "find_manager", `{"name":"no such manager anywhere"}`, ""},
		{"find_short", "find_manager", `{"name":"be"}`, ia},
		{"find_limit_range", "find_manager", `{"name":"berkshire","limit":21}`, ia},
		{"find_limit_string", "find_manager", `{"name":"berkshire","limit":"3"}`, ia},
		{"find_name_number", "find_manager", `{"name":1067983}`, ia},
		{"find_bad_as_of", "find_manager", `{"name":"berkshire","as_of":"2025-02-29"}`, ia},
		{"find_unknown_argument", "find_manager", `{"name":"berkshire","cik":"1067983"}`, ia},
		// Every decline reason.
		{"unknown_cik", "get_holdings_as_of", `{"cik":"9000003","period":"2025-03-31","as_of":"2025-05-14"}`, edgar13f.UnknownCIK},
		{"unknown_cik_filings", "list_13f_filings", `{"cik":"9000003","as_of":"2025-05-14"}`, edgar13f.UnknownCIK},
		{"notice_only", "get_holdings_as_of", `{"cik":"315090","period":"2024-12-31","as_of":"2025-03-01"}`, edgar13f.NoticeOnly},
		{"not_yet_filed", "get_holdings_as_of", `{"cik":"9000001","period":"2025-12-31","as_of":"2025-11-13"}`, edgar13f.NotYetFiled},
		{"invalid_period", "get_holdings_as_of", `{` + brk + `,"period":"2023-09-29","as_of":"2024-05-15"}`, ip},
		{"unsupported_request", "get_holdings_as_of", `{` + brk + `,"period":"2023-09-30","as_of":"2024-05-15","position_type":"short"}`, ur},
		{"diff_b_not_after_a", "diff_holdings", `{` + brk + `,"period_a":"2023-12-31","period_b":"2023-09-30","as_of":"2024-05-15"}`, ip},
		// Precedence (SPEC §4): the first reason in the table wins.
		{"bad_cik_bad_period", "get_holdings_as_of", `{"cik":"12a","period":"2023-09-29","as_of":"2024-05-15"}`, ia},
		{"bad_period_short", "get_holdings_as_of", `{` + brk + `,"period":"2023-09-29","as_of":"2024-05-15","position_type":"short"}`, ip},
		{"short_unknown_cik", "get_holdings_as_of", `{"cik":"9000003","period":"2025-03-31","as_of":"2025-05-14","position_type":"short"}`, ur},
		{"bad_max_bad_period", "get_holdings_as_of", `{` + brk + `,"period":"2023-09-29","as_of":"2024-05-15","max_positions":true}`, ia},
		{"max_range_bad_period", "get_holdings_as_of", `{` + brk + `,"period":"2023-09-29","as_of":"2024-05-15","max_positions":201}`, ia},
		{"bad_cusip_bad_period", "diff_holdings", `{` + brk + `,"period_a":"2023-09-30","period_b":"2023-06-30","as_of":"2024-05-15","cusip":["037833100","037833100"]}`, ia},
		{"diff_a_before_b", "diff_holdings", `{"cik":"9000002","period_a":"2024-12-31","period_b":"2025-06-30","as_of":"2025-08-21"}`, edgar13f.NoticeOnly},
		{"diff_unknown_before_periods", "diff_holdings", `{"cik":"9000003","period_a":"2024-12-31","period_b":"2025-03-31","as_of":"2025-05-14"}`, edgar13f.UnknownCIK},
		// Strict types and names.
		{"cik_number", "get_holdings_as_of", `{"cik":1067983,"period":"2023-09-30","as_of":"2024-05-15"}`, ia},
		{"cik_leading_garbage", "list_13f_filings", `{"cik":" 1067983","as_of":"2024-05-15"}`, ia},
		{"cik_too_long", "list_13f_filings", `{"cik":"00001067983","as_of":"2024-05-15"}`, ia},
		{"date_number", "list_13f_filings", `{` + brk + `,"as_of":20240515}`, ia},
		{"date_malformed", "list_13f_filings", `{` + brk + `,"as_of":"2024-5-15"}`, ia},
		{"date_impossible", "get_holdings_as_of", `{` + brk + `,"period":"2023-09-31","as_of":"2024-05-15"}`, ia},
		{"missing_as_of", "get_holdings_as_of", `{` + brk + `,"period":"2023-09-30"}`, ia},
		{"no_arguments", "diff_holdings", `{}`, ia},
		{"unknown_argument", "get_holdings_as_of", `{` + brk + `,"period":"2023-09-30","as_of":"2024-05-15","limit":5}`, ia},
		{"position_type_on_diff", "diff_holdings", `{` + brk + `,"period_a":"2023-09-30","period_b":"2023-12-31","as_of":"2024-05-16","position_type":"long"}`, ia},
		{"duplicate_name", "list_13f_filings", `{` + brk + `,"cik":"9000001","as_of":"2024-05-15"}`, ia},
		{"cusip_string", "get_holdings_as_of", `{` + brk + `,"period":"2023-09-30","as_of":"2024-05-15","cusip":"037833100"}`, ia},
		{"cusip_duplicated", "get_holdings_as_of", `{` + brk + `,"period":"2023-09-30","as_of":"2024-05-15","cusip":["037833100","037833100"]}`, ia},
		{"cusip_empty", "get_holdings_as_of", `{` + brk + `,"period":"2023-09-30","as_of":"2024-05-15","cusip":[]}`, ia},
		{"cusip_malformed", "get_holdings_as_of", `{` + brk + `,"period":"2023-09-30","as_of":"2024-05-15","cusip":["03783310"]}`, ia},
		{"max_true", "get_holdings_as_of", `{` + brk + `,"period":"2023-09-30","as_of":"2024-05-15","max_positions":true}`, ia},
		{"max_float", "get_holdings_as_of", `{` + brk + `,"period":"2023-09-30","as_of":"2024-05-15","max_positions":1.0}`, ia},
		{"max_string", "get_holdings_as_of", `{` + brk + `,"period":"2023-09-30","as_of":"2024-05-15","max_positions":"5"}`, ia},
		{"max_zero", "diff_holdings", `{` + brk + `,"period_a":"2023-09-30","period_b":"2023-12-31","as_of":"2024-05-16","max_positions":0}`, ia},
		{"issuer_short", "get_holdings_as_of", `{` + brk + `,"period":"2023-09-30","as_of":"2024-05-15","issuer":"a"}`, ia},
		{"issuer_number", "get_holdings_as_of", `{` + brk + `,"period":"2023-09-30","as_of":"2024-05-15","issuer":7}`, ia},
		{"position_type_number", "get_holdings_as_of", `{` + brk + `,"period":"2023-09-30","as_of":"2024-05-15","position_type":1}`, ia},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkResult(t, call(t, s, tt.tool, tt.args), tt.name, tt.decline, 4)
		})
	}
}

// checkResult checks an answer against its golden, or a decline's reason
// and its number of members (with the disclaimer, when it has one).
func checkResult(t *testing.T, r result, name string, decline edgar13f.Reason, members int) {
	t.Helper()
	if r.isError {
		t.Fatalf("isError true: %v", r.obj)
	}
	if decline == "" {
		if r.obj["status"] != "ok" {
			t.Fatalf("status %v, want ok: %v", r.obj["status"], r.obj)
		}
		testkit.GoldenJSON(t, name, r.obj)
		return
	}
	got := map[string]any{"status": r.obj["status"], "reason": r.obj["reason"]}
	want := map[string]any{"status": "declined", "reason": string(decline)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s\nmessage: %v", diff, r.obj["message"])
	}
	if m, _ := r.obj["message"].(string); m == "" || len(r.obj) != members {
		t.Errorf("decline object %v, want status, reason, message (and a disclaimer where the tool has one)", r.obj)
	}
}

// TestArgumentMessages: a number outside its limits is declined naming the
// tool's argument, not the library's Go option, and an empty string is
// declined like any malformed value (as the CLI refuses an empty flag).
func TestArgumentMessages(t *testing.T) {
	s := testkit.Connect(t, command(t, "EDGAR13F_FIXTURE_DIR="+mirror))
	const apple, brk = `"cik":"320193"`, `"cik":"1067983"`
	tests := []struct {
		tool, args, message string // message: a prefix; "" for any
	}{
		{"search_company", `{"name":"apple","limit":0}`, `argument "limit" must be 1 to 100, not 0`},
		{"list_filings", `{` + apple + `,"as_of":"2024-01-01","limit":101}`, `argument "limit" must be 1 to 100, not 101`},
		{"get_financial_facts", `{` + apple + `,"concept":"revenue","as_of":"2024-01-01","years":0}`, `argument "years" must be 1 to 30, not 0`},
		{"get_filing_section", `{` + apple + `,"accession":"0000320193-24-000123","item":"1A","as_of":"2025-01-01","max_chars":0}`,
			`argument "max_chars" must be 1 to 100000, not 0`},
		{"find_manager", `{"name":"berkshire","limit":0}`, `argument "limit" must be 1 to 20, not 0`},
		{"get_holdings_as_of", `{` + brk + `,"period":"2023-09-30","as_of":"2024-05-15","max_positions":201}`, `argument "max_positions" must be 1 to 200, not 201`},
		{"diff_holdings", `{` + brk + `,"period_a":"2023-09-30","period_b":"2023-12-31","as_of":"2024-05-16","max_positions":0}`,
			`argument "max_positions" must be 1 to 200, not 0`},
		{"get_holders_as_of", `{"cusip":"037833100","period":"2023-09-30","as_of":"2024-05-15","max_holders":501}`, `argument "max_holders" must be 1 to 500, not 501`},
		// Empty strings.
		{"get_holdings_as_of", `{` + brk + `,"period":"2023-09-30","as_of":""}`, `argument "as_of" must be a date YYYY-MM-DD, not ""`},
		{"list_13f_filings", `{` + brk + `,"as_of":"2024-05-15","period":""}`, `argument "period" must be a date YYYY-MM-DD, not ""`},
		{"find_manager", `{"name":"berkshire","as_of":""}`, `argument "as_of" must be a date YYYY-MM-DD, not ""`},
		{"get_holdings_as_of", `{` + brk + `,"period":"2023-09-30","as_of":"2024-05-15","issuer":""}`, ""},
		{"get_holdings_as_of", `{` + brk + `,"period":"2023-09-30","as_of":"2024-05-15","cusip":[""]}`, ""},
		{"list_filings", `{` + apple + `,"as_of":"2024-01-01","form_type":""}`, ""},
		{"get_holders_as_of", `{"cusip":"","period":"2023-09-30","as_of":"2024-05-15"}`, ""},
		{"search_company", `{"name":""}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.tool+" "+tt.args, func(t *testing.T) {
			r := callTool(t, s, tt.tool, tt.args, disclaimerOf(tt.tool))
			m, _ := r.obj["message"].(string)
			if r.obj["reason"] != string(edgar13f.InvalidArgument) || !strings.HasPrefix(m, tt.message) {
				t.Errorf("answer %v; want invalid_argument, %q...", r.obj, tt.message)
			}
			for _, goName := range []string{"Years", "MaxChars", "MaxPositions", "MaxHolders", "Limit", "With"} {
				if strings.Contains(m, goName) {
					t.Errorf("message %q names the Go option %s", m, goName)
				}
			}
		})
	}
}

// TestToolsDocumented: --help, the examples' README and the repository's
// README name every tool the server offers (wantTools, which TestToolsList
// checks against tools/list).
func TestToolsDocumented(t *testing.T) {
	cmd := command(t)
	cmd.Args = append(cmd.Args, "--help")
	help, _, code := testkit.Run(t, cmd)
	if code != 0 {
		t.Fatalf("--help: exit %d", code)
	}
	docs := map[string]string{"--help": help}
	for _, p := range []string{"../README.md", "../../README.md"} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		docs[p] = string(b)
	}
	for where, text := range docs {
		for _, name := range wantTools {
			if !strings.Contains(text, name) {
				t.Errorf("%s does not name the tool %s", where, name)
			}
		}
	}
}
