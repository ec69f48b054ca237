package main

import (
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/examples/internal/testkit"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
)

// connectServer connects a client session to a server answering with c,
// set up by cfg, in this process.
func connectServer(t *testing.T, c *edgar13f.Client, cfg wire.Config) *mcp.ClientSession {
	t.Helper()
	ans := newAnswers()
	srv, closeServer := newServer(c, cfg, ans, nil, io.Discard)
	t.Cleanup(closeServer)
	ctx := testkit.Context(t)
	serverIn, clientOut := io.Pipe()
	clientIn, serverOut := io.Pipe()
	ss, err := srv.Connect(ctx, &transport{in: serverIn, out: serverOut, log: io.Discard, answers: ans}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	s, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.IOTransport{Reader: clientIn, Writer: clientOut}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestCompanyDataShared: the company tools of one server share one
// companies.Companies, so the second call of search_company reads EDGAR's
// ticker list from memory, and the second get_financial_facts of a company
// its facts, even with no cache at all; the answers are the same.
func TestCompanyDataShared(t *testing.T) {
	c, f := testkit.CountingClient(t)
	s := connectServer(t, c, wire.Config{})
	for _, tc := range []struct{ tool, args, url string }{
		{"search_company", `{"name":"apple","limit":3}`, "https://www.sec.gov/files/company_tickers.json"},
		{"get_financial_facts", `{"cik":"320193","concept":"revenue","as_of":"2024-11-15"}`, "https://data.sec.gov/api/xbrl/companyfacts/CIK0000320193.json"},
	} {
		first := callCompany(t, s, tc.tool, tc.args)
		second := callCompany(t, s, tc.tool, tc.args)
		if first.isError || first.obj["status"] != "ok" {
			t.Fatalf("%s(%s) = %v; want an answer", tc.tool, tc.args, first.obj)
		}
		if diff := cmp.Diff(first, second, cmp.AllowUnexported(result{})); diff != "" {
			t.Errorf("%s(%s): the second answer differs (-first +second):\n%s", tc.tool, tc.args, diff)
		}
		if n := f.Reads(tc.url); n != 1 {
			t.Errorf("%s called twice read %s %d times; want once", tc.tool, tc.url, n)
		}
	}
}

// TestAskSharesCompanyData: ask_filings reads company data through the
// server's one companies.Companies, the company tools' own: after
// search_company has read EDGAR's ticker list, two questions whose model
// resolves a company read it no more, even with no cache at all.
func TestAskSharesCompanyData(t *testing.T) {
	const tickersURL = "https://www.sec.gov/files/company_tickers.json"
	m := testkit.NewChatModel(t, testkit.ResolveAppleScript)
	c, f := testkit.CountingClient(t)
	s := connectServer(t, c, wire.ConfigFromEnv(testkit.Getenv(append(m.Env(), "EDGAR13F_CACHE_DIR="+t.TempDir()))))
	if r := callCompany(t, s, "search_company", `{"name":"apple","limit":3}`); r.isError || r.obj["status"] != "ok" {
		t.Fatalf("search_company = %v", r.obj)
	}
	for range 2 {
		if r := callTool(t, s, "ask_filings", `{"question":"Which CIK is Apple?","as_of":"2025-03-01"}`, wire.AskDisclaimer); r.isError {
			t.Fatalf("ask_filings = %v", r.obj)
		}
	}
	reqs := m.Requests()
	if len(reqs) != 4 {
		t.Fatalf("the model was sent %d requests; want 4 (a tool call and an answer per question)", len(reqs))
	}
	if res := reqs[1].ToolResults(); len(res) != 1 || !strings.Contains(res[0], "320193") {
		t.Errorf("resolve_company's result %q does not name Apple's CIK", res)
	}
	if n := f.Reads(tickersURL); n != 1 {
		t.Errorf("search_company and two questions read %s %d times; want once", tickersURL, n)
	}
}
