package main

import (
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f/examples/internal/settingstest"
	"github.com/edgar13f/edgar13f/examples/internal/testkit"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
)

// TestSettingsTable runs the example programs' one settings table through
// the CLI's run: holdings of a period that is no quarter end, a command
// that reads every setting of the CLI (--no-redact included) and declines
// invalid_period before anything is fetched, so that a case that starts
// sends nothing anywhere.
func TestSettingsTable(t *testing.T) {
	settingstest.Run(t, wire.CLI, func(t *testing.T, args, env []string) (int, string, *wire.Config) {
		var got *wire.Config
		configured = func(c wire.Config) { got = &c }
		defer func() { configured = nil }()
		var stdout, stderr strings.Builder
		code := run(testkit.Context(t), append([]string{"holdings", "1067983", "--period", "2024-12-30", "--as-of", "2025-03-01", "--format", "json"}, args...),
			&stdout, &stderr, testkit.Getenv(env))
		if got != nil && code == exitDeclined && strings.Contains(stdout.String(), `"invalid_period"`) {
			code = 0 // it started, and answered
		}
		return code, stderr.String(), got
	})
}

// TestRedactOffVariable: the CLI honours EDGAR13F_REDACT=off as the MCP
// server does (153 rows where redaction keeps 151), and --no-redact=false
// overrides it.
func TestRedactOffVariable(t *testing.T) {
	srv, _ := testkit.MirrorServer(t, nil)
	args := []string{"holdings", "1067983", "--period", "2023-09-30", "--as-of", "2024-05-15", "--format", "csv"}
	const ua = "SEC_USER_AGENT=edgar13f tests test@example.com"
	tests := []struct {
		name  string
		env   []string
		extra []string
		rows  int
	}{
		{"redacted", []string{ua, "EDGAR13F_BASE_URL=" + srv.URL}, nil, 151},
		{"redaction off", []string{ua, "EDGAR13F_BASE_URL=" + srv.URL, "EDGAR13F_REDACT=off"}, nil, 153},
		{"not exactly off", []string{ua, "EDGAR13F_BASE_URL=" + srv.URL, "EDGAR13F_REDACT=OFF"}, nil, 151},
		{"flag overrides variable", []string{ua, "EDGAR13F_BASE_URL=" + srv.URL, "EDGAR13F_REDACT=off"}, []string{"--no-redact=false"}, 151},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := exe(t, tt.env, append(args, tt.extra...)...)
			if rows := strings.Count(stdout, "\n") - 1; code != 0 || rows != tt.rows {
				t.Errorf("exit %d, %d rows, stderr %q; want 0, %d rows", code, rows, stderr, tt.rows)
			}
		})
	}
}

// TestUnreachableBaseURL: a base URL with nothing listening fails after
// the example programs' short retry budget (3 attempts), with a message
// naming the setting and the URL; a malformed one is a usage error naming
// the setting, not a Go option.
func TestUnreachableBaseURL(t *testing.T) {
	base := testkit.RefusedURL(t)
	args := []string{"filings", "320193", "--as-of", "2024-11-01", "--format", "json"}
	for _, tt := range []struct {
		name string
		env  []string
		args []string
	}{
		{"flag", []string{"SEC_USER_AGENT=edgar13f tests test@example.com"}, []string{"--base-url", base}},
		{"variable", []string{"SEC_USER_AGENT=edgar13f tests test@example.com", "EDGAR13F_BASE_URL=" + base}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := exe(t, tt.env, append(args, tt.args...)...)
			want := "edgar13f: --base-url (EDGAR13F_BASE_URL) " + base + " is unreachable: "
			if code != 1 || !strings.HasPrefix(stderr, want) || !strings.Contains(stderr, "giving up after 3 attempts") {
				t.Errorf("exit %d, stderr %q; want 1, %q... giving up after 3 attempts", code, stderr, want)
			}
		})
	}
	_, stderr, code := exe(t, []string{"SEC_USER_AGENT=edgar13f tests test@example.com"}, append(args, "--base-url", "localhost:8080")...)
	want := `edgar13f filings: --base-url (EDGAR13F_BASE_URL) "localhost:8080" is not an http or https URL with a host and no query or fragment, such as http://127.0.0.1:8080` + "\n"
	if code != 2 || !strings.HasPrefix(stderr, want) || strings.Contains(stderr, "WithBaseURL") {
		t.Errorf("malformed: exit %d, stderr %q; want 2, %q...", code, stderr, want)
	}
}
