package main

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edgar13f/edgar13f/examples/internal/testkit"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
)

// listed reports whether the server started with env lists tool.
func listed(t *testing.T, tool string, env ...string) bool {
	t.Helper()
	s := testkit.Connect(t, command(t, env...))
	res, err := s.ListTools(testkit.Context(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	return slices.ContainsFunc(res.Tools, func(tl *mcp.Tool) bool { return tl.Name == tool })
}

// ask_filings is listed only when a model is configured: not without
// settings, not with a chat URL that names no model.
func TestAskListedOnlyWithModel(t *testing.T) {
	m := testkit.NewChatModel(t, func(int, testkit.ChatRequest) testkit.ChatTurn { return testkit.ChatTurn{Text: "unused"} })
	if listed(t, "ask_filings", "EDGAR13F_FIXTURE_DIR="+mirror) {
		t.Error("ask_filings listed with no model configured")
	}
	if listed(t, "ask_filings", "EDGAR13F_FIXTURE_DIR="+mirror, "EDGAR13F_CHAT_URL="+m.URL) {
		t.Error("ask_filings listed with a chat URL but no model name")
	}
	if !listed(t, "ask_filings", append(m.Env(), "EDGAR13F_FIXTURE_DIR="+mirror)...) {
		t.Error("ask_filings not listed with a model configured")
	}
	if n := len(m.Requests()); n != 0 {
		t.Errorf("listing the tools sent %d requests to the model", n)
	}
}

// askSession connects to a server whose model is m, collecting the
// progress notifications it sends.
func askSession(t *testing.T, m *testkit.ChatModel) (*mcp.ClientSession, func() []string) {
	t.Helper()
	var mu sync.Mutex
	var notes []string
	client := mcp.NewClient(&mcp.Implementation{Name: "ask-test", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			notes = append(notes, r.Params.Message)
			mu.Unlock()
		},
	})
	s, err := client.Connect(testkit.Context(t), &mcp.CommandTransport{Command: command(t, append(m.Env(), "EDGAR13F_FIXTURE_DIR="+mirror)...)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(notes)
	}
}

// callAsk calls ask_filings with a progress token.
func callAsk(t *testing.T, s *mcp.ClientSession, args string) result {
	t.Helper()
	p := &mcp.CallToolParams{Name: "ask_filings", Arguments: json.RawMessage(args)}
	p.SetProgressToken("ask-1")
	res, err := s.CallTool(testkit.Context(t), p)
	if err != nil {
		t.Fatal(err)
	}
	var r result
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &r.obj); err != nil {
		t.Fatal(err)
	}
	if r.obj["disclaimer"] != wire.AskDisclaimer {
		t.Errorf("disclaimer %v", r.obj["disclaimer"])
	}
	r.isError = res.IsError
	return r
}

// A question over the mirror, answered by a scripted model: NVIDIA's 10-K
// is indexed (tickers), searched, and the answer cites its chunk, with
// every member the SPEC names and a progress note per step. The day before
// the filing nothing of it is found and the answer cannot be grounded.
func TestAskFilings(t *testing.T) {
	m := testkit.NewChatModel(t, testkit.RevenueScript("$130.5 billion"))
	s, notes := askSession(t, m)
	r := callAsk(t, s, `{"question":"What was NVIDIA's revenue for fiscal 2025?","as_of":"2025-02-26","tickers":["NVDA"]}`)
	if r.isError || r.obj["status"] != "answered" {
		t.Fatalf("ask_filings = %v", r.obj)
	}
	if a, _ := r.obj["answer"].(string); !strings.Contains(a, "$130.5 billion [c:") || r.obj["draft"] != nil {
		t.Errorf("answer %v, draft %v", r.obj["answer"], r.obj["draft"])
	}
	cits := r.obj["citations"].([]any)
	if len(cits) != 1 {
		t.Fatalf("citations %v", cits)
	}
	c := cits[0].(map[string]any)
	if c["accession_number"] != nvidiaAccession || c["item"] != "7" || c["kind"] != "chunk" || len(c["chunk_id"].(string)) != 16 ||
		!strings.HasPrefix(c["url"].(string), "https://www.sec.gov/Archives/edgar/data/1045810/") {
		t.Errorf("citation %v", c)
	}
	g := r.obj["grounding"].(map[string]any)
	if g["numbers"] != 1.0 || len(g["grounded"].([]any)) != 1 || len(g["ungrounded"].([]any)) != 0 {
		t.Errorf("grounding %v", g)
	}
	calls := r.obj["tool_calls"].([]any)
	if len(calls) != 1 {
		t.Fatalf("tool_calls %v", calls)
	}
	call := calls[0].(map[string]any)
	if call["name"] != "search_filings" || call["arguments"].(map[string]any)["ticker"] != "NVDA" || call["summary"] == "" {
		t.Errorf("tool call %v", call)
	}
	if u := r.obj["usage"].(map[string]any); u["input_tokens"] != 2000.0 || u["output_tokens"] != 20.0 {
		t.Errorf("usage %v", u)
	}
	if r.obj["model"] != testkit.ChatModelName || r.obj["as_of"] != "2025-02-26" || r.obj["question"] != "What was NVIDIA's revenue for fiscal 2025?" {
		t.Errorf("model %v, as_of %v, question %v", r.obj["model"], r.obj["as_of"], r.obj["question"])
	}
	got := strings.Join(notes(), "\n")
	for _, want := range []string{"index_filings NVDA: filing " + nvidiaAccession, "search_filings NVDA \"revenue for fiscal year 2025 was\""} {
		if !strings.Contains(got, want) {
			t.Errorf("progress notes lack %q:\n%s", want, got)
		}
	}

	// The day before NVIDIA filed, over the same store: its 10-K is not
	// found, so the model has no chunk to cite and its figure is ungrounded.
	before := len(m.Requests())
	r = callAsk(t, s, `{"question":"What was NVIDIA's revenue for fiscal 2025?","as_of":"2025-02-25"}`)
	if r.obj["status"] != "ungrounded" || r.obj["answer"] != nil || len(r.obj["citations"].([]any)) != 0 {
		t.Errorf("the day before: %v", r.obj)
	}
	if results := m.Requests()[before+1].ToolResults(); len(results) != 1 || strings.Contains(results[0], nvidiaAccession) || strings.Contains(results[0], "130.5") {
		t.Errorf("the search the day before returned %v", results)
	}
}

// A figure the cited chunk does not hold comes back ungrounded after the
// repair round: no answer, the figure listed.
func TestAskFilingsUngrounded(t *testing.T) {
	m := testkit.NewChatModel(t, testkit.RevenueScript("$131.5 billion"))
	s, _ := askSession(t, m)
	r := callAsk(t, s, `{"question":"What was NVIDIA's revenue for fiscal 2025?","as_of":"2025-03-01","tickers":["NVDA"]}`)
	if r.isError || r.obj["status"] != "ungrounded" || r.obj["answer"] != nil || !strings.Contains(r.obj["draft"].(string), "$131.5 billion") {
		t.Fatalf("ask_filings = %v", r.obj)
	}
	g := r.obj["grounding"].(map[string]any)
	un := g["ungrounded"].([]any)
	if len(un) != 1 || un[0].(map[string]any)["text"] != "$131.5 billion" || r.obj["repaired"] != true {
		t.Errorf("grounding %v, repaired %v", g, r.obj["repaired"])
	}
	if n := len(m.Requests()); n != 3 {
		t.Errorf("%d model turns, want 3 (search, answer, repair)", n)
	}
}

// Bad arguments decline before the model is asked.
func TestAskFilingsDeclines(t *testing.T) {
	m := testkit.NewChatModel(t, testkit.RevenueScript("$130.5 billion"))
	s, _ := askSession(t, m)
	for _, args := range []string{
		`{"as_of":"2025-03-01"}`,
		`{"question":"What?"}`,
		`{"question":"What?","as_of":"2025-13-01"}`,
		`{"question":"What?","as_of":"2025-03-01","tickers":[]}`,
		`{"question":"What?","as_of":"2025-03-01","when":"now"}`,
	} {
		r := callAsk(t, s, args)
		if r.isError || r.obj["status"] != "declined" || r.obj["reason"] != "invalid_argument" {
			t.Errorf("%s: %v", args, r.obj)
		}
	}
	if n := len(m.Requests()); n != 0 {
		t.Errorf("%d requests reached the model", n)
	}
}
