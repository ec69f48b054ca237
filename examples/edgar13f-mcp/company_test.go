package main

import (
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/examples/internal/testkit"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
)

// companyTools are the company data tools; only get_financial_facts
// carries a disclaimer, its own.
var companyTools = map[string]bool{"search_company": true, "list_filings": true, "get_financial_facts": true, "get_filing_section": true}

// disclaimerOf returns the disclaimer the answers of tool carry: the 13F
// one, get_financial_facts' own, or none (nil).
func disclaimerOf(tool string) any {
	switch {
	case tool == "get_financial_facts":
		return wire.FactsDisclaimer
	case companyTools[tool]:
		return nil
	}
	return wire.Disclaimer
}

// callCompany calls a company tool and checks the disclaimer it carries.
func callCompany(t *testing.T, s *mcp.ClientSession, tool, args string) result {
	t.Helper()
	return callTool(t, s, tool, args, disclaimerOf(tool))
}

func TestCompanyCalls(t *testing.T) {
	s := testkit.Connect(t, command(t, "EDGAR13F_FIXTURE_DIR="+mirror))
	const apple, tenK = `"cik":"320193"`, `"accession":"0000320193-24-000123"`
	ia := edgar13f.InvalidArgument
	tests := []struct {
		name, tool, args string
		decline          edgar13f.Reason
	}{
		// Answers.
		{"company_search_apple", "search_company", `{"name":"apple","limit":3}`, ""},
		{"company_search_ticker", "search_company", `{"name":"brk.b"}`, ""},
		{"company_search_none", "search_company", `{"name":"zzqxj no such company"}`, ""},
		{"company_filings_10k", "list_filings", `{` + apple + `,"as_of":"2024-11-01","form_type":"10-K","limit":3}`, ""},
		{"company_filings_older_page", "list_filings", `{"cik":"0000320193","as_of":"2010-06-01","limit":4}`, ""},
		{"company_facts_restated", "get_financial_facts", `{` + apple + `,"concept":"revenue","as_of":"2010-01-25","years":2}`, ""},
		{"company_facts_first_reported", "get_financial_facts", `{` + apple + `,"concept":"revenue","as_of":"2010-01-24","years":2}`, ""},
		{"company_facts_eps", "get_financial_facts", `{"cik":"1045810","concept":"eps_diluted","as_of":"2024-03-01","years":2}`, ""},
		{"company_facts_none_yet", "get_financial_facts", `{` + apple + `,"concept":"net_income","as_of":"2009-01-01"}`, ""},
		{"company_section_1a", "get_filing_section", `{` + apple + `,` + tenK + `,"item":"1A","as_of":"2024-11-01","max_chars":400}`, ""},
		{"company_section_nvidia_7", "get_filing_section", `{"cik":"1045810","accession":"000104581025000023","item":"Item 7","as_of":"2025-03-01","max_chars":300}`, ""},
		// Declines.
		{"section_not_yet_filed", "get_filing_section", `{` + apple + `,` + tenK + `,"item":"1A","as_of":"2024-10-31"}`, edgar13f.NotYetFiled},
		{"section_not_found_8k", "get_filing_section", `{` + apple + `,"accession":"0000320193-24-000120","item":"1A","as_of":"2025-01-01"}`, edgar13f.SectionNotFound},
		{"section_bad_item", "get_filing_section", `{` + apple + `,` + tenK + `,"item":"99","as_of":"2025-01-01"}`, ia},
		{"section_10q_item_future", "get_filing_section", `{` + apple + `,` + tenK + `,"item":"II-1A","as_of":"2024-10-31"}`, edgar13f.NotYetFiled},
		{"section_max_chars_string", "get_filing_section", `{` + apple + `,` + tenK + `,"item":"1A","as_of":"2025-01-01","max_chars":"300"}`, ia},
		{"section_max_chars_range", "get_filing_section", `{` + apple + `,` + tenK + `,"item":"1A","as_of":"2025-01-01","max_chars":100001}`, ia},
		{"section_bad_accession", "get_filing_section", `{` + apple + `,"accession":"0000320193-24-00012","item":"1A","as_of":"2025-01-01"}`, ia},
		{"section_unknown_cik", "get_filing_section", `{"cik":"1234567",` + tenK + `,"item":"1A","as_of":"2025-01-01"}`, edgar13f.UnknownCIK},
		{"facts_unknown_concept", "get_financial_facts", `{` + apple + `,"concept":"no_such_concept","as_of":"2024-01-01"}`, edgar13f.UnknownConcept},
		{"facts_unknown_cik", "get_financial_facts", `{"cik":"1067983","concept":"revenue","as_of":"2024-01-01"}`, edgar13f.UnknownCIK},
		{"facts_years_float", "get_financial_facts", `{` + apple + `,"concept":"revenue","as_of":"2024-01-01","years":1.0}`, ia},
		{"facts_years_range", "get_financial_facts", `{` + apple + `,"concept":"revenue","as_of":"2024-01-01","years":31}`, ia},
		{"facts_missing_as_of", "get_financial_facts", `{` + apple + `,"concept":"revenue"}`, ia},
		{"facts_bad_cik_unknown_concept", "get_financial_facts", `{"cik":"32019a","concept":"no_such_concept","as_of":"2024-01-01"}`, ia},
		{"filings_cik_number", "list_filings", `{"cik":320193,"as_of":"2024-01-01"}`, ia},
		{"filings_limit_true", "list_filings", `{` + apple + `,"as_of":"2024-01-01","limit":true}`, ia},
		{"filings_limit_range", "list_filings", `{` + apple + `,"as_of":"2024-01-01","limit":101}`, ia},
		{"filings_form_number", "list_filings", `{` + apple + `,"as_of":"2024-01-01","form_type":10}`, ia},
		{"filings_unknown_argument", "list_filings", `{` + apple + `,"as_of":"2024-01-01","period":"2023-12-31"}`, ia},
		{"filings_unknown_cik", "list_filings", `{"cik":"1234567","as_of":"2024-01-01"}`, edgar13f.UnknownCIK},
		{"search_empty", "search_company", `{"name":""}`, ia},
		{"search_limit_string", "search_company", `{"name":"apple","limit":"3"}`, ia},
		{"search_as_of", "search_company", `{"name":"apple","as_of":"2024-01-01"}`, ia},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := callCompany(t, s, tt.tool, tt.args)
			members := 3
			if tt.tool == "get_financial_facts" {
				members = 4
			}
			checkResult(t, r, tt.name, tt.decline, members)
			if tt.decline == edgar13f.NotYetFiled {
				for _, leak := range []string{"2024-11-01", "10-K", "Risk"} {
					if strings.Contains(r.obj["message"].(string), leak) {
						t.Errorf("not_yet_filed message %q tells %q of the filing", r.obj["message"], leak)
					}
				}
			}
		})
	}
}

// TestCompanyFailures: a failure (here: no User-Agent, so nothing may be
// sent) carries the disclaimer of the tool's answers: none for the company
// tools, the facts one for get_financial_facts, the 13F one for the 13F
// tools.
func TestCompanyFailures(t *testing.T) {
	s := testkit.Connect(t, command(t, "EDGAR13F_BASE_URL=http://127.0.0.1:1"))
	for tool, args := range map[string]string{
		"search_company":      `{"name":"apple"}`,
		"list_filings":        `{"cik":"320193","as_of":"2024-01-01"}`,
		"get_financial_facts": `{"cik":"320193","concept":"revenue","as_of":"2024-01-01"}`,
		"get_filing_section":  `{"cik":"320193","accession":"0000320193-24-000123","item":"1A","as_of":"2025-01-01"}`,
		"list_13f_filings":    `{"cik":"1067983","as_of":"2024-05-15"}`,
	} {
		if r := callTool(t, s, tool, args, disclaimerOf(tool)); !r.isError || r.obj["status"] != "error" {
			t.Errorf("%s: %v, want a failure", tool, r.obj)
		}
	}
}

// TestSearchCompanyCIK: search_company answers each match's cik as the
// other tools do, digits without leading zeros (company_tickers.json
// holds numbers; the library's CompanyMatch.CIK is unpadded), whatever
// the query; examples/README.md says so rather than "10 digits".
func TestSearchCompanyCIK(t *testing.T) {
	s := testkit.Connect(t, command(t, "EDGAR13F_FIXTURE_DIR="+mirror))
	want := map[string]string{"apple": "320193", "AAPL": "320193", "nvidia": "1045810", "brk.b": "1067983"}
	for _, query := range slices.Sorted(maps.Keys(want)) {
		r := callCompany(t, s, "search_company", `{"name":"`+query+`","limit":20}`)
		matches, _ := r.obj["matches"].([]any)
		if len(matches) == 0 {
			t.Fatalf("%s: no matches: %v", query, r.obj)
		}
		for i, m := range matches {
			cik, _ := m.(map[string]any)["cik"].(string)
			if cik == "" || cik[0] == '0' || strings.Trim(cik, "0123456789") != "" {
				t.Errorf("%s: match %d cik %q, want digits without leading zeros", query, i, cik)
			}
			if i == 0 && cik != want[query] {
				t.Errorf("%s: first match cik %q, want %q", query, cik, want[query])
			}
		}
	}
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, shape, _ := strings.Cut(string(b), "- `search_company`: ")
	shape, _, _ = strings.Cut(shape, "\n- ")
	shape = strings.Join(strings.Fields(shape), " ")
	if !strings.Contains(shape, "without leading zeros") || strings.Contains(shape, "10 digits") {
		t.Errorf("examples/README.md documents search_company's cik as %q; the server answers digits without leading zeros", shape)
	}
}
