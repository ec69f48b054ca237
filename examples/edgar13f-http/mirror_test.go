package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/examples/internal/testkit"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
)

// syncBuffer is a strings.Builder safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestMirrorLacksCompanyLogged: an answer declined unknown_cik because the
// fixture directory's tree lacks the company's file is the MCP tool's
// decline, as it is (404, EDGAR's message), and the API says on standard
// error, as the CLI and the MCP server do, that the tree lacks the
// company. (No endpoint of the API reads a company's filing list itself
// today; the answer path is tested with a question that does.)
func TestMirrorLacksCompanyLogged(t *testing.T) {
	var stderr syncBuffer
	a, code := start(nil, io.Discard, &stderr, testkit.Getenv([]string{"EDGAR13F_FIXTURE_DIR=" + mirror, "EDGAR13F_CACHE_DIR=" + t.TempDir()}))
	if a == nil {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	defer a.close()
	for _, tc := range []struct{ cik, message, log string }{
		{"789019", "EDGAR has no filer with CIK 789019", "edgar13f-http: /filings declined unknown_cik: the mirror tree " + mirror +
			" lacks this company: it has no file data.sec.gov/submissions/CIK0000789019.json"},
		{"1067983", "", ""},
	} {
		before := len(stderr.String())
		r := httptest.NewRequest(http.MethodGet, "/filings", nil)
		r = r.WithContext(wire.Watch(context.Background()))
		w := httptest.NewRecorder()
		a.answer(w, r, wire.Disclaimer, func() (wire.Answer, error) {
			_, err := a.c.Companies().Filings(r.Context(), tc.cik, edgar13f.MustParseDate("1990-03-01"))
			if err == nil {
				err = edgar13f.Decline(edgar13f.UnknownCIK, "no filing")
			}
			return nil, err
		})
		body := w.Body.String()
		if w.Code != http.StatusNotFound || !strings.Contains(body, `"reason":"unknown_cik"`) || tc.message != "" && !strings.Contains(body, tc.message) || strings.Contains(body, "mirror") {
			t.Errorf("CIK %s: %d %s; want EDGAR's decline, 404", tc.cik, w.Code, body)
		}
		logged := stderr.String()[before:]
		if tc.log == "" && logged != "" || tc.log != "" && !strings.HasPrefix(logged, tc.log) {
			t.Errorf("CIK %s logged %q; want %q", tc.cik, logged, tc.log)
		}
	}
}
