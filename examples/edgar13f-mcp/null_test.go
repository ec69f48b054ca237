package main

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edgar13f/edgar13f/examples/internal/testkit"
)

// nullBase holds, for every tool, arguments that are all valid: each
// case of TestNullArguments replaces one of them, or adds one of the
// optional ones, as JSON null.
var nullBase = map[string]string{
	"find_manager":        `{"name":"berkshire"}`,
	"list_13f_filings":    `{"cik":"1067983","as_of":"2024-05-15"}`,
	"get_holdings_as_of":  `{"cik":"1067983","period":"2023-09-30","as_of":"2024-05-15"}`,
	"diff_holdings":       `{"cik":"1067983","period_a":"2023-09-30","period_b":"2023-12-31","as_of":"2024-05-16"}`,
	"get_holders_as_of":   `{"cusip":"037833100","period":"2023-09-30","as_of":"2024-05-15"}`,
	"get_frame":           `{"concept":"net_income","period":"CY2009","as_of":"2010-02-01"}`,
	"search_company":      `{"name":"apple"}`,
	"list_filings":        `{"cik":"320193","as_of":"2024-11-01"}`,
	"get_financial_facts": `{"cik":"320193","concept":"revenue","as_of":"2010-01-25"}`,
	"get_filing_section":  `{"cik":"320193","accession":"0000320193-24-000123","item":"1A","as_of":"2024-11-01"}`,
	"index_filings":       `{"tickers":["NVDA"],"as_of":"2025-03-01"}`,
	"search_filings":      `{"query":"revenue","as_of":"2025-03-01"}`,
	"get_chunk":           `{"chunk_id":"0123456789abcdef","as_of":"2025-03-01"}`,
	"ask_filings":         `{"question":"What was NVIDIA's revenue?","as_of":"2025-03-01"}`,
}

// nullWant says what each argument must be, by tool and name, as the
// message of its decline when null says it ("tool.name" or "name" for
// every tool).
var nullWant = map[string]string{
	"cik": "a JSON string", "name": "a JSON string", "cusip": "a JSON string", "concept": "a JSON string", "accession": "a JSON string",
	"item": "a JSON string", "query": "a JSON string", "chunk_id": "a JSON string", "question": "a JSON string", "issuer": "a JSON string",
	"position_type": "a JSON string", "form_type": "a JSON string", "ticker": "a JSON string", "form": "a JSON string", "mode": "a JSON string",
	"as_of": "a date YYYY-MM-DD", "period": "a date YYYY-MM-DD", "period_a": "a date YYYY-MM-DD", "period_b": "a date YYYY-MM-DD",
	"get_holdings_as_of.cusip": "a JSON array of strings", "diff_holdings.cusip": "a JSON array of strings",
	"tickers": "a JSON array of strings", "forms": "a JSON array of strings",
	"max_positions": "an integer from 1 to 200", "max_holders": "an integer from 1 to 500", "find_manager.limit": "an integer from 1 to 20",
	"search_company.limit": "an integer from 1 to 100", "list_filings.limit": "an integer from 1 to 100", "years": "an integer from 1 to 30",
	"max_chars": "an integer from 1 to 100000", "filings": "an integer from 1 to 20", "k": "an integer from 1 to 50", "span": "an integer from 0 to 5",
	// The library checks the fiscal year; the server only that it is an integer.
	"fiscal_year":      "a JSON integer",
	"get_frame.period": "a JSON string", "unit": "a JSON string", "order": "a JSON string", "get_frame.limit": "an integer from 1 to 10000",
}

// TestNullArguments: every argument of every tool, given as JSON null, is
// declined invalid_argument with a message that names it, says what it
// must be and, for an optional one, to leave it out; never "not null
// null". The tools and their arguments are read from tools/list, so that
// a new one is covered or fails here.
func TestNullArguments(t *testing.T) {
	m := testkit.NewChatModel(t, func(int, testkit.ChatRequest) testkit.ChatTurn {
		t.Error("a declined call reached the model")
		return testkit.ChatTurn{Text: "unused"}
	})
	s, _ := askSession(t, m)
	tools, err := s.ListTools(testkit.Context(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, tl := range tools.Tools {
		listed = append(listed, tl.Name)
		base, ok := nullBase[tl.Name]
		if !ok {
			t.Errorf("tool %s: no valid arguments in nullBase to test null arguments with", tl.Name)
			continue
		}
		var schema struct {
			Properties map[string]any `json:"properties"`
			Required   []string       `json:"required"`
		}
		b, err := json.Marshal(tl.InputSchema)
		if err != nil || json.Unmarshal(b, &schema) != nil || len(schema.Properties) == 0 {
			t.Fatalf("tool %s: input schema %s: %v", tl.Name, b, err)
		}
		for _, name := range slices.Sorted(maps.Keys(schema.Properties)) {
			t.Run(tl.Name+"/"+name, func(t *testing.T) {
				want, ok := nullWant[tl.Name+"."+name]
				if !ok {
					want, ok = nullWant[name]
				}
				if !ok {
					t.Fatalf("no expected message for %s.%s in nullWant", tl.Name, name)
				}
				want = `argument "` + name + `" must be ` + want + `, not null`
				if !slices.Contains(schema.Required, name) {
					want += "; to leave it unset, omit it"
				}
				var args map[string]any
				if err := json.Unmarshal([]byte(base), &args); err != nil {
					t.Fatal(err)
				}
				args[name] = nil
				raw, _ := json.Marshal(args)
				res, err := s.CallTool(testkit.Context(t), &mcp.CallToolParams{Name: tl.Name, Arguments: json.RawMessage(raw)})
				if err != nil {
					t.Fatalf("%s: protocol error %v", raw, err)
				}
				var obj map[string]any
				if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &obj); err != nil {
					t.Fatal(err)
				}
				msg, _ := obj["message"].(string)
				if res.IsError || obj["status"] != "declined" || obj["reason"] != "invalid_argument" || msg != want {
					t.Errorf("%s %s: isError %v, %v %v %q;\nwant a decline invalid_argument %q", tl.Name, raw, res.IsError, obj["status"], obj["reason"], msg, want)
				}
				if strings.Contains(msg, "null null") {
					t.Errorf("message %q", msg)
				}
			})
		}
	}
	if len(listed) != len(nullBase) {
		t.Errorf("tools/list has %v; nullBase names %d tools", listed, len(nullBase))
	}
}
