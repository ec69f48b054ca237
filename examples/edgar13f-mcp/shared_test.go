package main

import (
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/examples/internal/testkit"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
)

// TestCompanyDataShared: the company tools of one server share one
// companies.Companies, so the second call of search_company reads EDGAR's
// ticker list from memory, and the second get_financial_facts of a company
// its facts, even with no cache at all; the answers are the same.
func TestCompanyDataShared(t *testing.T) {
	f := testkit.NewCountingFetcher(t)
	c, err := edgar13f.NewClient(edgar13f.WithFetcher(f), edgar13f.WithCache(nil))
	if err != nil {
		t.Fatal(err)
	}
	ans := newAnswers()
	srv, closeServer := newServer(c, wire.Config{}, ans, nil, io.Discard)
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
