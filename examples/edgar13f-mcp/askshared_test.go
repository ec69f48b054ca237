package main

import (
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/examples/internal/testkit"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
)

// TestAskSharesCompanyData: ask_filings reads company data through the
// server's one companies.Companies, the company tools' own: after
// search_company has read EDGAR's ticker list, two questions whose model
// resolves a company read it no more, even with no cache at all.
func TestAskSharesCompanyData(t *testing.T) {
	const tickersURL = "https://www.sec.gov/files/company_tickers.json"
	m := testkit.NewChatModel(t, func(_ int, r testkit.ChatRequest) testkit.ChatTurn {
		if len(r.ToolResults()) > 0 {
			return testkit.ChatTurn{Text: "Apple is CIK 320193."}
		}
		return testkit.ChatTurn{Calls: []testkit.ChatCall{{ID: "c1", Name: "resolve_company", Args: `{"name":"Apple"}`}}}
	})
	f := testkit.NewCountingFetcher(t)
	c, err := edgar13f.NewClient(edgar13f.WithFetcher(f), edgar13f.WithCache(nil))
	if err != nil {
		t.Fatal(err)
	}
	cfg := wire.ConfigFromEnv(testkit.Getenv(append(m.Env(), "EDGAR13F_CACHE_DIR="+t.TempDir())))
	ans := newAnswers()
	srv, closeServer := newServer(c, cfg, ans, nil, io.Discard)
	defer closeServer()
	ctx := testkit.Context(t)
	serverIn, clientOut := io.Pipe()
	clientIn, serverOut := io.Pipe()
	ss, err := srv.Connect(ctx, &transport{in: serverIn, out: serverOut, log: io.Discard, answers: ans}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	s, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.IOTransport{Reader: clientIn, Writer: clientOut}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	if r := callCompany(t, s, "search_company", `{"name":"apple","limit":3}`); r.isError || r.obj["status"] != "ok" {
		t.Fatalf("search_company = %v", r.obj)
	}
	for range 2 {
		r := callTool(t, s, "ask_filings", `{"question":"Which CIK is Apple?","as_of":"2025-03-01"}`, wire.AskDisclaimer)
		if r.isError {
			t.Fatalf("ask_filings = %v", r.obj)
		}
	}
	if n := len(m.Requests()); n != 4 {
		t.Errorf("the model was sent %d requests; want 4 (a tool call and an answer per question)", n)
	}
	for _, req := range m.Requests()[1:2] {
		if res := req.ToolResults(); len(res) != 1 || !strings.Contains(res[0], "320193") {
			t.Errorf("resolve_company's result %q does not name Apple's CIK", res)
		}
	}
	if n := f.Reads(tickersURL); n != 1 {
		t.Errorf("search_company and two questions read %s %d times; want once", tickersURL, n)
	}
}
