package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/examples/internal/testkit"
)

// TestCompaniesShared: the requests of one API share one
// companies.Companies, so the second /companies request reads EDGAR's
// ticker list from memory, even with no cache at all; the answers are the
// same.
func TestCompaniesShared(t *testing.T) {
	const tickersURL = "https://www.sec.gov/files/company_tickers.json"
	f := testkit.NewCountingFetcher(t)
	c, err := edgar13f.NewClient(edgar13f.WithFetcher(f), edgar13f.WithCache(nil))
	if err != nil {
		t.Fatal(err)
	}
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
