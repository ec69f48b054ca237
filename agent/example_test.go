package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/agent"
	"github.com/edgar13f/edgar13f/agent/model"
	"github.com/edgar13f/edgar13f/mirror"
)

// A figure copied from the cited text is grounded, in any written form of
// its value; a rounding is not.
func ExampleGround() {
	chunk := agent.Source{ID: "c:2d673b8c0a2e3270", Text: "The following table shows net sales by category (dollars in millions):\n" +
		"Total net sales | $391,035 | 2% | $383,285 | (3)% | $394,328"}
	g := agent.Ground("Net sales were $391.035 billion, up 2% [c:2d673b8c0a2e3270]; about $391.0B.", []agent.Source{chunk})
	for _, n := range g.Numbers {
		fmt.Printf("%-16s %-8s %-14s grounded=%v\n", n.Text, n.Kind, n.Value, n.Source != "")
	}
	// Output:
	// $391.035 billion amount   391035000000   grounded=true
	// 2%               percent  2              grounded=true
	// $391.0B          amount   391000000000   grounded=false
}

// A question answered by a model that reads Apple's XBRL revenue and
// cites it. The model here is a scripted server speaking the OpenAI chat
// completions wire format; the facts come from the recorded EDGAR mirror.
func ExampleAgent_Ask() {
	turns := []string{
		`{"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function",
		  "function":{"name":"get_financial_facts","arguments":"{\"cik\":\"320193\",\"concept\":\"revenue\",\"years\":1}"}}]},
		  "finish_reason":"tool_calls"}],"model":"scripted","usage":{"prompt_tokens":900,"completion_tokens":30}}`,
		`{"choices":[{"message":{"role":"assistant","content":"Apple's revenue for fiscal 2024 was $391,035 million [f:0000320193-24-000123]."},
		  "finish_reason":"stop"}],"model":"scripted","usage":{"prompt_tokens":1400,"completion_tokens":25}}`,
	}
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		var v any
		json.Unmarshal([]byte(turns[n]), &v) // compact the scripted JSON
		json.NewEncoder(w).Encode(v)
		n++
	}))
	defer srv.Close()

	tree, err := mirror.Dir("../testdata/mirror")
	if err != nil {
		log.Fatal(err)
	}
	c, err := edgar13f.NewClient(edgar13f.WithFetcher(mirror.NewFetcher(tree)), edgar13f.WithCache(nil))
	if err != nil {
		log.Fatal(err)
	}
	m, err := model.New(model.Config{ChatURL: srv.URL + "/v1", Model: "scripted"})
	if err != nil {
		log.Fatal(err)
	}
	a, err := agent.New(c, nil, m) // no filing index: company tools only
	if err != nil {
		log.Fatal(err)
	}
	res, err := a.Ask(context.Background(), "What was Apple's revenue in fiscal 2024?", edgar13f.MustParseDate("2025-01-15"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Status, res.Answer)
	for _, tc := range res.ToolCalls {
		fmt.Println("tool:", tc.Name, tc.Summary)
	}
	for _, cit := range res.Citations {
		fmt.Println("cites:", cit.Kind, cit.Accession, cit.Form, cit.FilingDate)
	}
	fmt.Printf("%d of %d numbers grounded, %d tokens in, %d out\n", len(res.Grounding.Grounded), len(res.Grounding.Numbers), res.Usage.InputTokens, res.Usage.OutputTokens)
	// Output:
	// answered Apple's revenue for fiscal 2024 was $391,035 million [f:0000320193-24-000123].
	// tool: get_financial_facts CIK 320193 revenue: 1 value, FY2024 = 391035000000 USD (0000320193-24-000123)
	// cites: fact 0000320193-24-000123 10-K 2024-11-01
	// 1 of 1 numbers grounded, 2300 tokens in, 55 out
}
