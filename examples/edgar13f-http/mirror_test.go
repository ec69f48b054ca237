package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/examples/internal/testkit"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
)

// TestMirrorLacksCompanyLogged: an answer declined unknown_cik because the
// fixture directory's tree lacks the company's file is the MCP tool's
// decline, as it is (404, EDGAR's message), and the API says on standard
// error, as the CLI and the MCP server do, that the tree lacks the
// company; a decline of a company the tree has logs nothing (the cases of
// testkit.MirrorLacksCompany, shared with the MCP server's test). (No
// endpoint of the API reads a manager's 13F filing list itself today; the
// answer path is tested with a question that does.)
func TestMirrorLacksCompanyLogged(t *testing.T) {
	var stderr testkit.SyncBuffer
	a, code := start(nil, io.Discard, &stderr, testkit.Getenv([]string{"EDGAR13F_FIXTURE_DIR=" + mirror, "EDGAR13F_CACHE_DIR=" + t.TempDir()}))
	if a == nil {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	defer a.close()
	for _, tc := range testkit.MirrorLacksCompany {
		before := len(stderr.String())
		r := httptest.NewRequest(http.MethodGet, "/filings", nil)
		r = r.WithContext(wire.Watch(context.Background()))
		w := httptest.NewRecorder()
		a.answer(w, r, wire.Disclaimer, func() (wire.Answer, error) {
			_, err := a.c.Filings(r.Context(), tc.CIK, edgar13f.MustParseDate(tc.AsOf))
			if err == nil {
				t.Errorf("CIK %s as of %s: answered", tc.CIK, tc.AsOf)
			}
			return nil, err
		})
		body := w.Body.String()
		if w.Code != http.StatusNotFound || !strings.Contains(body, `"reason":"unknown_cik"`) || !strings.Contains(body, tc.Message) || strings.Contains(body, "mirror") {
			t.Errorf("CIK %s: %d %s; want EDGAR's decline, 404, %q", tc.CIK, w.Code, body, tc.Message)
		}
		logged, want := stderr.String()[before:], tc.Logged("edgar13f-http", "/filings", mirror)
		if want == "" && logged != "" || want != "" && !strings.HasPrefix(logged, want) {
			t.Errorf("CIK %s logged %q; want %q", tc.CIK, logged, want)
		}
	}
}
