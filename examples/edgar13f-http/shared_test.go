package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f/agent/model"
	"github.com/edgar13f/edgar13f/examples/internal/testkit"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
)

// TestCompaniesShared: the requests of one API share one
// companies.Companies, so the second /companies request reads EDGAR's
// ticker list from memory, even with no cache at all; the answers are the
// same.
func TestCompaniesShared(t *testing.T) {
	const tickersURL = "https://www.sec.gov/files/company_tickers.json"
	c, f := testkit.CountingClient(t)
	a := &api{log: io.Discard}
	a.useClient(c)
	var bodies []string
	for range 2 {
		w := httptest.NewRecorder()
		a.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/companies?q=apple&limit=3", nil))
		if w.Code != http.StatusOK {
			t.Fatalf("GET /companies: %d %s", w.Code, w.Body)
		}
		bodies = append(bodies, w.Body.String())
	}
	if bodies[0] != bodies[1] {
		t.Errorf("the second answer differs:\n%s\n%s", bodies[0], bodies[1])
	}
	if n := f.Reads(tickersURL); n != 1 {
		t.Errorf("two requests read %s %d times; want once", tickersURL, n)
	}
}

// TestAskSharesCompanies: /ask reads company data through the API's one
// companies.Companies, /companies' own: after /companies has read EDGAR's
// ticker list, two questions whose model resolves a company read it no
// more, even with no cache at all.
func TestAskSharesCompanies(t *testing.T) {
	const tickersURL = "https://www.sec.gov/files/company_tickers.json"
	m := testkit.NewChatModel(t, testkit.ResolveAppleScript)
	c, f := testkit.CountingClient(t)
	cfg := wire.ConfigFromEnv(testkit.Getenv(append(m.Env(), "EDGAR13F_CACHE_DIR="+t.TempDir())))
	chat, err := model.New(cfg.Model)
	if err != nil {
		t.Fatal(err)
	}
	a := &api{cfg: cfg, model: chat, log: io.Discard}
	a.useClient(c)
	defer a.close()
	for _, r := range []*http.Request{
		httptest.NewRequest(http.MethodGet, "/companies?q=apple&limit=3", nil),
		httptest.NewRequest(http.MethodPost, "/ask", strings.NewReader(`{"question":"Which CIK is Apple?","as_of":"2025-03-01"}`)),
		httptest.NewRequest(http.MethodPost, "/ask", strings.NewReader(`{"question":"Which CIK is Apple?","as_of":"2025-03-01"}`)),
	} {
		w := httptest.NewRecorder()
		a.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			t.Fatalf("%s %s: %d %s", r.Method, r.URL, w.Code, w.Body)
		}
	}
	if n := len(m.Requests()); n != 4 {
		t.Errorf("the model was sent %d requests; want 4 (a tool call and an answer per question)", n)
	}
	if n := f.Reads(tickersURL); n != 1 {
		t.Errorf("/companies and two questions read %s %d times; want once", tickersURL, n)
	}
}
