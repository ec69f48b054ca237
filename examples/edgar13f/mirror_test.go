package main

import (
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f/examples/internal/testkit"
)

// TestMirrorLacksCompany: a company the mirror tree (--fixture-dir) has no
// file of is a failure naming the tree and the file looked for, never
// "EDGAR has no filer"; over HTTP (an EDGAR that answers 404) the decline
// stays EDGAR's.
func TestMirrorLacksCompany(t *testing.T) {
	submissions := "it has no file data.sec.gov/submissions/CIK0000789019.json"
	for _, tt := range []struct {
		args []string
		file string
	}{
		{[]string{"index", "MSFT"}, submissions},
		{[]string{"filings", "789019"}, submissions},
		{[]string{"13f-filings", "789019"}, submissions},
		{[]string{"holdings", "789019", "--period", "2024-12-31"}, submissions},
		{[]string{"diff", "789019", "--period-a", "2024-09-30", "--period-b", "2024-12-31"}, submissions},
		{[]string{"section", "789019", "0000789019-25-000008", "1A"}, submissions},
		{[]string{"facts", "789019", "revenue"}, "it has no file data.sec.gov/api/xbrl/companyfacts/CIK0000789019.json"},
	} {
		t.Run(tt.args[0], func(t *testing.T) {
			for _, format := range []string{"json", "table"} {
				stdout, stderr, code := exe(t, nil, append(tt.args, "--fixture-dir", mirror, "--as-of", "2025-03-01", "--format", format)...)
				want := "edgar13f: the mirror tree " + mirror + " lacks this company: " + tt.file
				if code != exitFailure || stdout != "" || !strings.HasPrefix(stderr, want) || strings.Contains(stderr, "EDGAR has no") {
					t.Errorf("%s: exit %d, stdout %q, stderr %q; want 1, %q...", format, code, stdout, stderr, want)
				}
			}
		})
	}
	srv, _ := testkit.MirrorServer(t, nil)
	stdout, stderr, code := exe(t, []string{"SEC_USER_AGENT=edgar13f tests test@example.com", "EDGAR13F_BASE_URL=" + srv.URL},
		"filings", "789019", "--as-of", "2025-03-01", "--format", "json")
	if code != exitDeclined || !strings.Contains(stdout, `"reason":"unknown_cik"`) || !strings.Contains(stderr, "EDGAR has no filer with CIK 789019") {
		t.Errorf("over HTTP: exit %d, stdout %q, stderr %q; want EDGAR's decline", code, stdout, stderr)
	}
}
